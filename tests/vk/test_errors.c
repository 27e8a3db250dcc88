/* tests/vk/test_errors.c — the runner refuses bad input with a status and a message that
 * names the call and what was wrong, before any of it reaches the driver: NULL and zero
 * arguments, out-of-range transfers, malformed words, metadata that disagrees with the
 * module, dispatches with the wrong buffers or push constants, limits, and features the
 * device lacks. Nothing here may crash. */
#include <stdlib.h>
#include <string.h>

#include "vk_fixture.h"

/* A context plus a finished vector-add module (3 f32 buffers, push { uint n }, local 64). */
typedef struct fixture {
  spvgen_vk_context *ctx;
  spvgen_module *m;
  const uint32_t *words;
  size_t count;
} fixture;

static bool fixture_open(fixture *f) {
  memset(f, 0, sizeof *f);
  f->ctx = vk_open(0);
  if (!f->ctx) return false;
  f->m = spvgen_module_create(NULL);
  vk_build_vector_add(f->m, 64);
  f->words = check_module(f->m, &f->count);
  return f->words != NULL;
}

static void fixture_close(fixture *f) {
  spvgen_module_destroy(f->m);
  spvgen_vk_destroy(f->ctx);
}

static spvgen_kernel_info vector_add_info(void) {
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  info.binding_count = 3;
  info.bindings[0] = (spvgen_binding){.set = 0, .binding = 0, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "a"};
  info.bindings[1] = (spvgen_binding){.set = 0, .binding = 1, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "b"};
  info.bindings[2] = (spvgen_binding){.set = 0, .binding = 2, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "c"};
  info.push_constant_size = 4;
  return info;
}

/* A copy of words the test may corrupt. */
static uint32_t *copy_words(const uint32_t *words, size_t count) {
  uint32_t *w = malloc(count * sizeof *w);
  if (w) memcpy(w, words, count * sizeof *w);
  return w;
}

/* ------------------------------------------------------------ arguments ---- */

static void test_null_and_zero_arguments_are_named(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_context *ctx = f.ctx;
  spvgen_vk_buffer *buf = (spvgen_vk_buffer *)&f; /* must come back NULL */
  spvgen_vk_pipeline *pipe = (spvgen_vk_pipeline *)&f;
  char data[16] = {0};
  CHECK_EQ_U64(spvgen_vk_buffer_create(NULL, 16, 0, &buf), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(buf == NULL);
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_create(ctx, 16, 0, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_buffer_create: out is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_create(ctx, 0, 0, &buf), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_buffer_create: size is 0");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_create(ctx, 16, 0x80, &buf),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "unknown flags 0x80");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_upload(ctx, NULL, 0, data, 4),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_buffer_upload: buffer is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_download(ctx, NULL, 0, data, 4),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_buffer_download: buffer is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, NULL, 10, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "words is NULL");
  CHECK(pipe == NULL);
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, 0, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "word_count is 0");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, NULL, NULL, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "out is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_kernel(ctx, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "kernel is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_run(ctx, NULL, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "dispatches is NULL");
  spvgen_vk_dispatch_desc d;
  memset(&d, 0, sizeof d);
  VK_EXPECT_ERROR(ctx, spvgen_vk_run(ctx, &d, 0, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "count is 0");
  VK_EXPECT_ERROR(ctx, spvgen_vk_run(ctx, &d, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "spvgen_vk_run: dispatch 0: pipeline is NULL");
  /* spvgen_vk_dispatch names itself, not spvgen_vk_run which it is built on. */
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, NULL, NULL, 0, NULL, 0, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_dispatch: dispatch 0: pipeline is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_cache_data(ctx, NULL, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "size is NULL");
  /* NULL contexts and objects are harmless everywhere. */
  CHECK_EQ_U64(spvgen_vk_run(NULL, &d, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_vk_coopvec_matrix_size(NULL, NULL, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_EQ(spvgen_vk_error(NULL), "");
  CHECK(spvgen_vk_caps(NULL) == NULL);
  CHECK_EQ_U64(spvgen_vk_buffer_size(NULL) + spvgen_vk_buffer_address(NULL) +
                   spvgen_vk_buffer_handle(NULL),
               0);
  CHECK(spvgen_vk_buffer_map(NULL) == NULL && spvgen_vk_pipeline_info(NULL) == NULL);
  spvgen_vk_buffer_destroy(NULL);
  spvgen_vk_pipeline_destroy(NULL);
  spvgen_vk_destroy(NULL);
  spvgen_vk_handles h;
  spvgen_vk_get_handles(NULL, &h);
  CHECK(h.device == NULL);
  fixture_close(&f);
}

static void test_transfers_outside_the_buffer_are_rejected(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_vk_buffer *buf = NULL;
  char data[64] = {0};
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 32, 0, &buf));
  CHECK_EQ_U64(spvgen_vk_buffer_size(buf), 32);
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_upload(ctx, buf, 16, data, 17),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "range [16, 33) is outside the buffer of 32 bytes");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_download(ctx, buf, ~0ull, data, 1),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "outside the buffer");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_upload(ctx, buf, 0, NULL, 4),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "data is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_fill(ctx, buf, 2, 8, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "must be multiples of 4");
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_fill(ctx, buf, 0, 36, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "outside the buffer");
  /* Zero-byte transfers at the end are fine. */
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, buf, 32, data, 0));
done:
  spvgen_vk_buffer_destroy(buf);
  spvgen_vk_destroy(ctx);
}

