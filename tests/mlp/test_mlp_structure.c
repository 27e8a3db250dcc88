/* tests/mlp/test_mlp_structure.c — the vec variant's structure knobs (spvgen/mlp.h):
 * vec_rows (a layer in pieces of rows, each its own MatrixMulAdd, the optimal layout's
 * pieces at spec-constant strides), vec_stage (the activations through a shared-memory
 * row per invocation), layer_loop (the equal hidden layers in a run-time loop), and the
 * compile budget that makes the plan choose them: every kernel validates for the h100
 * preset, the refusals name the knob. The GPU runs them against float64 in
 * tests/gpu/test_gpu_mlp.c and the grid benchmark (bench/mlp_grid.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "mlp_net.h"
#include "spvgen/coop.h"
#include "spvgen/mlp.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_mlp_desc net(uint32_t in, uint32_t width, uint32_t depth, uint32_t out, spvgen_mlp_activation act) {
  spvgen_mlp_desc d = test_mlp_net(in, width, depth, out, act);
  d.variant = SPVGEN_MLP_VEC;
  d.workgroup_size = 32;
  d.points_per_group = 1;
  return d;
}

/* How often `needle` occurs in text. */
static uint32_t count(const char *text, const char *needle) {
  uint32_t n = 0;
  for (const char *s = text; s && (s = strstr(s, needle)); s += strlen(needle)) n++;
  return n;
}

/* Emits d for h100; validates; returns the friendly disassembly (NULL after a failed
 * check). *k keeps the kernel (freed by the caller). */
static char *emit_text(const spvgen_mlp_desc *d, spvgen_kernel *k) {
  spvgen_device_caps caps = preset("h100");
  char msg[512];
  spvgen_status st = spvgen_mlp(d, &caps, k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return NULL;
  CHECK(check_words(k->words, k->word_count));
  char *text = NULL;
  char dm[256];
  CHECK(spvgen_disassemble(k->words, k->word_count, SPVGEN_DIS_FRIENDLY_NAMES, &text, dm, sizeof dm) == SPVGEN_OK);
  return text;
}

/* 16-128x3-3 in pieces of 64 rows: layers of 128 outputs take two MatrixMulAdds each,
 * the 3-output layer one (7 in all); with optimal weights each split layer has its piece
 * stride as a spec constant (SpecId SPVGEN_MLP_SPEC_PIECE_BYTES + l), listed in the
 * kernel info after the matrix offsets with the row-major default. */
static void test_vec_rows_evaluate_a_layer_in_pieces(void) {
  for (int opt = 0; opt < 2; opt++) {
    spvgen_mlp_desc d = net(16, 128, 3, 3, SPVGEN_MLP_ACT_SILU);
    d.vec_rows = 64;
    d.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    spvgen_kernel k;
    char *text = emit_text(&d, &k);
    if (!text) return;
    CHECK_EQ_U64(count(text, "OpCooperativeVectorMatrixMulAddNV"), 7);
    spvgen_mlp_config p;
    spvgen_device_caps caps = preset("h100");
    CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
    CHECK_CONTAINS(p.name, " r64");
    if (opt) {
      CHECK_CONTAINS(text, "OpDecorate %matrix_piece_bytes_0 SpecId 16");
      CHECK_CONTAINS(text, "OpDecorate %matrix_piece_bytes_2 SpecId 18");
      CHECK(!strstr(text, "matrix_piece_bytes_3")); /* the output layer is one piece */
      CHECK_EQ_U64(k.info.spec_constant_count, p.layer_count + 3);
      for (uint32_t l = 0; l < 3 && p.layer_count + l < k.info.spec_constant_count; l++) {
        const spvgen_spec_constant *sc = &k.info.spec_constants[p.layer_count + l];
        CHECK_EQ_U64(sc->id, SPVGEN_MLP_SPEC_PIECE_BYTES + l);
        CHECK_EQ_U64(sc->value, 64ull * p.layers[l].row_stride);
      }
    } else {
      CHECK_EQ_U64(k.info.spec_constant_count, 0);
    }
    spvgen_free_text(text);
    spvgen_kernel_free(&k);
  }
  /* pieces that do not divide the layer: 48 of 128 rows (48, 48, 32) */
  spvgen_mlp_desc d = net(16, 128, 2, 16, SPVGEN_MLP_ACT_RELU);
  d.vec_rows = 48;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  spvgen_kernel k;
  char *text = emit_text(&d, &k);
  if (text) CHECK_EQ_U64(count(text, "OpCooperativeVectorMatrixMulAddNV"), 3 + 3 + 1);
  spvgen_free_text(text);
  if (text) spvgen_kernel_free(&k);
}

/* vec_stage: each layer's pieces stored into the invocation's row of a Workgroup array
 * and the next layer's input loaded from it; the plan counts the shared memory. */
static void test_vec_stage_keeps_activations_in_shared_memory(void) {
  spvgen_mlp_desc d = net(32, 256, 3, 16, SPVGEN_MLP_ACT_RELU);
  d.vec_stage = true;
  d.vec_rows = 64;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  spvgen_kernel k;
  char *text = emit_text(&d, &k);
  if (!text) return;
  CHECK_CONTAINS(text, "Workgroup");
  CHECK_EQ_U64(count(text, "OpCooperativeVectorStoreNV"), 3 * 4 + (16 * 2 % 16 == 0)); /* + the output's */
  CHECK(count(text, "OpCooperativeVectorLoadNV") >= 3);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  spvgen_mlp_config p;
  spvgen_device_caps caps = preset("h100");
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.shared_bytes, 32 * (256 + 8) * 2);
  CHECK_CONTAINS(p.name, " stage");
  /* a workgroup whose rows do not fit the shared memory, by name */
  d.workgroup_size = 128;
  char msg[512];
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vec_stage");
  CHECK_CONTAINS(msg, "shared memory");
  /* the function shape does not know the kernel's workgroup */
  d.workgroup_size = 32;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(spvgen_module_error(m), "vec_stage");
  spvgen_module_destroy(m);
}

