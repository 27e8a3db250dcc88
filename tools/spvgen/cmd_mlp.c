/* tools/spvgen/cmd_mlp.c — `spvgen mlp` (emit a fused MLP module: .spv, disassembly or
 * JSON) and `spvgen run mlp` (emit it for this machine's device, run it on random
 * weights and points, check every output against the float64 reference of
 * tools/common/mlp_run.c, print the variant, GPU time and points/s). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "caps_json.h"
#include "cmds.h"
#include "json_out.h"
#include "mlp_run.h"
#include "mlp_train_run.h"
#include "spvgen/check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct mlp_cli {
  spvgen_mlp_desc desc;
  const char *caps_name, *output;
  bool json, disassemble;
  mlp_run_options run;
  /* --train */
  bool train;
  spvgen_mlp_train_desc tdesc; /* loss, optimizer (net: desc) */
  mlp_train_run_options trun;
  /* bench */
  bool bench, all_plans, no_gpu;
  const char *variants, *anchor;
} mlp_cli;

/* What parse() accepts beyond the network: emit (-o, -S, --json, --caps), run (--points,
 * --repeats, ...), bench (run's, and --variants, --all-plans, --anchor, --caps, --no-gpu). */
enum { P_EMIT = 0, P_RUN = 1, P_BENCH = 2 };

static void mlp_usage(FILE *o, bool run) {
  fprintf(o,
          "usage: spvgen %s [options]\n\n"
          "network:\n"
          "  --in N                 input width (required)\n"
          "  --hidden WxC | W,W,..  C hidden layers of width W, or a list of widths\n"
          "  --out N                output width (required)\n"
          "  --act NAME             hidden activation: none, relu (default), leaky_relu,\n"
          "                         sigmoid, tanh, silu, exp\n"
          "  --out-act NAME         output activation (default none)\n"
          "  --leaky-slope F        leaky relu slope (default 0.01)\n"
          "  --no-bias              layers without bias\n"
          "  --encoding freq:N|oneblob:N  input encoding (N octaves / bins)\n"
          "  --encoding hashgrid[:L,F,T,N,S]  multiresolution hash grid (2-D or 3-D points):\n"
          "                         L levels (16), F features per level (2), table 2^T\n"
          "                         entries (19), base resolution N (16), per-level scale S (2)\n"
          "  --types W[,IO]         weight type (f16; s8 with --variant vec; e4m3 or e5m2\n"
          "                         with --variant vec --weights optimal) and points in\n"
          "                         memory (f16 or f32)\n"
          "  --weights row|optimal|auto  weight layout: row-major (default), the driver's\n"
          "                         inferencing-optimal one (vec variant; offsets as spec\n"
          "                         constants, see mlp.h), or the one the plan expects faster\n"
          "  --spec-id-base N       with optimal weights: layer l's offset is SpecId N + l\n"
          "knobs:\n"
          "  --variant auto|vec|mat|loop\n"
          "  --wg N                 invocations per workgroup\n"
          "  --points-per-group N   vec: points per invocation (1, 2, 4, 8); mat: points\n"
          "                         per workgroup block (a multiple of 16)\n"
          "  --mat-rows             mat: each subgroup owns 16-point fragments and every output\n"
          "                         of a layer for them (no workgroup barrier between layers)\n"
          "  --bias-path fused|add  vec: the bias as MatrixMulAdd's operand (fused), or\n"
          "                         MatrixMul then a loaded cooperative vector added\n"
          "  --vec-rows N           vec: a layer in pieces of N output rows (16..256, /16)\n"
          "  --vec-stage            vec: activations through a shared-memory row per invocation\n"
          "  --layer-loop           vec: the equal hidden layers as a run-time loop\n"
          "  --compile-budget MS    the estimated driver compile the plan may choose (1000)\n"
          "  --addressing descriptors|device-address  device-address: input, weights and output\n"
          "                         as 64-bit pointers in the push constants (loop variant)\n"
          "training:\n"
          "  --train                the training kernels: the gradient kernel (forward +\n"
          "                         backward) and the optimizer kernel (loop variant;\n"
          "                         --variant vec: cooperative vector training; --variant\n"
          "                         mat: cooperative matrices, chunks of --points-per-group)\n"
          "  --loss l2|rel-l2       (default l2)\n"
          "  --optimizer adam|sgd   (default adam)\n"
          "%s"
          "  -h, --help\n",
          run ? "run mlp" : "mlp",
          run ? "run:\n"
                "  --points N             points (default 4096)\n"
                "  --repeats N --warmup N --warmup-ms MS --seed N\n"
                "  --sample N             check about N points (evenly spread, the last included),\n"
                "                         every output of each, instead of every point\n"
                "  --steps N --lr F       with --train: steps (default 3; each checked against\n"
                "                         the CPU), learning rate (default 1e-3)\n"
              : "device:\n"
                "  --caps NAME|FILE       h100, vulkan13, lavapipe, or a `spvgen devices --json` file\n"
                "output:\n"
                "  -o FILE                output (default mlp.spv; - for stdout); with --train the\n"
                "                         gradient kernel, and the optimizer in FILE less .spv\n"
                "                         plus .opt.spv\n"
                "  -S                     disassembly instead of words\n"
                "  --json                 the plan and the weight layout as JSON\n");
}


