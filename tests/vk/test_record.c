/* tests/vk/test_record.c — a framework's view of the runner: sizes checked before the
 * driver (named binding, size given, size needed; static, from the push constants, from
 * the dispatch), recording into the caller's own command buffer with the caller's own
 * buffer ranges (sub-allocations of one buffer, raw VkBuffer handles), nothing recorded
 * on bad input, a hand-built kernel that takes its buffers as device addresses in push
 * constants, async submissions with tickets, a timeline and a caller's fence, and the
 * device the caller created described by its VkDeviceCreateInfo (spvgen_vk_wrap,
 * spvgen_device_caps_from_vk, spvgen_vk_features_chain). Runs on lavapipe in CI. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "spvgen/spvgen.h"
#include "vk_fixture.h"

/* A failed runner call ends the test (its objects go with the process). */
#undef VK_CHECK
#define VK_CHECK(ctx, call)                                                             \
  do {                                                                                  \
    spvgen_status vk_st_ = (call);                                                      \
    if (vk_st_ != SPVGEN_OK) {                                                          \
      test_fail_at(__FILE__, __LINE__, "%s: %s: %s", #call, spvgen_status_name(vk_st_), \
                   spvgen_vk_error(ctx));                                               \
      return;                                                                           \
    }                                                                                   \
  } while (0)

/* ------------------------------------------------------- the caller's Vulkan ---- */
/* What a framework has: its own function pointers (here from the system loader). */
typedef struct app_vk {
  PFN_vkGetInstanceProcAddr gipa;
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkCreateCommandPool CreateCommandPool;
  PFN_vkDestroyCommandPool DestroyCommandPool;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers;
  PFN_vkBeginCommandBuffer BeginCommandBuffer;
  PFN_vkEndCommandBuffer EndCommandBuffer;
  PFN_vkQueueSubmit QueueSubmit;
  PFN_vkCreateFence CreateFence;
  PFN_vkDestroyFence DestroyFence;
  PFN_vkWaitForFences WaitForFences;
  PFN_vkGetFenceStatus GetFenceStatus;
  PFN_vkCmdPipelineBarrier CmdPipelineBarrier;
  VkDevice device;
  VkQueue queue;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
} app_vk;

static bool app_open(spvgen_vk_context *ctx, app_vk *a) {
  memset(a, 0, sizeof *a);
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return false;
  a->gipa = (PFN_vkGetInstanceProcAddr)(void (*)(void))dlsym(lib, "vkGetInstanceProcAddr");
  spvgen_vk_handles h;
  spvgen_vk_get_handles(ctx, &h);
  a->gdpa = (PFN_vkGetDeviceProcAddr)a->gipa((VkInstance)h.instance, "vkGetDeviceProcAddr");
  a->device = (VkDevice)h.device;
  a->queue = (VkQueue)h.queue;
#define LOAD(name) a->name = (PFN_vk##name)a->gdpa(a->device, "vk" #name)
  LOAD(CreateCommandPool);
  LOAD(DestroyCommandPool);
  LOAD(AllocateCommandBuffers);
  LOAD(BeginCommandBuffer);
  LOAD(EndCommandBuffer);
  LOAD(QueueSubmit);
  LOAD(CreateFence);
  LOAD(DestroyFence);
  LOAD(WaitForFences);
  LOAD(GetFenceStatus);
  LOAD(CmdPipelineBarrier);
#undef LOAD
  VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                 VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, h.queue_family_index};
  if (a->CreateCommandPool(a->device, &pci, NULL, &a->pool) != VK_SUCCESS) return false;
  VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, a->pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  if (a->AllocateCommandBuffers(a->device, &cai, &a->cmd) != VK_SUCCESS) return false;
  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  return a->CreateFence(a->device, &fci, NULL, &a->fence) == VK_SUCCESS;
}

/* A runner context and the application's own functions on its device, or NULL (the test
 * skipped) where either is missing. */
static spvgen_vk_context *app_context(app_vk *a) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return NULL;
  if (!app_open(ctx, a)) {
    test_skip("cannot load the application's Vulkan functions");
    spvgen_vk_destroy(ctx);
    return NULL;
  }
  return ctx;
}

static void app_close(app_vk *a) {
  if (a->fence) a->DestroyFence(a->device, a->fence, NULL);
  if (a->pool) a->DestroyCommandPool(a->device, a->pool, NULL);
}

/* The caller's barrier: its own writes (host uploads through spvgen, transfers) before
 * the kernels, the kernels' writes before the host reads. */
