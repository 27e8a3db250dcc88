/* tests/fuzz/fuzz_caps.c — libFuzzer target: caps JSON files (what `spvgen devices
 * --json` writes and `--caps FILE` reads) on arbitrary bytes, and what the planners do
 * with the caps such a file gives. The probe of 2026-11-26 fuzzed 2,568 caps files and
 * found two SIGFPEs (a zero granularity, a zero K).
 *
 * Contract: no crash or signal; caps the reader accepts pass spvgen_caps_check (the one
 * rule set); with them, a GEMM (each variant), an MLP (each variant) and an elementwise
 * desc either refuse with "spvgen_<template>_plan..." and a reason, or plan, and the plan
 * emits a module that validates (bfloat16/float8 modules only finish: SPIRV-Tools 2025.1
 * knows neither). Corpus: tests/data/fuzz-corpus/fuzz_caps/ (the presets' JSON, the
 * recorded H100, the probe's two files); dictionary tests/fuzz/fuzz_caps.dict. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps_json.h"
#include "fuzz_common.h"
#include "spvgen/check.h"
#include "spvgen/elementwise.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"

static spvgen_module *g_module;

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

/* The module emitted into g_module (status st) finishes and validates. */
static void expect_valid(spvgen_status st, const char *what) {
  const uint32_t *w = NULL;
  size_t count = 0;
  if (st == SPVGEN_OK) st = spvgen_module_finish(g_module, &w, &count);
  if (st != SPVGEN_OK) FUZZ_FAIL("%s: an accepted plan did not emit: %s", what, spvgen_module_error(g_module));
  static char vmsg[8192];
  if (spvgen_validate(w, count, NULL, vmsg, sizeof vmsg) == SPVGEN_OK) return;
  if (has_exotic_capability(w, count) && strstr(vmsg, "capability")) return;
  FUZZ_FAIL("%s: the emitted module does not validate: %s", what, vmsg);
}

static void expect_reason(const char *msg, const char *prefix) {
  size_t pl = strlen(prefix);
  if (strncmp(msg, prefix, pl) || strlen(msg) < pl + 8) FUZZ_FAIL("refused without a reason: '%s'", msg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  g_module = spvgen_module_create(NULL);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spvgen_device_caps caps;
  char msg[1024];
  if (!spvgen_caps_from_json((const char *)data, size, &caps, msg, sizeof msg)) {
    if (!msg[0]) FUZZ_FAIL("the caps file was refused without a message");
    return 0;
  }
  if (spvgen_caps_check(&caps, msg, sizeof msg) != SPVGEN_OK)
    FUZZ_FAIL("the reader accepted caps that spvgen_caps_check refuses: %s", msg);
  /* Shapes from the input's length, so that the corpus reaches different tiles. */
  uint32_t m = 1 + (uint32_t)(size * 7 % 300), n = 1 + (uint32_t)(size * 13 % 300), k = 1 + (uint32_t)(size % 200);
  for (int v = 0; v < SPVGEN_GEMM_VARIANT_COUNT; v++) {
    spvgen_gemm_desc d = {.m = m, .n = n, .k = k, .variant = (spvgen_gemm_variant)v};
    if (size & 1) d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
    spvgen_gemm_config plan;
    if (spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
      expect_reason(msg, "spvgen_gemm_plan");
      continue;
    }
    spvgen_module_reset(g_module, NULL);
    expect_valid(spvgen_gemm_emit(g_module, &plan, NULL), plan.name);
  }
  for (int v = 0; v < SPVGEN_MLP_VARIANT_COUNT; v++) {
    spvgen_mlp_desc d = {.input_width = 1 + m % 64, .output_width = 1 + n % 32, .hidden_width = 16u << (k % 3),
                         .hidden_count = k % 4, .variant = (spvgen_mlp_variant)v};
    spvgen_mlp_config plan;
    if (spvgen_mlp_plan(&d, &caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
      expect_reason(msg, "spvgen_mlp_plan");
      continue;
    }
    for (uint32_t i = 0; i < spvgen_mlp_kernel_count(&plan); i++) { /* layers: a kernel per GEMM class */
      spvgen_module_reset(g_module, NULL);
      expect_valid(spvgen_mlp_emit_kernel(g_module, &plan, i, NULL), plan.name);
    }
  }
  spvgen_elementwise_desc ed = {.type = (spvgen_elementwise_type)(size % 4), .local_size = 32u << (size % 4)};
  spvgen_elementwise_config ep;
  if (spvgen_elementwise_plan(&ed, &caps, &ep, msg, sizeof msg) != SPVGEN_OK) {
    expect_reason(msg, "spvgen_elementwise_plan");
  } else {
    spvgen_module_reset(g_module, NULL);
    expect_valid(spvgen_elementwise_emit(g_module, &ep, NULL), "elementwise");
  }
  return 0;
}
