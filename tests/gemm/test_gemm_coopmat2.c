/* tests/gemm/test_gemm_coopmat2.c — the SPVGEN_GEMM_COOPMAT2 variant (workgroup-scope
 * cooperative matrices with tensor addressing, VK_NV_cooperative_matrix2) against the
 * "h100" caps preset, offline: every candidate plan of a sweep over layouts, element
 * types, shapes, batches and epilogues emits a module that validates with Vulkan 1.3
 * rules (bf16 modules, which SPIRV-Tools 2025.1 cannot parse, are checked on their
 * words); the disassembly has the tensor loads, the MulAdd and the tensor store; the plan
 * picks sensible tiles; and what the variant or the device cannot do is refused with a
 * message naming the field.
 *
 * SPVGEN_TEST_DUMP=DIR writes every validated kernel to DIR (see module_check.h): that is
 * how to get the sweep's kernels for a benchmark on the H100. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/caps.h"
#include "spvgen/gemm.h"
#include "ref_tensor.h"

typedef spvgen_component_type T;
#define F16 SPVGEN_COMPONENT_F16
#define F32 SPVGEN_COMPONENT_F32
#define BF16 SPVGEN_COMPONENT_BF16
#define S8 SPVGEN_COMPONENT_S8
#define U8 SPVGEN_COMPONENT_U8
#define S32 SPVGEN_COMPONENT_S32
#define U32 SPVGEN_COMPONENT_U32

static spvgen_device_caps h100;

static void load_h100(void) {
  static bool done;
  if (!done) {
    CHECK_EQ_U64(spvgen_caps_preset("h100", &h100), SPVGEN_OK);
    done = true;
  }
}

static spvgen_gemm_desc gemm(uint32_t m, uint32_t n, uint32_t k, T a, T acc, T out) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.n = n;
  d.k = k;
  d.a_type = d.b_type = a;
  d.acc_type = acc;
  d.out_type = out;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  return d;
}

static const char *desc_text(const spvgen_gemm_desc *d, char *buf, size_t size) {
  snprintf(buf, size, "%ux%ux%u batch %u %s->%s->%s layouts a%d b%d c%d d%d alpha %g beta %g bias %d act %d",
           d->m, d->n, d->k, d->batch, spvgen_component_type_name(d->a_type),
           spvgen_component_type_name(d->acc_type), spvgen_component_type_name(d->out_type),
           (int)d->a_layout, (int)d->b_layout, (int)d->c_layout, (int)d->d_layout, d->alpha, d->beta,
           (int)d->bias, (int)d->activation);
  return buf;
}

/* ------------------------------------------------------- emit + validate ---- */

typedef struct sweep_stats {
  uint32_t descs, plans, bad;
} sweep_stats;

/* Every candidate plan of d emits; validates, or (bf16) has the key instructions. */
static void check_all_plans(spvgen_module *m, const spvgen_gemm_desc *d, sweep_stats *st) {
  enum { MAX = 64 };
  static spvgen_gemm_config plans[MAX];
  char msg[512], what[256];
  uint32_t count = 0;
  spvgen_status s = spvgen_gemm_plans(d, &h100, plans, MAX, &count, msg, sizeof msg);
  st->descs++;
  if (s != SPVGEN_OK || count == 0) {
    if (st->bad++ < 5)
      test_fail_at(__FILE__, __LINE__, "%s: no plan: %s", desc_text(d, what, sizeof what), msg);
    return;
  }
  CHECK(count <= MAX);
  bool bf16 = d->a_type == BF16 || d->out_type == BF16;
  for (uint32_t i = 0; i < count && i < MAX; i++) {
    const spvgen_gemm_config *p = &plans[i];
    CHECK_EQ_U64(p->variant, SPVGEN_GEMM_COOPMAT2);
    CHECK(p->groups[0] * p->desc.tile_n >= d->n && p->groups[1] * p->desc.tile_m >= d->m);
    CHECK_EQ_U64(p->groups[2], (d->batch ? d->batch : 1) * p->desc.split_k);
    /* a workspace for split-K's partials and for packed copies (8-bit operands not
     * K-contiguous: AUTO copies them transposed) */
    const bool packed = p->desc.pack != SPVGEN_GEMM_PACK_NONE;
    CHECK_EQ_U64(p->workspace_bytes != 0, p->desc.split_k > 1 || packed);
    if (packed) CHECK_EQ_U64(spvgen_component_type_size(d->a_type), 1);
    CHECK(p->local_size[0] >= 32 && p->local_size[0] <= 256);
    CHECK(p->frag_m == p->desc.tile_m && p->frag_n == p->desc.tile_n && p->frag_k == p->desc.tile_k);
    spvgen_module_reset(m, NULL);
    spvgen_kernel_info info;
    s = spvgen_gemm_emit(m, p, &info);
    const uint32_t *words = NULL;
    size_t n = 0;
    if (s == SPVGEN_OK) s = spvgen_module_finish(m, &words, &n);
    st->plans++;
    if (s != SPVGEN_OK) {
      if (st->bad++ < 5)
        test_fail_at(__FILE__, __LINE__, "%s, plan %s: emit failed: %s", desc_text(d, what, sizeof what),
                     p->name, spvgen_module_error(m));
      continue;
    }
    if (bf16) {
      bool ok = words_has(words, n, SpvOpCooperativeMatrixLoadTensorNV) &&
                words_has(words, n, SpvOpCooperativeMatrixMulAddKHR) &&
                words_has(words, n, SpvOpCooperativeMatrixStoreTensorNV) &&
                words_has_capability(words, n, 5118 /* BFloat16CooperativeMatrixKHR */);
      if (!ok && st->bad++ < 5)
        test_fail_at(__FILE__, __LINE__, "%s, plan %s: bf16 kernel lacks a key instruction",
                     desc_text(d, what, sizeof what), p->name);
      continue;
    }
    int before = test_current_failed;
    if (!check_words(words, n)) {
      st->bad++;
      test_fail_at(__FILE__, __LINE__, "... that was %s, plan %s", desc_text(d, what, sizeof what), p->name);
      if (st->bad > 5) return;
    }
    (void)before;
    for (uint32_t j = 0; j < spvgen_gemm_kernel_count(p); j++) { /* the pack and reduction kernels too */
      const spvgen_gemm_kernel which = spvgen_gemm_kernel_at(p, j);
      if (which == SPVGEN_GEMM_KERNEL_MAIN) continue;
      spvgen_module_reset(m, NULL);
      s = spvgen_gemm_emit_kernel(m, p, which, &info);
      if (s == SPVGEN_OK) s = spvgen_module_finish(m, &words, &n);
      if (s != SPVGEN_OK || !check_words(words, n)) {
        st->bad++;
        test_fail_at(__FILE__, __LINE__, "%s, plan %s: kernel %u: %s", desc_text(d, what, sizeof what), p->name,
                     (unsigned)which, spvgen_module_error(m));
        if (st->bad > 5) return;
      }
    }
  }
}

static const struct {
  T a, acc, out;
} TYPES[] = {
    {F16, F32, F32}, {F16, F16, F16}, {S8, S32, S32}, {U8, S32, S32}, {F16, F32, F16},
};

static const uint32_t SHAPES[][3] = {
    {1, 1, 1}, {97, 131, 67}, {8192, 8192, 8192}, {4096, 64, 4096}, {64, 4096, 4096}, {256, 512, 320},
};

/* Layouts nn/nt/tn/tt x the types x the shapes, plain epilogue, batch 1 and 3. */
static void test_every_candidate_validates_across_layouts_types_and_shapes(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  for (int lay = 0; lay < 4 && st.bad <= 5; lay++)
    for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0]; t++)
      for (size_t s = 0; s < sizeof SHAPES / sizeof SHAPES[0]; s++)
        for (uint32_t batch = 1; batch <= 3; batch += 2) {
          spvgen_gemm_desc d = gemm(SHAPES[s][0], SHAPES[s][1], SHAPES[s][2], TYPES[t].a, TYPES[t].acc,
                                    TYPES[t].out);
          if (batch > 1 && SHAPES[s][0] * (uint64_t)SHAPES[s][1] > (1u << 22)) continue;
          d.batch = batch;
          d.a_layout = (spvgen_matrix_layout)(lay & 1);
          d.b_layout = (spvgen_matrix_layout)(lay >> 1);
          d.d_layout = (spvgen_matrix_layout)((lay + (int)s) & 1);
          check_all_plans(m, &d, &st);
        }
  printf("coopmat2 sweep: %u descs, %u plans, %u bad\n", st.descs, st.plans, st.bad);
  CHECK(st.plans > 1000);
  spvgen_module_destroy(m);
}

/* Every epilogue feature with each type combination, a few shapes, C and D in both
 * layouts, batch 1 and 3 (a batch stride that is not 16-byte aligned takes 3-D layouts). */