static void test_buffer_larger_than_the_device_allows_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint64_t limit = caps->max_buffer_size ? caps->max_buffer_size : caps->max_memory_allocation_size;
  if (!limit) {
    test_skip("the device reports neither maxBufferSize nor maxMemoryAllocationSize");
  } else {
    spvgen_vk_buffer *buf = NULL;
    spvgen_status st = spvgen_vk_buffer_create(ctx, limit + 1, 0, &buf);
    CHECK_EQ_U64(st, SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "exceeds the device's max");
    CHECK(buf == NULL);
  }
  spvgen_vk_destroy(ctx);
}

/* maxMemoryAllocationSize is a soft limit (tried, not refused), but an allocation must
 * fit its memory type's heap: a buffer within maxBufferSize and larger than the largest
 * device-local heap is refused before the driver, naming the heap. */
static void test_buffer_larger_than_its_heap_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  const uint64_t size = caps->device_local_memory + 65536;
  if (!caps->max_buffer_size || !caps->device_local_memory || size > caps->max_buffer_size) {
    test_skip("the device's maxBufferSize (%llu) does not exceed its heap (%llu)",
              (unsigned long long)caps->max_buffer_size, (unsigned long long)caps->device_local_memory);
  } else {
    spvgen_vk_buffer *buf = NULL;
    spvgen_status st = spvgen_vk_buffer_create(ctx, size, 0, &buf);
    CHECK_EQ_U64(st, SPVGEN_ERROR_OUT_OF_MEMORY);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "exceed its heap");
    CHECK(buf == NULL);
  }
  spvgen_vk_destroy(ctx);
}

