/* bench/bandwidth.c — what the device's memory moves for a plain kernel: the ceiling the
 * bandwidth-bound MLPs and short-K GEMMs are compared with (bench/results, "what limits
 * it"). Each kernel moves 16-byte chunks (uvec4), every access coalesced:
 *   write   out[i] = f(i)                        (n chunks written)
 *   read    x ^= in[i]; one store per invocation, only if x matches a run-time value
 *           that random data never gives (so the loads are not dead)
 *   copy    out[i] = in[i]                       (n read, n written)
 * An invocation handles C chunks, W invocations a workgroup: chunk i of workgroup g is
 * g*W*C + c*W + lid (c < C), so each of the C loads or stores is one W*16-byte run; g
 * counts the grid's rows of up to 65535 workgroups (y * groups_x + x).
 * --nontemporal adds SPIR-V's Nontemporal memory operand to the global loads and stores
 * (a hint; whether the driver takes it is what the row shows).
 *
 *   build/bench/bench_bandwidth [--mb MB] [--modes write,read,copy] [--wg 32,64,128,256]
 *                               [--chunks 1,2,4,8] [--nontemporal off|on|both]
 *                               [--repeats R] [--warmup-ms MS] [--offline]
 * MB: the bytes written (write, copy) or read (read), default 1024. Prints one row per
 * kernel: GB/s from the median GPU time of R dispatches after the runner's warm-up.
 * --offline emits and validates every kernel without a device (CI). Exit 77 without
 * Vulkan (unless --offline), 1 on a failure, 2 on a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/spvgen.h"

typedef enum bw_mode { BW_WRITE, BW_READ, BW_COPY } bw_mode;
#define FILL_IN 0x5A5A1234u /* the input's contents */
static const char *const mode_names[] = {"write", "read", "copy"};

/* The kernel of one row. Bindings: 0 in (uvec4[], read-only), 1 out (uvec4[]); push
 * constants: n (chunks), magic (the read kernel's never-matching value). */
