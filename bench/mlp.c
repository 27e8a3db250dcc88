/* bench/mlp.c — throughput of spvgen's fused MLP kernels on the first Vulkan device, each
 * variant (vec: NV cooperative vectors, vec-opt: the same with the driver's inferencing-optimal
 * weights, vec-e4m3 / vec-e5m2 / vec-s8: float8 / int8 weights in that layout, mat: KHR cooperative
 * matrices, loop: plain loops) on the two networks of the MLP issue, next to the references of
 * shared/anchors/mlp_anchor.py measured in the same run (torch eager, torch.compile, a
 * hand-fused Triton kernel):
 *   (a) f16, 32 -> 64 -> 64 -> 64 -> 64 -> 16, ReLU, --points-a points (default 4M)
 *       read from and written to memory: G points/s;
 *   (b) f16, 8 -> 64 -> 64 -> 64 -> 8, ReLU, weights shared by every invocation,
 *       --points-b points (default 16M): TFLOP/s counted as 2 sum(in * out) per point.
 * Each figure: GPU timestamps after a sustained warm-up (--warmup-ms, default 300: the
 * H100 idles at 345 MHz between short bursts), then --repeats dispatches in one
 * submission, median. The default plan of each variant, or with --all-plans every plan
 * of spvgen_mlp_plans for it (the best is reported). Inputs and weights are random;
 * about --sample points (default 4096, spread over the batch, the last included) are
 * checked against the float64 CPU reference of tools/common/mlp_run.c with its
 * tolerance (mlp_run.h); a mismatch is printed as FAIL and the exit status is 1.
 *
 *   bench_mlp [--points-a N] [--points-b N] [--variants vec,vec-opt,vec-e4m3,vec-e5m2,vec-s8,mat,loop] [--all-plans]
 *             [--repeats N] [--warmup-ms N] [--sample N] [--anchor PATH/mlp_anchor.py]
 *             [--md]
 *
 * A variant the device cannot run prints its reason as a comment ('-' in the table).
 * Results are recorded in bench/results/mlp-*.md. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlp_run.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* Anchor figures (G points/s; 0: unknown). */
typedef struct anchor_figs {
  double eager_a, compile_a, triton_a;
  double eager_b, compile_b;
} anchor_figs;

/* Runs the anchor script (in the same process run: popen) with a CONFIGS file naming
 * network (b), and parses its lines:
 *   "torch eager   32-64x4-16 relu:  X G pts/s ..."
 *   "triton fused  32-64x4-16 relu:  X G pts/s ..."
 *   "torch.compile 32-64x4-16 relu:  X G pts/s ..."
 *   "net   8   64x3   8 relu    : torch eager X G pts/s, compile Y G pts/s (...)" */
static void run_anchor(const char *script, anchor_figs *f) {
  char cfg[] = "/tmp/bench_mlp_nets_XXXXXX";
  int fd = mkstemp(cfg);
  if (fd < 0) {
    printf("# anchor: cannot create a temporary file\n");
    return;
  }
  FILE *c = fdopen(fd, "w");
  if (!c) return;
  fprintf(c, "8 64x3 8 relu\n");
  fclose(c);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "python3 %s %s 2>&1", script, cfg);
  FILE *p = popen(cmd, "r");
  if (!p) {
    remove(cfg);
    return;
  }
  char line[1024];
  while (fgets(line, sizeof line, p)) {
    fputs("# anchor: ", stdout);
    fputs(line, stdout);
    const char *colon = strchr(line, ':');
    if (!colon) continue;
    double v = atof(colon + 1);
    if (!strncmp(line, "torch eager ", 12)) f->eager_a = v;
    else if (!strncmp(line, "triton fused", 12)) f->triton_a = v;
    else if (!strncmp(line, "torch.compile", 13)) f->compile_a = v;
    else if (!strncmp(line, "net ", 4)) {
      const char *e = strstr(line, "torch eager "), *k = strstr(line, "compile ");
      if (e) f->eager_b = atof(e + 12);
      if (k) f->compile_b = atof(k + 8);
    }
  }
  pclose(p);
  remove(cfg);
}

static spvgen_mlp_desc network(int which) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  if (which == 0) {
    d.input_width = 32;
    d.hidden_width = 64;
    d.hidden_count = 4;
    d.output_width = 16;
  } else {
    d.input_width = 8;
    d.hidden_width = 64;
    d.hidden_count = 3;
    d.output_width = 8;
  }
  d.activation = SPVGEN_MLP_ACT_RELU;
  return d;
}

