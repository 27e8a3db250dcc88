/* tests/template/test_bda_aligned.c — Vulkan's rule for PhysicalStorageBuffer64 modules
 * (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708: every instruction that takes
 * memory operands and accesses memory through a PhysicalStorageBuffer pointer carries
 * the Aligned operand), which spirv-val does not check. A walk over the words finds each
 * load and store (OpLoad, OpStore, OpCopyMemory*, the KHR and NV cooperative matrix
 * loads and stores, the tensor ones, the cooperative vector ones), follows its pointer to
 * its type and, where that is a PhysicalStorageBuffer pointer, asserts the Aligned bit
 * and a power-of-two alignment. It runs over every device-address kernel a spread of
 * GEMM and MLP descs plans (spvgen_gemm_plans / spvgen_mlp_plans: every candidate, every
 * variant the caps preset has; every kernel of a plan, split-K's reduction included) and
 * the MLP's training kernels, for the h100 and lavapipe presets. A hand-made module with
 * one store missing the operand shows that the walk can fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"
#include "words.h"
#include "mlp_net.h"

/* ---------------------------------------------------------------- the walk ---- */

typedef struct aligned_report {
  uint32_t accesses; /* memory accesses through a PhysicalStorageBuffer pointer */
  uint32_t missing;  /* of them without Aligned (or with a bad alignment) */
  uint32_t unknown;  /* accesses whose pointer's type the walk could not find */
  char first[160];   /* the first offence */
} aligned_report;

/* Where an access instruction keeps its pointer(s) and its memory operands: operand word
 * indices (1 = the word after the opcode word); mask 0: none; min_len: the instruction's
 * length when the memory operands are present. */
typedef struct access_form {
  uint32_t opcode;
  uint32_t ptr, ptr2; /* ptr2: a second pointer (copies), 0 none */
  uint32_t mask;      /* word index of the memory-operand mask */
  const char *name;
} access_form;

static const access_form FORMS[] = {
    {SpvOpLoad, 3, 0, 4, "OpLoad"},
    {SpvOpStore, 1, 0, 3, "OpStore"},
    {SpvOpCopyMemory, 1, 2, 3, "OpCopyMemory"},
    {SpvOpCopyMemorySized, 1, 2, 4, "OpCopyMemorySized"},
    /* result type, result, pointer, layout, stride, memory operand */
    {SpvOpCooperativeMatrixLoadKHR, 3, 0, 6, "OpCooperativeMatrixLoadKHR"},
    /* pointer, object, layout, stride, memory operand */
    {SpvOpCooperativeMatrixStoreKHR, 1, 0, 5, "OpCooperativeMatrixStoreKHR"},
    /* result type, result, pointer, object, tensor layout, memory operand (required) */
    {SpvOpCooperativeMatrixLoadTensorNV, 3, 0, 6, "OpCooperativeMatrixLoadTensorNV"},
    /* pointer, object, tensor layout, memory operand (required) */
    {SpvOpCooperativeMatrixStoreTensorNV, 1, 0, 4, "OpCooperativeMatrixStoreTensorNV"},
    /* result type, result, pointer, offset, memory operand */
    {SpvOpCooperativeVectorLoadNV, 3, 0, 5, "OpCooperativeVectorLoadNV"},
    /* pointer, offset, object, memory operand */
    {SpvOpCooperativeVectorStoreNV, 1, 0, 4, "OpCooperativeVectorStoreNV"},
    /* SPV_NV_cooperative_matrix: result type, result, pointer, stride, column major, mask */
    {SpvOpCooperativeMatrixLoadNV, 3, 0, 6, "OpCooperativeMatrixLoadNV"},
    {SpvOpCooperativeMatrixStoreNV, 1, 0, 5, "OpCooperativeMatrixStoreNV"},
};

/* Instructions whose result may be a pointer (result type at word 1, result id at 2). */
static bool makes_pointer(uint32_t op) {
  switch (op) {
  case SpvOpVariable: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpConvertUToPtr: case SpvOpBitcast: case SpvOpLoad:
  case SpvOpCopyObject: case SpvOpSelect: case SpvOpPhi: case SpvOpFunctionParameter: case SpvOpUndef:
  case SpvOpFunctionCall:
    return true;
  default: return false;
  }
}

static void report(aligned_report *r, const char *fmt, const char *name, size_t at, uint32_t value) {
  if (r->first[0]) return;
  snprintf(r->first, sizeof r->first, fmt, name, at, value);
}

