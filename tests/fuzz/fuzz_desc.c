/* tests/fuzz/fuzz_desc.c — libFuzzer target: GEMM and MLP descs, and the CLI's argument
 * parser, on arbitrary bytes.
 *
 * The first byte picks the mode:
 *   0 a GEMM desc and 1 an MLP desc, read field by field from the bytes (mostly small
 *     values, sometimes raw 32-bit words, floats included: NaN, inf, huge), for the
 *     preset the next byte picks (h100, vulkan13, lavapipe). spvgen_*_plans then, for
 *     its first plans, emit and validate. Contract: a refusal carries
 *     "spvgen_<t>_plan: <reason>"; an accepted plan emits, and the module validates
 *     (modules with bfloat16/float8 types only finish: SPIRV-Tools 2025.1 knows neither).
 *   2 `spvgen gemm` and 3 `spvgen mlp` with the rest as arguments, one per line
 *     (tests/fuzz/cli.dict lists the flags). Arguments with a '/' and -o are dropped:
 *     the output goes to a file in a private temporary directory (only reads, such as
 *     --caps FILE, may name files of the working directory). Without --caps in the
 *     input, a preset's (no device is opened). Contract: exit status 0,
 *     1 or 2; a non-zero status prints "spvgen ..." on stderr, never that the emitted
 *     module does not validate;
 *     a binary output validates.
 *   4 `spvgen tune gemm` arguments through spvgen_cli_parse_tune_gemm (parse only).
 * A first byte of 250 or more picks the other templates (issue 27: every accepted plan of
 * every template emits a valid module): 250-252 an MLP training desc (both kernels of
 * its first plans emitted and validated), 253-255 an elementwise desc.
 * A broken contract aborts (libFuzzer keeps the input). Built with clang by the fuzz
 * preset; other builds link tests/fuzz/replay_main.c and replay tests/data/fuzz-corpus/. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h" /* tools/spvgen */
#include "fuzz_common.h"
#include "spvgen/check.h"
#include "spvgen/elementwise.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static uint8_t byte(reader *r) {
  if (!r->n) return 0;
  r->n--;
  return *r->p++;
}

static uint32_t word(reader *r) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)byte(r) << (8 * i);
  return v;
}

/* Mostly what a caller would pass, sometimes anything. */
static uint32_t num(reader *r) {
  uint8_t b = byte(r);
  if (b < 160) return b % 48;
  if (b < 200) return 1u << (b % 16);
  if (b < 230) return (1u << (b % 32)) + (b & 1 ? 1 : (uint32_t)-1);
  return word(r);
}

static uint32_t small(reader *r, uint32_t n) {
  uint8_t b = byte(r);
  return b < 240 ? b % n : word(r);
}

static float real(reader *r) {
  uint8_t b = byte(r);
  if (b < 128) return 0.0f;
  if (b < 200) return (float)(b % 9) * 0.5f - 2.0f;
  uint32_t w = word(r);
  float f;
  memcpy(&f, &w, sizeof f);
  return f;
}

static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};

static bool has_exotic_capability(const uint32_t *w, size_t count) {
  for (size_t i = 5; i < count;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xFFFF;
    if (!wc) break;
    if (op == 17 && wc == 2 && i + 1 < count) {
      uint32_t c = w[i + 1];
      if (c == 5116 || c == 5117 || c == 5118 || c == 4212 || c == 4213) return true;
    }
    i += wc;
  }
  return false;
}

static void expect_valid(const uint32_t *w, size_t count, const char *what) {
  static char vmsg[8192];
  if (spvgen_validate(w, count, NULL, vmsg, sizeof vmsg) == SPVGEN_OK) return;
  if (has_exotic_capability(w, count) && strstr(vmsg, "capability")) return;
  FUZZ_FAIL("%s: the emitted module does not validate: %s", what, vmsg);
}

static void expect_reason(const char *msg, const char *prefix) {
  size_t pl = strlen(prefix);
  if (strncmp(msg, prefix, pl) || strlen(msg) < pl + 8) FUZZ_FAIL("refused without a reason: '%s'", msg);
}

static spvgen_module *g_module;

