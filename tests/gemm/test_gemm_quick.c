/* tests/gemm/test_gemm_quick.c — a plan's quick-compile form (spvgen/gemm.h, "Tiered
 * compiles"): spvgen_gemm_plan_quick keeps the kernel (tile, knobs, edges, packing,
 * split-K, launch) and adds only the DontUnroll codegen bits; its name and class key are
 * its own, its compile estimate below the plan's; every kernel of it validates, and its K
 * loops (and only they) carry DontUnroll where the plan's have none; planning its desc
 * (or the plan's) again gives it back, class key included; plans without a quicker form say so; and it runs right on the test
 * device where the device has the variant (lavapipe: simt has no quick form, the
 * cooperative variants skip; the GPU runs them in tests/gpu/test_gpu_gemm.c). */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc shape(uint32_t m, uint32_t n, uint32_t k, spvgen_component_type in, spvgen_component_type acc) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = in;
  d.acc_type = d.out_type = acc;
  return d;
}

/* OpLoopMerge lines of words' disassembly, and how many of them say DontUnroll. */
static void count_loops(const uint32_t *words, size_t count, int *loops, int *dont) {
  *loops = *dont = 0;
  char *text = check_disassemble(words, count);
  for (const char *l = text; l && (l = strstr(l, "OpLoopMerge")) != NULL; l++) {
    const char *eol = strchr(l, '\n');
    size_t len = eol ? (size_t)(eol - l) : strlen(l);
    (*loops)++;
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), l);
    if (strstr(line, "DontUnroll")) (*dont)++;
  }
  spvgen_free_text(text);
}

/* The quick form of d's plan on caps: same kernel but for the codegen bits, name, key and
 * estimate; valid words whose main kernel has a DontUnroll loop where the plan's has
 * none; planning quick.desc again gives it back. */