/* The hash grid's ":LEVELS,FEATURES,LOG2SIZE,BASERES,SCALE" (each optional from the
 * right; empty: the defaults). */
static bool parse_hash_grid(const char *s, spvgen_mlp_hash_grid *g) {
  memset(g, 0, sizeof *g);
  if (!*s) return true;
  if (*s++ != ':') return false;
  uint32_t *u[4] = {&g->levels, &g->features, &g->log2_hashmap_size, &g->base_resolution};
  for (int i = 0; i < 5; i++) {
    const char *comma = strchr(s, ',');
    char field[32];
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    if (!n || n >= sizeof field) return false;
    memcpy(field, s, n);
    field[n] = 0;
    if (i < 4) {
      if (!spvgen_cli_u32(field, u[i]) || !*u[i]) return false;
    } else {
      double scale;
      if (!sg_parse_number(field, 1.0, 1e6, &scale)) return false;
      g->per_level_scale = (float)scale;
    }
    if (!comma) return true;
    s = comma + 1;
  }
  return false;
}

static void bench_mlp_usage(FILE *o);

static int parse(const char *cmd, int mode, int argc, char **argv, mlp_cli *g) {
  memset(g, 0, sizeof *g);
  const bool run = mode != P_EMIT, bench = mode == P_BENCH;
  g->bench = bench;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      if (bench) bench_mlp_usage(stdout);
      else mlp_usage(stdout, run);
      return -1;
    }
    if (bench && !strcmp(a, "--all-plans")) { g->all_plans = true; continue; }
    if (bench && !strcmp(a, "--no-gpu")) { g->no_gpu = true; continue; }
    if (!strcmp(a, "--no-bias")) { g->desc.no_bias = true; continue; }
    if (!strcmp(a, "--mat-rows")) { g->desc.mat_rows = true; continue; }
    if (!strcmp(a, "--vec-stage")) { g->desc.vec_stage = true; continue; }
    if (!strcmp(a, "--layer-loop")) { g->desc.layer_loop = true; continue; }
    if (!strcmp(a, "--train")) { g->train = true; continue; }
    if (!run && !strcmp(a, "-S")) { g->disassemble = true; continue; }
    if (!run && !strcmp(a, "--json")) { g->json = true; continue; }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    bool known = true;
    uint32_t u = 0;
    if (!v) return spvgen_cli_usage_error(cmd, "%s needs a value", a);
    if (!strcmp(a, "--in")) {
      if (!spvgen_cli_u32(v, &g->desc.input_width)) return spvgen_cli_usage_error(cmd, "--in: '%s' is not a number", v);
    } else if (!strcmp(a, "--out")) {
      if (!spvgen_cli_u32(v, &g->desc.output_width)) return spvgen_cli_usage_error(cmd, "--out: '%s' is not a number", v);
    } else if (!strcmp(a, "--hidden")) {
      uint32_t wc[2], n = 0;
      if (strchr(v, 'x')) {
        if (!sg_parse_u32_list(v, 'x', 1, UINT32_MAX, wc, 2, &n) || n != 2)
          return spvgen_cli_usage_error(cmd, "--hidden '%s': WxC with a width and a layer count from 1 to 4294967295", v);
        g->desc.hidden_width = wc[0];
        g->desc.hidden_count = wc[1];
      } else {
        if (!sg_parse_u32_list(v, ',', 1, UINT32_MAX, g->desc.hidden_widths, SPVGEN_MLP_MAX_LAYERS - 1, &n))
          return spvgen_cli_usage_error(cmd, "--hidden '%s': WxC or a list of 1 to %u widths W,W,... (each 1 to 4294967295)",
                                        v, SPVGEN_MLP_MAX_LAYERS - 1);
        g->desc.hidden_count = n;
      }
    } else if (!strcmp(a, "--act") || !strcmp(a, "--out-act")) {
      spvgen_mlp_activation act;
      if (!spvgen_mlp_activation_parse(v, &act) || act == SPVGEN_MLP_ACT_DEFAULT)
        return spvgen_cli_usage_error(cmd, "%s: unknown activation '%s'", a, v);
      if (a[2] == 'a') g->desc.activation = act;
      else g->desc.output_activation = act;
    } else if (!strcmp(a, "--leaky-slope")) {
      double slope;
      if (!sg_parse_number(v, -1e6, 1e6, &slope))
        return spvgen_cli_usage_error(cmd, "--leaky-slope: '%s' is not a number from -1e6 to 1e6", v);
      g->desc.leaky_slope = (float)slope;
    } else if (!strcmp(a, "--encoding")) {
      uint32_t n = 0;
      if (!strncmp(v, "hashgrid", 8)) {
        if (!parse_hash_grid(v + 8, &g->desc.grid))
          return spvgen_cli_usage_error(cmd, "--encoding '%s': hashgrid[:LEVELS[,FEATURES[,LOG2SIZE[,BASERES[,SCALE]]]]]", v);
        g->desc.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
      } else if (!strncmp(v, "freq:", 5) && sg_parse_u32(v + 5, 0, UINT32_MAX, &n))
        g->desc.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      else if (!strncmp(v, "oneblob:", 8) && sg_parse_u32(v + 8, 0, UINT32_MAX, &n))
        g->desc.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
      else
        return spvgen_cli_usage_error(cmd, "--encoding '%s': freq:N, oneblob:N (N from 0 to 4294967295) or "
                                      "hashgrid[:L,F,T,N,S]", v);
      g->desc.encoding_size = n;
    } else if (!strcmp(a, "--types")) {
      char wt[16] = "", io[16] = "";
      if (sscanf(v, "%15[^,],%15s", wt, io) < 1 || !spvgen_component_type_parse(wt, &g->desc.weight_type) ||
          (io[0] && !spvgen_component_type_parse(io, &g->desc.input_type)))
        return spvgen_cli_usage_error(cmd, "--types '%s': W[,IO] with component types (W: f16, s8, e4m3, e5m2; IO: f16, f32)", v);
      g->desc.output_type = g->desc.input_type;
    } else if (!strcmp(a, "--weights")) {
      if (!strcmp(v, "row")) g->desc.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      else if (!strcmp(v, "optimal")) g->desc.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      else if (!strcmp(v, "auto")) g->desc.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
      else return spvgen_cli_usage_error(cmd, "--weights: '%s' is not row, optimal or auto", v);
    } else if (!strcmp(a, "--variant")) {
      if (!spvgen_mlp_variant_parse(v, &g->desc.variant))
        return spvgen_cli_usage_error(cmd, "--variant: '%s' is not auto, vec, mat or loop", v);
    } else if (!strcmp(a, "--wg")) {
      if (!spvgen_cli_u32(v, &g->desc.workgroup_size)) return spvgen_cli_usage_error(cmd, "--wg: '%s'", v);
    } else if (!strcmp(a, "--vec-rows")) {
      if (!spvgen_cli_u32(v, &g->desc.vec_rows)) return spvgen_cli_usage_error(cmd, "--vec-rows: '%s'", v);
    } else if (!strcmp(a, "--addressing")) {
      if (!spvgen_addressing_parse(v, &g->desc.addressing))
        return spvgen_cli_usage_error(cmd, "--addressing: '%s' is not descriptors or device-address", v);
    } else if (!strcmp(a, "--compile-budget")) {
      if (!spvgen_cli_u32(v, &g->desc.compile_budget_ms)) return spvgen_cli_usage_error(cmd, "--compile-budget: '%s'", v);
    } else if (!strcmp(a, "--spec-id-base")) {
      if (!spvgen_cli_u32(v, &g->desc.spec_id_base)) return spvgen_cli_usage_error(cmd, "--spec-id-base: '%s'", v);
    } else if (!strcmp(a, "--bias-path")) {
      if (!strcmp(v, "fused")) g->desc.bias_path = SPVGEN_MLP_BIAS_FUSED;
      else if (!strcmp(v, "add")) g->desc.bias_path = SPVGEN_MLP_BIAS_ADD;
      else return spvgen_cli_usage_error(cmd, "--bias-path: '%s' is not fused or add", v);
    } else if (!strcmp(a, "--points-per-group")) {
      if (!spvgen_cli_u32(v, &g->desc.points_per_group))
        return spvgen_cli_usage_error(cmd, "--points-per-group: '%s'", v);
    } else if (!strcmp(a, "--loss")) {
      if (!spvgen_mlp_loss_parse(v, &g->tdesc.loss))
        return spvgen_cli_usage_error(cmd, "--loss: '%s' is not l2 or rel-l2", v);
    } else if (!strcmp(a, "--optimizer")) {
      if (!spvgen_mlp_optimizer_parse(v, &g->tdesc.optimizer))
        return spvgen_cli_usage_error(cmd, "--optimizer: '%s' is not adam or sgd", v);
    } else if (run && !strcmp(a, "--steps")) {
      if (!spvgen_cli_u32(v, &g->trun.steps) || !g->trun.steps || g->trun.steps > MLP_TRAIN_RUN_MAX_STEPS)
        return spvgen_cli_usage_error(cmd, "--steps: '%s' (1 to %u)", v, MLP_TRAIN_RUN_MAX_STEPS);
    } else if (run && !strcmp(a, "--lr")) {
      double lr;
      if (!sg_parse_number(v, 0, 1e6, &lr) || !(lr > 0))
        return spvgen_cli_usage_error(cmd, "--lr: '%s' is not a positive number (up to 1e6)", v);
      g->trun.lr = (float)lr;
    } else if ((!run || bench) && !strcmp(a, "--caps")) {
      g->caps_name = v;
    } else if (run && !strcmp(a, "--sample")) {
      uint64_t sample = 0;
      if (!sg_parse_u64(v, false, 0, UINT64_MAX, &sample))
        return spvgen_cli_usage_error(cmd, "--sample: '%s' is not a number of points (0: every point)", v);
      g->run.sample = sample;
    } else if (bench && !strcmp(a, "--variants")) {
      g->variants = v;
    } else if (bench && !strcmp(a, "--anchor")) {
      g->anchor = v;
    } else if (!run && !strcmp(a, "-o")) {
      g->output = v;
    } else if (run && !strcmp(a, "--points")) {
      uint64_t points;
      if (!sg_parse_u64(v, false, 1, UINT64_MAX, &points))
        return spvgen_cli_usage_error(cmd, "--points: '%s' is not a number from 1 to 2^64 - 1", v);
      g->run.points = points;
    } else if (run && (!strcmp(a, "--repeats") || !strcmp(a, "--warmup") || !strcmp(a, "--warmup-ms"))) {
      if (!spvgen_cli_u32(v, &u)) return spvgen_cli_usage_error(cmd, "%s: '%s'", a, v);
      if (!strcmp(a, "--repeats")) g->run.repeats = u;
      else if (!strcmp(a, "--warmup")) g->run.warmup = u;
      else g->run.warmup_ms = u;
    } else if (run && !strcmp(a, "--seed")) {
      if (!sg_parse_u64(v, true, 0, UINT64_MAX, &g->run.seed))
        return spvgen_cli_usage_error(cmd, "--seed: '%s' is not a number from 0 to 2^64 - 1 (decimal or 0x...)", v);
    } else {
      known = false;
    }
    if (!known) return spvgen_cli_usage_error(cmd, "unknown option '%s'", a);
    i++;
  }
  if (!g->desc.input_width || !g->desc.output_width)
    return spvgen_cli_usage_error(cmd, "--in and --out are required");
  g->tdesc.net = g->desc;
  g->trun.seed = g->run.seed;
  g->trun.points = g->run.points;
  return 0;
}