static void test_objects_of_another_context_are_rejected(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_context *other = vk_open(0);
  spvgen_vk_buffer *foreign = NULL, *bufs[3] = {NULL, NULL, NULL};
  spvgen_vk_pipeline *pipe = NULL;
  if (!other) goto done;
  VK_CHECK(other, spvgen_vk_buffer_create(other, 256, 0, &foreign));
  char data[4] = {0};
  VK_EXPECT_ERROR(f.ctx, spvgen_vk_buffer_upload(f.ctx, foreign, 0, data, 4),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "buffer belongs to another context");
  VK_CHECK(f.ctx, spvgen_vk_pipeline_create(f.ctx, f.words, f.count, NULL, NULL, &pipe));
  for (int i = 0; i < 2; i++) VK_CHECK(f.ctx, spvgen_vk_buffer_create(f.ctx, 256, 0, &bufs[i]));
  bufs[2] = foreign;
  uint32_t n = 64;
  VK_EXPECT_ERROR(f.ctx, spvgen_vk_dispatch(f.ctx, pipe, bufs, 3, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "binding 2 (set 0 binding 2): the buffer belongs to another context");
  VK_EXPECT_ERROR(other, spvgen_vk_dispatch(other, pipe, bufs, 3, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "the pipeline belongs to another context");
  bufs[2] = NULL;
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_buffer_destroy(foreign);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_vk_destroy(other);
  fixture_close(&f);
}

/* ------------------------------------------------------------- modules ---- */

static void test_malformed_words_are_rejected(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_context *ctx = f.ctx;
  spvgen_vk_pipeline *pipe = NULL;
  uint32_t *w = copy_words(f.words, f.count);
  if (!w) goto done;
  static const uint32_t four[4] = {0x07230203u, 0x00010600u, 0, 10};
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, four, 4, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "fewer than the 5-word header");
  w[0] = 0xdeadbeefu;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "bad magic number 0xdeadbeef");
  w[0] = 0x03022307u;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "byte-swapped");
  w[0] = f.words[0];
  /* Cut in the middle of an instruction, in the header part and in the code. */
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, 6, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "runs past the end");
  w[f.count - 1] = (5u << 16) | (w[f.count - 1] & 0xFFFFu); /* OpFunctionEnd, 5 words long */
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "runs past the end");
  w[f.count - 1] = f.words[f.count - 1];
  /* A zero word count. */
  w[5] = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "word count 0");
  w[5] = f.words[5];
  w[3] = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "id bound 0");
  /* One past SPIRV-Tools' id bound limit (0x3FFFFF). */
  w[3] = 0x400000u;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "id bound 4194304 is 0 or larger than 4194303");
  w[3] = f.words[3];
  /* A struct listing itself as its members, behind a StorageBuffer variable: the reader
   * walked it exponentially and pipeline creation never returned. */
  static const uint32_t self_containing[] = {
      0x07230203u, 0x10600u, 0, 8, 0,
      (5u << 16) | 30, 5, 5, 5, 5, /* %5 = OpTypeStruct %5 %5 %5 */
      (4u << 16) | 32, 6, 12, 5,   /* %6 = OpTypePointer StorageBuffer %5 */
      (4u << 16) | 59, 6, 7, 12,   /* %7 = OpVariable %6 StorageBuffer */
  };
  VK_EXPECT_ERROR(ctx,
                  spvgen_vk_pipeline_create(ctx, self_containing,
                                            sizeof self_containing / sizeof self_containing[0],
                                            NULL, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "type 5 at word 5 contains itself");
  /* A SPIR-V version no Vulkan device takes yet. */
  w[1] = 0x00010900u;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, w, f.count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_UNSUPPORTED, "the module is SPIR-V 1.9");
  CHECK(pipe == NULL);
done:
  free(w);
  fixture_close(&f);
}

static void test_metadata_disagreeing_with_the_module_is_named(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_context *ctx = f.ctx;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_kernel_info info = vector_add_info();
  info.entry_point = "gemm";
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "no GLCompute entry point named 'gemm' (it has: main)");
  info = vector_add_info();
  info.binding_count = 2;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "declares a storage buffer at set 0 binding 2 that info->bindings does not list");
  info = vector_add_info();
  info.bindings[1].kind = SPVGEN_BINDING_UNIFORM_BUFFER;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "info->bindings[1] (set 0 binding 1 ('b')) says uniform buffer; the module "
                  "declares a storage buffer");
  info = vector_add_info();
  info.bindings[2].binding = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "info->bindings[0] and [2] are both set 0 binding 0");
  info = vector_add_info();
  info.bindings[2].set = 9;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "set must be below");
  info = vector_add_info();
  info.binding_count = SPVGEN_MAX_BINDINGS + 1;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "info->binding_count is 17");
  info = vector_add_info();
  info.push_constant_size = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "the module's push constant block is 4 bytes but info->push_constant_size is 0");
  info = vector_add_info();
  info.push_constant_size = 6;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "push_constant_size 6 is not a multiple of 4");
  info = vector_add_info();
  info.local_size[0] = 32;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "info->local_size is 32x0x0 but the module's LocalSize is 64x1x1");
  info = vector_add_info();
  info.spec_constant_count = 1;
  info.spec_constants[0] = (spvgen_spec_constant){3, 3, 0, NULL};
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "(SpecId 3) has size 3; use 4 or 8");
  spvgen_vk_pipeline_options opts;
  memset(&opts, 0, sizeof opts);
  opts.spec_constant_count = 2;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, NULL, &opts, &pipe),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "options->spec_constants is NULL with a count of 2");
  CHECK(pipe == NULL);
  /* The info as it should be works. */
  info = vector_add_info();
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe));
  CHECK_EQ_U64(spvgen_vk_pipeline_binding_min_size(pipe, 0), 0); /* a runtime array */
