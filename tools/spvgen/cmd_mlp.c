/* tools/spvgen/cmd_mlp.c — what the MLP's commands have beyond the generic ones:
 * training (`spvgen mlp --train` emits the gradient and optimizer kernels, `spvgen run
 * mlp --train` runs steps of them against the CPU), `spvgen run mlp` (emit for this
 * machine's device, run on random weights and points, check every output against the
 * float64 reference of tools/common/mlp_run.c, print the variant, GPU time and points/s)
 * and `spvgen bench mlp` (the variants side by side, a torch anchor). The network and knob
 * flags are the MLP's table entry's (emitters/mlp/mlp_template.c), parsed by the one
 * parser (cmd_template.c); `spvgen mlp` without --train is the generic emit. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "json_out.h"
#include "mlp_run.h"
#include "mlp_train_run.h"
#include "spvgen/check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct mlp_cli {
  spvgen_mlp_desc desc;
  spvgen_cli_emit emit;
  mlp_run_options run;
  /* --train */
  bool train;
  spvgen_mlp_train_desc tdesc; /* loss, optimizer (net: desc) */
  mlp_train_run_options trun;
  /* bench */
  bool all_plans, no_gpu;
  const char *variants, *anchor, *caps_name;
  /* run, bench: the weight layout the auto variant was given (--weights), else auto */
  bool weights_named;
} mlp_cli;

/* ------------------------------------------------------------------ flags ---- */

static bool flag_loss(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_loss_parse(v, &((mlp_cli *)g)->tdesc.loss) || sg_flag_bad(why, size, v, "is not l2 or rel-l2");
}
static bool flag_optimizer(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_optimizer_parse(v, &((mlp_cli *)g)->tdesc.optimizer) ||
         sg_flag_bad(why, size, v, "is not adam or sgd");
}

static bool flag_grid_gradient(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_grid_gradient_parse(v, &((mlp_cli *)g)->tdesc.grid_gradient) ||
         sg_flag_bad(why, size, v, "is not auto, f32 or f16");
}
static bool flag_grid_gradient_scale(void *g, const char *v, char *why, size_t size) {
  double s;
  if (!sg_parse_number(v, 0, 16777216, &s) || !(s > 0))
    return sg_flag_bad(why, size, v, "is not a positive number (a power of two up to 2^24)");
  return ((mlp_cli *)g)->tdesc.grid_gradient_scale = (float)s, true;
}

static bool flag_grid_spread(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_grid_spread_parse(v, &((mlp_cli *)g)->tdesc.grid_spread) ||
         sg_flag_bad(why, size, v, "is not auto, level-loop, flat or flat-by-point");
}

static bool flag_grad_bias(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_grad_bias_parse(v, &((mlp_cli *)g)->tdesc.grad_bias) ||
         sg_flag_bad(why, size, v, "is not auto, rows or row");
}
static bool flag_grad_act_deriv(void *g, const char *v, char *why, size_t size) {
  return spvgen_mlp_grad_act_deriv_parse(v, &((mlp_cli *)g)->tdesc.grad_act_deriv) ||
         sg_flag_bad(why, size, v, "is not auto, shared or registers");
}

