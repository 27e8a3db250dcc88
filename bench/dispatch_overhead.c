/* bench/dispatch_overhead.c — what spvgen's dispatch paths cost per dispatch, next to a
 * raw vkCmdDispatch loop in the caller's own command buffer. The kernel is tiny (the
 * elementwise add over 64 floats, one workgroup), so the numbers are the host's and the
 * driver's overhead, not the kernel's.
 *
 * Rows (D dispatches each; record = CPU time to record, wall = record + submit + wait):
 *   raw dispatch         vkCmdDispatch only, state bound once                (the floor)
 *   raw bind+push        per dispatch: bind pipeline, push descriptors, push constants,
 *                        dispatch (what a framework records without spvgen)
 *   cmd_dispatch x1      spvgen_vk_cmd_dispatch, one call per dispatch (checks included)
 *   cmd_dispatch batch   one spvgen_vk_cmd_dispatch call with all D, no barriers
 *   cmd_dispatch batch+b the same with spvgen's barrier between dispatches
 *   submit batch         spvgen_vk_submit: all D in one submission, then spvgen_vk_wait
 *   submit x1            spvgen_vk_submit per dispatch (the ring), one wait at the end
 *   dispatch (sync) x1   spvgen_vk_dispatch: record, submit, wait per dispatch (D/20)
 *
 *   build/bench/bench_dispatch_overhead [--dispatches D] [--repeats R]
 * Prints the device and a table (median of R repeats per row). Exit 77 without Vulkan. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "spvgen/spvgen.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct vkf {
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkCreateCommandPool CreateCommandPool;
  PFN_vkDestroyCommandPool DestroyCommandPool;
  PFN_vkResetCommandPool ResetCommandPool;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers;
  PFN_vkBeginCommandBuffer BeginCommandBuffer;
  PFN_vkEndCommandBuffer EndCommandBuffer;
  PFN_vkQueueSubmit QueueSubmit;
  PFN_vkCreateFence CreateFence;
  PFN_vkDestroyFence DestroyFence;
  PFN_vkWaitForFences WaitForFences;
  PFN_vkResetFences ResetFences;
  PFN_vkCmdDispatch CmdDispatch;
  PFN_vkCmdBindPipeline CmdBindPipeline;
  PFN_vkCmdPushConstants CmdPushConstants;
  PFN_vkCmdPushDescriptorSetKHR CmdPushDescriptorSetKHR;
  VkDevice device;
  VkQueue queue;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
} vkf;

static bool vkf_open(spvgen_vk_context *ctx, vkf *f) {
  memset(f, 0, sizeof *f);
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return false;
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)(void (*)(void))dlsym(lib, "vkGetInstanceProcAddr");
  spvgen_vk_handles h;
  spvgen_vk_get_handles(ctx, &h);
  f->gdpa = (PFN_vkGetDeviceProcAddr)gipa((VkInstance)h.instance, "vkGetDeviceProcAddr");
  f->device = (VkDevice)h.device;
  f->queue = (VkQueue)h.queue;
#define LOAD(name) f->name = (PFN_vk##name)f->gdpa(f->device, "vk" #name)
  LOAD(CreateCommandPool);
  LOAD(DestroyCommandPool);
  LOAD(ResetCommandPool);
  LOAD(AllocateCommandBuffers);
  LOAD(BeginCommandBuffer);
  LOAD(EndCommandBuffer);
  LOAD(QueueSubmit);
  LOAD(CreateFence);
  LOAD(DestroyFence);
  LOAD(WaitForFences);
  LOAD(ResetFences);
  LOAD(CmdDispatch);
  LOAD(CmdBindPipeline);
  LOAD(CmdPushConstants);
  LOAD(CmdPushDescriptorSetKHR);
#undef LOAD
  VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, h.queue_family_index};
  VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, VK_NULL_HANDLE,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  if (f->CreateCommandPool(f->device, &pci, NULL, &f->pool) != VK_SUCCESS) return false;
  cai.commandPool = f->pool;
  return f->AllocateCommandBuffers(f->device, &cai, &f->cmd) == VK_SUCCESS &&
         f->CreateFence(f->device, &fci, NULL, &f->fence) == VK_SUCCESS && f->CmdPushDescriptorSetKHR;
}

static void begin(vkf *f) {
  f->ResetCommandPool(f->device, f->pool, 0);
  VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
  f->BeginCommandBuffer(f->cmd, &bi);
}

static bool submit_wait(vkf *f) {
  f->EndCommandBuffer(f->cmd);
  VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &f->cmd, 0, NULL};
  bool ok = f->QueueSubmit(f->queue, 1, &si, f->fence) == VK_SUCCESS &&
            f->WaitForFences(f->device, 1, &f->fence, VK_TRUE, 120ull * 1000000000ull) == VK_SUCCESS;
  f->ResetFences(f->device, 1, &f->fence);
  return ok;
}

typedef struct row {
  const char *name;
  uint32_t dispatches;
  double record_us[16], wall_us[16];
} row;

static void print_row(const row *r, int repeats, double raw_wall_per) {
  double rec[16], wall[16];
  memcpy(rec, r->record_us, sizeof rec);
  memcpy(wall, r->wall_us, sizeof wall);
  qsort(rec, (size_t)repeats, sizeof rec[0], cmp_double);
  qsort(wall, (size_t)repeats, sizeof wall[0], cmp_double);
  double rm = rec[repeats / 2], wm = wall[repeats / 2];
  double per = wm * 1e3 / r->dispatches;
  printf("| %-20s | %8u | %10.1f | %10.1f | %10.2f | %10.1f | %7.2fx |\n", r->name, r->dispatches,
         rm * 1e3 / r->dispatches, per, wm / 1e3, per - raw_wall_per, raw_wall_per > 0 ? per / raw_wall_per : 0.0);
}

int main(int argc, char **argv) {
  uint32_t D = 10000;
  int repeats = 5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--dispatches") && i + 1 < argc) D = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_dispatch_overhead [--dispatches D] [--repeats R (1..16)]\n");
      return 2;
    }
  }
  if (D < 20) D = 20;
  if (repeats < 1) repeats = 1;
  if (repeats > 16) repeats = 16;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  spvgen_vk_desc desc = {.no_disk_cache = true};
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) return printf("no Vulkan device: %s\n", msg), 77;
  if (st != SPVGEN_OK) return fprintf(stderr, "%s\n", msg), 1;
  vkf f;
  spvgen_kernel k = {0};
  spvgen_vk_pipeline *p = NULL;
  spvgen_vk_buffer *b[3] = {0};
  int rc = 1;
  if (!vkf_open(ctx, &f)) {
    fprintf(stderr, "cannot load the Vulkan functions (or no VK_KHR_push_descriptor)\n");
    goto done;
  }
  if (spvgen_elementwise(NULL, spvgen_vk_caps(ctx), &k, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "%s\n", msg);
    goto done;
  }
  for (int i = 0; i < 3; i++)
    if (spvgen_vk_buffer_create(ctx, 256, 0, &b[i]) != SPVGEN_OK) goto vk_error;
  const double t_pipe = now_us(); /* the pipeline's create: the driver's compile, or its cache */
  if (spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &p) != SPVGEN_OK) goto vk_error;
  const double pipeline_ms = (now_us() - t_pipe) / 1e3;
  uint64_t vk_pipe, vk_layout;
  spvgen_vk_pipeline_handles(p, &vk_pipe, &vk_layout);
  const uint32_t n = 64;
  spvgen_vk_buffer_range ranges[3] = {{.buffer = b[0]}, {.buffer = b[1]}, {.buffer = b[2]}};
  spvgen_vk_record_desc one = {.pipeline = p, .buffers = ranges, .buffer_count = 3, .push_data = &n,
                               .push_size = 4, .groups = {1, 1, 1}};
  spvgen_vk_record_desc *many = malloc(sizeof *many * D);
  if (!many) goto done;
  for (uint32_t i = 0; i < D; i++) many[i] = one;
  VkDescriptorBufferInfo bi[3];
  VkWriteDescriptorSet w[3];
  for (int i = 0; i < 3; i++) {
    bi[i] = (VkDescriptorBufferInfo){(VkBuffer)spvgen_vk_buffer_handle(b[i]), 0, 256};
    w[i] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, VK_NULL_HANDLE, (uint32_t)i, 0, 1,
                                  VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[i], NULL};
  }

  enum { ROWS = 8 };
  row rows[ROWS] = {{"raw dispatch", D, {0}, {0}},       {"raw bind+push", D, {0}, {0}},
                    {"cmd_dispatch x1", D, {0}, {0}},    {"cmd_dispatch batch", D, {0}, {0}},
                    {"cmd_dispatch batch+b", D, {0}, {0}}, {"submit batch", D, {0}, {0}},
                    {"submit x1", D, {0}, {0}},          {"dispatch (sync) x1", D / 20, {0}, {0}}};
  for (int rep = 0; rep < repeats; rep++) {
    double t0, t1;
    /* raw: state once, vkCmdDispatch only */
    begin(&f);
    t0 = now_us();
    f.CmdBindPipeline(f.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipeline)vk_pipe);
    f.CmdPushDescriptorSetKHR(f.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipelineLayout)vk_layout, 0, 3, w);
    f.CmdPushConstants(f.cmd, (VkPipelineLayout)vk_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
    for (uint32_t i = 0; i < D; i++) f.CmdDispatch(f.cmd, 1, 1, 1);
    t1 = now_us();
    if (!submit_wait(&f)) goto vk_error;
    rows[0].record_us[rep] = t1 - t0;
    rows[0].wall_us[rep] = now_us() - t0;
    /* raw: everything per dispatch */
    begin(&f);
    t0 = now_us();
    for (uint32_t i = 0; i < D; i++) {
      f.CmdBindPipeline(f.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipeline)vk_pipe);
      f.CmdPushDescriptorSetKHR(f.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipelineLayout)vk_layout, 0, 3, w);
      f.CmdPushConstants(f.cmd, (VkPipelineLayout)vk_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
      f.CmdDispatch(f.cmd, 1, 1, 1);
    }
    t1 = now_us();
    if (!submit_wait(&f)) goto vk_error;
    rows[1].record_us[rep] = t1 - t0;
    rows[1].wall_us[rep] = now_us() - t0;
    /* spvgen into the caller's command buffer */
    for (int mode = 0; mode < 3; mode++) {
      begin(&f);
      t0 = now_us();
      if (mode == 0) {
        for (uint32_t i = 0; i < D; i++)
          if (spvgen_vk_cmd_dispatch(ctx, f.cmd, &one, 1, 0) != SPVGEN_OK) goto vk_error;
      } else if (spvgen_vk_cmd_dispatch(ctx, f.cmd, many, D, mode == 1 ? SPVGEN_VK_RECORD_NO_BARRIERS : 0) != SPVGEN_OK) {
        goto vk_error;
      }
      t1 = now_us();
      if (!submit_wait(&f)) goto vk_error;
      rows[2 + mode].record_us[rep] = t1 - t0;
      rows[2 + mode].wall_us[rep] = now_us() - t0;
    }
    /* spvgen's own submissions */
    uint64_t ticket = 0;
    spvgen_vk_submit_desc sd = {.dispatches = many, .count = D, .flags = SPVGEN_VK_RECORD_NO_BARRIERS};
    t0 = now_us();
    if (spvgen_vk_submit(ctx, &sd, &ticket) != SPVGEN_OK) goto vk_error;
    t1 = now_us();
    if (spvgen_vk_wait(ctx, ticket) != SPVGEN_OK) goto vk_error;
    rows[5].record_us[rep] = t1 - t0;
    rows[5].wall_us[rep] = now_us() - t0;
    sd.dispatches = &one;
    sd.count = 1;
    t0 = now_us();
    for (uint32_t i = 0; i < D; i++)
      if (spvgen_vk_submit(ctx, &sd, &ticket) != SPVGEN_OK) goto vk_error;
    t1 = now_us();
    if (spvgen_vk_wait(ctx, ticket) != SPVGEN_OK) goto vk_error;
    rows[6].record_us[rep] = t1 - t0;
    rows[6].wall_us[rep] = now_us() - t0;
    t0 = now_us();
    for (uint32_t i = 0; i < D / 20; i++)
      if (spvgen_vk_dispatch(ctx, p, b, 3, &n, 4, 1, 1, 1, NULL) != SPVGEN_OK) goto vk_error;
    t1 = now_us();
    rows[7].record_us[rep] = t1 - t0;
    rows[7].wall_us[rep] = t1 - t0;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  printf("device %s (%s %s), %u dispatches of a 1-workgroup kernel, median of %d; its pipeline %.2f ms to create "
         "(the driver's compile, or its cache), before the timing\n\n",
         caps->name, caps->driver_name, caps->driver_info, D, repeats, pipeline_ms);
  printf("| %-20s | %8s | %10s | %10s | %10s | %10s | %8s |\n", "path", "count", "record ns", "wall ns", "wall ms",
         "+ns vs raw", "x raw");
  printf("|----------------------|----------|------------|------------|------------|------------|----------|\n");
  double wall0[16];
  memcpy(wall0, rows[0].wall_us, sizeof wall0);
  qsort(wall0, (size_t)repeats, sizeof wall0[0], cmp_double);
  double raw_per = wall0[repeats / 2] * 1e3 / D;
  for (int r = 0; r < ROWS; r++) print_row(&rows[r], repeats, raw_per);
  printf("\nrecord ns: host time to record one dispatch; wall ns: (record + submit + wait) / count;\n"
         "+ns vs raw: wall ns over the raw vkCmdDispatch loop's.\n");
  free(many);
  rc = 0;
  goto done;
vk_error:
  fprintf(stderr, "%s\n", spvgen_vk_error(ctx));
done:
  if (f.fence) f.DestroyFence(f.device, f.fence, NULL);
  if (f.pool) f.DestroyCommandPool(f.device, f.pool, NULL);
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
  return rc;
}