int main(int argc, char **argv) {
  uint64_t points[2] = {1ull << 22, 1ull << 24};
  const char *variant_arg = "vec,vec-opt,mat,loop";
  const char *anchor = NULL;
  bool all_plans = false, md = false;
  uint32_t repeats = 20, warmup_ms = 300;
  uint64_t sample = 4096;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--points-a") && v) points[0] = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--points-b") && v) points[1] = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--variants") && v) variant_arg = v, i++;
    else if (!strcmp(a, "--anchor") && v) anchor = v, i++;
    else if (!strcmp(a, "--repeats") && v) repeats = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--warmup-ms") && v) warmup_ms = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--sample") && v) sample = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--all-plans")) all_plans = true;
    else if (!strcmp(a, "--md")) md = true;
    else {
      fprintf(stderr, "usage: bench_mlp [--points-a N] [--points-b N] [--variants vec,vec-opt,vec-e4m3,vec-e5m2,vec-s8,mat,loop] [--all-plans]\n"
                      "                 [--repeats N] [--warmup-ms N] [--sample N] [--anchor mlp_anchor.py] [--md]\n");
      return 2;
    }
  }
  if (!points[0] || !points[1] || !repeats) return fprintf(stderr, "bench_mlp: points and repeats must be >= 1\n"), 2;
  enum { MAXV = 8 };
  spvgen_mlp_variant variants[MAXV];
  bool optimal[MAXV];
  spvgen_component_type wtype[MAXV];
  const char *vnames[MAXV];
  int nv = 0;
  {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", variant_arg);
    static const char *const known[] = {"vec", "vec-opt", "vec-e4m3", "vec-e5m2", "vec-s8", "mat", "loop"};
    for (char *t = strtok(buf, ","); t && nv < MAXV; t = strtok(NULL, ",")) {
      optimal[nv] = !strncmp(t, "vec-", 4);
      wtype[nv] = !strcmp(t, "vec-e4m3") ? SPVGEN_COMPONENT_E4M3
                  : !strcmp(t, "vec-e5m2") ? SPVGEN_COMPONENT_E5M2
                  : !strcmp(t, "vec-s8")   ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
      if (!(optimal[nv] ? spvgen_mlp_variant_parse("vec", &variants[nv])
                        : spvgen_mlp_variant_parse(t, &variants[nv])) ||
          variants[nv] == SPVGEN_MLP_AUTO)
        return fprintf(stderr, "bench_mlp: unknown variant '%s' (vec, vec-opt, vec-e4m3, vec-e5m2, vec-s8, mat, loop)\n", t), 2;
      vnames[nv] = NULL;
      for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (!strcmp(t, known[k])) vnames[nv] = known[k];
      if (!vnames[nv])
        return fprintf(stderr, "bench_mlp: unknown variant '%s' (vec, vec-opt, vec-e4m3, vec-e5m2, vec-s8, mat, loop)\n", t), 2;
      nv++;
    }
  }
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "bench_mlp: %s\n", msg);
    return 1;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  printf("# bench_mlp on %s (%s %s)\n", caps->name, caps->driver_name, caps->driver_info);
  anchor_figs af;
  memset(&af, 0, sizeof af);
  if (anchor) run_anchor(anchor, &af);
  static const char *const net_names[2] = {"(a) 32-64x4-16 relu", "(b) 8-64x3-8 relu"};
  if (md)
    printf("| network | points | variant | plan | G points/s | TFLOP/s | ms | check | emit us |\n"
           "|---|---:|---|---|---:|---:|---:|---|---:|\n");
  else
    printf("%-20s %9s %-5s %-52s %10s %8s %9s %-5s %8s\n", "network", "points", "var", "plan", "Gpts/s",
           "TFLOP/s", "ms", "check", "emit us");
  int failures = 0;
  for (int net = 0; net < 2; net++) {
    spvgen_mlp_desc base = network(net);
    uint64_t flops = 0;
    for (int vi = 0; vi < nv; vi++) {
      spvgen_mlp_desc d = base;
      d.variant = variants[vi];
      if (optimal[vi]) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      d.weight_type = wtype[vi];
      const char *vname = vnames[vi];
      spvgen_mlp_config plans[64];
      uint32_t np = 1;
      if (all_plans) {
        if (spvgen_mlp_plans(&d, caps, plans, 64, &np, msg, sizeof msg) != SPVGEN_OK) np = 0;
        if (np > 64) np = 64;
        if (!np) {
          printf("# %s %s: %s\n", net_names[net], vname, msg);
          if (md) printf("| %s | %llu | %s | - | - | - | - | - | - |\n", net_names[net], (unsigned long long)points[net], vname);
          else printf("%-20s %9llu %-5s %-52s %10s\n", net_names[net], (unsigned long long)points[net], vname, "-", "-");
          continue;
        }
      }
      mlp_run_result best;
      memset(&best, 0, sizeof best);
      bool any = false, bad = false;
      for (uint32_t i = 0; i < np; i++) {
        spvgen_mlp_desc e = all_plans ? plans[i].desc : d;
        mlp_run_options o;
        memset(&o, 0, sizeof o);
        o.points = points[net];
        o.seed = 77 + (uint64_t)net;
        o.warmup = 3;
        o.warmup_ms = warmup_ms;
        o.repeats = repeats;
        o.sample = sample;
        mlp_run_result r;
        spvgen_status st = mlp_run(ctx, &e, &o, &r, msg, sizeof msg);
        if (st != SPVGEN_OK) {
          printf("# %s %s: %s\n", net_names[net], vname, msg);
          continue;
        }
        if (all_plans)
          printf("#   %-58s %8.2f G points/s %7.1f TFLOP/s%s\n", r.plan.name, r.points_per_s / 1e9, r.tflops,
                 r.bad ? " FAIL" : "");
        if (r.bad) {
          bad = true;
          printf("# %s [%s]: %llu of %llu sampled outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g tol %.3g\n",
                 net_names[net], r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
                 (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component, r.first_bad_gpu,
                 r.first_bad_ref, r.first_bad_tol);
        }
        if (!any || r.points_per_s > best.points_per_s) best = r;
        any = true;
      }
      if (!any) {
        if (md) printf("| %s | %llu | %s | - | - | - | - | - | - |\n", net_names[net], (unsigned long long)points[net], vname);
        else printf("%-20s %9llu %-5s %-52s %10s\n", net_names[net], (unsigned long long)points[net], vname, "-", "-");
        continue;
      }
      flops = best.plan.flops_per_point;
      const char *check = best.bad ? "FAIL" : bad ? "ok (a plan FAILED)" : "ok";
      if (best.bad || bad) failures++;
      if (md)
        printf("| %s | %llu | %s | %s | %.2f | %.1f | %.3f | %s | %.1f |\n", net_names[net],
               (unsigned long long)points[net], vname, best.plan.name, best.points_per_s / 1e9, best.tflops,
               best.median_ns / 1e6, check, best.emit_us);
      else
        printf("%-20s %9llu %-5s %-52s %10.3f %8.2f %9.3f %-5s %8.1f\n", net_names[net],
               (unsigned long long)points[net], vname, best.plan.name, best.points_per_s / 1e9, best.tflops,
               best.median_ns / 1e6, check, best.emit_us);
      fflush(stdout);
    }
    /* The anchor's figures for the same network (its own point count: 4M). */
    if (anchor) {
      if (!flops) {
        spvgen_mlp_config p;
        spvgen_mlp_desc l = base;
        l.variant = SPVGEN_MLP_LOOP;
        if (spvgen_mlp_plan(&l, NULL, &p, NULL, 0) == SPVGEN_OK) flops = p.flops_per_point;
      }
      const char *names[3] = {"torch eager", "torch.compile", "triton fused"};
      double v[3] = {net ? af.eager_b : af.eager_a, net ? af.compile_b : af.compile_a, net ? 0 : af.triton_a};
      for (int k = 0; k < 3; k++) {
        if (v[k] <= 0) continue;
        if (md)
          printf("| %s | 4194304 | anchor | %s | %.2f | %.1f | - | - | - |\n", net_names[net], names[k], v[k],
                 v[k] * flops / 1e3);
        else
          printf("%-20s %9s %-5s %-52s %10.2f %8.1f\n", net_names[net], "4194304", "ref", names[k], v[k],
                 v[k] * flops / 1e3);
      }
    }
  }
  spvgen_vk_destroy(ctx);
  return failures ? 1 : 0;
}