/* The metadata every template prints (json_out.h), then the MLP's own members. */
static int write_kernel(const mlp_cli *g, const char *path, const spvgen_kernel *k, const char *title) {
  bool text = g->json || g->disassemble;
  FILE *f = strcmp(path, "-") ? fopen(path, text ? "w" : "wb") : stdout;
  if (!f) {
    fprintf(stderr, "spvgen mlp: cannot write '%s': %s\n", path, strerror(errno));
    return 1;
  }
  int rc = 0;
  if (text) {
    char *dis = NULL;
    fprintf(f, "; %s\n", title);
    char dmsg[1024];
    if (spvgen_disassemble(k->words, k->word_count, SPVGEN_DIS_FRIENDLY_NAMES, &dis, dmsg, sizeof dmsg) == SPVGEN_OK)
      fputs(dis, f);
    else {
      fprintf(stderr, "spvgen mlp: cannot disassemble: %s\n", dmsg);
      rc = 1;
    }
    spvgen_free_text(dis);
  } else if (fwrite(k->words, 4, k->word_count, f) != k->word_count) {
    rc = 1;
  }
  rc |= ferror(f) ? 1 : 0;
  if (f != stdout) rc |= fclose(f) ? 1 : 0;
  else if (fflush(f) != 0 || rc) rc = spvgen_cli_reader_gone(f) ? 0 : 1;
  if (rc) fprintf(stderr, "spvgen mlp: write to '%s' failed\n", path);
  else if (!text && f != stdout) fprintf(stderr, "spvgen mlp: %s: %s (%zu words)\n", path, title, k->word_count);
  return rc;
}

