/* tests/gemm/test_gemm_splitk.c — split-K as two kernels (spvgen/gemm.h, "Split-K"): the
 * partials kernel holds the unsplit kernel's synchronization and nothing more (no
 * barrier, atomic, Workgroup memory or device-scope memory model in coopmat2's), the
 * reduction none at all; both validate over the variants, addressing forms, shapes,
 * edges and epilogues; the launch contract (grids, push sizes, workspace) of fixed and
 * run-time plans; the one-shot's refusal; the compile estimate of the pair. The kernels
 * run on lavapipe in tests/gemm/test_gemm.c (simt) and on the GPU in
 * tests/gpu/test_gpu_gemm.c (coopmat2). */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/caps.h"
#include "spvgen/gemm.h"

#include <spirv/unified1/spirv.h>

typedef spvgen_component_type T;
#define F16 SPVGEN_COMPONENT_F16
#define F32 SPVGEN_COMPONENT_F32
#define S8 SPVGEN_COMPONENT_S8
#define S32 SPVGEN_COMPONENT_S32

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc gemm(uint32_t m, uint32_t n, uint32_t k, T ab, T acc, T out) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = ab;
  d.acc_type = acc;
  d.out_type = out;
  return d;
}

static const char *describe(const spvgen_gemm_desc *d, char *buf, size_t size) {
  snprintf(buf, size, "%ux%ux%u batch %u %s,%s->%s tile %ux%ux%u sk %u %s %s edge %s beta %g bias %d act %d",
           d->m, d->n, d->k, d->batch, spvgen_component_type_name(d->a_type), spvgen_component_type_name(d->acc_type),
           spvgen_component_type_name(d->out_type), d->tile_m, d->tile_n, d->tile_k, d->split_k,
           spvgen_gemm_shapes_name(d->shapes), spvgen_addressing_name(d->addressing), spvgen_gemm_edge_name(d->edge),
           (double)d->beta, (int)d->bias, (int)d->activation);
  return buf;
}

/* Both kernels of d: each validates (spirv-val, in process); *sync gets each one's
 * synchronization. Returns the kernel count (0 on failure, reported). */
static uint32_t build_pair(const spvgen_gemm_desc *d, const spvgen_device_caps *caps, spvgen_gemm_config *plan,
                           words_sync sync[2], spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT]) {
  char msg[512], what[256];
  uint32_t n = 0;
  spvgen_gemm_desc unpacked = *d; /* the two split-K kernels only (pack auto may add a pack kernel) */
  if (unpacked.pack == SPVGEN_GEMM_PACK_AUTO) unpacked.pack = SPVGEN_GEMM_PACK_NONE;
  d = &unpacked;
  spvgen_status st = spvgen_gemm_kernels(d, caps, k, &n, plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", describe(d, what, sizeof what), msg);
  if (st != SPVGEN_OK) return 0;
  CHECK_EQ_U64(n, 2);
  for (uint32_t i = 0; i < n && i < 2; i++) {
    CHECK(words_sync_summary(k[i].words, k[i].word_count, &sync[i]));
    if (!check_words(k[i].words, k[i].word_count))
      test_fail_at(__FILE__, __LINE__, "... kernel %u of %s [%s]", i, describe(d, what, sizeof what), plan->name);
  }
  return n;
}

static void free_pair(spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT], uint32_t n) {
  for (uint32_t i = 0; i < n; i++) spvgen_kernel_free(&k[i]);
}

/* A module with nothing that synchronizes invocations or workgroups. */
static void check_sync_free(const words_sync *s, const char *kernel, const spvgen_gemm_desc *d, const char *plan) {
  char what[256];
  CHECK_MSG(!s->control_barriers && !s->memory_barriers && !s->atomics && !s->workgroup_variables &&
                !s->workgroup_pointers && !s->device_scope_capability,
            "%s kernel of %s [%s]: %u control barriers, %u memory barriers, %u atomics, %u Workgroup variables, %u "
            "Workgroup pointer types, device-scope capability %d",
            kernel, describe(d, what, sizeof what), plan, s->control_barriers, s->memory_barriers, s->atomics,
            s->workgroup_variables, s->workgroup_pointers, (int)s->device_scope_capability);
}