static void check_quick(const spvgen_device_caps *c, spvgen_gemm_desc d, const char *what) {
  spvgen_gemm_config p, q, again;
  char msg[1024];
  if (spvgen_gemm_plan(&d, c, &p, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s: %s", what, msg);
    return;
  }
  if (!spvgen_gemm_plan_quick(&p, &q)) {
    CHECK_MSG(0, "%s: %s has no quick form", what, p.name);
    return;
  }
  const uint32_t bits = SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL |
                        (p.variant == SPVGEN_GEMM_COOPMAT2 ? SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL : 0u);
  CHECK_EQ_U64(q.desc.codegen, p.desc.codegen | bits);
  /* the kernel is the same in every other respect */
  spvgen_gemm_config pq = q;
  pq.desc.codegen = p.desc.codegen;
  memcpy(pq.name, p.name, sizeof pq.name);
  pq.compile_ms = p.compile_ms;
  CHECK_MSG(!memcmp(&pq, &p, sizeof p), "%s: the quick form of %s differs beyond codegen, name and estimate", what,
            p.name);
  CHECK_MSG(spvgen_gemm_class_key(&q) != spvgen_gemm_class_key(&p), "%s: %s and its quick form share a key", what,
            p.name);
  CHECK_MSG(strcmp(q.name, p.name) && strstr(q.name, "n") && strstr(q.name, " cg:"), "%s: name '%s' (plan '%s')", what,
            q.name, p.name);
  /* the letters sit where gemm_plan_name puts them: before pack and split-K's pieces */
  const char *cg = strstr(q.name, " cg:"), *pk = strstr(q.name, " pack "), *sk = strstr(q.name, " sk");
  CHECK_MSG((!pk || cg < pk) && (!sk || cg < sk), "%s: name '%s'", what, q.name);
  CHECK_MSG(q.compile_ms < p.compile_ms, "%s: %s estimated %u ms, its quick form %u", what, p.name, p.compile_ms,
            q.compile_ms);
  /* planned again from its desc (what a caller that keeps only the desc does): the same
   * kernels, word for word (tools' `run gemm --tiered` relies on it) */
  CHECK_MSG(spvgen_gemm_plan(&q.desc, c, &again, msg, sizeof msg) == SPVGEN_OK, "%s: %s", what, msg);
  CHECK_MSG(!strcmp(again.name, q.name) && spvgen_gemm_class_key(&again) == spvgen_gemm_class_key(&q),
            "%s: %s replans to %s (or another class key)", what, q.name, again.name);
  /* and so does the plan: a resolved desc planned again is the same plan */
  spvgen_gemm_config pagain;
  CHECK_MSG(spvgen_gemm_plan(&p.desc, c, &pagain, msg, sizeof msg) == SPVGEN_OK, "%s: %s", what, msg);
  CHECK_MSG(!strcmp(pagain.name, p.name) && spvgen_gemm_class_key(&pagain) == spvgen_gemm_class_key(&p),
            "%s: %s replans to %s (or another class key)", what, p.name, pagain.name);
  {
    spvgen_kernel ka[SPVGEN_GEMM_KERNEL_COUNT], kb[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t na = 0, nb = 0;
    CHECK(spvgen_gemm_plan_kernels(&again, ka, &na, msg, sizeof msg) == SPVGEN_OK);
    CHECK(spvgen_gemm_plan_kernels(&q, kb, &nb, msg, sizeof msg) == SPVGEN_OK);
    CHECK_EQ_U64(na, nb);
    for (uint32_t j = 0; j < na && j < nb; j++)
      CHECK_MSG(ka[j].word_count == kb[j].word_count &&
                    !memcmp(ka[j].words, kb[j].words, ka[j].word_count * sizeof *ka[j].words),
                "%s: %s: kernel %u differs once planned again", what, q.name, j);
    for (uint32_t j = 0; j < na; j++) spvgen_kernel_free(&ka[j]);
    for (uint32_t j = 0; j < nb; j++) spvgen_kernel_free(&kb[j]);
  }
  /* the kernels: valid, the same count; the main kernel's K loops DontUnroll */
  spvgen_kernel kp[SPVGEN_GEMM_KERNEL_COUNT], kq[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t np = 0, nq = 0;
  CHECK_MSG(spvgen_gemm_plan_kernels(&p, kp, &np, msg, sizeof msg) == SPVGEN_OK, "%s: %s", what, msg);
  CHECK_MSG(spvgen_gemm_plan_kernels(&q, kq, &nq, msg, sizeof msg) == SPVGEN_OK, "%s: %s", what, msg);
  CHECK_EQ_U64(nq, np);
  for (uint32_t j = 0; j < nq && j < np; j++) {
    check_words(kq[j].words, kq[j].word_count);
    int lp, dp, lq, dq;
    count_loops(kp[j].words, kp[j].word_count, &lp, &dp);
    count_loops(kq[j].words, kq[j].word_count, &lq, &dq);
    if (spvgen_gemm_kernel_at(&q, j) == SPVGEN_GEMM_KERNEL_MAIN) {
      CHECK_MSG(dq >= 1 && dq > dp, "%s: %s: %d of %d loops DontUnroll (the plan: %d of %d)", what, q.name, dq, lq, dp,
                lp);
    } else { /* pack and reduction kernels are the plan's own */
      CHECK_MSG(kq[j].word_count == kp[j].word_count &&
                    !memcmp(kq[j].words, kp[j].words, kq[j].word_count * sizeof *kq[j].words),
                "%s: %s: kernel %u differs from the plan's", what, q.name, j);
    }
  }
  for (uint32_t j = 0; j < np; j++) spvgen_kernel_free(&kp[j]);
  for (uint32_t j = 0; j < nq; j++) spvgen_kernel_free(&kq[j]);
  /* a quick form has no quicker one */
  spvgen_gemm_config qq;
  CHECK_MSG(!spvgen_gemm_plan_quick(&q, &qq) && !memcmp(&qq, &q, sizeof q), "%s: the quick form of %s has one", what,
            q.name);
}

static void coopmat2_plans_have_a_quick_form(void) {
  spvgen_device_caps c = preset("h100");
  struct { uint32_t m, n, k; spvgen_component_type in, acc; const char *what; } s[] = {
      {8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, "8192^3 (unroll 2)"},
      {4096, 4096, 4096, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, "4096^3 f16"},
      {4097, 4095, 4093, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, "4097 (clamp, packed)"},
      {3000, 3000, 3000, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, "3000^3 s8 (packed, K-contiguous)"},
      {96, 4096, 16384, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, "long K (split-K)"},
  };
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    spvgen_gemm_desc d = shape(s[i].m, s[i].n, s[i].k, s[i].in, s[i].acc);
    d.variant = SPVGEN_GEMM_COOPMAT2;
    check_quick(&c, d, s[i].what);
  }
  /* run-time classes: the K loop of a run-time shape too */
  spvgen_gemm_desc d = shape(2048, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.b_layout = SPVGEN_COL_MAJOR;
  d.ld_multiple = 8;
  check_quick(&c, d, "run-time class");
  d.unroll = 2;
  check_quick(&c, d, "run-time class, unroll 2");
}

static void khr_plans_have_a_quick_form(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = shape(3000, 3000, 3000, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32);
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  check_quick(&c, d, "khr 3000^3");
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  check_quick(&c, d, "khr run-time");
}

static void plans_without_a_quicker_form_say_so(void) {
  spvgen_device_caps c = preset("lavapipe");
  spvgen_gemm_config p, q;
  char msg[512];
  spvgen_gemm_desc d = shape(97, 131, 67, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_SIMT);
  memset(&q, 0xAB, sizeof q);
  CHECK(!spvgen_gemm_plan_quick(&p, &q));
  CHECK(!memcmp(&q, &p, sizeof p));
  /* NULL arguments: false, nothing written */
  CHECK(!spvgen_gemm_plan_quick(NULL, &q));
  CHECK(!memcmp(&q, &p, sizeof p));
  CHECK(!spvgen_gemm_plan_quick(&p, NULL));
  /* a plan that already keeps the driver from unrolling */
  spvgen_device_caps h = preset("h100");
  d = shape(1024, 1024, 1024, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32);
  d.codegen = SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL | SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  CHECK_MSG(spvgen_gemm_plan(&d, &h, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(!spvgen_gemm_plan_quick(&p, &q));
  CHECK(!strcmp(q.name, p.name));
}

/* The rolled loop's estimate (plan_cost.c) against the H100's measured first compiles
 * of calls S17-2 and S17-3: within 2x each way, and always under the unrolled plan's. */
static void the_quick_estimate_follows_the_measured_compiles(void) {
  spvgen_device_caps c = preset("h100");
  struct { uint32_t m, n, k, tm, tn, tk, u; spvgen_component_type acc; double measured; } s[] = {
      {4096, 4096, 4096, 256, 256, 32, 1, SPVGEN_COMPONENT_F16, 221.9},
      {4096, 4096, 4096, 128, 256, 32, 1, SPVGEN_COMPONENT_F16, 74.0},
      {8192, 8192, 8192, 128, 256, 32, 1, SPVGEN_COMPONENT_F32, 105.3},
      {8192, 8192, 8192, 128, 256, 32, 2, SPVGEN_COMPONENT_F32, 142.9},
      {8192, 8192, 8192, 128, 256, 32, 4, SPVGEN_COMPONENT_F32, 284.8},
      {2048, 3584, 3584, 128, 128, 64, 1, SPVGEN_COMPONENT_F32, 58.2},
      {3000, 3000, 3000, 128, 256, 32, 0, SPVGEN_COMPONENT_F32, 148.5}, /* khr (u 0: its own knobs) */
  };
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    spvgen_gemm_desc d = shape(s[i].m, s[i].n, s[i].k, SPVGEN_COMPONENT_F16, s[i].acc);
    d.variant = s[i].u ? SPVGEN_GEMM_COOPMAT2 : SPVGEN_GEMM_COOPMAT_KHR;
    d.tile_m = s[i].tm, d.tile_n = s[i].tn, d.tile_k = s[i].tk, d.unroll = s[i].u;
    spvgen_gemm_config p, q;
    char msg[512];
    if (spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) != SPVGEN_OK) {
      CHECK_MSG(0, "%s", msg);
      continue;
    }
    CHECK(spvgen_gemm_plan_quick(&p, &q));
    CHECK_MSG(q.compile_ms >= s[i].measured / 2 && q.compile_ms <= s[i].measured * 2,
              "%s: estimated %u ms, measured %.0f", q.name, q.compile_ms, s[i].measured);
    CHECK_MSG(q.compile_ms < p.compile_ms, "%s: %u ms, the plan %u", q.name, q.compile_ms, p.compile_ms);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(coopmat2_plans_have_a_quick_form),
      TEST_CASE(khr_plans_have_a_quick_form),
      TEST_CASE(plans_without_a_quicker_form_say_so),
      TEST_CASE(the_quick_estimate_follows_the_measured_compiles),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
