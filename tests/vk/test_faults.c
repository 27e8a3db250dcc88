/* tests/vk/test_faults.c — the runner when the environment fails it (issue 15), each
 * answered by a named error. Faults that must not touch the test process (no loader,
 * no driver, exhausted memory) run in a child: this binary re-executed with
 * `--child CASE` under the faulty environment, printing "status: message" on stdout.
 *
 *   no loader       LD_LIBRARY_PATH puts a libvulkan.so.1 without Vulkan's entry points
 *                   first (built here with $SPVGEN_CC): spvgen_vk_create and
 *                   spvgen_vk_enumerate give SPVGEN_ERROR_NO_DEVICE "no Vulkan loader".
 *   no device       VK_DRIVER_FILES / VK_ICD_FILENAMES name a driver manifest that does
 *                   not exist: SPVGEN_ERROR_NO_DEVICE "no Vulkan device".
 *   out of memory   a 2 GiB buffer (within the device's maxMemoryAllocationSize) under an
 *                   address-space limit (RLIMIT_AS; on lavapipe only, whose memory is
 *                   the process's; not under a sanitizer, whose shadow memory needs the
 *                   address space): SPVGEN_ERROR_OUT_OF_MEMORY naming vkAllocateMemory
 *                   and the size; the context stays usable.
 *   pipeline        vkCreateShaderModule / vkCreateComputePipelines failing in the driver
 *   creation        (the same address-space limit, a 16 MiB module): a named
 *                   SPVGEN_ERROR_VULKAN or SPVGEN_ERROR_OUT_OF_MEMORY naming the call;
 *                   never a crash.
 * The other faults of the list are tested where their code is: a missing feature
 * (test_errors.c: test_module_needing_an_absent_feature_names_it, test_caps.c), a buffer
 * beyond the device's limits (test_buffer_larger_than_the_device_allows_is_named), a
 * dispatch beyond maxComputeWorkGroupCount (test_dispatch_arguments_are_checked_against_
 * the_pipeline; and here for each dimension), a submission past the timeout
 * (test_submission_past_the_timeout_is_named_and_stops_the_context). */
#define _GNU_SOURCE /* setenv, setrlimit */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vk_fixture.h"

static const char *g_self;

/* --------------------------------------------------------------- the child ---- */

extern void __sanitizer_set_death_callback(void (*callback)(void))
#if defined(__GNUC__)
    __attribute__((weak))
#endif
    ;
static bool under_sanitizer(void) { return __sanitizer_set_death_callback != NULL; }

/* Limits the address space to what is mapped now plus `extra` bytes. */
static bool limit_address_space(uint64_t extra) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!f) return false;
  if (fscanf(f, "%lu", &pages) != 1) pages = 0;
  fclose(f);
  if (!pages) return false;
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + extra;
  return setrlimit(RLIMIT_AS, &rl) == 0;
}

