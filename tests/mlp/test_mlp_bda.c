/* tests/mlp/test_mlp_bda.c — the MLP's device-address form (desc.addressing
 * SPVGEN_ADDRESSING_DEVICE_ADDRESS, the loop variant): input, weights and output as
 * PhysicalStorageBuffer64 pointers after the point count in the push constants. The
 * modules validate, the info says where each pointer goes, the kernels run on the test
 * device (lavapipe in CI) against the float64 reference of tools/common/mlp_run.c, every
 * output checked, also with the three buffers sub-allocated from one, and what cannot
 * take the form (the vec and mat variants, training, the function shape, a device
 * without bufferDeviceAddress, a Logical module) refuses it by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_run.h"
#include "module_check.h"
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
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = in;
  d.hidden_width = width;
  d.hidden_count = count;
  d.output_width = out;
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
 * 32-byte block, bufferDeviceAddress listed. */
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
    }
    CHECK_STR_EQ(k.info.bindings[1].name, "weights");
    CHECK(k.info.bindings[1].min_size > 0);
    CHECK(k.info.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
    CHECK(has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
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

static void test_refusals_name_what_is_wrong(void) {
  spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_mlp_config plan;
  spvgen_mlp_desc d = net(32, 64, 2, 16);
  d.input_type = d.output_type = SPVGEN_COMPONENT_F16;
  d.variant = SPVGEN_MLP_VEC;
  CHECK(spvgen_mlp_plan(&d, &h100, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "the vec variant takes its buffers through descriptors");
  d.variant = SPVGEN_MLP_MAT;
  CHECK(spvgen_mlp_plan(&d, &h100, &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "the mat variant takes its buffers through descriptors");
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
  /* training */
  spvgen_mlp_train_desc t;
  memset(&t, 0, sizeof t);
  t.net = net(3, 16, 1, 2);
  spvgen_mlp_train_config tp;
  CHECK(spvgen_mlp_train_plan(&t, NULL, &tp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "net.addressing device-address: training takes its buffers through descriptors");
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

/* Input, weights and output sub-allocated from one buffer at non-zero offsets (output
 * once by its raw address), recorded with only the 4-byte point count as push data;
 * every output checked, the bytes after the output untouched; a short weight range is
 * refused by name. */
static void test_suballocated_buffers(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  spvgen_mlp_desc d = net(3, 32, 2, 5);
  spvgen_mlp_config plan;
  spvgen_kernel k;
  memset(&k, 0, sizeof k);
  spvgen_vk_buffer *big = NULL;
  spvgen_vk_pipeline *p = NULL;
  mlp_run_data data;
  memset(&data, 0, sizeof data);
  char msg[512];
  const uint32_t n = 777;
  CHECK_MSG(spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_mlp(&d, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(mlp_run_make_data(&plan, n, 11, &data));
  const uint64_t in_bytes = (uint64_t)n * 3 * spvgen_component_type_size(plan.desc.input_type), out_bytes = (uint64_t)n * 5 * 4;
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
    CHECK_EQ_U64(res.checked, (uint64_t)n * 5);
    CHECK_MSG(res.bad == 0, "by_address %d: %llu of %llu outputs wrong (gpu %.7g cpu %.7g)", by_address,
              (unsigned long long)res.bad, (unsigned long long)res.checked, res.first_bad_gpu, res.first_bad_ref);
    uint32_t touched = 0;
    for (uint64_t i = out_bytes / 4; i < (out_bytes + 1024) / 4; i++) touched += !isnan(out[i]);
    CHECK_EQ_U64(touched, 0);
    r[1].range = plan.weight_bytes - 4;
    spvgen_status st = spvgen_vk_submit(ctx, &sd, &t);
    CHECK(st == SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "'weights' (device address at push offset 16)");
  }
done:
  mlp_run_free_data(&data);
  spvgen_vk_pipeline_destroy(p);
  spvgen_vk_buffer_destroy(big);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_modules_validate),
      TEST_CASE(test_refusals_name_what_is_wrong),
      TEST_CASE(test_runs_match_the_reference),
      TEST_CASE(test_suballocated_buffers),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