/* The f16 sigmoid and silu are written on the cooperative-vector Tanh (vec.c: Exp and a
 * division cost the small networks far more): 8-32x1-8 with sigmoid hidden and silu out
 * has two Tanh, no Exp and no division; the 8-bit weights' f32 vectors keep Exp and the
 * division. */
static void test_vec_sigmoid_and_silu_on_tanh(void) {
  spvgen_mlp_desc d = net(8, 32, 1, 8, SPVGEN_MLP_ACT_SIGMOID);
  d.output_activation = SPVGEN_MLP_ACT_SILU;
  spvgen_kernel k;
  char *text = emit_text(&d, &k);
  if (!text) return;
  CHECK_EQ_U64(count(text, " Tanh "), 2);
  CHECK_EQ_U64(count(text, " Exp "), 0);
  CHECK_EQ_U64(count(text, "OpFDiv"), 0);
  CHECK_EQ_U64(count(text, " Fma "), 2);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  d.weight_type = SPVGEN_COMPONENT_S8;
  text = emit_text(&d, &k);
  if (!text) return;
  CHECK_EQ_U64(count(text, " Tanh "), 0);
  CHECK_EQ_U64(count(text, " Exp "), 2);
  CHECK_EQ_U64(count(text, "OpFDiv"), 2);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
}

/* output_path (vec): AUTO stages 64-byte and longer output points of whole 16-byte chunks
 * (the cooperative-vector store goes to the invocation's row of a Workgroup array, and the
 * workgroup writes 16-byte chunks through a uvec4 view of binding 2 after a barrier), not
 * shorter ones, and other points from 16 bytes in the element form; the refusals name
 * the knob. */