static const sg_flag train_flags[] = {
    SG_FLAG_HEADING("training:"),
    SG_FLAG_SWITCH("--train",
                   "the training kernels: the gradient kernel (forward + backward) and\nthe optimizer kernel (auto: "
                   "mat where the device has cooperative\nmatrices, layers where mat's gradient slot traffic per "
                   "point is\nlarge, else loop; --variant vec: cooperative vector training;\n--variant mat: "
                   "cooperative matrices, chunks of --points-per-group;\n--variant layers: the step as GEMMs, "
                   "-o FILE writes FILE.step<i>.spv)",
                   mlp_cli, train),
    {"--loss", "l2|rel-l2", "(default l2)", flag_loss, 0},
    {"--optimizer", "adam|sgd", "(default adam)", flag_optimizer, 0},
    {"--grid-gradient", "auto|f32|f16",
     "the hash grid table's gradient: f16 vectors added by one atomic where\nthe device has "
     "shaderFloat16VectorAtomics (auto's choice there), or f32", flag_grid_gradient, 0},
    {"--grid-gradient-scale", "S", "f16 table gradient: kept times S, a power of two (default 1024)",
     flag_grid_gradient_scale, 0},
    {"--grid-spread", "auto|level-loop|flat|flat-by-point",
     "mat: the hash grid's (point, level) pairs over the workgroup: a loop over\nthe levels around the chunk's "
     "points, or all pairs flat, a level's points\n(flat, auto's choice) or a point's levels on consecutive "
     "invocations", flag_grid_spread, 0},
    {"--grad-bias", "auto|rows|row",
     "mat: the gradient kernel's biases in shared memory: 16 rows per layer, or\none row loaded with a stride of 0 "
     "(1/16 of the bytes); auto: row only where\nthe chunk needs it", flag_grad_bias, 0},
    {"--grad-act-deriv", "auto|shared|registers",
     "mat: act'(z) of SiLU (leaky ReLU, slope <= 0) layers from the forward to\nthe backward: in shared memory, "
     "or in the registers of the subgroup that\ncomputed it (at most 8 fragments); auto: registers only where "
     "the chunk\nneeds them", flag_grad_act_deriv, 0},
    {NULL, NULL, NULL, NULL, 0},
};

#define CLI_U32(FLAG, FIELD, MIN, MAX)                                      \
  static bool FLAG(void *g, const char *v, char *why, size_t size) {        \
    return sg_flag_u32(v, MIN, MAX, &((mlp_cli *)g)->FIELD, why, size); \
  }
CLI_U32(flag_repeats, run.repeats, 0, UINT32_MAX)
CLI_U32(flag_warmup, run.warmup, 0, UINT32_MAX)
CLI_U32(flag_warmup_ms, run.warmup_ms, 0, UINT32_MAX)
CLI_U32(flag_steps, trun.steps, 1, MLP_TRAIN_RUN_MAX_STEPS)
static bool flag_points(void *g, const char *v, char *why, size_t size) {
  return sg_flag_u64(v, false, 1, UINT64_MAX, &((mlp_cli *)g)->run.points, why, size);
}
static bool flag_seed(void *g, const char *v, char *why, size_t size) {
  return sg_flag_seed(v, &((mlp_cli *)g)->run.seed, why, size);
}
static bool flag_sample(void *g, const char *v, char *why, size_t size) {
  if (sg_parse_u64(v, false, 0, UINT64_MAX, &((mlp_cli *)g)->run.sample)) return true;
  return sg_flag_bad(why, size, v, "is not a number of points (0: every point)");
}
static bool flag_lr(void *g, const char *v, char *why, size_t size) {
  double lr;
  if (!sg_parse_number(v, 0, 1e6, &lr) || !(lr > 0)) return sg_flag_bad(why, size, v, "is not a positive number (up to 1e6)");
  return ((mlp_cli *)g)->trun.lr = (float)lr, true;
}

static const sg_flag run_flags[] = {
    SG_FLAG_HEADING("run:"),
    {"--points", "N", "points (default 4096)", flag_points, 0},
    {"--repeats", "N", "timed dispatches (run: 10 on a GPU, 1 on a CPU device; bench: 20)", flag_repeats, 0},
    {"--warmup", "N", "dispatches before them", flag_warmup, 0},
    {"--warmup-ms", "MS", "keep the GPU busy MS ms before timing (run: 200 on a GPU; bench: 100)", flag_warmup_ms, 0},
    {"--seed", "N", "random weights and points", flag_seed, 0},
    {"--sample", "N",
     "check about N points (evenly spread, the last included), every output\nof each, instead of every point",
     flag_sample, 0},
    {"--steps", "N", "with --train: steps (default 3; each checked against the CPU)", flag_steps, 0},
    {"--lr", "F", "with --train: learning rate (default 1e-3)", flag_lr, 0},
    SG_FLAG_SWITCH("--no-check",
                   "timing only, no float64 check (with --train: --warmup untimed steps,\nthen --steps timed ones; "
                   "large batches, whose check takes the CPU minutes)",
                   mlp_cli, run.no_check),
    SG_FLAG_SWITCH("--stats",
                   "print the driver's pipeline statistics of the first kernel (registers,\nspills, shared memory; "
                   "VK_KHR_pipeline_executable_properties)",
                   mlp_cli, run.statistics),
    {NULL, NULL, NULL, NULL, 0},
};


