/* tests/gemm/test_gemm_longk.c — long K (spvgen/gemm.h, SPVGEN_GEMM_MAX_SERIAL_K): no
 * workgroup of any plan sums more than 16384 of K into one accumulator. Plans split K
 * where K is longer (fixed shapes at plan time, run-time shapes at launch; every variant,
 * khr included), refuse by name where they cannot (split_k 1, too few slices, stages 2,
 * the one-kernel one-shot, an unsplit run-time plan launched with a longer K), and stay
 * inside lavapipe's loop
 * budget; on lavapipe a K of 2^20 + 17 matches the float64 reference in every element
 * (before the bound, its K loop ran past the budget and stopped early, silently). */
#include <stdio.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "rand.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

#define LONG_K ((1u << 20) + 17u)

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc f16_f32(uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  return d;
}

/* The bound, and lavapipe's loop budget, of one plan: every slice within
 * SPVGEN_GEMM_MAX_SERIAL_K, the slice count what K needs, the K loop's passes inside
 * 65,535. */
static void check_bound(const spvgen_gemm_config *p, const char *what) {
  const spvgen_gemm_desc *d = &p->desc;
  uint32_t per_slice = d->split_k > 1 ? p->slice_k : d->k;
  CHECK_MSG(per_slice <= SPVGEN_GEMM_MAX_SERIAL_K, "%s [%s]: %u of K in one workgroup", what, p->name, per_slice);
  CHECK_MSG((uint64_t)d->split_k * SPVGEN_GEMM_MAX_SERIAL_K >= d->k, "%s [%s]: %u slices for k %u", what, p->name,
            d->split_k, d->k);
  CHECK_MSG(per_slice / d->tile_k + 1u <= 65535u, "%s [%s]: K loop of %u passes", what, p->name,
            per_slice / d->tile_k + 1u);
}

/* Fixed shapes with long K split, with and without C (beta), on the h100 and lavapipe
 * presets; the wave model may take more slices than K needs where the grid leaves SMs
 * idle (256x256x2^20: 64 needed). */
static void test_fixed_long_k_plans_split_within_the_bound(void) {
  const spvgen_device_caps h100 = preset("h100"), lava = preset("lavapipe");
  static const struct { uint32_t m, n, k; spvgen_gemm_variant v; uint32_t at_least; } cases[] = {
      {256, 256, 1u << 20, SPVGEN_GEMM_AUTO, 64},     {256, 256, 1u << 20, SPVGEN_GEMM_COOPMAT2, 64},
      {128, 4096, 1u << 20, SPVGEN_GEMM_AUTO, 64},    {64, 64, 1u << 22, SPVGEN_GEMM_AUTO, 256},
      {32, 32, LONG_K, SPVGEN_GEMM_SIMT, 65},         {16, 3584, 20000, SPVGEN_GEMM_AUTO, 2},
      {4096, 4096, 16385, SPVGEN_GEMM_AUTO, 2},       {16, 16, 1u << 24, SPVGEN_GEMM_AUTO, 1024},
  };
  char msg[512], what[96];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int c = 0; c < 2; c++) {
      spvgen_gemm_desc d = f16_f32(cases[i].m, cases[i].n, cases[i].k);
      d.variant = c ? (cases[i].v == SPVGEN_GEMM_COOPMAT2 ? SPVGEN_GEMM_SIMT : cases[i].v) : cases[i].v;
      d.b_layout = i % 2 ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
      if (i % 3 == 1) d.beta = 0.5f; /* C: the reduction's epilogue reads it */
      snprintf(what, sizeof what, "%s %ux%ux%u", c ? "lavapipe" : "h100", d.m, d.n, d.k);
      spvgen_gemm_config p;
      spvgen_status st = spvgen_gemm_plan(&d, c ? &lava : &h100, &p, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
      if (st != SPVGEN_OK) continue;
      CHECK_MSG(p.desc.split_k >= cases[i].at_least, "%s [%s]: want at least %u slices", what, p.name,
                cases[i].at_least);
      CHECK_EQ_U64(spvgen_gemm_kernel_count(&p), 2u + (p.desc.pack > SPVGEN_GEMM_PACK_NONE));
      check_bound(&p, what);
    }
  /* K at the bound: no split for length's sake (the wave model alone decides) */
  spvgen_gemm_desc d = f16_f32(4096, 4096, SPVGEN_GEMM_MAX_SERIAL_K);
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.split_k == 1, "[%s]", p.name);
  /* 256x256x2^20 on the h100: one wave of slices (the grid leaves SMs idle) */
  d = f16_f32(256, 256, 1u << 20);
  d.a_layout = SPVGEN_COL_MAJOR;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  uint64_t wgs = (uint64_t)p.groups[0] * p.groups[1] * p.groups[2];
  CHECK_MSG(wgs >= 128 && wgs <= 2 * 132, "[%s]: %llu workgroups", p.name, (unsigned long long)wgs);
}

