/* samples/embed — spvgen inside an application that owns Vulkan, the way a framework
 * would use it: the application creates its VkInstance and VkDevice itself (here with
 * volk), hands them to spvgen_vk_wrap, runs a generated kernel through the runner, and
 * keeps owning and destroying its objects. The kernel is the elementwise template,
 * c[i] = a[i] + b[i] over f32, with n in a push constant.
 *
 *   build/samples/embed          exit 0 when c matches, 1 on error, 77 without Vulkan */
#include <stdio.h>
#include <stdlib.h>

#include <volk.h>

#include <spvgen/spvgen.h>

#define N 100000u

static int fail(const char *what, VkResult r) {
  fprintf(stderr, "embed: %s failed: %d\n", what, (int)r);
  return 1;
}

int main(void) {
  /* ---- the application's own Vulkan setup ---- */
  if (volkInitialize() != VK_SUCCESS) return printf("embed: no Vulkan loader: skipped\n"), 77;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkInstance instance;
  VkResult r = vkCreateInstance(&ici, NULL, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) return printf("embed: no Vulkan driver: skipped\n"), 77;
  if (r != VK_SUCCESS) return fail("vkCreateInstance", r);
  volkLoadInstance(instance);
  uint32_t count = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  r = vkEnumeratePhysicalDevices(instance, &count, &gpu);
  if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
    vkDestroyInstance(instance, NULL);
    return printf("embed: no Vulkan device: skipped\n"), 77;
  }
  uint32_t nq = 0, family = UINT32_MAX;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &nq, NULL);
  VkQueueFamilyProperties qf[16];
  nq = nq > 16 ? 16 : nq;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &nq, qf);
  for (uint32_t i = 0; i < nq && family == UINT32_MAX; i++)
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
  /* The kernel uses the Vulkan memory model (spvgen's default): enable it. */
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                          .vulkanMemoryModel = VK_TRUE,
                                          .vulkanMemoryModelDeviceScope = VK_TRUE};
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = family, .queueCount = 1, .pQueuePriorities = &priority};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f12,
                            .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
  VkDevice device;
  if (family == UINT32_MAX || (r = vkCreateDevice(gpu, &dci, NULL, &device)) != VK_SUCCESS) {
    vkDestroyInstance(instance, NULL);
    return fail("vkCreateDevice (a compute queue with vulkanMemoryModel)", r);
  }
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  /* ---- spvgen on top of it ---- */
  spvgen_vk_wrap_desc wd = {.instance = instance, .physical_device = gpu, .device = device,
                            .queue = queue, .queue_family_index = family,
                            .get_instance_proc_addr = (spvgen_vk_proc)vkGetInstanceProcAddr,
                            /* what we enabled above (spvgen cannot ask the device): the
                             * create info itself, so nothing is overstated */
                            .device_create_info = &dci};
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  spvgen_kernel kernel = {0};
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *buf[3] = {0};
  float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
  int rc = 1;
  for (uint32_t i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i;
  if (spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_elementwise(NULL, spvgen_vk_caps(ctx), &kernel, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "embed: %s\n", msg);
    goto done;
  }
  uint32_t n = N, groups = (N + kernel.info.local_size[0] - 1) / kernel.info.local_size[0];
  for (int i = 0; i < 3; i++)
    if (spvgen_vk_buffer_create(ctx, N * sizeof(float), 0, &buf[i]) != SPVGEN_OK) goto vk_error;
  if (spvgen_vk_buffer_upload(ctx, buf[0], 0, a, N * sizeof *a) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, buf[1], 0, b, N * sizeof *b) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(ctx, &kernel, NULL, &pipe) != SPVGEN_OK ||
      spvgen_vk_dispatch(ctx, pipe, buf, 3, &n, sizeof n, groups, 1, 1, NULL) != SPVGEN_OK ||
      spvgen_vk_buffer_download(ctx, buf[2], 0, c, N * sizeof *c) != SPVGEN_OK)
    goto vk_error;
  rc = 0;
  for (uint32_t i = 0; i < N && !rc; i++)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "embed: c[%u] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      rc = 1;
    }
  printf("embed: c = a + b over %u floats on the application's device '%s': %s\n", N,
         spvgen_vk_caps(ctx)->name, rc ? "MISMATCH" : "ok");
  goto done;
vk_error:
  fprintf(stderr, "embed: %s\n", spvgen_vk_error(ctx));
done:
  spvgen_vk_destroy(ctx); /* spvgen's buffers and pipeline; never the wrapped objects */
  spvgen_kernel_free(&kernel);
  free(a), free(b), free(c);
  vkDestroyDevice(device, NULL); /* ours to destroy */
  vkDestroyInstance(instance, NULL);
  return rc;
}
