/* tests/gemm/test_gemm_fold.c — GEMMs with more M tiles than one grid dimension holds
 * (spvgen/gemm.h, "Limits"): past 65535 tiles of M (the least maxComputeWorkGroupCount
 * Vulkan allows) the tiles fold into dimension 0. The grid of spvgen_gemm_plan and
 * spvgen_gemm_launch_for, the refusal of what still does not fit, the decode's presence
 * (RUNTIME kernels always, FIXED ones only when they fold), and SIMT kernels on the test
 * device (lavapipe in CI: 65535 workgroups per dimension) past the fold, FIXED and
 * RUNTIME, with a partial last fold, batches and split-K, every element against the
 * float64 reference. The smallest SIMT tile (16 x 16) and small N and K keep the runs at
 * about a million rows. tests/gpu/test_gpu_gemm.c runs coopmat2 and KHR kernels past the
 * fold on a GPU. */
#include <stdio.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/check.h"
#include "spvgen/gemm.h"

/* 65535 tiles of 16 rows: the last M that needs no fold. */
#define ROWS_UNFOLDED (65535u * 16u)
/* Three tiles past it and a partial fourth: 65539 tiles, 2 folds of 32770 rows, whose
 * last workgroup of each column of N lies past M. */
#define ROWS_FOLDED (ROWS_UNFOLDED + 3u * 16u + 5u)

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc simt16(spvgen_gemm_shapes shapes) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16; /* lavapipe's buffers hold at most 128 MiB */
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.tile_m = d.tile_n = 16;
  d.shapes = shapes;
  if (shapes == SPVGEN_GEMM_SHAPES_RUNTIME) d.codegen = SPVGEN_GEMM_CODEGEN_FOLD_M; /* the class folds */
  return d;
}

static bool plan_for(const spvgen_gemm_desc *d, const char *caps, spvgen_gemm_config *p) {
  spvgen_device_caps c = preset(caps);
  char msg[512];
  memset(p, 0, sizeof *p);
  spvgen_status st = spvgen_gemm_plan(d, &c, p, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "plan: %s", msg);
  return st == SPVGEN_OK;
}

/* ---------------------------------------------------------------- the grid ---- */

static void launch_folds_m_tiles_past_65535(void) {
  spvgen_gemm_config p;
  spvgen_gemm_desc d = simt16(SPVGEN_GEMM_SHAPES_RUNTIME);
  if (!plan_for(&d, "vulkan13", &p)) return;
  static const struct { uint32_t m, n, batch, g0, g1; } cases[] = {
      {ROWS_UNFOLDED, 40, 1, 3, 65535},             /* 65535 tiles: no fold */
      {ROWS_UNFOLDED + 1, 40, 1, 6, 32768},         /* 65536 tiles: 2 folds of 32768, exact */
      {ROWS_FOLDED, 40, 3, 6, 32770},               /* 65539 tiles: 2 x 32770 (one spare row) */
      {1u << 24, 40, 1, 3 * 17, 61681},             /* 2^20 tiles: 17 folds (the most) */
      {1u << 24, 16, 1, 17, 61681},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_args a = {.m = cases[i].m, .n = cases[i].n, .k = 16, .batch = cases[i].batch};
    spvgen_gemm_launch l;
    char msg[512];
    CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "m %u: %s", a.m, msg);
    CHECK_MSG(l.groups[0] == cases[i].g0 && l.groups[1] == cases[i].g1 && l.groups[2] == cases[i].batch,
              "m %u n %u: grid %u x %u x %u, expected %u x %u x %u", a.m, a.n, l.groups[0], l.groups[1], l.groups[2],
              cases[i].g0, cases[i].g1, cases[i].batch);
    /* every tile has a workgroup: rows x folds covers M's tiles, by less than one row */
    uint32_t tiles_n = (a.n + 15) / 16, tiles_m = (a.m + 15) / 16, fold = l.groups[0] / tiles_n;
    CHECK_EQ_U64(l.groups[0] % tiles_n, 0);
    CHECK((uint64_t)l.groups[1] * fold >= tiles_m && (uint64_t)(l.groups[1] - 1) * fold < tiles_m);
    CHECK(l.groups[1] <= 65535);
  }
  /* a FIXED plan's grid follows the same rule */
  spvgen_gemm_desc f = simt16(SPVGEN_GEMM_SHAPES_FIXED);
  f.m = ROWS_FOLDED, f.n = 40, f.k = 16, f.batch = 2;
  if (!plan_for(&f, "lavapipe", &p)) return;
  CHECK_EQ_U64(p.groups[0], 6);
  CHECK_EQ_U64(p.groups[1], 32770);
  CHECK_EQ_U64(p.groups[2], 2);
  f.m = ROWS_UNFOLDED;
  if (!plan_for(&f, "lavapipe", &p)) return;
  CHECK_EQ_U64(p.groups[0], 3);
  CHECK_EQ_U64(p.groups[1], 65535);
}

