/* tests/sweep/test_sweep.c — the parameter sweep of the kernel templates (issue 15).
 *
 * For each caps preset ("h100", "vulkan13", "lavapipe") it enumerates GEMM descs over
 * every element-type combination (valid and not), every A/B/D layout, edge-shape classes
 * (1x1x1, odd primes, tile multiples and one past them, K = 1, tall/skinny, padded
 * leading dimensions, batches with gaps) and knob settings (defaults, each variant, tile,
 * subgroup, stage and unroll choices, and invalid ones), and MLP descs over widths (1 to
 * the 512 maximum and one past it), depths (0 to the 15-layer maximum and one past it),
 * activations, encodings, point types and knobs. Every plan spvgen_gemm_plans /
 * spvgen_mlp_plans offers is emitted and validated in-process (Vulkan 1.3 rules).
 *
 * Counts per template: descs, rejected with a reason, plans emitted (valid), invalid.
 *   invalid = a plan that failed to emit, or a module spvgen_validate refused: must be 0.
 *   A rejection must carry "spvgen_<template>_plan: <reason>" (a non-empty reason), and
 *   an invalid knob on an otherwise plannable desc must be refused naming that knob.
 *
 * Shards and size:
 *   test_sweep [--shard I/N] [--reps R] [test-name-filter]
 *   (or SPVGEN_SWEEP_SHARD=I/N, SPVGEN_SWEEP_REPS=R; SPVGEN_SWEEP_VERBOSE=1 prints every
 *   refusal)
 * Each base desc (preset x types x layouts for GEMM; preset x widths x depths x point
 * types for MLP) is taken R times (default 3) with a different (shape, epilogue, knob)
 * combination each time; R = 1292 (GEMM's 19 shapes x 4 epilogues x 17 knobs) crosses
 * them all ("the larger run": SPVGEN_SWEEP_REPS=1292, hours on 2 cores). Shard I of N
 * takes every N-th desc from I; ctest runs the default size in 4 shards (descs in total
 * printed by each shard; >= 10,000 over the 4). Each shard prints its wall time. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "words.h"
#include "spvgen/check.h"
#include "spvgen/gemm.h"
#include "spvgen/elementwise.h"
#include "spvgen/mlp.h"

static uint32_t g_shard = 0, g_nshards = 1, g_reps = 3;

static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};
enum { NPRESETS = 3 };

typedef struct counts {
  uint64_t descs, rejected, plans, valid, invalid;
} counts;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether the module declares a bfloat16 or float8 capability (BFloat16TypeKHR,
 * BFloat16DotProductKHR, BFloat16CooperativeMatrixKHR, Float8EXT,
 * Float8CooperativeMatrixEXT): SPIRV-Tools 2025.1 knows neither encoding and refuses
 * those modules at the capability, so they are counted apart ("not validatable"). */
static bool has_exotic_capability(const uint32_t *w, size_t count) {
  static const uint32_t caps[] = {5116, 5117, 5118, 4212, 4213};
  for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
    if (words_has_capability(w, count, caps[k])) return true;
  return false;
}

static uint64_t g_unvalidatable;

/* Emits one plan's module (already emitted into m) and validates it. */
static bool finish_and_validate(spvgen_module *m, spvgen_status st, const char *what, const char *name) {
  const uint32_t *w = NULL;
  size_t count = 0;
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count);
  if (st != SPVGEN_OK) {
    CHECK_MSG(0, "%s: plan %s did not emit: %s", what, name, spvgen_module_error(m));
    return false;
  }
  static char vmsg[8192];
  spvgen_validate_options vo = {0};
  if (spvgen_validate(w, count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
    if (has_exotic_capability(w, count) && strstr(vmsg, "capability")) {
      g_unvalidatable++;
      return true;
    }
    CHECK_MSG(0, "%s: plan %s is invalid: %s", what, name, vmsg);
    return false;
  }
  return true;
}

/* A rejection's message: the prefix and a reason of some substance after it. */
static bool g_verbose;
static void check_reason(const char *msg, const char *prefix, const char *what) {
  size_t pl = strlen(prefix);
  if (g_verbose) printf("  refused: %s: %s\n", what, msg);
  CHECK_MSG(!strncmp(msg, prefix, pl) && strlen(msg) >= pl + 10,
            "%s refused without a reason: '%s'", what, msg);
}

/* ------------------------------------------------------------------ GEMM ---- */

typedef struct gemm_types {
  spvgen_component_type a, b, acc, out;
} gemm_types;

/* Every input type with each accumulator of its family (float inputs: f16 and f32;
 * integer inputs: s32) and every output type; then mixed inputs, accumulators of the
 * wrong family and types no GEMM takes (refusals). */
