/* tests/mlp/test_mlp.c — the MLP template's contract (spvgen/mlp.h): defaults of a zeroed
 * desc, errors that name the field, the weight layout, plans for the presets, emitted
 * kernels that validate (Vulkan 1.3 rules), and the function shape in a caller's kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/coop.h"
#include "spvgen/mlp.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static void test_zero_desc_defaults(void) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 3;
  d.output_width = 2;
  spvgen_mlp_config p;
  char msg[256];
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_MLP_LOOP); /* vulkan13: no cooperative features */
  CHECK_EQ_U64(p.layer_count, 1);
  CHECK_EQ_U64(p.encoded_width, 3);
  CHECK_EQ_U64(p.layers[0].inputs, 3);
  CHECK_EQ_U64(p.layers[0].outputs, 2);
  CHECK_EQ_U64(p.layers[0].row_stride, 16);
  CHECK_EQ_U64(p.layers[0].matrix_offset, 0);
  CHECK_EQ_U64(p.layers[0].bias_offset, 32);
  CHECK_EQ_U64(p.layers[0].activation, SPVGEN_MLP_ACT_NONE);
  CHECK_EQ_U64(p.weight_bytes, 48);
  CHECK_EQ_U64(p.desc.weight_type, SPVGEN_COMPONENT_F16);
  CHECK_EQ_U64(p.desc.workgroup_size, 64);
  CHECK_EQ_U64(p.points_per_workgroup, 64);
  CHECK_EQ_U64(p.flops_per_point, 12);
  CHECK(p.desc.leaky_slope == 0.01f);
  uint32_t g[3];
  spvgen_mlp_groups(&p, 1000, g);
  CHECK_EQ_U64(g[0], 16);
  CHECK_EQ_U64(g[1], 1);
  /* hidden_width alone: one hidden layer, relu; then the output layer, none. */
  d.hidden_width = 17;
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.layer_count, 2);
  CHECK_EQ_U64(p.layers[0].outputs, 17);
  CHECK_EQ_U64(p.layers[0].activation, SPVGEN_MLP_ACT_RELU);
  CHECK_EQ_U64(p.layers[1].inputs, 17);
  CHECK_EQ_U64(p.layers[1].row_stride, 48);
  CHECK_EQ_U64(p.layers[1].matrix_offset % 64, 0);
  CHECK_EQ_U64(p.layers[1].activation, SPVGEN_MLP_ACT_NONE);
  CHECK_CONTAINS(p.name, "loop 3-17x1-2 relu");
  /* An explicit list. */
  d.hidden_width = 0;
  d.hidden_widths[0] = 8;
  d.hidden_widths[1] = 5;
  d.layer_activations[1] = SPVGEN_MLP_ACT_TANH;
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.layer_count, 3);
  CHECK_EQ_U64(p.layers[1].activation, SPVGEN_MLP_ACT_TANH);
  CHECK_EQ_U64(p.layers[2].inputs, 5);
  spvgen_mlp_layer layers[SPVGEN_MLP_MAX_LAYERS];
  uint64_t total = 0;
  CHECK(spvgen_mlp_weight_layout(&p, layers, &total) == SPVGEN_OK);
  CHECK_EQ_U64(total, p.weight_bytes);
  for (uint32_t l = 0; l < p.layer_count; l++) {
    CHECK_EQ_U64(layers[l].matrix_offset % 64, 0);
    CHECK_EQ_U64(layers[l].bias_offset % 16, 0);
    CHECK(layers[l].bias_offset >= layers[l].matrix_offset + (uint64_t)layers[l].row_stride * layers[l].outputs);
    if (l) CHECK(layers[l].matrix_offset >= layers[l - 1].bias_offset + 2ull * layers[l - 1].outputs);
  }
  CHECK(total >= layers[2].bias_offset + 2ull * layers[2].outputs);
}

static void test_encodings_widen_the_input(void) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 3;
  d.output_width = 4;
  d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  spvgen_mlp_config p;
  char msg[256];
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.encoding_size, 8);
  CHECK_EQ_U64(p.encoded_width, 48);
  d.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
  d.encoding_size = 5;
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.encoded_width, 15);
  CHECK_EQ_U64(p.layers[0].row_stride, 32);
}

/* The hash grid (spvgen/mlp.h): tiny-cuda-nn's defaults for zero fields; each level's
 * scale, resolution, table size and offset as the header's formulas give them (worked
 * by hand below); the table after the layers; hashed exactly where resolution^D exceeds
 * the table. */