static void app_barrier(app_vk *a, VkPipelineStageFlags src, VkAccessFlags src_access,
                        VkPipelineStageFlags dst, VkAccessFlags dst_access) {
  VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, src_access, dst_access};
  a->CmdPipelineBarrier(a->cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

static bool app_submit_wait(app_vk *a) {
  VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &a->cmd, 0, NULL};
  if (a->QueueSubmit(a->queue, 1, &si, a->fence) != VK_SUCCESS) return false;
  bool ok = a->WaitForFences(a->device, 1, &a->fence, VK_TRUE, 60ull * 1000000000ull) == VK_SUCCESS;
  VkResult r = ok ? VK_SUCCESS : VK_TIMEOUT;
  (void)r;
  PFN_vkResetFences reset = (PFN_vkResetFences)a->gdpa(a->device, "vkResetFences");
  reset(a->device, 1, &a->fence);
  return ok;
}

/* ---------------------------------------------------------------- kernels ---- */
/* The elementwise template's f32 add: c = a + b over n (push constant), sizes n * 4. */
static spvgen_vk_pipeline *add_pipeline(spvgen_vk_context *ctx, spvgen_kernel *k) {
  char msg[512];
  spvgen_elementwise_desc d = {.op = SPVGEN_ELEMENTWISE_ADD};
  if (spvgen_elementwise(&d, spvgen_vk_caps(ctx), k, msg, sizeof msg) != SPVGEN_OK) {
    CHECK_MSG(0, "%s", msg);
    return NULL;
  }
  spvgen_vk_pipeline *p = NULL;
  spvgen_status st = spvgen_vk_pipeline_create_kernel(ctx, k, NULL, &p);
  CHECK_MSG(st == SPVGEN_OK, "%s", spvgen_vk_error(ctx));
  return p;
}

static void fill(float *x, uint32_t n, float scale) {
  for (uint32_t i = 0; i < n; i++) x[i] = scale * vk_rand_f32();
}

/* ------------------------------------------------------------------ sizes ---- */
/* The repro: a GEMM's D of 64 bytes where 240,000 are needed is refused before
 * the driver, naming D, the size given and the size needed; nothing runs (buffers
 * around it keep their contents). */