static void fuzz_gemm(reader *r) {
  spvgen_device_caps caps;
  if (spvgen_caps_preset(presets[byte(r) % 3], &caps) != SPVGEN_OK) FUZZ_FAIL("preset");
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = num(r);
  d.n = num(r);
  d.k = num(r);
  d.batch = num(r);
  d.a_type = (spvgen_component_type)small(r, 18);
  d.b_type = byte(r) < 200 ? d.a_type : (spvgen_component_type)small(r, 18);
  d.acc_type = (spvgen_component_type)small(r, 18);
  d.out_type = (spvgen_component_type)small(r, 18);
  uint8_t lay = byte(r);
  d.a_layout = (spvgen_matrix_layout)(lay & 1);
  d.b_layout = (spvgen_matrix_layout)(lay >> 1 & 1);
  d.c_layout = (spvgen_matrix_layout)(lay >> 2 & 1);
  d.d_layout = (spvgen_matrix_layout)(lay >> 3 & 1);
  if (lay & 0x10) d.a_layout = (spvgen_matrix_layout)word(r);
  if (lay & 0x20) {
    d.lda = num(r);
    d.ldb = num(r);
    d.ldc = num(r);
    d.ldd = num(r);
  }
  if (lay & 0x40) {
    d.stride_a = num(r);
    d.stride_b = (uint64_t)num(r) << (byte(r) % 40);
    d.stride_c = num(r);
    d.stride_d = num(r);
  }
  d.alpha = real(r);
  d.beta = real(r);
  d.bias = (spvgen_gemm_bias)small(r, 4);
  d.activation = (spvgen_activation)small(r, 5);
  uint8_t k = byte(r);
  if (k & 1) d.variant = (spvgen_gemm_variant)small(r, 5);
  if (k & 2) {
    d.tile_m = num(r);
    d.tile_n = num(r);
    d.tile_k = num(r);
  }
  if (k & 4) d.workgroup_size = num(r);
  if (k & 8) d.subgroups = num(r);
  if (k & 16) d.stages = num(r);
  if (k & 32) d.split_k = num(r);
  if (k & 64) d.unroll = num(r);
  if (k & 128) { /* the desc as a weight's class: its family (spvgen_gemm_plan_family) */
    spvgen_gemm_desc fd = d;
    const uint8_t f = byte(r);
    fd.shapes = f & 1 ? SPVGEN_GEMM_SHAPES_RUNTIME : (spvgen_gemm_shapes)small(r, 4);
    if (f & 2) fd.m_multiple = num(r);
    if (f & 4) fd.n_multiple = num(r), fd.k_multiple = num(r), fd.ld_multiple = num(r);
    if (f & 8) fd.k_fixed = 1;
    const uint32_t m_max = f & 16 ? num(r) : 4096, cap = f >> 5; /* capacity 0..7 */
    spvgen_gemm_config fam[8];
    uint32_t count = 99, total = 99;
    char fmsg[512];
    const spvgen_status fs = spvgen_gemm_plan_family(&fd, &caps, m_max, NULL, 0, fam, cap, &count, &total, fmsg,
                                                     sizeof fmsg);
    if (fs == SPVGEN_OK) {
      if (count > cap || count > total || (cap && total && !count) || total > 24)
        FUZZ_FAIL("spvgen_gemm_plan_family: %u of %u plans written, capacity %u", count, total, cap);
      for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = i + 1; j < count; j++)
          if (spvgen_gemm_class_key(&fam[i]) == spvgen_gemm_class_key(&fam[j]))
            FUZZ_FAIL("spvgen_gemm_plan_family: %s twice", fam[i].name);
    } else {
      expect_reason(fmsg, "spvgen_gemm_plan_family: ");
      if (count || total) FUZZ_FAIL("spvgen_gemm_plan_family failed with %u of %u plans", count, total);
    }
  }
  enum { MAXP = 4 };
  spvgen_gemm_config plans[MAXP];
  uint32_t n = 0;
  char msg[512];
  spvgen_status st = spvgen_gemm_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    expect_reason(msg, "spvgen_gemm_plan: ");
    return;
  }
  if (!n) FUZZ_FAIL("spvgen_gemm_plans: OK with no plan");
  for (uint32_t i = 0; i < n && i < 2; i++) {
    spvgen_module_reset(g_module, NULL);
    spvgen_kernel_info info;
    const uint32_t *w = NULL;
    size_t count = 0;
    st = spvgen_gemm_emit(g_module, &plans[i], &info);
    if (st == SPVGEN_OK) st = spvgen_module_finish(g_module, &w, &count);
    if (st != SPVGEN_OK) FUZZ_FAIL("plan %s did not emit: %s", plans[i].name, spvgen_module_error(g_module));
    expect_valid(w, count, plans[i].name);
  }
}