static int child(const char *what) {
  char msg[2048] = "";
  spvgen_vk_context *ctx = NULL;
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  if (!strcmp(what, "create")) {
    uint32_t n = 0;
    char emsg[1024] = "";
    spvgen_status est = spvgen_vk_enumerate(NULL, 0, &n, emsg, sizeof emsg);
    spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
    printf("enumerate %s (%u devices): %s\ncreate %s: %s\n", spvgen_status_name(est), n, emsg,
           spvgen_status_name(st), msg);
    spvgen_vk_destroy(ctx);
    return 0;
  }
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    printf("skip: %s: %s\n", spvgen_status_name(st), msg);
    return 0;
  }
  /* Only where device memory and the driver's compiler live in this process's address
   * space (lavapipe): a GPU driver's memory is not limited by RLIMIT_AS, and its
   * compiler may not survive the limit. */
  if (!strstr(spvgen_vk_caps(ctx)->name, "llvmpipe")) {
    printf("skip: %s is not lavapipe: an address-space limit does not exhaust its memory\n",
           spvgen_vk_caps(ctx)->name);
    spvgen_vk_destroy(ctx);
    return 0;
  }
  if (!strcmp(what, "oom")) {
    const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
    uint64_t size = 2ull << 30;
    if (caps->max_memory_allocation_size && caps->max_memory_allocation_size < size)
      size = caps->max_memory_allocation_size;
    if (!limit_address_space(256ull << 20)) {
      printf("skip: setrlimit failed\n");
      return 0;
    }
    spvgen_vk_buffer *buf = NULL;
    st = spvgen_vk_buffer_create(ctx, size, 0, &buf);
    printf("buffer %s: %s\n", spvgen_status_name(st), st ? spvgen_vk_error(ctx) : "");
    spvgen_vk_buffer_destroy(buf);
    /* Still usable: a small buffer works. */
    st = spvgen_vk_buffer_create(ctx, 4096, 0, &buf);
    printf("small buffer after %s\n", spvgen_status_name(st));
    spvgen_vk_buffer_destroy(buf);
  } else if (!strcmp(what, "pipeline")) {
    /* A valid 16 MiB module: a vector add padded with OpNop-free junk is not valid, so
     * pad with many OpName debug strings instead (valid, read by the driver). */
    spvgen_module *m = spvgen_module_create(NULL);
    vk_build_vector_add(m, 64);
    static char name[60000];
    memset(name, 'n', sizeof name - 1);
    uint32_t f32 = spvgen_type_float(m, 32);
    for (int i = 0; i < 280; i++) spvgen_name(m, f32, name);
    const uint32_t *w = NULL;
    size_t count = 0;
    st = spvgen_module_finish(m, &w, &count);
    if (st != SPVGEN_OK) {
      printf("skip: %s\n", spvgen_module_error(m));
      return 0;
    }
    spvgen_kernel_info info;
    memset(&info, 0, sizeof info);
    info.binding_count = 3;
    info.bindings[0] = (spvgen_binding){.set = 0, .binding = 0, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "a"};
    info.bindings[1] = (spvgen_binding){.set = 0, .binding = 1, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "b"};
    info.bindings[2] = (spvgen_binding){.set = 0, .binding = 2, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "c"};
    info.push_constant_size = 4;
    if (!limit_address_space(8ull << 20)) {
      printf("skip: setrlimit failed\n");
      return 0;
    }
    spvgen_vk_pipeline *pipe = NULL;
    st = spvgen_vk_pipeline_create(ctx, w, count, &info, NULL, &pipe);
    printf("pipeline %s: %s\n", spvgen_status_name(st), st ? spvgen_vk_error(ctx) : "");
    spvgen_vk_pipeline_destroy(pipe);
    spvgen_module_destroy(m);
  }
  spvgen_vk_destroy(ctx);
  return 0;
}

/* -------------------------------------------------------------- the parent ---- */

/* Runs this binary with --child `what` and env (NAME=VALUE entries, NULL-terminated; a
 * NULL value unsets); returns its stdout (static) or NULL after a failure. */
static const char *run_child(const char *what, const char *const *env) {
  static char out[8192];
  out[0] = 0;
  int fds[2];
  if (pipe(fds)) return NULL;
  pid_t pid = fork();
  if (pid < 0) return NULL;
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    for (const char *const *e = env; e && *e; e += 2) {
      if (e[1])
        setenv(e[0], e[1], 1);
      else
        unsetenv(e[0]);
    }
    execl(g_self, g_self, "--child", what, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while ((r = read(fds[0], out + n, sizeof out - 1 - n)) > 0) n += (size_t)r;
  out[n] = 0;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "the %s child did not exit cleanly (status 0x%x); its output: %s", what, status, out);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? out : NULL;
}

static void test_no_loader_is_named(void) {
  const char *cc = getenv("SPVGEN_CC");
  if (!cc || !*cc) cc = "cc";
  char dir[] = "/tmp/spvgen-noloader-XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK_MSG(0, "mkdtemp");
    return;
  }
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "printf 'int spvgen_not_vulkan;\\n' > %s/empty.c && %s -shared -fPIC -o %s/libvulkan.so.1 "
           "-Wl,-soname,libvulkan.so.1 %s/empty.c",
           dir, cc, dir, dir);
  if (system(cmd) != 0) {
    test_skip("cannot build a stand-in libvulkan.so.1 with %s", cc);
    return;
  }
  const char *const env[] = {"LD_LIBRARY_PATH", dir, NULL};
  const char *out = run_child("create", env);
  if (out) {
    CHECK_CONTAINS(out, "enumerate SPVGEN_ERROR_NO_DEVICE");
    CHECK_CONTAINS(out, "create SPVGEN_ERROR_NO_DEVICE: spvgen_vk_create: no Vulkan loader: libvulkan.so.1 could not be loaded");
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
}