static void test_undersized_gemm_output_is_refused_by_name(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  char msg[512];
  spvgen_gemm_desc d = {.m = 300, .n = 200, .k = 64, .a_type = SPVGEN_COMPONENT_F32, .b_type = SPVGEN_COMPONENT_F32,
                        .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F32};
  spvgen_kernel k;
  CHECK(spvgen_gemm(&d, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK);
  spvgen_vk_pipeline *p = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &p));
  CHECK_EQ_U64(spvgen_vk_pipeline_binding_min_size(p, 2), 240000);
  spvgen_vk_buffer *a, *b, *dd, *guard;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 300 * 64 * 4, 0, &a));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 64 * 200 * 4, 0, &b));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 64, 0, &dd));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 4096, 0, &guard));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, guard, 0, 4096, 0xA5A5A5A5u));
  spvgen_vk_buffer *bufs[3] = {a, b, dd};
  VK_EXPECT_ERROR(ctx,
                  spvgen_vk_dispatch(ctx, p, bufs, 3, NULL, 0, k.info.groups[0], k.info.groups[1],
                                     k.info.groups[2], NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 2 'D' (set 0 binding 2): 64 bytes given (a 64-byte buffer at offset 0), the kernel needs 240000");
  uint32_t back[1024];
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, guard, 0, back, sizeof back));
  bool intact = true;
  for (int i = 0; i < 1024; i++) intact = intact && back[i] == 0xA5A5A5A5u;
  CHECK(intact);
  spvgen_kernel_free(&k);

  /* The MLP's weights: static size from the plan. */
  spvgen_mlp_desc md = {.input_width = 3, .output_width = 4, .hidden_count = 2, .hidden_width = 64};
  CHECK(spvgen_mlp(&md, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK);
  spvgen_vk_pipeline *mp = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &mp));
  spvgen_vk_buffer *in, *w, *out;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 4096, 0, &in));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 64, 0, &w));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 4096, 0, &out));
  spvgen_vk_buffer *mb[3] = {in, w, out};
  uint32_t points = 100;
  char want[160];
  snprintf(want, sizeof want, "binding 1 'weights' (set 0 binding 1): 64 bytes given (a 64-byte buffer at offset 0), the kernel needs %llu",
           (unsigned long long)k.info.bindings[1].min_size);
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, mp, mb, 3, &points, 4, 1, 1, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT, want);
  /* Points from the push constants: 1000 points of 3 f16 need 6000 bytes of input. */
  spvgen_vk_buffer_destroy(w);
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, k.info.bindings[1].min_size, 0, &w));
  mb[1] = w;
  points = 1000;
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, mp, mb, 3, &points, 4, 8, 1, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 0 'input' (set 0 binding 0): 4096 bytes given (a 4096-byte buffer at offset 0), the kernel needs 6000");
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* Run-time sizes: the elementwise n from the push constants, and sizes the dispatch
 * gives itself (a template's size function for run-time shapes) that only raise what
 * is needed. */
static void test_run_time_sizes_come_from_push_constants_and_the_dispatch(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_kernel k;
  spvgen_vk_pipeline *p = add_pipeline(ctx, &k);
  if (!p) return;
  spvgen_vk_buffer *b[3];
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 400, 0, &b[i]));
  uint32_t n = 100;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, p, b, 3, &n, 4, 2, 1, 1, NULL));
  n = 101;
  VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, p, b, 3, &n, 4, 2, 1, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 0 'a' (set 0 binding 0): 400 bytes given (a 400-byte buffer at offset 0), the kernel needs 404");
  n = 10;
  uint64_t sizes[3] = {0, 0, 800};
  spvgen_vk_dispatch_desc d = {.pipeline = p, .buffers = b, .buffer_count = 3, .push_data = &n, .push_size = 4,
                               .groups = {1, 1, 1}, .min_sizes = sizes};
  VK_EXPECT_ERROR(ctx, spvgen_vk_run(ctx, &d, 1, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 2 'c' (set 0 binding 2): 400 bytes given (a 400-byte buffer at offset 0), the kernel needs 800");
  sizes[2] = 4; /* lower than the push constants ask: the larger wins (40) and fits */
  VK_CHECK(ctx, spvgen_vk_run(ctx, &d, 1, NULL));
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------ the caller's command buffer ---- */
/* Two dispatches recorded into the caller's command buffer, with the caller's barriers
 * around them, on sub-allocations of ONE buffer (offsets at the device's alignment) and
 * on the raw VkBuffer handle: c = a + b, then d = c + b (spvgen's barrier between). */
static void test_recording_into_the_callers_command_buffer_with_sub_allocations(void) {
  app_vk a;
  spvgen_vk_context *ctx = app_context(&a);
  if (!ctx) return;
  spvgen_kernel k;
  spvgen_vk_pipeline *p = add_pipeline(ctx, &k);
  const uint32_t n = 1000;
  uint64_t align = spvgen_vk_caps(ctx)->min_storage_buffer_offset_alignment;
  if (align < 4) align = 4;
  uint64_t slot = ((n * 4 + align - 1) / align) * align;
  spvgen_vk_buffer *big;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 4 * slot, SPVGEN_VK_BUFFER_HOST_VISIBLE, &big));
  float *map = spvgen_vk_buffer_map(big);
  float *ha = map, *hb = (float *)((char *)map + slot), *hc = (float *)((char *)map + 2 * slot),
        *hd = (float *)((char *)map + 3 * slot);
  fill(ha, n, 1.0f);
  fill(hb, n, 2.0f);
  for (uint32_t i = 0; i < n; i++) hc[i] = hd[i] = -1.0f;
  uint64_t handle = spvgen_vk_buffer_handle(big);
  spvgen_vk_buffer_range r1[3] = {{.buffer = big, .offset = 0, .range = n * 4},
                                  {.buffer = big, .offset = slot, .range = n * 4},
                                  {.handle = handle, .offset = 2 * slot, .range = n * 4}};
  spvgen_vk_buffer_range r2[3] = {{.handle = handle, .offset = 2 * slot, .range = n * 4},
                                  {.buffer = big, .offset = slot, .range = n * 4},
                                  {.buffer = big, .offset = 3 * slot, .range = 0 /* to the end */}};
  spvgen_vk_record_desc d[2] = {
      {.pipeline = p, .buffers = r1, .buffer_count = 3, .push_data = &n, .push_size = 4, .groups = {(n + 63) / 64, 1, 1}},
      {.pipeline = p, .buffers = r2, .buffer_count = 3, .push_data = &n, .push_size = 4, .groups = {(n + 63) / 64, 1, 1}}};
  VK_CHECK(ctx, spvgen_vk_command_buffer_begin(ctx, a.cmd));
  app_barrier(&a, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  VK_CHECK(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, d, 2, 0));
  app_barrier(&a, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
              VK_ACCESS_HOST_READ_BIT);
  VK_CHECK(ctx, spvgen_vk_command_buffer_end(ctx, a.cmd));
  /* Ended: spvgen knows it is not recording any more. */
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, d, 1, 0), SPVGEN_ERROR_INVALID_STATE,
                  "command_buffer is not in the recording state");
  CHECK(app_submit_wait(&a));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (fabsf(hc[i] - (ha[i] + hb[i])) > 1e-6f) bad++;
    if (fabsf(hd[i] - (hc[i] + hb[i])) > 1e-6f) bad++;
  }
  CHECK_EQ_U64(bad, 0);
  spvgen_kernel_free(&k);
  app_close(&a);
  spvgen_vk_destroy(ctx);
}

/* A split-K GEMM recorded into the caller's command buffer: the plan's two kernels (the
 * partials with A, B and the workspace; the reduction with D, C, bias and the workspace)
 * as two dispatches of one call, which records the compute-to-compute barrier between
 * them (spvgen/gemm.h, "Split-K"); the workspace uninitialized (NaN) and shared by
 * both; run-time shapes; every element of D against a float64 reference. */
