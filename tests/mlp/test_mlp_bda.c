/* tests/mlp/test_mlp_bda.c — the MLP's device-address form (desc.addressing
 * SPVGEN_ADDRESSING_DEVICE_ADDRESS; the loop, vec and mat variants): input, weights and
 * output as PhysicalStorageBuffer64 pointers after the point count in the push
 * constants, each workgroup moving the input and output pointers to its first point in
 * 64 bits. The modules validate for a spread of networks of every variant, the info says
 * where each pointer goes and how aligned it must be, every cooperative load and store
 * through a pointer carries Aligned 16, AUTO picks the variant it picks with
 * descriptors; the loop kernels, and the mat kernels in their emulation (lavapipe has no
 * cooperative matrices), run on the test device (lavapipe in CI) against the float64
 * reference of tools/common/mlp_run.c, every output checked, also with the three buffers
 * sub-allocated from one; what cannot take the form (the function shape, a device
 * without bufferDeviceAddress or shaderInt64, a Logical module) refuses it by name.
 * tests/gpu/test_gpu_mlp_bda.c runs vec and mat on the GPU; training in this form:
 * tests/mlp/test_mlp_train_bda.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopmat_emulated.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_run.h"
#include "module_check.h"
#include "mlp_net.h"
#include "spvgen/mlp.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_mlp_desc net(uint32_t in, uint32_t width, uint32_t count, uint32_t out) {
  spvgen_mlp_desc d = test_mlp_net(in, width, count, out, SPVGEN_MLP_ACT_DEFAULT);
  d.output_type = SPVGEN_COMPONENT_F32;
  d.variant = SPVGEN_MLP_LOOP;
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  return d;
}

static bool has_capability(const spvgen_kernel_info *info, uint32_t cap) {
  for (uint32_t i = 0; i < info->capability_count; i++)
    if (info->capabilities[i] == cap) return true;
  return false;
}

/* Networks of every shape the loop variant has (narrow and wide points, the encodings,
 * f16 and f32 points, no bias): valid modules, DEVICE_ADDRESS bindings at 8, 16, 24 of a
 * 32-byte block (4-byte alignment: scalar accesses), bufferDeviceAddress and shaderInt64
 * (the 64-bit pointer moves) listed. */
