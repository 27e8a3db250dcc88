/* tools/spvgen/cmd_cache.c — `spvgen cache`: the kernel cache's files on disk (one
 * VkPipelineCache per device and driver, spvgen/vk.h "Kernel cache"): where they are,
 * which devices they are for, export to one bundle file (to ship with an application),
 * import, clear. No device is needed except for `path`'s device line. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/vk.h"

static void cache_usage(FILE *o) {
  fprintf(o, "usage: spvgen cache path\n"
             "       spvgen cache list [--dir DIR]\n"
             "       spvgen cache export FILE [--dir DIR]\n"
             "       spvgen cache import FILE [--dir DIR]\n"
             "       spvgen cache clear [--dir DIR]\n\n"
             "The kernel cache on disk: one pipeline cache file per device and driver version\n"
             "(pipelines-VENDOR-DEVICE-DRIVER-UUID.bin), read when a runner context opens its\n"
             "device and written back when it closes. SPVGEN_PIPELINE_CACHE=off turns it off,\n"
             "SPVGEN_PIPELINE_CACHE=DIR moves it.\n\n"
             "path     the directory, and the file of the first Vulkan device\n"
             "list     each file: its device, driver version, bytes, or why it would be ignored\n"
             "export   every valid file into one bundle FILE (to ship with an application)\n"
             "import   a bundle's files into the directory (a device's file already there is\n"
             "         kept: the import waits beside it and is merged when that device opens)\n"
             "clear    removes the cache files\n\n"
             "  --dir DIR   the cache directory (default: $XDG_CACHE_HOME/spvgen, or\n"
             "              $HOME/.cache/spvgen)\n\n"
             "examples:\n"
             "  spvgen cache export myapp-kernels.spvgenkc\n"
             "  spvgen cache import myapp-kernels.spvgenkc\n");
}

/* The directory: --dir, else $SPVGEN_PIPELINE_CACHE when it is a path, else the default. */
static int cache_dir(const char *given, char *out, size_t size) {
  const char *env = getenv("SPVGEN_PIPELINE_CACHE");
  if (given) snprintf(out, size, "%s", given);
  else if (env && strchr(env, '/')) snprintf(out, size, "%s", env);
  else if (spvgen_vk_kernel_cache_dir(out, size) != SPVGEN_OK) {
    fprintf(stderr, "spvgen cache: no cache directory: set XDG_CACHE_HOME or HOME, or give --dir\n");
    return 1;
  }
  return 0;
}

static bool is_cache_file(const char *name) {
  size_t n = strlen(name);
  return !strncmp(name, "pipelines-", 10) &&
         ((n > 14 && !strcmp(name + n - 4, ".bin")) || (n > 21 && !strcmp(name + n - 11, ".bin.import")));
}

int spvgen_cmd_cache(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    cache_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *sub = argv[1], *file = NULL, *dir_arg = NULL;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--dir")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("cache", "--dir needs a directory");
      dir_arg = argv[++i];
    } else if (argv[i][0] == '-') {
      return spvgen_cli_usage_error("cache", "unknown option '%s'", argv[i]);
    } else if (!file) {
      file = argv[i];
    } else {
      return spvgen_cli_usage_error("cache", "unexpected argument '%s'", argv[i]);
    }
  }
  bool needs_file = !strcmp(sub, "export") || !strcmp(sub, "import");
  if (needs_file != (file != NULL))
    return spvgen_cli_usage_error("cache", needs_file ? "%s needs a FILE" : "%s takes no FILE", sub);
  char dir[1024], msg[2048];
  if (cache_dir(dir_arg, dir, sizeof dir)) return 1;
  if (!strcmp(sub, "path")) {
    printf("%s\n", dir);
    spvgen_vk_desc d = {.cache_dir = dir};
    spvgen_vk_context *ctx = NULL;
    if (spvgen_vk_create(&d, &ctx, msg, sizeof msg) == SPVGEN_OK) {
      spvgen_vk_kernel_cache_stats st;
      spvgen_vk_kernel_cache_stats_get(ctx, &st);
      printf("%s: %s%s%s\n", spvgen_vk_caps(ctx)->name, st.path[0] ? st.path : "off", st.notice[0] ? " -- " : "",
             st.notice);
      spvgen_vk_destroy(ctx);
    }
    return 0;
  }
  if (!strcmp(sub, "list") || !strcmp(sub, "clear")) {
    DIR *d = opendir(dir);
    if (!d) {
      printf("%s: no cache files (the directory does not exist)\n", dir);
      return 0;
    }
    struct dirent *e;
    int files = 0, removed = 0;
    while ((e = readdir(d)) != NULL) {
      if (!is_cache_file(e->d_name)) continue;
      char path[2100];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      files++;
      if (!strcmp(sub, "clear")) {
        if (remove(path) == 0) removed++;
        else fprintf(stderr, "spvgen cache: cannot remove %s\n", path);
        continue;
      }
      spvgen_device_caps id;
      uint64_t bytes = 0;
      if (spvgen_vk_kernel_cache_file_check(path, &id, &bytes, msg, sizeof msg) == SPVGEN_OK)
        printf("%s  vendor 0x%04x device 0x%04x driver 0x%08x  %llu bytes\n", e->d_name, id.vendor_id, id.device_id,
               id.driver_version, (unsigned long long)bytes);
      else
        printf("%s  IGNORED: %s\n", e->d_name, msg);
    }
    closedir(d);
    if (!strcmp(sub, "clear")) printf("%s: removed %d of %d cache files\n", dir, removed, files);
    else if (!files) printf("%s: no cache files\n", dir);
    return removed == files ? 0 : 1;
  }
  uint32_t count = 0;
  if (!strcmp(sub, "export")) {
    if (spvgen_vk_kernel_cache_export(dir, file, &count, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen cache export: %s\n", msg);
      return 1;
    }
    printf("exported %u cache file%s from %s to %s\n", count, count == 1 ? "" : "s", dir, file);
    return 0;
  }
  if (!strcmp(sub, "import")) {
    if (spvgen_vk_kernel_cache_import(dir, file, &count, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen cache import: %s\n", msg);
      return 1;
    }
    printf("imported %u cache file%s from %s into %s\n", count, count == 1 ? "" : "s", file, dir);
    return 0;
  }
  return spvgen_cli_usage_error("cache", "unknown subcommand '%s' (path, list, export, import, clear)", sub);
}