static void test_split_k_gemm_records_both_kernels_and_the_barrier(void) {
  app_vk a;
  spvgen_vk_context *ctx = app_context(&a);
  if (!ctx) return;
  char msg[512];
  const uint32_t M = 37, N = 45, K = 333;
  spvgen_gemm_desc d = {.a_type = SPVGEN_COMPONENT_F32, .b_type = SPVGEN_COMPONENT_F32,
                        .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F32,
                        .shapes = SPVGEN_GEMM_SHAPES_RUNTIME, .m = M, .n = N, .k = K, .beta = 1.0f,
                        .bias = SPVGEN_GEMM_BIAS_COLUMN, .activation = SPVGEN_ACTIVATION_RELU,
                        .variant = SPVGEN_GEMM_SIMT, .split_k = 3};
  spvgen_gemm_config plan;
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t nk = 0;
  CHECK_MSG(spvgen_gemm_kernels(&d, spvgen_vk_caps(ctx), k, &nk, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(nk, 2);
  if (nk != 2) {
    app_close(&a);
    spvgen_vk_destroy(ctx);
    return;
  }
  spvgen_gemm_args args = {.m = M, .n = N, .k = K, .beta = 0.5f};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &args, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_vk_pipeline *p0 = NULL, *p1 = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k[0], NULL, &p0));
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k[1], NULL, &p1));
  /* one host-visible buffer: A, B, C, bias, D, then the workspace, each at a slot */
  uint64_t align = spvgen_vk_caps(ctx)->min_storage_buffer_offset_alignment;
  if (align < 16) align = 16;
  const uint64_t sizes[6] = {(uint64_t)M * K * 4, (uint64_t)K * N * 4, (uint64_t)M * N * 4, (uint64_t)N * 4,
                             (uint64_t)M * N * 4, l.workspace_bytes};
  uint64_t off[6], total = 0;
  for (int i = 0; i < 6; i++) off[i] = total, total += (sizes[i] + align - 1) / align * align;
  spvgen_vk_buffer *big;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, total, SPVGEN_VK_BUFFER_HOST_VISIBLE, &big));
  char *map = spvgen_vk_buffer_map(big);
  float *ha = (float *)(map + off[0]), *hb = (float *)(map + off[1]), *hc = (float *)(map + off[2]),
        *hbias = (float *)(map + off[3]), *hd = (float *)(map + off[4]);
  fill(ha, M * K, 1.0f);
  fill(hb, K * N, 1.0f);
  fill(hc, M * N, 1.0f);
  fill(hbias, N, 1.0f);
  memset(hd, 0xFF, sizes[4]);
  memset(map + off[5], 0xFF, sizes[5]); /* NaN: the workspace needs no initialization */
  spvgen_vk_buffer_range r[6];
  for (int i = 0; i < 6; i++) r[i] = (spvgen_vk_buffer_range){.buffer = big, .offset = off[i], .range = sizes[i]};
  const spvgen_vk_buffer_range partials[3] = {r[0], r[1], r[5]}, reduction[4] = {r[4], r[2], r[3], r[5]};
  spvgen_vk_record_desc rd[2] = {
      {.pipeline = p0, .buffers = partials, .buffer_count = 3, .push_data = &l.push, .push_size = l.push_size,
       .groups = {l.groups[0], l.groups[1], l.groups[2]}},
      {.pipeline = p1, .buffers = reduction, .buffer_count = 4, .push_data = &l.push, .push_size = l.reduce_push_size,
       .groups = {l.reduce_groups[0], l.reduce_groups[1], l.reduce_groups[2]}}};
  VK_CHECK(ctx, spvgen_vk_command_buffer_begin(ctx, a.cmd));
  app_barrier(&a, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  VK_CHECK(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, rd, 2, 0)); /* the barrier between them is spvgen's */
  app_barrier(&a, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
              VK_ACCESS_HOST_READ_BIT);
  VK_CHECK(ctx, spvgen_vk_command_buffer_end(ctx, a.cmd));
  CHECK(app_submit_wait(&a));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < M && !bad; i++)
    for (uint32_t j = 0; j < N; j++) {
      double acc = 0, mag = 0;
      for (uint32_t kk = 0; kk < K; kk++) {
        double t = (double)ha[i * K + kk] * hb[kk * N + j];
        acc += t, mag += fabs(t);
      }
      double ref = acc + 0.5 * hc[i * N + j] + hbias[j];
      ref = ref > 0 ? ref : 0;
      if (!(fabs(hd[i * N + j] - ref) <= 1e-5 * (mag + 1.0))) {
        if (!bad) CHECK_MSG(0, "D(%u,%u): gpu %g, expected %g", i, j, hd[i * N + j], ref);
        bad++;
      }
    }
  CHECK_EQ_U64(bad, 0);
  for (int i = 0; i < 2; i++) spvgen_kernel_free(&k[i]);
  app_close(&a);
  spvgen_vk_destroy(ctx);
}

