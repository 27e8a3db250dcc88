/* tests/mlp/test_mlp_cli.c — `spvgen mlp` and `spvgen run mlp`: a module for the h100
 * preset that validates, JSON with the weight layout, disassembly, usage errors, the
 * plan's refusal as exit 1, and a run on the CI device checking every output. */
#define _POSIX_C_SOURCE 200809L
#include "cli_run.h"

static void test_mlp_emits_a_valid_module_for_h100(void) {
  if (!cli_binary()) return;
  const char *path = cli_path("net.spv");
  cli_result r = cli_run("mlp", "--in", "32", "--hidden", "64x4", "--out", "16", "--act", "relu", "--types",
                         "f16", "--caps", "h100", "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, " 32-64x4-16 relu f16"); /* the variant: what was measured fastest there */
  cli_result_free(&r);
  r = cli_run("val", path);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--hidden", "17,33", "--out", "1", "--encoding", "oneblob:8", "--caps",
              "vulkan13", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"variant\": \"loop\"");
  CHECK_CONTAINS(r.out, "\"encoded_width\": 24");
  CHECK_CONTAINS(r.out, "{\"inputs\": 24, \"outputs\": 17, \"row_stride\": 48, \"matrix_offset\": 0");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "2", "--encoding", "freq:2", "--caps", "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpCooperativeVectorMatrixMulAddNV");
  cli_result_free(&r);
}

static void test_mlp_usage_and_refusals(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("mlp", "--in", "3");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--in and --out are required");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--act", "swish");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "unknown activation 'swish'");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--act", "gelu", "--caps", "h100");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "activation gelu: the MLP's activations are none, relu, leaky_relu");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--types", "e4m3", "--caps", "h100");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "weight_type e4m3 needs the vec variant: weight_type e4m3 needs weight_layout optimal");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--types", "e5m2", "--weights", "optimal", "--caps", "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "1000491003");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--types", "e4m3", "--variant", "loop", "--caps", "h100");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "8-bit weights need the vec variant");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--variant", "vec", "--caps", "vulkan13");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "the vec variant needs cooperativeVector");
  cli_result_free(&r);
}

static void test_run_mlp_checks_every_output(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("run", "mlp", "--in", "3", "--hidden", "16x2", "--out", "4", "--act", "tanh",
                         "--encoding", "freq:3", "--points", "500");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    2000 of 2000 outputs match");
  CHECK_MSG(!strstr(r.out, "stats    "), "a stats line without --stats:\n%s", r.out);
  cli_result_free(&r);
  /* --stats: the driver's statistics of the pipeline, or why there are none (lavapipe
   * lacks VK_KHR_pipeline_executable_properties) */
  r = cli_run("run", "mlp", "--in", "3", "--hidden", "16x2", "--out", "4", "--points", "100", "--stats");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\nstats    ");
  CHECK_CONTAINS(r.out, "check    400 of 400 outputs match");
  cli_result_free(&r);
  /* where it would report nothing: refused by name, not ignored */
  r = cli_run("bench", "mlp", "--in", "3", "--hidden", "16x2", "--out", "4", "--points", "100", "--stats");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--stats");
  CHECK_CONTAINS(r.err, "spvgen run mlp");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "3", "--hidden", "16x2", "--out", "4", "--train", "--stats");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "without --train");
  cli_result_free(&r);
}

/* --variant layers: a module per layer (`-o F` writes F, F.layer1.spv, ...), each valid;
 * JSON names each layer's GEMM; `spvgen run mlp` and `spvgen bench mlp` run its
 * dispatches and check every output; training refuses it by name. */