static void fuzz_mlp(reader *r) {
  spvgen_device_caps caps;
  if (spvgen_caps_preset(presets[byte(r) % 3], &caps) != SPVGEN_OK) FUZZ_FAIL("preset");
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = num(r);
  d.output_width = num(r);
  d.hidden_count = small(r, SPVGEN_MLP_MAX_LAYERS + 1);
  d.hidden_width = num(r);
  uint8_t f = byte(r);
  if (f & 1)
    for (uint32_t i = 0; i < SPVGEN_MLP_MAX_LAYERS - 1 && r->n; i++) d.hidden_widths[i] = byte(r) < 128 ? 0 : num(r);
  d.activation = (spvgen_mlp_activation)small(r, SPVGEN_MLP_ACT_COUNT + 1);
  d.output_activation = (spvgen_mlp_activation)small(r, SPVGEN_MLP_ACT_COUNT + 1);
  if (f & 2)
    for (uint32_t i = 0; i < SPVGEN_MLP_MAX_LAYERS && r->n; i++)
      d.layer_activations[i] = (spvgen_mlp_activation)small(r, SPVGEN_MLP_ACT_COUNT + 1);
  d.leaky_slope = real(r);
  d.no_bias = f & 4;
  d.encoding = (spvgen_mlp_encoding)small(r, SPVGEN_MLP_ENCODING_COUNT + 1);
  d.encoding_size = num(r);
  if (f & 8) d.weight_type = (spvgen_component_type)small(r, 18);
  d.input_type = byte(r) < 128 ? SPVGEN_COMPONENT_F16 : (spvgen_component_type)small(r, 18);
  d.output_type = byte(r) < 128 ? SPVGEN_COMPONENT_F16 : (spvgen_component_type)small(r, 18);
  if (f & 16) d.weight_layout = (spvgen_mlp_weight_layout_kind)small(r, 3);
  if (f & 32) d.variant = (spvgen_mlp_variant)small(r, SPVGEN_MLP_VARIANT_COUNT + 1);
  if (f & 64) d.workgroup_size = num(r);
  if (f & 128) d.points_per_group = num(r);
  enum { MAXP = 4 };
  spvgen_mlp_config plans[MAXP];
  uint32_t n = 0;
  char msg[512];
  spvgen_status st = spvgen_mlp_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    expect_reason(msg, "spvgen_mlp_plan: ");
    return;
  }
  if (!n) FUZZ_FAIL("spvgen_mlp_plans: OK with no plan");
  for (uint32_t i = 0; i < n && i < 2; i++) {
    spvgen_module_reset(g_module, NULL);
    spvgen_kernel_info info;
    const uint32_t *w = NULL;
    size_t count = 0;
    st = spvgen_mlp_emit_kernel(g_module, &plans[i], 0, &info); /* layers: kernel 0 of several */
    if (st == SPVGEN_OK) st = spvgen_module_finish(g_module, &w, &count);
    if (st != SPVGEN_OK) FUZZ_FAIL("plan %s did not emit: %s", plans[i].name, spvgen_module_error(g_module));
    expect_valid(w, count, plans[i].name);
  }
}