static const spvgen_component_type gemm_float_inputs[] = {
    SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E5M2,
};
static const spvgen_component_type gemm_int_inputs[] = {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_U8};
static const spvgen_component_type gemm_outs[] = {
    SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_S32,
    SPVGEN_COMPONENT_S8,  SPVGEN_COMPONENT_U8,  SPVGEN_COMPONENT_U32,
};
static const gemm_types gemm_extra_types[] = {
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E5M2, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
    {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
    {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F64, SPVGEN_COMPONENT_F64, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F64, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_U64},
    {(spvgen_component_type)99, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
};
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
enum {
  NGEMM_FLOAT = NELEM(gemm_float_inputs) * 2 * NELEM(gemm_outs),
  NGEMM_INT = NELEM(gemm_int_inputs) * NELEM(gemm_outs),
  NGEMM_TYPES = NGEMM_FLOAT + NGEMM_INT + NELEM(gemm_extra_types),
};

static gemm_types gemm_type_at(int i) {
  gemm_types t;
  const int no = NELEM(gemm_outs);
  if (i < NGEMM_FLOAT) {
    t.a = t.b = gemm_float_inputs[i / (2 * no)];
    t.acc = i / no % 2 ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_F16;
    t.out = gemm_outs[i % no];
  } else if ((i -= NGEMM_FLOAT) < NGEMM_INT) {
    t.a = t.b = gemm_int_inputs[i / no];
    t.acc = SPVGEN_COMPONENT_S32;
    t.out = gemm_outs[i % no];
  } else {
    t = gemm_extra_types[i - NGEMM_INT];
  }
  return t;
}

/* Edge-shape classes: m, n, k, batch, extra leading-dimension padding, batch-stride gap. */
typedef struct gemm_shape {
  uint32_t m, n, k, batch, ld_pad, gap;
} gemm_shape;
static const gemm_shape gemm_shapes[] = {
    {1, 1, 1, 1, 0, 0},          /* the smallest */
    {17, 19, 23, 1, 0, 0},       /* odd primes below a tile */
    {128, 128, 128, 1, 0, 0},    /* tile multiples */
    {129, 65, 33, 1, 0, 0},      /* one past a tile in each dimension */
    {64, 64, 1, 1, 0, 0},        /* K = 1 */
    {4096, 8, 64, 1, 0, 0},      /* tall */
    {8, 4096, 64, 1, 0, 0},      /* wide */
    {16, 16, 4096, 1, 0, 0},     /* deep K */
    {97, 131, 67, 3, 0, 0},      /* batched, tight */
    {33, 47, 29, 5, 7, 13},      /* padded leading dimensions and batch gaps */
    {3000, 2999, 3001, 1, 0, 0}, /* large and odd */
    {8192, 8192, 8192, 1, 0, 0}, /* large */
    {1, 4096, 4096, 2, 1, 0},    /* one row, batched, padded */
    /* (the shapes of the GEMM sweep this program replaced) */
    {1, 64, 64, 1, 0, 0},        {64, 1, 64, 1, 0, 0},     {255, 257, 33, 3, 0, 0},
    {1024, 1024, 1024, 1, 0, 0}, {4096, 64, 4096, 1, 0, 0}, {64, 4096, 4096, 1, 0, 0},
};
enum { NGEMM_SHAPES = sizeof gemm_shapes / sizeof gemm_shapes[0], NGEMM_EPI = 4 };

/* Knob settings; the invalid ones name the field their refusal must mention. */
typedef struct gemm_knobs {
  spvgen_gemm_variant variant;
  uint32_t tile_m, tile_n, tile_k, workgroup_size, subgroups, stages, split_k, unroll;
  const char *invalid; /* a substring of the refusal; NULL: a setting that may be valid */
} gemm_knobs;
static const gemm_knobs gemm_knob_settings[] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
    {SPVGEN_GEMM_SIMT, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
    {SPVGEN_GEMM_COOPMAT_KHR, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
    {SPVGEN_GEMM_COOPMAT2, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
    {SPVGEN_GEMM_SIMT, 32, 32, 8, 0, 0, 1, 1, 1, NULL},
    {SPVGEN_GEMM_SIMT, 128, 64, 32, 0, 0, 0, 0, 4, NULL},
    {SPVGEN_GEMM_COOPMAT_KHR, 64, 64, 32, 0, 4, 2, 0, 0, NULL},
    {SPVGEN_GEMM_COOPMAT_KHR, 128, 128, 16, 0, 0, 1, 0, 0, NULL},
    {0, 64, 64, 16, 0, 0, 0, 0, 0, NULL},
    {0, 0, 0, 0, 0, 0, 2, 0, 0, NULL},
    {0, 0, 0, 0, 256, 0, 0, 0, 0, NULL},
    {(spvgen_gemm_variant)9, 0, 0, 0, 0, 0, 0, 0, 0, "variant"},
    {0, 0, 0, 0, 0, 0, 3, 0, 0, "stages"},
    /* split_k 2: valid for simt and coopmat2 when K has 2 steps of tile_k or more, and
     * refused naming split_k otherwise (and by the khr variant: tests/gemm/test_gemm.c).
     * (One entry, as the invalid one it replaced: the table's size picks the combinations
     * every other entry is swept with.) */
    {0, 0, 0, 0, 0, 0, 0, 2, 0, NULL},
    {0, 0, 0, 0, 0, 0, 0, 0, 17, "unroll"},
    {SPVGEN_GEMM_SIMT, 7, 0, 0, 0, 0, 0, 0, 0, "tile_m"},
    {SPVGEN_GEMM_SIMT, 0, 0, 0, 3, 0, 0, 0, 0, "workgroup_size"},
};
enum { NGEMM_KNOBS = sizeof gemm_knob_settings / sizeof gemm_knob_settings[0] };
enum { NGEMM_COMBOS = NGEMM_SHAPES * NGEMM_EPI * NGEMM_KNOBS };

static void gemm_fill(spvgen_gemm_desc *d, gemm_types t, int layouts, const gemm_shape *s, int epi,
                      const gemm_knobs *kn) {
  memset(d, 0, sizeof *d);
  d->m = s->m;
  d->n = s->n;
  d->k = s->k;
  d->batch = s->batch;
  d->a_type = t.a;
  d->b_type = t.b;
  d->acc_type = t.acc;
  d->out_type = t.out;
  d->a_layout = (spvgen_matrix_layout)(layouts & 1);
  d->b_layout = (spvgen_matrix_layout)(layouts >> 1 & 1);
  d->d_layout = (spvgen_matrix_layout)(layouts >> 2 & 1);
  if (s->ld_pad) {
    d->lda = (d->a_layout ? d->m : d->k) + s->ld_pad;
    d->ldb = (d->b_layout ? d->k : d->n) + s->ld_pad;
    d->ldd = (d->d_layout ? d->m : d->n) + s->ld_pad;
  }
  if (s->gap) {
    d->stride_a = (uint64_t)(d->lda ? d->lda : d->a_layout ? d->m : d->k) * (d->a_layout ? d->k : d->m) + s->gap;
    d->stride_b = (uint64_t)(d->ldb ? d->ldb : d->b_layout ? d->k : d->n) * (d->b_layout ? d->n : d->k) + s->gap;
    d->stride_d = (uint64_t)(d->ldd ? d->ldd : d->d_layout ? d->m : d->n) * (d->d_layout ? d->n : d->m) + s->gap;
  }
  bool int_out = d->out_type == SPVGEN_COMPONENT_S32 || d->out_type == SPVGEN_COMPONENT_S8 ||
                 d->out_type == SPVGEN_COMPONENT_U8 || d->out_type == SPVGEN_COMPONENT_U32;
  switch (epi) {
  case 1: /* scaled, with C (the opposite layout of D) and a row bias */
    d->bias = SPVGEN_GEMM_BIAS_ROW;
    d->activation = int_out ? SPVGEN_ACTIVATION_RELU : SPVGEN_ACTIVATION_GELU;
    if (!int_out) {
      d->alpha = 0.5f;
      d->beta = 1.25f;
      d->c_layout = (spvgen_matrix_layout)!d->d_layout;
    }
    break;
  case 2:
    d->bias = SPVGEN_GEMM_BIAS_COLUMN;
    d->activation = int_out ? SPVGEN_ACTIVATION_NONE : SPVGEN_ACTIVATION_SILU;
    break;
  case 3:
    d->activation = SPVGEN_ACTIVATION_RELU;
    if (!int_out) d->alpha = -2.0f;
    break;
  default:
    break;
  }
  d->variant = kn->variant;
  d->tile_m = kn->tile_m;
  d->tile_n = kn->tile_n;
  d->tile_k = kn->tile_k;
  d->workgroup_size = kn->workgroup_size;
  d->subgroups = kn->subgroups;
  d->stages = kn->stages;
  d->split_k = kn->split_k;
  d->unroll = kn->unroll;
}

static void sweep_gemm(counts *c, uint64_t *serial) {
  enum { MAXP = 256 };
  static spvgen_gemm_config plans[MAXP];
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(m != NULL);
  if (!m) return;
  for (int p = 0; p < NPRESETS; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int ti = 0; ti < NGEMM_TYPES; ti++)
      for (int lay = 0; lay < 8; lay++) {
        uint64_t base = (uint64_t)(p * NGEMM_TYPES + ti) * 8 + (uint64_t)lay;
        for (uint32_t r = 0; r < g_reps; r++) {
          if ((*serial)++ % g_nshards != g_shard) continue;
          /* R consecutive combinations from a start that moves with the base desc, so
           * that the default 3 cover every shape, epilogue and knob many times over. */
          uint32_t combo = (uint32_t)((base * 131 + r) % NGEMM_COMBOS);
          const gemm_shape *s = &gemm_shapes[combo % NGEMM_SHAPES];
          int epi = (int)(combo / NGEMM_SHAPES % NGEMM_EPI);
          const gemm_knobs *kn = &gemm_knob_settings[combo / (NGEMM_SHAPES * NGEMM_EPI)];
          gemm_types t = gemm_type_at(ti);
          spvgen_gemm_desc d;
          gemm_fill(&d, t, lay, s, epi, kn);
          char what[160];
          snprintf(what, sizeof what, "%s gemm %ux%ux%u b%u %s,%s,%s->%s lay%d epi%d knobs%u", presets[p], d.m,
                   d.n, d.k, d.batch, spvgen_component_type_name(t.a), spvgen_component_type_name(t.b),
                   spvgen_component_type_name(t.acc), spvgen_component_type_name(t.out), lay, epi,
                   combo / (NGEMM_SHAPES * NGEMM_EPI));
          c->descs++;
          uint32_t n = 0;
          char msg[512] = "";
          spvgen_status st = spvgen_gemm_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
          {
            /* spvgen_gemm_plan agrees: it refuses exactly what spvgen_gemm_plans refuses. */
            spvgen_gemm_config one;
            char msg1[512];
            spvgen_status st1 = spvgen_gemm_plan(&d, &caps, &one, msg1, sizeof msg1);
            CHECK_MSG((st1 == SPVGEN_OK) == (st == SPVGEN_OK), "%s: gemm_plans says %s (%s), gemm_plan %s (%s)",
                      what, spvgen_status_name(st), msg, spvgen_status_name(st1), msg1);
          }
          if (st != SPVGEN_OK) {
            c->rejected++;
            check_reason(msg, "spvgen_gemm_plan: ", what);
            if (kn->invalid) {
              /* Refused for the knob, unless the desc is refused without it too. */
              spvgen_gemm_desc d0;
              gemm_fill(&d0, t, lay, s, epi, &gemm_knob_settings[kn->variant == SPVGEN_GEMM_SIMT ? 1 : 0]);
              uint32_t n0 = 0;
              char msg0[512];
              if (spvgen_gemm_plans(&d0, &caps, NULL, 0, &n0, msg0, sizeof msg0) == SPVGEN_OK)
                CHECK_MSG(strstr(msg, kn->invalid) != NULL, "%s: refused without naming %s: %s", what,
                          kn->invalid, msg);
            }
            continue;
          }
          CHECK_MSG(!kn->invalid, "%s: invalid %s accepted", what, kn->invalid ? kn->invalid : "");
          CHECK_MSG(n >= 1 && n <= MAXP, "%s: %u plans", what, n);
          for (uint32_t i = 0; i < n && i < MAXP; i++) {
            c->plans++;
            spvgen_module_reset(m, NULL);
            spvgen_kernel_info info;
            if (finish_and_validate(m, spvgen_gemm_emit(m, &plans[i], &info), what, plans[i].name))
              c->valid++;
            else
              c->invalid++;
          }
        }
      }
  }
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------------- MLP ---- */

static const uint32_t mlp_ins[] = {1, 2, 3, 17, 64, 512, 513};
static const uint32_t mlp_outs[] = {1, 3, 4, 16, 17};
typedef struct mlp_hidden {
  uint32_t count, width, widths[4];
} mlp_hidden;
static const mlp_hidden mlp_hiddens[] = {
    {0, 0, {0}},          {1, 16, {0}},          {2, 33, {0}},      {3, 64, {0}},
    {0, 0, {64, 32, 16}}, {1, 512, {0}},         {1, 513, {0}},     {SPVGEN_MLP_MAX_LAYERS - 1, 8, {0}},
    {SPVGEN_MLP_MAX_LAYERS, 8, {0}}, {2, 0, {0}},
};
static const spvgen_component_type mlp_point_types[][2] = {
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
    {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F16},
};
typedef struct mlp_knobs {
  spvgen_mlp_variant variant;
  uint32_t workgroup_size, points_per_group;
  spvgen_mlp_weight_layout_kind weight_layout;
  const char *invalid;
} mlp_knobs;
static const mlp_knobs mlp_knob_settings[] = {
    {0, 0, 0, 0, NULL},
    {SPVGEN_MLP_LOOP, 0, 0, 0, NULL},
    {SPVGEN_MLP_VEC, 0, 0, 0, NULL},
    {SPVGEN_MLP_MAT, 0, 0, 0, NULL},
    {SPVGEN_MLP_LOOP, 32, 1, 0, NULL},
    {0, 128, 0, 0, NULL},
    {(spvgen_mlp_variant)9, 0, 0, 0, "variant"},
    {SPVGEN_MLP_LOOP, 4096, 0, 0, "workgroup_size"},
    {SPVGEN_MLP_LOOP, 0, 2, 0, "points_per_group"},
    {SPVGEN_MLP_VEC, 0, 2, 0, NULL},
    {SPVGEN_MLP_VEC, 64, 4, SPVGEN_MLP_WEIGHTS_OPTIMAL, NULL},
    {SPVGEN_MLP_VEC, 0, 3, 0, "points_per_group"},
    {0, 0, 0, SPVGEN_MLP_WEIGHTS_OPTIMAL, NULL},
    {SPVGEN_MLP_LOOP, 0, 0, SPVGEN_MLP_WEIGHTS_OPTIMAL, "weight_layout"},
    {0, 0, 0, (spvgen_mlp_weight_layout_kind)7, "weight_layout"},
};
enum {
  NMLP_KNOBS = sizeof mlp_knob_settings / sizeof mlp_knob_settings[0],
  NMLP_ENC = 5, /* none, freq 2, freq default, oneblob 4, oneblob default */
  NMLP_ACT = SPVGEN_ACTIVATION_EXP + 1, /* DEFAULT .. EXP: the MLP's (not GELU) */
  NMLP_COMBOS = NMLP_KNOBS * NMLP_ENC * NMLP_ACT * 2,
};

static void sweep_mlp(counts *c, uint64_t *serial) {
  enum { MAXP = 32 };
  static spvgen_mlp_config plans[MAXP];
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(m != NULL);
  if (!m) return;
  const int ni = (int)(sizeof mlp_ins / sizeof mlp_ins[0]), no = (int)(sizeof mlp_outs / sizeof mlp_outs[0]);
  const int nh = (int)(sizeof mlp_hiddens / sizeof mlp_hiddens[0]);
  const int nt = (int)(sizeof mlp_point_types / sizeof mlp_point_types[0]);
  for (int p = 0; p < NPRESETS; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int a = 0; a < ni; a++)
      for (int b = 0; b < no; b++)
        for (int h = 0; h < nh; h++)
          for (int t = 0; t < nt; t++) {
            uint64_t base = (((uint64_t)p * ni + a) * no + b) * nh * nt + (uint64_t)h * nt + t;
            for (uint32_t r = 0; r < g_reps; r++) {
              if ((*serial)++ % g_nshards != g_shard) continue;
              uint32_t combo = (uint32_t)((base * 97 + r) % NMLP_COMBOS);
              const mlp_knobs *kn = &mlp_knob_settings[combo % NMLP_KNOBS];
              int enc = (int)(combo / NMLP_KNOBS % NMLP_ENC);
              int act = (int)(combo / (NMLP_KNOBS * NMLP_ENC) % NMLP_ACT);
              bool no_bias = combo / (NMLP_KNOBS * NMLP_ENC * NMLP_ACT) % 2;
              spvgen_mlp_desc d;
              memset(&d, 0, sizeof d);
              d.input_width = mlp_ins[a];
              d.output_width = mlp_outs[b];
              d.hidden_count = mlp_hiddens[h].count;
              d.hidden_width = mlp_hiddens[h].width;
              memcpy(d.hidden_widths, mlp_hiddens[h].widths, sizeof mlp_hiddens[h].widths);
              d.activation = (spvgen_mlp_activation)act;
              d.output_activation = (spvgen_mlp_activation)((act + 3) % NMLP_ACT);
              if (act == SPVGEN_MLP_ACT_LEAKY_RELU) d.leaky_slope = 0.2f;
              if (d.hidden_count >= 2) d.layer_activations[1] = (spvgen_mlp_activation)((act + 5) % NMLP_ACT);
              d.no_bias = no_bias;
              static const spvgen_mlp_encoding encs[NMLP_ENC] = {
                  SPVGEN_MLP_ENCODING_NONE, SPVGEN_MLP_ENCODING_FREQUENCY, SPVGEN_MLP_ENCODING_FREQUENCY,
                  SPVGEN_MLP_ENCODING_ONE_BLOB, SPVGEN_MLP_ENCODING_ONE_BLOB};
              static const uint32_t enc_sizes[NMLP_ENC] = {0, 2, 0, 4, 0};
              d.encoding = encs[enc];
              d.encoding_size = enc_sizes[enc];
              d.input_type = mlp_point_types[t][0];
              d.output_type = mlp_point_types[t][1];
              d.variant = kn->variant;
              d.workgroup_size = kn->workgroup_size;
              d.points_per_group = kn->points_per_group;
              d.weight_layout = kn->weight_layout;
              char what[160];
              snprintf(what, sizeof what, "%s mlp %u->[%ux%u]->%u %s/%s enc%d act%d knobs%u", presets[p],
                       d.input_width, d.hidden_count, d.hidden_width, d.output_width,
                       spvgen_component_type_name(d.input_type), spvgen_component_type_name(d.output_type), enc,
                       act, combo % NMLP_KNOBS);
              c->descs++;
              uint32_t n = 0;
              char msg[512] = "";
              spvgen_status st = spvgen_mlp_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
              {
                spvgen_mlp_config one;
                char msg1[512];
                spvgen_status st1 = spvgen_mlp_plan(&d, &caps, &one, msg1, sizeof msg1);
                CHECK_MSG((st1 == SPVGEN_OK) == (st == SPVGEN_OK), "%s: mlp_plans says %s (%s), mlp_plan %s (%s)",
                          what, spvgen_status_name(st), msg, spvgen_status_name(st1), msg1);
              }
              if (st != SPVGEN_OK) {
                c->rejected++;
                check_reason(msg, "spvgen_mlp_plan: ", what);
                if (kn->invalid) {
                  spvgen_mlp_desc d0 = d;
                  d0.variant = kn->variant == SPVGEN_MLP_LOOP || kn->variant == SPVGEN_MLP_VEC ? kn->variant : SPVGEN_MLP_AUTO;
                  d0.workgroup_size = d0.points_per_group = 0;
                  d0.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
                  uint32_t n0 = 0;
                  char msg0[512];
                  if (spvgen_mlp_plans(&d0, &caps, NULL, 0, &n0, msg0, sizeof msg0) == SPVGEN_OK)
                    CHECK_MSG(strstr(msg, kn->invalid) != NULL, "%s: refused without naming %s: %s", what,
                              kn->invalid, msg);
                }
                continue;
              }
              CHECK_MSG(!kn->invalid, "%s: invalid %s accepted", what, kn->invalid ? kn->invalid : "");
              CHECK_MSG(n >= 1 && n <= MAXP, "%s: %u plans", what, n);
              for (uint32_t i = 0; i < n && i < MAXP; i++) {
                c->plans++;
                spvgen_module_reset(m, NULL);
                spvgen_kernel_info info;
                if (finish_and_validate(m, spvgen_mlp_emit(m, &plans[i], &info), what, plans[i].name))
                  c->valid++;
                else
                  c->invalid++;
              }
            }
          }
  }
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------- MLP training ---- */

/* desc -> spvgen_mlp_train_plans -> both kernels emitted and validated, for every plan
 * offered (issue 27: a vec plan with 15 hidden layers was accepted and failed to emit,
 * its gradient kernel wanting 34 push-constant members). Widths, depths up to the
 * maximum and one past it, each variant, both losses and optimizers, gradient knobs. */
static const uint32_t train_ins[] = {1, 3, 16, 64, 513};
static const uint32_t train_outs[] = {1, 4, 16};
static const mlp_hidden train_hiddens[] = {
    {0, 0, {0}}, {1, 16, {0}}, {2, 33, {0}}, {3, 64, {0}}, {0, 0, {64, 32, 16}},
    {SPVGEN_MLP_MAX_LAYERS - 2, 16, {0}}, {SPVGEN_MLP_MAX_LAYERS - 1, 16, {0}}, {SPVGEN_MLP_MAX_LAYERS, 8, {0}},
};
static const spvgen_mlp_variant train_variants[] = {SPVGEN_MLP_AUTO, SPVGEN_MLP_LOOP, SPVGEN_MLP_VEC, SPVGEN_MLP_MAT,
                                                    SPVGEN_MLP_LAYERS};

static void sweep_mlp_train(counts *c, uint64_t *serial) {
  enum { MAXP = 16 };
  static spvgen_mlp_train_config plans[MAXP];
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(m != NULL);
  if (!m) return;
  const int ni = (int)(sizeof train_ins / sizeof train_ins[0]), no = (int)(sizeof train_outs / sizeof train_outs[0]);
  const int nh = (int)(sizeof train_hiddens / sizeof train_hiddens[0]);
  const int nv = (int)(sizeof train_variants / sizeof train_variants[0]);
  for (int p = 0; p < NPRESETS; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int a = 0; a < ni; a++)
      for (int b = 0; b < no; b++)
        for (int h = 0; h < nh; h++)
          for (int v = 0; v < nv; v++) {
            if ((*serial)++ % g_nshards != g_shard) continue;
            uint64_t combo = ((((uint64_t)p * ni + a) * no + b) * nh + h) * nv + v;
            spvgen_mlp_train_desc d;
            memset(&d, 0, sizeof d);
            d.net.input_width = train_ins[a];
            d.net.output_width = train_outs[b];
            d.net.hidden_count = train_hiddens[h].count;
            d.net.hidden_width = train_hiddens[h].width;
            memcpy(d.net.hidden_widths, train_hiddens[h].widths, sizeof train_hiddens[h].widths);
            d.net.variant = train_variants[v];
            d.net.activation = (spvgen_mlp_activation)(combo % NMLP_ACT);
            d.loss = (spvgen_mlp_loss)(combo / 3 % SPVGEN_MLP_LOSS_COUNT);
            d.optimizer = (spvgen_mlp_optimizer)(combo / 5 % SPVGEN_MLP_OPTIMIZER_COUNT);
            d.grad_workgroups = combo % 7 == 0 ? 16 : 0;
            d.grad_workgroup_size = combo % 11 == 0 ? 32 : 0;
            char what[160];
            snprintf(what, sizeof what, "%s train %s %u->[%ux%u]->%u", presets[p],
                     spvgen_mlp_variant_name(d.net.variant), d.net.input_width, d.net.hidden_count,
                     d.net.hidden_width, d.net.output_width);
            c->descs++;
            uint32_t n = 0;
            char msg[512] = "";
            spvgen_status st = spvgen_mlp_train_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
            spvgen_mlp_train_config one;
            char msg1[512];
            spvgen_status st1 = spvgen_mlp_train_plan(&d, &caps, &one, msg1, sizeof msg1);
            CHECK_MSG((st1 == SPVGEN_OK) == (st == SPVGEN_OK), "%s: train_plans says %s (%s), train_plan %s (%s)",
                      what, spvgen_status_name(st), msg, spvgen_status_name(st1), msg1);
            if (st != SPVGEN_OK) {
              c->rejected++;
              check_reason(msg, "spvgen_mlp_train_plan", what);
              continue;
            }
            /* every kernel of the gradient step (the layers variant's several), then the optimizer */
            for (uint32_t i = 0; i < n && i < MAXP; i++) {
              const uint32_t kc = spvgen_mlp_train_kernel_count(&plans[i]);
              CHECK_MSG(kc >= 1, "%s: %s has no gradient kernels", what, plans[i].name);
              for (uint32_t k = 0; k <= kc; k++) {
                c->plans++;
                spvgen_module_reset(m, NULL);
                spvgen_kernel_info info;
                spvgen_status es = k < kc ? spvgen_mlp_train_emit_kernel(m, &plans[i], k, &info)
                                          : spvgen_mlp_train_emit(m, &plans[i], SPVGEN_MLP_TRAIN_OPTIMIZER, &info);
                if (finish_and_validate(m, es, what, plans[i].name))
                  c->valid++;
                else
                  c->invalid++;
              }
            }
          }
  }
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------ elementwise ---- */

/* Every op, type and local size (valid and not) on every preset: each plan offered
 * emits a valid module. */
static void sweep_elementwise(counts *c, uint64_t *serial) {
  static const uint32_t sizes[] = {0, 1, 32, 64, 100, 256, 1024, 1025};
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(m != NULL);
  if (!m) return;
  for (int p = 0; p < NPRESETS; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int op = 0; op <= SPVGEN_ELEMENTWISE_MAX + 1; op++)
      for (int t = 0; t <= SPVGEN_ELEMENTWISE_S32 + 1; t++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
          for (int mm = 0; mm < 2; mm++) {
            if ((*serial)++ % g_nshards != g_shard) continue;
            spvgen_elementwise_desc d = {(spvgen_elementwise_op)op, (spvgen_elementwise_type)t, sizes[z], mm != 0};
            char what[96];
            snprintf(what, sizeof what, "%s elementwise op%d type%d local%u mm%d", presets[p], op, t, sizes[z], mm);
            c->descs++;
            spvgen_elementwise_config plans[8];
            uint32_t n = 0;
            char msg[512] = "";
            if (spvgen_elementwise_plans(&d, &caps, plans, 8, &n, msg, sizeof msg) != SPVGEN_OK || n == 0) {
              c->rejected++;
              check_reason(msg, "spvgen_elementwise_plan", what);
              continue;
            }
            for (uint32_t i = 0; i < n && i < 8; i++) {
              c->plans++;
              spvgen_module_reset(m, NULL);
              spvgen_kernel_info info;
              if (finish_and_validate(m, spvgen_elementwise_emit(m, &plans[i], &info), what, "elementwise"))
                c->valid++;
              else
                c->invalid++;
            }
          }
  }
  spvgen_module_destroy(m);
}

static void report(const char *what, const counts *c, double secs) {
  printf("sweep %s shard %u/%u reps %u: %llu descs, %llu rejected with a reason, %llu plans emitted: "
         "%llu valid, %llu invalid (%.1f s)\n",
         what, g_shard, g_nshards, g_reps, (unsigned long long)c->descs, (unsigned long long)c->rejected,
         (unsigned long long)c->plans, (unsigned long long)c->valid, (unsigned long long)c->invalid, secs);
  fflush(stdout);
}

static void test_gemm_sweep(void) {
  counts c = {0};
  uint64_t serial = 0;
  double t0 = now_s();
  sweep_gemm(&c, &serial);
  report("gemm", &c, now_s() - t0);
  printf("  of the valid: %llu with bf16/float8 types finished but not validated (SPIRV-Tools 2025.1 "
         "knows neither encoding)\n", (unsigned long long)g_unvalidatable);
  CHECK(c.invalid == 0);
  CHECK(c.descs > 0 && c.valid > 0 && c.rejected > 0);
  /* Unsharded, the default size is 3 presets x 95 type combinations x 8 layouts x 3. */
  if (g_nshards == 1 && g_reps >= 3) CHECK(c.descs >= 6800);
}

static void test_mlp_sweep(void) {
  counts c = {0};
  uint64_t serial = 0;
  double t0 = now_s();
  sweep_mlp(&c, &serial);
  report("mlp", &c, now_s() - t0);
  CHECK(c.invalid == 0);
  CHECK(c.descs > 0 && c.valid > 0 && c.rejected > 0);
}

static void test_mlp_train_sweep(void) {
  counts c = {0};
  uint64_t serial = 0;
  double t0 = now_s();
  sweep_mlp_train(&c, &serial);
  report("mlp train", &c, now_s() - t0);
  CHECK(c.invalid == 0);
  CHECK(c.descs > 0 && c.valid > 0 && c.rejected > 0);
}

static void test_elementwise_sweep(void) {
  counts c = {0};
  uint64_t serial = 0;
  double t0 = now_s();
  sweep_elementwise(&c, &serial);
  report("elementwise", &c, now_s() - t0);
  CHECK(c.invalid == 0);
  CHECK(c.descs > 0 && c.valid > 0 && c.rejected > 0);
}

/* Regressions the sweep found. spvgen_gemm_plans let a SIMT desc's workgroup_size go
 * (it offered 16..1024-invocation tiles for workgroup_size 3, which spvgen_gemm_plan
 * refuses), and refused descs whose knobs name a tile outside its candidate table
 * ("no candidate plan for this desc") that spvgen_gemm_plan accepts. */
static void test_gemm_plans_keep_the_knobs_and_agree_with_gemm_plan(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = d.n = d.k = 64;
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
  d.variant = SPVGEN_GEMM_SIMT;
  d.workgroup_size = 3;
  spvgen_gemm_config plans[64];
  uint32_t n = 99;
  char msg[512];
  CHECK(spvgen_gemm_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(n, 0);
  CHECK_CONTAINS(msg, "workgroup_size 3");
  d.workgroup_size = 64; /* a 32x32 tile */
  CHECK(spvgen_gemm_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK(n >= 1);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_EQ_U64(plans[i].local_size[0], 64);
  /* A tile outside the table (tile_k 8): the one candidate is spvgen_gemm_plan's. */
  d.workgroup_size = 0;
  d.tile_m = d.tile_n = 32;
  d.tile_k = 8;
  spvgen_gemm_config one;
  CHECK(spvgen_gemm_plan(&d, &caps, &one, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(n, 1);
  CHECK_STR_EQ(plans[0].name, one.name);
  CHECK(spvgen_gemm_plans(&d, &caps, NULL, 0, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(n, 1);
  /* workgroup_size without a tile: spvgen_gemm_plan picks a tile of that many
   * invocations (it chose the size's default tile, 16x16 for 1x1x1, and refused). */
  d.m = d.n = d.k = 1;
  d.tile_m = d.tile_n = d.tile_k = 0;
  d.workgroup_size = 256;
  CHECK(spvgen_gemm_plan(&d, &caps, &one, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(one.local_size[0], 256);
}

static bool parse_shard(const char *s) {
  unsigned a, b;
  if (!s || sscanf(s, "%u/%u", &a, &b) != 2 || !b || a >= b) return false;
  g_shard = a;
  g_nshards = b;
  return true;
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_gemm_sweep),
      TEST_CASE(test_mlp_sweep),
      TEST_CASE(test_mlp_train_sweep),
      TEST_CASE(test_elementwise_sweep),
      TEST_CASE(test_gemm_plans_keep_the_knobs_and_agree_with_gemm_plan),
  };
  const char *e = getenv("SPVGEN_SWEEP_SHARD");
  if (e && !parse_shard(e)) {
    fprintf(stderr, "SPVGEN_SWEEP_SHARD=%s: expected I/N with I < N\n", e);
    return 2;
  }
  if ((e = getenv("SPVGEN_SWEEP_REPS"))) g_reps = (uint32_t)strtoul(e, NULL, 10);
  char *rest[8];
  int nrest = 0;
  rest[nrest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
      if (!parse_shard(argv[++i])) {
        fprintf(stderr, "--shard %s: expected I/N with I < N\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      g_reps = (uint32_t)strtoul(argv[++i], NULL, 10);
    } else if (nrest < 7) {
      rest[nrest++] = argv[i];
    }
  }
  if (!g_reps) g_reps = 1;
  g_verbose = getenv("SPVGEN_SWEEP_VERBOSE") && strcmp(getenv("SPVGEN_SWEEP_VERBOSE"), "0");
  rest[nrest] = NULL;
  double t0 = now_s();
  int rc = test_main(nrest, rest, tests, TEST_COUNT(tests));
  printf("sweep shard %u/%u: %.1f s wall\n", g_shard, g_nshards, now_s() - t0);
  return rc;
}