done:
  spvgen_vk_pipeline_destroy(pipe);
  fixture_close(&f);
}

static void test_local_size_beyond_the_device_limit_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  /* Within each dimension's limit, over the invocation limit. */
  uint32_t x = caps->max_workgroup_size[0], y = caps->max_workgroup_invocations / x + 1;
  if (y > caps->max_workgroup_size[1]) {
    test_skip("no local size exceeds only the invocation limit");
    goto done;
  }
  spvgen_compute_main(m, "main", x, y, 1);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_UNSUPPORTED, "exceeds maxComputeWorkGroupInvocations");
  CHECK(pipe == NULL);
done:
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* A module declaring a capability whose feature the device lacks is refused with the
 * feature's name (here cooperativeMatrix, absent on lavapipe). */
static void test_module_needing_an_absent_feature_names_it(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  if (spvgen_caps_has(spvgen_vk_caps(ctx), SPVGEN_FEATURE_COOPMAT)) {
    test_skip("device '%s' has cooperativeMatrix", spvgen_vk_caps(ctx)->name);
    goto done;
  }
  spvgen_extension(m, "SPV_KHR_cooperative_matrix");
  spvgen_capability(m, SpvCapabilityCooperativeMatrixKHR);
  spvgen_compute_main(m, "main", 8, 1, 1);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe),
                  SPVGEN_ERROR_MISSING_FEATURE,
                  "needs the device feature cooperativeMatrix (VK_KHR_cooperative_matrix) for "
                  "capability CooperativeMatrixKHR");
done:
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* A module declaring Kernel (by hand: the builder never infers it) is refused before the
 * driver sees it, naming the capability; so is one whose capability the runner cannot
 * check or enable (VariablePointers). Before, lavapipe took and ran both. */
static void test_module_with_a_capability_vulkan_does_not_allow_is_refused(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    SpvCapability cap;
    const char *message;
  } cases[] = {
      {SpvCapabilityKernel, "declares capability Kernel (6), which Vulkan does not allow"},
      {SpvCapabilityVariablePointers,
       "declares capability VariablePointers, which Vulkan enables by variablePointers"},
  };
  for (size_t i = 0; i < 2; i++) {
    spvgen_module *m = spvgen_module_create(NULL);
    spvgen_vk_pipeline *pipe = NULL;
    spvgen_capability(m, cases[i].cap);
    vk_build_vector_add(m, 64);
    const uint32_t *words = NULL;
    size_t count = 0;
    CHECK_EQ_U64(spvgen_module_finish(m, &words, &count), SPVGEN_OK);
    if (words) {
      VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe),
                      SPVGEN_ERROR_UNSUPPORTED, cases[i].message);
      CHECK(pipe == NULL);
    }
    spvgen_module_destroy(m);
  }
  spvgen_vk_destroy(ctx);
}

static void test_required_subgroup_size_out_of_range_is_named(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_pipeline *pipe = NULL;
  const spvgen_device_caps *caps = spvgen_vk_caps(f.ctx);
  spvgen_vk_pipeline_options opts;
  memset(&opts, 0, sizeof opts);
  opts.required_subgroup_size = caps->max_subgroup_size * 2;
  spvgen_status expected = spvgen_caps_has(caps, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL)
                               ? SPVGEN_ERROR_UNSUPPORTED
                               : SPVGEN_ERROR_MISSING_FEATURE;
  VK_EXPECT_ERROR(f.ctx, spvgen_vk_pipeline_create(f.ctx, f.words, f.count, NULL, &opts, &pipe),
                  expected, expected == SPVGEN_ERROR_UNSUPPORTED ? "is not available" : "subgroupSizeControl");
  /* The device's own size is accepted where size control exists. */
  if (expected == SPVGEN_ERROR_UNSUPPORTED && caps->required_subgroup_size_in_compute) {
    opts.required_subgroup_size = caps->max_subgroup_size;
    VK_CHECK(f.ctx, spvgen_vk_pipeline_create(f.ctx, f.words, f.count, NULL, &opts, &pipe));
  }
done:
  spvgen_vk_pipeline_destroy(pipe);
  fixture_close(&f);
}

