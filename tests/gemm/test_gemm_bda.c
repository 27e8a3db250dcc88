/* tests/gemm/test_gemm_bda.c — the GEMM's device-address form (desc.addressing
 * SPVGEN_ADDRESSING_DEVICE_ADDRESS): every buffer a PhysicalStorageBuffer64 pointer in the
 * push constants. The modules validate, the info says where each pointer goes, the SIMT
 * kernels run on the test device (lavapipe in CI) against the CPU reference, every element
 * checked, with buffers at non-zero offsets of one allocation (sub-allocation) and with
 * many tiles in both dimensions (each workgroup moves its pointers to its tile), and the
 * variants and devices that cannot take the form refuse it by name. Matrices over 2^31
 * elements plan and validate; what one tile reaches is the limit, named at its boundary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

/* The runner call fails with `status` and a message containing `text`. */
#define VK_EXPECT_ERROR(ctx, call, status, text)                                             \
  do {                                                                                       \
    spvgen_status vk_st_ = (call);                                                           \
    CHECK_MSG(vk_st_ == (status), "%s returned %s, expected %s (message: %s)", #call,        \
              spvgen_status_name(vk_st_), spvgen_status_name(status), spvgen_vk_error(ctx)); \
    CHECK_CONTAINS(spvgen_vk_error(ctx), (text));                                            \
  } while (0)

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc bda_desc(uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.n = n;
  d.k = k;
  d.variant = SPVGEN_GEMM_SIMT;
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  d.a_type = d.b_type = d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  return d;
}

static bool has_capability(const spvgen_kernel_info *info, uint32_t cap) {
  for (uint32_t i = 0; i < info->capability_count; i++)
    if (info->capabilities[i] == cap) return true;
  return false;
}

/* ------------------------------------------------------------- the modules ---- */

/* Fixed and run-time shapes, every operand (C, bias), several types and layouts: the
 * module validates, declares PhysicalStorageBufferAddresses, lists bufferDeviceAddress,
 * and the info has one DEVICE_ADDRESS binding per operand, 8 bytes apart after the
 * shape's push constants; the plan's push_size is the block's size. */