/* The partials kernel's K loop loads A and B at K coordinates that count from the slice's
 * start (the operands' pointers move there), not at slice * slice_k + i * tile_k: the
 * loads' K offsets must not depend on the workgroup id. Every one of them where every
 * slice has the same constant length (a FIXED K the slices split evenly); elsewhere the
 * first loop's (the leftover steps' loop starts where the run-time count of the unrolled
 * one ends, as in the unsplit run-time kernel). Not checked for the shift edge mode: a
 * shifted tile's first row (column) is no multiple of 16, and where the leading dimension
 * is no whole 16-byte chunks either, the bytes its pointer was aligned down by join the
 * contiguous coordinate, which is K for a row-major A or a column-major B. */
static void check_k_offsets(const spvgen_kernel *k, const spvgen_gemm_desc *d, const spvgen_gemm_config *plan) {
  char what[256];
  if (d->edge == SPVGEN_GEMM_EDGE_SHIFT) return;
  const uint32_t sk = plan->slice_k;
  const bool even = d->shapes == SPVGEN_GEMM_SHAPES_FIXED && sk && d->k % sk == 0 && d->k / sk == d->split_k;
  for (uint32_t use = 0; use < 2; use++) {
    /* A (M x K): K is its columns, the last offset row-major, the first col-major; B
     * (K x N): its rows */
    const bool col = (use ? d->b_layout : d->a_layout) == SPVGEN_COL_MAJOR;
    const uint32_t from_end = use ? (col ? 0 : 1) : (col ? 1 : 0);
    words_load_dep r;
    CHECK(words_tensor_load_wg_dependence(k->words, k->word_count, use, from_end, &r));
    CHECK_MSG(r.loads >= 1, "%s: no tensor loads of %s", plan->name, use ? "B" : "A");
    if (even)
      CHECK_MSG(r.dependent == 0, "%s [%s]: %u of %u loads of %s at a K offset that depends on the workgroup id",
                describe(d, what, sizeof what), plan->name, r.dependent, r.loads, use ? "B" : "A");
    else
      CHECK_MSG(r.first_independent >= 1, "%s [%s]: the first load of %s is at a K offset that depends on the "
                "workgroup id (%u of %u do)", describe(d, what, sizeof what), plan->name, use ? "B" : "A",
                r.dependent, r.loads);
  }
}

/* coopmat2 on the h100 preset, the tiles the prompt-length plans use (32x64x64,
 * 64x64x64, 128x128x64) and the default's: fixed and run-time shapes, descriptors and
 * device addresses, batches, every edge mode, epilogues, 8- and 16-bit inputs. The
 * partials kernel: no synchronization at all, one tensor store per tile path (its
 * partial), the K loop's loads; the reduction: none, and no cooperative matrix. */