/* ----------------------------------------------------------- dispatches ---- */

static void test_dispatch_arguments_are_checked_against_the_pipeline(void) {
  fixture f;
  if (!fixture_open(&f)) {
    fixture_close(&f);
    return;
  }
  spvgen_vk_context *ctx = f.ctx;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  spvgen_kernel_info info = vector_add_info();
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, f.words, f.count, &info, NULL, &pipe));
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, 0, &bufs[i]));
  uint32_t n = 64;
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 2, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "dispatch 0: the pipeline has 3 bindings but 2 buffers were given");
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 4, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "has 3 bindings but 4 buffers were given");
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, NULL, 3, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "buffers is NULL with buffer_count 3");
  spvgen_vk_buffer *with_null[3] = {bufs[0], NULL, bufs[2]};
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, with_null, 3, &n, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "buffers[1] (binding 1 'b') is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 8, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "push_size is 8 but the pipeline's push-constant block is 4 bytes");
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, NULL, 4, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "push_data is NULL with push_size 4");
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  if (caps->max_workgroup_count[1] < UINT32_MAX)
    VK_EXPECT_ERROR(ctx,
                    spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, 1,
                                       caps->max_workgroup_count[1] + 1, 1, NULL),
                    SPVGEN_ERROR_INVALID_ARGUMENT, "groups[1] = ");
  /* In a batch, the failing dispatch is the one named; nothing runs. */
  spvgen_vk_dispatch_desc runs[2];
  memset(runs, 0, sizeof runs);
  runs[0].pipeline = runs[1].pipeline = pipe;
  runs[0].buffers = runs[1].buffers = bufs;
  runs[0].buffer_count = 3;
  runs[1].buffer_count = 1;
  runs[0].push_data = runs[1].push_data = &n;
  runs[0].push_size = runs[1].push_size = 4;
  VK_EXPECT_ERROR(ctx, spvgen_vk_run(ctx, runs, 2, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "dispatch 1: the pipeline has 3 bindings but 1 buffer was given");
  /* After all that, a correct dispatch still works. */
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, 1, 1, 1, NULL));
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  fixture_close(&f);
}

/* A block with a fixed-size array (float data[16]: 64 bytes) needs a buffer of at least
 * that size: a smaller one is refused with both sizes. */
static void test_buffer_smaller_than_its_binding_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *small = NULL, *exact = NULL;
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t arr = spvgen_type_array_strided(m, f32, 16, 4);
  uint32_t st = spvgen_type_struct(m, &arr, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer, st),
                                 SpvStorageClassStorageBuffer, 0);
  spvgen_decorate1(m, var, SpvDecorationDescriptorSet, 0);
  spvgen_decorate1(m, var, SpvDecorationBinding, 0);
  uint32_t pf = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, f32);
  spvgen_compute_main(m, "main", 16, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t p = vk_element(m, pf, var, i);
  spvgen_store(m, p, spvgen_op_f_add(m, f32, spvgen_load(m, f32, p), spvgen_const_f32(m, 1.0f)));
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  CHECK_EQ_U64(spvgen_vk_pipeline_binding_min_size(pipe, 0), 64);
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 32, 0, &small));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 64, 0, &exact));
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, &small, 1, NULL, 0, 1, 1, 1, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 0 (set 0 binding 0): 32 bytes given (a 32-byte buffer at offset 0), the kernel needs 64");
  float data[16], back[16];
  for (int k = 0; k < 16; k++) data[k] = (float)k;
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, exact, 0, data, sizeof data));
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, &exact, 1, NULL, 0, 1, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, exact, 0, back, sizeof back));
  for (int k = 0; k < 16; k++) CHECK(back[k] == data[k] + 1.0f);