static void test_every_candidate_validates_with_each_epilogue(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  static const struct {
    float alpha, beta;
    spvgen_gemm_bias bias;
    spvgen_activation act;
  } EPI[] = {
      {0.5f, 0, SPVGEN_GEMM_BIAS_NONE, SPVGEN_ACTIVATION_NONE},
      {1.0f, 0.25f, SPVGEN_GEMM_BIAS_NONE, SPVGEN_ACTIVATION_NONE},
      {2.0f, -1.0f, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_NONE},
      {0, 0, SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_ACTIVATION_RELU},
      {0, 0, SPVGEN_GEMM_BIAS_NONE, SPVGEN_ACTIVATION_GELU},
      {1.5f, 0.5f, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_SILU},
      {0, 0, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_RELU},
  };
  static const uint32_t shapes[][3] = {{1, 1, 1}, {97, 131, 67}, {4096, 64, 4096}, {512, 512, 512}};
  for (size_t e = 0; e < sizeof EPI / sizeof EPI[0]; e++)
    for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0]; t++)
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int v = 0; v < 2; v++) {
          spvgen_gemm_desc d = gemm(shapes[s][0], shapes[s][1], shapes[s][2], TYPES[t].a, TYPES[t].acc,
                                    TYPES[t].out);
          bool int_out = TYPES[t].out == S32;
          if (int_out && (EPI[e].alpha != 0 || EPI[e].beta != 0 ||
                          (EPI[e].act != SPVGEN_ACTIVATION_NONE && EPI[e].act != SPVGEN_ACTIVATION_RELU)))
            d.out_type = F32; /* the float epilogue of integer accumulators */
          d.alpha = EPI[e].alpha;
          d.beta = EPI[e].beta;
          d.bias = EPI[e].bias;
          d.activation = EPI[e].act;
          d.batch = v ? 3 : 1;
          d.c_layout = d.d_layout = (spvgen_matrix_layout)v;
          d.a_layout = (spvgen_matrix_layout)(e & 1);
          d.b_layout = (spvgen_matrix_layout)((e >> 1) & 1);
          check_all_plans(m, &d, &st);
        }
  printf("coopmat2 epilogue sweep: %u descs, %u plans, %u bad\n", st.descs, st.plans, st.bad);
  CHECK(st.plans > 500);
  spvgen_module_destroy(m);
}

/* Output conversions: integer accumulators to s8/u8/u32/f32/f16, float ones to integers
 * (rounded in the per-element epilogue), f32 accumulators to f16. */
static void test_output_type_conversions_validate(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  static const struct {
    T a, acc, out;
  } conv[] = {
      {S8, S32, S8}, {S8, S32, U8}, {S8, S32, U32}, {S8, S32, F32}, {S8, S32, F16}, {U8, S32, S8},
      {U8, S32, U8}, {U8, S32, U32}, {U8, S32, F32}, {F16, F32, S32}, {F16, F16, F32}, {F16, F16, S8},
  };
  for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++) {
    spvgen_gemm_desc d = gemm(200, 136, 96, conv[i].a, conv[i].acc, conv[i].out);
    check_all_plans(m, &d, &st);
    d.bias = SPVGEN_GEMM_BIAS_COLUMN;
    check_all_plans(m, &d, &st);
  }
  spvgen_module_destroy(m);
}