static const sg_flag bench_flags[] = {
    SG_FLAG_HEADING("bench:"),
    SG_FLAG_TEXT("--variants", "auto|all|LIST",
                 "auto: the plan's choice (default); all: vec, vec-opt (the driver's\noptimal weights), mat and "
                 "loop, each where the device has it (a\nreason where not); LIST: a comma-separated subset of them, or\n"
                 "layers (a GEMM per layer: its dispatches timed together)",
                 mlp_cli, variants),
    SG_FLAG_SWITCH("--all-plans", "every plan of each variant (spvgen_mlp_plans), not its default", mlp_cli,
                   all_plans),
    SG_FLAG_TEXT("--anchor", "SCRIPT",
                 "run SCRIPT (bench/anchors/mlp_anchor_net.py) with python3 on the same\nnetwork and point count: "
                 "torch eager and torch.compile in the same\nrun, and the best plan's ratio to torch.compile",
                 mlp_cli, anchor),
    SG_FLAG_TEXT("--caps", "NAME|FILE", "time the emission only, for a preset or a caps file", mlp_cli, caps_name),
    SG_FLAG_SWITCH("--no-gpu", "time the emission only, without a device", mlp_cli, no_gpu),
    {NULL, NULL, NULL, NULL, 0},
};

enum { P_EMIT, P_RUN, P_BENCH };

static void usage(FILE *o, int mode) {
  static const char *const intro[] = {
      "usage: spvgen mlp --in N --out N [options] [-o FILE] [-S | --json | --c-header NAME]\n\n"
      "Emits a fused MLP module for a device (--train: the gradient and optimizer kernels).\n\n",
      "usage: spvgen run mlp --in N --out N [options]\n\n"
      "Emits the MLP for the first Vulkan device, runs it on random weights and points and\n"
      "checks every output against the float64 CPU reference (--train: steps of training).\n\n",
      "usage: spvgen bench mlp --in N --out N [options]\n\n"
      "Times the emission of the network's kernel on this CPU and, on the first Vulkan device,\n"
      "the kernel itself: the driver's first compile, GPU timestamps after a sustained warm-up\n"
      "(median of --repeats, default 20), G points/s and TFLOP/s (2 sum(inputs * outputs) per\n"
      "point), and a check of --sample points (default 1024; 0: every point), every output of\n"
      "each, against the float64 CPU reference. --points defaults to 2097152.\n\n"};
  static const char *const examples[] = {
      "  spvgen mlp --in 32 --hidden 64x4 --out 16 --act relu --caps h100 -o net.spv\n"
      "  spvgen mlp --in 2 --hidden 64x3 --out 3 --encoding freq:6 --train --caps h100 -o fit.spv\n",
      "  spvgen run mlp --in 3 --hidden 16x2 --out 4 --act tanh --points 4096\n"
      "  spvgen run mlp --in 2 --hidden 16x2 --out 3 --train --steps 3\n",
      "  spvgen bench mlp --in 64 --hidden 64x5 --out 64 --points 2097152 --variants all\n"
      "  spvgen bench mlp --in 16 --hidden 128x3 --out 3 --act silu --sample 256 --anchor "
      "bench/anchors/mlp_anchor_net.py\n"};
  fputs(intro[mode], o);
  spvgen_cli_flags_usage(o, sg_template_mlp.flags);
  if (mode != P_BENCH) spvgen_cli_flags_usage(o, train_flags);
  if (mode != P_EMIT) spvgen_cli_flags_usage(o, run_flags);
  if (mode == P_BENCH) spvgen_cli_flags_usage(o, bench_flags);
  if (mode == P_EMIT) spvgen_cli_flags_usage(o, spvgen_cli_caps_flags);
  if (mode == P_EMIT) spvgen_cli_flags_usage(o, spvgen_cli_emit_flags);
  fprintf(o, "  -h, --help\n\nexamples:\n%s", examples[mode]);
}