static spvgen_status emit_kernel(bw_mode mode, uint32_t wg, uint32_t chunks, bool nt, uint32_t **out,
                                 size_t *out_count, char *msg, size_t size) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), v3 = spvgen_type_vector(m, u32, 3);
  uint32_t v4 = spvgen_type_vector(m, u32, 4), bool_t = spvgen_type_bool(m);
  uint32_t in_ptr, out_ptr;
  uint32_t in = spvgen_storage_buffer(m, v4, 0, 0, true, &in_ptr);
  uint32_t outb = spvgen_storage_buffer(m, v4, 0, 1, false, &out_ptr);
  uint32_t pc_types[2] = {u32, u32};
  spvgen_push_constant_block pc = spvgen_push_constants(m, pc_types, 2);
  uint32_t lid_var = spvgen_builtin_input(m, SpvBuiltInLocalInvocationId, v3);
  uint32_t wg_var = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, v3);
  uint32_t nwg_var = spvgen_builtin_input(m, SpvBuiltInNumWorkgroups, v3);
  spvgen_compute_main(m, "main", wg, 1, 1);
  uint32_t zero = 0;
  uint32_t lid = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, lid_var), &zero, 1);
  /* the workgroup's index in a grid of up to 65535 x Y: y * groups_x + x */
  uint32_t one = 1, wgv = spvgen_load(m, v3, wg_var);
  uint32_t g = spvgen_op_i_add(m, u32, spvgen_op_composite_extract(m, u32, wgv, &zero, 1),
                               spvgen_op_i_mul(m, u32, spvgen_op_composite_extract(m, u32, wgv, &one, 1),
                                               spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, nwg_var), &zero, 1)));
  uint32_t n = spvgen_push_constant_load(m, &pc, 0);
  uint32_t first = spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, g, spvgen_const_u32(m, wg * chunks)), lid);
  const uint32_t access = nt ? SpvMemoryAccessNontemporalMask : 0;
  uint32_t acc = spvgen_const_composite(m, v4, (uint32_t[]){spvgen_const_u32(m, 0), spvgen_const_u32(m, 0),
                                                            spvgen_const_u32(m, 0), spvgen_const_u32(m, 0)}, 4);
  /* Straight-line code: C guarded accesses (the grid covers n in whole workgroups). */
  for (uint32_t c = 0; c < chunks; c++) {
    uint32_t i = spvgen_op_i_add(m, u32, first, spvgen_const_u32(m, c * wg));
    uint32_t inside = spvgen_op_u_less_than(m, bool_t, i, n);
    uint32_t idx[2] = {spvgen_const_u32(m, 0), i};
    if (mode == BW_READ) {
      /* a select keeps the loop free of branches: an out-of-range chunk reads chunk 0 */
      idx[1] = spvgen_op_select(m, u32, inside, i, spvgen_const_u32(m, 0));
      uint32_t p = spvgen_access_chain(m, in_ptr, in, idx, 2);
      acc = spvgen_op_bitwise_xor(m, v4, acc, spvgen_op_load(m, v4, p, access, NULL, 0));
      continue;
    }
    spvgen_if(m, inside);
    uint32_t value;
    if (mode == BW_COPY) {
      value = spvgen_op_load(m, v4, spvgen_access_chain(m, in_ptr, in, idx, 2), access, NULL, 0);
    } else {
      uint32_t x = spvgen_op_bitwise_xor(m, u32, i, spvgen_const_u32(m, 0x9E3779B9u));
      value = spvgen_op_composite_construct(m, v4, (uint32_t[]){i, x, n, x}, 4);
    }
    spvgen_op_store(m, spvgen_access_chain(m, out_ptr, outb, idx, 2), value, access, NULL, 0);
    spvgen_end_if(m);
  }
  if (mode == BW_READ) {
    uint32_t x0 = spvgen_op_composite_extract(m, u32, acc, &zero, 1);
    uint32_t hit = spvgen_op_i_equal(m, bool_t, x0, spvgen_push_constant_load(m, &pc, 1));
    spvgen_if(m, hit);
    uint32_t idx[2] = {spvgen_const_u32(m, 0), first};
    spvgen_op_store(m, spvgen_access_chain(m, out_ptr, outb, idx, 2), acc, access, NULL, 0);
    spvgen_end_if(m);
  }
  spvgen_function_end(m);
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) {
    snprintf(msg, size, "%s", spvgen_module_error(m));
  } else if ((st = spvgen_validate(words, count, NULL, msg, size)) == SPVGEN_OK) {
    *out = malloc(count * sizeof *words);
    if (!*out) {
      snprintf(msg, size, "out of memory");
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
    } else {
      memcpy(*out, words, count * sizeof *words);
      *out_count = count;
    }
  }
  spvgen_module_destroy(m);
  return st;
}

/* 64 chunks spread over the output (the first and the last among them) against what the
 * kernel writes: write's f(i), copy's fill pattern of the input. */