/* Long K with the slices left to the plan (h100 preset, 132 SMs): tile and slice count
 * are chosen together (docs/design-notes.md, "Long K: tile and slices together (session
 * 8)"). Properties, not tiles: every slice within the bound; the grid (tiles x slices)
 * fills about one wave (90% of the SMs) wherever slices of 8 K steps can; the
 * 256x256x262144 weight gradient takes a tile of at least 128x128 (its 64x64 tiles ran
 * at 112 TFLOP/s where 128x128 ran 182 and 128x256 in one wave is expected faster), a
 * 64x64 output at least 128 workgroups (memory-bound: a wave or more of workgroups), and
 * AUTO's plans stay within the compile budget. */
typedef struct longk_case {
  uint32_t m, n, k, batch;
  spvgen_component_type ab, acc, out;
  spvgen_matrix_layout a, b;
  bool runtime;
} longk_case;

static uint64_t plan_workgroups(const spvgen_gemm_config *p, const longk_case *c) {
  if (!c->runtime) return (uint64_t)p->groups[0] * p->groups[1] * p->groups[2];
  return (uint64_t)((c->m + p->desc.tile_m - 1) / p->desc.tile_m) * ((c->n + p->desc.tile_n - 1) / p->desc.tile_n) *
         c->batch * p->desc.split_k;
}