/* bf16 x bf16 + f32: SPIRV-Tools 2025.1 cannot parse bf16, so the words are checked. */
static void test_bf16_kernels_have_the_tensor_instructions(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  static const T outs[] = {F32, BF16, F16};
  for (size_t o = 0; o < 3; o++)
    for (size_t s = 0; s < sizeof SHAPES / sizeof SHAPES[0]; s++) {
      spvgen_gemm_desc d = gemm(SHAPES[s][0], SHAPES[s][1], SHAPES[s][2], BF16, F32, outs[o]);
      d.b_layout = (spvgen_matrix_layout)(s & 1);
      check_all_plans(m, &d, &st);
      d.alpha = 0.5f;
      d.activation = SPVGEN_ACTIVATION_SILU;
      check_all_plans(m, &d, &st);
    }
  CHECK(st.plans > 50);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------ disassembly ---- */

static char *emit_text(const spvgen_gemm_desc *d, spvgen_gemm_config *plan_out) {
  char msg[512];
  spvgen_gemm_config p;
  spvgen_status s = spvgen_gemm_plan(d, &h100, &p, msg, sizeof msg);
  CHECK_MSG(s == SPVGEN_OK, "plan: %s", msg);
  if (s != SPVGEN_OK) return NULL;
  if (plan_out) *plan_out = p;
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK_EQ_U64(spvgen_gemm_emit(m, &p, NULL), SPVGEN_OK);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = w ? check_disassemble(w, n) : NULL;
  spvgen_module_destroy(m);
  return text;
}

static bool text_has(const char *text, const char *needle) { return text && strstr(text, needle); }

static void test_kernel_disassembly_has_tensor_loads_muladd_and_tensor_store(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(8192, 8192, 8192, F16, F32, F32);
  spvgen_gemm_config p;
  char *text = emit_text(&d, &p);
  check_has_line(text, "OpCapability CooperativeMatrixKHR");
  check_has_line(text, "OpCapability CooperativeMatrixTensorAddressingNV");
  check_has_line(text, "OpCapability TensorAddressingNV");
  check_has_line(text, "OpExtension \"SPV_NV_cooperative_matrix2\"");
  check_has_line(text, "OpExecutionMode %main LocalSize 256 1 1");
  CHECK_MSG(text_has(text, "OpCooperativeMatrixLoadTensorNV"), "no tensor load");
  CHECK_MSG(text_has(text, "OpCooperativeMatrixMulAddKHR"), "no MulAdd");
  CHECK_MSG(text_has(text, "OpCooperativeMatrixStoreTensorNV"), "no tensor store");
  CHECK_MSG(text_has(text, "OpTensorLayoutSliceNV"), "no slice");
  /* A 8192^3 problem divides every tile: no clamped layout, no edge branch, no view. */
  CHECK_MSG(!text_has(text, "OpTypeTensorViewNV"), "row-major operands need no view");
  CHECK_MSG(!text_has(text, "OpSelectionMerge"), "an all-interior problem has no edge branch");
  CHECK_MSG(!text_has(text, "OpCooperativeMatrixPerElementOpNV"), "plain epilogue");
  CHECK_MSG(text_has(text, "OpLoopMerge"), "the K loop");
  /* Four MulAdds in the unrolled loop body (8192 / 64 = 128 steps, unroll 4). */
  size_t muladds = 0;
  for (const char *s = text; s && (s = strstr(s, "OpCooperativeMatrixMulAddKHR")); s++) muladds++;
  CHECK_EQ_U64(muladds, p.desc.unroll);
  spvgen_free_text(text);
}

static void test_column_major_edges_and_epilogue_disassembly(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(1000, 1000, 1000, F16, F32, F16);
  d.a_layout = SPVGEN_COL_MAJOR;
  d.b_layout = SPVGEN_COL_MAJOR;
  d.d_layout = SPVGEN_COL_MAJOR;
  d.alpha = 2.0f;
  d.beta = 0.5f;
  d.bias = SPVGEN_GEMM_BIAS_ROW;
  d.activation = SPVGEN_ACTIVATION_GELU;
  d.edge = SPVGEN_GEMM_EDGE_BRANCH; /* (the budget's default for this shape is another) */
  char *text = emit_text(&d, NULL);
  check_has_line(text, "OpCapability CooperativeMatrixPerElementOperationsNV");
  CHECK_MSG(text_has(text, "OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0"), "transposing view");
  CHECK_MSG(text_has(text, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "a clamped (ConstantNV) layout");
  CHECK_MSG(text_has(text, "OpTypeTensorLayoutNV %uint_2 %uint_0"), "an unclamped layout");
  CHECK_MSG(text_has(text, "OpSelectionMerge"), "the interior/edge branch");
  CHECK_MSG(text_has(text, "OpCooperativeMatrixPerElementOpNV"), "bias + gelu per element");
  CHECK_MSG(text_has(text, "OpMatrixTimesScalar"), "alpha and beta in the matrix domain");
  CHECK_MSG(text_has(text, "TensorView"), "tensor view operands");
  CHECK_MSG(text_has(text, "OpFConvert"), "f32 to f16 conversion of the tile");
  spvgen_free_text(text);
}

static size_t count_of(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *s = text; s && (s = strstr(s, needle)); s++) n++;
  return n;
}

/* A FIXED K loop (4-byte accumulators on every tile; f16 ones up to 192x192) runs a
 * multiple of 8 iterations and the rest in a second loop (k_loop; NVIDIA's driver runs
 * such a loop at half speed when its constant trip count is no multiple of 8); 256x256
 * with f16 accumulators and counts that divide keep one loop. */
static void test_fixed_k_loops_split_off_a_multiple_of_8(void) {
  load_h100();
  static const struct {
    uint32_t k, tm, tn, tk, u;
    T acc;
    size_t loops, muladds;
  } cases[] = {
      {3008, 128, 256, 32, 1, F32, 2, 2},  /* 94 iterations: 88, then 6 */
      {3072, 128, 256, 32, 1, F32, 1, 1},  /* 96 */
      {3008, 128, 256, 64, 2, F32, 2, 5},  /* 47 steps: 23 iterations of 2 (16, then 7), 1 step */
      {3008, 256, 128, 32, 4, F32, 2, 10}, /* 94 steps: 23 iterations of 4 (16, then 7), 2 steps */
      {3136, 256, 128, 32, 4, F32, 1, 6},  /* 98 steps: 24 iterations of 4, 2 steps */
      {3008, 128, 128, 32, 1, F32, 2, 2},  /* 128x128 too: 94 iterations: 88, then 6 */
      {3008, 64, 64, 64, 1, F32, 2, 2},    /* 64x64: 47 iterations: 40, then 7 */
      {3008, 192, 192, 32, 1, F16, 2, 2},  /* f16 accumulators up to 192x192 */
      {3008, 128, 128, 64, 2, F16, 2, 5},  /* 47 steps: 23 iterations of 2 (16, then 7), 1 step */
      {3008, 128, 192, 64, 1, F32, 2, 2},  /* 128x192: 47 iterations: 40, then 7 */
      {3072, 128, 192, 64, 1, F32, 1, 1},  /* 48 */
      {3008, 256, 256, 32, 1, F16, 1, 1},  /* 256x256 with f16 accumulators: one loop */
      {2080, 128, 256, 32, 1, F32, 1, 2},  /* 65 iterations: 64, then 1 straight-line */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = gemm(1024, 1024, cases[i].k, F16, cases[i].acc, cases[i].acc);
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.tile_m = cases[i].tm, d.tile_n = cases[i].tn, d.tile_k = cases[i].tk, d.unroll = cases[i].u;
    d.split_k = 1;
    spvgen_gemm_config p;
    char *t = emit_text(&d, &p);
    if (!t) continue;
    size_t loops = count_of(t, "OpLoopMerge"), muladds = count_of(t, "OpCooperativeMatrixMulAddKHR");
    CHECK_MSG(loops == cases[i].loops && muladds == cases[i].muladds,
              "case %zu [%s] K %u: %zu loops, %zu MulAdds (want %zu, %zu)", i, p.name, cases[i].k, loops, muladds,
              cases[i].loops, cases[i].muladds);
    spvgen_free_text(t);
  }
}

/* The split loop's rest: unrolled by the driver where the plan's compile budget holds the
 * extra loop body, rolled (SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL: DontUnroll on the second
 * loop, no extra body in the estimate) where it does not; a desc that asks for the rolled
 * form gets it, and a count that divides has no rest to roll. */
static void test_split_rest_rolls_where_the_budget_is_short(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(3072, 3072, 3008, F16, F32, F32); /* 47 iterations of 64 */
  d.tile_m = d.tile_n = 128, d.tile_k = 64, d.unroll = 1;
  spvgen_gemm_config p, q;
  char *t = emit_text(&d, &p);
  CHECK_MSG(p.desc.codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL, "plan '%s' (est %u ms) rolls the rest", p.name,
            p.compile_ms);
  CHECK_MSG(p.compile_ms <= 300, "the rolled rest's estimate %u ms fits the 300 ms budget", p.compile_ms);
  CHECK_MSG(strstr(p.name, " cg:u") != NULL, "plan name '%s' names the rolled rest", p.name);
  CHECK_EQ_U64(count_of(t, "OpLoopMerge"), 2);
  CHECK_EQ_U64(count_of(t, "DontUnroll"), 1);
  spvgen_free_text(t);
  d.compile_budget_ms = 2000; /* room for the unrolled rest */
  t = emit_text(&d, &q);
  CHECK_MSG(!(q.desc.codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL), "plan '%s' unrolls the rest", q.name);
  CHECK_MSG(q.compile_ms > p.compile_ms, "unrolled rest %u ms > rolled %u ms", q.compile_ms, p.compile_ms);
  CHECK_EQ_U64(count_of(t, "DontUnroll"), 0);
  spvgen_free_text(t);
  d.codegen = SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL; /* asked for: kept whatever the budget */
  t = emit_text(&d, &q);
  CHECK_MSG(q.desc.codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL, "plan '%s' keeps the rolled rest", q.name);
  spvgen_free_text(t);
  d.codegen = 0, d.compile_budget_ms = 0, d.k = 3072; /* 48 iterations: no rest */
  t = emit_text(&d, &q);
  CHECK_MSG(!(q.desc.codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL), "plan '%s': nothing to roll", q.name);
  CHECK_EQ_U64(count_of(t, "OpLoopMerge"), 1);
  spvgen_free_text(t);
}

/* Both operands packed with the branch edge mode asked for: one K loop (its two loads),
 * the epilogue behind the branch (D's unclamped and clamped stores); with the edge left
 * to the plan, the clamped store alone (one store) where the branch is over the compile
 * budget, the branch where it fits. */
static bool gemm_packs_ab(const spvgen_gemm_config *p) { return p->desc.pack == SPVGEN_GEMM_PACK_AB; }

static void test_packed_branch_is_around_the_epilogue(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(3000, 3000, 3072, F16, F32, F32); /* K: 48 steps, one loop */
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.pack = SPVGEN_GEMM_PACK_AB;
  d.tile_m = 128, d.tile_n = 192, d.tile_k = 64, d.unroll = 1;
  d.edge = SPVGEN_GEMM_EDGE_BRANCH;
  spvgen_gemm_config p;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t nk = 0;
  if (spvgen_gemm_kernels(&d, &h100, k, &nk, NULL, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s", msg);
    return;
  }
  CHECK_EQ_U64(nk, 2);
  const spvgen_kernel *main_k = &k[nk - 1];
  CHECK_EQ_U64(words_count(main_k->words, main_k->word_count, SpvOpCooperativeMatrixLoadTensorNV), 2);
  CHECK_EQ_U64(words_count(main_k->words, main_k->word_count, SpvOpCooperativeMatrixStoreTensorNV), 2);
  CHECK_EQ_U64(words_count(main_k->words, main_k->word_count, SpvOpCooperativeMatrixMulAddKHR), 1);
  CHECK_MSG(strstr(p.name, "u1/") == NULL, "plan name '%s' names no edge unroll", p.name);
  for (uint32_t i = 0; i < nk; i++) spvgen_kernel_free(&k[i]);
  d.edge = SPVGEN_GEMM_EDGE_AUTO;
  if (spvgen_gemm_kernels(&d, &h100, k, &nk, NULL, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s", msg);
    return;
  }
  main_k = &k[nk - 1];
  /* edge left to the plan: the branch's estimate is over the default budget here, so D's
   * store is clamped in every tile (one store) */
  CHECK_EQ_U64(words_count(main_k->words, main_k->word_count, SpvOpCooperativeMatrixStoreTensorNV), 1);
  for (uint32_t i = 0; i < nk; i++) spvgen_kernel_free(&k[i]);
  /* with room in the budget the plan puts the store behind the branch, on the same tile,
   * in both an explicit coopmat2 desc and AUTO (packed by pack AUTO) */
  d.compile_budget_ms = 2000;
  for (int v = 0; v < 2; v++) {
    spvgen_gemm_desc e = d;
    if (v) e.variant = SPVGEN_GEMM_AUTO, e.pack = SPVGEN_GEMM_PACK_AUTO, e.k = 3000, e.tile_m = e.tile_n = e.tile_k = 0;
    spvgen_gemm_config q;
    CHECK_MSG(spvgen_gemm_plan(&e, &h100, &q, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(q.desc.edge == SPVGEN_GEMM_EDGE_BRANCH && gemm_packs_ab(&q), "desc %d: plan '%s'", v, q.name);
    if (spvgen_gemm_kernels(&e, &h100, k, &nk, NULL, msg, sizeof msg) != SPVGEN_OK) {
      CHECK_MSG(0, "%s", msg);
      return;
    }
    main_k = &k[nk - 1];
    CHECK_EQ_U64(words_count(main_k->words, main_k->word_count, SpvOpCooperativeMatrixStoreTensorNV), 2);
    for (uint32_t i = 0; i < nk; i++) spvgen_kernel_free(&k[i]);
  }
}

/* edge = clamp: one path, every load and store through the clamped layouts (no unclamped
 * layout, no interior/edge branch, one copy of the K loop); branch with edge_unroll equal
 * to unroll: two copies; with edge_unroll 1 (the default) the edge copy is one step. */
static void test_edge_clamp_emits_one_clamped_path(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(3000, 3000, 3000, F16, F32, F32);
  spvgen_gemm_config pb, pc, p1;
  d.edge = SPVGEN_GEMM_EDGE_BRANCH;
  d.unroll = 4;
  char *rolled = emit_text(&d, &p1);
  CHECK_EQ_U64(p1.desc.edge_unroll, 1);
  CHECK_MSG(strstr(p1.name, "u4/1") != NULL, "plan name '%s' names the edge unroll", p1.name);
  d.edge_unroll = 4;
  char *branch = emit_text(&d, &pb);
  d.edge_unroll = 0;
  d.edge = SPVGEN_GEMM_EDGE_CLAMP;
  char *clamp = emit_text(&d, &pc);
  CHECK_EQ_U64(pb.desc.edge, SPVGEN_GEMM_EDGE_BRANCH);
  CHECK_EQ_U64(pc.desc.edge, SPVGEN_GEMM_EDGE_CLAMP);
  CHECK_MSG(strstr(pc.name, " clamp") != NULL, "plan name '%s' says clamp", pc.name);
  CHECK_MSG(strstr(pb.name, "clamp") == NULL, "plan name '%s' has no clamp", pb.name);
  CHECK_MSG(text_has(branch, "OpSelectionMerge"), "branch: the interior/edge branch");
  CHECK_MSG(!text_has(clamp, "OpSelectionMerge"), "clamp: no branch");
  CHECK_MSG(!text_has(clamp, "OpTypeTensorLayoutNV %uint_2 %uint_0"), "clamp: no unclamped layout");
  CHECK_MSG(text_has(clamp, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "clamp: the clamped layout");
  size_t mb = count_of(branch, "OpCooperativeMatrixMulAddKHR"), mc = count_of(clamp, "OpCooperativeMatrixMulAddKHR");
  CHECK_MSG(mc > 0 && mb == 2 * mc, "MulAdds: branch %zu, clamp %zu (half)", mb, mc);
  size_t mr = count_of(rolled, "OpCooperativeMatrixMulAddKHR");
  /* the edge path at unroll 1: its loop split off a multiple of 8 (two one-step bodies,
   * k_loop) and the K edge */
  CHECK_MSG(mr == mc + 3, "MulAdds: rolled edge path %zu, one clamped path %zu (+ two steps + the K edge)", mr, mc);
  spvgen_free_text(rolled);
  spvgen_free_text(branch);
  spvgen_free_text(clamp);
  /* A tile-multiple shape has no edge: clamp changes nothing but the desc. */
  d = gemm(4096, 4096, 4096, F16, F32, F32);
  d.edge = SPVGEN_GEMM_EDGE_CLAMP;
  char *t = emit_text(&d, &pc);
  CHECK_MSG(strstr(pc.name, "clamp") == NULL, "a tile-multiple plan '%s' is not named clamp", pc.name);
  CHECK_MSG(text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_0"), "tile-multiple: unclamped layouts");
  spvgen_free_text(t);
  /* Other variants and unknown values are refused, naming the field. */
  char msg[512];
  spvgen_gemm_config p;
  d = gemm(100, 100, 100, F16, F32, F32);
  d.edge = SPVGEN_GEMM_EDGE_CLAMP;
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_MSG(strstr(msg, "edge clamp") && strstr(msg, "khr"), "message: %s", msg);
  d.variant = SPVGEN_GEMM_SIMT;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_MSG(strstr(msg, "edge clamp") && strstr(msg, "simt"), "message: %s", msg);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.edge = (spvgen_gemm_edge)7;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(strstr(msg, "edge 7"), "message: %s", msg);
  /* shift: one unchecked path, the tile origin moved with UMin; refused with beta or a
   * matrix smaller than the tile. */
  d = gemm(3000, 3000, 3000, F16, F32, F32);
  d.edge = SPVGEN_GEMM_EDGE_SHIFT;
  d.unroll = 4; /* as the clamp kernel above */
  char *sh = emit_text(&d, &pc);
  CHECK_MSG(strstr(pc.name, " shift") != NULL, "plan name '%s' says shift", pc.name);
  CHECK_MSG(!text_has(sh, "OpSelectionMerge"), "shift: no branch");
  CHECK_MSG(text_has(sh, "UMin"), "shift: the origin clamped with UMin");
  CHECK_EQ_U64(count_of(sh, "OpCooperativeMatrixMulAddKHR"), mc);
  spvgen_free_text(sh);
  d.beta = 1.0f;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_MSG(strstr(msg, "edge shift with beta 1"), "message: %s", msg);
  d = gemm(100, 3000, 3000, F16, F32, F32);
  d.tile_m = d.tile_n = 128;
  d.edge = SPVGEN_GEMM_EDGE_SHIFT;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_MSG(strstr(msg, "edge shift: M 100 x N 3000 is smaller than the tile 128x128"), "message: %s", msg);
  spvgen_gemm_edge e;
  CHECK(spvgen_gemm_edge_parse("clamp", &e) && e == SPVGEN_GEMM_EDGE_CLAMP);
  CHECK(spvgen_gemm_edge_parse("shift", &e) && e == SPVGEN_GEMM_EDGE_SHIFT);
  CHECK(!spvgen_gemm_edge_parse("clamped", &e));
  CHECK(spvgen_gemm_edge_name((spvgen_gemm_edge)4) == NULL);
  CHECK(!strcmp(spvgen_gemm_edge_name(SPVGEN_GEMM_EDGE_BRANCH), "branch"));
}

static void test_unaligned_batch_stride_takes_three_dimensional_layouts(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(97, 131, 67, F16, F32, F32);
  d.batch = 3; /* stride_a = 97 * 67 f16 elements: not a multiple of 16 bytes */
  char *text = emit_text(&d, NULL);
  CHECK_MSG(text_has(text, "OpTypeTensorLayoutNV %uint_3"), "3-D layouts for the unaligned batches");
  spvgen_free_text(text);
  d = gemm(128, 128, 128, F16, F32, F32);
  d.batch = 3;
  text = emit_text(&d, NULL);
  CHECK_MSG(!text_has(text, "OpTypeTensorLayoutNV %uint_3"), "aligned batches keep 2-D layouts");
  spvgen_free_text(text);
}

static void test_unsigned_int8_accumulates_in_u32_and_signed_in_s32(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(256, 256, 256, U8, S32, S32);
  char *text = emit_text(&d, NULL);
  CHECK_MSG(text_has(text, "OpCooperativeMatrixMulAddKHR") && !text_has(text, "MatrixASignedComponentsKHR"),
            "u8 MulAdd without signedness operands");
  CHECK_MSG(text_has(text, "OpBitcast"), "u32 accumulators reinterpreted as s32");
  spvgen_free_text(text);
  d = gemm(256, 256, 256, S8, S32, S32);
  text = emit_text(&d, NULL);
  CHECK_MSG(text_has(text, "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
                           "MatrixResultSignedComponentsKHR"),
            "s8 MulAdd with every signedness operand");
  spvgen_free_text(text);
}

/* ------------------------------------------------------------- tile choice ---- */

static void test_plan_picks_big_tiles_for_big_problems_and_small_ones_for_skinny(void) {
  load_h100();
  char msg[512];
  spvgen_gemm_config p;
  static const T types[][3] = {{F16, F32, F32}, {F16, F16, F16}, {S8, S32, S32}};
  for (int t = 0; t < 3; t++) {
    spvgen_gemm_desc d = gemm(8192, 8192, 8192, types[t][0], types[t][1], types[t][2]);
    CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
    CHECK_MSG(p.desc.tile_m * p.desc.tile_n >= 128 * 256, "8192^3 %s: %s", spvgen_component_type_name(types[t][0]),
              p.name);
    CHECK_EQ_U64(p.local_size[0], 256);
    /* The measured best K steps on the H100 (coopmat2.c's tile_bonus): 32 for 16-bit
     * inputs, 64 for 8-bit ones. */
    CHECK_EQ_U64(p.desc.tile_k, types[t][0] == S8 ? 64 : 32);
    CHECK(strncmp(p.name, "coopmat2 ", 9) == 0);
  }
  spvgen_gemm_desc d = gemm(4096, 64, 4096, F16, F32, F32);
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.groups[0] * p.groups[1] >= 64, "4096x64: %s gives only %u workgroups", p.name,
            p.groups[0] * p.groups[1]);
  d = gemm(64, 4096, 4096, F16, F32, F32);
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.groups[0] * p.groups[1] >= 64, "64x4096: %s gives only %u workgroups", p.name,
            p.groups[0] * p.groups[1]);
  d = gemm(1, 1, 1, F16, F16, F16);
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  /* a small tile (a 64-invocation one alone on an SM is short of work: 32x64 at 128 ranks
   * with it) and the K step cut to K's granularity */
  CHECK_MSG(p.desc.tile_m * p.desc.tile_n <= 32 * 64 && p.desc.tile_k == 16, "1x1x1: %s", p.name);
  /* AUTO takes coopmat2 on the H100. */
  d = gemm(512, 512, 512, F16, F32, F32);
  d.variant = SPVGEN_GEMM_AUTO;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_COOPMAT2);
}

static void test_candidates_honour_the_knobs_the_desc_sets(void) {
  load_h100();
  char msg[512];
  spvgen_gemm_config plans[64];
  uint32_t count = 0;
  spvgen_gemm_desc d = gemm(2048, 2048, 2048, F16, F32, F32);
  CHECK_EQ_U64(spvgen_gemm_plans(&d, &h100, plans, 64, &count, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(count >= 10 && count <= 64, "%u candidates", count);
  spvgen_gemm_config first;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &first, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(!strcmp(plans[0].name, first.name), "first candidate %s, plan %s", plans[0].name, first.name);
  for (uint32_t i = 0; i < count; i++)
    for (uint32_t j = 0; j < i; j++)
      CHECK_MSG(strcmp(plans[i].name, plans[j].name), "duplicate candidate %s", plans[i].name);
  d.tile_m = 128;
  d.tile_k = 32;
  d.unroll = 2;
  CHECK_EQ_U64(spvgen_gemm_plans(&d, &h100, plans, 64, &count, msg, sizeof msg), SPVGEN_OK);
  CHECK(count >= 2);
  for (uint32_t i = 0; i < count; i++)
    CHECK_MSG(plans[i].desc.tile_m == 128 && plans[i].desc.tile_k == 32 && plans[i].desc.unroll == 2, "%s",
              plans[i].name);
  /* Deterministic. */
  spvgen_gemm_config again[64];
  uint32_t count2 = 0;
  CHECK_EQ_U64(spvgen_gemm_plans(&d, &h100, again, 64, &count2, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(count, count2);
  for (uint32_t i = 0; i < count && i < count2; i++) CHECK(!strcmp(plans[i].name, again[i].name));
}

/* ------------------------------------------------------------------ errors ---- */

static void expect_refusal(const spvgen_gemm_desc *d, const spvgen_device_caps *caps, const char *needle) {
  char msg[512] = "";
  spvgen_gemm_config p;
  spvgen_status s = spvgen_gemm_plan(d, caps, &p, msg, sizeof msg);
  CHECK_MSG(s != SPVGEN_OK, "expected a refusal containing \"%s\"", needle);
  CHECK_MSG(strstr(msg, needle), "message \"%s\" lacks \"%s\"", msg, needle);
}

static void test_refusals_name_the_field_and_the_reason(void) {
  load_h100();
  spvgen_device_caps v13;
  CHECK_EQ_U64(spvgen_caps_preset("vulkan13", &v13), SPVGEN_OK);
  spvgen_gemm_desc d = gemm(256, 256, 256, F16, F32, F32);
  expect_refusal(&d, &v13, "cooperativeMatrixWorkgroupScope");
  expect_refusal(&d, &v13, "coopmat2");
  spvgen_gemm_desc e = gemm(256, 256, 256, SPVGEN_COMPONENT_E4M3, F32, F32);
  expect_refusal(&e, &h100, "a_type e4m3");
  e = gemm(256, 256, 256, F32, F32, F32);
  expect_refusal(&e, &h100, "a_type f32");
  expect_refusal(&e, &h100, "no workgroup-scope cooperative matrix");
  e = gemm(256, 256, 256, BF16, F16, F16);
  e.acc_type = F16;
  expect_refusal(&e, &h100, "acc_type f16");
  e = gemm(256, 256, 256, S8, S32, S32);
  e.b_type = U8;
  expect_refusal(&e, &h100, "b_type u8");
  e = d;
  e.tile_m = 40;
  expect_refusal(&e, &h100, "tile_m 40");
  e = d;
  e.workgroup_size = 512;
  expect_refusal(&e, &h100, "workgroup_size 512");
  e = d;
  e.tile_m = 256;
  e.tile_k = 256;
  e.workgroup_size = 64; /* 256 x anything with f32 accumulators over 64 invocations */
  expect_refusal(&e, &h100, "registers");
  e = d;
  e.stages = 3;
  expect_refusal(&e, &h100, "stages 3");
  e = d; /* stages 2 (the kernel's own staging): refused where the chunks would not line up */
  e.stages = 2;
  e.lda = 260; /* f16 rows of 520 bytes */
  expect_refusal(&e, &h100, "lda or ldb is not a multiple of 16 bytes");
  e = d;
  e.stages = 2;
  e.split_k = 2;
  expect_refusal(&e, &h100, "split_k");
  e = d;
  e.stages = 2;
  e.batch = 2;
  expect_refusal(&e, &h100, "batch");
  e = d;
  e.tile_n = 2048;
  expect_refusal(&e, &h100, "tile");
  /* Without per-element operations, bias and activations are refused, plain GEMMs not. */
  spvgen_device_caps no_pe = h100;
  no_pe.features &= ~SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS;
  e = d;
  e.activation = SPVGEN_ACTIVATION_RELU;
  expect_refusal(&e, &no_pe, "cooperativeMatrixPerElementOperations");
  char msg[512];
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &no_pe, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* AUTO falls back past coopmat2 on the vulkan13 preset. */
  d.variant = SPVGEN_GEMM_AUTO;
  CHECK_MSG(spvgen_gemm_plan(&d, &v13, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(p.variant != SPVGEN_GEMM_COOPMAT2);
}

/* stages 2: A and B staged through Workgroup memory by the kernel (u32x4 copies, two
 * barriers per K step, matrix loads from Workgroup memory) on interior tiles; edge tiles
 * and the K edge keep the tensor loads. Every layout and type validates, with edges. */
static void test_stages2_plans_validate(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  static const uint32_t shapes[][3] = {{1024, 1024, 1024}, {1000, 1100, 1040}, {512, 256, 2048}, {300, 4096, 64}};
  static const uint32_t tiles[][3] = {{128, 256, 32}, {256, 128, 32}, {128, 128, 64}};
  uint32_t built = 0;
  for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0]; t++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (uint32_t lay = 0; lay < 4; lay++) {
        spvgen_gemm_desc d = gemm(shapes[s][0], shapes[s][1], shapes[s][2], TYPES[t].a, TYPES[t].acc, TYPES[t].out);
        d.a_layout = (spvgen_matrix_layout)(lay & 1);
        d.b_layout = (spvgen_matrix_layout)(lay >> 1);
        d.stages = 2;
        d.edge = SPVGEN_GEMM_EDGE_BRANCH; /* edge tiles on the tensor loads */
        size_t ti = (t + s + lay) % 3;
        bool eight = spvgen_component_type_size(TYPES[t].a) == 1;
        d.tile_m = tiles[ti][0];
        d.tile_n = tiles[ti][1];
        d.tile_k = tiles[ti][2] * (eight ? 2 : 1);
        spvgen_gemm_config p;
        char msg[512];
        if (spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) != SPVGEN_OK) {
          CHECK_MSG(strstr(msg, "stages 2") != NULL, "refused without naming stages 2: %s", msg);
          continue;
        }
        CHECK(strstr(p.name, " s2") != NULL);
        CHECK(p.shared_bytes == (p.desc.tile_m + p.desc.tile_n) * p.desc.tile_k * spvgen_component_type_size(d.a_type));
        check_all_plans(m, &d, &st);
        spvgen_kernel k;
        CHECK_MSG(spvgen_gemm(&d, &h100, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        if (!k.words) continue;
        CHECK_MSG(words_has(k.words, k.word_count, SpvOpControlBarrier) &&
                      words_has(k.words, k.word_count, SpvOpCooperativeMatrixLoadKHR),
                  "%ux%ux%u [%s]: no staged path", d.m, d.n, d.k, p.name);
        /* Edge tiles keep the tensor loads (and a K edge is a clamped tensor load). */
        bool edges = d.m % p.desc.tile_m || d.n % p.desc.tile_n || d.k % p.desc.tile_k;
        CHECK(!edges || words_has(k.words, k.word_count, SpvOpCooperativeMatrixLoadTensorNV));
        spvgen_kernel_free(&k);
        built++;
      }
  printf("  stages 2: %u kernels, %u plans validated\n", built, st.plans);
  CHECK(built >= 40);
  spvgen_module_destroy(m);
}

/* The one-shot entry point gives a kernel whose info has the dispatch grid. */
static void test_one_shot_kernel_validates_and_reports_the_grid(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(8192, 8192, 8192, F16, F16, F16);
  spvgen_kernel k;
  char msg[512];
  CHECK_MSG(spvgen_gemm(&d, &h100, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  if (!k.words) return;
  check_words(k.words, k.word_count);
  CHECK(k.info.groups[0] * k.info.groups[1] >= 8192 / 256 * 8192 / 256);
  CHECK_EQ_U64(k.info.local_size[0], 256);
  spvgen_kernel_free(&k);
}

/* ------------------------------------------------- the addressing recipe ---- */

/* The variant's recipe for one operand (emitters/gemm/coopmat2.c, operand_init and
 * operand_slice), replayed on the CPU reference of the spec: every element (r, c) of a
 * tile must address the operand's element (r0 + r, c0 + c) of batch z, read 0 / be
 * dropped outside the matrix, for row- and column-major operands, 2-D layouts (batch in
 * the pointer) and 3-D ones (batch as the outer dimension). */
static void check_recipe(uint32_t R, uint32_t C, bool col, uint32_t ld, uint32_t stride, bool three_d,
                         uint32_t batch, uint32_t z, uint32_t r0, uint32_t rs, uint32_t c0, uint32_t cs) {
  uint32_t dims[3], strides[3], n = 0;
  int32_t off[3];
  uint32_t span[3];
  if (three_d) {
    dims[n] = batch;
    strides[n] = stride;
    off[n] = (int32_t)z;
    span[n++] = 1;
  }
  dims[n] = col ? C : R;
  strides[n] = ld;
  off[n] = (int32_t)(col ? c0 : r0);
  span[n++] = col ? cs : rs;
  dims[n] = col ? R : C;
  strides[n] = 1;
  off[n] = (int32_t)(col ? r0 : c0);
  span[n++] = col ? rs : cs;
  tensor_ref_layout t = tensor_ref_layout_create(n, TENSOR_REF_CLAMP_CONSTANT);
  t = tensor_ref_layout_set_dimension(t, dims);
  t = tensor_ref_layout_set_stride(t, strides);
  t = tensor_ref_layout_slice(t, off, span);
  CHECK_MSG(!tensor_ref_layout_problem(&t), "layout: %s", tensor_ref_layout_problem(&t));
  static const uint32_t perm2[2] = {1, 0}, perm3[3] = {0, 2, 1};
  tensor_ref_view v = tensor_ref_view_create(n, false, n == 2 ? perm2 : perm3);
  uint32_t base = three_d ? 0 : z * stride; /* 2-D: the batch is in the pointer */
  uint32_t bad = 0;
  for (int o = 0; o < 2; o++)
    for (uint32_t r = 0; r < rs; r++)
      for (uint32_t c = 0; c < cs; c++) {
        tensor_ref_op op = o ? TENSOR_REF_STORE : TENSOR_REF_LOAD;
        tensor_ref_address a = tensor_ref_matrix_coord_to_tensor_element_with_view(&t, col ? &v : NULL, op, r, c, cs);
        uint32_t gr = r0 + r, gc = c0 + c;
        bool inside = gr < R && gc < C;
        uint32_t want = z * stride + (col ? gc * ld + gr : gr * ld + gc);
        bool ok = inside ? a.outcome == TENSOR_REF_ELEMENT && base + a.index == want
                         : a.outcome == (o ? TENSOR_REF_DISCARDED : TENSOR_REF_CLAMP_VALUE);
        if (!ok && bad++ < 3)
          test_fail_at(__FILE__, __LINE__,
                       "%ux%u %s ld %u %s batch %u: tile (%u+%u, %u+%u) element (%u, %u): outcome %d index %u, "
                       "want %s %u", R, C, col ? "col" : "row", ld, three_d ? "3-D" : "2-D", z, r0, rs, c0, cs,
                       r, c, (int)a.outcome, base + a.index, inside ? "element" : "outside", want);
      }
}

static void test_addressing_recipe_matches_the_spec_reference(void) {
  for (int col = 0; col < 2; col++)
    for (int three = 0; three < 2; three++) {
      uint32_t R = 37, C = 23, ld = col ? 41 : 29, stride = (col ? C : R) * ld + 3;
      check_recipe(R, C, col, ld, stride, three, 3, 0, 0, 16, 0, 16);   /* interior */
      check_recipe(R, C, col, ld, stride, three, 3, 2, 32, 16, 16, 16); /* both edges */
      check_recipe(R, C, col, ld, stride, three, 3, 1, 16, 32, 0, 32);  /* wider than C */
    }
}

/* Split-K plans (split_k 2, 3, 4) over awkward shapes, every type pair, layouts,
 * batches and epilogues: each candidate's two kernels validate; the workspace is the
 * last binding of both (tests/gemm/test_gemm_splitk.c checks what they hold). */
static void test_splitk_plans_validate(void) {
  load_h100();
  spvgen_module *m = spvgen_module_create(NULL);
  sweep_stats st = {0, 0, 0};
  static const uint32_t shapes[][3] = {{97, 131, 667}, {64, 64, 4096}, {300, 17, 1000}, {1, 4096, 777}};
  for (uint32_t sk = 2; sk <= 4; sk++)
    for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0]; t++)
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        spvgen_gemm_desc d = gemm(shapes[s][0], shapes[s][1], shapes[s][2], TYPES[t].a, TYPES[t].acc, TYPES[t].out);
        d.split_k = sk;
        d.batch = 1 + 2 * (uint32_t)((s + sk) & 1);
        d.a_layout = (spvgen_matrix_layout)(sk & 1);
        d.b_layout = (spvgen_matrix_layout)(t & 1);
        d.d_layout = (spvgen_matrix_layout)(s & 1);
        bool int_out = TYPES[t].out == S32;
        d.bias = (spvgen_gemm_bias)(1 + (s + t) % 2);
        static const spvgen_activation float_acts[3] = {SPVGEN_ACTIVATION_RELU, SPVGEN_ACTIVATION_GELU,
                                                        SPVGEN_ACTIVATION_SILU};
        d.activation = int_out ? SPVGEN_ACTIVATION_RELU : float_acts[(s + t + sk) % 3];
        if (!int_out) {
          d.alpha = 0.5f;
          d.beta = sk == 3 ? 0.0f : -1.5f;
          d.c_layout = (spvgen_matrix_layout)!d.d_layout;
        }
        check_all_plans(m, &d, &st);
        d.pack = SPVGEN_GEMM_PACK_NONE; /* the split kernels' own bindings (packed: test_gemm_pack.c) */
        spvgen_gemm_config p;
        char msg[512];
        CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        CHECK_EQ_U64(p.desc.split_k, sk);
        CHECK_EQ_U64(p.workspace_binding, 3u + (d.beta != 0.0f) + 1u);
        spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
        uint32_t nk = 0;
        if (spvgen_gemm_kernels(&d, &h100, k, &nk, NULL, msg, sizeof msg) == SPVGEN_OK) {
          CHECK_EQ_U64(nk, 2);
          CHECK_EQ_U64(k[0].info.binding_count, 3); /* A, B, workspace */
          CHECK_EQ_U64(k[1].info.binding_count, p.workspace_binding - 1); /* D, C, bias, workspace */
          for (uint32_t i = 0; i < nk; i++) {
            CHECK_EQ_U64(k[i].info.bindings[k[i].info.binding_count - 1].binding, p.workspace_binding);
            CHECK(!words_has(k[i].words, k[i].word_count, SpvOpAtomicIAdd));
            CHECK(!words_has(k[i].words, k[i].word_count, SpvOpMemoryBarrier));
            CHECK(check_words(k[i].words, k[i].word_count));
            spvgen_kernel_free(&k[i]);
          }
        } else {
          CHECK_MSG(0, "%s", msg);
        }
      }
  /* The partials kernel holds one tensor store (the partial) and the K loops' tensor
   * loads (a slice of 74 iterations: 72, then 2 in a second loop); D is the reduction's. */
  {
    spvgen_gemm_desc r = gemm(257, 3584, 18944, F16, F32, F32);
    r.b_layout = SPVGEN_COL_MAJOR;
    r.variant = SPVGEN_GEMM_COOPMAT2;
    r.tile_m = r.tile_n = 128;
    r.tile_k = 64;
    r.unroll = 1;
    r.edge = SPVGEN_GEMM_EDGE_SHIFT;
    r.split_k = 4;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t nk = 0;
    char msg[512];
    if (spvgen_gemm_kernels(&r, &h100, k, &nk, NULL, msg, sizeof msg) != SPVGEN_OK) {
      CHECK_MSG(0, "%s", msg);
    } else {
      uint32_t loads = 0, stores = 0, shared = 0;
      WORDS_FOR_EACH(k[0].words, k[0].word_count, i) {
        loads += (k[0].words[i] & 0xFFFFu) == SpvOpCooperativeMatrixLoadTensorNV;
        stores += (k[0].words[i] & 0xFFFFu) == SpvOpCooperativeMatrixStoreTensorNV;
        shared += (k[0].words[i] & 0xFFFFu) == SpvOpVariable && k[0].words[i + 3] == SpvStorageClassWorkgroup;
      }
      CHECK_MSG(shared == 0, "%u Workgroup variables", shared);
      CHECK_MSG(loads == 4u && stores == 1u, "%u tensor loads, %u stores", loads, stores);
      for (uint32_t i = 0; i < nk; i++) spvgen_kernel_free(&k[i]);
    }
  }
  static const uint32_t odd_shapes[][3] = {{97, 131, 667}, {300, 17, 1000}};
  for (size_t s = 0; s < 2; s++) {
    spvgen_gemm_desc r = gemm(odd_shapes[s][0], odd_shapes[s][1], odd_shapes[s][2], F16, F32, F16);
    r.split_k = 3;
    r.bias = SPVGEN_GEMM_BIAS_ROW;
    r.activation = SPVGEN_ACTIVATION_GELU;
    r.beta = 0.5f;
    check_all_plans(m, &r, &st);
  }
  /* split_k 0: the candidates end with split-K ones for a small grid with a long K
   * (256 x 256 x 16384: 64 tiles of 32 x 32; the plan itself may split, as the wave model
   * asks where the split fits the compile budget), and offer none where every split count
   * leaves an SM as many slices of K as it had tiles (4096 x 64 x 4096: 128 tiles of
   * 32 x 64 on 132 SMs). */
  spvgen_gemm_desc d = gemm(256, 256, 16384, F16, F32, F32);
  spvgen_gemm_config plans[64];
  uint32_t n = 0, last_whole = 0;
  CHECK(spvgen_gemm_plans(&d, &h100, plans, 64, &n, NULL, 0) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++)
    if (plans[i].desc.split_k <= 1) last_whole = i + 1;
  CHECK_MSG(last_whole > 0 && last_whole < n && last_whole < 64, "%u candidates, the last unsplit at %u", n, last_whole);
  d = gemm(4096, 64, 4096, F16, F32, F32);
  CHECK(spvgen_gemm_plans(&d, &h100, plans, 64, &n, NULL, 0) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_MSG(plans[i].desc.split_k <= 1, "%s", plans[i].name);
  /* Over the K steps: refused naming split_k and the limit. */
  d = gemm(64, 64, 256, F16, F32, F32);
  d.tile_k = 64;
  d.split_k = 5;
  expect_refusal(&d, &h100, "split_k 5 is over the 4 K steps of tile_k 64");
  printf("  split-K: %u descs, %u plans validated\n", st.descs, st.plans);
  CHECK(st.plans >= 60);
  spvgen_module_destroy(m);
}


/* ------------------------------------------------------- run-time kernels ---- */

static spvgen_gemm_desc runtime_class(T a, T acc, uint32_t mq, uint32_t nq, uint32_t kq) {
  spvgen_gemm_desc d = gemm(0, 0, 0, a, acc, acc);
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.m_multiple = mq;
  d.n_multiple = nq;
  d.k_multiple = kq;
  d.ld_multiple = 16;
  return d;
}

/* The K loop of a run-time kernel counts whole steps (`i < steps`, a trip count the
 * driver derives), with no leftover loop when the class's K is a multiple of the unrolled
 * steps; SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP brings back the open `k + step <= end`. */
static void test_run_time_k_loops_count_their_steps(void) {
  load_h100();
  spvgen_gemm_desc d = runtime_class(F16, F32, 256, 256, 256);
  d.tile_m = 128, d.tile_n = 256, d.tile_k = 32, d.unroll = 2;
  spvgen_gemm_config p;
  char *t = emit_text(&d, &p);
  CHECK_EQ_U64(count_of(t, "OpLoopMerge"), 1);
  CHECK_EQ_U64(count_of(t, "OpULessThanEqual"), 0);
  CHECK_EQ_U64(count_of(t, "OpCooperativeMatrixMulAddKHR"), 2);
  spvgen_free_text(t);
  d.k_multiple = 32; /* K a multiple of one step, not of two: the leftover step's loop */
  t = emit_text(&d, &p);
  CHECK_EQ_U64(count_of(t, "OpLoopMerge"), 2);
  CHECK_EQ_U64(count_of(t, "OpCooperativeMatrixMulAddKHR"), 3);
  spvgen_free_text(t);
  d.codegen = SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP;
  t = emit_text(&d, &p);
  CHECK_MSG(count_of(t, "OpULessThanEqual") >= 1, "the open loop's condition");
  CHECK_MSG(strstr(p.name, " cg:o") != NULL, "plan name '%s' names the alternative", p.name);
  spvgen_free_text(t);
  /* constant dimensions: the unclamped layouts of a run-time kernel get 2^24 */
  d.codegen = SPVGEN_GEMM_CODEGEN_CONST_DIMS;
  t = emit_text(&d, &p);
  CHECK_MSG(text_has(t, "%uint_16777216"), "constant dimensions of the unclamped layouts");
  CHECK_MSG(strstr(p.name, " cg:d") != NULL, "plan name '%s'", p.name);
  spvgen_free_text(t);
  d.codegen = 0;
  t = emit_text(&d, &p);
  CHECK_MSG(!text_has(t, "%uint_16777216"), "run-time dimensions by default");
  spvgen_free_text(t);
  char msg[256];
  d.codegen = 1u << 12;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(strstr(msg, "codegen 0x1000 has unknown bits"), "message: %s", msg);
}

/* An edge tile clamps only the operands it can cross: with M free and N, K tile
 * multiples (prompt lengths against weights), A and D take the clamped layout and B
 * never does. */
static void test_edge_tiles_clamp_only_the_operands_they_cross(void) {
  load_h100();
  spvgen_gemm_desc d = runtime_class(F16, F32, 1, 256, 256);
  d.tile_m = 128, d.tile_n = 128, d.tile_k = 64, d.unroll = 1;
  d.edge = SPVGEN_GEMM_EDGE_CLAMP;
  spvgen_gemm_config p;
  char *t = emit_text(&d, &p);
  /* B's unclamped layout is there (its loads), and A's and D's clamped ones */
  CHECK_MSG(text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_0"), "B unclamped");
  CHECK_MSG(text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "A and D clamped");
  CHECK_EQ_U64(count_of(t, "OpCreateTensorLayoutNV"), 3);
  spvgen_free_text(t);
  /* every dimension off-tile: the three clamped, no unclamped layout */
  d.n_multiple = d.k_multiple = 1;
  t = emit_text(&d, &p);
  CHECK_MSG(!text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_0"), "no unclamped layout");
  CHECK_EQ_U64(count_of(t, "OpCreateTensorLayoutNV"), 3);
  spvgen_free_text(t);
}

/* A run-time plan for a given M of at least a tile moves its edge tiles inside (shift: one
 * unclamped path); without an M to plan for it serves every M (no shift), and a shift
 * plan refuses an M under its tile, naming it. */
static void test_run_time_plans_for_an_m_shift_their_edge_tiles(void) {
  load_h100();
  spvgen_gemm_desc d = runtime_class(F16, F32, 1, 256, 256);
  d.b_layout = SPVGEN_COL_MAJOR;
  d.m = 1000, d.n = 3584, d.k = 3584;
  char msg[512];
  spvgen_gemm_config p;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.edge == SPVGEN_GEMM_EDGE_SHIFT && p.desc.tile_m <= 1000, "plan %s", p.name);
  CHECK_MSG(p.desc.tile_m == 128 && (p.desc.tile_n == 256 || p.desc.tile_n == 128), "the run-time menu: %s", p.name);
  spvgen_gemm_args a = {.m = 77, .n = 3584, .k = 3584};
  spvgen_gemm_launch l;
  CHECK_EQ_U64(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(strstr(msg, "m 77 is under tile_m 128"), "message: %s", msg);
  d.m = d.n = d.k = 0; /* no shape to plan for: every M served */
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.edge != SPVGEN_GEMM_EDGE_SHIFT, "plan %s", p.name);
  CHECK_EQ_U64(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg), SPVGEN_OK);
  d.m = 1000, d.beta = 1.0f; /* a C operand: no shift */
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.edge != SPVGEN_GEMM_EDGE_SHIFT, "plan %s", p.name);
}

/* Few rows against wide weights: the tile covers M (32, 64 rows; two 64-row tiles, shifted,
 * for run-time plans under 128) by 64 columns with 128 bytes of K, 256 invocations, and the plan splits K to
 * fill the device; the desc's own tile or split_k turns it off. */
static void test_small_m_plans_stream_the_weights_with_split_k(void) {
  load_h100();
  char msg[512];
  spvgen_gemm_config p;
  static const struct { uint32_t m, n, k, tm, sk_min; } cases[] = {
      {1, 3584, 3584, 32, 4}, {17, 18944, 3584, 32, 2}, {31, 3584, 18944, 32, 8}, {64, 4608, 3584, 64, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = gemm(cases[i].m, cases[i].n, cases[i].k, F16, F32, F32);
    d.b_layout = SPVGEN_COL_MAJOR;
    CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
    CHECK_MSG(p.desc.tile_m == cases[i].tm && p.desc.tile_n == 64 && p.desc.tile_k == 64 && p.local_size[0] == 256,
              "%ux%ux%u: %s", cases[i].m, cases[i].n, cases[i].k, p.name);
    CHECK_MSG(p.desc.split_k >= cases[i].sk_min && p.desc.split_k <= 16 &&
                  p.desc.split_k * 4 <= cases[i].k / p.desc.tile_k,
              "%ux%ux%u: split_k %u", cases[i].m, cases[i].n, cases[i].k, p.desc.split_k);
    CHECK_MSG(p.workspace_bytes > 0, "%s: a workspace", p.name);
  }
  spvgen_gemm_desc d = gemm(16, 4096, 4096, S8, S32, S32);
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.tile_k == 128 && p.desc.tile_m == 32, "s8: 128 bytes of K: %s", p.name);
  d = gemm(1, 3584, 3584, F16, F32, F32);
  d.split_k = 1;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.split_k == 1 && p.desc.tile_m == 32, "split_k 1 kept: %s", p.name);
  d.split_k = 0;
  d.tile_m = 64;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  /* (the wave model may still split its grid: 28 tiles of one row on 132 SMs) */
  CHECK_MSG(p.desc.tile_m == 64 && !(p.desc.tile_n == 64 && p.desc.tile_k == 64 && p.desc.workgroup_size == 256),
            "a desc's tile: no small-M rule: %s", p.name);
  /* M over 64 (fixed): the general tiles; run-time plans for M under 128: 128-row tiles */
  d = gemm(100, 3584, 3584, F16, F32, F32);
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.split_k == 1, "100 rows: %s", p.name);
  /* run-time plans for 65..127 rows (beta 0): two 64-row tiles, the second shifted inside M */
  d = runtime_class(F16, F32, 1, 256, 256);
  d.m = 77, d.n = 3584, d.k = 3584;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.tile_m == 64 && p.desc.tile_n == 64 && p.desc.split_k > 1 && p.desc.edge == SPVGEN_GEMM_EDGE_SHIFT,
            "run-time 77 rows: %s", p.name);
  CHECK_MSG(p.compile_ms <= 300, "run-time 77 rows within the default budget: %s, %u ms", p.name, p.compile_ms);
  /* with beta (no shift): one 128-row tile clamped past M */
  d.beta = 0.5f;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
  CHECK_MSG(p.desc.edge != SPVGEN_GEMM_EDGE_SHIFT, "run-time 77 rows, beta: no shift: %s", p.name);
  d.beta = 0.0f;
  /* a run-time shape whose 128x128 grid fills under half the SMs: the small tiles too;
   * one that fills more: the run-time menu's tiles, unsplit */
  static const struct { uint32_t m, n, k; bool small; } grids[] = {
      {200, 512, 3584, true}, {1537, 512, 3584, true}, {200, 3584, 18944, true},
      {2049, 512, 3584, false}, {257, 3584, 3584, false}, {3001, 3584, 3584, false}};
  for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
    d.m = grids[i].m, d.n = grids[i].n, d.k = grids[i].k;
    CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_OK);
    bool small = p.desc.tile_m == 64 && p.desc.tile_n == 64 && p.local_size[0] == 256 && p.desc.split_k > 1;
    CHECK_MSG(small == grids[i].small, "run-time %ux%ux%u: %s", d.m, d.n, d.k, p.name);
    CHECK_MSG(p.compile_ms <= 300, "run-time %ux%ux%u within the default budget: %s, %u ms", d.m, d.n, d.k, p.name,
              p.compile_ms);
  }
}

/* Split-K in a run-time kernel reads its slice count off the grid: plans that differ
 * only in split_k emit the same words (one pipeline) and share a class key, and a launch
 * never makes a slice without K. */
static void test_run_time_split_k_takes_its_count_from_the_grid(void) {
  load_h100();
  spvgen_gemm_desc d = runtime_class(F16, F32, 1, 64, 64);
  d.tile_m = 32, d.tile_n = 64, d.tile_k = 64, d.workgroup_size = 256;
  spvgen_gemm_config p2, p8;
  d.split_k = 2;
  char *t2 = emit_text(&d, &p2);
  d.split_k = 8;
  char *t8 = emit_text(&d, &p8);
  CHECK_MSG(t2 && t8 && !strcmp(t2, t8), "split_k 2 and 8: the same kernel");
  CHECK_MSG(text_has(t8, "BuiltIn NumWorkgroups"), "the slice count from NumWorkgroups");
  CHECK_EQ_U64(spvgen_gemm_class_key(&p2), spvgen_gemm_class_key(&p8));
  spvgen_free_text(t2);
  spvgen_free_text(t8);
  char msg[256];
  spvgen_gemm_launch l;
  spvgen_gemm_args a = {.m = 5, .n = 64, .k = 192}; /* 3 K steps: 3 slices, not 8 */
  CHECK_EQ_U64(spvgen_gemm_launch_for(&p8, &a, &l, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(l.groups[2], 3);
  CHECK_EQ_U64(l.push.slice_k, 64);
  a.k = 4096, a.batch = 2;
  CHECK_EQ_U64(spvgen_gemm_launch_for(&p8, &a, &l, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(l.groups[2], 16);
  CHECK_EQ_U64(l.push.slice_k, 512);
}


/* SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE: a fixed K of whole 16-byte rows loads its last tile_k
 * unclamped and zeroes B's rows the whole steps summed (a per-element function); no
 * clamped layout where M and N are tile multiples. Not for a K that is no whole number of
 * 16-byte rows, nor for run-time shapes. */
static void test_masked_k_edge_loads_the_last_tile_unclamped(void) {
  load_h100();
  spvgen_gemm_desc d = gemm(4096, 4096, 3000, F16, F32, F32);
  d.tile_m = 128, d.tile_n = 256, d.tile_k = 32, d.unroll = 1;
  d.codegen = SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE;
  spvgen_gemm_config p;
  char *t = emit_text(&d, &p);
  CHECK_MSG(text_has(t, "%mask_k_edge = OpFunction"), "the mask function");
  CHECK_EQ_U64(count_of(t, "OpCooperativeMatrixPerElementOpNV"), 1);
  CHECK_MSG(!text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "no clamped layout");
  CHECK_MSG(text_has(t, "%uint_2968"), "the last step at K - tile_k = 2968");
  CHECK(p.features & SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS);
  spvgen_free_text(t);
  d.k = 3001; /* not whole 16-byte rows: the clamped step (unpacked: pack auto would copy A) */
  d.pack = SPVGEN_GEMM_PACK_NONE;
  t = emit_text(&d, &p);
  CHECK_MSG(!text_has(t, "mask_k_edge"), "odd K: no mask");
  CHECK_MSG(text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "odd K: clamped");
  spvgen_free_text(t);
  /* edges in M and N too, split-K, s8: the plans validate */
  static const uint32_t sh[][3] = {{300, 276, 1000}, {97, 131, 1008}};
  for (int i = 0; i < 2; i++)
    for (int sk = 1; sk <= 3; sk += 2) {
      d = gemm(sh[i][0], sh[i][1], sh[i][2], i ? S8 : F16, i ? S32 : F32, i ? S32 : F32);
      d.codegen = SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE;
      d.split_k = (uint32_t)sk;
      d.pack = SPVGEN_GEMM_PACK_NONE; /* the K edge in place (N 276, 131: B's rows off 16 bytes) */
      t = emit_text(&d, &p);
      CHECK_MSG(text_has(t, "mask_k_edge"), "%ux%ux%u split %d: %s", d.m, d.n, d.k, sk, p.name);
      spvgen_free_text(t);
    }
  /* split-K counts a slice's loads from its first K: the masked step reads back K - tile_k,
   * into the step before kfull, which the edge's slice must hold. 1000 = 15 steps of 64 and
   * 40 in 6 slices of 3 steps: the sixth holds the edge alone, so the edge is clamped there. */
  d = gemm(100, 300, 1000, F16, F32, F32);
  d.codegen = SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE;
  d.tile_m = d.tile_n = d.tile_k = 64;
  d.split_k = 6;
  t = emit_text(&d, &p);
  CHECK_MSG(!text_has(t, "mask_k_edge"), "[%s] the edge's slice has no whole step: no mask", p.name);
  CHECK_MSG(text_has(t, "OpTypeTensorLayoutNV %uint_2 %uint_1"), "[%s] the clamped K edge", p.name);
  spvgen_free_text(t);
  d.split_k = 3; /* 6 steps a slice: the third holds steps 12-14 and the edge */
  t = emit_text(&d, &p);
  CHECK_MSG(text_has(t, "mask_k_edge"), "[%s] split 3: the mask", p.name);
  /* K - tile_k = 936, from the slice's first K 768: 168 */
  CHECK_MSG(text_has(t, "%uint_168 %uint_64"), "[%s] the masked step at K 168 of its slice", p.name);
  spvgen_free_text(t);
}

/* The compile model on small tiles (emitters/gemm/plan_cost.c, cm2_body): forced plans'
 * estimates within the model's spread (0.4-2.5x) of their first compiles on the H100 (call
 * S21-6, empty driver cache, 1048576 x N x 256 nt f16 -> f32, N 22 clamped), where the
 * loads body put the small ones at 0.25-0.34x; the big tiles' estimates as before; and the
 * default of a 22-wide output takes the small tile that ran 2.4x the 128x128 one (0.243 ms
 * against 0.586). Not pinned: 128x64x64 w128 clamped at N 22, 206 ms against 670 (0.31x),
 * the largest misfit left (docs/design-notes.md, "The compile model's small tiles"). */
static void test_small_tiles_compile_estimates_follow_the_measured(void) {
  load_h100();
  static const struct {
    uint32_t n, tm, tn, tk, wg, measured_ms;
  } pts[] = {
      {22, 64, 32, 64, 64, 244}, {22, 32, 32, 64, 64, 162}, {22, 64, 64, 64, 128, 139}, {22, 128, 128, 32, 256, 311},
      {64, 32, 32, 64, 64, 75},  {64, 64, 32, 64, 64, 120}, {64, 64, 64, 64, 128, 91}, {64, 128, 64, 64, 128, 165},
  };
  char msg[512];
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    spvgen_gemm_desc d = gemm(1048576, pts[i].n, 256, F16, F32, F32);
    d.b_layout = SPVGEN_COL_MAJOR;
    d.tile_m = pts[i].tm, d.tile_n = pts[i].tn, d.tile_k = pts[i].tk;
    d.workgroup_size = pts[i].wg;
    d.unroll = 1;
    d.edge = SPVGEN_GEMM_EDGE_CLAMP;
    spvgen_gemm_config p;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    const double r = (double)pts[i].measured_ms / p.compile_ms;
    CHECK_MSG(r >= 0.4 && r <= 2.5, "N %u [%s]: estimated %u ms, measured %u", pts[i].n, p.name, p.compile_ms,
              pts[i].measured_ms);
  }
  /* the big tiles keep their estimates: 128x128x64 and 128x256x32 unclamped at u1 */
  static const uint32_t big[][4] = {{128, 128, 64, 300}, {128, 256, 32, 230}};
  for (size_t i = 0; i < 2; i++) {
    spvgen_gemm_desc d = gemm(4096, 4096, 4096, F16, F32, F32);
    d.tile_m = big[i][0], d.tile_n = big[i][1], d.tile_k = big[i][2];
    d.workgroup_size = 256;
    d.unroll = 1;
    spvgen_gemm_config p;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.compile_ms == big[i][3], "[%s]: %u ms, was %u", p.name, p.compile_ms, big[i][3]);
  }
  spvgen_gemm_desc d = gemm(1048576, 22, 256, F16, F32, F32);
  d.b_layout = SPVGEN_COL_MAJOR;
  d.variant = SPVGEN_GEMM_AUTO;
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.variant == SPVGEN_GEMM_COOPMAT2 && p.desc.tile_n <= 32 && p.compile_ms <= 300, "N 22: [%s] %u ms", p.name,
            p.compile_ms);
}

/* Unrolling is scored only where it measured faster (coopmat2_plan.c, unroll_score): a
 * tile under 128x128 with 64-deep K steps ran as fast at u1 as at u2 (32x64x64, 32x32x64:
 * H200, call S22-1), so a long run that has the budget for u2 keeps u1's cheaper compile
 * there; 128x128x64 (1.03-1.05x at u2 on long K, call S22-2) and 128x256x32's 32-deep steps
 * (1.074x) keep it. */
static void test_unroll_only_where_it_measured_faster(void) {
  load_h100();
  char msg[512];
  static const uint32_t tiles[][5] = {{64, 64, 64, 128, 1}, {128, 128, 64, 256, 2}};
  for (size_t i = 0; i < 2; i++) {
    spvgen_gemm_desc d = gemm(3584, 3584, 8192, F16, F32, F32);
    d.b_layout = SPVGEN_COL_MAJOR;
    d.tile_m = tiles[i][0], d.tile_n = tiles[i][1], d.tile_k = tiles[i][2];
    d.workgroup_size = tiles[i][3];
    d.split_k = 1;
    spvgen_gemm_config p;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.desc.unroll == tiles[i][4], "[%s] %u ms", p.name, p.compile_ms);
    /* u2 fits this run's budget (1 s: a run of over 1 ms), so the score, not the budget, chose */
    spvgen_gemm_desc d2 = d;
    d2.unroll = 2;
    spvgen_gemm_config p2;
    CHECK_MSG(spvgen_gemm_plan(&d2, &h100, &p2, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p2.compile_ms <= 1000, "[%s] %u ms", p2.name, p2.compile_ms);
  }
  spvgen_gemm_desc d = gemm(8192, 8192, 8192, F16, F32, F32);
  d.tile_m = 128, d.tile_n = 256, d.tile_k = 32;
  d.workgroup_size = 256;
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.unroll >= 2, "[%s]", p.name);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_candidate_validates_across_layouts_types_and_shapes),
      TEST_CASE(test_every_candidate_validates_with_each_epilogue),
      TEST_CASE(test_output_type_conversions_validate),
      TEST_CASE(test_bf16_kernels_have_the_tensor_instructions),
      TEST_CASE(test_kernel_disassembly_has_tensor_loads_muladd_and_tensor_store),
      TEST_CASE(test_column_major_edges_and_epilogue_disassembly),
      TEST_CASE(test_edge_clamp_emits_one_clamped_path),
      TEST_CASE(test_fixed_k_loops_split_off_a_multiple_of_8),
      TEST_CASE(test_split_rest_rolls_where_the_budget_is_short),
      TEST_CASE(test_packed_branch_is_around_the_epilogue),
      TEST_CASE(test_unaligned_batch_stride_takes_three_dimensional_layouts),
      TEST_CASE(test_unsigned_int8_accumulates_in_u32_and_signed_in_s32),
      TEST_CASE(test_plan_picks_big_tiles_for_big_problems_and_small_ones_for_skinny),
      TEST_CASE(test_candidates_honour_the_knobs_the_desc_sets),
      TEST_CASE(test_refusals_name_the_field_and_the_reason),
      TEST_CASE(test_one_shot_kernel_validates_and_reports_the_grid),
      TEST_CASE(test_addressing_recipe_matches_the_spec_reference),
      TEST_CASE(test_splitk_plans_validate),
      TEST_CASE(test_stages2_plans_validate),
      TEST_CASE(test_run_time_k_loops_count_their_steps),
      TEST_CASE(test_edge_tiles_clamp_only_the_operands_they_cross),
      TEST_CASE(test_run_time_plans_for_an_m_shift_their_edge_tiles),
      TEST_CASE(test_small_m_plans_stream_the_weights_with_split_k),
      TEST_CASE(test_run_time_split_k_takes_its_count_from_the_grid),
      TEST_CASE(test_masked_k_edge_loads_the_last_tile_unclamped),
      TEST_CASE(test_small_tiles_compile_estimates_follow_the_measured),
      TEST_CASE(test_unroll_only_where_it_measured_faster),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