/* 0 parsed, -1 --help printed, 2 usage error (printed). */
static int parse(const char *cmd, int mode, int argc, char **argv, mlp_cli *g) {
  memset(g, 0, sizeof *g);
  spvgen_cli_flags more[4] = {{train_flags, g}, {run_flags, g}, {bench_flags, g}, {NULL, NULL}};
  if (mode == P_EMIT) {
    more[1] = (spvgen_cli_flags){spvgen_cli_emit_flags, &g->emit};
    more[2] = (spvgen_cli_flags){spvgen_cli_caps_flags, &g->emit.caps};
  } else if (mode == P_RUN) {
    more[2] = (spvgen_cli_flags){NULL, NULL};
  }
  int rc = spvgen_cli_template_parse(cmd, &sg_template_mlp, &g->desc, more, argc, argv);
  if (rc < 0) usage(stdout, mode);
  g->tdesc.net = g->desc; /* training keeps row-major weights */
  for (int i = 1; i < argc; i++)
    g->weights_named |= !strcmp(argv[i], "--weights") || !strncmp(argv[i], "--weights=", 10);
  /* run and bench measure the auto variant as the plan chooses it, the weight layout
   * included (as the selection grid's AUTO figures are), unless --weights names one */
  if (mode != P_EMIT && !g->train && !g->weights_named && g->desc.variant == SPVGEN_MLP_AUTO)
    g->desc.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
  g->trun.seed = g->run.seed;
  g->trun.points = g->run.points;
  g->trun.no_check = g->run.no_check;
  g->trun.warmup = g->run.warmup;
  if (rc == 0 && g->run.statistics && (mode != P_RUN || g->train)) {
    fprintf(stderr, "spvgen %s: --stats reports one inference pipeline: it is a flag of `spvgen run mlp` without --train\n",
            cmd);
    return 2;
  }
  return rc;
}

/* ------------------------------------------------------------- spvgen mlp ---- */