static void test_mlp_layers_variant(void) {
  const char *path = cli_path("layers.spv");
  cli_result r = cli_run("mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--caps", "h100",
                         "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "kernel layer2");
  cli_result_free(&r);
  const char *paths[3] = {path, cli_path("layers.layer1.spv"), cli_path("layers.layer2.spv")};
  for (int i = 0; i < 3; i++) {
    r = cli_run("val", paths[i]);
    CHECK_EXIT(r, 0);
    cli_result_free(&r);
  }
  r = cli_run("mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--caps", "h100",
              "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"variant\": \"layers\"");
  /* classes of one K (gemm.h, k_fixed): the first layer's K, 24, is not the hidden
   * layer's, 40, so each layer has a GEMM kernel of its own */
  CHECK_CONTAINS(r.out, "\"layer_gemm\": [0, 1, 2]");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--points", "300");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    1500 of 1500 outputs match");
  cli_result_free(&r);
  r = cli_run("bench", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variants", "layers", "--points", "300",
              "--repeats", "2");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "ok (1500 outputs)");
  cli_result_free(&r);
  /* every activation is the GEMM epilogue's: sigmoid hidden, tanh out, no biases */
  r = cli_run("run", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--act", "sigmoid",
              "--out-act", "tanh", "--no-bias", "--points", "300");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    1500 of 1500 outputs match");
  cli_result_free(&r);
  /* training: checked steps, then timed ones without the check; silu refused by name */
  r = cli_run("run", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--train",
              "--points", "300", "--steps", "2");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "plan     train layers 24-40x2-5");
  CHECK_CONTAINS(r.out, "step kernels");
  CHECK_CONTAINS(r.out, "check    5690 of 5690 gradients match");
  CHECK_CONTAINS(r.out, "loss matches");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--train",
              "--points", "300", "--steps", "2", "--no-check");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "gpu      step ");
  CHECK_CONTAINS(r.out, "check    none");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "12", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--train",
              "--act", "silu", "--out-act", "sigmoid", "--points", "300", "--steps", "2");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "loss matches");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "24", "--hidden", "40x2", "--out", "5", "--variant", "layers", "--train",
              "--no-bias", "--act", "tanh", "--points", "300", "--steps", "2");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "loss matches");
  cli_result_free(&r);
}

/* --train: both kernels for h100 validate (`spvgen val`), JSON of the training plan,
 * the vec refusal, and a run on the CI device checking gradients and optimizer. */