/* Walks words (n of them), adding to *r. */
static void walk_aligned(const uint32_t *w, size_t n, aligned_report *r) {
  uint32_t bound = n > 3 ? w[3] : 0;
  uint32_t *ptr_class = calloc(bound + 1, sizeof *ptr_class); /* pointer type id -> storage class + 1 */
  uint32_t *type_of = calloc(bound + 1, sizeof *type_of);     /* id -> its result type */
  if (!ptr_class || !type_of) {
    free(ptr_class), free(type_of);
    r->unknown++;
    return;
  }
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    if (op == SpvOpTypePointer && len >= 4 && w[i + 1] <= bound) ptr_class[w[i + 1]] = w[i + 2] + 1;
    if (op == SpvOpTypeForwardPointer && len >= 3 && w[i + 1] <= bound) ptr_class[w[i + 1]] = w[i + 2] + 1;
    if (makes_pointer(op) && len >= 3 && w[i + 2] <= bound) type_of[w[i + 2]] = w[i + 1];
  }
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    const access_form *f = NULL;
    for (size_t k = 0; k < sizeof FORMS / sizeof FORMS[0] && !f; k++)
      if (FORMS[k].opcode == op) f = &FORMS[k];
    if (!f || len <= f->ptr) continue;
    bool physical = false, known = true;
    for (int p = 0; p < 2; p++) {
      uint32_t at = p ? f->ptr2 : f->ptr;
      if (!at || at >= len) continue;
      uint32_t id = w[i + at], t = id <= bound ? type_of[id] : 0;
      uint32_t sc = t && t <= bound ? ptr_class[t] : 0;
      if (!sc) known = false;
      else if (sc - 1 == SpvStorageClassPhysicalStorageBuffer) physical = true;
    }
    if (!known) {
      r->unknown++;
      report(r, "%s at word %zu: the pointer's type is unknown (id %u)", f->name, i, w[i + f->ptr]);
      continue;
    }
    if (!physical) continue;
    r->accesses++;
    uint32_t mask = len > f->mask ? w[i + f->mask] : 0;
    if (!(mask & SpvMemoryAccessAlignedMask)) {
      r->missing++;
      report(r, "%s at word %zu through a PhysicalStorageBuffer pointer has no Aligned (mask 0x%x)", f->name, i, mask);
      continue;
    }
    /* the literal follows the mask (Volatile has none: Aligned's comes first) */
    uint32_t a = len > f->mask + 1 ? w[i + f->mask + 1] : 0;
    if (!a || (a & (a - 1))) {
      r->missing++;
      report(r, "%s at word %zu: Aligned %u is not a power of two", f->name, i, a);
    }
  }
  free(ptr_class);
  free(type_of);
}

/* ---------------------------------------------------------- the kernels ---- */

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

enum { MAX_PLANS = 96 };

/* Every GEMM plan of d on caps, every kernel of it (split-K: the partials and the
 * reduction) emitted and walked; returns the kernels walked, and counts the reduction
 * kernels in *reductions. */
static uint32_t pack_kernels; /* pack kernels walked (packed operands) */

static uint32_t walk_gemm(const spvgen_gemm_desc *d, const spvgen_device_caps *caps, const char *what,
                          aligned_report *total, uint32_t *reductions) {
  static spvgen_gemm_config plans[MAX_PLANS];
  uint32_t count = 0, walked = 0;
  char msg[512];
  if (spvgen_gemm_plans(d, caps, plans, MAX_PLANS, &count, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s on %s: %s", what, caps->name, msg);
    return 0;
  }
  if (count > MAX_PLANS) count = MAX_PLANS;
  spvgen_module *m = spvgen_module_create(NULL);
  for (uint32_t i = 0; i < count && m; i++) {
    const uint32_t kernels = spvgen_gemm_kernel_count(&plans[i]);
    const bool packed = plans[i].desc.pack != SPVGEN_GEMM_PACK_NONE;
    CHECK_MSG(kernels == 1u + (plans[i].desc.split_k > 1) + packed, "%s [%s]: %u kernels", what, plans[i].name,
              kernels);
    for (uint32_t j = 0; j < kernels; j++) {
      spvgen_module_reset(m, &(spvgen_module_desc){.addressing = spvgen_gemm_addressing_model(&plans[i])});
      const uint32_t *w = NULL;
      size_t n = 0;
      spvgen_status st = spvgen_gemm_emit_kernel(m, &plans[i], spvgen_gemm_kernel_at(&plans[i], j), NULL);
      if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &n);
      CHECK_MSG(st == SPVGEN_OK, "%s [%s] kernel %u: %s", what, plans[i].name, j, spvgen_module_error(m));
      if (st != SPVGEN_OK) continue;
      aligned_report r;
      memset(&r, 0, sizeof r);
      walk_aligned(w, n, &r);
      CHECK_MSG(r.missing == 0 && r.unknown == 0, "%s [%s] kernel %u: %u of %u accesses without Aligned, %u unknown; %s",
                what, plans[i].name, j, r.missing, r.accesses, r.unknown, r.first);
      CHECK_MSG(r.accesses > 0, "%s [%s] kernel %u: no access through a PhysicalStorageBuffer pointer", what,
                plans[i].name, j);
      total->accesses += r.accesses;
      walked++;
      *reductions += spvgen_gemm_kernel_at(&plans[i], j) == SPVGEN_GEMM_KERNEL_REDUCE;
      pack_kernels += spvgen_gemm_kernel_at(&plans[i], j) == SPVGEN_GEMM_KERNEL_PACK;
    }
  }
  spvgen_module_destroy(m);
  return walked;
}