static void test_long_k_tile_and_slices_together(void) {
  const spvgen_device_caps h100 = preset("h100");
  const uint32_t units = h100.compute_units;
  CHECK(units == 132);
  const spvgen_component_type F16 = SPVGEN_COMPONENT_F16, F32 = SPVGEN_COMPONENT_F32, S8 = SPVGEN_COMPONENT_S8,
                              S32 = SPVGEN_COMPONENT_S32;
  const spvgen_matrix_layout C = SPVGEN_COL_MAJOR, R = SPVGEN_ROW_MAJOR;
  static const spvgen_gemm_variant variants[] = {SPVGEN_GEMM_AUTO, SPVGEN_GEMM_COOPMAT2, SPVGEN_GEMM_COOPMAT_KHR,
                                                 SPVGEN_GEMM_SIMT};
  const longk_case cases[] = {
      /* the weight gradients of call S8-1 (tn: A = dZ^T stored K x M) */
      {64, 64, 262144, 1, F16, F32, F32, C, R, false},     {256, 64, 262144, 1, F16, F32, F32, C, R, false},
      {64, 256, 262144, 1, F16, F32, F32, C, R, false},    {256, 256, 262144, 1, F16, F32, F32, C, R, false},
      {512, 512, 262144, 1, F16, F32, F32, C, R, false},   {1024, 1024, 262144, 1, F16, F32, F32, C, R, false},
      {256, 256, 1u << 20, 1, F16, F32, F32, C, R, false},
      /* others: off-tile, batched, integer, other layouts, f16 out, run-time classes */
      {128, 768, 524288, 1, F16, F32, F32, C, R, false},   {96, 320, 200000, 1, F16, F32, F32, C, R, false},
      {2048, 256, 131072, 1, F16, F32, F32, C, R, false},  {256, 256, 262144, 2, F16, F32, F32, C, R, false},
      {256, 256, 262144, 1, S8, S32, S32, C, R, false},    {257, 3000, 100000, 1, F16, F16, F16, R, R, false},
      {1, 4096, 65536, 1, F16, F32, F32, R, C, false},     {4097, 64, 40000, 1, S8, S32, S32, R, C, false},
      {256, 256, 262144, 1, F16, F32, F32, C, R, true},    {64, 64, 200000, 1, F16, F32, F32, C, R, true},
  };
  char msg[512], what[128];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
      const longk_case *c = &cases[i];
      spvgen_gemm_desc d = f16_f32(c->m, c->n, c->k);
      d.a_type = d.b_type = c->ab, d.acc_type = c->acc, d.out_type = c->out;
      d.a_layout = c->a, d.b_layout = c->b, d.batch = c->batch;
      if (c->runtime) { /* the class a framework would plan for the shape */
        spvgen_gemm_args a = {.m = c->m, .n = c->n, .k = c->k, .batch = c->batch};
        spvgen_gemm_desc base = d;
        base.m = base.n = base.k = 0, base.batch = 0;
        CHECK_MSG(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      }
      d.variant = variants[v];
      snprintf(what, sizeof what, "%s %ux%ux%u b%u %s%s", spvgen_component_type_name(c->ab), c->m, c->n, c->k,
               c->batch, v == 0 ? "auto" : v == 1 ? "coopmat2" : v == 2 ? "khr" : "simt", c->runtime ? " runtime" : "");
      spvgen_gemm_config p;
      spvgen_status st = spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
      if (st != SPVGEN_OK) continue;
      CHECK_MSG((uint64_t)p.desc.split_k * SPVGEN_GEMM_MAX_SERIAL_K >= c->k, "%s [%s]", what, p.name);
      if (!c->runtime) check_bound(&p, what);
      /* about one wave wherever slices of 8 K steps can give one */
      const uint64_t tiles = (uint64_t)((c->m + p.desc.tile_m - 1) / p.desc.tile_m) *
                             ((c->n + p.desc.tile_n - 1) / p.desc.tile_n) * c->batch;
      uint64_t most = c->k / p.desc.tile_k / 8u;
      if (most > SPVGEN_GEMM_MAX_SPLIT_K) most = SPVGEN_GEMM_MAX_SPLIT_K;
      const uint64_t wgs = plan_workgroups(&p, c);
      if (tiles * most >= units)
        CHECK_MSG(wgs * 10u >= units * 9u, "%s [%s]: %llu workgroups on %u SMs", what, p.name,
                  (unsigned long long)wgs, units);
      /* (a run-time class of so small a grid keeps the small-M family of coopmat2_plan.c,
       * measured on the trace; the model sets its slices) */
      if (c->m == 256 && c->n == 256 && c->k == 262144 && c->batch == 1 && c->ab == F16 && v < 3 && !c->runtime)
        CHECK_MSG(p.desc.tile_m >= 128 && p.desc.tile_n >= 128, "%s [%s]: tile under 128x128", what, p.name);
      if (c->m == 64 && c->n == 64)
        CHECK_MSG(wgs >= 128, "%s [%s]: %llu workgroups", what, p.name, (unsigned long long)wgs);
      if (v == 0)
        CHECK_MSG(p.compile_ms <= (d.compile_budget_ms ? d.compile_budget_ms : c->runtime ? 300u : 1000u),
                  "%s [%s]: %u ms estimated", what, p.name, p.compile_ms);
    }
}

/* The khr variant splits long K like the others: its partials kernel (the K loop over a
 * slice, the element-wise store of the partials to the workspace) and the reduction
 * validate for each accumulator width, edges, run-time shapes and device addresses. */