static void test_mlp_train(void) {
  if (!cli_binary()) return;
  const char *path = cli_path("train.spv");
  cli_result r = cli_run("mlp", "--in", "2", "--hidden", "64x3", "--out", "3", "--encoding", "freq:8", "--train",
                         "--loss", "rel-l2", "--optimizer", "sgd", "--caps", "h100", "-o", path);
  CHECK_EXIT(r, 0);
  /* auto trains on mat where the device has cooperative matrices */
  CHECK_CONTAINS(r.err, "train mat 2-64x3-3 relu freq:8 f16 w128 p64 rel-l2 sgd");
  CHECK_CONTAINS(r.err, "gradient kernel");
  CHECK_CONTAINS(r.err, "train.opt.spv");
  cli_result_free(&r);
  /* and on loop where it has none */
  r = cli_run("mlp", "--in", "2", "--hidden", "64x3", "--out", "3", "--encoding", "freq:8", "--train", "--loss",
              "rel-l2", "--optimizer", "sgd", "--caps", "vulkan13", "-o", cli_path("train13.spv"));
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "train loop 2-64x3-3 relu freq:8 f16 w64 rel-l2 sgd");
  cli_result_free(&r);
  r = cli_run("val", path);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("val", cli_path("train.opt.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--hidden", "64x3", "--out", "3", "--train", "--caps", "vulkan13", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"params\": 8707");
  CHECK_CONTAINS(r.out, "\"optimizer\": \"adam\"");
  cli_result_free(&r);
  /* auto takes the layers variant where mat's gradient slot traffic is large (64-256x3-64
   * on the H100): every step kernel and the optimizer of the layers plan, the same modules
   * as --variant layers writes (the optimizer reads one gradient slot, not mat's 64); the
   * JSON says why and what mat's plan would move */
  r = cli_run("mlp", "--in", "64", "--hidden", "256x3", "--out", "64", "--train", "--caps", "h100", "-S");
  cli_result r2 = cli_run("mlp", "--in", "64", "--hidden", "256x3", "--out", "64", "--train", "--caps", "h100",
                          "--variant", "layers", "-S");
  CHECK_EXIT(r, 0);
  CHECK_EXIT(r2, 0);
  CHECK_CONTAINS(r.out, "; train layers 64-256x3-64 relu");
  CHECK_CONTAINS(r.out, ": step kernel 0 of ");
  CHECK_CONTAINS(r.out, " g1: optimizer kernel");
  CHECK_MSG(r.out && r2.out && !strcmp(r.out, r2.out), "auto and --variant layers wrote different modules");
  cli_result_free(&r);
  cli_result_free(&r2);
  r = cli_run("mlp", "--in", "64", "--hidden", "256x3", "--out", "64", "--train", "--caps", "h100", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"selection\": \"auto: mat's slot adds 82336 B/point > 16384\"");
  CHECK_CONTAINS(r.out, "\"step_kernels\": ");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "64", "--hidden", "256x3", "--out", "64", "--train", "--caps", "h100", "--variant", "mat",
              "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grad_held\": false");
  CHECK_CONTAINS(r.out, "\"grad_slot_bytes_per_point\": 82336");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "3", "--train", "--loss", "l1");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--loss: 'l1' is not l2 or rel-l2");
  cli_result_free(&r);
  /* the hash grid's table gradient: the choice in the JSON, the f16 form refused by name
   * where the device lacks f16 vector atomics, a bad value refused */
  r = cli_run("mlp", "--in", "3", "--hidden", "64x2", "--out", "16", "--encoding", "hashgrid:16,2,14", "--train",
              "--variant", "mat", "--caps", "h100", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grid_gradient\": \"f16\""); /* the H100 adds f16 pairs */
  CHECK_CONTAINS(r.out, "\"opt_table_groups\": ");
  CHECK_CONTAINS(r.out, "\"grid_spread\": \"flat\""); /* the (point, level) pairs' spread: flat by default */
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--hidden", "64x2", "--out", "16", "--encoding", "hashgrid:16,8,14", "--train",
              "--variant", "mat", "--caps", "h100", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grid_gradient\": \"f32\""); /* 8 features: f32 (measured faster) */
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "16", "--encoding", "hashgrid", "--train", "--caps", "vulkan13",
              "--grid-gradient", "f16");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "grid_gradient f16 needs shaderFloat16VectorAtomics");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "16", "--encoding", "hashgrid", "--train", "--grid-gradient", "f8");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--grid-gradient: 'f8' is not auto, f32 or f16");
  cli_result_free(&r);
  /* the spread of the grid's (point, level) pairs: the others by flag, a bad value refused */
  r = cli_run("mlp", "--in", "3", "--hidden", "64x2", "--out", "16", "--encoding", "hashgrid:16,2,14", "--train",
              "--variant", "mat", "--caps", "h100", "--grid-spread", "level-loop", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grid_spread\": \"level-loop\"");
  CHECK_CONTAINS(r.out, " grid-level-loop");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "16", "--encoding", "hashgrid", "--train", "--grid-spread", "rows");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--grid-spread: 'rows' is not auto, level-loop, flat or flat-by-point");
  cli_result_free(&r);
  /* mat's gradient-kernel forms: the plan's choice (16 bias rows where the chunk fits
   * with them), the levers by flag, bad values and other variants refused */
  r = cli_run("mlp", "--in", "3", "--hidden", "48x2", "--out", "1", "--act", "sigmoid", "--train", "--variant", "mat",
              "--caps", "h100", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grad_bias\": \"rows\"");
  CHECK_CONTAINS(r.out, "\"grad_act_deriv\": \"shared\"");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "16", "--hidden", "64x2", "--out", "3", "--act", "silu", "--train", "--variant", "mat",
              "--caps", "h100", "--grad-bias", "row", "--grad-act-deriv", "registers", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"grad_bias\": \"row\"");
  CHECK_CONTAINS(r.out, "\"grad_act_deriv_frags\": 8");
  CHECK_CONTAINS(r.out, " held bias-row act-regs");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "1", "--train", "--grad-bias", "16");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--grad-bias: '16' is not auto, rows or row");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "1", "--train", "--grad-act-deriv", "regs");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--grad-act-deriv: 'regs' is not auto, shared or registers");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "1", "--train", "--grad-bias", "row");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "grad_bias row: a form of the mat variant's gradient kernel; the loop variant");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--hidden", "32x2", "--out", "3", "--train", "--variant", "vec", "--caps",
              "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpCooperativeVectorOuterProductAccumulateNV");
  CHECK_CONTAINS(r.out, "; train vec 2-32x2-3 relu f16 w32 l2 adam w64 g64: optimizer kernel");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "3", "--train", "--variant", "vec", "--caps", "vulkan13");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "variant vec: training needs cooperativeVectorTraining");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "3", "--train", "--variant", "mat", "--caps", "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpCooperativeMatrixMulAddKHR");
  CHECK_CONTAINS(r.out, "; train mat 2-3 none f16 w32 p64 l2 adam w32 g64 held: gradient kernel");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "3", "--train", "--variant", "mat", "--caps", "vulkan13");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "the mat variant needs cooperativeMatrix");
  cli_result_free(&r);
  /* the device-address form: both kernels written and valid, the JSON says it */
  r = cli_run("mlp", "--in", "2", "--hidden", "32x2", "--out", "3", "--train", "--variant", "mat", "--caps", "h100",
              "--addressing", "device-address", "-o", cli_path("train_bda.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("val", cli_path("train_bda.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("val", cli_path("train_bda.opt.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "3", "--train", "--caps", "vulkan13", "--addressing", "device-address",
              "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"addressing\": \"device-address\"");
  CHECK_CONTAINS(r.out, "\"grad_push_constant_size\": 48");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "2", "--hidden", "16x2", "--out", "3", "--encoding", "freq:3", "--train",
              "--points", "300", "--steps", "2", "--lr", "0.01");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    1062 of 1062 gradients match");
  CHECK_CONTAINS(r.out, "loss matches");
  CHECK_CONTAINS(r.out, "compile  driver compile: gradient "); /* what a JIT pays first */
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "2", "--hidden", "16x2", "--out", "3", "--encoding", "freq:3", "--train",
              "--points", "300", "--steps", "2", "--lr", "0.01", "--addressing", "device-address");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    1062 of 1062 gradients match");
  CHECK_CONTAINS(r.out, "loss matches");
  cli_result_free(&r);
}