/* The metadata every template prints (json_out.h), then the MLP's own members. */
static int write_kernel(const mlp_cli *g, const char *path, const spvgen_kernel *k, const char *title) {
  bool text = g->emit.disassemble;
  FILE *f = spvgen_cli_open_output("mlp", path, !text);
  if (!f) return 1;
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
  rc |= spvgen_cli_close_output("mlp", f, path);
  if (!rc && !text && f != stdout) fprintf(stderr, "spvgen mlp: %s: %s (%zu words)\n", path, title, k->word_count);
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
  if (g->emit.c_header) return spvgen_cli_usage_error("mlp", "--c-header: --train writes two kernels (-o FILE)");
  if (g->emit.outputs > 1) return spvgen_cli_usage_error("mlp", "-S and --json exclude each other: choose one output");
  if (g->emit.json) {
    sg_json j;
    sg_json_start(&j, stdout);
    sg_json_object(&j, NULL, false);
    sg_json_str(&j, "template", "mlp_train");
    sg_json_str(&j, "plan", plan.name);
    sg_json_str(&j, "net", plan.net.name);
    sg_json_str(&j, "loss", spvgen_mlp_loss_name(plan.desc.loss));
    sg_json_str(&j, "optimizer", spvgen_mlp_optimizer_name(plan.desc.optimizer));
    sg_json_str(&j, "addressing", spvgen_addressing_name(plan.net.desc.addressing));
    sg_json_u64(&j, "grad_push_constant_size", plan.grad_push_constant_size);
    sg_json_u64(&j, "opt_push_constant_size", plan.opt_push_constant_size);
    sg_json_u64(&j, "grad_workgroups", plan.grad_workgroups);
    sg_json_u64(&j, "grad_local_size", plan.grad_local_size[0]);
    sg_json_u64(&j, "grad_shared_bytes", plan.grad_shared_bytes);
    sg_json_str(&j, "selection", plan.net.selection);
    if (plan.net.variant == SPVGEN_MLP_MAT) {
      sg_json_bool(&j, "grad_held", plan.grad_held);
      sg_json_u64(&j, "grad_slot_bytes_per_point", plan.grad_slot_bytes_per_point);
      sg_json_str(&j, "grad_bias", spvgen_mlp_grad_bias_name(plan.desc.grad_bias));
      sg_json_str(&j, "grad_act_deriv", spvgen_mlp_grad_act_deriv_name(plan.desc.grad_act_deriv));
      sg_json_u64(&j, "grad_act_deriv_frags", plan.grad_act_deriv_frags);
    }
    sg_json_u64(&j, "weight_bytes", plan.net.weight_bytes);
    sg_json_u64(&j, "elements", plan.elements);
    sg_json_u64(&j, "params", plan.params);
    sg_json_u64(&j, "grad_bytes", plan.grad_bytes);
    sg_json_u64(&j, "state_bytes", plan.state_bytes);
    sg_json_u64(&j, "loss_bytes", plan.loss_bytes);
    if (plan.net.variant == SPVGEN_MLP_LAYERS) { /* the step: its kernels, dispatches and GEMM plans */
      sg_json_u64(&j, "step_kernels", spvgen_mlp_train_kernel_count(&plan));
      sg_json_u64(&j, "step_dispatches", spvgen_mlp_train_dispatch_count(&plan));
      sg_json_array(&j, "gemms", false);
      for (uint32_t i = 0; i < plan.layers_gemm_count; i++) sg_json_str(&j, NULL, plan.layers_gemms[i].name);
      sg_json_end(&j);
    }
    if (plan.net.desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID && plan.net.variant != SPVGEN_MLP_VEC) {
      sg_json_str(&j, "grid_gradient", spvgen_mlp_grid_gradient_name(plan.desc.grid_gradient));
      if (plan.desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16)
        sg_json_f64(&j, "grid_gradient_scale", plan.desc.grid_gradient_scale);
      sg_json_u64(&j, "opt_table_groups", plan.opt_table_groups);
      if (plan.net.variant == SPVGEN_MLP_MAT)
        sg_json_str(&j, "grid_spread", spvgen_mlp_grid_spread_name(plan.desc.grid_spread));
    }
    sg_json_end(&j);
    sg_json_finish(&j);
    return 0;
  }
  bool text = g->emit.disassemble;
  const char *path = g->emit.output ? g->emit.output : text ? "-" : "mlp.spv";
  char opath[4096];
  if (!strcmp(path, "-")) {
    snprintf(opath, sizeof opath, "-");
  } else {
    size_t n = strlen(path);
    if (n >= 4 && !strcmp(path + n - 4, ".spv")) n -= 4;
    if (n + 9 > sizeof opath) return spvgen_cli_usage_error("mlp", "-o: path too long");
    snprintf(opath, sizeof opath, "%.*s.opt.spv", (int)n, path);
  }
  /* Every kernel from the plan itself (not spvgen_mlp_train, whose AUTO leaves the layers
   * variant out): the layers variant's step kernels, -o FILE taking FILE.step<i>.spv (-S:
   * each in turn), or the fused variants' gradient kernel at FILE; then the optimizer at
   * FILE.opt.spv, the same plan's (its gradient slots). */
  static char vmsg[16 * 1024];
  const bool lay = plan.net.variant == SPVGEN_MLP_LAYERS;
  const uint32_t n = lay ? spvgen_mlp_train_kernel_count(&plan) : 1;
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plan.net)});
  if (!m) return fprintf(stderr, "spvgen mlp: out of memory\n"), 1;
  int rc = 0;
  for (uint32_t i = 0; i <= n && !rc; i++) { /* i == n: the optimizer */
    spvgen_module_reset(m, &(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plan.net)});
    const uint32_t *w = NULL;
    size_t count = 0;
    const spvgen_status es = i == n ? spvgen_mlp_train_emit(m, &plan, SPVGEN_MLP_TRAIN_OPTIMIZER, NULL)
                             : lay  ? spvgen_mlp_train_emit_kernel(m, &plan, i, NULL)
                                    : spvgen_mlp_train_emit(m, &plan, SPVGEN_MLP_TRAIN_GRADIENT, NULL);
    if (es != SPVGEN_OK || spvgen_module_finish(m, &w, &count) != SPVGEN_OK) {
      fprintf(stderr, "spvgen mlp: %s\n", spvgen_module_error(m));
      rc = 1;
      break;
    }
    if (spvgen_validate(w, count, NULL, vmsg, sizeof vmsg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen mlp: the emitted module does not validate (a bug in spvgen): %s\n", vmsg);
      rc = 1;
      break;
    }
    char kpath[4096], title[200];
    if (i == n) {
      snprintf(kpath, sizeof kpath, "%s", opath);
      snprintf(title, sizeof title, "%s: optimizer kernel", plan.name);
    } else if (!lay) {
      snprintf(kpath, sizeof kpath, "%s", path);
      snprintf(title, sizeof title, "%s: gradient kernel", plan.name);
    } else {
      if (!strcmp(path, "-")) snprintf(kpath, sizeof kpath, "-");
      else snprintf(kpath, sizeof kpath, "%.*s.step%u.spv", (int)(strlen(opath) - 8), opath, i); /* FILE of FILE.opt.spv */
      snprintf(title, sizeof title, "%s: step kernel %u of %u", plan.name, i, n);
    }
    spvgen_kernel k = {.words = (uint32_t *)w, .word_count = count};
    rc = write_kernel(g, kpath, &k, title);
  }
  spvgen_module_destroy(m);
  return rc;
}