static void test_modules_validate(void) {
  spvgen_device_caps caps = preset("lavapipe");
  for (int c = 0; c < 5; c++) {
    spvgen_mlp_desc d = net(3, 32, 2, 4);
    if (c == 1) d = net(40, 64, 1, 40), d.input_type = d.output_type = SPVGEN_COMPONENT_F16;
    if (c == 2) d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, d.encoding_size = 4;
    if (c == 3) d = net(2, 16, 2, 3), d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
    if (c == 4) d.no_bias = true, d.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB, d.encoding_size = 8;
    char msg[512];
    spvgen_kernel k;
    CHECK_MSG(spvgen_mlp(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "case %d: %s", c, msg);
    if (!k.words) continue;
    CHECK_MSG(check_words(k.words, k.word_count), "case %d", c);
    CHECK_EQ_U64(k.info.push_constant_size, 32);
    CHECK_EQ_U64(k.info.binding_count, 3);
    for (uint32_t b = 0; b < 3; b++) {
      CHECK_EQ_U64(k.info.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
      CHECK_EQ_U64(k.info.bindings[b].address_offset, 8 + 8 * b);
      CHECK_EQ_U64(k.info.bindings[b].alignment, 0);
    }
    CHECK_STR_EQ(k.info.bindings[1].name, "weights");
    CHECK(k.info.bindings[1].min_size > 0);
    CHECK(k.info.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
    CHECK(k.info.features & SPVGEN_FEATURE_INT64);
    CHECK(has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
    CHECK(has_capability(&k.info, SpvCapabilityInt64));
    spvgen_kernel_free(&k);
  }
  /* the default stays descriptors */
  spvgen_mlp_desc d = net(3, 32, 2, 4);
  d.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  char msg[512];
  spvgen_kernel k;
  CHECK_MSG(spvgen_mlp(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(k.info.bindings[0].kind, SPVGEN_BINDING_STORAGE_BUFFER);
  CHECK_EQ_U64(k.info.push_constant_size, 4);
  CHECK(!has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
  spvgen_kernel_free(&k);
  char key[1024];
  CHECK(spvgen_tune_mlp_key(&d, &caps, 1000, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!strstr(key, "addressing"));
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  CHECK(spvgen_tune_mlp_key(&d, &caps, 1000, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(strstr(key, " addressing=device-address") != NULL);
}

/* The ids of the disassembly's pointers into PhysicalStorageBuffer (results whose type
 * is such a pointer type); then every cooperative load and store (vectors and matrices)
 * whose pointer is one of them must carry "Aligned 16". Returns how many there are, or
 * -1 (the test failed, naming the line) at one without it. */
static int psb_coop_accesses(const char *text) {
  enum { MAX_IDS = 4096 };
  static char types[64][96], ids[MAX_IDS][96];
  int nt = 0, ni = 0, count = 0;
  char line[1024];
  for (const char *at = text; *at;) {
    const char *nl = strchr(at, '\n');
    size_t len = nl ? (size_t)(nl - at) : strlen(at);
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, at, len);
    line[len] = 0;
    at = nl ? nl + 1 : at + len;
    char res[96] = "", op[64] = "", a1[96] = "", a2[96] = "";
    const char *l = line;
    while (*l == ' ') l++;
    if (sscanf(l, "%95s = %63s %95s %95s", res, op, a1, a2) >= 3 && res[0] == '%') {
      if (!strcmp(op, "OpTypePointer") && !strcmp(a1, "PhysicalStorageBuffer")) {
        if (nt < 64) snprintf(types[nt++], sizeof types[0], "%s", res);
        continue;
      }
      bool psb_type = false;
      for (int t = 0; t < nt && !psb_type; t++) psb_type = !strcmp(a1, types[t]);
      if (psb_type && ni < MAX_IDS) snprintf(ids[ni++], sizeof ids[0], "%s", res);
      if (strcmp(op, "OpCooperativeVectorLoadNV") && strcmp(op, "OpCooperativeMatrixLoadKHR")) continue;
      /* the pointer follows the result type */
    } else if (sscanf(l, "%63s %95s", op, a2) == 2 && op[0] == 'O') {
      if (strcmp(op, "OpCooperativeVectorStoreNV") && strcmp(op, "OpCooperativeMatrixStoreKHR")) continue;
    } else {
      continue;
    }
    bool psb = false;
    for (int i = 0; i < ni && !psb; i++) psb = !strcmp(a2, ids[i]);
    if (!psb) continue;
    count++;
    if (!strstr(l, "Aligned 16")) {
      test_fail_at(__FILE__, __LINE__, "a cooperative access through a device address without Aligned 16: %s", l);
      return -1;
    }
  }
  return count;
}

/* What a cooperative form must say of each pointer's alignment (independent of the
 * emitter's rule: the specs' 16-byte pointers of cooperative and 16-byte accesses, the
 * coop-vector matrices' 64). */
static uint32_t expected_alignment(const spvgen_mlp_config *p, uint32_t b) {
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t in_row = d->input_width * (uint32_t)spvgen_component_type_size(d->input_type);
  const uint32_t out_row = d->output_width * (uint32_t)spvgen_component_type_size(d->output_type);
  if (p->variant == SPVGEN_MLP_VEC) return b == 1 ? 64 : (b == 0 ? in_row : out_row) % 16 == 0 ? 16 : 0;
  if (p->variant == SPVGEN_MLP_MAT) {
    if (b == 1) return 16;
    if (b == 0)
      return d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_type == SPVGEN_COMPONENT_F16 && d->input_width % 8 == 0
                 ? 16 : 0;
    return d->output_width % 16 == 0 ? 16 : 0;
  }
  return 0;
}

/* The vec and mat forms over a spread of networks (widths 16-256, depths 1-4, the
 * activations, every encoding with the hash grid, f16 and f32 points, no bias; vec's
 * knobs: vec_rows, vec_stage, layer_loop, the optimal layout, float8 and int8 weights,
 * points per invocation; mat's rows arrangement and f16 accumulation) on the h100
 * preset: valid modules (spirv-val, Vulkan 1.3), the pointers where the info says, the
 * alignments each needs, bufferDeviceAddress + shaderInt64 listed, every cooperative
 * access through a pointer Aligned 16 (and there are some: the weights at least). */
static void test_cooperative_forms_validate(void) {
  spvgen_device_caps caps = preset("h100");
  static const struct {
    spvgen_mlp_variant v;
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    spvgen_mlp_encoding enc;
    bool f32_io, no_bias;
    int knob; /* vec: 1 vec_rows 32, 2 vec_stage, 3 layer_loop, 4 optimal, 5 e4m3, 6 s8, 7 ppi 4;
                 mat: 1 mat_rows, 2 f16 accumulation, 3 points_per_group 32 */
  } cases[] = {
      {SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 0},
      {SPVGEN_MLP_VEC, 16, 16, 1, 16, SPVGEN_MLP_ACT_SILU, 0, false, false, 0},
      {SPVGEN_MLP_VEC, 3, 128, 2, 4, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ENCODING_FREQUENCY, true, false, 0},
      {SPVGEN_MLP_VEC, 2, 64, 2, 3, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_HASH_GRID, true, false, 0},
      {SPVGEN_MLP_VEC, 4, 256, 1, 8, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ENCODING_ONE_BLOB, false, true, 0},
      {SPVGEN_MLP_VEC, 32, 128, 3, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 1},
      {SPVGEN_MLP_VEC, 32, 64, 2, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 2},
      {SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ACT_SILU, 0, false, false, 3},
      {SPVGEN_MLP_VEC, 32, 64, 3, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 4},
      {SPVGEN_MLP_VEC, 32, 64, 3, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 5},
      {SPVGEN_MLP_VEC, 32, 64, 2, 16, SPVGEN_MLP_ACT_RELU, 0, true, false, 6},
      {SPVGEN_MLP_VEC, 64, 32, 2, 32, SPVGEN_MLP_ACT_TANH, 0, true, false, 7},
      {SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 0},
      {SPVGEN_MLP_MAT, 16, 16, 1, 16, SPVGEN_MLP_ACT_SILU, 0, false, false, 0},
      {SPVGEN_MLP_MAT, 3, 128, 2, 4, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ENCODING_FREQUENCY, true, false, 0},
      {SPVGEN_MLP_MAT, 3, 64, 2, 4, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ENCODING_HASH_GRID, false, false, 0},
      {SPVGEN_MLP_MAT, 5, 256, 2, 32, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_ONE_BLOB, false, true, 0},
      {SPVGEN_MLP_MAT, 8, 33, 3, 8, SPVGEN_MLP_ACT_LEAKY_RELU, 0, false, false, 0},
      {SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, 0, false, false, 1},
      {SPVGEN_MLP_MAT, 32, 128, 2, 16, SPVGEN_MLP_ACT_SILU, 0, true, false, 2},
      {SPVGEN_MLP_MAT, 24, 64, 3, 48, SPVGEN_MLP_ACT_RELU, 0, false, false, 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_mlp_desc d = net(cases[i].in, cases[i].width, cases[i].count, cases[i].out);
    d.variant = cases[i].v;
    d.activation = cases[i].act;
    d.encoding = cases[i].enc;
    if (d.encoding == SPVGEN_MLP_ENCODING_FREQUENCY) d.encoding_size = 4;
    if (d.encoding == SPVGEN_MLP_ENCODING_ONE_BLOB) d.encoding_size = 8;
    d.no_bias = cases[i].no_bias;
    d.input_type = d.output_type = cases[i].f32_io ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_F16;
    const int knob = cases[i].knob;
    if (d.variant == SPVGEN_MLP_VEC) {
      if (knob == 1) d.vec_rows = 32;
      if (knob == 2) d.vec_stage = true;
      if (knob == 3) d.layer_loop = true;
      if (knob == 4 || knob == 5) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      if (knob == 5) d.weight_type = SPVGEN_COMPONENT_E4M3;
      if (knob == 6) d.weight_type = SPVGEN_COMPONENT_S8;
      if (knob == 7) d.points_per_group = 4;
    } else {
      if (knob == 1) d.mat_rows = true;
      if (knob == 2) d.f16_accumulation = true;
      if (knob == 3) d.points_per_group = 32;
    }
    char msg[512];
    spvgen_mlp_config plan;
    CHECK_MSG(spvgen_mlp_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "case %zu: %s", i, msg);
    if (test_current_failed) continue;
    CHECK_EQ_U64(plan.variant, cases[i].v);
    CHECK(plan.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
    CHECK(plan.features & SPVGEN_FEATURE_INT64);
    spvgen_kernel k;
    CHECK_MSG(spvgen_mlp(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "case %zu [%s]: %s", i, plan.name, msg);
    if (!k.words) continue;
    CHECK_MSG(check_words(k.words, k.word_count), "case %zu [%s]", i, plan.name);
    CHECK_EQ_U64(k.info.push_constant_size, 32);
    CHECK_EQ_U64(k.info.binding_count, 3);
    for (uint32_t b = 0; b < 3; b++) {
      CHECK_EQ_U64(k.info.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
      CHECK_EQ_U64(k.info.bindings[b].address_offset, 8 + 8 * b);
      CHECK_MSG(k.info.bindings[b].alignment == expected_alignment(&plan, b), "case %zu [%s] binding %u: alignment %u",
                i, plan.name, b, k.info.bindings[b].alignment);
    }
    CHECK(has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
    CHECK(has_capability(&k.info, SpvCapabilityInt64));
    char *text = check_disassemble(k.words, k.word_count);
    if (text) {
      int n = psb_coop_accesses(text);
      /* points loaded or stored whole (vec), fragment stores of the output or 16-byte
       * input chunks (mat): some cooperative access goes through a pointer */
      const bool some = plan.variant == SPVGEN_MLP_VEC
                            ? expected_alignment(&plan, 0) == 16 || expected_alignment(&plan, 2) == 16
                            : d.output_width % 16 == 0;
      CHECK_MSG(n >= (some ? 1 : 0), "case %zu [%s]: %d cooperative accesses through a pointer", i, plan.name, n);
      free(text);
    }
    spvgen_kernel_free(&k);
  }
}

/* AUTO with device addresses plans the variant (and the knobs) that it plans with
 * descriptors, on the h100 preset (vec, mat and loop networks, the optimal layout and
 * 8-bit weights) and on lavapipe (loop). */
static void test_auto_plans_as_with_descriptors(void) {
  const char *presets[] = {"h100", "lavapipe"};
  for (int c = 0; c < 2; c++) {
    spvgen_device_caps caps = preset(presets[c]);
    for (int i = 0; i < 8; i++) {
      spvgen_mlp_desc d = net(32, 64, 4, 16);
      d.input_type = d.output_type = SPVGEN_COMPONENT_F16;
      if (i == 1) d = net(3, 128, 3, 4), d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, d.encoding_size = 6;
      if (i == 2) d = net(2, 64, 2, 3), d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
      if (i == 3) d = net(64, 256, 2, 64);
      if (i == 4) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      if (i == 5) d.weight_type = SPVGEN_COMPONENT_S8;
      if (i == 6) d = net(16, 16, 1, 16);
      if (i == 7) d = net(3, 512, 2, 3);
      d.variant = SPVGEN_MLP_AUTO;
      if (c == 1 && (i == 4 || i == 5)) continue; /* the vec variant's only */
      spvgen_mlp_config with, without;
      char msg[512];
      CHECK_MSG(spvgen_mlp_plan(&d, &caps, &with, msg, sizeof msg) == SPVGEN_OK, "%s case %d: %s", presets[c], i, msg);
      d.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
      CHECK_MSG(spvgen_mlp_plan(&d, &caps, &without, msg, sizeof msg) == SPVGEN_OK, "%s case %d: %s", presets[c], i,
                msg);
      if (test_current_failed) return;
      CHECK_MSG(with.variant == without.variant && !strcmp(with.name, without.name),
                "%s case %d: device addresses plan %s, descriptors %s", presets[c], i, with.name, without.name);
      if (c == 0 && i < 6) CHECK_MSG(with.variant != SPVGEN_MLP_LOOP, "h100 case %d: %s", i, with.name);
    }
  }
}

static void test_refusals_name_what_is_wrong(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_mlp_config plan;
  spvgen_mlp_desc d = net(3, 16, 1, 2);
  /* a device without shaderInt64 (the workgroups' 64-bit pointer moves) */
  spvgen_device_caps no64 = h100;
  no64.features &= ~SPVGEN_FEATURE_INT64;
  CHECK(spvgen_mlp_plan(&d, &no64, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "shaderInt64");
  d.variant = SPVGEN_MLP_VEC;
  CHECK(spvgen_mlp_plan(&d, &no64, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "shaderInt64");
  d = net(3, 16, 1, 2);
  d.addressing = (spvgen_addressing)9;
  CHECK(spvgen_mlp_plan(&d, &h100, &plan, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "addressing 9 is not descriptors (0) or device-address (1)");
  /* a device without bufferDeviceAddress */
  spvgen_device_caps no_bda = preset("lavapipe");
  no_bda.features &= ~SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS;
  d = net(3, 16, 1, 2);
  CHECK(spvgen_mlp_plan(&d, &no_bda, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "bufferDeviceAddress");
  /* training takes the form (tests/mlp/test_mlp_train_bda.c), refused where inference is */
  spvgen_mlp_train_desc t;
  memset(&t, 0, sizeof t);
  t.net = net(3, 16, 1, 2);
  spvgen_mlp_train_config tp;
  CHECK(spvgen_mlp_train_plan(&t, &no_bda, &tp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "bufferDeviceAddress");
  /* a Logical module; the function shape */
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(spvgen_mlp_addressing_model(&plan), SpvAddressingModelPhysicalStorageBuffer64);
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_mlp_emit(m, &plan, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "create the module with spvgen_module_desc.addressing");
  spvgen_module_destroy(m);
  m = spvgen_module_create(&(spvgen_module_desc){.addressing = SpvAddressingModelPhysicalStorageBuffer64});
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, &plan, &fi) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(spvgen_module_error(m), "plan with addressing descriptors");
  spvgen_module_destroy(m);
}

/* Through mlp_run (buffers with device addresses, every output of every point checked). */
static void test_runs_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  for (int c = 0; c < 3; c++) {
    spvgen_mlp_desc d = net(3, 32, 3, 4);
    d.activation = SPVGEN_ACTIVATION_SILU;
    if (c == 1) d = net(40, 48, 1, 36), d.input_type = d.output_type = SPVGEN_COMPONENT_F16;
    if (c == 2) d = net(2, 16, 2, 3), d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
    mlp_run_result r;
    char msg[512];
    mlp_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.points = 1000 + 37 * (uint64_t)c;
    spvgen_status st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %d: %s", c, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(r.checked, o.points * d.output_width);
    CHECK_MSG(r.bad == 0, "case %d [%s]: %llu of %llu outputs wrong; first point %llu: gpu %.7g cpu %.7g", c,
              r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
              (unsigned long long)r.first_bad_point, r.first_bad_gpu, r.first_bad_ref);
  }
  spvgen_vk_destroy(ctx);
}

static bool mat_emulated_plan(spvgen_vk_context *ctx, spvgen_mlp_desc d, spvgen_mlp_config *plan) {
  spvgen_device_caps caps = coopmat_emulated_caps(spvgen_vk_caps(ctx), true);
  d.variant = SPVGEN_MLP_MAT;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(&d, &caps, plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  plan->features &= ~SPVGEN_FEATURE_COOPMAT; /* the emulation */
  return st == SPVGEN_OK;
}

/* The mat variant's device-address kernel in its emulation: the block's 64-bit pointer
 * moves, 16-byte input chunks through the moved input's view, direct output fragments
 * and the staged output path, partial last blocks, odd widths, the hash grid; every
 * output of every point checked against the reference. */
static void test_mat_emulated_runs_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  for (int c = 0; c < 4 && !test_current_failed; c++) {
    spvgen_mlp_desc d = net(32, 64, 2, 16);
    d.input_type = d.output_type = SPVGEN_COMPONENT_F16;
    d.points_per_group = 32;
    if (c == 1) d = net(3, 33, 2, 5), d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, d.encoding_size = 3;
    if (c == 2) d = net(2, 16, 2, 3), d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID, d.grid.levels = 4;
    if (c == 3) d = net(16, 32, 1, 32), d.mat_rows = true;
    if (!d.points_per_group && c < 3) d.points_per_group = 16;
    spvgen_mlp_config plan;
    if (!mat_emulated_plan(ctx, d, &plan)) continue;
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.seed = test_rand_u32() | 1u;
    o.points = 75 + 16 * (uint64_t)c;
    mlp_run_result r;
    char msg[512];
    spvgen_status st = mlp_run_plan(ctx, &plan, &o, &r, msg, sizeof msg);
    fprintf(stderr, "  case %d [%s] %.1f ms compile\n", c, plan.name, r.compile_ms);
    CHECK_MSG(st == SPVGEN_OK, "case %d [%s]: %s", c, plan.name, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(r.checked, o.points * d.output_width);
    CHECK_MSG(r.bad == 0, "case %d [%s]: %llu of %llu outputs wrong; first point %llu: gpu %.7g cpu %.7g", c, plan.name,
              (unsigned long long)r.bad, (unsigned long long)r.checked, (unsigned long long)r.first_bad_point,
              r.first_bad_gpu, r.first_bad_ref);
  }
  spvgen_vk_destroy(ctx);
}

/* The plan's kernel (words and info) from the plan itself (the mat emulation's plan
 * cannot come from a desc). */
static bool kernel_of(const spvgen_mlp_config *plan, spvgen_kernel *k) {
  memset(k, 0, sizeof *k);
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(plan)});
  const uint32_t *words = NULL;
  size_t count = 0;
  char msg[512] = "";
  spvgen_status st = spvgen_mlp_emit(m, plan, &k->info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  CHECK_MSG(st == SPVGEN_OK, "[%s]: %s", plan->name, spvgen_module_error(m));
  if (st == SPVGEN_OK) {
    k->words = malloc(count * 4);
    if (k->words) memcpy(k->words, words, count * 4), k->word_count = count;
    st = spvgen_kernel_reflect(k->words, k->word_count, &k->info, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  }
  spvgen_module_destroy(m);
  return st == SPVGEN_OK && k->words;
}

/* Input, weights and output sub-allocated from one buffer at non-zero offsets (output
 * once by its raw address), recorded with only the 4-byte point count as push data;
 * every output checked, the bytes after the output untouched; a short weight range is
 * refused by name. The loop variant, and the mat variant's emulation (16-byte
 * alignments: its offsets are multiples of 256). */
static void suballocated(int variant) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  spvgen_mlp_desc d = net(3, 32, 2, 5);
  if (variant) d = net(16, 32, 2, 16), d.input_type = SPVGEN_COMPONENT_F16, d.points_per_group = 32;
  const uint32_t iw = d.input_width, ow = d.output_width;
  spvgen_mlp_config plan;
  spvgen_kernel k;
  memset(&k, 0, sizeof k);
  spvgen_vk_buffer *big = NULL;
  spvgen_vk_pipeline *p = NULL;
  mlp_run_data data;
  memset(&data, 0, sizeof data);
  char msg[512];
  const uint32_t n = 777;
  if (variant) {
    if (!mat_emulated_plan(ctx, d, &plan) || !kernel_of(&plan, &k)) goto done;
  } else {
    CHECK_MSG(spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(spvgen_mlp(&d, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  }
  CHECK(mlp_run_make_data(&plan, n, 11, &data));
  const uint64_t in_bytes = (uint64_t)n * iw * spvgen_component_type_size(plan.desc.input_type),
                 out_bytes = (uint64_t)n * ow * 4;
  const uint64_t off_in = 512, off_w = (off_in + in_bytes + 255) & ~255ull,
                 off_out = (off_w + plan.weight_bytes + 255) & ~255ull, total = off_out + out_bytes + 1024;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, total, SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &big));
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, k.words, k.word_count, &k.info, NULL, &p));
  unsigned char *host = spvgen_vk_buffer_map(big);
  memcpy(host + off_in, data.input, in_bytes);
  memcpy(host + off_w, data.weights, plan.weight_bytes);
  uint32_t groups[3];
  spvgen_mlp_groups(&plan, n, groups);
  for (int by_address = 0; by_address < 2; by_address++) {
    float *out = (float *)(host + off_out);
    for (uint64_t i = 0; i < (out_bytes + 1024) / 4; i++) out[i] = NAN;
    spvgen_vk_buffer_range r[3] = {{.buffer = big, .offset = off_in, .range = (in_bytes + 3) & ~3ull},
                                   {.buffer = big, .offset = off_w, .range = plan.weight_bytes},
                                   {.buffer = big, .offset = off_out, .range = out_bytes}};
    if (by_address) r[2] = (spvgen_vk_buffer_range){.address = spvgen_vk_buffer_address(big) + off_out, .range = out_bytes};
    spvgen_vk_record_desc rd = {.pipeline = p, .buffers = r, .buffer_count = 3, .push_data = &n, .push_size = 4,
                                .groups = {groups[0], groups[1], groups[2]}};
    spvgen_vk_submit_desc sd = {.dispatches = &rd, .count = 1};
    uint64_t t = 0;
    VK_CHECK(ctx, spvgen_vk_submit(ctx, &sd, &t));
    VK_CHECK(ctx, spvgen_vk_wait(ctx, t));
    mlp_run_result res;
    memset(&res, 0, sizeof res);
    mlp_run_check(&plan, &data, out, &res);
    CHECK_EQ_U64(res.checked, (uint64_t)n * ow);
    CHECK_MSG(res.bad == 0, "by_address %d: %llu of %llu outputs wrong (gpu %.7g cpu %.7g)", by_address,
              (unsigned long long)res.bad, (unsigned long long)res.checked, res.first_bad_gpu, res.first_bad_ref);
    uint32_t touched = 0;
    for (uint64_t i = out_bytes / 4; i < (out_bytes + 1024) / 4; i++) touched += !isnan(out[i]);
    CHECK_EQ_U64(touched, 0);
    r[1].range = plan.weight_bytes - 4;
    spvgen_status st = spvgen_vk_submit(ctx, &sd, &t);
    CHECK(st == SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "'weights' (device address at push offset 16)");    if (variant) { /* the output's fragment stores want 16-byte alignment: 8 is refused, by name */
      r[1].range = plan.weight_bytes;
      r[2] = (spvgen_vk_buffer_range){.address = spvgen_vk_buffer_address(big) + off_out + 8, .range = out_bytes};
      CHECK(spvgen_vk_submit(ctx, &sd, &t) == SPVGEN_ERROR_INVALID_ARGUMENT);
      CHECK_CONTAINS(spvgen_vk_error(ctx), "is not a multiple of 16");
    }
  }
done:
  mlp_run_free_data(&data);
  spvgen_vk_pipeline_destroy(p);
  spvgen_vk_buffer_destroy(big);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

static void test_suballocated_buffers(void) { suballocated(0); }
static void test_suballocated_buffers_mat_emulated(void) { suballocated(1); }

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_modules_validate),
      TEST_CASE(test_cooperative_forms_validate),
      TEST_CASE(test_auto_plans_as_with_descriptors),
      TEST_CASE(test_refusals_name_what_is_wrong),
      TEST_CASE(test_runs_match_the_reference),
      TEST_CASE(test_mat_emulated_runs_match_the_reference),
      TEST_CASE(test_suballocated_buffers),
      TEST_CASE(test_suballocated_buffers_mat_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
