/* tests/vk/test_kernel_cache.c — the kernel cache: a second create of the same words
 * shares the compiled pipeline (handles of their own, refcounted, idle ones revived),
 * different layouts or specializations do not; the VkPipelineCache file per device is
 * written atomically and read back, and a corrupt, truncated, foreign or garbage file is
 * ignored with a notice (never a crash) and then replaced; export and import bundles
 * round-trip, and a bad bundle imports nothing. spvgen_vk_pipelines_create compiles a
 * batch on threads, all or nothing. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "spvgen/spvgen.h"
#include "vk_fixture.h"

#undef VK_CHECK
#define VK_CHECK(ctx, call)                                                             \
  do {                                                                                  \
    spvgen_status vk_st_ = (call);                                                      \
    if (vk_st_ != SPVGEN_OK) {                                                          \
      test_fail_at(__FILE__, __LINE__, "%s: %s: %s", #call, spvgen_status_name(vk_st_), \
                   spvgen_vk_error(ctx));                                               \
      return;                                                                           \
    }                                                                                   \
  } while (0)

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static spvgen_vk_context *open_with(const char *dir, bool no_reuse) {
  spvgen_vk_desc d = {.cache_dir = dir, .no_disk_cache = dir == NULL, .no_pipeline_reuse = no_reuse};
  const char *name = test_device_name();
  if (name) d.device_name = name;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  if (spvgen_vk_create(&d, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    test_skip("no device: %s", msg);
    return NULL;
  }
  return ctx;
}

static void rm_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[1200];
  while (d && (e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

/* The one cache file of dir (its path into out); false when there is not exactly one. */
static bool the_file(const char *dir, const char *suffix, char *out, size_t size) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  size_t sl = strlen(suffix);
  while (d && (e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "pipelines-", 10) || l < sl || strcmp(e->d_name + l - sl, suffix)) continue;
    snprintf(out, size, "%s/%s", dir, e->d_name);
    n++;
  }
  if (d) closedir(d);
  return n == 1;
}

static long file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static void test_same_words_share_one_compiled_pipeline(void) {
  spvgen_vk_context *ctx = open_with(NULL, false);
  if (!ctx) return;
  spvgen_kernel k;
  char msg[512];
  CHECK(spvgen_elementwise(NULL, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK);
  spvgen_vk_pipeline *a = NULL, *b = NULL, *c = NULL, *s = NULL;
  double t0 = now_ms();
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &a));
  double t1 = now_ms();
  spvgen_kernel_info renamed = k.info; /* same layout, other names and sizes: shared too */
  renamed.bindings[0].name = "x";
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, k.words, k.word_count, &renamed, NULL, &b));
  double t2 = now_ms();
  spvgen_vk_kernel_cache_stats st;
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, 1);
  CHECK_EQ_U64(st.reused, 1);
  CHECK(a != b);
  uint64_t pa, pb, la, lb;
  spvgen_vk_pipeline_handles(a, &pa, &la);
  spvgen_vk_pipeline_handles(b, &pb, &lb);
  CHECK(pa == pb && la == lb && pa != 0);
  CHECK_STR_EQ(spvgen_vk_pipeline_info(b)->bindings[0].name, "x");
  CHECK_STR_EQ(spvgen_vk_pipeline_info(a)->bindings[0].name, "a");
  printf("  first create %.3f ms (compile), second %.3f ms (reused)\n", t1 - t0, t2 - t1);
  CHECK(t2 - t1 < t1 - t0);
  /* Destroying one handle leaves the other working. */
  spvgen_vk_pipeline_destroy(a);
  spvgen_vk_buffer *bufs[3];
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, SPVGEN_VK_BUFFER_HOST_VISIBLE, &bufs[i]));
  float *x = spvgen_vk_buffer_map(bufs[0]), *y = spvgen_vk_buffer_map(bufs[1]), *z = spvgen_vk_buffer_map(bufs[2]);
  for (int i = 0; i < 64; i++) x[i] = (float)i, y[i] = 1.0f;
  uint32_t n = 64;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, b, bufs, 3, &n, 4, 1, 1, 1, NULL));
  CHECK(z[63] == 64.0f);
  /* The last handle gone, the compiled pipeline stays idle and is revived. */
  spvgen_vk_pipeline_destroy(b);
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &c));
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, 1);
  CHECK_EQ_U64(st.reused, 2);
  CHECK_EQ_U64(st.pipelines, 1);
  /* Other specialization: another pipeline. */
  spvgen_spec_constant sc = {.id = 7, .size = 4, .value = 1};
  spvgen_vk_pipeline_options opt = {.spec_constants = &sc, .spec_constant_count = 1};
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, &opt, &s));
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, 2);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);

  /* Reuse off: every create compiles. */
  ctx = open_with(NULL, true);
  if (!ctx) return;
  CHECK(spvgen_elementwise(NULL, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK);
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &a));
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &b));
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, 2);
  CHECK_EQ_U64(st.reused, 0);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* Creates one pipeline on a context with the disk cache in dir and destroys it; returns
 * the notice (static). */
