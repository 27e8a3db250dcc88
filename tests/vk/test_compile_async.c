/* tests/vk/test_compile_async.c — compiles in the background (spvgen_vk_pipeline_create_async,
 * spvgen_vk_compile_done / _finish / _cancel): a compile ends on its own thread and its
 * pipeline runs right, with the driver's time and one compile in the kernel cache's stats;
 * the same words again are ready at once (a reuse, 0 ms); two compiles in flight finish
 * in either order while the context does other work; bad arguments are named at once;
 * a context destroyed with compiles unfinished, and a compile cancelled in flight, leave
 * nothing behind (the ASan build checks the leaks); a kernel cache save waits for the
 * compile running. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spvgen/elementwise.h"
#include "vk_fixture.h"

enum { N = 1000 }; /* not a multiple of the workgroup: the kernel's bounds check runs too */

/* A context without the disk cache: the stats and compile times are this test's alone. */
static spvgen_vk_context *open_ctx(void) { return vk_open_cached(NULL); }

static bool make_kernel(spvgen_vk_context *ctx, spvgen_elementwise_op op, spvgen_kernel *k) {
  return vk_elementwise_kernel(ctx, op, k);
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Polls spvgen_vk_compile_done for up to limit_ms; whether it became true. */
static bool wait_done(const spvgen_vk_compile *c, double limit_ms, int *polls) {
  double t0 = now_ms();
  *polls = 0;
  while (!spvgen_vk_compile_done(c)) {
    if (now_ms() - t0 > limit_ms) return false;
    struct timespec ms1 = {0, 1000000};
    nanosleep(&ms1, NULL);
    ++*polls;
  }
  return true;
}

static bool run_matches_cpu(spvgen_vk_context *ctx, spvgen_vk_pipeline *p, spvgen_elementwise_op op) {
  return vk_elementwise_matches_cpu(ctx, p, op, N);
}

static spvgen_vk_kernel_cache_stats stats(const spvgen_vk_context *ctx) {
  spvgen_vk_kernel_cache_stats s;
  spvgen_vk_kernel_cache_stats_get(ctx, &s);
  return s;
}

/* 1. A compile on its own thread: done becomes true, finish gives a pipeline that runs
 *    right, the driver's time, and the stats count one compile. The caller's words and
 *    info are gone (overwritten, freed) right after create_async. */
static void test_async_create_compiles_in_the_background_and_runs(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel k = {0};
  spvgen_vk_compile *c = NULL;
  spvgen_vk_pipeline *p = NULL, *again = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &k)) goto done;
  uint32_t *words = malloc(k.word_count * sizeof *words);
  spvgen_kernel_info *info = malloc(sizeof *info);
  if (!words || !info) {
    free(words);
    free(info);
    CHECK(!"out of memory");
    goto done;
  }
  memcpy(words, k.words, k.word_count * sizeof *words);
  *info = k.info;
  spvgen_vk_pipeline_request req = {words, k.word_count, info, NULL};
  spvgen_status st = spvgen_vk_pipeline_create_async(ctx, &req, &c);
  memset(words, 0xAB, k.word_count * sizeof *words);
  memset(info, 0xCD, sizeof *info);
  free(words);
  free(info);
  VK_CHECK(ctx, st);
  CHECK(c != NULL);
  int polls = 0;
  CHECK_MSG(wait_done(c, 30000, &polls), "not done after 30 s");
  double ms = -1;
  VK_CHECK(ctx, spvgen_vk_compile_finish(c, &p, &ms));
  c = NULL;
  CHECK(p != NULL);
  printf("  compile %.3f ms on its thread, %d polls of 1 ms\n", ms, polls);
  CHECK_MSG(ms > 0, "compile_ms %g", ms);
  spvgen_vk_kernel_cache_stats s = stats(ctx);
  CHECK_EQ_U64(s.compiled, 1);
  CHECK_EQ_U64(s.reused, 0);
  CHECK_EQ_U64(s.pipelines, 1);
  CHECK_MSG(s.compile_ms == ms, "stats compile_ms %g, the compile's %g", s.compile_ms, ms);
  CHECK_STR_EQ(spvgen_vk_pipeline_info(p)->entry_point, k.info.entry_point ? k.info.entry_point : "main");
  CHECK_EQ_U64(spvgen_vk_pipeline_info(p)->binding_count, 3);
  if (p) run_matches_cpu(ctx, p, SPVGEN_ELEMENTWISE_ADD);
  /* What the kernel cache keeps are the request's words, copied at create: a create of
   * the same words finds them. */
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, k.words, k.word_count, &k.info, NULL, &again));
  CHECK_EQ_U64(stats(ctx).compiled, 1);
  CHECK_EQ_U64(stats(ctx).reused, 1);