int spvgen_cmd_mlp(int argc, char **argv) {
  mlp_cli g;
  int r = parse("mlp", P_EMIT, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  if (!g.train) return spvgen_cli_emit_kernel(&sg_template_mlp, &g.desc, &g.emit, argc, argv);
  spvgen_device_caps caps;
  if ((r = spvgen_cli_resolve_caps("mlp", g.emit.caps, &caps))) return r;
  return cmd_mlp_train(&g, &caps);
}

/* Which layout weights auto took for a plan (" (weights auto: ...)"), or "". */
static const char *weights_note(const mlp_cli *g, const spvgen_mlp_config *p) {
  if (g->desc.weight_layout != SPVGEN_MLP_WEIGHTS_AUTO) return "";
  return p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? " (weights auto: optimal)" : " (weights auto: row-major)";
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
      /* and why, where auto took the layers variant over mat */
      const bool why = !strncmp(tr.plan.net.selection, "auto:", 5);
      printf("plan     %s%s%s%s\n", tr.plan.name, why ? " (" : "", why ? tr.plan.net.selection : "", why ? ")" : "");
      /* what a JIT pays first: the driver's compile of both kernels (near 0 from a cache) */
      if (tr.plan.net.variant == SPVGEN_MLP_LAYERS)
        printf("compile  driver compile: %u step kernels %.1f ms + optimizer %.1f ms\n",
               spvgen_mlp_train_kernel_count(&tr.plan), tr.grad_compile_ms, tr.opt_compile_ms);
      else
        printf("compile  driver compile: gradient %.1f ms + optimizer %.1f ms\n", tr.grad_compile_ms,
               tr.opt_compile_ms);
      bool cut = false;
      for (uint32_t s2 = 0; s2 < steps && !g.trun.no_check; s2++) {
        printf("step %-3u loss %.6g (cpu %.6g)\n", s2 + 1, tr.loss_gpu[s2], tr.loss_ref[s2]);
        cut |= isnan(tr.loss_gpu[s2]) && !isnan(tr.loss_ref[s2]);
      }
      /* the loop variant's gradient kernel makes its loss NaN where the device's loop
       * budget cut the step (llvmpipe; emitters/mlp/train.c gradient_budget_canary) */
      if (cut && tr.plan.net.variant == SPVGEN_MLP_LOOP)
        printf("note     the GPU's loss is NaN: the device stopped the gradient kernel's loops early (llvmpipe ends an "
               "invocation's loops after 65,535 passes in all), so this step's gradients are cut; a narrower network "
               "or fewer points per step fit (docs/mlp.md, \"Training\")\n");
      if (tr.step_ns > 0) /* the layers variant's timed run: whole steps, and its dispatches' own times */
        printf("gpu      step %.3f ms (%u dispatches: gradient %.3f ms + optimizer %.3f ms), %.3g samples/s\n",
               tr.step_ns / 1e6, spvgen_mlp_train_dispatch_count(&tr.plan) + 1, tr.grad_ns / 1e6, tr.opt_ns / 1e6,
               tr.samples_per_s);
      else if (tr.grad_ns > 0)
        printf("gpu      gradient %.3f ms + optimizer %.3f ms per step, %.3g samples/s\n", tr.grad_ns / 1e6,
               tr.opt_ns / 1e6, tr.samples_per_s);
      if (g.trun.no_check) {
        printf("check    none (--no-check: %u timed steps after %u untimed)\n", steps, g.trun.warmup);
        spvgen_vk_destroy(ctx);
        return 0;
      }
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
  /* On a GPU, time several dispatches after a warm-up: a single one after the CPU
   * reference runs at the idle clock (docs/runner.md, "GPU clocks"; docs/design-notes.md,
   * "`spvgen run mlp` times warm dispatches"). A CPU device keeps one: no clocks to
   * raise, and every dispatch is slow. */
  if (spvgen_vk_caps(ctx)->type != SPVGEN_DEVICE_CPU) {
    if (!g.run.repeats) g.run.repeats = 10;
    if (!g.run.warmup_ms) g.run.warmup_ms = 200;
  }
  mlp_run_result res;
  spvgen_status st = mlp_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg);
  int rc = 0;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen run mlp: %s\n", msg);
    rc = 1;
  } else {
    printf("device   %s\n", spvgen_vk_caps(ctx)->name);
    printf("plan     %s%s\n", res.plan.name, weights_note(&g, &res.plan));
    printf("emit     %.1f us, %zu words; driver compile %.1f ms\n", res.emit_us, res.words, res.compile_ms);
    if (g.run.statistics) printf("stats    %s\n", res.stats);
    if (res.median_ns > 0)
      printf("gpu      %.3f ms median of %u, %.3f G points/s, %.2f TFLOP/s\n", res.median_ns / 1e6,
             g.run.repeats ? g.run.repeats : 1, res.points_per_s / 1e9, res.tflops);
    else
      printf("gpu      no timestamps on this queue\n");
    if (res.clock_mhz > 0) /* the clock the timing ran at, read right after it */
      printf("clock    %.0f MHz right after the timing (spvgen_vk_measure_clock; docs/runner.md, \"GPU clocks\")\n",
             res.clock_mhz);
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
      if (spvgen_mlp_plan(&g.desc, &caps, &p, NULL, 0) != SPVGEN_OK) break;
      /* every kernel of the plan (a layers plan is one per GEMM class), each finished */
      bool ok = true;
      size_t all = 0;
      for (uint32_t i = 0; ok && i < spvgen_mlp_kernel_count(&p); i++) {
        if (i) spvgen_module_reset(m, NULL);
        ok = spvgen_mlp_emit_kernel(m, &p, i, NULL) == SPVGEN_OK && spvgen_module_finish(m, &words, &count) == SPVGEN_OK;
        all += count;
      }
      if (!ok) break;
      count = all;
      double t = bench_now_us() - a;
      best = t < best ? t : best;
      n++;
    }
    printf("plan     %s (%s)%s\n", auto_plan.name, auto_plan.selection, weights_note(&g, &auto_plan));
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
        rc = spvgen_cli_usage_error("bench mlp", "--variants: '%s' is not auto, all, vec, vec-opt, mat, loop or layers", t);
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

