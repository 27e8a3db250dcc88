/* lib/vk/pipeline_cache.c — the kernel cache on disk: the context's VkPipelineCache read
 * from and written back to one file per device and driver under the XDG cache directory,
 * checked before the driver sees it (magic, version, device identity, length, checksum,
 * the Vulkan header inside), written atomically (temporary file, fsync, rename) and
 * merged with what another process wrote meanwhile; and the export / import of those
 * files as one bundle (`spvgen cache export/import`). A bad file is ignored with a notice,
 * never trusted and never a crash. */
#define _POSIX_C_SOURCE 200809L /* fsync, fileno, mkdir, opendir */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* File layout (little-endian, what x86 and ARM hosts write):
 *   0  magic "SPVGPC01"      8 bytes
 *   8  header size (64)      u32
 *  12  vendorID, deviceID, driverVersion   3 x u32
 *  24  pipelineCacheUUID     16 bytes
 *  40  data size             u64
 *  48  FNV-1a 64 of the data u64
 *  56  zero                  8 bytes
 *  64  the vkGetPipelineCacheData bytes */
#define CACHE_MAGIC "SPVGPC01"
#define CACHE_HEADER 64u
#define BUNDLE_MAGIC "SPVGPCB1"
/* Larger files are not caches spvgen wrote (a guard for reading them whole). */
#define CACHE_MAX_BYTES (1ull << 31)

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}
static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

spvgen_status spvgen_vk_kernel_cache_dir(char *path, size_t size) {
  if (!path || !size) return SPVGEN_ERROR_INVALID_ARGUMENT;
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg && xdg[0] == '/') n = snprintf(path, size, "%s/spvgen", xdg);
  else if (home && home[0]) n = snprintf(path, size, "%s/.cache/spvgen", home);
  else {
    path[0] = 0;
    return SPVGEN_ERROR_IO;
  }
  return n > 0 && (size_t)n < size ? SPVGEN_OK : SPVGEN_ERROR_IO;
}

/* The file name of a device's cache. */
static void cache_name(const spvgen_device_caps *c, char *out, size_t size) {
  char uuid[33];
  for (int i = 0; i < 16; i++) sg_vk_format(uuid + 2 * i, 3, "%02x", c->pipeline_cache_uuid[i]);
  sg_vk_format(out, size, "pipelines-%04x-%04x-%08x-%s.bin", c->vendor_id, c->device_id,
           c->driver_version, uuid);
}

/* mkdir -p (0700: the cache holds compiled code of this user's programs). */
static bool make_dirs(const char *dir) {
  char tmp[1024];
  if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) return false;
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(tmp, 0700) != 0 && errno != EEXIST) return false;
      *p = '/';
    }
  return mkdir(tmp, 0700) == 0 || errno == EEXIST;
}

/* Reads a whole file (at most CACHE_MAX_BYTES); NULL with *missing when absent. */
static unsigned char *read_file(const char *path, size_t *size, bool *missing, char *why,
                                size_t why_size) {
  *missing = false;
  *size = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    *missing = errno == ENOENT;
    sg_vk_format(why, why_size, "cannot open it: %s", strerror(errno));
    return NULL;
  }
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      if (cap >= CACHE_MAX_BYTES) {
        sg_vk_format(why, why_size, "over %llu bytes: not a cache spvgen wrote",
                 (unsigned long long)CACHE_MAX_BYTES);
        free(buf);
        fclose(f);
        return NULL;
      }
      size_t want = cap ? 2 * cap : 65536;
      unsigned char *nb = realloc(buf, want);
      if (!nb) {
        sg_vk_format(why, why_size, "out of memory");
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
      cap = want;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  bool err = ferror(f) != 0;
  fclose(f);
  if (err) {
    sg_vk_format(why, why_size, "read error");
    free(buf);
    return NULL;
  }
  *size = n;
  return buf ? buf : malloc(1);
}