static void test_vec_output_staged_from_64_byte_rows(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_config p;
  char msg[512];
  spvgen_mlp_desc d = net(1, 16, 1, 64, SPVGEN_MLP_ACT_TANH);
  spvgen_kernel k;
  char *text = emit_text(&d, &k);
  if (!text) return;
  CHECK_CONTAINS(text, "output_stage");
  CHECK_CONTAINS(text, "output4");
  CHECK_EQ_U64(count(text, "OpCooperativeVectorStoreNV"), 1);
  CHECK_EQ_U64(count(text, "OpControlBarrier"), 1);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_CONTAINS(p.name, " ostage");
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_STAGED);
  CHECK_EQ_U64(p.shared_bytes, 32 * (128 / 16 + 1) * 16);
  /* two points per invocation: a barrier after each point's copy but the last */
  d.points_per_group = 2;
  text = emit_text(&d, &k);
  if (!text) return;
  CHECK_EQ_U64(count(text, "OpControlBarrier"), 3);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  d.points_per_group = 1;
  /* direct, asked for: the point's one store to binding 2, no barrier */
  d.output_path = SPVGEN_MLP_OUTPUT_DIRECT;
  text = emit_text(&d, &k);
  if (!text) return;
  CHECK(!strstr(text, "output_stage"));
  CHECK_EQ_U64(count(text, "OpControlBarrier"), 0);
  CHECK_EQ_U64(count(text, "OpCooperativeVectorStoreNV"), 1);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  /* 32-byte points: AUTO stores them directly */
  d = net(32, 64, 2, 16, SPVGEN_MLP_ACT_RELU);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_DIRECT);
  CHECK(!strstr(p.name, "ostage"));
  CHECK_EQ_U64(p.shared_bytes, 0);
  /* A point of 3 halves is no whole chunk: AUTO stores its 6 bytes directly; asked for,
   * the element form (the workgroup's points back to back in a Workgroup array of
   * halves, copied element by element: no uvec4 view, no cooperative-vector store). */
  d = net(8, 32, 1, 3, SPVGEN_MLP_ACT_RELU);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_DIRECT);
  d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(p.name, " ostage");
  CHECK_EQ_U64(p.shared_bytes, 32 * 6);
  text = emit_text(&d, &k);
  if (!text) return;
  CHECK_CONTAINS(text, "output_stage");
  CHECK(!strstr(text, "output4"));
  CHECK_EQ_U64(count(text, "OpCooperativeVectorStoreNV"), 0);
  CHECK_EQ_U64(count(text, "OpControlBarrier"), 1);
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  /* 59 halves (118 bytes) and 5 floats (20 bytes): AUTO stages them in the element form;
   * 7 halves (14 bytes) stay direct */
  d = net(2, 16, 7, 59, SPVGEN_MLP_ACT_NONE);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_STAGED);
  CHECK_EQ_U64(p.shared_bytes, 32 * 118);
  d = net(2, 16, 2, 5, SPVGEN_MLP_ACT_NONE);
  d.output_type = SPVGEN_COMPONENT_F32;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_STAGED);
  d = net(2, 16, 2, 7, SPVGEN_MLP_ACT_NONE);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_DIRECT);
  /* 1024 invocations x 272 bytes: over 48 KiB when asked for, direct under AUTO */
  d = net(8, 32, 1, 64, SPVGEN_MLP_ACT_RELU);
  d.output_type = SPVGEN_COMPONENT_F32;
  d.workgroup_size = 1024;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.output_path, SPVGEN_MLP_OUTPUT_DIRECT);
  d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "shared memory");
  /* the loop variant writes directly; a value the enum does not name */
  d = net(8, 32, 1, 64, SPVGEN_MLP_ACT_RELU);
  d.variant = SPVGEN_MLP_LOOP;
  d.points_per_group = 0;
  d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "output_path staged");
  d.output_path = (spvgen_mlp_output_path)7;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "output_path 7");
  /* mat stages f16 points of whole chunks in its columns arrangement only */
  d = test_mlp_net(8, 32, 1, 64, SPVGEN_MLP_ACT_RELU);
  d.variant = SPVGEN_MLP_MAT;
  d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(p.name, " ostage");
  d.output_type = SPVGEN_COMPONENT_F32;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "f32 output points");
  d.output_type = SPVGEN_COMPONENT_F16;
  d.mat_rows = true;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "mat_rows");
  /* the function shape returns the output whatever the plan's path */
  d = net(1, 16, 1, 64, SPVGEN_MLP_ACT_TANH);
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_OK);
  spvgen_module_destroy(m);
}

