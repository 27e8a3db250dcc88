/* samples/framework — spvgen inside a small inference engine that owns everything, the way
 * an ML framework's Vulkan backend does:
 *   - its own VkInstance and VkDevice (volk), created with exactly the features its
 *     kernels' infos list (spvgen_device_caps_from_vk to plan first, then
 *     spvgen_vk_features_chain), and handed to spvgen_vk_wrap with its VkDeviceCreateInfo;
 *   - its own memory: ONE allocation and one VkBuffer, sub-allocated at the device's
 *     offset alignment for every tensor;
 *   - its own command buffer: a GEMM with bias and GELU (H = gelu(X W^T + b), the weights
 *     stored as a linear layer stores them, N x K), then a fused MLP on H, recorded with
 *     spvgen_vk_cmd_dispatch and the engine's own barriers, submitted once, waited on with
 *     the engine's fence;
 *   - every element of H and of the MLP's output checked against the CPU.
 * The plans are the device's: SIMT GEMM and loop MLP on lavapipe (CI), cooperative
 * variants on a GPU that has them.
 *
 *   build/samples/framework [M]     exit 0 when everything matches, 1 on a mismatch or an
 *                                   error, 77 without Vulkan */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <volk.h>

#include <spvgen/spvgen.h>

/* The model: X (M x K) -> linear K->N with bias, GELU -> MLP N -> 64 -> 64 -> OUT. */
#define K 96
#define N 64
#define OUT 16