/* Checks a cache file's bytes; for_caps (optional): the device it must be of. On success
 * *data / *data_size point into file. */
static bool check_file(const unsigned char *file, size_t size, const spvgen_device_caps *for_caps,
                       spvgen_device_caps *identity, const unsigned char **data, size_t *data_size,
                       char *why, size_t why_size) {
  if (size < CACHE_HEADER || memcmp(file, CACHE_MAGIC, 7) != 0) {
    sg_vk_format(why, why_size, "not a spvgen pipeline cache (bad magic or shorter than its header)");
    return false;
  }
  if (file[7] != CACHE_MAGIC[7] || get32(file + 8) != CACHE_HEADER) {
    sg_vk_format(why, why_size, "a spvgen pipeline cache of another version (%c)", file[7]);
    return false;
  }
  spvgen_device_caps id;
  memset(&id, 0, sizeof id);
  id.vendor_id = get32(file + 12);
  id.device_id = get32(file + 16);
  id.driver_version = get32(file + 20);
  memcpy(id.pipeline_cache_uuid, file + 24, 16);
  if (identity) *identity = id;
  uint64_t n = get64(file + 40);
  if (n != size - CACHE_HEADER) {
    sg_vk_format(why, why_size, "truncated or padded: the header says %llu data bytes, the file has %zu",
             (unsigned long long)n, size - CACHE_HEADER);
    return false;
  }
  if (fnv(file + CACHE_HEADER, (size_t)n) != get64(file + 48)) {
    sg_vk_format(why, why_size, "corrupt: the checksum of its data does not match");
    return false;
  }
  if (for_caps && (id.vendor_id != for_caps->vendor_id || id.device_id != for_caps->device_id ||
                   id.driver_version != for_caps->driver_version ||
                   memcmp(id.pipeline_cache_uuid, for_caps->pipeline_cache_uuid, 16))) {
    sg_vk_format(why, why_size,
             "of another device or driver (vendor 0x%x device 0x%x driver 0x%x; this one: vendor "
             "0x%x device 0x%x driver 0x%x)",
             id.vendor_id, id.device_id, id.driver_version, for_caps->vendor_id,
             for_caps->device_id, for_caps->driver_version);
    return false;
  }
  /* The VkPipelineCacheHeaderVersionOne the driver wrote must agree too. */
  const unsigned char *d = file + CACHE_HEADER;
  if (n && (n < 32 || get32(d) < 32 || get32(d) > n || get32(d + 4) != 1 ||
            get32(d + 8) != id.vendor_id || get32(d + 12) != id.device_id ||
            memcmp(d + 16, id.pipeline_cache_uuid, 16))) {
    sg_vk_format(why, why_size, "its Vulkan pipeline cache header does not match the device it names");
    return false;
  }
  *data = d;
  *data_size = (size_t)n;
  return true;
}

/* Writes bytes to path atomically: a temporary file of a unique name beside it
 * (mkstemp: contexts of one process, on several threads, may save the same device's file
 * at once), fsync, rename. */