done:
  spvgen_vk_compile_cancel(c);
  spvgen_vk_pipeline_destroy(p);
  spvgen_vk_pipeline_destroy(again);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* Creates k's pipeline in the background and finishes it (the test fails otherwise). */
static spvgen_vk_pipeline *async_create(spvgen_vk_context *ctx, const spvgen_kernel *k, double *ms) {
  spvgen_vk_pipeline_request req = {k->words, k->word_count, &k->info, NULL};
  spvgen_vk_compile *c = NULL;
  spvgen_vk_pipeline *p = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &req, &c));
  VK_CHECK(ctx, spvgen_vk_compile_finish(c, &p, ms));
done:
  return p;
}

/* 2. The same words again: the kernel cache has them (the first pipeline destroyed, its
 *    program idle), so the compile is done at once, finishes with 0 ms and counts a reuse. */
static void test_same_words_again_are_ready_at_once(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel k = {0};
  spvgen_vk_compile *c = NULL;
  spvgen_vk_pipeline *p = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &k)) goto done;
  double ms = 0;
  p = async_create(ctx, &k, &ms);
  if (!p) goto done;
  uint64_t first = 0, again = 0;
  spvgen_vk_pipeline_handles(p, &first, NULL);
  spvgen_vk_pipeline_destroy(p);
  p = NULL;
  spvgen_vk_kernel_cache_stats before = stats(ctx);
  spvgen_vk_pipeline_request req = {k.words, k.word_count, &k.info, NULL};
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &req, &c));
  CHECK(spvgen_vk_compile_done(c));
  ms = -1;
  VK_CHECK(ctx, spvgen_vk_compile_finish(c, &p, &ms));
  c = NULL;
  CHECK(ms == 0);
  spvgen_vk_kernel_cache_stats s = stats(ctx);
  CHECK_EQ_U64(s.compiled, before.compiled);
  CHECK_EQ_U64(s.reused, before.reused + 1);
  CHECK(s.compile_ms == before.compile_ms);
  spvgen_vk_pipeline_handles(p, &again, NULL);
  CHECK(again == first && again != 0);
  if (p) run_matches_cpu(ctx, p, SPVGEN_ELEMENTWISE_ADD);
done:
  spvgen_vk_compile_cancel(c);
  spvgen_vk_pipeline_destroy(p);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* 3. Two kernels in flight at once, finished in the reverse order, both right. While they
 *    compile the context works on its thread: a buffer upload, and a create of the add
 *    words, which the add compile in flight does not serve (it compiles again). */
