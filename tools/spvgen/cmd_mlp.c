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

#include "caps_json.h"
#include "cmds.h"
#include "mlp_run.h"
#include "mlp_train_ref.h"
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
} mlp_cli;

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
          "  --types W[,IO]         weight type (f16; s8 with --variant vec; e4m3 or e5m2\n"
          "                         with --variant vec --weights optimal) and points in\n"
          "                         memory (f16 or f32)\n"
          "  --weights row|optimal  weight layout: row-major (default), or the driver's\n"
          "                         inferencing-optimal one (vec variant; offsets as spec\n"
          "                         constants, see mlp.h)\n"
          "  --spec-id-base N       with optimal weights: layer l's offset is SpecId N + l\n"
          "knobs:\n"
          "  --variant auto|vec|mat|loop\n"
          "  --wg N                 invocations per workgroup\n"
          "  --points-per-group N   vec: points per invocation (1, 2, 4, 8); mat: points\n"
          "                         per workgroup block (a multiple of 16)\n"
          "  --bias-path fused|add  vec: the bias as MatrixMulAdd's operand (fused), or\n"
          "                         MatrixMul then a loaded cooperative vector added\n"
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

static bool parse_u32(const char *s, uint32_t *out) { return spvgen_cli_u32(s, 0, UINT32_MAX, out); }