/* The hash grid's flag, weights auto (and the default of run and bench), run mlp
 * --sample, bench mlp (emission only for a preset; a run on the CI device with every
 * variant it has and the reasons for the others). */
static void test_mlp_hash_grid_sample_and_bench(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("mlp", "--in", "3", "--hidden", "64x2", "--out", "4", "--encoding", "hashgrid:8,2,12,4,1.5",
                         "--caps", "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "grid_scale");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "4", "--encoding", "hashgrid:8,3", "--caps", "h100");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "grid.features 3: 1, 2, 4 or 8 features per level");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "4", "--encoding", "hashgrid:8,x");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "hashgrid[:LEVELS[,FEATURES[,LOG2SIZE[,BASERES[,SCALE]]]]]");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "32", "--hidden", "64x4", "--out", "16", "--weights", "auto", "--caps", "h100", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"weight_layout\": \"optimal\""); /* the vec variant reads it faster */
  cli_result_free(&r);
  r = cli_run("bench", "mlp", "--in", "64", "--hidden", "64x5", "--out", "64", "--caps", "h100");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "emit     ");
  CHECK_CONTAINS(r.out, "net      49152 FLOP per point");
  cli_result_free(&r);
  /* bench and run take the auto variant with weights auto unless --weights names a
   * layout (32-256x3-16 on the h100: vec with optimal weights, mat with row-major) */
  r = cli_run("bench", "mlp", "--in", "32", "--hidden", "256x3", "--out", "16", "--caps", "h100");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "(weights auto: optimal)");
  CHECK_CONTAINS(r.out, "plan     vec 32-256x3-16");
  cli_result_free(&r);
  r = cli_run("bench", "mlp", "--in", "32", "--hidden", "256x3", "--out", "16", "--caps", "h100", "--weights", "row");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "plan     mat 32-256x3-16");
  CHECK(strstr(r.out, "weights auto") == NULL);
  cli_result_free(&r);
  r = cli_run("bench", "mlp", "--in", "3", "--out", "1", "--sample", "x");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--sample: 'x' is not a number of points");
  cli_result_free(&r);
  r = cli_run("run", "mlp", "--in", "3", "--hidden", "16", "--out", "2", "--points", "3000", "--sample", "50");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "(sampled points)");
  CHECK_CONTAINS(r.out, "(weights auto: row-major)");
  CHECK_CONTAINS(r.out, "check    102 of 102 outputs match"); /* 51 points: every 60th, the last */
  cli_result_free(&r);
  r = cli_run("bench", "mlp", "--in", "3", "--hidden", "16", "--out", "2", "--points", "2000", "--repeats", "1",
              "--warmup-ms", "1", "--variants", "all");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "loop     loop 3-16x1-2 relu f16 w64");
  CHECK_CONTAINS(r.out, "best     ");
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mlp_hash_grid_sample_and_bench),
      TEST_CASE(test_mlp_emits_a_valid_module_for_h100),
      TEST_CASE(test_mlp_usage_and_refusals),
      TEST_CASE(test_run_mlp_checks_every_output),
      TEST_CASE(test_mlp_train),
      TEST_CASE(test_mlp_layers_variant),
  };
  int rc = test_main(argc, argv, tests, TEST_COUNT(tests));
  cli_cleanup();
  return rc;
}