done:
  spvgen_vk_buffer_destroy(small);
  spvgen_vk_buffer_destroy(exact);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* ---------------------------------------------------- device addresses ---- */

static void test_device_address_buffers_need_the_feature(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  spvgen_vk_context *without = NULL;
  spvgen_vk_buffer *a = NULL, *plain = NULL;
  if (!ctx) return;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &a));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, 0, &plain));
  CHECK(spvgen_vk_buffer_address(a) != 0);
  CHECK_EQ_U64(spvgen_vk_buffer_address(plain), 0);
  CHECK(spvgen_vk_buffer_handle(a) != 0);
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = spvgen_vk_caps(ctx)->name;
  desc.disabled_features = SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&desc, &without, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    spvgen_vk_buffer *b = NULL;
    VK_EXPECT_ERROR(without, spvgen_vk_buffer_create(without, 256, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &b),
                    SPVGEN_ERROR_MISSING_FEATURE, "needs the feature bufferDeviceAddress");
    CHECK(b == NULL);
  }
done:
  spvgen_vk_buffer_destroy(a);
  spvgen_vk_buffer_destroy(plain);
  spvgen_vk_destroy(without);
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------- cooperative vectors ---- */

static void test_coopvec_conversion_without_the_feature_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  if (spvgen_caps_has(spvgen_vk_caps(ctx), SPVGEN_FEATURE_COOPVEC)) {
    test_skip("device '%s' has cooperativeVector", spvgen_vk_caps(ctx)->name);
    spvgen_vk_destroy(ctx);
    return;
  }
  spvgen_vk_coopvec_matrix mat;
  memset(&mat, 0, sizeof mat);
  mat.rows = 16;
  mat.columns = 32;
  mat.src_type = mat.dst_type = SPVGEN_COMPONENT_F16;
  mat.src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
  mat.dst_layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV;
  size_t size = 1;
  VK_EXPECT_ERROR(ctx, spvgen_vk_coopvec_matrix_size(ctx, &mat, &size),
                  SPVGEN_ERROR_MISSING_FEATURE, "needs the device feature cooperativeVector");
  CHECK_EQ_U64(size, 0);
  static uint16_t src[16 * 32], dst[16 * 32];
  VK_EXPECT_ERROR(ctx, spvgen_vk_convert_coopvec_matrix(ctx, &mat, src, sizeof src, dst, sizeof dst, NULL),
                  SPVGEN_ERROR_MISSING_FEATURE, "cooperativeVector");
  /* The device conversion names the feature too, before looking at its buffers. */
  spvgen_vk_buffer *bsrc = NULL, *bdst = NULL;
  if (spvgen_vk_buffer_create(ctx, sizeof src, 0, &bsrc) == SPVGEN_OK &&
      spvgen_vk_buffer_create(ctx, sizeof dst, 0, &bdst) == SPVGEN_OK) {
    VK_EXPECT_ERROR(ctx, spvgen_vk_convert_coopvec_matrix_buffers(ctx, &mat, bsrc, 0, bdst, 0),
                    SPVGEN_ERROR_MISSING_FEATURE, "needs the device feature cooperativeVector");
  } else {
    CHECK_MSG(false, "buffer creation failed: %s", spvgen_vk_error(ctx));
  }
  spvgen_vk_buffer_destroy(bsrc);
  spvgen_vk_buffer_destroy(bdst);
  /* Argument errors come first and are named even here. */
  mat.rows = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_coopvec_matrix_size(ctx, &mat, &size),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "the matrix is 0x32");
  VK_EXPECT_ERROR(ctx, spvgen_vk_convert_coopvec_matrix(ctx, &mat, NULL, 4, dst, 4, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "src is NULL");
  /* A component type Vulkan has no value for. */
  mat.rows = 16;
  mat.dst_type = SPVGEN_COMPONENT_UNKNOWN;
  VK_EXPECT_ERROR(ctx, spvgen_vk_coopvec_matrix_size(ctx, &mat, &size),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "dst_type 16 is not a component type Vulkan has (VkComponentTypeKHR)");
  mat.dst_type = SPVGEN_COMPONENT_F16;
  mat.src_type = (spvgen_component_type)-1;
  VK_EXPECT_ERROR(ctx, spvgen_vk_coopvec_matrix_size(ctx, &mat, &size),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "src_type -1 is not a component type");
  spvgen_vk_destroy(ctx);
}

