/* tools/spvgen/cmd_trace.c — `spvgen bench trace FILE`: a framework's GEMM calls run in
 * order in one process, as the framework would run them: per call a plan and an emit
 * (microseconds), a pipeline from the kernel cache (a compile on a miss, nothing on a
 * hit), one dispatch; then the totals a framework pays: pipelines created, compile ms,
 * GPU ms, wall ms. --cold starts from an empty spvgen disk cache (the driver's own cache
 * is the caller's to empty: bench/trace.sh does both); without it the disk cache of
 * --cache-dir (default: the user's) is used, so a second run is the warm one.
 *
 * Trace file: one call per line, `M N K TYPES LAYOUT`, e.g. `257 3584 3584 f16,f32 nt`
 * (TYPES as --types: AB,ACC[,OUT]; LAYOUT as --layout: A then B, n row-major, t
 * column-major; nt is how a linear layer stores its N x K weights). '#' starts a
 * comment. Each call is checked on a sample of its outputs against the CPU. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "template_run.h"
#include "cmds.h"
#include "gemm_run.h"
#include "ref_convert.h"
#include "spvgen/spvgen.h"

#define TRACE_MAX_CALLS 4096

typedef struct trace_call {
  spvgen_gemm_desc desc;
  int line;
} trace_call;

static void trace_usage(FILE *o) {
  fprintf(o, "usage: spvgen bench trace FILE [--cold] [--cache-dir DIR] [--shapes runtime|fixed] [--sample N]\n"
             "                          [--split-k S] [--pack MODE]\n"
             "                                [--device NAME]\n\n"
             "Runs the GEMM calls of FILE in order in one process, as a framework would: per call\n"
             "a plan, an emit, a pipeline from the kernel cache (compiled on a miss) and one\n"
             "dispatch, each checked on a sample of its outputs against the CPU. Prints each call\n"
             "and the totals: pipelines created, compile ms, GPU ms, wall ms.\n\n"
             "FILE: one call per line, `M N K TYPES LAYOUT` (TYPES as --types, e.g. f16,f32;\n"
             "LAYOUT as --layout: nn, nt, tn, tt); '#' starts a comment.\n\n"
             "  --cold           start from an empty spvgen disk cache (a temporary directory)\n"
             "  --cache-dir DIR  the disk cache directory (default: $XDG_CACHE_HOME/spvgen)\n"
             "  --shapes S       runtime (default): each call planned for its class of shapes\n"
             "                   (spvgen_gemm_class_for, M taken as any length), the shape in push\n"
             "                   constants, so calls of one class share a pipeline; fixed: a module\n"
             "                   per shape, as before run-time shapes\n"
             "  --sample N       outputs checked per call (default 8; 0: none)\n"
             "  --split-k S      every call's plan splits K into S slices (2-64; run-time plans\n"
             "                   fewer where K has fewer steps): two dispatches per call (the\n"
             "                   partials, then their reduction), one shared split-K workspace\n"
             "                   for calls of every shape, as a framework keeps it\n"
             "  --pack MODE      every call's plan packs its operands (a, b or ab: a pack kernel\n"
             "                   copies them zero-padded to whole tiles into the workspace first,\n"
             "                   then the aligned kernel; coopmat2 and simt)\n"
             "  --device NAME    the first device whose name contains NAME\n\n"
             "examples:\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --cold\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt      # warm: the cache filled\n");
}

/* Reads the trace; returns the number of calls or -1 after printing why. */
static int read_trace(const char *path, trace_call *calls, int max) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "spvgen bench trace: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  char line[512];
  int n = 0, lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char types[64], layout[8], extra[8];
    unsigned m, nn, k;
    int got = sscanf(line, "%u %u %u %63s %7s %7s", &m, &nn, &k, types, layout, extra);
    if (got <= 0) continue; /* blank or comment */
    if (got != 5 || !m || !nn || !k) {
      fprintf(stderr, "spvgen bench trace: %s:%d: not `M N K TYPES LAYOUT` (M, N, K >= 1)\n", path, lineno);
      fclose(f);
      return -1;
    }
    if (n == max) {
      fprintf(stderr, "spvgen bench trace: %s: more than %d calls\n", path, max);
      fclose(f);
      return -1;
    }
    spvgen_gemm_desc *d = &calls[n].desc;
    memset(d, 0, sizeof *d);
    d->m = m;
    d->n = nn;
    d->k = k;
    spvgen_component_type ts[3];
    int np = 0;
    for (char *t = strtok(types, ","); t && np < 3; t = strtok(NULL, ","))
      if (!spvgen_component_type_parse(t, &ts[np++])) np = -10;
    if (np < 2) {
      fprintf(stderr, "spvgen bench trace: %s:%d: TYPES is AB,ACC[,OUT] (f16, bf16, f32, s8, u8, s32, ...)\n", path,
              lineno);
      fclose(f);
      return -1;
    }
    d->a_type = d->b_type = ts[0];
    d->acc_type = ts[1];
    d->out_type = np == 3 ? ts[2] : ts[1];
    if (strlen(layout) != 2 || !strchr("nt", layout[0]) || !strchr("nt", layout[1])) {
      fprintf(stderr, "spvgen bench trace: %s:%d: LAYOUT '%s' is not nn, nt, tn or tt\n", path, lineno, layout);
      fclose(f);
      return -1;
    }
    d->a_layout = layout[0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    d->b_layout = layout[1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    calls[n].line = lineno;
    n++;
  }
  fclose(f);
  if (n == 0) fprintf(stderr, "spvgen bench trace: %s has no calls\n", path);
  return n ? n : -1;
}