/* Bad input records nothing: a failing call between good commands leaves the command
 * buffer as if it had not been made (the output keeps its sentinel). Each refusal names
 * what was wrong. */
static void test_bad_recordings_are_named_and_record_nothing(void) {
  app_vk a;
  spvgen_vk_context *ctx = app_context(&a);
  if (!ctx) return;
  spvgen_vk_context *other = vk_open(0);
  spvgen_kernel k;
  spvgen_vk_pipeline *p = add_pipeline(ctx, &k);
  const uint32_t n = 256;
  spvgen_vk_buffer *buf, *foreign = NULL;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 3 * 1024, SPVGEN_VK_BUFFER_HOST_VISIBLE, &buf));
  if (other) VK_CHECK(other, spvgen_vk_buffer_create(other, 1024, 0, &foreign));
  float *map = spvgen_vk_buffer_map(buf);
  for (uint32_t i = 0; i < 3 * n; i++) map[i] = 7.0f;
  spvgen_vk_buffer_range good[3] = {{.buffer = buf, .offset = 0, .range = 1024},
                                    {.buffer = buf, .offset = 1024, .range = 1024},
                                    {.buffer = buf, .offset = 2048, .range = 1024}};
  spvgen_vk_buffer_range r[3];
  spvgen_vk_record_desc d = {.pipeline = p, .buffers = r, .buffer_count = 3, .push_data = &n, .push_size = 4,
                             .groups = {n / 64, 1, 1}};
  VK_CHECK(ctx, spvgen_vk_command_buffer_begin(ctx, a.cmd));
  /* a range shorter than n floats */
  memcpy(r, good, sizeof r);
  r[2].range = 1000;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 2 'c' (set 0 binding 2): 1000 bytes given (a 3072-byte buffer at offset 2048), the kernel needs 1024");
  /* a range past the buffer's end */
  memcpy(r, good, sizeof r);
  r[2].range = 2048;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "offset 2048 + range 2048 runs past the buffer's end (3072 bytes)");
  /* a raw handle without its range */
  memcpy(r, good, sizeof r);
  r[0].buffer = NULL;
  r[0].handle = spvgen_vk_buffer_handle(buf);
  r[0].range = 0;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 0 'a' (set 0 binding 0): range is 0; give the bytes the kernel may use");
  /* an offset off the device's alignment */
  uint64_t align = spvgen_vk_caps(ctx)->min_storage_buffer_offset_alignment;
  if (align > 4) {
    memcpy(r, good, sizeof r);
    r[1].offset = 1024 + 4;
    r[1].range = 1024;
    VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                    "(minStorageBufferOffsetAlignment)");
  }
  /* a buffer of another context (another device, as far as spvgen can tell) */
  if (foreign) {
    memcpy(r, good, sizeof r);
    r[1].buffer = foreign;
    r[1].offset = 0;
    VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                    "binding 1 'b' (set 0 binding 1): the buffer belongs to another context");
  }
  /* the second of two dispatches is bad: the first is not recorded either */
  memcpy(r, good, sizeof r);
  spvgen_vk_buffer_range r_bad[3];
  memcpy(r_bad, good, sizeof r_bad);
  r_bad[0].range = 4;
  spvgen_vk_record_desc two[2] = {d, d};
  two[1].buffers = r_bad;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, two, 2, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "dispatch 1: binding 0 'a'");
  /* push constants of the wrong size; a NULL command buffer */
  d.push_size = 8;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, a.cmd, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "push_size is 8 but the pipeline's push-constant block is 4 bytes");
  d.push_size = 4;
  VK_EXPECT_ERROR(ctx, spvgen_vk_cmd_dispatch(ctx, NULL, &d, 1, 0), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "command_buffer is NULL");
  app_barrier(&a, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
              VK_ACCESS_HOST_READ_BIT);
  VK_CHECK(ctx, spvgen_vk_command_buffer_end(ctx, a.cmd));
  CHECK(app_submit_wait(&a));
  uint32_t touched = 0;
  for (uint32_t i = 0; i < n; i++) touched += map[2 * n + i] != 7.0f;
  CHECK_EQ_U64(touched, 0);
  spvgen_kernel_free(&k);
  app_close(&a);
  spvgen_vk_destroy(other);
  spvgen_vk_destroy(ctx);
}

/* ---------------------------------------------------------- device addresses ---- */
/* A hand-built kernel whose buffers are PhysicalStorageBuffer64 pointers in its push
 * constants (no descriptors): y[i] = 2 x[i] + z[i] for i < n; push block
 * { x, y, z pointers at 0, 8, 16; uint n at 24 }. */