/* layer_loop: 1-256x8-1 holds the first layer, one looped layer and the output layer
 * (3 MatrixMulAdds instead of 9) in a DontUnroll loop; staged with pieces of 64, the
 * looped layer is one piece in a loop of its own (4 + 1 + 1); row-major and optimal both
 * validate; the estimated compile falls with the code. */
static void test_layer_loop_holds_one_hidden_layer(void) {
  spvgen_device_caps caps = preset("h100");
  for (int opt = 0; opt < 2; opt++) {
    uint32_t unrolled_ms = 0;
    for (int mode = 0; mode < 3; mode++) {
      spvgen_mlp_desc d = net(1, 256, 8, 1, SPVGEN_MLP_ACT_TANH);
      d.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      d.layer_loop = mode >= 1;
      d.vec_stage = mode == 2;
      d.vec_rows = mode == 2 ? 64 : 0;
      spvgen_kernel k;
      char *text = emit_text(&d, &k);
      if (!text) return;
      static const uint32_t muladds[3] = {9, 3, 4 + 1 + 1};
      CHECK_EQ_U64(count(text, "OpCooperativeVectorMatrixMulAddNV"), muladds[mode]);
      if (mode) CHECK_CONTAINS(text, "DontUnroll");
      spvgen_mlp_config p;
      CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
      if (mode == 0) unrolled_ms = p.compile_ms;
      else CHECK_MSG(p.compile_ms < unrolled_ms, "%u ms >= %u ms unrolled", p.compile_ms, unrolled_ms);
      if (mode) CHECK_CONTAINS(p.name, " loop");
      if (opt && mode) { /* every layer's offset is still a spec constant */
        CHECK_CONTAINS(text, "%matrix_offset_7");
        CHECK_EQ_U64(k.info.spec_constant_count, p.layer_count + (mode == 2 ? 8 : 0));
      }
      spvgen_free_text(text);
      spvgen_kernel_free(&k);
    }
  }
}

static void test_structure_knobs_are_refused_by_name(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_config p;
  char msg[512];
  spvgen_mlp_desc d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.layer_loop = true; /* one looped layer is no loop */
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "layer_loop");
  d = net(16, 64, 4, 8, SPVGEN_MLP_ACT_RELU);
  d.hidden_widths[2] = 32; /* not one width */
  d.layer_loop = true;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "layer_loop");
  d = net(16, 64, 4, 8, SPVGEN_MLP_ACT_RELU);
  d.vec_rows = 24;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "vec_rows 24");
  d.vec_rows = 64;
  d.variant = SPVGEN_MLP_MAT;
  d.workgroup_size = 0;
  d.points_per_group = 0;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vec_rows is a knob of the vec variant");
  d = net(16, 64, 4, 8, SPVGEN_MLP_ACT_RELU);
  d.weight_type = SPVGEN_COMPONENT_S8;
  d.vec_stage = true;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vec_stage");
  /* training evaluates whole, unrolled layers */
  spvgen_mlp_train_desc t;
  memset(&t, 0, sizeof t);
  t.net = net(16, 64, 4, 8, SPVGEN_MLP_ACT_RELU);
  t.net.variant = SPVGEN_MLP_LOOP;
  t.net.workgroup_size = 0;
  t.net.layer_loop = true;
  spvgen_mlp_train_config tc;
  CHECK(spvgen_mlp_train_plan(&t, &caps, &tc, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "layer_loop");
}