static void test_modules_validate_and_say_where_the_pointers_are(void) {
  spvgen_device_caps caps = preset("lavapipe");
  struct {
    spvgen_component_type a, acc, out;
    float beta;
    spvgen_gemm_bias bias;
    spvgen_gemm_shapes shapes;
    int layout;
    uint32_t buffers;
  } cases[] = {
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0.0f, SPVGEN_GEMM_BIAS_NONE, SPVGEN_GEMM_SHAPES_FIXED, 0, 3},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0.5f, SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_FIXED, 3, 5},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0.0f, SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_RUNTIME, 1, 4},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0.0f, SPVGEN_GEMM_BIAS_NONE, SPVGEN_GEMM_SHAPES_RUNTIME, 2, 3},
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 2.0f, SPVGEN_GEMM_BIAS_NONE, SPVGEN_GEMM_SHAPES_RUNTIME, 0, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = bda_desc(96, 80, 48);
    d.a_type = d.b_type = cases[i].a;
    d.acc_type = cases[i].acc;
    d.out_type = cases[i].out;
    d.beta = cases[i].beta;
    d.bias = cases[i].bias;
    d.shapes = cases[i].shapes;
    d.a_layout = (spvgen_matrix_layout)(cases[i].layout & 1);
    d.b_layout = (spvgen_matrix_layout)(cases[i].layout >> 1);
    d.activation = cases[i].a == SPVGEN_COMPONENT_S8 ? SPVGEN_ACTIVATION_RELU : SPVGEN_ACTIVATION_GELU;
    char msg[512];
    spvgen_gemm_config plan;
    CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "case %zu: %s", i, msg);
    CHECK(plan.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
    CHECK_EQ_U64(spvgen_gemm_addressing_model(&plan), SpvAddressingModelPhysicalStorageBuffer64);
    spvgen_kernel k;
    CHECK_MSG(spvgen_gemm(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "case %zu: %s", i, msg);
    if (!k.words) continue;
    CHECK_MSG(check_words(k.words, k.word_count), "case %zu", i);
    const uint32_t base = cases[i].shapes == SPVGEN_GEMM_SHAPES_RUNTIME ? (uint32_t)sizeof(spvgen_gemm_push) : 0;
    CHECK_EQ_U64(k.info.binding_count, cases[i].buffers);
    CHECK_EQ_U64(k.info.push_constant_size, base + 8 * cases[i].buffers);
    CHECK_EQ_U64(plan.push_size, k.info.push_constant_size);
    for (uint32_t b = 0; b < k.info.binding_count; b++) {
      CHECK_EQ_U64(k.info.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
      CHECK_EQ_U64(k.info.bindings[b].address_offset, base + 8 * b);
      if (cases[i].shapes == SPVGEN_GEMM_SHAPES_FIXED) CHECK(k.info.bindings[b].min_size > 0);
    }
    CHECK_STR_EQ(k.info.bindings[2].name, "D");
    if (cases[i].buffers == 4) CHECK_STR_EQ(k.info.bindings[3].name, cases[i].beta != 0.0f ? "C" : "bias");
    CHECK(k.info.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
    CHECK(has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
    CHECK(k.words[0] == 0x07230203u);
    spvgen_kernel_free(&k);
  }
}

/* The default (descriptors) does not change: no PhysicalStorageBuffer anywhere, storage
 * buffer bindings, and the same words as a desc that never heard of addressing. */
static void test_descriptors_stay_the_default(void) {
  spvgen_device_caps caps = preset("lavapipe");
  spvgen_gemm_desc d = bda_desc(64, 64, 64);
  d.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  char msg[512];
  spvgen_kernel k;
  CHECK_MSG(spvgen_gemm(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(k.info.bindings[0].kind, SPVGEN_BINDING_STORAGE_BUFFER);
  CHECK(!(k.info.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS));
  CHECK(!has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
  CHECK_EQ_U64(k.info.push_constant_size, 0);
  spvgen_kernel_free(&k);
  /* the tuner keeps the two forms apart, and the descriptor key as it was */
  char key[1024];
  CHECK(spvgen_tune_gemm_key(&d, &caps, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!strstr(key, "addressing"));
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  CHECK(spvgen_tune_gemm_key(&d, &caps, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(strstr(key, " addressing=device-address") != NULL);
}

/* The cooperative variants' device-address forms (the H100's caps; lavapipe has no
 * cooperative matrices, so they run in tests/gpu/test_gpu_gemm_bda.c): a spread of plans
 * over types, layouts, edges, batches, C, bias, split-K and run-time shapes validates,
 * every binding a DEVICE_ADDRESS 8 bytes apart, A, B, C, D and the workspace 16-byte
 * aligned, the bias 4; batches (64-bit pointer arithmetic) list shaderInt64. */
static void test_cooperative_forms_validate(void) {
  spvgen_device_caps caps = preset("h100");
  struct {
    spvgen_gemm_variant v;
    uint32_t m, n, k, batch;
    spvgen_component_type a, acc, out;
    float beta;
    spvgen_gemm_bias bias;
    spvgen_gemm_shapes shapes;
    int layout;
    uint32_t split_k;
  } cases[] = {
      {SPVGEN_GEMM_COOPMAT_KHR, 256, 256, 256, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0,
       SPVGEN_GEMM_SHAPES_FIXED, 0, 1},
      {SPVGEN_GEMM_COOPMAT_KHR, 300, 200, 100, 3, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0.5f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_FIXED, 3, 1},
      {SPVGEN_GEMM_COOPMAT_KHR, 128, 128, 128, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, 0, 0,
       SPVGEN_GEMM_SHAPES_FIXED, 2, 1},
      {SPVGEN_GEMM_COOPMAT_KHR, 97, 131, 67, 1, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0,
       SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_FIXED, 1, 1},
      {SPVGEN_GEMM_COOPMAT_KHR, 0, 0, 0, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 1.0f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_RUNTIME, 0, 1},
      {SPVGEN_GEMM_COOPMAT2, 256, 256, 256, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0,
       SPVGEN_GEMM_SHAPES_FIXED, 0, 1},
      {SPVGEN_GEMM_COOPMAT2, 300, 200, 100, 3, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0.5f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_FIXED, 3, 1},
      {SPVGEN_GEMM_COOPMAT2, 97, 131, 67, 2, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0,
       SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_FIXED, 1, 1},
      {SPVGEN_GEMM_COOPMAT2, 64, 64, 8192, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0.25f, 0,
       SPVGEN_GEMM_SHAPES_FIXED, 0, 4},
      {SPVGEN_GEMM_COOPMAT2, 0, 0, 0, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 1.0f,
       SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_RUNTIME, 2, 1},
      {SPVGEN_GEMM_COOPMAT2, 0, 0, 0, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0,
       SPVGEN_GEMM_SHAPES_RUNTIME, 0, 3},
      {SPVGEN_GEMM_COOPMAT2, 0, 0, 0, 1, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_RUNTIME, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = bda_desc(cases[i].m, cases[i].n, cases[i].k);
    d.variant = cases[i].v;
    d.batch = cases[i].batch;
    d.a_type = d.b_type = cases[i].a;
    d.acc_type = cases[i].acc;
    d.out_type = cases[i].out;
    d.beta = cases[i].beta;
    d.bias = cases[i].bias;
    d.shapes = cases[i].shapes;
    d.split_k = cases[i].split_k;
    d.a_layout = (spvgen_matrix_layout)(cases[i].layout & 1);
    d.b_layout = (spvgen_matrix_layout)(cases[i].layout >> 1);
    if (cases[i].a == SPVGEN_COMPONENT_S8 && cases[i].bias) d.activation = SPVGEN_ACTIVATION_RELU;
    d.pack = SPVGEN_GEMM_PACK_NONE; /* the forms that read A and B in place (packed: test_gemm_pack.c) */
    char msg[512];
    spvgen_gemm_config plan;
    CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "case %zu: %s", i, msg);
    CHECK_EQ_U64(plan.variant, cases[i].v);
    /* 64-bit pointer arithmetic in the plan: each workgroup moves its pointers to its tile
     * (and batch) */
    CHECK_MSG(plan.features & SPVGEN_FEATURE_INT64, "case %zu", i);
    /* every kernel of the plan (split-K: the partials with A, B and the workspace, the
     * reduction with D, C, bias and the workspace), each with its own pointers */
    spvgen_kernel ks[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t nk = 0;
    CHECK_MSG(spvgen_gemm_kernels(&d, &caps, ks, &nk, NULL, msg, sizeof msg) == SPVGEN_OK, "case %zu [%s]: %s", i,
              plan.name, msg);
    CHECK_EQ_U64(nk, cases[i].split_k > 1 ? 2 : 1);
    const uint32_t base = cases[i].shapes == SPVGEN_GEMM_SHAPES_RUNTIME ? (uint32_t)sizeof(spvgen_gemm_push) : 0;
    const uint32_t epilogue = 1u + (cases[i].beta != 0.0f) + (cases[i].bias != 0);
    for (uint32_t j = 0; j < nk; j++) {
      const spvgen_kernel *k = &ks[j];
      CHECK_MSG(check_words(k->words, k->word_count), "case %zu [%s] kernel %u", i, plan.name, j);
      const uint32_t buffers = cases[i].split_k <= 1 ? 2u + epilogue : j ? epilogue + 1u : 3u;
      CHECK_EQ_U64(k->info.binding_count, buffers);
      CHECK_EQ_U64(k->info.push_constant_size, base + 8 * buffers);
      CHECK_EQ_U64(k->info.push_constant_size, j ? plan.reduce_push_size : plan.push_size);
      for (uint32_t b = 0; b < k->info.binding_count; b++) {
        CHECK_EQ_U64(k->info.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
        CHECK_EQ_U64(k->info.bindings[b].address_offset, base + 8 * b);
        CHECK_EQ_U64(k->info.bindings[b].alignment, strcmp(k->info.bindings[b].name, "bias") ? 16 : 0);
      }
      CHECK(has_capability(&k->info, SpvCapabilityPhysicalStorageBufferAddresses));
      /* both kernels move pointers in 64 bits: the partials kernel A and B (and its plane)
       * to its tile, the reduction D and C to each invocation's first element */
      CHECK_MSG(has_capability(&k->info, SpvCapabilityInt64), "case %zu [%s] kernel %u", i, plan.name, j);
    }
    for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&ks[j]);
  }
}

/* Tensors over 4 GB: with device addresses a batch moves the pointer in 64 bits, so a
 * batch stride that puts a batch past element 2^32 plans (descriptors refuse it, naming
 * the way out); one matrix of more than 2^31 elements plans too (each workgroup moves on
 * to its tile), and only what one tile reaches from its first element must stay under
 * 2^31 (test_tile_reach_limit); a coopmat2 operand whose batches are not 16-byte aligned
 * keeps the 32-bit limit over all batches (named). */
static void test_index_limits(void) {
  spvgen_device_caps caps = preset("h100");
  char msg[512];
  spvgen_gemm_config plan;
  for (int v = 0; v < 3; v++) {
    static const spvgen_gemm_variant vs[3] = {SPVGEN_GEMM_SIMT, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_COOPMAT2};
    spvgen_gemm_desc d = bda_desc(128, 64, 128);
    d.variant = vs[v];
    d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
    d.batch = 3;
    d.stride_a = (1ull << 31) + 64; /* batch 2 of A starts at byte 2^33 + 256 */
    CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "variant %d: %s", v, msg);
    CHECK(plan.features & SPVGEN_FEATURE_INT64);
    spvgen_gemm_desc e = d;
    e.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
    CHECK(spvgen_gemm_plan(&e, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "or addressing device-address");
    /* one batch over 2^31 elements: a tile of rows reaches (tile_m - 1) * lda + k */
    e = d;
    e.batch = 1;
    e.stride_a = 0;
    e.m = 140000;
    e.lda = 32768;
    CHECK_MSG(spvgen_gemm_plan(&e, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "variant %d: %s", v, msg);
    e.addressing = SPVGEN_ADDRESSING_DESCRIPTORS; /* descriptors keep the 2^32 - 1 limit */
    CHECK(spvgen_gemm_plan(&e, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "a reaches element 4587487359: indices past 2^32 - 1");
  }
  /* coopmat2 with batches 8 bytes apart: a 3-D tensor, 32-bit over every batch */
  spvgen_gemm_desc d = bda_desc(128, 64, 128);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.batch = 3;
  d.stride_a = (1ull << 31) + 4;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "batch strides whose bytes are multiples of 16");
  d.variant = SPVGEN_GEMM_AUTO; /* the other variants take it */
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(plan.variant != SPVGEN_GEMM_COOPMAT2);
  /* run-time shapes: the same rules per launch */
  d = bda_desc(0, 0, 0);
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.ld_multiple = 8;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_gemm_args a;
  memset(&a, 0, sizeof a);
  a.m = 128, a.n = 64, a.k = 128, a.batch = 3, a.stride_a = (1u << 31) + 64;
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  a.stride_a = 0, a.batch = 1, a.m = 140000, a.lda = 32768;
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
}

/* The over-2^31 shapes of tests/gpu/test_gpu_gemm_bda.c (A of 2^21 + 1000 rows by K 1024
 * in f16, 4 GiB and more in one batch), B likewise by columns, and D of more than 2^31
 * elements: every variant plans them with device addresses (fixed shapes, and run-time
 * ones per launch), and the modules validate. */
static void test_one_matrix_past_2_31_elements(void) {
  spvgen_device_caps caps = preset("h100");
  static const spvgen_gemm_variant vs[3] = {SPVGEN_GEMM_SIMT, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_COOPMAT2};
  const uint32_t BIG = (1u << 21) + 1000;
  struct {
    uint32_t m, n, k;
    int layout; /* bit 0: A column-major, bit 1: B column-major */
    float beta;
  } shapes[] = {
      {BIG, 64, 1024, 0, 0.0f},      /* A: 2^31 + 1024000 elements, row-major */
      {64, BIG, 1024, 2, 0.0f},      /* B: column-major, the same by columns */
      {50000, 50000, 64, 0, 0.5f},   /* C and D: 2.5 x 10^9 elements */
  };
  char msg[512];
  for (int v = 0; v < 3; v++)
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
      for (int runtime = 0; runtime < 2; runtime++) {
        spvgen_gemm_desc d = bda_desc(shapes[i].m, shapes[i].n, shapes[i].k);
        d.variant = vs[v];
        d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
        d.a_layout = (spvgen_matrix_layout)(shapes[i].layout & 1);
        d.b_layout = (spvgen_matrix_layout)(shapes[i].layout >> 1);
        d.beta = shapes[i].beta;
        d.bias = SPVGEN_GEMM_BIAS_ROW;
        if (runtime) {
          d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
          d.ld_multiple = 8;
        }
        spvgen_gemm_config plan;
        spvgen_status st = spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "variant %d shape %zu runtime %d: %s", v, i, runtime, msg);
        if (st != SPVGEN_OK) continue;
        if (runtime) {
          spvgen_gemm_args a;
          memset(&a, 0, sizeof a);
          a.m = shapes[i].m, a.n = shapes[i].n, a.k = shapes[i].k, a.alpha = 1.0f, a.beta = shapes[i].beta;
          spvgen_gemm_launch l;
          CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "variant %d shape %zu: %s", v,
                    i, msg);
        }
        spvgen_kernel k;
        CHECK_MSG(spvgen_gemm(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "variant %d shape %zu: %s", v, i, msg);
        if (k.words) CHECK_MSG(check_words(k.words, k.word_count), "variant %d shape %zu [%s]", v, i, plan.name);
        spvgen_kernel_free(&k);
      }
}

/* What one tile reaches from its first element (the limit that replaces a batch's 2^31
 * with device addresses) is named when it is over 2^31 - 1: an operand whose outer
 * dimension is K (A column-major: K columns of lda), and C or D rows of a huge ldd; fixed
 * shapes at plan time, run-time ones per launch. The boundary is exact: (outer - 1) * ld
 * + inner - 1, with 15 elements of room for coopmat2's 16-byte alignment of the moved
 * pointer, plans at 2^31 - 1 and is refused one past it. */
static void test_tile_reach_limit(void) {
  spvgen_device_caps caps = preset("h100");
  char msg[512];
  spvgen_gemm_config plan;
  spvgen_gemm_desc d = bda_desc(70000, 64, 128);
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.a_layout = SPVGEN_COL_MAJOR;
  d.lda = 20000000;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  /* simt's 64-row tile: 127 * 20000000 + 63 */
  CHECK_CONTAINS(msg, "a reaches element 2540000063 of one workgroup's tile (128 columns of lda 20000000, column-major)");
  CHECK_CONTAINS(msg, "the other layout spans only the tile's rows or columns of ld)");
  d.a_layout = SPVGEN_ROW_MAJOR; /* the same lda by rows: the tile spans 64 of them */
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* D's tile: 63 rows of ldd 40000000 */
  d = bda_desc(128, 64, 64);
  d.ldd = 40000000;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "d reaches element 2520000063 of one workgroup's tile (64 rows of ldd 40000000, row-major)");
  CHECK_CONTAINS(msg, "a smaller ld or tile");
  /* the boundary: A column-major of K 2, 16 rows in a 16-row tile: lda + 15 (+ 15 room) */
  d = bda_desc(16, 16, 2);
  d.tile_m = d.tile_n = 16;
  d.a_layout = SPVGEN_COL_MAJOR;
  d.lda = 0x7FFFFFFFu - 30u;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  d.lda++;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "a reaches element 2147483633 of one workgroup's tile");
  /* descriptors are not bound by it (their indices are the matrix's, at most 2^32 - 1) */
  d.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* run-time shapes: per launch */
  d = bda_desc(0, 0, 0);
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.b_layout = SPVGEN_ROW_MAJOR;
  for (int v = 0; v < 3; v++) {
    static const spvgen_gemm_variant vs[3] = {SPVGEN_GEMM_SIMT, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_COOPMAT2};
    d.variant = vs[v];
    CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    spvgen_gemm_args a;
    memset(&a, 0, sizeof a);
    a.m = 256, a.n = 256, a.k = 200, a.ldb = 12000000; /* B row-major: 199 rows of ldb */
    spvgen_gemm_launch l;
    CHECK(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "spvgen_gemm_launch_for: b reaches element 23880");
    CHECK_CONTAINS(msg, "(200 rows of ldb 12000000, row-major)");
    a.ldb = 10000000;
    CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  }
}

/* Split-K's workspace (the partial planes only) is indexed from its base in 32 bits, by
 * both kernels: signed with device addresses, so its limit is 2^31 - 1 words there
 * (descriptors: 2^32 - 1), named; fixed shapes at plan time, run-time ones per launch.
 * The boundary: 2 planes of 32767 x 32768 words plan, of 32768 x 32768 (2^31) not. */
static void test_workspace_limit(void) {
  spvgen_device_caps caps = preset("h100");
  char msg[512];
  spvgen_gemm_config plan;
  spvgen_gemm_desc d = bda_desc(32768, 32768, 4096); /* 2 slices of 2^30 partials */
  d.split_k = 2;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "the workspace would hold 2147483648 32-bit words; indices past 2^31 - 1 (device addresses: signed)");
  d.m = 32767; /* 2^31 - 65536 words */
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(plan.workspace_bytes, (uint64_t)2 * 32767 * 32768 * 4);
  d.m = 32768;
  d.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* run-time shapes: per launch */
  d = bda_desc(0, 0, 0);
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.split_k = 2;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_gemm_args a;
  memset(&a, 0, sizeof a);
  a.m = 32768, a.n = 32768, a.k = 4096;
  spvgen_gemm_launch l;
  CHECK(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "the workspace would hold 2147483648 32-bit words; indices past 2^31 - 1 (device addresses: signed)");
  a.m = 32767;
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.workspace_bytes, (uint64_t)2 * 32767 * 32768 * 4);
}

/* What cannot take device addresses says so, naming the knob or the feature; the
 * emitter refuses a module of the wrong addressing model; AUTO plans the fastest
 * variant the device has. */
static void test_refusals_name_what_is_wrong(void) {
  spvgen_device_caps caps = preset("h100");
  char msg[512];
  spvgen_gemm_config plan;
  spvgen_gemm_desc d = bda_desc(256, 256, 256);
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  /* AUTO on a device with cooperative matrices: coopmat2 on the H100, khr without it */
  d.variant = SPVGEN_GEMM_AUTO;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(plan.variant, SPVGEN_GEMM_COOPMAT2);
  spvgen_device_caps khr_only = caps;
  khr_only.features &= ~SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING;
  CHECK_MSG(spvgen_gemm_plan(&d, &khr_only, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(plan.variant, SPVGEN_GEMM_COOPMAT_KHR);
  /* the khr variant splits K with device addresses too: its partials kernel's pointers
   * are A, B and the workspace */
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  d.split_k = 2;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&plan), 2);
  /* split-K: the workspace is the last pointer of both kernels (the partials: A, B,
   * workspace; the reduction: D, workspace) */
  d = bda_desc(16, 16, 4096);
  d.split_k = 4;
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(plan.push_size, 24);
  CHECK_EQ_U64(plan.reduce_push_size, 16);
  spvgen_kernel sk[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t nk = 0;
  CHECK_MSG(spvgen_gemm_kernels(&d, &caps, sk, &nk, NULL, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  if (nk == 2) {
    CHECK(check_words(sk[0].words, sk[0].word_count));
    CHECK(check_words(sk[1].words, sk[1].word_count));
    CHECK_EQ_U64(sk[0].info.binding_count, 3);
    CHECK_STR_EQ(sk[0].info.bindings[2].name, "workspace");
    CHECK_EQ_U64(sk[0].info.bindings[2].address_offset, 16);
    CHECK_EQ_U64(sk[0].info.bindings[2].min_size, plan.workspace_bytes);
    CHECK_EQ_U64(sk[1].info.binding_count, 2);
    CHECK_STR_EQ(sk[1].info.bindings[1].name, "workspace");
    CHECK_EQ_U64(sk[1].info.bindings[1].address_offset, 8);
  }
  for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&sk[j]);
  d = bda_desc(16, 16, 16);
  d.addressing = (spvgen_addressing)7;
  CHECK(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "addressing 7 is not descriptors (0) or device-address (1)");
  /* a device without bufferDeviceAddress */
  spvgen_device_caps no_bda = preset("lavapipe");
  no_bda.features &= ~SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS;
  d = bda_desc(16, 16, 16);
  CHECK(spvgen_gemm_plan(&d, &no_bda, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "bufferDeviceAddress");
  /* a module of the Logical addressing model */
  CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_gemm_emit(m, &plan, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "create the module with spvgen_module_desc.addressing");
  spvgen_module_destroy(m);
  CHECK(spvgen_addressing_name(SPVGEN_ADDRESSING_DEVICE_ADDRESS) != NULL);
  spvgen_addressing a = SPVGEN_ADDRESSING_DESCRIPTORS;
  CHECK(spvgen_addressing_parse("device-address", &a) && a == SPVGEN_ADDRESSING_DEVICE_ADDRESS);
  CHECK(!spvgen_addressing_parse("bda", &a));
}

/* ------------------------------------------------------------ on the device ---- */

/* Through gemm_run (spvgen buffers created with SPVGEN_VK_BUFFER_DEVICE_ADDRESS, every
 * element against the float64 reference): fixed and run-time shapes, the epilogue's
 * operands, batches, integer and f16 inputs, split-K (its workspace by address too). */
static void test_runs_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  struct {
    uint32_t m, n, k, batch;
    spvgen_component_type a, acc, out;
    float alpha, beta;
    spvgen_gemm_bias bias;
    spvgen_activation act;
    spvgen_gemm_shapes shapes;
    int layout;
    uint32_t split_k;
  } cases[] = {
      {67, 71, 37, 1, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0, 0, 0, SPVGEN_GEMM_SHAPES_FIXED, 0, 1},
      {65, 33, 17, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 1.5f, 0.5f, SPVGEN_GEMM_BIAS_ROW,
       SPVGEN_ACTIVATION_GELU, SPVGEN_GEMM_SHAPES_FIXED, 3, 1},
      {100, 70, 50, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0.25f, SPVGEN_GEMM_BIAS_COLUMN,
       SPVGEN_ACTIVATION_RELU, SPVGEN_GEMM_SHAPES_RUNTIME, 1, 1},
      {31, 45, 29, 3, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0, 0, SPVGEN_GEMM_BIAS_ROW,
       SPVGEN_ACTIVATION_RELU, SPVGEN_GEMM_SHAPES_RUNTIME, 2, 1},
      {40, 52, 2000, 1, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0.5f, SPVGEN_GEMM_BIAS_ROW, 0,
       SPVGEN_GEMM_SHAPES_FIXED, 0, 4},
      {33, 70, 1500, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0, 0, SPVGEN_GEMM_BIAS_COLUMN,
       SPVGEN_ACTIVATION_SILU, SPVGEN_GEMM_SHAPES_RUNTIME, 1, 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = bda_desc(cases[i].m, cases[i].n, cases[i].k);
    d.batch = cases[i].batch;
    d.a_type = d.b_type = cases[i].a;
    d.acc_type = cases[i].acc;
    d.out_type = cases[i].out;
    d.alpha = cases[i].alpha;
    d.beta = cases[i].beta;
    d.bias = cases[i].bias;
    d.activation = cases[i].act;
    d.shapes = cases[i].shapes;
    d.a_layout = (spvgen_matrix_layout)(cases[i].layout & 1);
    d.b_layout = (spvgen_matrix_layout)(cases[i].layout >> 1);
    d.split_k = cases[i].split_k;
    spvgen_gemm_args args;
    memset(&args, 0, sizeof args);
    args.m = d.m, args.n = d.n, args.k = d.k, args.batch = d.batch;
    args.alpha = d.alpha ? d.alpha : 1.0f;
    args.beta = d.beta;
    gemm_run_result r;
    char msg[512];
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.recheck = d.split_k > 1; /* a second run over a NaN-filled workspace: nothing carries over */
    if (d.shapes == SPVGEN_GEMM_SHAPES_RUNTIME) o.args = &args;
    spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(r.checked, (uint64_t)d.m * d.n * d.batch);
    CHECK_MSG(r.bad == 0, "case %zu [%s]: %llu of %llu elements wrong; first (%llu,%llu) gpu %g cpu %g", i,
              r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
              (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col, r.first_bad_gpu,
              r.first_bad_ref);
  }
  spvgen_vk_destroy(ctx);
}

/* Each workgroup moves its pointers to its tile (A to its rows, B to its columns, C and
 * D to its first element), so every index is counted from there: many tiles in both
 * dimensions (16-row and 16-column tiles), batches with padded strides, padded leading
 * dimensions, every layout of A, B, C and D, edge tiles on both sides, split-K, and
 * run-time shapes whose extents and leading dimensions come per launch. Every element
 * against the float64 reference. */
static void test_tile_moves_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  struct {
    uint32_t m, n, k, batch, tm, tn;
    spvgen_component_type a, out;
    uint32_t lda, ldb, ldc, ldd, pad; /* pad: extra elements between batches */
    int layout;                       /* bits: A, B, C, D column-major */
    float beta;
    spvgen_gemm_bias bias;
    spvgen_gemm_shapes shapes;
    uint32_t split_k;
  } cases[] = {
      {150, 133, 45, 3, 16, 16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 50, 140, 155, 157, 7, 4 | 8, 0.5f,
       SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_FIXED, 1},
      {97, 203, 70, 2, 32, 16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 101, 75, 0, 210, 5, 1 | 2, 0.0f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_FIXED, 3},
      {130, 77, 33, 2, 16, 32, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, 40, 80, 133, 90, 3, 2 | 4, 0.25f,
       SPVGEN_GEMM_BIAS_NONE, SPVGEN_GEMM_SHAPES_RUNTIME, 1},
      {70, 90, 64, 2, 16, 16, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, 0, 0, 0, 0, 0, 1 | 8, 0.0f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_FIXED, 1},
      {45, 100, 300, 2, 16, 32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 310, 0, 0, 101, 9, 0, 0.0f,
       SPVGEN_GEMM_BIAS_NONE, SPVGEN_GEMM_SHAPES_RUNTIME, 2},
      /* split-K's reduction moves D and C column-major (each invocation's 4 columns ldd
       * apart), with padded lds and batches, C and a per-column bias */
      {53, 38, 200, 2, 16, 16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0, 0, 61, 59, 11, 4 | 8, 0.5f,
       SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_SHAPES_FIXED, 3},
      {41, 29, 150, 1, 16, 16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0, 47, 45, 0, 1 | 4 | 8, 0.25f,
       SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_SHAPES_RUNTIME, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = bda_desc(cases[i].m, cases[i].n, cases[i].k);
    d.batch = cases[i].batch;
    d.tile_m = cases[i].tm, d.tile_n = cases[i].tn;
    d.a_type = d.b_type = cases[i].a;
    d.acc_type = (cases[i].a == SPVGEN_COMPONENT_S8) ? SPVGEN_COMPONENT_S32 : SPVGEN_COMPONENT_F32;
    d.out_type = cases[i].out;
    d.a_layout = (spvgen_matrix_layout)(cases[i].layout & 1);
    d.b_layout = (spvgen_matrix_layout)((cases[i].layout >> 1) & 1);
    d.c_layout = (spvgen_matrix_layout)((cases[i].layout >> 2) & 1);
    d.d_layout = (spvgen_matrix_layout)((cases[i].layout >> 3) & 1);
    d.beta = cases[i].beta;
    d.bias = cases[i].bias;
    if (d.bias && (cases[i].a == SPVGEN_COMPONENT_S8)) d.activation = SPVGEN_ACTIVATION_RELU;
    d.split_k = cases[i].split_k;
    spvgen_gemm_args args;
    memset(&args, 0, sizeof args);
    args.m = d.m, args.n = d.n, args.k = d.k, args.batch = d.batch, args.alpha = 1.0f, args.beta = d.beta;
    args.lda = cases[i].lda, args.ldb = cases[i].ldb, args.ldd = cases[i].ldd;
    args.ldc = d.beta != 0.0f ? cases[i].ldc : 0;
    /* strides: one padded matrix per batch (ld x the outer extent, + pad) */
    if (cases[i].pad) {
      const uint32_t pad = cases[i].pad;
      args.stride_a = gemm_padded_stride(d.a_layout, d.m, d.k, args.lda, pad);
      args.stride_b = gemm_padded_stride(d.b_layout, d.k, d.n, args.ldb, pad);
      args.stride_d = gemm_padded_stride(d.d_layout, d.m, d.n, args.ldd, pad);
      if (d.beta != 0.0f) args.stride_c = gemm_padded_stride(d.c_layout, d.m, d.n, args.ldc, pad);
    }
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.recheck = d.split_k > 1;
    gemm_case_shapes(&d, &o, &args, cases[i].shapes == SPVGEN_GEMM_SHAPES_RUNTIME);
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "case %zu", i)) continue;
    CHECK_EQ_U64(r.plan.desc.tile_m, cases[i].tm);
    CHECK_EQ_U64(r.plan.desc.tile_n, cases[i].tn);
  }
  spvgen_vk_destroy(ctx);
}

/* f32 D = A B + bias (per row) in double, row-major. */
static void reference(const float *a, const float *b, const float *bias, uint32_t m, uint32_t n, uint32_t k,
                      double *d) {
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      double s = bias[i];
      for (uint32_t l = 0; l < k; l++) s += (double)a[i * k + l] * b[l * n + j];
      d[i * n + j] = s;
    }
}

/* A framework's sub-allocations: A, B, bias and D at non-zero aligned offsets of one
 * buffer (D also once by its raw VkDeviceAddress), recorded through spvgen_vk_submit,
 * fixed and run-time shapes; every element of D checked, and the bytes around D
 * untouched. An undersized range is refused by name. */
static void test_suballocated_operands(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  const uint32_t M = 45, N = 37, K = 29;
  const uint64_t off_a = 256, off_b = off_a + 8192, off_bias = off_b + 8192, off_d = off_bias + 512, total = off_d + 8192;
  spvgen_vk_buffer *big = NULL;
  double *ref = NULL;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, total, SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &big));
  unsigned char *host = spvgen_vk_buffer_map(big);
  float *a = (float *)(host + off_a), *b = (float *)(host + off_b), *bias = (float *)(host + off_bias);
  float *dd = (float *)(host + off_d);
  for (uint32_t i = 0; i < M * K; i++) a[i] = (float)((int)(test_rand_u32() % 17) - 8) / 8.0f + 0.0625f;
  for (uint32_t i = 0; i < K * N; i++) b[i] = (float)((int)(test_rand_u32() % 13) - 6) / 4.0f + 0.125f;
  for (uint32_t i = 0; i < M; i++) bias[i] = (float)(test_rand_u32() % 9) - 4.5f;
  ref = malloc(sizeof *ref * M * N);
  if (!ref) goto done;
  reference(a, b, bias, M, N, K, ref);
  for (int runtime = 0; runtime < 2; runtime++)
    for (int by_address = 0; by_address < 2; by_address++) {
      spvgen_gemm_desc d = bda_desc(M, N, K);
      d.bias = SPVGEN_GEMM_BIAS_ROW;
      d.shapes = runtime ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
      char msg[512];
      spvgen_gemm_config plan;
      spvgen_kernel k;
      CHECK_MSG(spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK_MSG(spvgen_gemm(&d, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      spvgen_vk_pipeline *p = NULL;
      VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, k.words, k.word_count, &k.info, NULL, &p));
      spvgen_gemm_launch l;
      spvgen_gemm_args args;
      memset(&args, 0, sizeof args);
      args.m = M, args.n = N, args.k = K, args.alpha = 1.0f;
      CHECK_MSG(spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK_EQ_U64(l.push_size, runtime ? sizeof(spvgen_gemm_push) : 0);
      for (uint64_t i = 0; i < 8192 / 4; i++) dd[i] = NAN; /* D and the bytes after it */
      spvgen_vk_buffer_range r[4] = {{.buffer = big, .offset = off_a, .range = (uint64_t)M * K * 4},
                                     {.buffer = big, .offset = off_b, .range = (uint64_t)K * N * 4},
                                     {.buffer = big, .offset = off_d, .range = (uint64_t)M * N * 4},
                                     {.buffer = big, .offset = off_bias, .range = (uint64_t)M * 4}};
      if (by_address) r[2] = (spvgen_vk_buffer_range){.address = spvgen_vk_buffer_address(big) + off_d, .range = (uint64_t)M * N * 4};
      spvgen_vk_record_desc rd = {.pipeline = p, .buffers = r, .buffer_count = k.info.binding_count,
                                  .push_data = l.push_size ? &l.push : NULL, .push_size = l.push_size,
                                  .groups = {l.groups[0], l.groups[1], l.groups[2]}};
      spvgen_vk_submit_desc sd = {.dispatches = &rd, .count = 1};
      uint64_t t = 0;
      VK_CHECK(ctx, spvgen_vk_submit(ctx, &sd, &t));
      VK_CHECK(ctx, spvgen_vk_wait(ctx, t));
      uint32_t bad = 0;
      for (uint32_t i = 0; i < M * N; i++) bad += !(fabs(dd[i] - ref[i]) <= 1e-5 * (1.0 + fabs(ref[i])));
      CHECK_MSG(bad == 0, "runtime %d by_address %d: %u of %u elements wrong (first: %g vs %g)", runtime, by_address,
                bad, M * N, dd[0], ref[0]);
      uint32_t touched = 0;
      for (uint32_t i = M * N; i < 8192 / 4; i++) touched += !isnan(dd[i]);
      CHECK_EQ_U64(touched, 0);
      /* one element short */
      r[2].range = (uint64_t)M * N * 4 - 4;
      VK_EXPECT_ERROR(ctx, spvgen_vk_submit(ctx, &sd, &t), SPVGEN_ERROR_INVALID_ARGUMENT, "'D' (device address at push offset");
      spvgen_vk_pipeline_destroy(p);
      spvgen_kernel_free(&k);
    }
done:
  free(ref);
  spvgen_vk_buffer_destroy(big);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_modules_validate_and_say_where_the_pointers_are),
      TEST_CASE(test_descriptors_stay_the_default),
      TEST_CASE(test_refusals_name_what_is_wrong),
      TEST_CASE(test_cooperative_forms_validate),
      TEST_CASE(test_index_limits),
      TEST_CASE(test_one_matrix_past_2_31_elements),
      TEST_CASE(test_tile_reach_limit),
      TEST_CASE(test_workspace_limit),
      TEST_CASE(test_runs_match_the_reference),
      TEST_CASE(test_tile_moves_match_the_reference),
      TEST_CASE(test_suballocated_operands),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