static void build_bda_kernel(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t rta = spvgen_type_runtime_array_strided(m, f32, 4);
  uint32_t s = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, s, SpvDecorationBlock);
  spvgen_member_decorate1(m, s, 0, SpvDecorationOffset, 0);
  uint32_t ps = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, s);
  uint32_t pf = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, f32);
  uint32_t members[4] = {ps, ps, ps, u32};
  uint32_t pc_t = spvgen_type_struct(m, members, 4);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  for (uint32_t i = 0; i < 4; i++) spvgen_member_decorate1(m, pc_t, i, SpvDecorationOffset, 8 * i);
  uint32_t pc = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                                SpvStorageClassPushConstant, 0);
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t idx3 = spvgen_const_u32(m, 3);
  uint32_t n = spvgen_load(m, u32, spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, u32), pc, &idx3, 1));
  spvgen_if(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), i, n));
  uint32_t ptrs[3];
  for (uint32_t k = 0; k < 3; k++) {
    uint32_t ki = spvgen_const_u32(m, k);
    ptrs[k] = spvgen_load(m, ps, spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, ps), pc, &ki, 1));
  }
  uint32_t four = 4, zero = spvgen_const_u32(m, 0);
  uint32_t at[2] = {zero, i};
  uint32_t x = spvgen_op_load(m, f32, spvgen_access_chain(m, pf, ptrs[0], at, 2), SpvMemoryAccessAlignedMask, &four, 1);
  uint32_t z = spvgen_op_load(m, f32, spvgen_access_chain(m, pf, ptrs[2], at, 2), SpvMemoryAccessAlignedMask, &four, 1);
  uint32_t y = spvgen_op_f_add(m, f32, spvgen_op_f_mul(m, f32, x, spvgen_const_f32(m, 2.0f)), z);
  spvgen_op_store(m, spvgen_access_chain(m, pf, ptrs[1], at, 2), y, SpvMemoryAccessAlignedMask, &four, 1);
  spvgen_end_if(m);
  spvgen_function_end(m);
}

static void test_kernel_with_device_addresses_in_push_constants(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return;
  spvgen_module_desc md = {.addressing = SpvAddressingModelPhysicalStorageBuffer64};
  spvgen_module *m = spvgen_module_create(&md);
  build_bda_kernel(m);
  const uint32_t *w;
  size_t wc;
  CHECK_MSG(spvgen_module_finish(m, &w, &wc) == SPVGEN_OK, "%s", spvgen_module_error(m));
  CHECK(check_words(w, wc));
  const uint32_t n = 777;
  /* The info a template would give: three address bindings with names and sizes, and n. */
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  static const char *names[3] = {"x", "y", "z"};
  info.binding_count = 3;
  for (uint32_t k = 0; k < 3; k++) {
    info.bindings[k].kind = SPVGEN_BINDING_DEVICE_ADDRESS;
    info.bindings[k].name = names[k];
    info.bindings[k].address_offset = 8 * k;
    info.bindings[k].min_size = n * 4;
    info.bindings[k].access = k == 1 ? SPVGEN_ACCESS_WRITE : SPVGEN_ACCESS_READ;
  }
  info.push_field_count = 1;
  info.push_fields[0] = (spvgen_push_field){"n", 24, 4};
  char msg[512];
  CHECK_MSG(spvgen_kernel_reflect(w, wc, &info, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(info.binding_count, 3);
  CHECK_EQ_U64(info.push_constant_size, 28);
  CHECK(info.features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  CHECK_STR_EQ(info.bindings[1].name, "y");
  spvgen_vk_pipeline *p = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, w, wc, &info, NULL, &p));
  spvgen_vk_buffer *bx, *by, *bz;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4, SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bx));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4, SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &by));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4 + 64, SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bz));
  float *hx = spvgen_vk_buffer_map(bx), *hy = spvgen_vk_buffer_map(by), *hz = spvgen_vk_buffer_map(bz);
  fill(hx, n, 1.0f);
  fill(hz + 4, n, 1.0f); /* z starts 16 bytes in: an address with an offset */
  uint32_t push[7] = {0, 0, 0, 0, 0, 0, n};
  spvgen_vk_buffer_range r[3] = {{.buffer = bx},
                                 {.address = spvgen_vk_buffer_address(by), .range = n * 4},
                                 {.buffer = bz, .offset = 16}};
  spvgen_vk_record_desc d = {.pipeline = p, .buffers = r, .buffer_count = 3, .push_data = push, .push_size = 28,
                             .groups = {(n + 63) / 64, 1, 1}};
  uint64_t t = 0;
  spvgen_vk_submit_desc sd = {.dispatches = &d, .count = 1};
  VK_CHECK(ctx, spvgen_vk_submit(ctx, &sd, &t));
  VK_CHECK(ctx, spvgen_vk_wait(ctx, t));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; i++) bad += fabsf(hy[i] - (2.0f * hx[i] + hz[4 + i])) > 1e-6f;
  CHECK_EQ_U64(bad, 0);
  /* Too small behind an address; an address that is not 4-aligned; a buffer without
   * SPVGEN_VK_BUFFER_DEVICE_ADDRESS. */
  r[1].range = n * 4 - 4;
  VK_EXPECT_ERROR(ctx, spvgen_vk_submit(ctx, &sd, &t), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "binding 1 'y' (device address at push offset 8): 3104 bytes given");
  r[1].range = n * 4;
  r[1].offset = 2;
  VK_EXPECT_ERROR(ctx, spvgen_vk_submit(ctx, &sd, &t), SPVGEN_ERROR_INVALID_ARGUMENT, "is not a multiple of 4");
  r[1].offset = 0;
  spvgen_vk_buffer *plain;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4, 0, &plain));
  r[0].buffer = plain;
  VK_EXPECT_ERROR(ctx, spvgen_vk_submit(ctx, &sd, &t), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "create it with SPVGEN_VK_BUFFER_DEVICE_ADDRESS");
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------------------------ async ---- */
/* Many submissions without waiting (more than the ring holds), each a batch of
 * dispatches; tickets complete in order; the caller's fence and the timeline are
 * signaled. */