static void fuzz_mlp_train(reader *r) {
  spvgen_device_caps caps;
  if (spvgen_caps_preset(presets[byte(r) % 3], &caps) != SPVGEN_OK) FUZZ_FAIL("preset");
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = num(r);
  d.net.output_width = num(r);
  d.net.hidden_count = small(r, SPVGEN_MLP_MAX_LAYERS + 1);
  d.net.hidden_width = num(r);
  uint8_t f = byte(r);
  if (f & 1)
    for (uint32_t i = 0; i < SPVGEN_MLP_MAX_LAYERS - 1 && r->n; i++) d.net.hidden_widths[i] = byte(r) < 128 ? 0 : num(r);
  d.net.activation = (spvgen_mlp_activation)small(r, SPVGEN_MLP_ACT_COUNT + 1);
  d.net.output_activation = (spvgen_mlp_activation)small(r, SPVGEN_MLP_ACT_COUNT + 1);
  d.net.leaky_slope = real(r);
  d.net.no_bias = f & 4;
  d.net.encoding = (spvgen_mlp_encoding)small(r, SPVGEN_MLP_ENCODING_COUNT + 1);
  d.net.encoding_size = num(r);
  if (f & 8) d.net.input_type = (spvgen_component_type)small(r, 18);
  if (f & 32) d.net.variant = (spvgen_mlp_variant)small(r, SPVGEN_MLP_VARIANT_COUNT + 1);
  if (f & 64) d.net.workgroup_size = num(r);
  if (f & 128) d.net.points_per_group = num(r);
  d.loss = (spvgen_mlp_loss)small(r, SPVGEN_MLP_LOSS_COUNT + 1);
  d.optimizer = (spvgen_mlp_optimizer)small(r, SPVGEN_MLP_OPTIMIZER_COUNT + 1);
  uint8_t g = byte(r);
  if (g & 1) d.beta1 = real(r), d.beta2 = real(r), d.epsilon = real(r);
  if (g & 2) d.weight_decay = real(r);
  if (g & 4) d.grad_workgroups = num(r);
  if (g & 8) d.grad_workgroup_size = num(r);
  enum { MAXP = 4 };
  spvgen_mlp_train_config plans[MAXP];
  uint32_t n = 0;
  char msg[512];
  spvgen_status st = spvgen_mlp_train_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    expect_reason(msg, "spvgen_mlp_train_plan");
    return;
  }
  if (!n) FUZZ_FAIL("spvgen_mlp_train_plans: OK with no plan");
  /* every kernel of the gradient step (the layers variant's several, which AUTO may take),
   * then the optimizer */
  for (uint32_t i = 0; i < n && i < 2; i++) {
    const uint32_t kc = spvgen_mlp_train_kernel_count(&plans[i]);
    if (!kc) FUZZ_FAIL("plan %s has no gradient kernels", plans[i].name);
    for (uint32_t k = 0; k <= kc; k++) {
      spvgen_module_reset(g_module, &(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plans[i].net)});
      spvgen_kernel_info info;
      const uint32_t *w = NULL;
      size_t count = 0;
      st = k < kc ? spvgen_mlp_train_emit_kernel(g_module, &plans[i], k, &info)
                  : spvgen_mlp_train_emit(g_module, &plans[i], SPVGEN_MLP_TRAIN_OPTIMIZER, &info);
      if (st == SPVGEN_OK) st = spvgen_module_finish(g_module, &w, &count);
      if (st != SPVGEN_OK) FUZZ_FAIL("plan %s kernel %u did not emit: %s", plans[i].name, k, spvgen_module_error(g_module));
      expect_valid(w, count, plans[i].name);
    }
  }
}

static void fuzz_elementwise(reader *r) {
  spvgen_device_caps caps;
  if (spvgen_caps_preset(presets[byte(r) % 3], &caps) != SPVGEN_OK) FUZZ_FAIL("preset");
  spvgen_elementwise_desc d;
  memset(&d, 0, sizeof d);
  d.op = (spvgen_elementwise_op)small(r, SPVGEN_ELEMENTWISE_MAX + 2);
  d.type = (spvgen_elementwise_type)small(r, SPVGEN_ELEMENTWISE_S32 + 2);
  d.local_size = num(r);
  d.glsl450_memory_model = byte(r) & 1;
  spvgen_elementwise_config plans[8];
  uint32_t n = 0;
  char msg[512];
  if (spvgen_elementwise_plans(&d, &caps, plans, 8, &n, msg, sizeof msg) != SPVGEN_OK) {
    expect_reason(msg, "spvgen_elementwise_plan");
    return;
  }
  for (uint32_t i = 0; i < n && i < 8; i++) {
    spvgen_module_reset(g_module, NULL);
    spvgen_kernel_info info;
    const uint32_t *w = NULL;
    size_t count = 0;
    spvgen_status st = spvgen_elementwise_emit(g_module, &plans[i], &info);
    if (st == SPVGEN_OK) st = spvgen_module_finish(g_module, &w, &count);
    if (st != SPVGEN_OK) FUZZ_FAIL("elementwise plan %u did not emit: %s", i, spvgen_module_error(g_module));
    expect_valid(w, count, "elementwise");
  }
}

/* ------------------------------------------------------------------- CLI ---- */

static char g_dir[64], g_out[96], g_err[96];
static FILE *g_errf;

enum { MAX_ARGS = 48 };