static void test_two_compiles_in_flight_finish_in_either_order(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel add = {0}, mul = {0};
  spvgen_vk_compile *ca = NULL, *cm = NULL;
  spvgen_vk_pipeline *pa = NULL, *pm = NULL, *ps = NULL;
  spvgen_vk_buffer *buf = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &add) || !make_kernel(ctx, SPVGEN_ELEMENTWISE_MUL, &mul)) goto done;
  spvgen_vk_pipeline_request ra = {add.words, add.word_count, &add.info, NULL};
  spvgen_vk_pipeline_request rm = {mul.words, mul.word_count, &mul.info, NULL};
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &ra, &ca));
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &rm, &cm));
  CHECK(ca != cm);
  printf("  right after both creates: add done %d, mul done %d\n", spvgen_vk_compile_done(ca),
         spvgen_vk_compile_done(cm));
  uint32_t fill[64] = {1};
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof fill, 0, &buf));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, buf, 0, fill, sizeof fill));
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, add.words, add.word_count, &add.info, NULL, &ps));
  CHECK_EQ_U64(stats(ctx).compiled, 1); /* the sync create's: the compiles in flight count at finish */
  double msm = 0, msa = 0;
  VK_CHECK(ctx, spvgen_vk_compile_finish(cm, &pm, &msm));
  cm = NULL;
  VK_CHECK(ctx, spvgen_vk_compile_finish(ca, &pa, &msa));
  ca = NULL;
  CHECK(msm > 0 && msa > 0);
  spvgen_vk_kernel_cache_stats s = stats(ctx);
  CHECK_EQ_U64(s.compiled, 3);
  CHECK_EQ_U64(s.reused, 0);
  if (pm) run_matches_cpu(ctx, pm, SPVGEN_ELEMENTWISE_MUL);
  if (pa) run_matches_cpu(ctx, pa, SPVGEN_ELEMENTWISE_ADD);
  if (ps) run_matches_cpu(ctx, ps, SPVGEN_ELEMENTWISE_ADD);
done:
  spvgen_vk_compile_cancel(ca);
  spvgen_vk_compile_cancel(cm);
  spvgen_vk_pipeline_destroy(pa);
  spvgen_vk_pipeline_destroy(pm);
  spvgen_vk_pipeline_destroy(ps);
  spvgen_vk_buffer_destroy(buf);
  spvgen_kernel_free(&add);
  spvgen_kernel_free(&mul);
  spvgen_vk_destroy(ctx);
}

/* 4. Bad arguments fail at once, named, with *out NULL and nothing compiled; finish of
 *    NULL fails without a context; finish with out NULL discards the compile. */