/* ------------------------- f16 on the CPU: the builder's codec (spvgen/builder.h) ---- */
static uint16_t to_f16(double x) {
  uint64_t bits = 0;
  spvgen_float_bits(16, SPVGEN_ABSENT, x, &bits);
  return (uint16_t)bits;
}
static double from_f16(uint16_t h) {
  double v = 0;
  spvgen_float_value(16, SPVGEN_ABSENT, h, &v);
  return v;
}
static double rnd(void) { return 2.0 * rand() / RAND_MAX - 1; }
static double gelu(double x) { /* the tanh approximation, as spvgen's epilogue */
  return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

/* ------------------------------------------------------------------- engine ---- */
typedef struct engine {
  VkInstance instance;
  VkPhysicalDevice gpu;
  VkPhysicalDeviceProperties props;
  uint32_t family;
  VkDevice device;
  VkQueue queue;
  /* one allocation, one buffer over all of it, a bump allocator */
  VkDeviceMemory memory;
  VkBuffer buffer;
  unsigned char *mapped;
  VkDeviceSize size, used;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
  spvgen_vk_context *spvgen;
} engine;

/* A tensor: a range of the engine's buffer. */
typedef struct tensor {
  VkDeviceSize offset, bytes;
  void *host;
} tensor;

static int fail(const char *what, VkResult r) {
  fprintf(stderr, "framework: %s failed: %d\n", what, (int)r);
  return 1;
}

static tensor engine_alloc(engine *e, VkDeviceSize bytes) {
  VkDeviceSize align = e->props.limits.minStorageBufferOffsetAlignment;
  if (align < 16) align = 16;
  VkDeviceSize at = (e->used + align - 1) / align * align;
  tensor t = {at, bytes, e->mapped + at};
  e->used = at + bytes;
  return t;
}

static spvgen_vk_buffer_range range_of(const engine *e, tensor t) {
  return (spvgen_vk_buffer_range){.handle = (uint64_t)e->buffer, .offset = t.offset, .range = t.bytes};
}

static void barrier(engine *e, VkPipelineStageFlags src, VkAccessFlags src_access, VkPipelineStageFlags dst,
                    VkAccessFlags dst_access) {
  VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, src_access, dst_access};
  vkCmdPipelineBarrier(e->cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

static bool has_extension(VkPhysicalDevice gpu, const char *name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(gpu, NULL, &n, NULL);
  VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
  bool found = false;
  if (p && vkEnumerateDeviceExtensionProperties(gpu, NULL, &n, p) == VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; i++) found = !strcmp(p[i].extensionName, name);
  free(p);
  return found;
}

int main(int argc, char **argv) {
  uint32_t M = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 200; /* not a tile multiple */
  if (!M) return fprintf(stderr, "usage: framework [M]\n"), 2;
  engine e;
  memset(&e, 0, sizeof e);
  char msg[1024];
  int rc = 1;
  spvgen_kernel gk = {0}, mk = {0};

  /* ---- 1. instance, physical device, queue family: the engine's own ---- */
  if (volkInitialize() != VK_SUCCESS) return printf("framework: no Vulkan loader: skipped\n"), 77;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkResult r = vkCreateInstance(&ici, NULL, &e.instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) return printf("framework: no Vulkan driver: skipped\n"), 77;
  if (r != VK_SUCCESS) return fail("vkCreateInstance", r);
  volkLoadInstance(e.instance);
  uint32_t count = 8;
  VkPhysicalDevice gpus[8];
  r = vkEnumeratePhysicalDevices(e.instance, &count, gpus);
  if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
    vkDestroyInstance(e.instance, NULL);
    return printf("framework: no Vulkan device: skipped\n"), 77;
  }
  e.gpu = gpus[0]; /* a discrete GPU where there is one */
  for (uint32_t i = 0; i < count; i++) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(gpus[i], &p);
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
      e.gpu = gpus[i];
      break;
    }
  }
  vkGetPhysicalDeviceProperties(e.gpu, &e.props);
  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(e.gpu, &nq, NULL);
  VkQueueFamilyProperties qf[16];
  nq = nq > 16 ? 16 : nq;
  vkGetPhysicalDeviceQueueFamilyProperties(e.gpu, &nq, qf);
  e.family = UINT32_MAX;
  for (uint32_t i = 0; i < nq && e.family == UINT32_MAX; i++)
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) e.family = i;
  if (e.family == UINT32_MAX || e.props.apiVersion < VK_API_VERSION_1_2 ||
      !has_extension(e.gpu, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    printf("framework: '%s' lacks a compute queue, Vulkan 1.2 or VK_KHR_push_descriptor: skipped\n",
           e.props.deviceName);
    vkDestroyInstance(e.instance, NULL);
    return 77;
  }

  /* ---- 2. the kernels, planned for what the device supports ---- */
  spvgen_device_caps supported;
  if (spvgen_device_caps_from_vk((spvgen_vk_proc)vkGetInstanceProcAddr, e.instance, e.gpu, NULL, e.family,
                                 &supported, msg, sizeof msg) != SPVGEN_OK)
    goto spvgen_error;
  /* H = gelu(X W^T + b): X row-major M x K, W as a linear layer stores it (N x K, i.e.
   * B = W^T column-major), the bias per column of H. f16 in, f32 accumulation, f16 out. */
  spvgen_gemm_desc gd = {.m = M, .n = N, .k = K, .a_type = SPVGEN_COMPONENT_F16, .b_type = SPVGEN_COMPONENT_F16,
                         .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F16,
                         .b_layout = SPVGEN_COL_MAJOR, .bias = SPVGEN_GEMM_BIAS_COLUMN,
                         .activation = SPVGEN_ACTIVATION_GELU,
                         /* this engine binds no split-K workspace (the plan would split K for
                          * a few rows against wide weights, then a binding more) */
                         .split_k = 1};
  /* The MLP reads H as its points (M points of N f16 values: the same memory layout). */
  spvgen_mlp_desc md = {.input_width = N, .output_width = OUT, .hidden_count = 2, .hidden_width = 64,
                        .input_type = SPVGEN_COMPONENT_F16, .output_type = SPVGEN_COMPONENT_F32};
  spvgen_gemm_config gplan;
  spvgen_mlp_config mplan;
  if (spvgen_gemm_plan(&gd, &supported, &gplan, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_gemm(&gd, &supported, &gk, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp_plan(&md, &supported, &mplan, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp(&md, &supported, &mk, msg, sizeof msg) != SPVGEN_OK)
    goto spvgen_error;

  /* ---- 3. the device, with exactly the features the kernels' words need ---- */
  uint64_t need = gk.info.features | mk.info.features;
  spvgen_vk_feature_chain chain;
  const char *exts[16];
  uint32_t next = 0;
  void *features2 = spvgen_vk_features_chain(need, e.props.apiVersion, true, &chain, NULL, exts, 16, &next);
  if (!features2 || next > 16) {
    fprintf(stderr, "framework: spvgen_vk_features_chain failed\n");
    goto done;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = e.family,
                                 .queueCount = 1, .pQueuePriorities = &priority};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = features2,
                            .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = next, .ppEnabledExtensionNames = exts};
  if ((r = vkCreateDevice(e.gpu, &dci, NULL, &e.device)) != VK_SUCCESS) {
    rc = fail("vkCreateDevice", r);
    goto done;
  }
  volkLoadDevice(e.device);
  vkGetDeviceQueue(e.device, e.family, 0, &e.queue);
  spvgen_vk_wrap_desc wd = {.instance = e.instance, .physical_device = e.gpu, .device = e.device, .queue = e.queue,
                            .queue_family_index = e.family,
                            .get_instance_proc_addr = (spvgen_vk_proc)vkGetInstanceProcAddr,
                            .device_create_info = &dci}; /* what the device really has on */
  if (spvgen_vk_wrap(&wd, &e.spvgen, msg, sizeof msg) != SPVGEN_OK) goto spvgen_error;
  printf("device  %s (%s)\ngemm    %s\nmlp     %s\n", e.props.deviceName, spvgen_vk_caps(e.spvgen)->driver_name,
         gplan.name, mplan.name);

  /* ---- 4. memory: one allocation, one buffer, sub-allocated ---- */
  e.size = 2ull * M * K + 2ull * N * K + 2ull * N + 2ull * M * N + mplan.weight_bytes + 4ull * M * OUT + 8 * 4096;
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = e.size,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
  if ((r = vkCreateBuffer(e.device, &bci, NULL, &e.buffer)) != VK_SUCCESS) {
    rc = fail("vkCreateBuffer", r);
    goto done;
  }
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(e.device, e.buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(e.gpu, &mem);
  uint32_t type = UINT32_MAX;
  VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < mem.memoryTypeCount && type == UINT32_MAX; i++)
    if ((req.memoryTypeBits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & want) == want) type = i;
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                              .memoryTypeIndex = type};
  if (type == UINT32_MAX || (r = vkAllocateMemory(e.device, &mai, NULL, &e.memory)) != VK_SUCCESS ||
      (r = vkBindBufferMemory(e.device, e.buffer, e.memory, 0)) != VK_SUCCESS ||
      (r = vkMapMemory(e.device, e.memory, 0, VK_WHOLE_SIZE, 0, (void **)&e.mapped)) != VK_SUCCESS) {
    rc = fail("one host-visible allocation", r);
    goto done;
  }
  tensor X = engine_alloc(&e, 2ull * M * K), W = engine_alloc(&e, 2ull * N * K), B = engine_alloc(&e, 2ull * N),
         H = engine_alloc(&e, 2ull * M * N), MW = engine_alloc(&e, mplan.weight_bytes),
         Y = engine_alloc(&e, 4ull * M * OUT);
  srand(7);
  uint16_t *x = X.host, *w = W.host, *b = B.host, *h = H.host, *mw = MW.host;
  float *y = Y.host;
  for (uint64_t i = 0; i < (uint64_t)M * K; i++) x[i] = to_f16((float)rnd());
  for (uint64_t i = 0; i < (uint64_t)N * K; i++) w[i] = to_f16((float)(rnd() / sqrt(K)));
  for (uint32_t i = 0; i < N; i++) b[i] = to_f16((float)(0.2 * rnd()));
  memset(mw, 0, mplan.weight_bytes);
  for (uint32_t l = 0; l < mplan.layer_count; l++) {
    const spvgen_mlp_layer *L = &mplan.layers[l];
    for (uint32_t o = 0; o < L->outputs; o++) {
      for (uint32_t j = 0; j < L->inputs; j++)
        mw[L->matrix_offset / 2 + o * (L->row_stride / 2) + j] = to_f16((float)(rnd() / sqrt(L->inputs)));
      mw[L->bias_offset / 2 + o] = to_f16((float)(0.1 * rnd()));
    }
  }
  for (uint64_t i = 0; i < (uint64_t)M * N; i++) h[i] = 0x7E00; /* NaN: unwritten shows */
  for (uint64_t i = 0; i < (uint64_t)M * OUT; i++) y[i] = NAN;

  /* ---- 5. pipelines (spvgen's, on the engine's device) ---- */
  spvgen_vk_pipeline *gp = NULL, *mp = NULL;
  if (spvgen_vk_pipeline_create_kernel(e.spvgen, &gk, NULL, &gp) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(e.spvgen, &mk, NULL, &mp) != SPVGEN_OK)
    goto runner_error;

  /* ---- 6. one command buffer: barrier, GEMM, barrier, MLP, barrier; one submit ---- */
  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = e.family};
  VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkCommandBufferBeginInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  if ((r = vkCreateCommandPool(e.device, &pci, NULL, &e.pool)) != VK_SUCCESS ||
      (cai.commandPool = e.pool, (r = vkAllocateCommandBuffers(e.device, &cai, &e.cmd)) != VK_SUCCESS) ||
      (r = vkCreateFence(e.device, &fci, NULL, &e.fence)) != VK_SUCCESS ||
      (r = vkBeginCommandBuffer(e.cmd, &cbi)) != VK_SUCCESS) {
    rc = fail("command buffer setup", r);
    goto done;
  }
  /* The host's writes before the kernels read them. */
  barrier(&e, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  spvgen_vk_buffer_range gr[4] = {range_of(&e, X), range_of(&e, W), range_of(&e, H), range_of(&e, B)};
  spvgen_vk_record_desc gemm = {.pipeline = gp, .buffers = gr, .buffer_count = gk.info.binding_count,
                                .groups = {gk.info.groups[0], gk.info.groups[1], gk.info.groups[2]}};
  if (spvgen_vk_cmd_dispatch(e.spvgen, e.cmd, &gemm, 1, 0) != SPVGEN_OK) goto runner_error;
  /* H written by the GEMM before the MLP reads it. */
  barrier(&e, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT);
  spvgen_vk_buffer_range mr[3] = {range_of(&e, H), range_of(&e, MW), range_of(&e, Y)};
  uint32_t groups[3];
  spvgen_mlp_groups(&mplan, M, groups);
  spvgen_vk_record_desc mlp = {.pipeline = mp, .buffers = mr, .buffer_count = 3, .push_data = &M, .push_size = 4,
                               .groups = {groups[0], groups[1], groups[2]}};
  if (spvgen_vk_cmd_dispatch(e.spvgen, e.cmd, &mlp, 1, 0) != SPVGEN_OK) goto runner_error;
  /* The kernels' writes before the host reads the mapping. */
  barrier(&e, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &e.cmd};
  if ((r = vkEndCommandBuffer(e.cmd)) != VK_SUCCESS || (r = vkQueueSubmit(e.queue, 1, &si, e.fence)) != VK_SUCCESS ||
      (r = vkWaitForFences(e.device, 1, &e.fence, VK_TRUE, 60ull * 1000000000ull)) != VK_SUCCESS) {
    rc = fail("submit and wait", r);
    goto done;
  }

  /* ---- 7. every element against the CPU ---- */
  uint64_t bad_h = 0, bad_y = 0;
  double max_h = 0, max_y = 0;
  for (uint32_t i = 0; i < M; i++)
    for (uint32_t j = 0; j < N; j++) {
      double s = from_f16(b[j]), mag = fabs(s);
      for (uint32_t k = 0; k < K; k++) {
        double t = from_f16(x[(uint64_t)i * K + k]) * from_f16(w[(uint64_t)j * K + k]);
        s += t, mag += fabs(t);
      }
      double ref = gelu(s), got = from_f16(h[(uint64_t)i * N + j]);
      /* f16 output (2^-11 relative), f32 accumulation, the device's tanh */
      double err = fabs(got - ref), tol = 0x1p-10 * fabs(ref) + 0x1p-14 * mag + 1e-3;
      if (err > max_h) max_h = err;
      if (!(err <= tol) && bad_h++ < 3)
        fprintf(stderr, "framework: H[%u][%u] = %g, expected %g\n", i, j, got, ref);
    }
  double xs[64], ys[64];
  for (uint32_t p = 0; p < M; p++) { /* the MLP from the device's H */
    double mag = 0;
    for (uint32_t c = 0; c < N; c++) xs[c] = from_f16(h[(uint64_t)p * N + c]);
    for (uint32_t l = 0; l < mplan.layer_count; l++) {
      const spvgen_mlp_layer *L = &mplan.layers[l];
      double lmag = 0;
      for (uint32_t o = 0; o < L->outputs; o++) {
        double z = from_f16(mw[L->bias_offset / 2 + o]), m = fabs(z);
        for (uint32_t j = 0; j < L->inputs; j++) {
          double t = from_f16(mw[L->matrix_offset / 2 + o * (L->row_stride / 2) + j]) * xs[j];
          z += t, m += fabs(t);
        }
        ys[o] = l + 1 < mplan.layer_count && z < 0 ? 0 : z;
        if (m > lmag) lmag = m;
      }
      mag += lmag;
      memcpy(xs, ys, sizeof(double) * L->outputs);
    }
    for (uint32_t c = 0; c < OUT; c++) {
      double err = fabs(y[(uint64_t)p * OUT + c] - xs[c]);
      if (err > max_y) max_y = err;
      /* the device may keep activations in f16 between layers (vec, mat variants) */
      if (!(err <= 0x1p-8 * mag + 1e-6) && bad_y++ < 3)
        fprintf(stderr, "framework: Y[%u][%u] = %g, expected %g\n", p, c, y[(uint64_t)p * OUT + c], xs[c]);
    }
  }
  printf("check   H = gelu(X W^T + b): %llu of %llu off (max |error| %.3g); MLP: %llu of %llu off (max |error| %.3g)\n",
         (unsigned long long)bad_h, (unsigned long long)M * N, max_h, (unsigned long long)bad_y,
         (unsigned long long)M * OUT, max_y);
  printf("memory  one allocation of %llu bytes, six tensors; one command buffer, one submission\n",
         (unsigned long long)req.size);
  rc = bad_h || bad_y ? 1 : 0;
  goto done;

runner_error:
  fprintf(stderr, "framework: %s\n", spvgen_vk_error(e.spvgen));
  goto done;
spvgen_error:
  fprintf(stderr, "framework: %s\n", msg);
done:
  /* spvgen's objects first (never the engine's), then the engine's own. */
  spvgen_vk_destroy(e.spvgen);
  spvgen_kernel_free(&gk);
  spvgen_kernel_free(&mk);
  if (e.device) {
    if (e.fence) vkDestroyFence(e.device, e.fence, NULL);
    if (e.pool) vkDestroyCommandPool(e.device, e.pool, NULL);
    if (e.buffer) vkDestroyBuffer(e.device, e.buffer, NULL);
    if (e.memory) vkFreeMemory(e.device, e.memory, NULL);
    vkDestroyDevice(e.device, NULL);
  }
  vkDestroyInstance(e.instance, NULL);
  return rc;
}