static void test_async_submissions_return_tickets(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  app_vk a;
  bool have_app = app_open(ctx, &a);
  spvgen_kernel k;
  spvgen_vk_pipeline *p = add_pipeline(ctx, &k);
  const uint32_t n = 4096, rounds = 10, per = 8;
  spvgen_vk_buffer *x, *acc;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4, SPVGEN_VK_BUFFER_HOST_VISIBLE, &x));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, n * 4, SPVGEN_VK_BUFFER_HOST_VISIBLE, &acc));
  float *hx = spvgen_vk_buffer_map(x), *hacc = spvgen_vk_buffer_map(acc);
  for (uint32_t i = 0; i < n; i++) {
    hx[i] = (float)(i % 7);
    hacc[i] = 0.0f;
  }
  /* acc = acc + x, per times per submission (barriers between: each reads the last). */
  spvgen_vk_buffer_range r[3] = {{.buffer = acc}, {.buffer = x}, {.buffer = acc}};
  spvgen_vk_record_desc d[8];
  for (uint32_t i = 0; i < per; i++)
    d[i] = (spvgen_vk_record_desc){.pipeline = p, .buffers = r, .buffer_count = 3, .push_data = &n, .push_size = 4,
                                   .groups = {n / 64, 1, 1}};
  uint64_t tickets[10];
  for (uint32_t s = 0; s < rounds; s++) {
    spvgen_vk_submit_desc sd = {.dispatches = d, .count = per};
    if (s == rounds - 1 && have_app) sd.fence = (uint64_t)a.fence;
    VK_CHECK(ctx, spvgen_vk_submit(ctx, &sd, &tickets[s]));
    CHECK_EQ_U64(tickets[s], s + 1);
  }
  VK_EXPECT_ERROR(ctx, spvgen_vk_wait(ctx, 99), SPVGEN_ERROR_INVALID_ARGUMENT, "ticket 99 was never submitted");
  if (have_app)
    CHECK(a.WaitForFences(a.device, 1, &a.fence, VK_TRUE, 60ull * 1000000000ull) == VK_SUCCESS);
  VK_CHECK(ctx, spvgen_vk_wait(ctx, tickets[rounds - 1]));
  CHECK_EQ_U64(spvgen_vk_completed(ctx), rounds);
  if (spvgen_vk_caps(ctx)->api_version >= SPVGEN_API_VERSION(1, 2, 0)) CHECK(spvgen_vk_timeline(ctx) != 0);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; i++) bad += hacc[i] != (float)(rounds * per * (i % 7));
  CHECK_EQ_U64(bad, 0);
  spvgen_kernel_free(&k);
  if (have_app) app_close(&a);
  spvgen_vk_destroy(ctx);
}

/* -------------------------------------------------------- the caller's device ---- */
/* The framework creates its device with exactly the features spvgen_vk_features_chain
 * gives for its kernels, wraps it with its VkDeviceCreateInfo, and the caps say no more
 * than that; a kernel needing a feature the chain left out is refused by the planner and
 * by the runner, by name, before the driver. */