/* What still does not fit: N's tiles times the folds over 65535 in dimension 0. Only
 * device addresses reach it (with descriptors M x N stays under 2^32 elements). */
static void a_grid_past_65535_after_folding_is_refused(void) {
  spvgen_gemm_desc d = simt16(SPVGEN_GEMM_SHAPES_RUNTIME);
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  spvgen_gemm_config p;
  if (!plan_for(&d, "h100", &p)) return;
  char msg[512];
  spvgen_gemm_launch l;
  /* 2^20 tiles of M: 17 folds; 3856 tiles of N x 17 = 65552 */
  spvgen_gemm_args a = {.m = 1u << 24, .n = 3856u * 16u, .k = 16};
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "spvgen_gemm_launch_for");
  CHECK_CONTAINS(msg, "3856 tiles of N x 17 folds = 65552 workgroups exceed 65535");
  CHECK_CONTAINS(msg, "dimension 0");
  a.n = 3855u * 16u; /* 65535: fits */
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.groups[0], 65535);
  /* N alone past 65535 tiles */
  a.m = 16, a.n = 65536u * 16u;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "65536 tiles of N in dimension 0 exceed 65535");
  /* a run-time class that does not fold (no SPVGEN_GEMM_CODEGEN_FOLD_M): refused, naming it */
  spvgen_gemm_desc nf = simt16(SPVGEN_GEMM_SHAPES_RUNTIME);
  nf.codegen = 0;
  if (plan_for(&nf, "h100", &p)) {
    spvgen_gemm_args b = {.m = 65536u * 16u, .n = 16, .k = 16};
    CHECK(spvgen_gemm_launch_for(&p, &b, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "65536 tiles of M exceed 65535 workgroups in dimension 1");
    CHECK_CONTAINS(msg, "SPVGEN_GEMM_CODEGEN_FOLD_M");
    b.m = 65535u * 16u; /* fits unfolded */
    CHECK_MSG(spvgen_gemm_launch_for(&p, &b, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(l.groups[1], 65535);
    /* spvgen_gemm_class_for: the class of an M past 65535 x 16 rows folds, of a smaller one not */
    spvgen_gemm_desc cls;
    CHECK_MSG(spvgen_gemm_class_for(&nf, &b, &cls, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK(!(cls.codegen & SPVGEN_GEMM_CODEGEN_FOLD_M));
    b.m = 65535u * 16u + 1u;
    CHECK_MSG(spvgen_gemm_class_for(&nf, &b, &cls, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK(cls.codegen & SPVGEN_GEMM_CODEGEN_FOLD_M);
  }
  /* a FIXED plan: against the device's own limit (lavapipe: 65535 in x) */
  spvgen_gemm_desc f = simt16(SPVGEN_GEMM_SHAPES_FIXED);
  f.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  f.m = 1u << 24, f.n = 3856u * 16u, f.k = 16;
  spvgen_device_caps lvp = preset("lavapipe");
  lvp.features |= SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64;
  CHECK(spvgen_gemm_plan(&f, &lvp, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "65552 workgroups in dimension 0 (3856 tiles of N x 17 folds of M's 1048576 tiles");
}

/* ---------------------------------------------------------------- the decode ---- */

static size_t count_of(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *s = text; s && (s = strstr(s, needle)); s++) n++;
  return n;
}

/* The disassembly of d's kernel (validated), or NULL. */
static char *kernel_text(const spvgen_gemm_desc *d, const char *caps) {
  spvgen_device_caps c = preset(caps);
  spvgen_kernel k;
  char msg[512];
  spvgen_status st = spvgen_gemm(d, &c, &k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return NULL;
  char *t = check_words(k.words, k.word_count) ? check_disassemble(k.words, k.word_count) : NULL;
  spvgen_kernel_free(&k);
  return t;
}

/* A FIXED kernel decodes only when it folds, and returns early only when its last fold
 * has spare workgroups; a RUNTIME one does both where its class folds
 * (SPVGEN_GEMM_CODEGEN_FOLD_M), neither where it does not. */
static void only_folded_or_run_time_kernels_decode(void) {
  static const struct {
    spvgen_gemm_variant v;
    const char *caps;
    uint32_t m, tile;
    int runtime;        /* 1: a run-time class that folds; 2: one that does not */
    const char *decode; /* a line piece only the decode emits (NULL: no decode) */
    size_t returns;     /* early returns */
  } cases[] = {
      {SPVGEN_GEMM_SIMT, "lavapipe", ROWS_UNFOLDED, 16, false, NULL, 0},
      /* 65536 tiles: 2 folds of 32768 rows, exact: no spare workgroup */
      {SPVGEN_GEMM_SIMT, "lavapipe", ROWS_UNFOLDED + 1, 16, false, "%uint_32768\n", 0},
      {SPVGEN_GEMM_SIMT, "lavapipe", ROWS_FOLDED, 16, false, "%uint_32770\n", 1},
      {SPVGEN_GEMM_SIMT, "lavapipe", 100, 16, true, "BuiltIn NumWorkgroups", 1},
      {SPVGEN_GEMM_COOPMAT_KHR, "h100", 65535u * 64u, 64, false, NULL, 0},
      /* 65537 tiles: 2 folds of 32769 rows, one spare */
      {SPVGEN_GEMM_COOPMAT_KHR, "h100", 65536u * 64u + 1, 64, false, "%uint_32769\n", 1},
      {SPVGEN_GEMM_COOPMAT_KHR, "h100", 100, 64, true, "BuiltIn NumWorkgroups", 1},
      {SPVGEN_GEMM_COOPMAT2, "h100", 65535u * 64u, 64, false, NULL, 0},
      {SPVGEN_GEMM_COOPMAT2, "h100", 65536u * 64u + 1, 64, false, "%uint_32769\n", 1},
      {SPVGEN_GEMM_COOPMAT2, "h100", 100, 64, true, "BuiltIn NumWorkgroups", 1},
      /* run-time classes without SPVGEN_GEMM_CODEGEN_FOLD_M: no decode (runtime 2) */
      {SPVGEN_GEMM_SIMT, "lavapipe", 100, 16, 2, NULL, 0},
      {SPVGEN_GEMM_COOPMAT_KHR, "h100", 100, 64, 2, NULL, 0},
      {SPVGEN_GEMM_COOPMAT2, "h100", 100, 64, 2, NULL, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.variant = cases[i].v;
    d.tile_m = d.tile_n = cases[i].tile;
    d.n = d.variant == SPVGEN_GEMM_SIMT ? 40 : 192; /* 3 tiles of N */
    d.k = 64;
    d.m = cases[i].m;
    d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
    d.edge = d.variant == SPVGEN_GEMM_COOPMAT2 ? SPVGEN_GEMM_EDGE_CLAMP : SPVGEN_GEMM_EDGE_AUTO;
    if (cases[i].runtime) d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
    if (cases[i].runtime == 1) d.codegen = SPVGEN_GEMM_CODEGEN_FOLD_M;
    char *t = kernel_text(&d, cases[i].caps);
    if (!t) continue;
    /* the decode: the rows constant (FIXED) or NumWorkgroups (RUNTIME); the division by
     * the 3 tiles of N (FIXED: the constant 3) */
    size_t decode = cases[i].decode ? count_of(t, cases[i].decode) : 0;
    size_t nwg = count_of(t, "NumWorkgroups"), ret = count_of(t, "OpReturn\n") - 1;
    size_t ge = count_of(t, "OpUGreaterThanEqual");
    CHECK_MSG((cases[i].decode ? decode >= 1 : nwg == 0) && ret == cases[i].returns && ge == cases[i].returns &&
                  (cases[i].runtime == 1 || nwg == 0),
              "case %zu (variant %d, m %u%s): decode %zu (%s), NumWorkgroups %zu, early returns %zu, "
              "OpUGreaterThanEqual %zu (expected %zu)", i, (int)d.variant, d.m, cases[i].runtime ? ", runtime" : "",
              decode, cases[i].decode ? cases[i].decode : "none", nwg, ret, ge, cases[i].returns);
    if (!cases[i].runtime && cases[i].decode)
      CHECK_MSG(count_of(t, "OpUDiv %uint %") > 0 && strstr(t, "%uint_3\n"), "case %zu: the fold's division by 3", i);
    spvgen_free_text(t);
  }
}

/* ------------------------------------------------------ on the test device ---- */


/* One RUNTIME pipeline: a shape past the fold with spare workgroups (and a partial last
 * tile of M and of N), and shapes that do not fold through the same decode (N over
 * several tiles, batches). Each folded dispatch is 65536 workgroups or more (about half a
 * second on lavapipe): one here, two in the FIXED test. */
static void run_time_kernel_past_the_fold(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d = simt16(SPVGEN_GEMM_SHAPES_RUNTIME);
  d.tile_k = 8;
  static const spvgen_gemm_args shapes[] = {{.m = ROWS_FOLDED, .n = 12, .k = 8},
                                            {.m = 1000, .n = 70, .k = 20, .batch = 2},
                                            {.m = 37, .n = 21, .k = 9}};
  gemm_run_result r[3];
  char msg[512];
  gemm_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  spvgen_status st = gemm_run_shapes(ctx, &d, shapes, 3, &o, r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK)
    for (int i = 0; i < 3; i++) {
      gemm_result_checked(&r[i], "runtime");
      CHECK_EQ_U64(r[i].launch.groups[1] <= 65535, 1);
    }
  CHECK_EQ_U64(r[0].launch.groups[0], 2); /* folded: 1 tile of N x 2 folds */
  CHECK_EQ_U64(r[0].launch.groups[1], 32770);
  spvgen_vk_destroy(ctx);
}

/* FIXED kernels past the fold: a partial last fold with batch 2, and split-K (its
 * partials kernel folds; the reduction's grid is linear). lavapipe's 128 MiB buffers keep N
 * to one tile here (D, and the workspace of 2 planes). */
static void fixed_kernels_past_the_fold(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct { uint32_t m, n, k, batch, split_k; } cases[] = {
      {ROWS_FOLDED, 8, 8, 2, 1},
      {ROWS_FOLDED, 12, 16, 1, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = simt16(SPVGEN_GEMM_SHAPES_FIXED);
    d.m = cases[i].m, d.n = cases[i].n, d.k = cases[i].k, d.batch = cases[i].batch;
    d.split_k = cases[i].split_k;
    d.tile_k = 8;
    gemm_run_result r;
    char msg[512], what[64];
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    snprintf(what, sizeof what, "fixed batch %u split_k %u", d.batch, d.split_k);
    spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
    if (st != SPVGEN_OK) continue;
    gemm_result_checked(&r, what);
    CHECK_EQ_U64(r.plan.groups[1], 32770);
    CHECK_EQ_U64(r.plan.groups[2], cases[i].batch * cases[i].split_k);
  }
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(launch_folds_m_tiles_past_65535),
      TEST_CASE(a_grid_past_65535_after_folding_is_refused),
      TEST_CASE(only_folded_or_run_time_kernels_decode),
      TEST_CASE(run_time_kernel_past_the_fold),
      TEST_CASE(fixed_kernels_past_the_fold),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