static const char *one_run(const char *dir, uint64_t *read_bytes) {
  static char notice[512];
  notice[0] = 0;
  spvgen_vk_context *ctx = open_with(dir, false);
  if (!ctx) return NULL;
  spvgen_kernel k;
  char msg[512];
  spvgen_vk_pipeline *p = NULL;
  if (spvgen_elementwise(NULL, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK) {
    CHECK_MSG(spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &p) == SPVGEN_OK, "%s", spvgen_vk_error(ctx));
    spvgen_kernel_free(&k);
  }
  spvgen_vk_kernel_cache_stats st;
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  snprintf(notice, sizeof notice, "%s", st.notice);
  if (read_bytes) *read_bytes = st.disk_bytes_read;
  spvgen_vk_destroy(ctx);
  return notice;
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(data, 1, n, f);
    fclose(f);
  }
}

static unsigned char *read_bytes_of(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *b = malloc(1 << 20);
  *n = fread(b, 1, 1 << 20, f);
  fclose(f);
  return b;
}

static void test_disk_cache_is_written_read_and_bad_files_are_ignored(void) {
  char dir[] = "/tmp/spvgen-kc-XXXXXX";
  if (!mkdtemp(dir)) {
    test_skip("mkdtemp failed");
    return;
  }
  uint64_t read = 0;
  const char *notice = one_run(dir, &read);
  if (!notice) goto done;
  CHECK_STR_EQ(notice, "");
  CHECK_EQ_U64(read, 0);
  char path[1200];
  CHECK(the_file(dir, ".bin", path, sizeof path));
  uint64_t data_bytes = 0;
  spvgen_device_caps id;
  char msg[1024];
  CHECK_MSG(spvgen_vk_kernel_cache_file_check(path, &id, &data_bytes, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64((uint64_t)file_size(path), 64 + data_bytes);
  /* A second process reads it. */
  notice = one_run(dir, &read);
  CHECK_STR_EQ(notice, "");
  CHECK_EQ_U64(read, data_bytes);

  size_t n = 0;
  unsigned char *good = read_bytes_of(path, &n);
  struct {
    const char *what, *expect;
  } cases[] = {{"corrupt", "corrupt: the checksum"},
               {"truncated", "truncated or padded"},
               {"garbage", "not a spvgen pipeline cache"},
               {"empty", "not a spvgen pipeline cache"},
               {"foreign", "of another device or driver"},
               {"version", "of another version"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0] && good; c++) {
    unsigned char *bad = malloc(n + 1);
    memcpy(bad, good, n);
    size_t bn = n;
    if (!strcmp(cases[c].what, "corrupt")) bad[n - 1] ^= 0x5A;
    if (!strcmp(cases[c].what, "truncated")) bn = n - 1;
    if (!strcmp(cases[c].what, "garbage")) memset(bad, 'x', n);
    if (!strcmp(cases[c].what, "empty")) bn = 0;
    if (!strcmp(cases[c].what, "foreign")) bad[12] ^= 0x01; /* vendor id; checksum covers data only */
    if (!strcmp(cases[c].what, "version")) bad[7] = '9';
    write_bytes(path, bad, bn);
    free(bad);
    notice = one_run(dir, &read);
    CHECK_MSG(notice && strstr(notice, cases[c].expect), "%s: notice '%s'", cases[c].what, notice ? notice : "");
    CHECK_MSG(notice && strstr(notice, "ignored"), "%s: notice '%s'", cases[c].what, notice ? notice : "");
    CHECK_EQ_U64(read, 0);
    /* ... and the run wrote a good file in its place. */
    CHECK_MSG(spvgen_vk_kernel_cache_file_check(path, NULL, NULL, msg, sizeof msg) == SPVGEN_OK, "%s: %s",
              cases[c].what, msg);
  }
  free(good);

  /* Export, then import into an empty directory and once more (kept beside, merged). */
  char bundle[1300], dir2[] = "/tmp/spvgen-kc2-XXXXXX";
  snprintf(bundle, sizeof bundle, "%s/bundle.spvgenkc", dir);
  uint32_t count = 0;
  CHECK_MSG(spvgen_vk_kernel_cache_export(dir, bundle, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(count, 1);
  if (mkdtemp(dir2)) {
    CHECK_MSG(spvgen_vk_kernel_cache_import(dir2, bundle, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(count, 1);
    char p2[1200];
    CHECK(the_file(dir2, ".bin", p2, sizeof p2));
    CHECK_MSG(spvgen_vk_kernel_cache_import(dir2, bundle, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK(the_file(dir2, ".bin.import", p2, sizeof p2));
    notice = one_run(dir2, &read);
    CHECK_STR_EQ(notice, "");
    CHECK(!the_file(dir2, ".bin.import", p2, sizeof p2)); /* merged and removed */
    /* A truncated bundle imports nothing. */
    size_t bn = 0;
    unsigned char *b = read_bytes_of(bundle, &bn);
    char cut[1300];
    snprintf(cut, sizeof cut, "%s/cut.spvgenkc", dir);
    if (b) write_bytes(cut, b, bn - 3);
    free(b);
    rm_dir(dir2);
    mkdir(dir2, 0700);
    CHECK(spvgen_vk_kernel_cache_import(dir2, cut, &count, msg, sizeof msg) == SPVGEN_ERROR_IO);
    CHECK_CONTAINS(msg, "truncated or corrupt");
    CHECK(!the_file(dir2, ".bin", p2, sizeof p2));
    remove(cut);
    rm_dir(dir2);
  }
  remove(bundle);
done:
  rm_dir(dir);
}

/* SPVGEN_PIPELINE_CACHE=off: no file anywhere, no notice. */
static void test_disk_cache_can_be_turned_off_by_the_environment(void) {
  char dir[] = "/tmp/spvgen-kc3-XXXXXX";
  if (!mkdtemp(dir)) return;
  const char *old = getenv("SPVGEN_PIPELINE_CACHE");
  char keep[1024] = "";
  if (old) snprintf(keep, sizeof keep, "%s", old);
  setenv("SPVGEN_PIPELINE_CACHE", "off", 1);
  spvgen_vk_context *ctx = open_with(dir, false);
  if (ctx) {
    spvgen_vk_kernel_cache_stats st;
    spvgen_vk_kernel_cache_stats_get(ctx, &st);
    CHECK_STR_EQ(st.path, "");
    spvgen_vk_destroy(ctx);
    char p[1200];
    CHECK(!the_file(dir, ".bin", p, sizeof p));
  }
  if (old) setenv("SPVGEN_PIPELINE_CACHE", keep, 1);
  else unsetenv("SPVGEN_PIPELINE_CACHE");
  rm_dir(dir);
}

/* spvgen_vk_pipelines_create: several pipelines in one call, the compiles on threads; a
 * request the kernel cache holds, or that repeats an earlier one of the call, compiles
 * nothing; the pipelines work; a bad request anywhere leaves nothing and names itself. */
static void test_batch_create_on_threads_is_all_or_nothing(void) {
  spvgen_vk_context *ctx = open_with(NULL, false);
  if (!ctx) return;
  char msg[512];
  spvgen_kernel k[4];
  memset(k, 0, sizeof k);
  const spvgen_elementwise_desc ed[4] = {{.op = SPVGEN_ELEMENTWISE_ADD},
                                         {.op = SPVGEN_ELEMENTWISE_MUL},
                                         {.op = SPVGEN_ELEMENTWISE_ADD, .local_size = 128},
                                         {.op = SPVGEN_ELEMENTWISE_MAX, .local_size = 32}};
  for (int i = 0; i < 4; i++) CHECK(spvgen_elementwise(&ed[i], spvgen_vk_caps(ctx), &k[i], msg, sizeof msg) == SPVGEN_OK);
  spvgen_vk_pipeline *cached = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k[2], NULL, &cached));
  spvgen_spec_constant sc = {.id = 7, .size = 4, .value = 1};
  spvgen_vk_pipeline_options opt = {.spec_constants = &sc, .spec_constant_count = 1};
  spvgen_vk_pipeline_request rq[5] = {
      {k[0].words, k[0].word_count, &k[0].info, NULL}, {k[1].words, k[1].word_count, &k[1].info, NULL},
      {k[2].words, k[2].word_count, &k[2].info, NULL}, {k[0].words, k[0].word_count, &k[0].info, NULL},
      {k[1].words, k[1].word_count, &k[1].info, &opt}};
  spvgen_vk_pipeline *out[5];
  spvgen_vk_kernel_cache_stats before, st;
  spvgen_vk_kernel_cache_stats_get(ctx, &before);
  VK_CHECK(ctx, spvgen_vk_pipelines_create(ctx, rq, 5, 4, out));
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled - before.compiled, 3); /* add, mul, mul specialized */
  CHECK_EQ_U64(st.reused - before.reused, 2);     /* the cached one, the repeat of request 0 */
  uint64_t h[5], l, hc;
  for (int i = 0; i < 5; i++) {
    CHECK(out[i] != NULL);
    spvgen_vk_pipeline_handles(out[i], &h[i], &l);
    CHECK(h[i] != 0);
  }
  spvgen_vk_pipeline_handles(cached, &hc, &l);
  CHECK(h[0] == h[3] && h[2] == hc && h[0] != h[1] && h[1] != h[4]);
  /* They run: add and mul of the same inputs. */
  spvgen_vk_buffer *bufs[3];
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, SPVGEN_VK_BUFFER_HOST_VISIBLE, &bufs[i]));
  float *x = spvgen_vk_buffer_map(bufs[0]), *y = spvgen_vk_buffer_map(bufs[1]), *z = spvgen_vk_buffer_map(bufs[2]);
  for (int i = 0; i < 64; i++) x[i] = (float)i, y[i] = 3.0f;
  uint32_t n = 64;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, out[3], bufs, 3, &n, 4, 1, 1, 1, NULL));
  CHECK(z[63] == 66.0f);
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, out[1], bufs, 3, &n, 4, 1, 1, 1, NULL));
  CHECK(z[63] == 189.0f);
  for (int i = 0; i < 5; i++) spvgen_vk_pipeline_destroy(out[i]);
  /* A bad request after a new one: nothing compiled, nothing left, the request named. */
  spvgen_vk_kernel_cache_stats_get(ctx, &before);
  spvgen_vk_pipeline_request bad[3] = {{k[3].words, k[3].word_count, &k[3].info, NULL},
                                      {k[0].words, k[0].word_count, &k[0].info, NULL},
                                      {k[1].words, 0, &k[1].info, NULL}};
  out[0] = out[1] = out[2] = (spvgen_vk_pipeline *)&bad; /* overwritten with NULL */
  CHECK(spvgen_vk_pipelines_create(ctx, bad, 3, 2, out) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(strstr(spvgen_vk_error(ctx), "request 2") && strstr(spvgen_vk_error(ctx), "word_count is 0"), "%s",
            spvgen_vk_error(ctx));
  CHECK(!out[0] && !out[1] && !out[2]);
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, before.compiled);
  CHECK_EQ_U64(st.pipelines, before.pipelines);
  /* Limits and the empty call. */
  spvgen_vk_pipeline *many[SPVGEN_VK_MAX_BATCH + 1];
  CHECK(spvgen_vk_pipelines_create(ctx, rq, SPVGEN_VK_MAX_BATCH + 1, 1, many) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(!many[0] && !many[SPVGEN_VK_MAX_BATCH]);
  CHECK(spvgen_vk_pipelines_create(ctx, NULL, 0, 0, out) == SPVGEN_OK);
  CHECK(spvgen_vk_pipelines_create(ctx, rq, 1, 1, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  /* One thread: the same pipelines (now all from the kernel cache). */
  spvgen_vk_kernel_cache_stats_get(ctx, &before);
  VK_CHECK(ctx, spvgen_vk_pipelines_create(ctx, rq, 5, 1, out));
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, before.compiled);
  CHECK_EQ_U64(st.reused - before.reused, 5);
  for (int i = 0; i < 5; i++) spvgen_vk_pipeline_destroy(out[i]);
  spvgen_vk_pipeline_destroy(cached);
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  for (int i = 0; i < 4; i++) spvgen_kernel_free(&k[i]);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_same_words_share_one_compiled_pipeline),
      TEST_CASE(test_batch_create_on_threads_is_all_or_nothing),
      TEST_CASE(test_disk_cache_is_written_read_and_bad_files_are_ignored),
      TEST_CASE(test_disk_cache_can_be_turned_off_by_the_environment),
  };
  int skip = vk_test_device_present();
  if (skip) return skip;
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