static void test_a_callers_device_is_described_by_its_create_info(void) {
  spvgen_vk_context *probe = vk_open(0);
  if (!probe) return;
  spvgen_vk_handles h;
  spvgen_vk_get_handles(probe, &h);
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)(void (*)(void))dlsym(lib, "vkGetInstanceProcAddr");
  PFN_vkCreateDevice create_device = (PFN_vkCreateDevice)gipa((VkInstance)h.instance, "vkCreateDevice");
  PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa((VkInstance)h.instance, "vkGetDeviceProcAddr");
  const spvgen_device_caps *all = spvgen_vk_caps(probe);

  /* What the elementwise f32 add needs, by its info. */
  spvgen_kernel k;
  char msg[512];
  CHECK(spvgen_elementwise(NULL, all, &k, msg, sizeof msg) == SPVGEN_OK);
  uint64_t need = k.info.features;
  CHECK(need & SPVGEN_FEATURE_VULKAN_MEMORY_MODEL);
  spvgen_vk_feature_chain chain;
  const char *exts[8];
  uint32_t next = 0;
  void **tail = NULL;
  void *f2 = spvgen_vk_features_chain(need, all->api_version, true, &chain, &tail, exts, 8, &next);
  CHECK(f2 != NULL && tail != NULL && *tail == NULL);
  CHECK(next >= 1 && !strcmp(exts[next - 1], "VK_KHR_push_descriptor"));
  CHECK(spvgen_vk_features_chain(1ull << 60, 0, false, &chain, NULL, NULL, 0, NULL) == NULL);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, h.queue_family_index, 1, &priority};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, f2, 0, 1, &qci, 0, NULL, next, exts, NULL};
  VkDevice dev = VK_NULL_HANDLE;
  CHECK(create_device((VkPhysicalDevice)h.physical_device, &dci, NULL, &dev) == VK_SUCCESS);
  if (!dev) {
    spvgen_kernel_free(&k);
    spvgen_vk_destroy(probe);
    return;
  }
  PFN_vkGetDeviceQueue get_queue = (PFN_vkGetDeviceQueue)gdpa(dev, "vkGetDeviceQueue");
  PFN_vkDestroyDevice destroy_device = (PFN_vkDestroyDevice)gdpa(dev, "vkDestroyDevice");
  VkQueue q;
  get_queue(dev, h.queue_family_index, 0, &q);

  spvgen_device_caps caps;
  CHECK(spvgen_device_caps_from_vk((spvgen_vk_proc)gipa, h.instance, h.physical_device, &dci, h.queue_family_index,
                                   &caps, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(caps.features & ~SPVGEN_FEATURE_TIMESTAMPS, need);
  spvgen_vk_wrap_desc wd = {.instance = h.instance, .physical_device = h.physical_device, .device = dev, .queue = q,
                            .queue_family_index = h.queue_family_index, .get_instance_proc_addr = (spvgen_vk_proc)gipa,
                            .device_create_info = &dci, .no_disk_cache = true};
  spvgen_vk_context *ctx = NULL;
  CHECK(spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg) == SPVGEN_OK);
  if (ctx) {
    CHECK_EQ_U64(spvgen_vk_caps(ctx)->features & ~SPVGEN_FEATURE_TIMESTAMPS, need);
    spvgen_vk_pipeline *p = NULL;
    VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &p));
    spvgen_vk_buffer *b[3];
    for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, SPVGEN_VK_BUFFER_HOST_VISIBLE, &b[i]));
    float *ha = spvgen_vk_buffer_map(b[0]), *hb = spvgen_vk_buffer_map(b[1]), *hc = spvgen_vk_buffer_map(b[2]);
    fill(ha, 64, 1.0f);
    fill(hb, 64, 1.0f);
    uint32_t n = 64;
    VK_CHECK(ctx, spvgen_vk_dispatch(ctx, p, b, 3, &n, 4, 1, 1, 1, NULL));
    uint32_t bad = 0;
    for (int i = 0; i < 64; i++) bad += hc[i] != ha[i] + hb[i];
    CHECK_EQ_U64(bad, 0);
    /* An f16 kernel needs shaderFloat16, which this device does not have on. */
    spvgen_elementwise_desc f16 = {.type = SPVGEN_ELEMENTWISE_F16};
    spvgen_elementwise_config plan;
    CHECK(spvgen_elementwise_plan(&f16, spvgen_vk_caps(ctx), &plan, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "shaderFloat16");
    spvgen_kernel k16;
    if (spvgen_elementwise(&f16, all, &k16, msg, sizeof msg) == SPVGEN_OK) {
      VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k16, NULL, &p), SPVGEN_ERROR_MISSING_FEATURE,
                      "needs the device feature shaderFloat16");
      spvgen_kernel_free(&k16);
    }
    spvgen_vk_destroy(ctx);
  }
  destroy_device(dev, NULL);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(probe);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_undersized_gemm_output_is_refused_by_name),
      TEST_CASE(test_run_time_sizes_come_from_push_constants_and_the_dispatch),
      TEST_CASE(test_recording_into_the_callers_command_buffer_with_sub_allocations),
      TEST_CASE(test_split_k_gemm_records_both_kernels_and_the_barrier),
      TEST_CASE(test_bad_recordings_are_named_and_record_nothing),
      TEST_CASE(test_kernel_with_device_addresses_in_push_constants),
      TEST_CASE(test_async_submissions_return_tickets),
      TEST_CASE(test_a_callers_device_is_described_by_its_create_info),
  };
  int skip = vk_test_device_present();
  if (skip) return skip;
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