static void test_bad_arguments_fail_at_once_by_name(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel k = {0};
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &k)) goto done;
  spvgen_vk_compile *const junk = (spvgen_vk_compile *)&k;
  spvgen_vk_compile *c = junk;
  spvgen_vk_pipeline_request req = {k.words, k.word_count, &k.info, NULL};
  CHECK_EQ_U64(spvgen_vk_pipeline_create_async(NULL, &req, &c), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  c = junk;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_async(ctx, NULL, &c), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_pipeline_create_async: request is NULL");
  CHECK(c == NULL);
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_async(ctx, &req, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_pipeline_create_async: out is NULL");
  spvgen_vk_pipeline_request bad = req;
  bad.words = NULL;
  c = junk;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_async(ctx, &bad, &c), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_pipeline_create_async: words is NULL");
  CHECK(c == NULL);
  bad = req;
  bad.word_count = 0;
  c = junk;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_async(ctx, &bad, &c), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_pipeline_create_async: word_count is 0");
  CHECK(c == NULL);
  /* The module's checks run here too: an info that disagrees with the words. */
  spvgen_kernel_info info = k.info;
  info.push_constant_size = 6;
  bad = req;
  bad.info = &info;
  c = junk;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_async(ctx, &bad, &c), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "push_constant_size 6 is not a multiple of 4");
  CHECK(c == NULL);
  CHECK_EQ_U64(stats(ctx).compiled, 0);
  CHECK_EQ_U64(stats(ctx).pipelines, 0);
  /* finish(NULL): no context for a message */
  spvgen_vk_pipeline *p = (spvgen_vk_pipeline *)junk;
  double ms = -1;
  CHECK_EQ_U64(spvgen_vk_compile_finish(NULL, &p, &ms), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(p == NULL && ms == 0);
  CHECK(spvgen_vk_compile_done(NULL));
  spvgen_vk_compile_cancel(NULL);
  /* finish with out NULL: an error, and the compile is gone (ASan: no leak) */
  c = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &req, &c));
  VK_EXPECT_ERROR(ctx, spvgen_vk_compile_finish(c, NULL, &ms), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_compile_finish: out is NULL");
  CHECK_EQ_U64(stats(ctx).compiled, 0);
done:
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* 5. A compile cancelled in flight counts nothing and leaves no pipeline; a context
 *    destroyed with compiles never finished (one compiling, one a kernel-cache hit)
 *    joins their threads and frees them (ASan: no leak, no use after free). */
static void test_cancel_and_destroy_with_compiles_unfinished(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel add = {0}, mul = {0};
  spvgen_vk_pipeline *p = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &add) || !make_kernel(ctx, SPVGEN_ELEMENTWISE_MUL, &mul)) goto done;
  spvgen_vk_pipeline_request ra = {add.words, add.word_count, &add.info, NULL};
  spvgen_vk_pipeline_request rm = {mul.words, mul.word_count, &mul.info, NULL};
  spvgen_vk_compile *c = NULL, *hit = NULL, *left = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &ra, &c));
  printf("  cancelled %s\n", spvgen_vk_compile_done(c) ? "after its compile ended" : "in flight");
  spvgen_vk_compile_cancel(c);
  spvgen_vk_kernel_cache_stats s = stats(ctx);
  CHECK_EQ_U64(s.compiled, 0);
  CHECK_EQ_U64(s.pipelines, 0);
  CHECK(s.compile_ms == 0);
  /* the cancelled compile shares nothing: the same words compile again */
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, add.words, add.word_count, &add.info, NULL, &p));
  CHECK_EQ_U64(stats(ctx).compiled, 1);
  CHECK_EQ_U64(stats(ctx).reused, 0);
  spvgen_vk_pipeline_destroy(p);
  p = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &ra, &hit));
  CHECK(spvgen_vk_compile_done(hit));
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &rm, &left));
  /* neither finished nor cancelled */
done:
  spvgen_kernel_free(&add);
  spvgen_kernel_free(&mul);
  spvgen_vk_destroy(ctx);
}

/* 6. spvgen_vk_kernel_cache_save merges into the VkPipelineCache a compile in the
 *    background creates through: it waits for the compile, which still finishes after. */
static void test_cache_save_waits_for_the_compile_running(void) {
  spvgen_vk_context *ctx = open_ctx();
  if (!ctx) return;
  spvgen_kernel k = {0};
  spvgen_vk_compile *c = NULL;
  spvgen_vk_pipeline *p = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_MUL, &k)) goto done;
  spvgen_vk_pipeline_request req = {k.words, k.word_count, &k.info, NULL};
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &req, &c));
  VK_CHECK(ctx, spvgen_vk_kernel_cache_save(ctx));
  CHECK(spvgen_vk_compile_done(c));
  double ms = 0;
  VK_CHECK(ctx, spvgen_vk_compile_finish(c, &p, &ms));
  c = NULL;
  CHECK(ms > 0);
  CHECK_EQ_U64(stats(ctx).compiled, 1);
  if (p) run_matches_cpu(ctx, p, SPVGEN_ELEMENTWISE_MUL);
done:
  spvgen_vk_compile_cancel(c);
  spvgen_vk_pipeline_destroy(p);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  int present = vk_test_device_present();
  if (present) return present;
  static const test_case tests[] = {
      TEST_CASE(test_async_create_compiles_in_the_background_and_runs),
      TEST_CASE(test_same_words_again_are_ready_at_once),
      TEST_CASE(test_two_compiles_in_flight_finish_in_either_order),
      TEST_CASE(test_bad_arguments_fail_at_once_by_name),
      TEST_CASE(test_cancel_and_destroy_with_compiles_unfinished),
      TEST_CASE(test_cache_save_waits_for_the_compile_running),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