static bool check_output(bw_mode mode, spvgen_vk_context *ctx, spvgen_vk_buffer *out, uint64_t n, char *msg,
                         size_t size) {
  for (uint64_t k = 0; k < 64; k++) {
    uint64_t i = k == 63 ? n - 1 : k * (n / 64) + k % 7;
    uint32_t got[4];
    if (spvgen_vk_buffer_download(ctx, out, i * 16, got, sizeof got) != SPVGEN_OK) {
      snprintf(msg, size, "download: %s", spvgen_vk_error(ctx));
      return false;
    }
    uint32_t x = (uint32_t)i ^ 0x9E3779B9u;
    uint32_t want[4] = {(uint32_t)i, x, (uint32_t)n, x};
    if (mode == BW_COPY) want[0] = want[1] = want[2] = want[3] = FILL_IN;
    if (memcmp(got, want, sizeof got)) {
      snprintf(msg, size, "chunk %llu holds %08x %08x %08x %08x, not %08x %08x %08x %08x", (unsigned long long)i,
               got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
      return false;
    }
  }
  return true;
}

static int parse_list(const char *s, uint32_t *out, uint32_t max, uint32_t *count) {
  *count = 0;
  while (*s) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || v == 0 || v > 1024 || *count == max) return 0;
    out[(*count)++] = (uint32_t)v;
    s = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return 0;
  }
  return *count > 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  uint32_t mb = 1024, repeats = 20, warmup_ms = 300, wgs[8] = {32, 64, 128, 256}, nwg = 4,
           chunks[8] = {1, 2, 4, 8}, nch = 4;
  bool modes[3] = {true, true, true}, nt_off = true, nt_on = false, offline = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--offline")) {
      offline = true;
      continue;
    }
    if (!v) return fprintf(stderr, "bench_bandwidth: '%s' needs a value (see bench/bandwidth.c)\n", a), 2;
    i++;
    if (!strcmp(a, "--mb")) {
      mb = (uint32_t)strtoul(v, NULL, 10);
      if (!mb || mb > 16384) return fprintf(stderr, "bench_bandwidth: --mb %s (1 to 16384)\n", v), 2;
    } else if (!strcmp(a, "--repeats")) {
      repeats = (uint32_t)strtoul(v, NULL, 10);
      if (!repeats || repeats > 1000) return fprintf(stderr, "bench_bandwidth: --repeats %s (1 to 1000)\n", v), 2;
    } else if (!strcmp(a, "--warmup-ms")) {
      warmup_ms = (uint32_t)strtoul(v, NULL, 10);
    } else if (!strcmp(a, "--wg")) {
      if (!parse_list(v, wgs, 8, &nwg)) return fprintf(stderr, "bench_bandwidth: --wg '%s' (up to 8 sizes, 1-1024)\n", v), 2;
    } else if (!strcmp(a, "--chunks")) {
      if (!parse_list(v, chunks, 8, &nch) ) return fprintf(stderr, "bench_bandwidth: --chunks '%s' (up to 8 counts)\n", v), 2;
      for (uint32_t c = 0; c < nch; c++)
        if (chunks[c] > 64) return fprintf(stderr, "bench_bandwidth: --chunks %u (at most 64)\n", chunks[c]), 2;
    } else if (!strcmp(a, "--modes")) {
      modes[0] = strstr(v, "write") != NULL, modes[1] = strstr(v, "read") != NULL, modes[2] = strstr(v, "copy") != NULL;
      if (!modes[0] && !modes[1] && !modes[2]) return fprintf(stderr, "bench_bandwidth: --modes '%s' (write,read,copy)\n", v), 2;
    } else if (!strcmp(a, "--nontemporal")) {
      if (!strcmp(v, "off")) nt_off = true, nt_on = false;
      else if (!strcmp(v, "on")) nt_off = false, nt_on = true;
      else if (!strcmp(v, "both")) nt_off = nt_on = true;
      else return fprintf(stderr, "bench_bandwidth: --nontemporal '%s' (off, on, both)\n", v), 2;
    } else {
      return fprintf(stderr, "bench_bandwidth: unknown option '%s' (see bench/bandwidth.c)\n", a), 2;
    }
  }
  char msg[2048];
  spvgen_vk_context *ctx = NULL;
  spvgen_vk_buffer *bufs[2] = {NULL, NULL};
  const uint64_t bytes = (uint64_t)mb << 20, n64 = bytes / 16;
  if (!offline) {
    spvgen_vk_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.no_disk_cache = true;
    spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
    if (st != SPVGEN_OK) {
      fprintf(stderr, "bench_bandwidth: %s\n", msg);
      return st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
    }
    const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
    printf("# bench_bandwidth on %s (%s %s), %u MiB per kernel, median of %u\n", caps->name,
           caps->driver_name, caps->driver_info, mb, repeats);
    for (int b = 0; b < 2; b++)
      if (spvgen_vk_buffer_create(ctx, bytes, 0, &bufs[b]) != SPVGEN_OK ||
          spvgen_vk_buffer_fill(ctx, bufs[b], 0, bytes, FILL_IN + (uint32_t)b) != SPVGEN_OK) {
        fprintf(stderr, "bench_bandwidth: buffers of %u MiB: %s\n", mb, spvgen_vk_error(ctx));
        spvgen_vk_destroy(ctx);
        return 1;
      }
  }
  printf("%-6s %5s %6s %4s %10s %10s %9s\n", "mode", "wg", "chunks", "nt", "GPU ms", "GB moved", "GB/s");
  int failures = 0;
  for (int mode = 0; mode < 3; mode++) {
    if (!modes[mode]) continue;
    for (int nti = 0; nti < 2; nti++) {
      if ((nti == 0 && !nt_off) || (nti == 1 && !nt_on)) continue;
      for (uint32_t w = 0; w < nwg; w++)
        for (uint32_t c = 0; c < nch; c++) {
          uint32_t *words = NULL;
          size_t count = 0;
          if (emit_kernel((bw_mode)mode, wgs[w], chunks[c], nti == 1, &words, &count, msg, sizeof msg) != SPVGEN_OK) {
            printf("%-6s %5u %6u %4s FAIL emit: %s\n", mode_names[mode], wgs[w], chunks[c], nti ? "on" : "off", msg);
            failures++;
            continue;
          }
          if (offline) {
            printf("%-6s %5u %6u %4s emitted, valid (%zu words)\n", mode_names[mode], wgs[w], chunks[c],
                   nti ? "on" : "off", count);
            free(words);
            continue;
          }
          spvgen_vk_pipeline *pl = NULL;
          if (spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pl) != SPVGEN_OK) {
            printf("%-6s %5u %6u %4s FAIL pipeline: %s\n", mode_names[mode], wgs[w], chunks[c], nti ? "on" : "off",
                   spvgen_vk_error(ctx));
            free(words);
            failures++;
            continue;
          }
          uint32_t push[2] = {(uint32_t)n64, 0xFFFFFFFFu};
          uint64_t per = (uint64_t)wgs[w] * chunks[c], groups = (n64 + per - 1) / per;
          spvgen_vk_dispatch_desc d[64];
          uint32_t rep = repeats > 64 ? 64 : repeats;
          for (uint32_t r = 0; r < rep; r++) {
            memset(&d[r], 0, sizeof d[r]);
            d[r].pipeline = pl;
            d[r].buffers = bufs;
            d[r].buffer_count = 2;
            d[r].push_data = push;
            d[r].push_size = sizeof push;
            d[r].groups[0] = (uint32_t)(groups < 65535 ? groups : 65535);
            d[r].groups[1] = (uint32_t)((groups + 65534) / 65535);
          }
          uint64_t ns[64];
          spvgen_vk_warm_up_desc wu = {d, 1, 1, warmup_ms, 0};
          if ((warmup_ms && spvgen_vk_warm_up(ctx, &wu, NULL) != SPVGEN_OK) ||
              spvgen_vk_run(ctx, d, rep, ns) != SPVGEN_OK) {
            printf("%-6s %5u %6u %4s FAIL run: %s\n", mode_names[mode], wgs[w], chunks[c], nti ? "on" : "off",
                   spvgen_vk_error(ctx));
            failures++;
          } else if (mode != BW_READ && !check_output((bw_mode)mode, ctx, bufs[1], n64, msg, sizeof msg)) {
            printf("%-6s %5u %6u %4s FAIL wrong output: %s\n", mode_names[mode], wgs[w], chunks[c], nti ? "on" : "off", msg);
            failures++;
          } else {
            qsort(ns, rep, sizeof ns[0], cmp_u64);
            double ms = (double)ns[rep / 2] / 1e6;
            double gb = (double)bytes * (mode == BW_COPY ? 2 : 1) / 1e9;
            printf("%-6s %5u %6u %4s %10.3f %10.3f %9.1f\n", mode_names[mode], wgs[w], chunks[c], nti ? "on" : "off",
                   ms, gb, ms > 0 ? gb / (ms / 1e3) : 0.0);
          }
          fflush(stdout);
          spvgen_vk_pipeline_destroy(pl);
          free(words);
        }
    }
  }
  spvgen_vk_destroy(ctx);
  return failures ? 1 : 0;
}