/* The compile budget: 1-256x8-1 left to the plan is estimated over a second unrolled,
 * so the plan loops its layers (the measured best loops too) and stays over the default
 * 1000 ms only where nothing within it keeps half the measured speed; a budget of ten minutes keeps the unrolled kernel; every plan carries its
 * estimate, growing with the network. */
static void test_compile_budget_rolls_deep_wide_networks(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 1;
  d.hidden_width = 256;
  d.hidden_count = 8;
  d.output_width = 1;
  d.activation = SPVGEN_MLP_ACT_TANH;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* within the budget, or over it and saying so: no stand-in within it keeps half the
   * measured speed (the staged pieces measured 0.25 of the looped plan on the H200), and
   * the plan is the measured best or the cheapest to compile of those that keep it (since
   * session 20 layers is such a stand-in: 1-256x8-1 measured 0.127 G points/s on layers
   * against vec's 0.141, and its GEMMs are estimated under the looped vec kernel) */
  CHECK_MSG(p.compile_ms <= 1000 || strstr(p.selection, "over compile budget") || strstr(p.selection, "cheapest compile"),
            "%s: %u ms, selection '%s'", p.name, p.compile_ms, p.selection);
  /* looped either because the budget rolled it or because the measured best loops */
  CHECK_MSG(p.desc.layer_loop || p.variant == SPVGEN_MLP_LAYERS || strstr(p.selection, "compile budget"),
            "%s: selection '%s'", p.name, p.selection);
  CHECK_MSG(!p.desc.vec_stage, "%s: no staged pieces as a stand-in", p.name);
  d.compile_budget_ms = 600000;
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* nothing given way to the budget: the plan the measurements (or the model) rank first */
  CHECK_MSG(!strstr(p.selection, "compile budget"), "%s: selection '%s'", p.name, p.selection);
  /* estimates grow with the network */
  uint32_t prev = 0;
  for (uint32_t w = 16; w <= 256; w *= 2) {
    spvgen_mlp_desc e = net(16, w, 3, 16, SPVGEN_MLP_ACT_RELU);
    CHECK(spvgen_mlp_plan(&e, &caps, &p, NULL, 0) == SPVGEN_OK);
    CHECK_MSG(p.compile_ms > prev, "width %u: %u ms after %u", w, p.compile_ms, prev);
    prev = p.compile_ms;
  }
  /* a budget the desc fixes by fixing every knob does not apply */
  spvgen_mlp_desc e = net(1, 256, 8, 1, SPVGEN_MLP_ACT_TANH);
  CHECK(spvgen_mlp_plan(&e, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_STR_EQ(p.selection, "desc");
  CHECK(!p.desc.layer_loop && p.compile_ms > 1000);
}

/* The mat variant's streamed form (mat_slab) for the h100 preset: 256-wide networks of
 * depth 1 to 8 validate at slabs of 16 and 32 inputs, and use exactly two slab buffers
 * (256 rows of slab / 8 + 1 chunks: one chunk of padding per row) plus one bias row per
 * layer, under the 48 KiB; slabs of 64 do not fit at width 256 and are refused naming
 * the shared memory; the default block is 128 points (8 subgroups of one 16-point
 * fragment) at width 256 and 256 points at width 128. */
static void test_mat_slab_streams_wide_layers_within_48_kib(void) {
  spvgen_device_caps caps = preset("h100");
  CHECK_EQ_U64(caps.max_shared_memory, 49152);
  char msg[512];
  for (uint32_t depth = 1; depth <= 8; depth++)
    for (uint32_t slab = 16; slab <= 64; slab *= 2) {
      spvgen_mlp_desc d = net(64, 256, depth, 64, SPVGEN_MLP_ACT_RELU);
      d.variant = SPVGEN_MLP_MAT;
      d.workgroup_size = 0;
      d.points_per_group = 0;
      d.mat_slab = slab;
      spvgen_mlp_config p;
      spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
      uint32_t buffers = 2 * 256 * (slab / 8 + 1) * 16, biases = (256 * depth + 64) * 2;
      if (buffers + biases > caps.max_shared_memory) {
        CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "depth %u slab %u: %s", depth, slab, msg);
        CHECK_CONTAINS(msg, "bytes of shared memory");
        continue;
      }
      CHECK_MSG(st == SPVGEN_OK, "depth %u slab %u: %s", depth, slab, msg);
      if (st != SPVGEN_OK) continue;
      CHECK_EQ_U64(p.shared_bytes, buffers + biases);
      CHECK(p.shared_bytes <= 49152);
      CHECK_EQ_U64(p.points_per_workgroup, 128);
      CHECK_EQ_U64(p.local_size[0], 256);
      if (depth == 1 || depth == 3 || depth == 8) {
        spvgen_kernel k;
        char *text = emit_text(&d, &k);
        if (!text) continue;
        /* one MulAdd site per 16 inputs of each layer (the output fragments are a loop,
         * the slabs are not): 64 inputs, then 256 per hidden layer and the output layer */
        CHECK_EQ_U64(count(text, "OpCooperativeMatrixMulAddKHR"), (64 + 256 * depth) / 16);
        free(text);
        spvgen_kernel_free(&k);
      }
    }
  spvgen_mlp_desc d = net(16, 128, 3, 3, SPVGEN_MLP_ACT_SILU);
  d.variant = SPVGEN_MLP_MAT;
  d.workgroup_size = 0;
  d.points_per_group = 0;
  d.mat_slab = 32;
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(p.points_per_workgroup, 256);
  CHECK_CONTAINS(p.name, "slab32");
}

/* Bad mat_slab combinations are refused, naming what is wrong. */
static void test_mat_slab_bad_knobs_are_refused_by_name(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_config p;
  char msg[512];
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  d.variant = SPVGEN_MLP_MAT;
  d.workgroup_size = 0;
  d.points_per_group = 0;
  d.mat_slab = 24;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "mat_slab 24");
  d.mat_slab = 32;
  d.mat_rows = true;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "mat_rows and mat_slab");
  d.mat_rows = false;
  d.workgroup_size = 256;
  d.points_per_group = 48; /* not whole fragments for each of 8 subgroups */
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "points_per_group 48");
  d.points_per_group = 256; /* two 256-wide point fragments per subgroup: 384 registers */
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "registers per invocation");
  d.points_per_group = 0;
  d.workgroup_size = 0;
  d.variant = SPVGEN_MLP_VEC;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "mat_slab is a knob of the mat variant");
  spvgen_mlp_train_desc t;
  memset(&t, 0, sizeof t);
  t.net = net(16, 64, 4, 8, SPVGEN_MLP_ACT_RELU);
  t.net.variant = SPVGEN_MLP_MAT;
  t.net.workgroup_size = 0;
  t.net.points_per_group = 0;
  t.net.mat_slab = 32;
  spvgen_mlp_train_config tc;
  CHECK(spvgen_mlp_train_plan(&t, &caps, &tc, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "mat_slab");
  /* on a device without cooperative matrices, the mat variant's own refusal */
  spvgen_device_caps v13 = preset("vulkan13");
  d.variant = SPVGEN_MLP_MAT;
  CHECK(spvgen_mlp_plan(&d, &v13, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "cooperative");
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_vec_rows_evaluate_a_layer_in_pieces),
      TEST_CASE(test_vec_stage_keeps_activations_in_shared_memory),
      TEST_CASE(test_vec_output_staged_from_64_byte_rows),
      TEST_CASE(test_vec_sigmoid_and_silu_on_tanh),
      TEST_CASE(test_layer_loop_holds_one_hidden_layer),
      TEST_CASE(test_structure_knobs_are_refused_by_name),
      TEST_CASE(test_compile_budget_rolls_deep_wide_networks),
      TEST_CASE(test_mat_slab_streams_wide_layers_within_48_kib),
      TEST_CASE(test_mat_slab_bad_knobs_are_refused_by_name),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