static void test_coopmat2_partials_and_reduction_have_no_synchronization(void) {
  spvgen_device_caps h100 = preset("h100");
  static const uint32_t tiles[][3] = {{32, 64, 64}, {64, 64, 64}, {128, 128, 64}, {0, 0, 0}};
  static const uint32_t shapes[][3] = {{16, 3584, 3584}, {257, 3584, 18944}, {97, 131, 1000}, {1, 520, 777}};
  static const struct { T ab, acc, out; } types[] = {{F16, F32, F32}, {F16, F16, F16}, {F16, F32, F16}, {S8, S32, S32}};
  uint32_t pairs = 0, evens = 0;
  for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (uint32_t form = 0; form < 4; form++) { /* fixed / run-time x descriptors / device addresses */
        size_t ty = (t + s + form) % (sizeof types / sizeof types[0]);
        spvgen_gemm_desc d = gemm(shapes[s][0], shapes[s][1], shapes[s][2], types[ty].ab, types[ty].acc,
                                  types[ty].out);
        d.variant = SPVGEN_GEMM_COOPMAT2;
        d.tile_m = tiles[t][0], d.tile_n = tiles[t][1], d.tile_k = tiles[t][2];
        if (d.tile_k && types[ty].ab == S8) d.tile_k *= 2; /* 128 bytes of K, as the small-M tiles */
        d.split_k = 2 + (uint32_t)((t + s) % 3);
        d.b_layout = (spvgen_matrix_layout)((s + form) & 1);
        d.d_layout = (spvgen_matrix_layout)(form == 3);
        d.batch = form == 1 ? 3 : 1;
        d.shapes = form & 1 ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
        d.addressing = form >= 2 ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
        d.edge = (spvgen_gemm_edge)((t + form) % 3); /* auto, branch, clamp */
        if (types[ty].out != S32) {
          d.alpha = 0.5f;
          d.beta = (s + t) & 1 ? 1.25f : 0.0f;
          static const spvgen_activation acts[3] = {SPVGEN_ACTIVATION_RELU, SPVGEN_ACTIVATION_GELU,
                                                    SPVGEN_ACTIVATION_SILU};
          d.activation = acts[(s + form) % 3];
        }
        d.bias = (spvgen_gemm_bias)((t + s + form) % 3);
        spvgen_gemm_config plan;
        words_sync sync[2];
        spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
        uint32_t n = build_pair(&d, &h100, &plan, sync, k);
        if (n == 2) {
          pairs++;
          check_sync_free(&sync[0], "partials", &d, plan.name);
          check_sync_free(&sync[1], "reduction", &d, plan.name);
          uint32_t paths = words_count(k[0].words, k[0].word_count, SpvOpCooperativeMatrixStoreTensorNV);
          CHECK_MSG(paths >= 1 && paths <= 2, "[%s]: %u tensor stores (one partial per tile path)", plan.name, paths);
          CHECK(words_has(k[0].words, k[0].word_count, SpvOpCooperativeMatrixLoadTensorNV));
          CHECK(!words_has(k[1].words, k[1].word_count, SpvOpCooperativeMatrixMulAddKHR));
          CHECK(!words_has(k[1].words, k[1].word_count, SpvOpCooperativeMatrixStoreTensorNV));
          CHECK(!(plan.features & SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE));
          check_k_offsets(&k[0], &plan.desc, &plan);
          evens += plan.desc.shapes == SPVGEN_GEMM_SHAPES_FIXED && plan.slice_k &&
                   plan.desc.k % plan.slice_k == 0 && plan.desc.k / plan.slice_k == plan.desc.split_k;
        }
        free_pair(k, n);
      }
  CHECK(pairs >= 60);
  CHECK_MSG(evens >= 4, "%u plans whose slices split K evenly", evens);
}

/* simt: the partials kernel synchronizes exactly as the unsplit kernel of its tile does
 * (the workgroup barriers and shared arrays of its K loop's staging), no more; the
 * reduction not at all. */