static bool write_atomic(const char *path, const unsigned char *head, size_t head_size,
                         const unsigned char *data, size_t data_size, char *why, size_t why_size) {
  char tmp[1100];
  sg_vk_format(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    sg_vk_format(why, why_size, "cannot create %s: %s", tmp, strerror(errno));
    if (fd >= 0) {
      close(fd);
      remove(tmp);
    }
    return false;
  }
  /* mkstemp's 0600; the cache is the user's, like the directory (0700). */
  bool ok = fwrite(head, 1, head_size, f) == head_size &&
            (!data_size || fwrite(data, 1, data_size, f) == data_size);
  ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
  ok = (fclose(f) == 0) && ok;
  if (!ok) {
    sg_vk_format(why, why_size, "cannot write %s: %s", tmp, strerror(errno));
    remove(tmp);
    return false;
  }
  if (rename(tmp, path) != 0) {
    sg_vk_format(why, why_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    remove(tmp);
    return false;
  }
  return true;
}

static void make_header(unsigned char *h, const spvgen_device_caps *c, const unsigned char *data,
                        size_t n) {
  memset(h, 0, CACHE_HEADER);
  memcpy(h, CACHE_MAGIC, 8);
  put32(h + 8, CACHE_HEADER);
  put32(h + 12, c->vendor_id);
  put32(h + 16, c->device_id);
  put32(h + 20, c->driver_version);
  memcpy(h + 24, c->pipeline_cache_uuid, 16);
  put64(h + 40, n);
  put64(h + 48, fnv(data, n));
}

/* Where this context's cache lives: "" when there is no directory to use. */
static void resolve_path(spvgen_vk_context *ctx, const char *dir_override) {
  char dir[900] = "";
  const char *env = getenv("SPVGEN_PIPELINE_CACHE");
  if (dir_override && dir_override[0]) sg_vk_format(dir, sizeof dir, "%s", dir_override);
  else if (env && strchr(env, '/')) sg_vk_format(dir, sizeof dir, "%s", env);
  else if (spvgen_vk_kernel_cache_dir(dir, sizeof dir) != SPVGEN_OK) {
    sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice,
             "no disk cache: neither XDG_CACHE_HOME nor HOME is set");
    return;
  }
  char name[128];
  cache_name(&ctx->caps, name, sizeof name);
  sg_vk_format(ctx->cache_path, sizeof ctx->cache_path, "%s/%s", dir, name);
}

/* The valid data of the file at path for this device (malloc'd copy), or NULL; a file
 * that is there but bad leaves a notice. */
static void *load_valid(spvgen_vk_context *ctx, const char *path, size_t *size) {
  *size = 0;
  char why[400];
  bool missing;
  size_t n;
  unsigned char *file = read_file(path, &n, &missing, why, sizeof why);
  if (!file) {
    if (!missing)
      sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice, "%s ignored: %s", path, why);
    return NULL;
  }
  const unsigned char *data;
  size_t dn;
  if (!check_file(file, n, &ctx->caps, NULL, &data, &dn, why, sizeof why)) {
    sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice, "%s ignored: %s", path, why);
    free(file);
    return NULL;
  }
  void *copy = malloc(dn ? dn : 1);
  if (copy) memcpy(copy, data, dn);
  free(file);
  *size = dn;
  return copy;
}

void *sg_vk_disk_cache_read(spvgen_vk_context *ctx, const char *dir_override, size_t *size) {
  *size = 0;
  resolve_path(ctx, dir_override);
  if (!ctx->cache_path[0]) return NULL;
  void *data = load_valid(ctx, ctx->cache_path, size);
  ctx->stats.disk_bytes_read = data ? *size : 0;
  /* An imported file waiting for this device (spvgen cache import when a file existed):
   * merged now, and the merge written back at the next save. */
  char imp[1100];
  sg_vk_format(imp, sizeof imp, "%s.import", ctx->cache_path);
  size_t in = 0;
  void *idata = load_valid(ctx, imp, &in);
  if (idata) {
    if (!data) {
      data = idata;
      *size = in;
    } else {
      /* Two blobs: the driver merges them (after the pipeline cache exists); keep the
       * import as the initial data only when the main file is empty. */
      free(idata);
    }
    ctx->cache_dirty = true; /* writes the merged file and drops the import */
  }
  return data;
}