static void test_no_driver_is_named(void) {
  const char *const env[] = {"VK_DRIVER_FILES", "/nonexistent/spvgen-no-driver.json", "VK_ICD_FILENAMES",
                             "/nonexistent/spvgen-no-driver.json", "VK_ADD_DRIVER_FILES", NULL, NULL};
  const char *out = run_child("create", env);
  if (out) {
    CHECK_CONTAINS(out, "enumerate SPVGEN_ERROR_NO_DEVICE");
    CHECK_CONTAINS(out, "create SPVGEN_ERROR_NO_DEVICE: ");
    CHECK_MSG(strstr(out, "no Vulkan driver") || strstr(out, "no Vulkan device"), "%s", out);
  }
}

static void test_out_of_memory_on_buffer_creation_is_named(void) {
  if (under_sanitizer()) {
    test_skip("an address-space limit and a sanitizer's shadow memory do not mix");
    return;
  }
  const char *out = run_child("oom", NULL);
  if (!out) return;
  if (!strncmp(out, "skip: ", 6)) {
    test_skip("%s", out + 6);
    return;
  }
  CHECK_CONTAINS(out, "buffer SPVGEN_ERROR_OUT_OF_MEMORY: spvgen_vk_buffer_create: vkAllocateMemory failed: VK_ERROR_OUT_OF_");
  CHECK_CONTAINS(out, "small buffer after SPVGEN_OK");
}

static void test_pipeline_creation_failing_in_the_driver_is_named(void) {
  if (under_sanitizer()) {
    test_skip("an address-space limit and a sanitizer's shadow memory do not mix");
    return;
  }
  const char *out = run_child("pipeline", NULL);
  if (!out) return;
  if (!strncmp(out, "skip: ", 6)) {
    test_skip("%s", out + 6);
    return;
  }
  /* lavapipe copies the words in vkCreateShaderModule: that is the call that fails. */
  CHECK_CONTAINS(out, "pipeline SPVGEN_ERROR_OUT_OF_MEMORY: spvgen_vk_pipeline_create: vk");
  CHECK_CONTAINS(out, " failed: VK_ERROR_OUT_OF_");
}

/* Every dimension of the grid is checked against maxComputeWorkGroupCount before
 * anything is recorded. */
static void test_dispatch_beyond_the_device_grid_is_named_per_dimension(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  vk_build_vector_add(m, 64);
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  info.binding_count = 3;
  info.bindings[0] = (spvgen_binding){.set = 0, .binding = 0, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "a"};
  info.bindings[1] = (spvgen_binding){.set = 0, .binding = 1, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "b"};
  info.bindings[2] = (spvgen_binding){.set = 0, .binding = 2, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "c"};
  info.push_constant_size = 4;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  if (w) {
    VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, w, count, &info, NULL, &pipe));
    for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 256, 0, &bufs[i]));
    const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
    uint32_t n = 64;
    for (int d = 0; d < 3; d++) {
      if (caps->max_workgroup_count[d] == UINT32_MAX) continue;
      uint32_t g[3] = {1, 1, 1};
      g[d] = caps->max_workgroup_count[d] + 1;
      char want[64];
      snprintf(want, sizeof want, "groups[%d] = %u", d, g[d]);
      VK_EXPECT_ERROR(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, g[0], g[1], g[2], NULL),
                      SPVGEN_ERROR_INVALID_ARGUMENT, want);
    }
    /* Still usable. */
    VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, 1, 1, 1, NULL));
  }
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  g_self = argv[0];
  if (argc == 3 && !strcmp(argv[1], "--child")) return child(argv[2]);
  static const test_case tests[] = {
      TEST_CASE(test_no_loader_is_named),
      TEST_CASE(test_no_driver_is_named),
      TEST_CASE(test_out_of_memory_on_buffer_creation_is_named),
      TEST_CASE(test_pipeline_creation_failing_in_the_driver_is_named),
      TEST_CASE(test_dispatch_beyond_the_device_grid_is_named_per_dimension),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