static void test_hash_grid_levels(void) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 3;
  d.output_width = 4;
  d.hidden_width = 64;
  d.hidden_count = 2;
  d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
  spvgen_mlp_config p;
  char msg[256];
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.grid.levels, 16);
  CHECK_EQ_U64(p.desc.grid.features, 2);
  CHECK_EQ_U64(p.desc.grid.log2_hashmap_size, 19);
  CHECK_EQ_U64(p.desc.grid.base_resolution, 16);
  CHECK(p.desc.grid.per_level_scale == 2.0f);
  CHECK_EQ_U64(p.encoded_width, 32);
  CHECK_EQ_U64(p.layers[0].inputs, 32);
  /* level 0: scale 15, resolution 16, 4096 dense entries; level 2: scale 63, 64^3 =
   * 262144 <= 2^19 dense; level 3: scale 127, 128^3 > 2^19: hashed, 2^19 entries */
  CHECK(p.grid[0].scale == 15.0f && p.grid[0].resolution == 16 && p.grid[0].entries == 4096 && !p.grid[0].hashed);
  CHECK(p.grid[2].resolution == 64 && p.grid[2].entries == 262144 && !p.grid[2].hashed);
  CHECK(p.grid[3].resolution == 128 && p.grid[3].entries == 524288 && p.grid[3].hashed);
  CHECK_EQ_U64(p.grid[1].offset, 4096);
  CHECK_EQ_U64(p.grid[3].offset, 4096 + 32768 + 262144);
  CHECK_EQ_U64(p.grid_entries, 4096 + 32768 + 262144 + 13ull * 524288);
  CHECK_EQ_U64(p.grid_offset % 64, 0);
  CHECK(p.grid_offset >= p.layers[2].bias_offset + 8);
  CHECK_EQ_U64(p.weight_bytes, (p.grid_offset + 4ull * p.grid_entries + 15) / 16 * 16);
  CHECK_CONTAINS(p.name, "hashgrid:16x2");
  /* 2-D, a non-integer scale: ceil; a resolution^2 not a multiple of 8 rounds up */
  d.input_width = 2;
  d.grid.levels = 3;
  d.grid.features = 4;
  d.grid.log2_hashmap_size = 8;
  d.grid.base_resolution = 3;
  d.grid.per_level_scale = 1.5f;
  CHECK_MSG(spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(p.grid[0].scale == 2.0f && p.grid[0].resolution == 3 && p.grid[0].entries == 16); /* 9 -> 16 */
  CHECK(p.grid[1].scale == 3.5f && p.grid[1].resolution == 5 && p.grid[1].entries == 32); /* 25 -> 32 */
  CHECK(p.grid[2].scale == 5.75f && p.grid[2].resolution == 7 && p.grid[2].entries == 56); /* 49 -> 56 */
  CHECK_EQ_U64(p.grid_entries, 104);
  CHECK_EQ_U64(p.encoded_width, 12);
  /* the kernels validate for every variant (h100) and the loop variant (vulkan13) */
  spvgen_device_caps h100 = preset("h100"), v13 = preset("vulkan13");
  for (int v = 1; v < SPVGEN_MLP_LAYERS; v++) /* the fused ones (layers takes no encoding) */
    for (int dim = 2; dim <= 3; dim++) {
      d.variant = (spvgen_mlp_variant)v;
      d.input_width = (uint32_t)dim;
      spvgen_kernel k;
      spvgen_status st = spvgen_mlp(&d, v == SPVGEN_MLP_LOOP && dim == 2 ? &v13 : &h100, &k, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s", msg);
      if (st != SPVGEN_OK) continue;
      CHECK(check_words(k.words, k.word_count));
      spvgen_kernel_free(&k);
    }
}

/* Width 256 on the mat variant within the H100's 48 KiB of shared memory (one layer's
 * biases at a time), in the corners of the grid benchmark; the kernels validate. */
static void test_mat_width_256_fits_48k(void) {
  spvgen_device_caps h100 = preset("h100");
  static const uint32_t nets[][4] = {{64, 256, 8, 64}, {1, 256, 8, 1}, {64, 256, 1, 64}, {1, 256, 1, 64}, {32, 128, 8, 32}};
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = nets[i][0];
    d.hidden_width = nets[i][1];
    d.hidden_count = nets[i][2];
    d.output_width = nets[i][3];
    d.variant = SPVGEN_MLP_MAT;
    spvgen_kernel k;
    char msg[512];
    spvgen_mlp_config p;
    spvgen_status st = spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%u-%ux%u-%u: %s", nets[i][0], nets[i][1], nets[i][2], nets[i][3], msg);
    if (st != SPVGEN_OK) continue;
    CHECK(p.shared_bytes <= h100.max_shared_memory);
    CHECK(p.points_per_workgroup >= 32);
    st = spvgen_mlp(&d, &h100, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    CHECK(check_words(k.words, k.word_count));
    spvgen_kernel_free(&k);
  }
}

typedef struct bad_case {
  const char *needle;
  spvgen_status status;
  void (*edit)(spvgen_mlp_desc *d);
} bad_case;

static void e_in0(spvgen_mlp_desc *d) { d->input_width = 0; }
static void e_wide(spvgen_mlp_desc *d) { d->hidden_width = 4096; }
static void e_count(spvgen_mlp_desc *d) { d->hidden_count = 16; }
static void e_gap(spvgen_mlp_desc *d) { d->hidden_width = 0; d->hidden_widths[0] = 4; d->hidden_widths[2] = 4; }
static void e_past(spvgen_mlp_desc *d) { d->hidden_count = 2; d->hidden_widths[5] = 4; }
static void e_nowidth(spvgen_mlp_desc *d) { d->hidden_width = 0; d->hidden_count = 2; }
static void e_act(spvgen_mlp_desc *d) { d->activation = (spvgen_mlp_activation)99; }
static void e_gelu(spvgen_mlp_desc *d) { d->output_activation = SPVGEN_ACTIVATION_GELU; }
static void e_layer_act(spvgen_mlp_desc *d) { d->layer_activations[9] = SPVGEN_MLP_ACT_RELU; }
static void e_s8(spvgen_mlp_desc *d) { d->weight_type = SPVGEN_COMPONENT_S8; }
static void e_e4m3(spvgen_mlp_desc *d) { d->weight_type = SPVGEN_COMPONENT_E4M3; }
static void e_in_type(spvgen_mlp_desc *d) { d->input_type = SPVGEN_COMPONENT_S32; }
static void e_out_type(spvgen_mlp_desc *d) { d->output_type = SPVGEN_COMPONENT_BF16; }
static void e_layout(spvgen_mlp_desc *d) { d->weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL; }
static void e_layout_loop(spvgen_mlp_desc *d) { d->weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL; d->variant = SPVGEN_MLP_LOOP; }
static void e_enc(spvgen_mlp_desc *d) { d->encoding = (spvgen_mlp_encoding)7; }
static void e_enc_size(spvgen_mlp_desc *d) { d->encoding_size = 3; }
static void e_octaves(spvgen_mlp_desc *d) { d->encoding = SPVGEN_MLP_ENCODING_FREQUENCY; d->encoding_size = 17; }
static void e_enc_wide(spvgen_mlp_desc *d) { d->input_width = 64; d->encoding = SPVGEN_MLP_ENCODING_ONE_BLOB; d->encoding_size = 64; }
static void e_variant(spvgen_mlp_desc *d) { d->variant = (spvgen_mlp_variant)9; }
static void e_vec(spvgen_mlp_desc *d) { d->variant = SPVGEN_MLP_VEC; }
static void e_mat(spvgen_mlp_desc *d) { d->variant = SPVGEN_MLP_MAT; }
static void e_ppg(spvgen_mlp_desc *d) { d->points_per_group = 4; d->variant = SPVGEN_MLP_LOOP; }
static void e_bias_loop(spvgen_mlp_desc *d) { d->bias_path = SPVGEN_MLP_BIAS_ADD; d->variant = SPVGEN_MLP_LOOP; }
static void e_bias_bad(spvgen_mlp_desc *d) { d->bias_path = (spvgen_mlp_bias_path)7; d->variant = SPVGEN_MLP_LOOP; }
static void e_wg(spvgen_mlp_desc *d) { d->workgroup_size = 4096; d->variant = SPVGEN_MLP_LOOP; }
static void e_slope(spvgen_mlp_desc *d) { d->leaky_slope = 1.0f / 0.0f; }
static void e_grid_dim(spvgen_mlp_desc *d) { d->encoding = SPVGEN_MLP_ENCODING_HASH_GRID; }
static void e_grid_feat(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 3; d->grid.features = 3; }
static void e_grid_log2(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 2; d->grid.log2_hashmap_size = 25; }
static void e_grid_scale(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 2; d->grid.per_level_scale = 0.5f; }
static void e_grid_size(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 2; d->encoding_size = 4; }
static void e_grid_big(spvgen_mlp_desc *d) {
  e_grid_dim(d);
  d->input_width = 3;
  d->grid.levels = 32;
  d->grid.features = 8;
  d->grid.log2_hashmap_size = 24;
  d->grid.per_level_scale = 1.2f;
}
static void e_grid_levels(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 2; d->grid.levels = 33; }
static void e_grid_res(spvgen_mlp_desc *d) { e_grid_dim(d); d->input_width = 2; d->grid.levels = 32; d->grid.per_level_scale = 2.0f; }
static void e_grid_unused(spvgen_mlp_desc *d) { d->grid.levels = 4; }

static void test_errors_name_the_field(void) {
  static const bad_case cases[] = {
      {"input_width and output_width must be at least 1", SPVGEN_ERROR_INVALID_ARGUMENT, e_in0},
      {"hidden_widths[0] 4096: at most 512", SPVGEN_ERROR_UNSUPPORTED, e_wide},
      {"hidden_count 16", SPVGEN_ERROR_UNSUPPORTED, e_count},
      {"hidden_widths[2] 4 follows a 0 entry", SPVGEN_ERROR_INVALID_ARGUMENT, e_gap},
      {"hidden_widths[5] 4 is past hidden_count 2", SPVGEN_ERROR_INVALID_ARGUMENT, e_past},
      {"hidden_widths[0] is 0 and hidden_width is 0", SPVGEN_ERROR_INVALID_ARGUMENT, e_nowidth},
      {"activation 99 is unknown", SPVGEN_ERROR_INVALID_ARGUMENT, e_act},
      {"output_activation gelu: the MLP's activations are none, relu, leaky_relu, sigmoid, tanh, silu and exp",
       SPVGEN_ERROR_UNSUPPORTED, e_gelu},
      {"layer_activations[9] is set but the network has 2 layers", SPVGEN_ERROR_INVALID_ARGUMENT, e_layer_act},
      {"weight_type s8 needs the vec variant: the vec variant needs cooperativeVector", SPVGEN_ERROR_UNSUPPORTED, e_s8},
      {"weight_type e4m3 needs the vec variant: the vec variant needs cooperativeVector", SPVGEN_ERROR_UNSUPPORTED, e_e4m3},
      {"input_type s32", SPVGEN_ERROR_UNSUPPORTED, e_in_type},
      {"output_type bf16", SPVGEN_ERROR_UNSUPPORTED, e_out_type},
      {"weight_layout optimal needs the vec variant: the vec variant needs cooperativeVector", SPVGEN_ERROR_UNSUPPORTED, e_layout},
      {"weight_layout optimal: only the vec variant reads the driver's inferencing-optimal layout (the loop variant", SPVGEN_ERROR_UNSUPPORTED, e_layout_loop},
      {"encoding 7 is unknown", SPVGEN_ERROR_INVALID_ARGUMENT, e_enc},
      {"encoding_size 3 without an encoding", SPVGEN_ERROR_INVALID_ARGUMENT, e_enc_size},
      {"encoding_size 17: the frequency encoding takes 1 to 16 octaves", SPVGEN_ERROR_INVALID_ARGUMENT, e_octaves},
      {"is 4096 wide: at most 512", SPVGEN_ERROR_UNSUPPORTED, e_enc_wide},
      {"variant 9 is unknown", SPVGEN_ERROR_INVALID_ARGUMENT, e_variant},
      {"the vec variant needs cooperativeVector, which", SPVGEN_ERROR_UNSUPPORTED, e_vec},
      {"the mat variant needs cooperativeMatrix (VK_KHR_cooperative_matrix), which", SPVGEN_ERROR_UNSUPPORTED, e_mat},
      {"points_per_group 4: the loop variant evaluates one point per invocation", SPVGEN_ERROR_UNSUPPORTED, e_ppg},
      {"workgroup_size 4096", SPVGEN_ERROR_INVALID_ARGUMENT, e_wg},
      {"bias_path is a knob of the vec variant (the loop variant", SPVGEN_ERROR_UNSUPPORTED, e_bias_loop},
      {"bias_path 7: not a spvgen_mlp_bias_path", SPVGEN_ERROR_INVALID_ARGUMENT, e_bias_bad},
      {"leaky_slope must be finite", SPVGEN_ERROR_INVALID_ARGUMENT, e_slope},
      {"input_width 4: the hash grid encodes 2-D or 3-D points", SPVGEN_ERROR_UNSUPPORTED, e_grid_dim},
      {"grid.features 3: 1, 2, 4 or 8 features per level", SPVGEN_ERROR_INVALID_ARGUMENT, e_grid_feat},
      {"grid.log2_hashmap_size 25: 4 to 24", SPVGEN_ERROR_INVALID_ARGUMENT, e_grid_log2},
      {"grid.per_level_scale 0.5: a finite factor >= 1", SPVGEN_ERROR_INVALID_ARGUMENT, e_grid_scale},
      {"encoding_size 4: the hash grid takes desc.grid", SPVGEN_ERROR_INVALID_ARGUMENT, e_grid_size},
      {"the hash grid's table is", SPVGEN_ERROR_UNSUPPORTED, e_grid_big},
      {"grid.levels 33: at most 32", SPVGEN_ERROR_UNSUPPORTED, e_grid_levels},
      {"at most 2^24 cells per axis", SPVGEN_ERROR_UNSUPPORTED, e_grid_res},
      {"grid is set but the encoding is none", SPVGEN_ERROR_INVALID_ARGUMENT, e_grid_unused},
  };
  spvgen_device_caps v13 = preset("vulkan13");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = 4;
    d.output_width = 4;
    d.hidden_width = 16;
    cases[i].edit(&d);
    spvgen_mlp_config p;
    memset(&p, 0x5a, sizeof p);
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(&d, &v13, &p, msg, sizeof msg);
    CHECK_MSG(st == cases[i].status, "case %zu (%s): status %s", i, cases[i].needle, spvgen_status_name(st));
    CHECK_CONTAINS(msg, "spvgen_mlp_plan: ");
    CHECK_CONTAINS(msg, cases[i].needle);
    CHECK_EQ_U64(p.layer_count, 0); /* a failed plan is zeroed */
    uint32_t n = 99;
    st = spvgen_mlp_plans(&d, &v13, NULL, 0, &n, msg, sizeof msg);
    CHECK_MSG(st != SPVGEN_OK && n == 0, "case %zu: plans gave %u", i, n);
  }
  char msg[128];
  CHECK(spvgen_mlp_plan(NULL, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "plan is NULL");
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(NULL, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "desc is NULL");
  /* emit refuses a plan it did not make; the module's error says so. */
  spvgen_module *m = spvgen_module_create(NULL);
  memset(&p, 0, sizeof p);
  CHECK(spvgen_mlp_emit(m, &p, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_mlp_emit: plan is NULL or not made by spvgen_mlp_plan");
  spvgen_module_destroy(m);
}

static void test_names_parse(void) {
  spvgen_mlp_variant v;
  CHECK(spvgen_mlp_variant_parse("vec", &v) && v == SPVGEN_MLP_VEC);
  CHECK(spvgen_mlp_variant_parse("loop", &v) && v == SPVGEN_MLP_LOOP);
  CHECK(!spvgen_mlp_variant_parse("simt", &v));
  spvgen_mlp_activation a;
  CHECK(spvgen_mlp_activation_parse("leaky_relu", &a) && a == SPVGEN_MLP_ACT_LEAKY_RELU);
  /* one vocabulary (spvgen/activation.h): gelu is a name; the MLP's plan refuses it */
  CHECK(spvgen_mlp_activation_parse("gelu", &a) && a == SPVGEN_ACTIVATION_GELU);
  CHECK(!spvgen_mlp_activation_parse("swish", &a));
  CHECK_STR_EQ(spvgen_mlp_activation_name(SPVGEN_MLP_ACT_EXP), "exp");
  CHECK_STR_EQ(spvgen_mlp_encoding_name(SPVGEN_MLP_ENCODING_ONE_BLOB), "oneblob");
  CHECK(spvgen_mlp_variant_name((spvgen_mlp_variant)7) == NULL);
}

/* The one-shot kernel of the default-ish network for each variant on h100, and loop on
 * vulkan13, validates; bindings and push constants are as documented. */
static void test_kernels_validate_and_reflect(void) {
  const char *presets[2] = {"h100", "vulkan13"};
  for (int pi = 0; pi < 2; pi++) {
    spvgen_device_caps caps = preset(presets[pi]);
    for (int v = 1; v < SPVGEN_MLP_LAYERS; v++) { /* one kernel each (layers: test_mlp_layers.c) */
      spvgen_mlp_desc d;
      memset(&d, 0, sizeof d);
      d.input_width = 32;
      d.output_width = 16;
      d.hidden_width = 64;
      d.hidden_count = 4;
      d.variant = (spvgen_mlp_variant)v;
      spvgen_mlp_config p;
      char msg[512];
      spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
      if (pi == 1 && v != SPVGEN_MLP_LOOP) { /* vulkan13: no cooperative features */
        CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "%s %d: %s", presets[pi], v, msg);
        continue;
      }
      CHECK_MSG(st == SPVGEN_OK, "%s %s: %s", presets[pi], spvgen_mlp_variant_name((spvgen_mlp_variant)v), msg);
      if (st != SPVGEN_OK) continue;
      spvgen_kernel k;
      st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s", msg);
      if (st != SPVGEN_OK) continue;
      CHECK(check_words(k.words, k.word_count));
      /* Module size, which emission time follows (issue 12's budget): the mat kernel's
       * point fragments and the loop kernel's I/O are run-time loops, not unrolled
       * (3580 and 1644 words; unrolled they were 6811 and 3262). */
      static const size_t max_words[SPVGEN_MLP_VARIANT_COUNT] = {0, 800, 4000, 2000};
      CHECK_MSG(k.word_count <= max_words[v], "%s %s: %zu words, more than %zu", presets[pi],
                spvgen_mlp_variant_name((spvgen_mlp_variant)v), k.word_count, max_words[v]);
      CHECK_EQ_U64(k.info.binding_count, 3);
      CHECK_EQ_U64(k.info.push_constant_size, 4);
      CHECK_EQ_U64(k.info.local_size[0], p.local_size[0]);
      spvgen_kernel_free(&k);
    }
  }
}

/* weight_layout optimal (vec, h100): validates; each layer's matrix offset is a
 * specialization constant (SpecId SPVGEN_MLP_SPEC_MATRIX_OFFSET + l, default the row-major
 * offset) that the kernel info lists; the MulAdds read InferencingOptimalNV (layout 2). */
static void test_optimal_weights_take_offsets_from_spec_constants(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 32;
  d.output_width = 16;
  d.hidden_width = 64;
  d.hidden_count = 4;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_MLP_VEC);
  CHECK_CONTAINS(p.name, " opt");
  spvgen_kernel k;
  spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  CHECK(check_words(k.words, k.word_count));
  CHECK_EQ_U64(k.info.spec_constant_count, p.layer_count);
  for (uint32_t l = 0; l < k.info.spec_constant_count && l < p.layer_count; l++) {
    CHECK_EQ_U64(k.info.spec_constants[l].id, SPVGEN_MLP_SPEC_MATRIX_OFFSET + l);
    CHECK_EQ_U64(k.info.spec_constants[l].value, p.layers[l].matrix_offset);
  }
  char *text = NULL;
  char dm[256];
  CHECK(spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES, &text, dm, sizeof dm) ==
        SPVGEN_OK);
  CHECK_CONTAINS(text, "OpDecorate %matrix_offset_0 SpecId 0");
  CHECK_CONTAINS(text, "OpDecorate %matrix_offset_4 SpecId 4");
  CHECK_CONTAINS(text, "%matrix_offset_0 = OpSpecConstant %uint 0");
  CHECK_CONTAINS(text, "%uint_2"); /* the InferencingOptimalNV layout operand */
  CHECK_CONTAINS(text, "OpCooperativeVectorMatrixMulAddNV");
  spvgen_free_text(text);
  spvgen_kernel_free(&k);
  /* spec_id_base moves the ids (for a module whose own constants use 0..), and the
   * kernel info follows; one past the limit is refused by name. */
  d.spec_id_base = 100;
  st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    CHECK(check_words(k.words, k.word_count));
    for (uint32_t l = 0; l < k.info.spec_constant_count && l < p.layer_count; l++)
      CHECK_EQ_U64(k.info.spec_constants[l].id, 100 + l);
    CHECK(spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES, &text, dm, sizeof dm) == SPVGEN_OK);
    CHECK_CONTAINS(text, "OpDecorate %matrix_offset_0 SpecId 100");
    CHECK_CONTAINS(text, "OpDecorate %matrix_offset_4 SpecId 104");
    spvgen_free_text(text);
    spvgen_kernel_free(&k);
  }
  d.spec_id_base = 0xFFFFFFFFu - SPVGEN_MLP_MAX_SPEC + 1;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spec_id_base");
  d.spec_id_base = 0;
  /* The row-major kernel has no specialization constant. */
  d.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
  CHECK(spvgen_mlp(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(k.info.spec_constant_count, 0);
  spvgen_kernel_free(&k);
  /* Training keeps row-major weights. */
  spvgen_mlp_train_desc t;
  memset(&t, 0, sizeof t);
  t.net = d;
  t.net.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  spvgen_mlp_train_config tp;
  CHECK(spvgen_mlp_train_plan(&t, &caps, &tp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "net.weight_layout 1: training keeps row-major weights");
}

/* The friendly disassembly of a kernel (freed by the caller with spvgen_free_text; NULL
 * and a failed check when it cannot be made). */
static char *kernel_text(const spvgen_kernel *k) {
  char *text = NULL;
  char dm[256];
  CHECK(spvgen_disassemble(k->words, k->word_count, SPVGEN_DIS_FRIENDLY_NAMES, &text, dm, sizeof dm) ==
        SPVGEN_OK);
  return text;
}

/* The plan's network as a function in an otherwise empty module validates. */
static void function_shape_validates(const spvgen_mlp_config *p) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, p, &fi) == SPVGEN_OK);
  spvgen_compute_main(m, "main", 32, 1, 1);
  spvgen_function_end(m);
  size_t count = 0;
  CHECK(check_module(m, &count) != NULL);
  spvgen_module_destroy(m);
}