spvgen_status sg_vk_disk_cache_write(spvgen_vk_context *ctx, const char *who) {
  if (!ctx->cache_path[0] || !ctx->pipeline_cache) return SPVGEN_OK;
  char imp[1100];
  sg_vk_format(imp, sizeof imp, "%s.import", ctx->cache_path);
  /* An import not yet merged because the main file had data: merge it now. */
  size_t in = 0;
  char keep_notice[sizeof ctx->cache_notice];
  memcpy(keep_notice, ctx->cache_notice, sizeof keep_notice);
  if (!ctx->cache_dirty) return SPVGEN_OK;
  void *idata = load_valid(ctx, imp, &in);
  /* What another process wrote since this one read the file: merged, not overwritten. */
  size_t on = 0;
  void *odata = load_valid(ctx, ctx->cache_path, &on);
  memcpy(ctx->cache_notice, keep_notice, sizeof keep_notice);
  void *blobs[2] = {odata, idata};
  size_t sizes[2] = {on, in};
  for (int i = 0; i < 2; i++) {
    if (!blobs[i] || !sizes[i] || !ctx->vkd.vkMergePipelineCaches) continue;
    VkPipelineCacheCreateInfo ci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, NULL, 0,
                                    sizes[i], blobs[i]};
    VkPipelineCache other = VK_NULL_HANDLE;
    if (ctx->vkd.vkCreatePipelineCache(ctx->device, &ci, NULL, &other) == VK_SUCCESS) {
      ctx->vkd.vkMergePipelineCaches(ctx->device, ctx->pipeline_cache, 1, &other);
      ctx->vkd.vkDestroyPipelineCache(ctx->device, other, NULL);
    }
  }
  free(odata);
  free(idata);
  size_t n = 0;
  VkResult r = ctx->vkd.vkGetPipelineCacheData(ctx->device, ctx->pipeline_cache, &n, NULL);
  unsigned char *data = r == VK_SUCCESS ? malloc(n ? n : 1) : NULL;
  if (data) r = ctx->vkd.vkGetPipelineCacheData(ctx->device, ctx->pipeline_cache, &n, data);
  if (r != VK_SUCCESS || !data) {
    free(data);
    sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice, "%s not written: vkGetPipelineCacheData: %s",
             ctx->cache_path, data ? sg_vk_result_name(r) : "out of memory");
    return sg_vk_fail(ctx, SPVGEN_ERROR_IO, "%s: %s", who, ctx->cache_notice);
  }
  char dir[1024];
  sg_vk_format(dir, sizeof dir, "%s", ctx->cache_path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  char why[1200] = "";
  unsigned char head[CACHE_HEADER];
  make_header(head, &ctx->caps, data, n);
  bool ok = (!slash || make_dirs(dir) || (sg_vk_format(why, sizeof why, "cannot create %s: %s", dir,
                                                   strerror(errno)), false)) &&
            write_atomic(ctx->cache_path, head, sizeof head, data, n, why, sizeof why);
  free(data);
  if (!ok) {
    sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice, "%s not written: %s", ctx->cache_path, why);
    return sg_vk_fail(ctx, SPVGEN_ERROR_IO, "%s: %s", who, ctx->cache_notice);
  }
  remove(imp);
  ctx->cache_dirty = false;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_kernel_cache_save(spvgen_vk_context *ctx) {
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, "spvgen_vk_kernel_cache_save");
  if (st != SPVGEN_OK) return st;
  /* The write merges into the VkPipelineCache, which vkMergePipelineCaches needs to
   * itself, and a compile in the background creates through it. */
  sg_vk_compiles_wait(ctx);
  return sg_vk_disk_cache_write(ctx, "spvgen_vk_kernel_cache_save");
}

void spvgen_vk_kernel_cache_stats_get(const spvgen_vk_context *ctx,
                                      spvgen_vk_kernel_cache_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!ctx) return;
  *out = ctx->stats;
  out->pipelines = ctx->program_count;
  sg_vk_format(out->path, sizeof out->path, "%s", ctx->cache_path);
  sg_vk_format(out->notice, sizeof out->notice, "%s", ctx->cache_notice);
}

/* ------------------------------------------------------ export and import ---- */
static bool is_cache_file_name(const char *name) {
  size_t n = strlen(name);
  return !strncmp(name, "pipelines-", 10) && n > 14 && !strcmp(name + n - 4, ".bin");
}