/* The source size of standard layouts is computed without a device. */
static void test_coopvec_source_sizes_follow_layout_and_stride(void) {
  spvgen_vk_coopvec_matrix mat;
  memset(&mat, 0, sizeof mat);
  mat.rows = 3;
  mat.columns = 5;
  mat.src_type = SPVGEN_COMPONENT_F16;
  mat.src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
  size_t size = 0;
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_OK);
  CHECK_EQ_U64(size, 3 * 5 * 2);
  mat.src_stride = 16;
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_OK);
  CHECK_EQ_U64(size, 2 * 16 + 10);
  mat.src_layout = SpvCooperativeVectorMatrixLayoutColumnMajorNV;
  mat.src_stride = 0;
  mat.src_type = SPVGEN_COMPONENT_F32;
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_OK);
  CHECK_EQ_U64(size, 5 * 3 * 4);
  mat.src_stride = 8; /* less than one column of 12 bytes */
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_ERROR_INVALID_ARGUMENT);
  mat.src_stride = 14; /* not a multiple of 4 */
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_ERROR_INVALID_ARGUMENT);
  mat.src_stride = 0;
  mat.src_layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV; /* only the driver knows */
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(&mat, &size), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_vk_coopvec_src_size(NULL, &size), SPVGEN_ERROR_INVALID_ARGUMENT);
}