static void test_simt_partials_keep_the_unsplit_synchronization(void) {
  spvgen_device_caps v = preset("vulkan13");
  static const uint32_t shapes[][3] = {{37, 45, 233}, {64, 64, 4096}, {1, 3584, 3584}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (uint32_t form = 0; form < 4; form++) {
      spvgen_gemm_desc d = gemm(shapes[s][0], shapes[s][1], shapes[s][2], F16, F32, form & 1 ? F16 : F32);
      d.variant = SPVGEN_GEMM_SIMT;
      d.shapes = form & 1 ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
      d.addressing = form >= 2 ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
      d.batch = form == 2 ? 2 : 1;
      d.beta = 0.5f;
      d.bias = SPVGEN_GEMM_BIAS_COLUMN;
      d.activation = SPVGEN_ACTIVATION_GELU;
      d.split_k = 3;
      spvgen_gemm_config plan;
      words_sync sync[2];
      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
      uint32_t n = build_pair(&d, &v, &plan, sync, k);
      spvgen_gemm_desc one = plan.desc;
      one.split_k = 1;
      spvgen_kernel u;
      char msg[512];
      words_sync us;
      CHECK_MSG(spvgen_gemm(&one, &v, &u, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK(words_sync_summary(u.words, u.word_count, &us));
      if (n == 2) {
        CHECK_EQ_U64(sync[0].control_barriers, us.control_barriers);
        CHECK_EQ_U64(sync[0].workgroup_variables, us.workgroup_variables);
        CHECK(!sync[0].memory_barriers && !sync[0].atomics && !sync[0].device_scope_capability);
        check_sync_free(&sync[1], "reduction", &d, plan.name);
      }
      spvgen_kernel_free(&u);
      free_pair(k, n);
    }
}

/* The launch contract: a fixed plan's grids and workspace, a run-time plan's per
 * launch (the slices K allows, the reduction's grid, the push sizes with and without
 * device addresses), and each kernel's binding sizes from one push block. */
static void test_launches_of_both_kernels(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  /* fixed: 16 x 3584 x 3584 in 32x64x64 tiles, 4 slices */
  spvgen_gemm_desc d = gemm(16, 3584, 3584, F16, F32, F32);
  d.b_layout = SPVGEN_COL_MAJOR;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.tile_m = 32, d.tile_n = 64, d.tile_k = 64;
  d.split_k = 4;
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&p), 2);
  CHECK_EQ_U64(p.groups[0], 56);
  CHECK_EQ_U64(p.groups[1], 1);
  CHECK_EQ_U64(p.groups[2], 4);
  CHECK_EQ_U64(p.slice_k, 896);
  CHECK_EQ_U64(p.workspace_ld, 3584);
  CHECK_EQ_U64(p.workspace_bytes, 4ull * 16 * 3584 * 4);
  CHECK_EQ_U64(p.reduce_groups[0], 16 * 896 / 128);
  CHECK_EQ_U64(p.reduce_groups[1], 1);
  CHECK_EQ_U64(p.reduce_groups[2], 1);
  spvgen_gemm_launch l;
  CHECK(spvgen_gemm_launch_for(&p, NULL, &l, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(l.reduce_groups[0], p.reduce_groups[0]);
  CHECK_EQ_U64(l.workspace_bytes, p.workspace_bytes);
  CHECK_EQ_U64(l.push_size, 0);
  CHECK_EQ_U64(l.reduce_push_size, 0);
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t n = 0;
  CHECK(spvgen_gemm_kernels(&d, &h100, k, &n, NULL, msg, sizeof msg) == SPVGEN_OK);
  if (n == 2) {
    CHECK_EQ_U64(k[0].info.binding_count, 3);
    CHECK_EQ_U64(k[0].info.bindings[2].min_size, p.workspace_bytes);
    CHECK_EQ_U64(k[0].info.bindings[2].access, SPVGEN_ACCESS_WRITE);
    CHECK_EQ_U64(k[1].info.binding_count, 2);
    CHECK_STR_EQ(k[1].info.bindings[0].name, "D");
    CHECK_EQ_U64(k[1].info.bindings[0].min_size, 16ull * 3584 * 4);
    CHECK_EQ_U64(k[1].info.bindings[1].access, SPVGEN_ACCESS_READ);
    CHECK_EQ_U64(k[1].info.groups[0], p.reduce_groups[0]);
  }
  free_pair(k, n);

  /* run-time, device addresses: one plan, a launch per shape */
  d = gemm(0, 0, 0, F16, F32, F16);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  d.beta = 1.0f;
  d.split_k = 8;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.push_size, sizeof(spvgen_gemm_push) + 3 * 8);        /* A, B, workspace */
  CHECK_EQ_U64(p.reduce_push_size, sizeof(spvgen_gemm_push) + 3 * 8); /* D, C, workspace */
  CHECK_EQ_U64(p.reduce_groups[0], 0);
  spvgen_gemm_args a = {.m = 100, .n = 301, .k = 3 * p.desc.tile_k, .batch = 2, .beta = 0.5f};
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.push.split_k, 3); /* as many slices as K has steps */
  CHECK_EQ_U64(l.groups[2], 2 * 3);
  CHECK_EQ_U64(l.push.workspace_ld, 304);
  CHECK_EQ_U64(l.workspace_bytes, 3ull * 2 * 100 * 304 * 4);
  CHECK_EQ_U64(l.reduce_groups[0], (100 * 76 + 127) / 128);
  CHECK_EQ_U64(l.reduce_groups[2], 2);
  CHECK_EQ_U64(l.push_size, sizeof(spvgen_gemm_push));
  CHECK_EQ_U64(l.reduce_push_size, sizeof(spvgen_gemm_push));
  CHECK(spvgen_gemm_kernels(&d, &h100, k, &n, NULL, msg, sizeof msg) == SPVGEN_OK);
  if (n == 2) {
    for (uint32_t i = 0; i < 2; i++) {
      const spvgen_kernel_info *in = &k[i].info;
      CHECK(in->binding_sizes != NULL);
      uint64_t sizes[SPVGEN_MAX_BINDINGS] = {0};
      CHECK(in->binding_sizes && in->binding_sizes(in, &l.push, sizeof l.push, sizes));
      /* the workspace is the last binding of both, 16-byte aligned */
      CHECK_STR_EQ(in->bindings[in->binding_count - 1].name, "workspace");
      CHECK_EQ_U64(sizes[in->binding_count - 1], l.workspace_bytes);
      CHECK_EQ_U64(in->bindings[in->binding_count - 1].alignment, 16);
      CHECK_EQ_U64(in->bindings[0].address_offset, sizeof(spvgen_gemm_push));
    }
    CHECK_EQ_U64(k[1].info.push_constant_size, p.reduce_push_size);
    CHECK_EQ_U64(k[0].info.push_constant_size, p.push_size);
  }
  free_pair(k, n);
}

/* What is refused, by name: the reduction of a plan without split-K, and split-K through
 * the one-kernel one-shot (a desc leaving split_k 0 gets one kernel there). */
static void test_refusals(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_desc d = gemm(16, 3584, 3584, F16, F32, F32);
  spvgen_gemm_config p;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(p.desc.split_k > 1, "[%s]: the small-M default splits K", p.name); /* the planner's own choice */
  spvgen_kernel k;
  CHECK_MSG(spvgen_gemm(&d, &h100, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_kernel_free(&k);
  d.split_k = 1;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&p), 1);
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_gemm_emit_kernel(m, &p, SPVGEN_GEMM_KERNEL_REDUCE, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "the plan has 1");
  spvgen_module_destroy(m);
  d.split_k = 4;
  CHECK(spvgen_gemm(&d, &h100, &k, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "split_k 4 makes two kernels");
  CHECK(spvgen_gemm_kernels(&d, &h100, NULL, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(NULL), 0);
}

/* split_k left to the plan: coopmat2 splits a FIXED grid of fewer tiles than SMs 2..4
 * ways by the wave model (the tiles counted by what they hold), only within the compile
 * budget, and never a grid that fills the SMs, a short K or a grid with edge tiles
 * (measured slower split). */
static void test_wave_model_splits_grids_under_one_wave(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  static const struct { uint32_t m, n, k, budget, want; } cases[] = {
      {257, 3584, 3584, 1000, 1},   /* edge tiles: unsplit */
      {257, 3584, 18944, 1000, 3},  /* K over SPVGEN_GEMM_MAX_SERIAL_K: split, edges or not (2+) */
      {256, 3584, 3584, 1000, 2},   /* 56 tiles: 2 ways (4 is two waves of quarter slices) */
      {256, 3584, 18944, 1000, 2},
      {256, 3584, 3584, 300, 1},    /* the second pipeline is past a 300 ms budget */
      {1000, 3584, 3584, 1000, 1},  /* 224 tiles */
      {257, 3584, 512, 1000, 1},    /* 8 K steps */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = gemm(cases[i].m, cases[i].n, cases[i].k, F16, F32, F32);
    d.b_layout = SPVGEN_COL_MAJOR;
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.tile_m = d.tile_n = 128, d.tile_k = 64;
    d.compile_budget_ms = cases[i].budget;
    spvgen_gemm_config p;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.desc.split_k == cases[i].want, "%ux%ux%u budget %u: [%s], want split %u", cases[i].m, cases[i].n,
              cases[i].k, cases[i].budget, p.name, cases[i].want);
    if (p.desc.split_k > 1) CHECK_MSG(p.compile_ms <= cases[i].budget, "[%s] %u ms", p.name, p.compile_ms);
  }
}

/* The compile estimate of a split-K plan is its two pipelines: the partials kernel (the
 * unsplit tile without its epilogue's extras) and the reduction. */
static void test_compile_estimate_is_both_pipelines(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  static const uint32_t tiles[][3] = {{32, 64, 64}, {64, 64, 64}, {128, 128, 64}};
  for (size_t t = 0; t < 3; t++) {
    spvgen_gemm_desc d = gemm(257, 3584, 3584, F16, F32, F32);
    d.b_layout = SPVGEN_COL_MAJOR;
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.tile_m = tiles[t][0], d.tile_n = tiles[t][1], d.tile_k = tiles[t][2];
    d.unroll = 1;
    d.split_k = 1;
    spvgen_gemm_config one, split;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &one, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    d.split_k = 3;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &split, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(split.compile_ms >= one.compile_ms + 10 && split.compile_ms <= one.compile_ms + 20,
              "[%s] %u ms against [%s] %u ms", split.name, split.compile_ms, one.name, one.compile_ms);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_coopmat2_partials_and_reduction_have_no_synchronization),
      TEST_CASE(test_simt_partials_keep_the_unsplit_synchronization),
      TEST_CASE(test_launches_of_both_kernels),
      TEST_CASE(test_refusals),
      TEST_CASE(test_compile_estimate_is_both_pipelines),
      TEST_CASE(test_wave_model_splits_grids_under_one_wave),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