static void fuzz_cli(const uint8_t *data, size_t size, int which) {
  static char buf[4096];
  if (size >= sizeof buf) size = sizeof buf - 1;
  memcpy(buf, data, size);
  buf[size] = 0;
  char *argv[MAX_ARGS + 5]; /* the input's, --caps PRESET, -o OUT and the NULL */
  int argc = 0;
  argv[argc++] = which == 2 ? "gemm" : which == 3 ? "mlp" : "gemm";
  bool drop_next = false;
  for (char *s = buf, *e; s && argc < MAX_ARGS; s = e ? e + 1 : NULL) {
    e = strchr(s, '\n');
    if (e) *e = 0;
    if (drop_next) {
      drop_next = false;
      continue;
    }
    if (strchr(s, '/')) continue; /* no paths outside the private directory */
    if (!strcmp(s, "-o")) {
      drop_next = true; /* our own -o follows */
      continue;
    }
    argv[argc++] = s;
  }
  if (which == 4) {
    spvgen_cli_tune_args t;
    memset(&t, 0, sizeof t);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(g_errf), 2);
    int rc = spvgen_cli_parse_tune_gemm(argc, argv, &t);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    if (rc != 0 && rc != -1 && rc != 2) FUZZ_FAIL("spvgen_cli_parse_tune_gemm returned %d", rc);
    rewind(g_errf);
    if (ftruncate(fileno(g_errf), 0)) FUZZ_FAIL("ftruncate");
    return;
  }
  /* No device: a preset unless the input names caps (a preset or a file). */
  bool caps = false;
  for (int i = 1; i < argc; i++) caps |= !strcmp(argv[i], "--caps");
  if (!caps) {
    argv[argc++] = "--caps";
    argv[argc++] = (char *)presets[size % 3];
  }
  argv[argc++] = "-o";
  argv[argc++] = g_out;
  argv[argc] = NULL;
  unlink(g_out);
  rewind(g_errf);
  if (ftruncate(fileno(g_errf), 0)) FUZZ_FAIL("ftruncate");
  fflush(stdout);
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(g_errf), 2);
  int rc = which == 2 ? spvgen_cmd_gemm(argc, argv) : spvgen_cmd_mlp(argc, argv);
  fflush(stdout);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  static char err[8192];
  size_t n = 0;
  FILE *f = fopen(g_err, "rb");
  if (f) {
    n = fread(err, 1, sizeof err - 1, f);
    fclose(f);
  }
  err[n] = 0;
  if (rc != 0 && rc != 1 && rc != 2) FUZZ_FAIL("spvgen %s returned %d", argv[0], rc);
  if (rc && strncmp(err, "spvgen", 6)) FUZZ_FAIL("spvgen %s failed (%d) without saying why: '%s'", argv[0], rc, err);
  /* The CLI's own check of what it emitted (at the start of a line: an argument it
   * echoes cannot hold a newline). */
  char bug[64];
  snprintf(bug, sizeof bug, "spvgen %s: the emitted module does not validate", argv[0]);
  for (const char *l = err; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, bug, strlen(bug))) FUZZ_FAIL("%s", err);
  if (rc) return;
  /* The output: a binary module validates. */
  f = fopen(g_out, "rb");
  if (!f) return; /* --help */
  static uint32_t words[1 << 18];
  size_t count = fread(words, 4, sizeof words / 4, f);
  fclose(f);
  if (count >= 5 && words[0] == 0x07230203u) expect_valid(words, count, "spvgen CLI output");
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  g_module = spvgen_module_create(NULL);
  snprintf(g_dir, sizeof g_dir, "/tmp/spvgen-fuzz-desc-XXXXXX");
  if (!mkdtemp(g_dir)) FUZZ_FAIL("mkdtemp");
  snprintf(g_out, sizeof g_out, "%s/out", g_dir);
  snprintf(g_err, sizeof g_err, "%s/stderr", g_dir);
  g_errf = fopen(g_err, "w+b");
  if (!g_errf || !freopen("/dev/null", "w", stdout)) FUZZ_FAIL("cannot set up %s", g_dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  reader r = {data + 1, size - 1};
  if (data[0] >= 250) {
    if (data[0] <= 252) fuzz_mlp_train(&r);
    else fuzz_elementwise(&r);
    return 0;
  }
  switch (data[0] % 5) {
  case 0: fuzz_gemm(&r); break;
  case 1: fuzz_mlp(&r); break;
  default: fuzz_cli(data + 1, size - 1, data[0] % 5); break;
  }
  return 0;
}