/* spvgen mlp --train: both kernels, validated; -o FILE and FILE.opt.spv. */
static int cmd_mlp_train(mlp_cli *g, const spvgen_device_caps *caps) {
  char msg[1024];
  spvgen_mlp_train_config plan;
  if (spvgen_mlp_train_plan(&g->tdesc, caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen mlp: %s\n", msg);
    return 1;
  }
  if (g->json) {
    sg_json j;
    sg_json_start(&j, stdout);
    sg_json_object(&j, NULL, false);
    sg_json_str(&j, "template", "mlp_train");
    sg_json_str(&j, "plan", plan.name);
    sg_json_str(&j, "net", plan.net.name);
    sg_json_str(&j, "loss", spvgen_mlp_loss_name(plan.desc.loss));
    sg_json_str(&j, "optimizer", spvgen_mlp_optimizer_name(plan.desc.optimizer));
    sg_json_u64(&j, "grad_workgroups", plan.grad_workgroups);
    sg_json_u64(&j, "grad_local_size", plan.grad_local_size[0]);
    sg_json_u64(&j, "grad_shared_bytes", plan.grad_shared_bytes);
    sg_json_u64(&j, "weight_bytes", plan.net.weight_bytes);
    sg_json_u64(&j, "elements", plan.elements);
    sg_json_u64(&j, "params", plan.params);
    sg_json_u64(&j, "grad_bytes", plan.grad_bytes);
    sg_json_u64(&j, "state_bytes", plan.state_bytes);
    sg_json_u64(&j, "loss_bytes", plan.loss_bytes);
    sg_json_end(&j);
    sg_json_finish(&j);
    return 0;
  }
  bool text = g->disassemble;
  const char *path = g->output ? g->output : text ? "-" : "mlp.spv";
  char opath[4096];
  if (!strcmp(path, "-")) {
    snprintf(opath, sizeof opath, "-");
  } else {
    size_t n = strlen(path);
    if (n >= 4 && !strcmp(path + n - 4, ".spv")) n -= 4;
    if (n + 9 > sizeof opath) return spvgen_cli_usage_error("mlp", "-o: path too long");
    snprintf(opath, sizeof opath, "%.*s.opt.spv", (int)n, path);
  }
  static char vmsg[16 * 1024];
  int rc = 0;
  for (int which = 0; which < 2 && !rc; which++) {
    spvgen_kernel k;
    if (spvgen_mlp_train(&g->tdesc, caps, (spvgen_mlp_train_kernel)which, &k, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen mlp: %s\n", msg);
      return 1;
    }
    if (spvgen_validate(k.words, k.word_count, NULL, vmsg, sizeof vmsg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen mlp: the emitted module does not validate (a bug in spvgen): %s\n", vmsg);
      rc = 1;
    } else {
      char title[200];
      snprintf(title, sizeof title, "%s: %s kernel", plan.name, which ? "optimizer" : "gradient");
      rc = write_kernel(g, which ? opath : path, &k, title);
    }
    spvgen_kernel_free(&k);
  }
  return rc;
}

int spvgen_cmd_mlp(int argc, char **argv) {
  mlp_cli g;
  int r = parse("mlp", P_EMIT, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  spvgen_device_caps caps;
  if ((r = spvgen_cli_resolve_caps("mlp", g.caps_name, &caps))) return r;
  if (g.train) return cmd_mlp_train(&g, &caps);
  char msg[1024];
  spvgen_mlp_config plan;
  spvgen_kernel k;
  if (spvgen_mlp_plan(&g.desc, &caps, &plan, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp(&g.desc, &caps, &k, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen mlp: %s\n", msg);
    return 1;
  }
  static char vmsg[16 * 1024];
  int rc = 0;
  if (spvgen_validate(k.words, k.word_count, NULL, vmsg, sizeof vmsg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen mlp: the emitted module does not validate (a bug in spvgen): %s\n", vmsg);
    spvgen_kernel_free(&k);
    return 1;
  }
  bool text = g.json || g.disassemble;
  const char *path = g.output ? g.output : text ? "-" : "mlp.spv";
  FILE *f = strcmp(path, "-") ? fopen(path, text ? "w" : "wb") : stdout;
  if (!f) {
    fprintf(stderr, "spvgen mlp: cannot write '%s': %s\n", path, strerror(errno));
    spvgen_kernel_free(&k);
    return 1;
  }
  if (g.json) {
    sg_template_json(&sg_template_mlp, f, &plan, &k);
  } else if (g.disassemble) {
    char *dis = NULL;
    char dmsg[1024];
    if (spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES, &dis, dmsg, sizeof dmsg) == SPVGEN_OK)
      fputs(dis, f);
    else {
      fprintf(stderr, "spvgen mlp: cannot disassemble: %s\n", dmsg);
      rc = 1;
    }
    spvgen_free_text(dis);
  } else if (fwrite(k.words, 4, k.word_count, f) != k.word_count) {
    rc = 1;
  }
  rc |= ferror(f) ? 1 : 0;
  if (f != stdout) rc |= fclose(f) ? 1 : 0;
  else if (fflush(f) != 0 || rc) rc = spvgen_cli_reader_gone(f) ? 0 : 1;
  if (!rc && !text && f != stdout) fprintf(stderr, "spvgen mlp: %s: %s (%zu words)\n", path, plan.name, k.word_count);
  if (rc) fprintf(stderr, "spvgen mlp: write to '%s' failed\n", path);
  spvgen_kernel_free(&k);
  return rc;
}

int spvgen_cmd_run_mlp(int argc, char **argv) {
  mlp_cli g;
  int r = parse("run mlp", P_RUN, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen run mlp: no Vulkan device: %s\n", msg);
    return 1;
  }
  if (g.train) {
    mlp_train_run_result tr;
    spvgen_status ts = mlp_train_run(ctx, &g.tdesc, &g.trun, &tr, msg, sizeof msg);
    int trc = 0;
    if (ts != SPVGEN_OK) {
      fprintf(stderr, "spvgen run mlp: %s\n", msg);
      trc = 1;
    } else {
      uint32_t steps = g.trun.steps ? g.trun.steps : 3;
      printf("device   %s\n", spvgen_vk_caps(ctx)->name);
      printf("plan     %s\n", tr.plan.name);
      for (uint32_t s2 = 0; s2 < steps; s2++)
        printf("step %-3u loss %.6g (cpu %.6g)\n", s2 + 1, tr.loss_gpu[s2], tr.loss_ref[s2]);
      if (tr.grad_ns > 0)
        printf("gpu      gradient %.3f ms + optimizer %.3f ms per step, %.3g samples/s\n", tr.grad_ns / 1e6,
               tr.opt_ns / 1e6, tr.samples_per_s);
      printf("check    %" PRIu64 " of %" PRIu64 " gradients match (worst err/tol %.3g); %" PRIu64 " of %" PRIu64
             " optimizer values (worst %.3g); loss %s\n",
             tr.grad.checked - tr.grad.bad, tr.grad.checked, tr.grad.worst_ratio, tr.opt.checked - tr.opt.bad,
             tr.opt.checked, tr.opt.worst_ratio, tr.loss_bad ? "MISMATCH" : "matches");
      if (tr.grad.bad)
        printf("MISMATCH gradient element %" PRIu64 ": gpu %.8g, cpu %.8g (tol %.3g)\n", tr.grad.first_bad,
               tr.grad.first_gpu, tr.grad.first_ref, tr.grad.first_tol);
      if (tr.opt.bad)
        printf("MISMATCH optimizer element %" PRIu64 ": gpu %.8g, cpu %.8g (tol %.3g)\n", tr.opt.first_bad,
               tr.opt.first_gpu, tr.opt.first_ref, tr.opt.first_tol);
      trc = tr.grad.bad || tr.opt.bad || tr.loss_bad;
    }
    spvgen_vk_destroy(ctx);
    return trc;
  }
  mlp_run_result res;
  spvgen_status st = mlp_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg);
  int rc = 0;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen run mlp: %s\n", msg);
    rc = 1;
  } else {
    printf("device   %s\n", spvgen_vk_caps(ctx)->name);
    printf("plan     %s%s\n", res.plan.name,
           g.desc.weight_layout == SPVGEN_MLP_WEIGHTS_AUTO
               ? res.plan.desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? " (weights auto: optimal)" : " (weights auto: row-major)"
               : "");
    printf("emit     %.1f us, %zu words; driver compile %.1f ms\n", res.emit_us, res.words, res.compile_ms);
    if (res.median_ns > 0)
      printf("gpu      %.3f ms median of %u, %.3f G points/s, %.2f TFLOP/s\n", res.median_ns / 1e6,
             g.run.repeats ? g.run.repeats : 1, res.points_per_s / 1e9, res.tflops);
    else
      printf("gpu      no timestamps on this queue\n");
    printf("check    %" PRIu64 " of %" PRIu64 " outputs match (max |err| %.3g, tolerance there %.3g)%s\n",
           res.checked - res.bad, res.checked, res.max_err, res.max_err_tol,
           g.run.sample && g.run.points > g.run.sample ? " (sampled points)" : "");
    if (res.bad) {
      printf("MISMATCH %" PRIu64 " outputs; first point %" PRIu64 " component %" PRIu64 ": gpu %.6g, cpu %.6g (tol %.3g)\n",
             res.bad, res.first_bad_point, res.first_bad_component, res.first_bad_gpu, res.first_bad_ref,
             res.first_bad_tol);
      rc = 1;
    }
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

/* ------------------------------------------------------------ bench mlp ---- */

static void bench_mlp_usage(FILE *o) {
  fputs("usage: spvgen bench mlp --in N --out N [network and knob flags of `spvgen mlp`]\n"
        "                        [--points N] [--repeats N] [--warmup-ms MS] [--sample N] [--seed N]\n"
        "                        [--variants auto|all|LIST] [--all-plans] [--anchor SCRIPT]\n"
        "                        [--caps NAME | --no-gpu]\n\n"
        "Times the emission of the network's kernel on this CPU and, on the first Vulkan device,\n"
        "the kernel itself: the driver's first compile, GPU timestamps after a sustained warm-up\n"
        "(median of --repeats), G points/s and TFLOP/s (2 sum(inputs * outputs) per point), and a\n"
        "check of --sample points (default 1024; 0: every point), every output of each, against\n"
        "the float64 CPU reference.\n\n"
        "  --variants auto       the plan's choice (default)\n"
        "  --variants all        vec, vec-opt (the driver's optimal weights), mat and loop, each\n"
        "                        where the device has it (a reason where not)\n"
        "  --variants LIST       a comma-separated subset of vec, vec-opt, mat, loop\n"
        "  --all-plans           every plan of each variant (spvgen_mlp_plans), not its default\n"
        "  --anchor SCRIPT       run SCRIPT (bench/anchors/mlp_anchor_net.py) with python3 on the\n"
        "                        same network and point count: torch eager and torch.compile in\n"
        "                        the same run, and the best plan's ratio to torch.compile\n"
        "  --caps NAME, --no-gpu time the emission only (for a preset, or without a device)\n"
        "  -h, --help\n\n"
        "examples:\n"
        "  spvgen bench mlp --in 64 --hidden 64x5 --out 64 --points 2097152 --variants all\n"
        "  spvgen bench mlp --in 16 --hidden 128x3 --out 3 --act silu --sample 256 --anchor bench/anchors/mlp_anchor_net.py\n",
        o);
}

static double bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The anchor's figures for one network: "anchor<TAB>name<TAB>mode<TAB>points<TAB>ms<TAB>Gpts/s<TAB>TFLOP/s" lines. */
static void run_anchor(const char *script, const spvgen_mlp_config *p, uint64_t points, double *eager,
                       double *compiled) {
  char flags[512], cmd[2048];
  mlp_net_flags(&p->desc, flags, sizeof flags);
  snprintf(cmd, sizeof cmd, "python3 '%s' --points %llu --net '%s' 2>&1", script, (unsigned long long)points, flags);
  FILE *f = popen(cmd, "r");
  if (!f) {
    printf("anchor   cannot run python3 %s\n", script);
    return;
  }
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    char name[64], mode[32];
    unsigned long long pts;
    double ms, gpts, tf;
    if (sscanf(line, "anchor\t%63[^\t]\t%31[^\t]\t%llu\t%lf\t%lf\t%lf", name, mode, &pts, &ms, &gpts, &tf) == 6) {
      printf("anchor   %-14s %10.3f ms %9.3f G points/s %8.2f TFLOP/s (%llu points)\n", mode, ms, gpts, tf, pts);
      if (!strcmp(mode, "eager")) *eager = gpts;
      if (!strcmp(mode, "compile")) *compiled = gpts;
    } else {
      printf("anchor # %s", line);
    }
  }
  pclose(f);
}

int spvgen_cmd_bench_mlp(int argc, char **argv) {
  mlp_cli g;
  int r = parse("bench mlp", P_BENCH, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  if (g.train) return spvgen_cli_usage_error("bench mlp", "--train: see bench/mlp_train.c (bench_mlp_train)");
  if (!g.run.sample) g.run.sample = 1024;
  if (!g.run.points) g.run.points = 1u << 21;
  if (!g.run.repeats) g.run.repeats = 20;
  if (!g.run.warmup_ms) g.run.warmup_ms = 100;
  g.run.warmup = 2;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  spvgen_device_caps caps;
  if (g.caps_name || g.no_gpu) {
    if (g.caps_name && (r = spvgen_cli_resolve_caps("mlp", g.caps_name, &caps))) return r;
    if (!g.caps_name) spvgen_caps_preset("vulkan13", &caps);
    printf("caps     %s (no GPU run)\n", caps.name);
  } else if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) == SPVGEN_OK) {
    caps = *spvgen_vk_caps(ctx);
    printf("device   %s (%s %s)\n", caps.name, caps.driver_name, caps.driver_info);
  } else {
    printf("device   none (%s); timing the emission for vulkan13\n", msg);
    spvgen_caps_preset("vulkan13", &caps);
  }
  /* The emission of the plan's choice: plan + emit + finish into one reused module. */
  spvgen_mlp_config auto_plan;
  if (spvgen_mlp_plan(&g.desc, &caps, &auto_plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench mlp: %s\n", msg);
    spvgen_vk_destroy(ctx);
    return 1;
  }
  {
    spvgen_module *m = spvgen_module_create(NULL);
    const uint32_t *words;
    size_t count = 0;
    uint32_t n = 0;
    double t0 = bench_now_us(), best = 1e30;
    while (m && (n < 20 || bench_now_us() - t0 < 20000.0) && n < 5000) {
      double a = bench_now_us();
      spvgen_module_reset(m, NULL);
      spvgen_mlp_config p;
      if (spvgen_mlp_plan(&g.desc, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_mlp_emit(m, &p, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &words, &count) != SPVGEN_OK)
        break;
      double t = bench_now_us() - a;
      best = t < best ? t : best;
      n++;
    }
    printf("plan     %s (%s)\n", auto_plan.name, auto_plan.selection);
    printf("emit     %.1f us per module (best of %u: plan + emit + finish, one core), %zu words\n", best, n, count);
    spvgen_module_destroy(m);
  }
  printf("net      %llu FLOP per point, %llu weight bytes, %llu points\n", (unsigned long long)auto_plan.flops_per_point,
         (unsigned long long)auto_plan.weight_bytes, (unsigned long long)g.run.points);
  if (!ctx) return 0;
  /* The variants. */
  const char *list = g.variants && strcmp(g.variants, "auto") ? (!strcmp(g.variants, "all") ? "vec,vec-opt,mat,loop" : g.variants) : "auto";
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  mlp_session *sess = NULL;
  mlp_run_result best;
  memset(&best, 0, sizeof best);
  int rc = 0;
  printf("%-8s %-56s %10s %9s %9s %10s %8s %s\n", "variant", "plan", "G pts/s", "TFLOP/s", "ms", "compile ms", "emit us",
         "check");
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    spvgen_mlp_desc d = g.desc;
    if (!strcmp(t, "vec-opt")) {
      d.variant = SPVGEN_MLP_VEC;
      d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
    } else if (strcmp(t, "auto")) {
      if (!spvgen_mlp_variant_parse(t, &d.variant) || d.variant == SPVGEN_MLP_AUTO) {
        rc = spvgen_cli_usage_error("bench mlp", "--variants: '%s' is not auto, all, vec, vec-opt, mat or loop", t);
        break;
      }
      if (d.weight_layout == SPVGEN_MLP_WEIGHTS_AUTO || d.variant != SPVGEN_MLP_VEC) d.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    }
    spvgen_mlp_config plans[64];
    uint32_t np = 0;
    spvgen_status st = g.all_plans ? spvgen_mlp_plans(&d, &caps, plans, 64, &np, msg, sizeof msg)
                                   : spvgen_mlp_plan(&d, &caps, &plans[0], msg, sizeof msg);
    if (!g.all_plans && st == SPVGEN_OK) np = 1;
    if (np > 64) np = 64;
    if (st != SPVGEN_OK) {
      printf("%-8s -  (%s)\n", t, msg);
      continue;
    }
    for (uint32_t i = 0; i < np; i++) {
      if (!sess && mlp_session_open(ctx, &plans[i], &g.run, &sess, msg, sizeof msg) != SPVGEN_OK) {
        fprintf(stderr, "spvgen bench mlp: %s\n", msg);
        rc = 1;
        break;
      }
      mlp_run_result res;
      if (mlp_session_run(sess, &plans[i], &res, msg, sizeof msg) != SPVGEN_OK) {
        printf("%-8s %-56s -  (%s)\n", t, plans[i].name, msg);
        continue;
      }
      char check[64];
      if (res.bad) snprintf(check, sizeof check, "FAIL %llu of %llu", (unsigned long long)res.bad, (unsigned long long)res.checked);
      else snprintf(check, sizeof check, "ok (%llu outputs)", (unsigned long long)res.checked);
      printf("%-8s %-56s %10.3f %9.2f %9.3f %10.1f %8.1f %s\n", t, res.plan.name, res.points_per_s / 1e9, res.tflops,
             res.median_ns / 1e6, res.compile_ms, res.emit_us, check);
      fflush(stdout);
      if (res.bad) rc = 1;
      else if (res.points_per_s > best.points_per_s) best = res;
    }
  }
  double eager = 0, compiled = 0;
  if (!rc && g.anchor) run_anchor(g.anchor, &auto_plan, g.run.points, &eager, &compiled);
  if (best.points_per_s > 0) {
    printf("best     %s: %.3f G points/s, %.2f TFLOP/s", best.plan.name, best.points_per_s / 1e9, best.tflops);
    if (compiled > 0) printf(", %.2fx torch.compile", best.points_per_s / 1e9 / compiled);
    printf("\n");
  }
  mlp_session_close(sess);
  spvgen_vk_destroy(ctx);
  return rc;
}

/* ------------------------------------------------------------- tune mlp ---- */

static void tune_mlp_usage(FILE *o) {
  fputs("usage: spvgen tune mlp --in N --out N [network and knob flags] [--points N]\n"
        "                       [--budget SECONDS] [--cache FILE] [--max-candidates N]\n\n"
        "Times every candidate plan of the MLP (the heuristic one first) on the first Vulkan\n"
        "device, checks each one's output on random weights and points against the float64\n"
        "CPU reference, prints the table and stores the fastest in the tune cache, where\n"
        "spvgen_mlp_plan_cached finds it (docs/tune.md).\n\n"
        "network (as `spvgen mlp`):\n"
        "  --in N --out N         input and output widths (required)\n"
        "  --hidden WxC | W,W,..  hidden layers\n"
        "  --act NAME --out-act NAME --leaky-slope F --no-bias\n"
        "  --encoding freq:N|oneblob:N\n"
        "  --types W[,IO]         weight type (f16) and points in memory (f16 or f32)\n"
        "knobs (fixed when given, tuned otherwise):\n"
        "  --variant auto|vec|mat|loop\n"
        "  --wg N                 invocations per workgroup\n"
        "tune:\n"
        "  --points N             points per dispatch, the problem tuned for (default 65536)\n"
        "  --budget SECONDS       wall time for the whole tuning (default 120)\n"
        "  --cache FILE           the tune cache (default ${XDG_CACHE_HOME:-~/.cache}/spvgen/tune-v1.txt)\n"
        "  --max-candidates N     at most N candidates (the heuristic plan first)\n"
        "  --repeats N            timed dispatches per candidate (default 15)\n"
        "  --seed N               random weights and points\n"
        "  -h, --help\n\n"
        "examples:\n"
        "  spvgen tune mlp --in 32 --hidden 64x4 --out 16 --points 1048576\n"
        "  spvgen tune mlp --in 3 --encoding freq:6 --hidden 64x2 --out 4 --variant loop --budget 20 --cache tune.txt\n",
        o);
}

int spvgen_cli_parse_tune_mlp(int argc, char **argv, spvgen_cli_tune_mlp_args *out) {
  const char *cmd = "tune mlp";
  memset(out, 0, sizeof *out);
  /* The tuner's flags here; the network and knob flags go to parse(). */
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  if (!rest) return fprintf(stderr, "spvgen %s: out of memory\n", cmd), 1;
  int n = 0, rc = 0;
  rest[n++] = argv[0];
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      tune_mlp_usage(stdout);
      rc = -1;
      break;
    }
    static const char *const refused[] = {"--caps", "-o", "-S", "--json", "--train", "--loss", "--optimizer"};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0] && !rc; k++)
      if (!strcmp(a, refused[k]))
        rc = spvgen_cli_usage_error(cmd, "%s: tune mlp %s", a,
                                    !strcmp(a, "--caps") ? "uses the device's own caps" : "does not take it");
    if (rc) break;
    bool tune_flag = !strcmp(a, "--points") || !strcmp(a, "--budget") || !strcmp(a, "--cache") ||
                     !strcmp(a, "--max-candidates") || !strcmp(a, "--repeats") || !strcmp(a, "--seed");
    if (!tune_flag) {
      rest[n++] = argv[i];
      continue;
    }
    if (i + 1 >= argc) {
      rc = spvgen_cli_usage_error(cmd, "%s needs a value", a);
      break;
    }
    const char *v = argv[++i];
    if (!strcmp(a, "--cache")) {
      out->cache = v;
    } else if (!strcmp(a, "--budget")) {
      if (!sg_parse_number(v, 0, 1e9, &out->budget_seconds) || !(out->budget_seconds > 0))
        rc = spvgen_cli_usage_error(cmd, "--budget: '%s' is not a number of seconds > 0", v);
    } else if (!strcmp(a, "--points")) {
      if (!sg_parse_u64(v, false, 1, 0xFFFFFFFFull, &out->points))
        rc = spvgen_cli_usage_error(cmd, "--points: '%s' is not a number from 1 to 4294967295", v);
    } else if (!strcmp(a, "--seed")) {
      if (!sg_parse_u64(v, true, 0, UINT64_MAX, &out->seed))
        rc = spvgen_cli_usage_error(cmd, "--seed: '%s' is not a number from 0 to 2^64 - 1 (decimal or 0x...)", v);
    } else {
      uint32_t u = 0;
      if (!spvgen_cli_u32(v, &u) || !u) rc = spvgen_cli_usage_error(cmd, "%s: '%s' is not a number >= 1", a, v);
      else if (!strcmp(a, "--repeats")) out->repeats = u;
      else out->max_candidates = u;
    }
  }
  if (!rc) {
    static mlp_cli g;
    rc = parse(cmd, P_EMIT, n, rest, &g);
    if (!rc) out->desc = g.desc;
  }
  free(rest);
  return rc;
}