static bool flag_tune_points(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u64(v, false, 1, 0xFFFFFFFFull, &((spvgen_cli_tune_options *)o)->points, why, size);
}

static const sg_flag tune_flags[] = {
    {"--points", "N", "points per dispatch, the problem tuned for (default 65536)", flag_tune_points, 0},
    {NULL, NULL, NULL, NULL, 0},
};

int spvgen_cli_parse_tune_mlp(int argc, char **argv, spvgen_cli_tune_mlp_args *out) {
  memset(out, 0, sizeof *out);
  const spvgen_cli_flags more[] = {{spvgen_cli_tune_flags, &out->tune}, {tune_flags, &out->tune}, {NULL, NULL}};
  int rc = spvgen_cli_template_parse("tune mlp", &sg_template_mlp, &out->desc, more, argc, argv);
  if (rc < 0)
    spvgen_cli_tune_usage(stdout, &sg_template_mlp,
                          "Times every candidate plan of the MLP (the heuristic one first) on the first Vulkan\n"
                          "device, checks each one's output on random weights and points against the float64\n"
                          "CPU reference, prints the table and stores the fastest in the tune cache, where\n"
                          "spvgen_mlp_plan_cached finds it (docs/tune.md). Knobs given are fixed, the others\n"
                          "tuned.",
                          tune_flags,
                          "  spvgen tune mlp --in 32 --hidden 64x4 --out 16 --points 1048576\n"
                          "  spvgen tune mlp --in 3 --encoding freq:6 --hidden 64x2 --out 4 --variant loop --budget 20 "
                          "--cache tune.txt\n");
  return rc;
}