static void test_khr_long_k_plans_split_and_validate(void) {
  const spvgen_device_caps h100 = preset("h100");
  static const struct { uint32_t m, n, k; spvgen_component_type ab, acc, out; bool runtime, bda, beta; } cases[] = {
      {256, 256, 1u << 20, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, false, false, false},
      {250, 130, 40000, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, false, false, true},
      {97, 300, 50001, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, false, false, false},
      {128, 64, 70000, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, false, true, false},
      {200, 200, 1u << 20, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, true, false, true},
      {64, 512, 100000, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, true, true, false},
  };
  char msg[512];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = f16_f32(cases[i].m, cases[i].n, cases[i].k);
    d.a_type = d.b_type = cases[i].ab;
    d.acc_type = cases[i].acc, d.out_type = cases[i].out;
    d.variant = SPVGEN_GEMM_COOPMAT_KHR;
    d.b_layout = i % 2 ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    if (cases[i].runtime) d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
    if (cases[i].bda) d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
    if (cases[i].beta) d.beta = 0.5f;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t n = 0;
    spvgen_gemm_config p;
    spvgen_status st = spvgen_gemm_kernels(&d, &h100, k, &n, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_MSG(p.variant == SPVGEN_GEMM_COOPMAT_KHR && n == 2, "case %zu [%s]: %u kernels", i, p.name, n);
    if (!cases[i].runtime) check_bound(&p, "khr");
    CHECK_MSG(p.desc.split_k * SPVGEN_GEMM_MAX_SERIAL_K >= cases[i].k, "case %zu [%s]", i, p.name);
    for (uint32_t j = 0; j < n; j++) {
      if (!check_words(k[j].words, k[j].word_count)) test_fail_at(__FILE__, __LINE__, "case %zu kernel %u [%s]", i, j, p.name);
      spvgen_kernel_free(&k[j]);
    }
  }
}

/* The candidates the tuner times keep the bound too. */
static void test_candidates_keep_the_bound(void) {
  const spvgen_device_caps h100 = preset("h100");
  spvgen_gemm_desc d = f16_f32(256, 256, 1u << 20);
  spvgen_gemm_config plans[96];
  uint32_t n = 0;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plans(&d, &h100, plans, 96, &n, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(n >= 2);
  for (uint32_t i = 0; i < n && i < 96; i++) check_bound(&plans[i], "candidate");
}

/* A run-time class planned for a long K is split-K; its launches take any K, with at
 * least ceil(K / 16384) slices; a run-time plan without split-K refuses a longer K. */
static void test_runtime_launch_splits_by_k(void) {
  const spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_desc base = f16_f32(0, 0, 0);
  base.a_layout = SPVGEN_COL_MAJOR;
  spvgen_gemm_args a = {.m = 256, .n = 256, .k = 1u << 20};
  spvgen_gemm_desc d;
  CHECK_MSG(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.split_k >= 64, "[%s]", p.name);
  static const uint32_t ks[] = {1u << 20, (1u << 22) + 256u, 4096, 16640}; /* the class: k_multiple 256 */
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    spvgen_gemm_args b = a;
    b.k = ks[i];
    spvgen_gemm_launch l;
    CHECK_MSG(spvgen_gemm_launch_for(&p, &b, &l, msg, sizeof msg) == SPVGEN_OK, "k %u: %s", ks[i], msg);
    CHECK_MSG(l.push.slice_k <= SPVGEN_GEMM_MAX_SERIAL_K && (uint64_t)l.push.slice_k * l.push.split_k >= ks[i],
              "k %u: %u slices of %u", ks[i], l.push.split_k, l.push.slice_k);
    CHECK_EQ_U64(l.groups[2], l.push.split_k);
    CHECK(l.workspace_bytes >= (uint64_t)l.push.split_k * 256u * 256u * 4u);
  }
  /* a class planned without a K (hint 4096: unsplit) serves K up to the bound only */
  spvgen_gemm_desc r = f16_f32(0, 0, 0);
  r.variant = SPVGEN_GEMM_COOPMAT2;
  r.ld_multiple = 8, r.m_multiple = r.n_multiple = r.k_multiple = 64;
  CHECK_MSG(spvgen_gemm_plan(&r, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.split_k, 1);
  spvgen_gemm_args b = {.m = 1024, .n = 1024, .k = SPVGEN_GEMM_MAX_SERIAL_K};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&p, &b, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  b.k = SPVGEN_GEMM_MAX_SERIAL_K + 64u;
  CHECK(spvgen_gemm_launch_for(&p, &b, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "SPVGEN_GEMM_MAX_SERIAL_K");
  CHECK_CONTAINS(msg, "k 16448 is over 16384");
}

/* What cannot split K is refused by name, never planned to sum past the bound. */
static void test_refusals_name_the_bound(void) {
  const spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_config p;
  spvgen_gemm_desc d = f16_f32(256, 256, 1u << 20);
  d.split_k = 1;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "split_k 1");
  CHECK_CONTAINS(msg, "16384");
  d.split_k = 16;
  d.variant = SPVGEN_GEMM_SIMT;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "split_k 16 leaves slices of 65536");
  d.split_k = 64;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  d.split_k = 0;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.stages = 2;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "stages 2");
  d.stages = 0;
  spvgen_kernel k;
  CHECK(spvgen_gemm(&d, &h100, &k, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "SPVGEN_GEMM_MAX_SERIAL_K");
  /* a run-time plan without split-K: K within the bound at launch only */
  spvgen_gemm_desc r = f16_f32(0, 0, 0);
  r.variant = SPVGEN_GEMM_COOPMAT_KHR;
  CHECK_MSG(spvgen_gemm_plan(&r, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_gemm_args a = {.m = 64, .n = 64, .k = 20000};
  spvgen_gemm_launch l;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "k 20000 is over 16384");
}

/* lavapipe: 32 x 32 x (2^20 + 17), fixed and run-time, every element of D against the
 * float64 reference with the project's tolerance. Before the bound the simt K loop of
 * 65,537 passes ran into lavapipe's loop budget and stopped short (298.45 against 299.35). */
static void test_long_k_matches_the_reference_on_lavapipe(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (int runtime = 0; runtime < 2; runtime++) {
    spvgen_gemm_desc d = f16_f32(32, 32, LONG_K);
    spvgen_gemm_args args = {.m = 32, .n = 17, .k = LONG_K};
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    if (runtime) {
      d.n = 17; /* the class of a different N: edges */
      d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
      o.args = &args;
    }
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "%s 32x%ux%u", runtime ? "runtime" : "fixed", d.n, LONG_K)) continue;
    CHECK_MSG(r.plan.desc.split_k >= 65, "[%s]", r.plan.name);
    printf("%s [%s]: %llu elements checked\n", runtime ? "runtime" : "fixed", r.plan.name,
           (unsigned long long)r.checked);
  }
  spvgen_vk_destroy(ctx);
}