static int parse(const char *cmd, bool run, int argc, char **argv, mlp_cli *g) {
  memset(g, 0, sizeof *g);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      mlp_usage(stdout, run);
      return -1;
    }
    if (!strcmp(a, "--no-bias")) { g->desc.no_bias = true; continue; }
    if (!strcmp(a, "--train")) { g->train = true; continue; }
    if (!run && !strcmp(a, "-S")) { g->disassemble = true; continue; }
    if (!run && !strcmp(a, "--json")) { g->json = true; continue; }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    bool known = true;
    uint32_t u = 0;
    if (!v) return spvgen_cli_usage_error(cmd, "%s needs a value", a);
    if (!strcmp(a, "--in")) {
      if (!parse_u32(v, &g->desc.input_width)) return spvgen_cli_usage_error(cmd, "--in: '%s' is not a number", v);
    } else if (!strcmp(a, "--out")) {
      if (!parse_u32(v, &g->desc.output_width)) return spvgen_cli_usage_error(cmd, "--out: '%s' is not a number", v);
    } else if (!strcmp(a, "--hidden")) {
      uint32_t wc[2], n = 0;
      if (strchr(v, 'x')) {
        if (!spvgen_cli_u32_list(v, 'x', 1, UINT32_MAX, wc, 2, &n) || n != 2)
          return spvgen_cli_usage_error(cmd, "--hidden '%s': WxC with a width and a layer count from 1 to 4294967295", v);
        g->desc.hidden_width = wc[0];
        g->desc.hidden_count = wc[1];
      } else {
        if (!spvgen_cli_u32_list(v, ',', 1, UINT32_MAX, g->desc.hidden_widths, SPVGEN_MLP_MAX_LAYERS - 1, &n))
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
      if (!spvgen_cli_number(v, -1e6, 1e6, &slope))
        return spvgen_cli_usage_error(cmd, "--leaky-slope: '%s' is not a number from -1e6 to 1e6", v);
      g->desc.leaky_slope = (float)slope;
    } else if (!strcmp(a, "--encoding")) {
      uint32_t n = 0;
      if (!strncmp(v, "freq:", 5) && spvgen_cli_u32(v + 5, 0, UINT32_MAX, &n))
        g->desc.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      else if (!strncmp(v, "oneblob:", 8) && spvgen_cli_u32(v + 8, 0, UINT32_MAX, &n))
        g->desc.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
      else
        return spvgen_cli_usage_error(cmd, "--encoding '%s': freq:N or oneblob:N (N from 0 to 4294967295)", v);
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
      else return spvgen_cli_usage_error(cmd, "--weights: '%s' is not row or optimal", v);
    } else if (!strcmp(a, "--variant")) {
      if (!spvgen_mlp_variant_parse(v, &g->desc.variant))
        return spvgen_cli_usage_error(cmd, "--variant: '%s' is not auto, vec, mat or loop", v);
    } else if (!strcmp(a, "--wg")) {
      if (!parse_u32(v, &g->desc.workgroup_size)) return spvgen_cli_usage_error(cmd, "--wg: '%s'", v);
    } else if (!strcmp(a, "--spec-id-base")) {
      if (!parse_u32(v, &g->desc.spec_id_base)) return spvgen_cli_usage_error(cmd, "--spec-id-base: '%s'", v);
    } else if (!strcmp(a, "--bias-path")) {
      if (!strcmp(v, "fused")) g->desc.bias_path = SPVGEN_MLP_BIAS_FUSED;
      else if (!strcmp(v, "add")) g->desc.bias_path = SPVGEN_MLP_BIAS_ADD;
      else return spvgen_cli_usage_error(cmd, "--bias-path: '%s' is not fused or add", v);
    } else if (!strcmp(a, "--points-per-group")) {
      if (!parse_u32(v, &g->desc.points_per_group))
        return spvgen_cli_usage_error(cmd, "--points-per-group: '%s'", v);
    } else if (!strcmp(a, "--loss")) {
      if (!spvgen_mlp_loss_parse(v, &g->tdesc.loss))
        return spvgen_cli_usage_error(cmd, "--loss: '%s' is not l2 or rel-l2", v);
    } else if (!strcmp(a, "--optimizer")) {
      if (!spvgen_mlp_optimizer_parse(v, &g->tdesc.optimizer))
        return spvgen_cli_usage_error(cmd, "--optimizer: '%s' is not adam or sgd", v);
    } else if (run && !strcmp(a, "--steps")) {
      if (!parse_u32(v, &g->trun.steps) || !g->trun.steps || g->trun.steps > MLP_TRAIN_RUN_MAX_STEPS)
        return spvgen_cli_usage_error(cmd, "--steps: '%s' (1 to %u)", v, MLP_TRAIN_RUN_MAX_STEPS);
    } else if (run && !strcmp(a, "--lr")) {
      double lr;
      if (!spvgen_cli_number(v, 0, 1e6, &lr) || !(lr > 0))
        return spvgen_cli_usage_error(cmd, "--lr: '%s' is not a positive number (up to 1e6)", v);
      g->trun.lr = (float)lr;
    } else if (!run && !strcmp(a, "--caps")) {
      g->caps_name = v;
    } else if (!run && !strcmp(a, "-o")) {
      g->output = v;
    } else if (run && !strcmp(a, "--points")) {
      uint64_t points;
      if (!spvgen_cli_u64(v, false, 1, UINT64_MAX, &points))
        return spvgen_cli_usage_error(cmd, "--points: '%s' is not a number from 1 to 2^64 - 1", v);
      g->run.points = points;
    } else if (run && (!strcmp(a, "--repeats") || !strcmp(a, "--warmup") || !strcmp(a, "--warmup-ms"))) {
      if (!parse_u32(v, &u)) return spvgen_cli_usage_error(cmd, "%s: '%s'", a, v);
      if (!strcmp(a, "--repeats")) g->run.repeats = u;
      else if (!strcmp(a, "--warmup")) g->run.warmup = u;
      else g->run.warmup_ms = u;
    } else if (run && !strcmp(a, "--seed")) {
      if (!spvgen_cli_u64(v, true, 0, UINT64_MAX, &g->run.seed))
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

static int resolve_caps(const mlp_cli *g, spvgen_device_caps *caps) {
  if (g->caps_name) {
    if (spvgen_caps_preset(g->caps_name, caps) == SPVGEN_OK) return 0;
    FILE *f = fopen(g->caps_name, "rb");
    if (!f) return spvgen_cli_usage_error("mlp", "--caps: '%s' is neither a preset nor a readable file", g->caps_name);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    char msg[256];
    if (n == sizeof text || !spvgen_caps_from_json(text, n, caps, msg, sizeof msg)) {
      fprintf(stderr, "spvgen mlp: --caps %s: not a caps file\n", g->caps_name);
      return 1;
    }
    return 0;
  }
  uint32_t count = 0;
  char msg[256];
  if (spvgen_vk_enumerate(caps, 1, &count, msg, sizeof msg) == SPVGEN_OK && count > 0) return 0;
  spvgen_caps_preset("vulkan13", caps);
  return 0;
}

static void print_json(FILE *o, const spvgen_mlp_config *p, const spvgen_kernel *k) {
  fprintf(o, "{\n  \"name\": \"%s\",\n  \"variant\": \"%s\",\n", p->name, spvgen_mlp_variant_name(p->variant));
  fprintf(o, "  \"local_size\": [%u, %u, %u],\n  \"points_per_workgroup\": %u,\n", p->local_size[0],
          p->local_size[1], p->local_size[2], p->points_per_workgroup);
  fprintf(o, "  \"push_constants\": {\"points\": 0},\n  \"bindings\": [\"input\", \"weights\", \"output\"],\n");
  fprintf(o, "  \"input_type\": \"%s\",\n  \"output_type\": \"%s\",\n",
          spvgen_component_type_name(p->desc.input_type), spvgen_component_type_name(p->desc.output_type));
  fprintf(o, "  \"encoded_width\": %u,\n  \"flops_per_point\": %" PRIu64 ",\n  \"weight_bytes\": %" PRIu64 ",\n",
          p->encoded_width, p->flops_per_point, p->weight_bytes);
  if (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    fprintf(o, "  \"weight_layout\": \"optimal\",\n  \"matrix_offset_spec_ids\": [");
    for (uint32_t l = 0; l < p->layer_count; l++)
      fprintf(o, "%s%u", l ? ", " : "", (p->desc.spec_id_base ? p->desc.spec_id_base : SPVGEN_MLP_SPEC_MATRIX_OFFSET) + l);
    fprintf(o, "],\n");
  } else
    fprintf(o, "  \"weight_layout\": \"row-major\",\n");
  fprintf(o, "  \"layers\": [\n");
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    fprintf(o,
            "    {\"inputs\": %u, \"outputs\": %u, \"row_stride\": %u, \"matrix_offset\": %" PRIu64
            ", \"bias_offset\": %" PRIu64 ", \"activation\": \"%s\"}%s\n",
            L->inputs, L->outputs, L->row_stride, L->matrix_offset, L->bias_offset,
            spvgen_mlp_activation_name(L->activation), l + 1 < p->layer_count ? "," : "");
  }
  fprintf(o, "  ],\n  \"words\": %zu,\n  \"shared_bytes\": %u,\n  \"subgroup_size\": %u\n}\n", k->word_count,
          p->shared_bytes, p->subgroup_size);
}

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
    printf("{\n  \"name\": \"%s\",\n  \"net\": \"%s\",\n  \"loss\": \"%s\",\n  \"optimizer\": \"%s\",\n"
           "  \"grad_workgroups\": %u,\n  \"grad_local_size\": %u,\n  \"grad_shared_bytes\": %u,\n"
           "  \"weight_bytes\": %llu,\n  \"elements\": %llu,\n  \"params\": %llu,\n"
           "  \"grad_bytes\": %llu,\n  \"state_bytes\": %llu,\n  \"loss_bytes\": %llu\n}\n",
           plan.name, plan.net.name, spvgen_mlp_loss_name(plan.desc.loss),
           spvgen_mlp_optimizer_name(plan.desc.optimizer), plan.grad_workgroups, plan.grad_local_size[0],
           plan.grad_shared_bytes, (unsigned long long)plan.net.weight_bytes,
           (unsigned long long)plan.elements, (unsigned long long)plan.params,
           (unsigned long long)plan.grad_bytes, (unsigned long long)plan.state_bytes,
           (unsigned long long)plan.loss_bytes);
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
  int r = parse("mlp", false, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  spvgen_device_caps caps;
  if ((r = resolve_caps(&g, &caps))) return r;
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
    print_json(f, &plan, &k);
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
  int r = parse("run mlp", true, argc, argv, &g);
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
    printf("plan     %s\n", res.plan.name);
    printf("emit     %.1f us\n", res.emit_us);
    if (res.median_ns > 0)
      printf("gpu      %.3f ms median of %u, %.3f G points/s, %.2f TFLOP/s\n", res.median_ns / 1e6,
             g.run.repeats ? g.run.repeats : 1, res.points_per_s / 1e9, res.tflops);
    else
      printf("gpu      no timestamps on this queue\n");
    printf("check    %" PRIu64 " of %" PRIu64 " outputs match (max |err| %.3g, tolerance there %.3g)\n",
           res.checked - res.bad, res.checked, res.max_err, res.max_err_tol);
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
      if (!spvgen_cli_number(v, 0, 1e9, &out->budget_seconds) || !(out->budget_seconds > 0))
        rc = spvgen_cli_usage_error(cmd, "--budget: '%s' is not a number of seconds > 0", v);
    } else if (!strcmp(a, "--points")) {
      if (!spvgen_cli_u64(v, false, 1, 0xFFFFFFFFull, &out->points))
        rc = spvgen_cli_usage_error(cmd, "--points: '%s' is not a number from 1 to 4294967295", v);
    } else if (!strcmp(a, "--seed")) {
      if (!spvgen_cli_u64(v, true, 0, UINT64_MAX, &out->seed))
        rc = spvgen_cli_usage_error(cmd, "--seed: '%s' is not a number from 0 to 2^64 - 1 (decimal or 0x...)", v);
    } else {
      uint32_t u = 0;
      if (!parse_u32(v, &u) || !u) rc = spvgen_cli_usage_error(cmd, "%s: '%s' is not a number >= 1", a, v);
      else if (!strcmp(a, "--repeats")) out->repeats = u;
      else out->max_candidates = u;
    }
  }
  if (!rc) {
    static mlp_cli g;
    rc = parse(cmd, false, n, rest, &g);
    if (!rc) out->desc = g.desc;
  }
  free(rest);
  return rc;
}