/* Host values of the input types the trace runner fills: f16, bf16, f32, s8, u8. */
static bool input_supported(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_F32 ||
         t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_U8;
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* bytes of random values of type t (never zeros: magnitudes in [1/8, 1), or small ints). */
static void *host_fill(spvgen_component_type t, uint64_t count, uint64_t *seed) {
  uint32_t es = spvgen_component_type_size(t);
  unsigned char *p = malloc(count * es > 0 ? count * es : 1);
  if (!p) return NULL;
  for (uint64_t i = 0; i < count; i++) {
    double u = (double)(rng_next(seed) >> 11) / 9007199254740992.0; /* [0, 1) */
    float v = (float)((0.125 + 0.875 * u) * ((rng_next(seed) & 1) ? -1 : 1));
    switch (t) {
    case SPVGEN_COMPONENT_F16: ((uint16_t *)p)[i] = sg_ref_f32_to_f16(v); break;
    case SPVGEN_COMPONENT_BF16: ((uint16_t *)p)[i] = sg_ref_f32_to_bf16(v); break;
    case SPVGEN_COMPONENT_F32: ((float *)p)[i] = v; break;
    case SPVGEN_COMPONENT_S8: ((int8_t *)p)[i] = (int8_t)(1 + (int)(rng_next(seed) % 7)) * ((rng_next(seed) & 1) ? -1 : 1); break;
    case SPVGEN_COMPONENT_U8: ((uint8_t *)p)[i] = (uint8_t)(1 + rng_next(seed) % 7); break;
    default: break;
    }
  }
  return p;
}

/* Element (r, c) of a rows x cols operand with layout and leading dimension ld. */
static uint64_t at(spvgen_matrix_layout l, uint32_t ld, uint32_t r, uint32_t c) {
  return l == SPVGEN_ROW_MAJOR ? (uint64_t)r * ld + c : (uint64_t)c * ld + r;
}

static void rm_tree(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[2048];
  while (d && (e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

int spvgen_cmd_bench_trace(int argc, char **argv) {
  const char *path = NULL, *cache_dir = NULL, *device = NULL;
  bool cold = false, runtime = true;
  uint32_t sample = 8, split_k = 0;
  spvgen_gemm_pack pack = SPVGEN_GEMM_PACK_AUTO;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      trace_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--cold")) {
      cold = true;
    } else if (!strcmp(a, "--cache-dir") || !strcmp(a, "--sample") || !strcmp(a, "--device") ||
               !strcmp(a, "--shapes") || !strcmp(a, "--split-k") || !strcmp(a, "--pack")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("bench trace", "%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--cache-dir")) cache_dir = v;
      else if (!strcmp(a, "--shapes")) {
        if (strcmp(v, "runtime") && strcmp(v, "fixed"))
          return spvgen_cli_usage_error("bench trace", "--shapes: '%s' is not runtime or fixed", v);
        runtime = !strcmp(v, "runtime");
      }
      else if (!strcmp(a, "--device")) device = v;
      else if (!strcmp(a, "--pack")) {
        if (!spvgen_gemm_pack_parse(v, &pack))
          return spvgen_cli_usage_error("bench trace", "--pack: '%s' is not auto, none, a, b or ab", v);
      }
      else if (!strcmp(a, "--split-k")) {
        if (!sg_parse_u32(v, 2, 64, &split_k))
          return spvgen_cli_usage_error("bench trace", "--split-k: '%s' is not a slice count from 2 to 64", v);
      } else {
        if (!sg_parse_u32(v, 0, 1000000, &sample))
          return spvgen_cli_usage_error("bench trace", "--sample: '%s' is not a count from 0 to 1000000", v);
      }
    } else if (a[0] == '-') {
      return spvgen_cli_usage_error("bench trace", "unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else {
      return spvgen_cli_usage_error("bench trace", "one trace file (got '%s' and '%s')", path, a);
    }
  }
  if (!path) {
    trace_usage(stderr);
    return 2;
  }
  if (cold && cache_dir) return spvgen_cli_usage_error("bench trace", "--cold and --cache-dir exclude each other");
  trace_call *calls = malloc(sizeof *calls * TRACE_MAX_CALLS);
  if (!calls) return 1;
  int n = read_trace(path, calls, TRACE_MAX_CALLS);
  if (n < 0) {
    free(calls);
    return 1;
  }
  char tmp_dir[] = "/tmp/spvgen-trace-cache-XXXXXX";
  if (cold && !mkdtemp(tmp_dir)) {
    fprintf(stderr, "spvgen bench trace: mkdtemp: %s\n", strerror(errno));
    free(calls);
    return 1;
  }
  char msg[2048];
  spvgen_vk_desc vd = {.device_name = device, .cache_dir = cold ? tmp_dir : cache_dir};
  spvgen_vk_context *ctx = NULL;
  double t_open = sg_now_ms();
  spvgen_status st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  t_open = sg_now_ms() - t_open;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s\n", msg);
    free(calls);
    if (cold) rm_tree(tmp_dir);
    return st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_vk_kernel_cache_stats cs0;
  spvgen_vk_kernel_cache_stats_get(ctx, &cs0);

  /* Operands as a framework holds them, allocated once at the largest size the trace
   * needs (a bigger buffer is fine for every call: the runner checks the smaller bound). */
  uint64_t max_a = 0, max_b = 0, max_d = 0;
  int rc = 1;
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc *d = &calls[i].desc;
    if (d->a_type != calls[0].desc.a_type) {
      fprintf(stderr, "spvgen bench trace: %s:%d: every call of a trace has the same input type (%s)\n", path,
              calls[i].line, spvgen_component_type_name(calls[0].desc.a_type));
      goto done_early;
    }
    if (!input_supported(d->a_type) || spvgen_component_type_size(d->out_type) == 0) {
      fprintf(stderr, "spvgen bench trace: %s:%d: the trace runner fills f16, bf16, f32, s8 and u8 inputs only\n",
              path, calls[i].line);
      goto done_early;
    }
    uint64_t a = (uint64_t)d->m * d->k * spvgen_component_type_size(d->a_type);
    uint64_t b = (uint64_t)d->n * d->k * spvgen_component_type_size(d->b_type);
    uint64_t o = (uint64_t)d->m * d->n * spvgen_component_type_size(d->out_type);
    if (a > max_a) max_a = a;
    if (b > max_b) max_b = b;
    if (o > max_d) max_d = o;
  }
  uint64_t seed = 0x7ace5eedull;
  /* One host copy per input type is enough: the bytes of the largest A and B. */
  spvgen_component_type in_t = calls[0].desc.a_type;
  uint32_t es = spvgen_component_type_size(in_t);
  void *ha = host_fill(in_t, max_a / es + 1, &seed), *hb = host_fill(in_t, max_b / es + 1, &seed);
  spvgen_vk_buffer *ba = NULL, *bb = NULL, *bd = NULL;
  if (!ha || !hb || spvgen_vk_buffer_create(ctx, (max_a + 3) & ~3ull, 0, &ba) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_b + 3) & ~3ull, 0, &bb) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_d + 3) & ~3ull, 0, &bd) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, ba, 0, ha, max_a) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, bb, 0, hb, max_b) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: operands: %s\n", ha && hb ? spvgen_vk_error(ctx) : "out of host memory");
    goto done;
  }
  printf("trace %s: %d calls on %s (%s %s)\n", path, n, caps->name, caps->driver_name, caps->driver_info);
  printf("spvgen disk cache: %s%s (%llu bytes read at start%s%s); context %.1f ms\n\n",
         cold ? "cold, empty " : "", cs0.path[0] ? cs0.path : "off", (unsigned long long)cs0.disk_bytes_read,
         cs0.notice[0] ? "; " : "", cs0.notice, t_open);
  printf("| %3s | %5s | %5s | %5s | %-36s | %8s | %11s | %9s | %8s | %7s |\n", "#", "M", "N", "K", "plan", "emit us",
         "pipeline ms", "", "GPU ms", "TFLOP/s");
  printf("|-----|-------|-------|-------|--------------------------------------|----------|-------------|-----------|----------|---------|\n");
  double wall = 0, emit_ms = 0, compile_ms = 0, gpu_ms = 0, check_ms = 0;
  spvgen_vk_buffer *ws = NULL; /* the split-K workspace, when a plan splits K */
  uint64_t ws_bytes = 0;
  uint64_t compiled = 0, reused = 0, bad_total = 0, checked_total = 0;
  double t_all = sg_now_ms();
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc *d = &calls[i].desc;
    spvgen_gemm_config plan;
    spvgen_gemm_launch launch;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT] = {{0}};
    uint32_t nk = 0; /* the plan's kernels: 2 with split-K (the partials, then the reduction) */
    spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT] = {0};
    double t0 = sg_now_ms();
    /* run-time: the class of the call's shape, with M free (a prompt length is anything),
     * so every call with this weight shape and types has the same kernel */
    spvgen_gemm_desc want = *d;
    spvgen_gemm_args args = {.m = d->m, .n = d->n, .k = d->k};
    if (runtime && spvgen_gemm_class_for(d, &args, &want, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
      goto done;
    }
    if (runtime) want.m_multiple = 1;
    if (split_k) want.split_k = split_k;
    want.pack = pack;
    if (spvgen_gemm_kernels(&want, caps, k, &nk, &plan, msg, sizeof msg) != SPVGEN_OK ||
        spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &launch, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]);
      goto done;
    }
    double t1 = sg_now_ms();
    spvgen_vk_kernel_cache_stats before, after;
    spvgen_vk_kernel_cache_stats_get(ctx, &before);
    { /* one batch: a split plan's kernels compile on threads at once */
      spvgen_vk_pipeline_request rq[SPVGEN_GEMM_KERNEL_COUNT];
      for (uint32_t j = 0; j < nk; j++) rq[j] = (spvgen_vk_pipeline_request){k[j].words, k[j].word_count, &k[j].info, NULL};
      st = spvgen_vk_pipelines_create(ctx, rq, nk, template_compile_threads(nk), p);
    }
    double t2 = sg_now_ms();
    spvgen_vk_kernel_cache_stats_get(ctx, &after);
    bool miss = after.compiled > before.compiled;
    uint64_t ns = 0;
    /* each kernel binds what its info names (spvgen/gemm.h: the pack kernel the operands
     * it copies and the workspace, the main kernel A and B unless packed, D unless split,
     * the reduction D): the trace's calls have no C and no bias */
    spvgen_vk_buffer *kb[SPVGEN_GEMM_KERNEL_COUNT][SPVGEN_MAX_BINDINGS];
    uint32_t kn[SPVGEN_GEMM_KERNEL_COUNT] = {0};
    for (uint32_t j = 0; j < nk && st == SPVGEN_OK; j++) {
      kn[j] = k[j].info.binding_count;
      for (uint32_t b = 0; b < kn[j] && st == SPVGEN_OK; b++) {
        const char *name = k[j].info.bindings[b].name ? k[j].info.bindings[b].name : "";
        kb[j][b] = !strcmp(name, "A") ? ba : !strcmp(name, "B") ? bb : !strcmp(name, "D") ? bd : NULL;
        if (!kb[j][b] && strcmp(name, "workspace")) { /* NULL: the workspace, below */
          fprintf(stderr, "spvgen bench trace: %s:%d: kernel %u of the plan binds '%s'; the trace runner binds A, "
                  "B, D and the workspace\n", path, calls[i].line, j, name);
          st = SPVGEN_ERROR_UNSUPPORTED;
        }
      }
    }
    if (st != SPVGEN_OK) {
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]), spvgen_vk_pipeline_destroy(p[j]);
      goto done;
    }
    if (launch.workspace_bytes > ws_bytes) {
      /* split-K: one workspace for the trace, grown as a call needs (no initialization:
       * the partials kernel writes every word the reduction reads), as a framework would
       * keep it */
      if (ws) spvgen_vk_buffer_destroy(ws);
      ws = NULL;
      ws_bytes = (launch.workspace_bytes + 0xFFFFu) & ~0xFFFFull;
      st = spvgen_vk_buffer_create(ctx, ws_bytes, 0, &ws);
    }
    /* one step: the plan's kernels in order (pack, main, reduction), with the runner's
     * compute-to-compute barrier between them */
    spvgen_vk_dispatch_desc dd[SPVGEN_GEMM_KERNEL_COUNT];
    memset(dd, 0, sizeof dd);
    for (uint32_t j = 0; j < nk; j++) {
      const spvgen_gemm_kernel which = spvgen_gemm_kernel_at(&plan, j);
      for (uint32_t b = 0; b < kn[j]; b++)
        if (!kb[j][b]) kb[j][b] = ws;
      const uint32_t *g = which == SPVGEN_GEMM_KERNEL_PACK     ? launch.pack_groups
                          : which == SPVGEN_GEMM_KERNEL_REDUCE ? launch.reduce_groups
                                                               : launch.groups;
      const uint32_t push = which == SPVGEN_GEMM_KERNEL_REDUCE ? launch.reduce_push_size : launch.push_size;
      dd[j] = (spvgen_vk_dispatch_desc){.pipeline = p[j], .buffers = kb[j], .buffer_count = kn[j],
                                        .push_data = push ? &launch.push : NULL, .push_size = push,
                                        .groups = {g[0], g[1], g[2]}};
    }
    if (st == SPVGEN_OK) st = spvgen_vk_run_steps(ctx, dd, nk, nk, &ns);
    double t3 = sg_now_ms();
    if (st != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, spvgen_vk_error(ctx));
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]), spvgen_vk_pipeline_destroy(p[j]);
      goto done;
    }
    wall += t3 - t0;
    emit_ms += t1 - t0;
    if (miss) compiled++, compile_ms += t2 - t1;
    else reused++;
    gpu_ms += ns / 1e6;
    /* The check (not in the wall time): a sample of D against the CPU in float64. */
    double tc = sg_now_ms();
    uint64_t bad = 0;
    uint32_t osize = spvgen_component_type_size(d->out_type);
    /* tight leading dimensions, as the run-time launch and the fixed plan both use */
    const uint32_t lda = plan.desc.a_layout == SPVGEN_ROW_MAJOR ? d->k : d->m;
    const uint32_t ldb = plan.desc.b_layout == SPVGEN_ROW_MAJOR ? d->n : d->k;
    const uint32_t ldd = plan.desc.d_layout == SPVGEN_ROW_MAJOR ? d->n : d->m;
    uint64_t cseed = 0x5a5a0000ull + (uint64_t)i;
    for (uint32_t s = 0; s < sample; s++) {
      uint32_t r = (uint32_t)(rng_next(&cseed) % d->m), c = (uint32_t)(rng_next(&cseed) % d->n);
      double ref = 0, mag = 0;
      for (uint32_t kk = 0; kk < d->k; kk++) {
        double t = sg_ref_get(ha, d->a_type, at(plan.desc.a_layout, lda, r, kk)) *
                   sg_ref_get(hb, d->b_type, at(plan.desc.b_layout, ldb, kk, c));
        ref += t, mag += fabs(t);
      }
      unsigned char got_bytes[8] = {0};
      if (spvgen_vk_buffer_download(ctx, bd, at(plan.desc.d_layout, ldd, r, c) * osize, got_bytes, osize) !=
          SPVGEN_OK) {
        bad++;
        continue;
      }
      double got = sg_ref_get(got_bytes, d->out_type, 0);
      /* accumulation error ~ sqrt(K) ulps of the accumulator, plus the output's rounding */
      double acc_eps = d->acc_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->acc_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
      double out_eps = d->out_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->out_type == SPVGEN_COMPONENT_BF16 ? 0x1p-7
                       : d->out_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
      double tol = (acc_eps * sqrt((double)d->k) * 4 + 1e-30) * mag + out_eps * fabs(ref) + 1e-6;
      if (!(fabs(got - ref) <= tol)) bad++;
    }
    check_ms += sg_now_ms() - tc;
    bad_total += bad;
    checked_total += sample;
    double tflops = ns ? 2.0 * d->m * d->n * d->k / ns / 1e3 : 0;
    printf("| %3d | %5u | %5u | %5u | %-36.36s | %8.0f | %11.2f | %-9s | %8.3f | %7.1f |%s\n", i + 1, d->m, d->n, d->k,
           plan.name, (t1 - t0) * 1e3, t2 - t1, miss ? "compiled" : "cached", ns / 1e6, tflops,
           bad ? " CHECK FAILED" : "");
    fflush(stdout);
    for (uint32_t j = 0; j < nk; j++) { /* the compiled pipelines stay in the kernel cache */
      spvgen_vk_pipeline_destroy(p[j]);
      spvgen_kernel_free(&k[j]);
    }
  }
  double loop_ms = sg_now_ms() - t_all;
  /* The disk cache written now (as at exit), timed: part of what a process pays. */
  double t_save = sg_now_ms();
  spvgen_vk_kernel_cache_save(ctx);
  t_save = sg_now_ms() - t_save;
  printf("\npipelines created: %llu (cache hits %llu)\n", (unsigned long long)compiled, (unsigned long long)reused);
  printf("total compile ms:  %.1f\n", compile_ms);
  printf("total GPU ms:      %.3f\n", gpu_ms);
  printf("total wall ms:     %.1f (plan + emit %.2f, pipelines, dispatch and wait per call; the loop with the "
         "checks took %.1f, the checks %.1f; the disk cache save %.1f)\n",
         wall, emit_ms, loop_ms, check_ms, t_save);
  printf("check:             %llu of %llu sampled outputs off\n", (unsigned long long)bad_total,
         (unsigned long long)checked_total);
  printf("summary calls=%d shapes=%s pipelines=%llu hits=%llu compile_ms=%.1f gpu_ms=%.3f wall_ms=%.1f cold=%d "
         "disk_cache_bytes_read=%llu\n",
         n, runtime ? "runtime" : "fixed", (unsigned long long)compiled, (unsigned long long)reused, compile_ms, gpu_ms, wall, cold ? 1 : 0,
         (unsigned long long)cs0.disk_bytes_read);
  rc = bad_total ? 1 : 0;
done:
  free(ha);
  free(hb);
done_early:
  spvgen_vk_destroy(ctx);
  free(calls);
  if (cold) rm_tree(tmp_dir);
  return rc;
}