/* bias_path add (vec, h100): MatrixMul, the bias loaded as a cooperative vector and
 * added; no MatrixMulAdd left; row-major and optimal weights validate; the candidates
 * offer it for networks with biases only. */
static void test_vec_bias_add(void) {
  spvgen_device_caps caps = preset("h100");
  for (int opt = 0; opt < 2; opt++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = 8;
    d.output_width = 8;
    d.hidden_width = 64;
    d.hidden_count = 3;
    d.variant = SPVGEN_MLP_VEC;
    d.bias_path = SPVGEN_MLP_BIAS_ADD;
    d.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    spvgen_kernel k;
    char msg[512];
    spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) return;
    CHECK(check_words(k.words, k.word_count));
    char *text = kernel_text(&k);
    CHECK_CONTAINS(text, "OpCooperativeVectorMatrixMulNV");
    CHECK_CONTAINS(text, "OpCooperativeVectorLoadNV");
    CHECK(text && !strstr(text, "OpCooperativeVectorMatrixMulAddNV"));
    spvgen_free_text(text);
    spvgen_kernel_free(&k);
    spvgen_mlp_config p;
    CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
    CHECK_CONTAINS(p.name, " badd");
  }
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 8;
  d.output_width = 8;
  d.hidden_width = 64;
  d.variant = SPVGEN_MLP_VEC;
  spvgen_mlp_config plans[32];
  uint32_t n = 0, adds = 0;
  CHECK(spvgen_mlp_plans(&d, &caps, plans, 32, &n, NULL, 0) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 32; i++) adds += plans[i].desc.bias_path == SPVGEN_MLP_BIAS_ADD;
  CHECK(adds >= 1);
  d.no_bias = true;
  adds = 0;
  CHECK(spvgen_mlp_plans(&d, &caps, plans, 32, &n, NULL, 0) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 32; i++) adds += plans[i].desc.bias_path == SPVGEN_MLP_BIAS_ADD;
  CHECK_EQ_U64(adds, 0);
}