/* lavapipe (no SM count: planned for 132) runs the model's plans of many slices: s8 ->
 * s32 (exact) and f16 -> f32 batch 2 with C, A stored K x M (a weight gradient), every
 * element against the reference; the grid fills about one wave of the assumed SMs. */
static void test_long_k_model_plans_run_on_lavapipe(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct { uint32_t m, n, k, batch; spvgen_component_type ab, acc; float beta; } cases[] = {
      {40, 48, 100000, 1, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, 0.0f},
      {24, 40, 70000, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0.5f},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = f16_f32(cases[i].m, cases[i].n, cases[i].k);
    d.a_type = d.b_type = cases[i].ab;
    d.acc_type = d.out_type = cases[i].acc;
    d.a_layout = SPVGEN_COL_MAJOR;
    d.batch = cases[i].batch;
    d.beta = cases[i].beta;
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "%ux%ux%u batch %u", d.m, d.n, d.k, d.batch)) continue;
    const uint64_t wgs = (uint64_t)r.plan.groups[0] * r.plan.groups[1] * r.plan.groups[2];
    CHECK_MSG(r.plan.desc.split_k * SPVGEN_GEMM_MAX_SERIAL_K >= d.k && wgs >= 119, "[%s]: %llu workgroups",
              r.plan.name, (unsigned long long)wgs);
    printf("%ux%ux%u batch %u [%s]: %llu workgroups, %llu elements checked\n", d.m, d.n, d.k, d.batch, r.plan.name,
           (unsigned long long)wgs, (unsigned long long)r.checked);
  }
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_fixed_long_k_plans_split_within_the_bound),
      TEST_CASE(test_long_k_tile_and_slices_together),
      TEST_CASE(test_khr_long_k_plans_split_and_validate),
      TEST_CASE(test_candidates_keep_the_bound),
      TEST_CASE(test_runtime_launch_splits_by_k),
      TEST_CASE(test_refusals_name_the_bound),
      TEST_CASE(test_long_k_matches_the_reference_on_lavapipe),
      TEST_CASE(test_long_k_model_plans_run_on_lavapipe),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