static void test_wrap_rejects_missing_handles(void) {
  spvgen_vk_wrap_desc wd;
  memset(&wd, 0, sizeof wd);
  spvgen_vk_context *ctx = (spvgen_vk_context *)&wd;
  char msg[256];
  CHECK_EQ_U64(spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(ctx == NULL);
  CHECK_CONTAINS(msg, "spvgen_vk_wrap: desc->instance is NULL");
  CHECK_EQ_U64(spvgen_vk_wrap(NULL, &ctx, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "desc is NULL");
  /* A queue family without compute (or out of range) is refused. */
  spvgen_vk_context *owner = vk_open(0);
  if (!owner) return;
  spvgen_vk_handles h;
  spvgen_vk_get_handles(owner, &h);
  wd.instance = h.instance;
  wd.physical_device = h.physical_device;
  wd.device = h.device;
  wd.queue = h.queue;
  wd.queue_family_index = 1000;
  CHECK_EQ_U64(spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "queue_family_index 1000 is not a queue family with compute");
  /* Features the caller did not say it enabled are not in the caps. */
  wd.queue_family_index = h.queue_family_index;
  wd.enabled_features = 0;
  spvgen_status st = spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    CHECK_EQ_U64(spvgen_vk_caps(ctx)->features & ~SPVGEN_FEATURE_TIMESTAMPS, 0);
    spvgen_vk_destroy(ctx);
  }
  spvgen_vk_destroy(owner);
}

/* A submission that runs past timeout_ms fails with VK_TIMEOUT named, and the context
 * then refuses further work (its command buffer may still be running) until destroyed;
 * destroying it waits for the work. The kernel: 8 invocations each running a dependent
 * multiply-add chain of n steps (no closed form), n from a push constant. */
static void test_submission_past_the_timeout_is_named_and_stops_the_context(void) {
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  desc.timeout_ms = 1;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) {
    test_skip("%s", msg);
    return;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *out = NULL;
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t pf = 0;
  uint32_t buf = spvgen_storage_buffer(m, f32, 0, 0, false, &pf);
  uint32_t pc_ptr = 0;
  uint32_t pc = vk_push_constants_u32(m, 1, &pc_ptr);
  uint32_t fn_u32 = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t fn_f32 = spvgen_type_pointer(m, SpvStorageClassFunction, f32);
  spvgen_compute_main(m, "main", 8, 1, 1);
  uint32_t gid = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t n = vk_load_push_u32(m, pc, pc_ptr, 0);
  uint32_t i_var = spvgen_variable(m, fn_u32, SpvStorageClassFunction, 0);
  uint32_t acc_var = spvgen_variable(m, fn_f32, SpvStorageClassFunction, 0);
  spvgen_store(m, i_var, spvgen_const_u32(m, 0));
  spvgen_store(m, acc_var, spvgen_op_convert_u_to_f(m, f32, gid));
  spvgen_loop(m, SpvLoopControlMaskNone);
  spvgen_loop_while(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), spvgen_load(m, u32, i_var), n));
  uint32_t acc = spvgen_load(m, f32, acc_var);
  spvgen_store(m, acc_var, spvgen_op_f_add(m, f32, spvgen_op_f_mul(m, f32, acc, spvgen_const_f32(m, 0.999999f)),
                                           spvgen_const_f32(m, 1.0f)));
  spvgen_loop_continue_block(m);
  spvgen_store(m, i_var, spvgen_op_i_add(m, u32, spvgen_load(m, u32, i_var), spvgen_const_u32(m, 1)));
  spvgen_end_loop(m);
  spvgen_store(m, vk_element(m, pf, buf, gid), spvgen_load(m, f32, acc_var));
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 64, 0, &out));
  uint32_t steps = 50u * 1000u * 1000u;
  st = spvgen_vk_dispatch(ctx, pipe, &out, 1, &steps, 4, 1, 1, 1, NULL);
  if (st == SPVGEN_OK) {
    /* Seen with lavapipe under load: the driver ran the whole (>100 ms) kernel inside
     * vkQueueSubmit, so the fence was already signalled and no wait could time out. */
    test_skip("the driver finished the submission inside vkQueueSubmit; no timeout to observe");
    goto done;
  }
  CHECK_EQ_U64(st, SPVGEN_ERROR_VULKAN);
  CHECK_CONTAINS(spvgen_vk_error(ctx), "spvgen_vk_dispatch: vkWaitForFences failed: VK_TIMEOUT");
  CHECK_CONTAINS(spvgen_vk_error(ctx), "longer than 1 ms");
  char data[4];
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_download(ctx, out, 0, data, 4), SPVGEN_ERROR_INVALID_STATE,
                  "spvgen_vk_buffer_download: the context is unusable");
  spvgen_vk_buffer *more = NULL;
  VK_EXPECT_ERROR(ctx, spvgen_vk_buffer_create(ctx, 64, 0, &more), SPVGEN_ERROR_INVALID_STATE,
                  "unusable after an earlier device loss or timeout");
done:
  spvgen_vk_buffer_destroy(out);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx); /* waits for the kernel */
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_null_and_zero_arguments_are_named),
      TEST_CASE(test_transfers_outside_the_buffer_are_rejected),
      TEST_CASE(test_buffer_larger_than_the_device_allows_is_named),
      TEST_CASE(test_buffer_larger_than_its_heap_is_named),
      TEST_CASE(test_objects_of_another_context_are_rejected),
      TEST_CASE(test_malformed_words_are_rejected),
      TEST_CASE(test_metadata_disagreeing_with_the_module_is_named),
      TEST_CASE(test_local_size_beyond_the_device_limit_is_named),
      TEST_CASE(test_module_needing_an_absent_feature_names_it),
      TEST_CASE(test_module_with_a_capability_vulkan_does_not_allow_is_refused),
      TEST_CASE(test_required_subgroup_size_out_of_range_is_named),
      TEST_CASE(test_dispatch_arguments_are_checked_against_the_pipeline),
      TEST_CASE(test_buffer_smaller_than_its_binding_is_named),
      TEST_CASE(test_device_address_buffers_need_the_feature),
      TEST_CASE(test_coopvec_conversion_without_the_feature_is_named),
      TEST_CASE(test_coopvec_source_sizes_follow_layout_and_stride),
      TEST_CASE(test_wrap_rejects_missing_handles),
      TEST_CASE(test_submission_past_the_timeout_is_named_and_stops_the_context),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