/* Float8 weights (vec, optimal layout, h100): the MulAdds read the f16 activations and
 * the matrices as E4M3 / E5M2 (the component type values 1000491002 / 1000491003 are
 * operands); the kernel and the function shape validate; refused where they cannot work:
 * row-major weights, the mat and loop variants, a device without the combination,
 * training. */
static void test_vec_float8_weights(void) {
  spvgen_device_caps caps = preset("h100");
  static const spvgen_component_type types[2] = {SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E5M2};
  static const char *const ids[2] = {"%uint_1000491002", "%uint_1000491003"};
  for (int t = 0; t < 2; t++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = 32;
    d.output_width = 16;
    d.hidden_width = 64;
    d.hidden_count = 4;
    d.variant = SPVGEN_MLP_VEC;
    d.weight_type = types[t];
    d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
    d.encoding = t ? SPVGEN_MLP_ENCODING_FREQUENCY : SPVGEN_MLP_ENCODING_NONE;
    d.encoding_size = t ? 4 : 0;
    d.activation = t ? SPVGEN_MLP_ACT_SILU : SPVGEN_MLP_ACT_RELU;
    d.bias_path = t ? SPVGEN_MLP_BIAS_ADD : SPVGEN_MLP_BIAS_AUTO;
    spvgen_kernel k;
    char msg[512];
    spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    CHECK(check_words(k.words, k.word_count));
    char *text = kernel_text(&k);
    CHECK_CONTAINS(text, ids[t]);
    CHECK(text && !strstr(text, ids[1 - t]));
    spvgen_free_text(text);
    spvgen_kernel_free(&k);
    spvgen_mlp_config p;
    CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
    CHECK_CONTAINS(p.name, t ? " e5m2 w" : " e4m3 w");
    /* The function shape in a caller's module. */
    function_shape_validates(&p);
    /* Refusals. */
    spvgen_mlp_desc e = d;
    e.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    CHECK(spvgen_mlp_plan(&e, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "needs weight_layout optimal: the driver reads float8 matrices only in its optimal layouts");
    e = d;
    e.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    e.variant = SPVGEN_MLP_MAT;
    e.bias_path = SPVGEN_MLP_BIAS_AUTO;
    CHECK(spvgen_mlp_plan(&e, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "8-bit weights need the vec variant");
    spvgen_device_caps no8 = caps;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < no8.coopvec_count; i++)
      if (no8.coopvec[i].matrix_interpretation != types[t]) no8.coopvec[kept++] = no8.coopvec[i];
    no8.coopvec_count = kept;
    CHECK(spvgen_mlp_plan(&d, &no8, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "does not list the cooperative vector combination f16 input as");
    spvgen_mlp_train_desc td;
    memset(&td, 0, sizeof td);
    td.net = d;
    spvgen_mlp_train_config tp;
    CHECK(spvgen_mlp_train_plan(&td, &caps, &tp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "training keeps f16 weights");
  }
}

/* int8 weights (vec, h100): row-major and optimal, several activations, an encoding, no
 * bias, the function shape: validate; MatrixMul with the SignedInt8 interpretation (3),
 * no MulAdd; the layout holds s8 rows (16-byte strides) and f32 scales and biases; a device
 * without the (s32 as s8, s8, s32) combination and the loop variant refuse by name. */
static void test_vec_int8_weights(void) {
  spvgen_device_caps caps = preset("h100");
  for (int c = 0; c < 4; c++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = c == 3 ? 3 : 32;
    d.output_width = c == 3 ? 4 : 16;
    d.hidden_width = c == 3 ? 33 : 64;
    d.hidden_count = 4;
    d.variant = SPVGEN_MLP_VEC;
    d.weight_type = SPVGEN_COMPONENT_S8;
    d.weight_layout = c & 1 ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    d.activation = c == 1 ? SPVGEN_MLP_ACT_SILU : c == 2 ? SPVGEN_MLP_ACT_TANH : SPVGEN_MLP_ACT_RELU;
    d.no_bias = c == 2;
    if (c == 3) {
      d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      d.encoding_size = 6;
    }
    spvgen_mlp_config p;
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    CHECK_CONTAINS(p.name, " s8 w");
    for (uint32_t l = 0; l < p.layer_count; l++) {
      CHECK_EQ_U64(p.layers[l].row_stride, (p.layers[l].inputs + 15) / 16 * 16);
      CHECK_EQ_U64(p.layers[l].scale_offset % 16, 0);
      CHECK(p.layers[l].scale_offset >= p.layers[l].matrix_offset + (uint64_t)p.layers[l].row_stride * p.layers[l].outputs);
      if (!d.no_bias)
        CHECK(p.layers[l].bias_offset >= p.layers[l].scale_offset + 4ull * ((p.layers[l].inputs + 3) / 4 * 4) + 4ull * p.layers[l].outputs);
    }
    spvgen_kernel k;
    st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    CHECK(check_words(k.words, k.word_count));
    char *text = kernel_text(&k);
    CHECK_CONTAINS(text, "OpCooperativeVectorMatrixMulNV");
    CHECK_CONTAINS(text, "OpConvertFToS");
    CHECK_CONTAINS(text, "MatrixBSignedComponentsKHR|MatrixResultSignedComponentsKHR");
    CHECK(text && !strstr(text, "OpCooperativeVectorMatrixMulAddNV"));
    spvgen_free_text(text);
    spvgen_kernel_free(&k);
    function_shape_validates(&p);
    if (c == 0) {
      spvgen_device_caps no8 = caps;
      uint32_t kept = 0;
      for (uint32_t i = 0; i < no8.coopvec_count; i++)
        if (no8.coopvec[i].input != SPVGEN_COMPONENT_S32) no8.coopvec[kept++] = no8.coopvec[i];
      no8.coopvec_count = kept;
      CHECK(spvgen_mlp_plan(&d, &no8, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
      CHECK_CONTAINS(msg, "weight_type s8: NVIDIA H100 80GB HBM3 does not list the cooperative vector combination s32 input as s8");
      d.variant = SPVGEN_MLP_LOOP;
      CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
      CHECK_CONTAINS(msg, "weight_type s8: 8-bit weights need the vec variant");
    }
  }
}

/* A caller's own kernel: a weight buffer at (0, 5), the network as a function, called
 * twice (two points per invocation); validates for loop (vulkan13) and vec (h100). */
static void test_function_in_a_callers_kernel(void) {
  for (int run = 0; run < 4; run++) { /* loop, vec; then both with the hash grid (its table in the caller's buffer) */
    int v = run & 1;
    spvgen_device_caps caps = preset(v ? "h100" : "vulkan13");
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = 3;
    d.output_width = 4;
    d.hidden_width = 33;
    d.hidden_count = 2;
    d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
    d.encoding_size = 4;
    if (run >= 2) {
      d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
      d.encoding_size = 0;
      d.grid.levels = 6;
      d.grid.log2_hashmap_size = 10;
    }
    d.variant = v ? SPVGEN_MLP_VEC : SPVGEN_MLP_LOOP;
    spvgen_mlp_config p;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    spvgen_module *m = spvgen_module_create(NULL);
    uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
    spvgen_buffer w = spvgen_buffer_declare(m, spvgen_type_float(m, 16), 0, 5, SPVGEN_BUFFER_READONLY);
    spvgen_buffer io = spvgen_buffer_declare(m, f32, 0, 0, 0);
    spvgen_mlp_function_info fi;
    memset(&fi, 0, sizeof fi);
    fi.weights_buffer = w.variable;
    CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_OK);
    CHECK_EQ_U64(fi.weights_buffer, w.variable);
    CHECK_NE_U64(fi.function, 0);
    spvgen_compute_main(m, "main", 32, 1, 1);
    for (uint32_t call = 0; call < 2; call++) {
      uint32_t parts[3];
      for (uint32_t c = 0; c < 3; c++)
        parts[c] = spvgen_load(m, f32, spvgen_buffer_element(m, &io, spvgen_const_u32(m, call * 8 + c)));
      uint32_t x = v ? spvgen_coop_construct(m, fi.param_type, parts, 3)
                     : spvgen_op_composite_construct(m, fi.param_type, parts, 3);
      uint32_t y = spvgen_op_function_call(m, fi.return_type, fi.function, &x, 1);
      for (uint32_t c = 0; c < 4; c++) {
        uint32_t e = v ? spvgen_coop_extract(m, y, c) : spvgen_op_composite_extract(m, f32, y, &c, 1);
        spvgen_store(m, spvgen_buffer_element(m, &io, spvgen_const_u32(m, call * 8 + 3 + c)), e);
      }
    }
    (void)u32;
    spvgen_function_end(m);
    size_t count = 0;
    CHECK(check_module(m, &count) != NULL);
    spvgen_module_destroy(m);
  }
  /* Inside a function, and the mat variant: refused with a message. */
  spvgen_device_caps caps = preset("vulkan13");
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 2;
  d.output_width = 2;
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "called inside a function");
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_zero_desc_defaults),
      TEST_CASE(test_encodings_widen_the_input),
      TEST_CASE(test_hash_grid_levels),
      TEST_CASE(test_mat_width_256_fits_48k),
      TEST_CASE(test_errors_name_the_field),
      TEST_CASE(test_names_parse),
      TEST_CASE(test_kernels_validate_and_reflect),
      TEST_CASE(test_optimal_weights_take_offsets_from_spec_constants),
      TEST_CASE(test_function_in_a_callers_kernel),
      TEST_CASE(test_vec_bias_add),
      TEST_CASE(test_vec_float8_weights),
      TEST_CASE(test_vec_int8_weights),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