static void cache_dir_or(const char *dir, char *out, size_t size) {
  if (dir && dir[0]) sg_vk_format(out, size, "%s", dir);
  else if (spvgen_vk_kernel_cache_dir(out, size) != SPVGEN_OK) out[0] = 0;
}

spvgen_status spvgen_vk_kernel_cache_export(const char *dir_in, const char *path, uint32_t *count,
                                            char *message, size_t message_size) {
  static const char *who = "spvgen_vk_kernel_cache_export";
  if (count) *count = 0;
  if (message && message_size) message[0] = 0;
  if (!path) {
    sg_vk_format(message, message_size, "%s: path is NULL", who);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  char dir[1024];
  cache_dir_or(dir_in, dir, sizeof dir);
  DIR *d = dir[0] ? opendir(dir) : NULL;
  /* The bundle: magic, then (u32 name length, name, u64 size, file) per valid file. */
  unsigned char *out = NULL;
  size_t n = 0, cap = 0;
  uint32_t files = 0;
  bool oom = false;
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (!is_cache_file_name(e->d_name)) continue;
    char fp[2100], why[400];
    sg_vk_format(fp, sizeof fp, "%s/%s", dir, e->d_name);
    size_t fn;
    bool missing;
    unsigned char *file = read_file(fp, &fn, &missing, why, sizeof why);
    const unsigned char *data;
    size_t dn;
    if (!file || !check_file(file, fn, NULL, NULL, &data, &dn, why, sizeof why)) {
      free(file);
      continue; /* never ship a bad file */
    }
    uint32_t name_len = (uint32_t)strlen(e->d_name);
    size_t need = n + 12 + name_len + fn + 8;
    if (need > cap) {
      size_t want = cap ? cap : 65536;
      while (want < need) want *= 2;
      unsigned char *nb = realloc(out, want);
      if (!nb) {
        free(file);
        oom = true;
        break;
      }
      out = nb;
      cap = want;
    }
    if (n == 0) {
      memcpy(out, BUNDLE_MAGIC, 8);
      n = 8;
    }
    put32(out + n, name_len);
    memcpy(out + n + 4, e->d_name, name_len);
    put64(out + n + 4 + name_len, fn);
    memcpy(out + n + 12 + name_len, file, fn);
    n += 12 + name_len + fn;
    files++;
    free(file);
  }
  if (d) closedir(d);
  if (oom) {
    free(out);
    sg_vk_format(message, message_size, "%s: out of memory", who);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  unsigned char magic[8];
  memcpy(magic, BUNDLE_MAGIC, 8);
  char why[1200];
  bool ok = write_atomic(path, n ? out : magic, n ? n : 8, NULL, 0, why, sizeof why);
  free(out);
  if (!ok) {
    sg_vk_format(message, message_size, "%s: %s", who, why);
    return SPVGEN_ERROR_IO;
  }
  if (count) *count = files;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_kernel_cache_import(const char *dir_in, const char *path, uint32_t *count,
                                            char *message, size_t message_size) {
  static const char *who = "spvgen_vk_kernel_cache_import";
  if (count) *count = 0;
  if (message && message_size) message[0] = 0;
  if (!path) {
    sg_vk_format(message, message_size, "%s: path is NULL", who);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  char dir[1024], why[1200];
  cache_dir_or(dir_in, dir, sizeof dir);
  if (!dir[0]) {
    sg_vk_format(message, message_size, "%s: no cache directory: set XDG_CACHE_HOME or HOME", who);
    return SPVGEN_ERROR_IO;
  }
  size_t n;
  bool missing;
  unsigned char *b = read_file(path, &n, &missing, why, sizeof why);
  if (!b) {
    sg_vk_format(message, message_size, "%s: %s: %s", who, path, why);
    return SPVGEN_ERROR_IO;
  }
  if (n < 8 || memcmp(b, BUNDLE_MAGIC, 8)) {
    free(b);
    sg_vk_format(message, message_size, "%s: %s is not a spvgen kernel cache bundle (bad magic)", who,
                 path);
    return SPVGEN_ERROR_IO;
  }
  /* Every entry is checked before anything is written. */
  size_t at = 8;
  uint32_t entries = 0;
  while (at < n) {
    if (n - at < 4) break;
    uint32_t name_len = get32(b + at);
    if (name_len == 0 || name_len > 200 || n - at - 4 < (size_t)name_len + 8) break;
    char name[201];
    memcpy(name, b + at + 4, name_len);
    name[name_len] = 0;
    uint64_t fn = get64(b + at + 4 + name_len);
    if (fn > n - at - 12 - name_len) break;
    const unsigned char *data;
    size_t dn;
    if (!is_cache_file_name(name) || strchr(name, '/') || memchr(b + at + 4, 0, name_len) ||
        !check_file(b + at + 12 + name_len, (size_t)fn, NULL, NULL, &data, &dn, why, sizeof why))
      break;
    at += 12 + name_len + (size_t)fn;
    entries++;
  }
  if (at != n) {
    free(b);
    sg_vk_format(message, message_size,
                 "%s: %s is truncated or corrupt at byte %zu (entry %u); nothing imported", who,
                 path, at, entries);
    return SPVGEN_ERROR_IO;
  }
  if (!make_dirs(dir)) {
    free(b);
    sg_vk_format(message, message_size, "%s: cannot create %s: %s", who, dir, strerror(errno));
    return SPVGEN_ERROR_IO;
  }
  at = 8;
  uint32_t written = 0;
  for (uint32_t i = 0; i < entries; i++) {
    uint32_t name_len = get32(b + at);
    char name[201];
    memcpy(name, b + at + 4, name_len);
    name[name_len] = 0;
    uint64_t fn = get64(b + at + 4 + name_len);
    const unsigned char *file = b + at + 12 + name_len;
    char fp[1300];
    struct stat sb;
    sg_vk_format(fp, sizeof fp, "%s/%s", dir, name);
    /* An existing file is not replaced (it may hold this machine's own pipelines): the
     * import waits beside it and is merged by the next context on that device. */
    if (stat(fp, &sb) == 0) sg_vk_format(fp, sizeof fp, "%s/%s.import", dir, name);
    if (!write_atomic(fp, file, (size_t)fn, NULL, 0, why, sizeof why)) {
      free(b);
      sg_vk_format(message, message_size, "%s: %s", who, why);
      if (count) *count = written;
      return SPVGEN_ERROR_IO;
    }
    written++;
    at += 12 + name_len + (size_t)fn;
  }
  free(b);
  if (count) *count = written;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_kernel_cache_file_check(const char *path, spvgen_device_caps *identity,
                                                uint64_t *data_bytes, char *message,
                                                size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (data_bytes) *data_bytes = 0;
  if (!path) return SPVGEN_ERROR_INVALID_ARGUMENT;
  char why[400];
  size_t n;
  bool missing;
  unsigned char *file = read_file(path, &n, &missing, why, sizeof why);
  if (!file) {
    sg_vk_format(message, message_size, "%s: %s", path, why);
    return SPVGEN_ERROR_IO;
  }
  const unsigned char *data;
  size_t dn;
  spvgen_device_caps id;
  bool ok = check_file(file, n, NULL, &id, &data, &dn, why, sizeof why);
  free(file);
  if (!ok) {
    sg_vk_format(message, message_size, "%s: %s", path, why);
    return SPVGEN_ERROR_IO;
  }
  if (identity) {
    memset(identity, 0, sizeof *identity);
    identity->vendor_id = id.vendor_id;
    identity->device_id = id.device_id;
    identity->driver_version = id.driver_version;
    memcpy(identity->pipeline_cache_uuid, id.pipeline_cache_uuid, 16);
  }
  if (data_bytes) *data_bytes = dn;
  return SPVGEN_OK;
}