static spvgen_gemm_desc gemm(uint32_t m, uint32_t n, uint32_t k, spvgen_component_type ab, spvgen_component_type acc,
                             spvgen_component_type out) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = ab;
  d.acc_type = acc;
  d.out_type = out;
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  return d;
}

/* Every variant's GEMM kernels with device addresses: the plain epilogue (khr's fragment
 * store of D), the conversion-only one, C, bias and activations, both layouts of every
 * operand, batches (coopmat2's flat and 3-D tensors), split-K (its workspace and the
 * element-wise sum), the masked K edge, stages 2, run-time shapes; 8- and 16-bit inputs. */
static void test_gemm_device_address_accesses_are_aligned(void) {
  const spvgen_device_caps h100 = preset("h100"), lavapipe = preset("lavapipe");
  aligned_report total;
  memset(&total, 0, sizeof total);
  uint32_t plans = 0, reductions = 0;
  spvgen_gemm_desc d;
  for (int c = 0; c < 2; c++) {
    const spvgen_device_caps *caps = c ? &lavapipe : &h100;
    d = gemm(256, 256, 256, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    plans += walk_gemm(&d, caps, "plain f16->f32", &total, &reductions);
    d = gemm(256, 256, 256, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16);
    plans += walk_gemm(&d, caps, "plain f16->f16", &total, &reductions);
    d = gemm(512, 256, 128, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.d_layout = SPVGEN_COL_MAJOR;
    plans += walk_gemm(&d, caps, "convert-only, D column-major", &total, &reductions);
    d = gemm(97, 131, 67, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.beta = 0.5f, d.alpha = 1.5f, d.bias = SPVGEN_GEMM_BIAS_ROW, d.activation = SPVGEN_ACTIVATION_GELU;
    d.a_layout = d.b_layout = d.c_layout = SPVGEN_COL_MAJOR;
    plans += walk_gemm(&d, caps, "epilogue, column-major", &total, &reductions);
    d = gemm(300, 200, 100, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32);
    d.batch = 3, d.bias = SPVGEN_GEMM_BIAS_COLUMN, d.activation = SPVGEN_ACTIVATION_RELU;
    plans += walk_gemm(&d, caps, "s8 batches", &total, &reductions);
    d = gemm(128, 128, 128, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    d.batch = 2, d.stride_a = 128 * 128 + 4; /* coopmat2: a 3-D tensor (batches 8 bytes off) */
    plans += walk_gemm(&d, caps, "unaligned batches", &total, &reductions);
    d = gemm(64, 96, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    d.beta = 0.25f, d.bias = SPVGEN_GEMM_BIAS_ROW; /* plans add split-K (grid under two waves) */
    plans += walk_gemm(&d, caps, "split-K", &total, &reductions);
    d = gemm(100, 100, 1000, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    d.codegen = SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE;
    plans += walk_gemm(&d, caps, "masked K edge", &total, &reductions);
    d = gemm(0, 0, 0, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.beta = 1.0f, d.bias = SPVGEN_GEMM_BIAS_COLUMN, d.ld_multiple = 8, d.b_layout = SPVGEN_COL_MAJOR;
    plans += walk_gemm(&d, caps, "run-time shapes", &total, &reductions);
    d = gemm(0, 0, 0, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    d.split_k = 3;
    plans += walk_gemm(&d, caps, "run-time split-K", &total, &reductions);
    d = gemm(0, 0, 0, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.split_k = 2, d.beta = 0.5f, d.c_layout = d.d_layout = SPVGEN_COL_MAJOR;
    plans += walk_gemm(&d, caps, "run-time split-K, C and D column-major", &total, &reductions);
  }
  d = gemm(4096, 4096, 4096, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
  d.variant = SPVGEN_GEMM_COOPMAT2, d.stages = 2, d.tile_m = d.tile_n = 128, d.tile_k = 64;
  plans += walk_gemm(&d, &h100, "stages 2", &total, &reductions);
  d = gemm(256, 256, 256, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_BF16);
  plans += walk_gemm(&d, &h100, "bf16", &total, &reductions);
  /* packed operands: the pack kernel and the main kernel reading the copies (both
   * variants that pack), fixed and run-time, with split-K */
  for (int c = 0; c < 2; c++) {
    const spvgen_device_caps *caps = c ? &lavapipe : &h100;
    d = gemm(97, 131, 67, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.pack = SPVGEN_GEMM_PACK_AB, d.batch = 2, d.lda = 71, d.b_layout = SPVGEN_COL_MAJOR, d.beta = 0.5f;
    plans += walk_gemm(&d, caps, "pack ab", &total, &reductions);
    d = gemm(300, 200, 100, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32);
    d.pack = SPVGEN_GEMM_PACK_A, d.a_layout = SPVGEN_COL_MAJOR;
    plans += walk_gemm(&d, caps, "pack a, s8", &total, &reductions);
    d = gemm(0, 0, 0, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    d.pack = SPVGEN_GEMM_PACK_B, d.split_k = 2;
    plans += walk_gemm(&d, caps, "run-time pack b, split-K", &total, &reductions);
    d = gemm(0, 0, 0, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16);
    d.pack = SPVGEN_GEMM_PACK_AB, d.bias = SPVGEN_GEMM_BIAS_ROW;
    plans += walk_gemm(&d, caps, "run-time pack ab", &total, &reductions);
  }
  printf("gemm: %u device-address kernels (%u split-K reductions), %u accesses through PhysicalStorageBuffer "
         "pointers, all Aligned\n", plans, reductions, total.accesses);
  CHECK(plans >= 100);
  CHECK(reductions >= 4); /* split-K's reduction kernels were walked (fixed and run-time, both presets) */
  printf("gemm: %u pack kernels walked\n", pack_kernels);
  CHECK(pack_kernels >= 8); /* every packed desc, both presets */
}

/* Every MLP plan of d on caps (device addresses), walked. */
static uint32_t walk_mlp(const spvgen_mlp_desc *d, const spvgen_device_caps *caps, const char *what,
                         aligned_report *total) {
  static spvgen_mlp_config plans[MAX_PLANS];
  uint32_t count = 0, walked = 0;
  char msg[512];
  if (spvgen_mlp_plans(d, caps, plans, MAX_PLANS, &count, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s on %s: %s", what, caps->name, msg);
    return 0;
  }
  if (count > MAX_PLANS) count = MAX_PLANS;
  spvgen_module *m = spvgen_module_create(NULL);
  for (uint32_t i = 0; i < count && m; i++) {
    spvgen_module_reset(m, &(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plans[i])});
    const uint32_t *w = NULL;
    size_t n = 0;
    spvgen_status st = spvgen_mlp_emit(m, &plans[i], NULL);
    if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &n);
    CHECK_MSG(st == SPVGEN_OK, "%s [%s]: %s", what, plans[i].name, spvgen_module_error(m));
    if (st != SPVGEN_OK) continue;
    aligned_report r;
    memset(&r, 0, sizeof r);
    walk_aligned(w, n, &r);
    CHECK_MSG(r.missing == 0 && r.unknown == 0, "%s [%s]: %u of %u accesses without Aligned, %u unknown; %s", what,
              plans[i].name, r.missing, r.accesses, r.unknown, r.first);
    CHECK_MSG(r.accesses > 0, "%s [%s]: no access through a PhysicalStorageBuffer pointer", what, plans[i].name);
    total->accesses += r.accesses;
    walked++;
  }
  spvgen_module_destroy(m);
  return walked;
}

static spvgen_mlp_desc net(uint32_t in, uint32_t width, uint32_t count, uint32_t out) {
  spvgen_mlp_desc d = test_mlp_net(in, width, count, out, SPVGEN_MLP_ACT_DEFAULT);
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  return d;
}

/* The MLP's device-address kernels (vec, mat and loop; every plan of each net): f16 and
 * f32 points, encodings (frequency, one-blob, the hash grid), int8 and optimal-layout
 * weights, f16 accumulation, the rows arrangement, several points per workgroup. */
static void test_mlp_device_address_accesses_are_aligned(void) {
  const spvgen_device_caps h100 = preset("h100"), lavapipe = preset("lavapipe");
  aligned_report total;
  memset(&total, 0, sizeof total);
  uint32_t plans = 0;
  for (int c = 0; c < 2; c++) {
    const spvgen_device_caps *caps = c ? &lavapipe : &h100;
    spvgen_mlp_desc d = net(32, 64, 4, 16);
    plans += walk_mlp(&d, caps, "anchor", &total);
    d = net(3, 128, 2, 4), d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, d.encoding_size = 4;
    plans += walk_mlp(&d, caps, "frequency", &total);
    d = net(2, 64, 2, 3), d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
    plans += walk_mlp(&d, caps, "hash grid", &total);
    d = net(5, 33, 3, 7), d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    plans += walk_mlp(&d, caps, "f32 points", &total);
    d = net(4, 32, 2, 16), d.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB, d.encoding_size = 8;
    d.activation = SPVGEN_MLP_ACT_TANH, d.no_bias = true;
    plans += walk_mlp(&d, caps, "one-blob", &total);
  }
  spvgen_mlp_desc d = net(32, 64, 3, 16);
  d.variant = SPVGEN_MLP_VEC, d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  plans += walk_mlp(&d, &h100, "vec optimal", &total);
  d = net(32, 64, 2, 16);
  d.variant = SPVGEN_MLP_VEC, d.weight_type = SPVGEN_COMPONENT_S8, d.input_type = SPVGEN_COMPONENT_F32;
  plans += walk_mlp(&d, &h100, "vec int8", &total);
  d = net(32, 64, 3, 16);
  d.variant = SPVGEN_MLP_VEC, d.points_per_group = 4;
  plans += walk_mlp(&d, &h100, "vec 4 points", &total);
  d = net(32, 64, 3, 16);
  d.variant = SPVGEN_MLP_MAT, d.f16_accumulation = true;
  plans += walk_mlp(&d, &h100, "mat f16 accumulation", &total);
  d = net(32, 64, 2, 16);
  d.variant = SPVGEN_MLP_MAT, d.mat_rows = true;
  plans += walk_mlp(&d, &h100, "mat rows", &total);
  printf("mlp: %u device-address kernels, %u accesses through PhysicalStorageBuffer pointers, all Aligned\n", plans,
         total.accesses);
  CHECK(plans >= 20);
}

/* The training kernels of d (gradient and optimizer, device addresses), walked. */
static uint32_t walk_train(const spvgen_mlp_train_desc *d, const spvgen_device_caps *caps, const char *what,
                           aligned_report *total) {
  uint32_t walked = 0;
  for (int which = 0; which < 2; which++) {
    char msg[512];
    spvgen_kernel k;
    spvgen_status st = spvgen_mlp_train(d, caps, (spvgen_mlp_train_kernel)which, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s %s on %s: %s", what, which ? "optimizer" : "gradient", caps->name, msg);
    if (st != SPVGEN_OK || !k.words) continue;
    aligned_report r;
    memset(&r, 0, sizeof r);
    walk_aligned(k.words, k.word_count, &r);
    CHECK_MSG(r.missing == 0 && r.unknown == 0, "%s %s: %u of %u accesses without Aligned, %u unknown; %s", what,
              which ? "optimizer" : "gradient", r.missing, r.accesses, r.unknown, r.first);
    CHECK_MSG(r.accesses > 0, "%s %s: no access through a PhysicalStorageBuffer pointer", what,
              which ? "optimizer" : "gradient");
    total->accesses += r.accesses;
    walked++;
    spvgen_kernel_free(&k);
  }
  return walked;
}

/* The MLP's device-address training kernels: loop, vec and mat, gradient and optimizer,
 * Adam and SGD, L2 and relative L2, encodings (the hash grid's table gradient), f32
 * points, mat's slot-adding form. */
static void test_mlp_training_device_address_accesses_are_aligned(void) {
  const spvgen_device_caps h100 = preset("h100"), lavapipe = preset("lavapipe");
  aligned_report total;
  memset(&total, 0, sizeof total);
  uint32_t kernels = 0;
  static const spvgen_mlp_variant vs[3] = {SPVGEN_MLP_LOOP, SPVGEN_MLP_VEC, SPVGEN_MLP_MAT};
  for (int c = 0; c < 2; c++)
    for (int v = 0; v < 3; v++) {
      if (c && vs[v] != SPVGEN_MLP_LOOP) continue; /* lavapipe: no cooperative features */
      const spvgen_device_caps *caps = c ? &lavapipe : &h100;
      spvgen_mlp_train_desc t;
      memset(&t, 0, sizeof t);
      t.net = net(32, 64, 3, 16);
      t.net.variant = vs[v];
      kernels += walk_train(&t, caps, "anchor adam", &total);
      t.optimizer = SPVGEN_MLP_OPTIMIZER_SGD, t.loss = SPVGEN_MLP_LOSS_RELATIVE_L2, t.weight_decay = 0.01f;
      kernels += walk_train(&t, caps, "sgd rel-l2", &total);
      if (vs[v] != SPVGEN_MLP_VEC) { /* the hash grid trains on loop and mat */
        memset(&t, 0, sizeof t);
        t.net = net(2, 64, 2, 3), t.net.encoding = SPVGEN_MLP_ENCODING_HASH_GRID, t.net.variant = vs[v];
        kernels += walk_train(&t, caps, "hash grid", &total);
      }
      memset(&t, 0, sizeof t);
      t.net = net(3, 64, 2, 4), t.net.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, t.net.encoding_size = 4;
      t.net.input_type = SPVGEN_COMPONENT_F32, t.net.variant = vs[v];
      t.grad_slot_adds = vs[v] == SPVGEN_MLP_MAT;
      kernels += walk_train(&t, caps, "frequency f32", &total);
    }
  printf("mlp training: %u device-address kernels, %u accesses through PhysicalStorageBuffer pointers, all Aligned\n",
         kernels, total.accesses);
  CHECK(kernels >= 24);
}

/* ------------------------------------------------------- the walk can fail ---- */

/* A module of two PhysicalStorageBuffer accesses, one store without Aligned (the raw
 * emitter takes the operands as given): the walk counts both and flags the store. And
 * the operand present: nothing flagged. */
static void test_a_missing_aligned_is_found(void) {
  for (int with = 0; with < 2; with++) {
    spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = SpvAddressingModelPhysicalStorageBuffer64});
    uint32_t u32 = spvgen_type_int(m, 32, false);
    uint32_t rta = spvgen_type_runtime_array_strided(m, u32, 4);
    uint32_t st = spvgen_type_struct(m, &rta, 1);
    spvgen_decorate(m, st, SpvDecorationBlock);
    spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
    uint32_t pst = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, st);
    spvgen_push_constant_block pc = spvgen_push_constants(m, &pst, 1);
    uint32_t pe = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, u32);
    spvgen_compute_main(m, "main", 1, 1, 1);
    uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1);
    uint32_t base = spvgen_load(m, pst, spvgen_access_chain(m, pc.member_pointer_types[0], pc.variable, &zero, 1));
    uint32_t idx[2] = {zero, zero};
    uint32_t at0 = spvgen_access_chain(m, pe, base, idx, 2);
    uint32_t v = spvgen_load(m, u32, at0); /* Aligned 4, added by spvgen_load */
    idx[1] = one;
    static const uint32_t four = 4;
    spvgen_op_store(m, spvgen_access_chain(m, pe, base, idx, 2), v, with ? SpvMemoryAccessAlignedMask : 0,
                    with ? &four : NULL, with ? 1 : 0);
    spvgen_function_end(m);
    const uint32_t *w = NULL;
    size_t n = 0;
    CHECK_MSG(spvgen_module_finish(m, &w, &n) == SPVGEN_OK, "%s", spvgen_module_error(m));
    aligned_report r;
    memset(&r, 0, sizeof r);
    walk_aligned(w, n, &r);
    CHECK_EQ_U64(r.unknown, 0);
    CHECK_EQ_U64(r.accesses, 2); /* the pointer's own load from the push constants is not one */
    CHECK_EQ_U64(r.missing, with ? 0 : 1);
    if (!with) CHECK_CONTAINS(r.first, "OpStore at word");
    spvgen_module_destroy(m);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_a_missing_aligned_is_found),
      TEST_CASE(test_gemm_device_address_accesses_are_aligned),
      TEST_CASE(test_mlp_device_address_accesses_are_aligned),
      TEST_CASE(test_mlp_training_device_address_accesses_are_aligned),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
