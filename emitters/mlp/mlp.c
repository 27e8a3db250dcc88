/* emitters/mlp/mlp.c — the MLP template's contract (spvgen/mlp.h): desc checks and
 * defaults, the weight layout, variant choice through the table of variants, candidate
 * enumeration, emit, the one-shot spvgen_mlp and the function shape; plus the helpers the
 * variants share (encoding, activations, I/O). The kernels are in loop.c, vec.c, mat.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "names.h"         /* lib/core: one table of names per enum */
#include "mlp_internal.h"
#include "spvgen/kernel.h"

static const mlp_variant_ops *const variants[SPVGEN_MLP_VARIANT_COUNT] = {
    NULL, /* AUTO */
    &mlp_variant_vec,
    &mlp_variant_mat,
    &mlp_variant_loop,
    &mlp_variant_layers,
};

static const char *const variant_names[SPVGEN_MLP_VARIANT_COUNT] = {"auto", "vec", "mat", "loop", "layers"};
static const char *const encoding_names[SPVGEN_MLP_ENCODING_COUNT] = {"none", "freq", "oneblob",
                                                                      "hashgrid"};

SG_NAMES(spvgen_mlp_variant, variant_names, NULL, spvgen_mlp_variant_name, spvgen_mlp_variant_parse)

/* The activations the MLP implements (spvgen/activation.h lists each template's). */
#define MLP_ACTIVATIONS "none, relu, leaky_relu, sigmoid, tanh, silu and exp"

const char *spvgen_mlp_encoding_name(spvgen_mlp_encoding e) {
  return (unsigned)e < SPVGEN_MLP_ENCODING_COUNT ? encoding_names[e] : NULL;
}

spvgen_status mlp_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, st, "spvgen_mlp_plan", fmt, ap);
  va_end(ap);
  return st;
}

uint32_t mlp_max_width(const spvgen_mlp_config *p) {
  uint32_t w = p->encoded_width;
  for (uint32_t l = 0; l < p->layer_count; l++)
    if (p->layers[l].outputs > w) w = p->layers[l].outputs;
  return w;
}

/* ------------------------------------------------------------ desc checks ---- */

static const char *tname(spvgen_component_type t) { return spvgen_component_type_name(t); }

/* The desc's checks and defaults, phase by phase: each fills what it resolves into p (its
 * desc and layers) or names the field that is wrong. */

/* Input and output widths, the hidden layers' count and widths. */
static spvgen_status resolve_widths(spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  const uint32_t W = SPVGEN_MLP_MAX_WIDTH;
  if (!d->input_width || !d->output_width)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "input_width and output_width must be at least 1 (got %u and %u)",
                    d->input_width, d->output_width);
  if (d->input_width > W || d->output_width > W)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "input_width %u / output_width %u: at most %u", d->input_width,
                    d->output_width, W);
  const uint32_t maxh = SPVGEN_MLP_MAX_LAYERS - 1;
  if (d->hidden_count > maxh)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "hidden_count %u: at most %u hidden layers (SPVGEN_MLP_MAX_LAYERS %u)",
                    d->hidden_count, maxh, SPVGEN_MLP_MAX_LAYERS);
  if (!d->hidden_count) {
    uint32_t n = 0;
    while (n < maxh && d->hidden_widths[n]) n++;
    for (uint32_t i = n; i < maxh; i++)
      if (d->hidden_widths[i])
        return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "hidden_widths[%u] %u follows a 0 entry while hidden_count is 0 "
                        "(set hidden_count, or list the widths without gaps)",
                        i, d->hidden_widths[i]);
    d->hidden_count = n ? n : d->hidden_width ? 1 : 0;
  }
  for (uint32_t i = 0; i < maxh; i++) {
    if (i >= d->hidden_count) {
      if (d->hidden_widths[i])
        return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "hidden_widths[%u] %u is past hidden_count %u", i, d->hidden_widths[i],
                        d->hidden_count);
      continue;
    }
    if (!d->hidden_widths[i]) d->hidden_widths[i] = d->hidden_width;
    if (!d->hidden_widths[i])
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "hidden_widths[%u] is 0 and hidden_width is 0: hidden layer %u has no width",
                      i, i);
    if (d->hidden_widths[i] > W)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "hidden_widths[%u] %u: at most %u", i, d->hidden_widths[i], W);
  }
  if (!d->hidden_width && d->hidden_count) d->hidden_width = d->hidden_widths[0];
  return SPVGEN_OK;
}

/* Every layer's activation (layer_activations over the two defaults), the leaky slope. */
static spvgen_status resolve_activations(spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  if ((unsigned)d->activation >= SPVGEN_MLP_ACT_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "activation %d is unknown",
                    (int)d->activation);
  if ((unsigned)d->output_activation >= SPVGEN_MLP_ACT_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "output_activation %d is unknown",
                    (int)d->output_activation);
  if (d->activation == SPVGEN_ACTIVATION_GELU || d->output_activation == SPVGEN_ACTIVATION_GELU)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "%s gelu: the MLP's activations are %s",
                    d->activation == SPVGEN_ACTIVATION_GELU ? "activation" : "output_activation", MLP_ACTIVATIONS);
  if (!d->activation) d->activation = SPVGEN_MLP_ACT_RELU;
  if (!d->output_activation) d->output_activation = SPVGEN_MLP_ACT_NONE;
  p->layer_count = d->hidden_count + 1;
  for (uint32_t l = 0; l < SPVGEN_MLP_MAX_LAYERS; l++) {
    spvgen_mlp_activation a = d->layer_activations[l];
    if ((unsigned)a >= SPVGEN_MLP_ACT_COUNT)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "layer_activations[%u] %d is unknown", l, (int)a);
    if (a == SPVGEN_ACTIVATION_GELU)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "layer_activations[%u] gelu: the MLP's activations are %s",
                      l, MLP_ACTIVATIONS);
    if (l >= p->layer_count) {
      if (a)
        return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "layer_activations[%u] is set but the network has %u layers", l,
                        p->layer_count);
      continue;
    }
    if (!a) a = l + 1 == p->layer_count ? d->output_activation : d->activation;
    d->layer_activations[l] = a;
  }
  if (!isfinite(d->leaky_slope))
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "leaky_slope must be finite");
  if (d->leaky_slope == 0.0f) d->leaky_slope = 0.01f;
  return SPVGEN_OK;
}

/* The input encoding: encoding_size, the hash grid, the encoded width. */
static spvgen_status resolve_encoding(spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  const uint32_t W = SPVGEN_MLP_MAX_WIDTH;
  switch (d->encoding) {
  case SPVGEN_MLP_ENCODING_NONE:
    if (d->encoding_size)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "encoding_size %u without an encoding", d->encoding_size);
    p->encoded_width = d->input_width;
    break;
  case SPVGEN_MLP_ENCODING_FREQUENCY:
    if (!d->encoding_size) d->encoding_size = 8;
    if (d->encoding_size > 16)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "encoding_size %u: the frequency encoding takes 1 to 16 octaves",
                      d->encoding_size);
    p->encoded_width = d->input_width * 2 * d->encoding_size;
    break;
  case SPVGEN_MLP_ENCODING_ONE_BLOB:
    if (!d->encoding_size) d->encoding_size = 16;
    if (d->encoding_size > 128)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "encoding_size %u: the one-blob encoding takes 1 to 128 bins",
                      d->encoding_size);
    p->encoded_width = d->input_width * d->encoding_size;
    break;
  case SPVGEN_MLP_ENCODING_HASH_GRID: {
    spvgen_status st = mlp_grid_resolve(p, msg, size);
    if (st != SPVGEN_OK) return st;
    break;
  }
  default:
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "encoding %d is unknown",
                    (int)d->encoding);
  }
  if (d->encoding != SPVGEN_MLP_ENCODING_HASH_GRID) {
    static const spvgen_mlp_hash_grid none;
    if (memcmp(&d->grid, &none, sizeof none))
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "grid is set but the encoding is %s (the hash grid's parameters need "
                      "encoding hashgrid)", encoding_names[d->encoding]);
  }
  if (p->encoded_width > W)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the %s encoding of %u components with encoding_size %u is %u wide: at "
                    "most %u", encoding_names[d->encoding], d->input_width, d->encoding_size,
                    p->encoded_width, W);
  return SPVGEN_OK;
}

/* Weight, point and layout types, the spec ids, the variant's range. */
static spvgen_status resolve_types(spvgen_mlp_config *p, char *msg, size_t size) {
  const spvgen_mlp_desc *d = &p->desc;
  if (d->weight_type != SPVGEN_COMPONENT_F16 && d->weight_type != SPVGEN_COMPONENT_E4M3 &&
      d->weight_type != SPVGEN_COMPONENT_E5M2 && d->weight_type != SPVGEN_COMPONENT_S8)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "weight_type %s: f16, s8, e4m3 or e5m2 weights", tname(d->weight_type));
  if (d->input_type != SPVGEN_COMPONENT_F16 && d->input_type != SPVGEN_COMPONENT_F32)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "input_type %s: input points are f16 or f32", tname(d->input_type));
  if (d->output_type != SPVGEN_COMPONENT_F16 && d->output_type != SPVGEN_COMPONENT_F32)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "output_type %s: output points are f16 or f32", tname(d->output_type));
  if (d->weight_layout != SPVGEN_MLP_WEIGHTS_ROW_MAJOR && d->weight_layout != SPVGEN_MLP_WEIGHTS_OPTIMAL &&
      d->weight_layout != SPVGEN_MLP_WEIGHTS_AUTO)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "weight_layout %d is unknown",
                    (int)d->weight_layout);
  if (d->spec_id_base > 0xFFFFFFFFu - SPVGEN_MLP_MAX_SPEC)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "spec_id_base %u: at most %u (SpecIds for the layers follow it)", d->spec_id_base,
                    0xFFFFFFFFu - SPVGEN_MLP_MAX_SPEC);
  if ((unsigned)d->variant >= SPVGEN_MLP_VARIANT_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "variant %d is unknown",
                    (int)d->variant);
  if ((unsigned)d->addressing >= SPVGEN_ADDRESSING_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "addressing %d is not descriptors (0) or device-address (1)", (int)d->addressing);
  return SPVGEN_OK;
}

/* The layers and the weight buffer's layout (mlp.h: matrices at multiples of 64, biases
 * at multiples of 16, the hash grid's table after them). */
static void resolve_layout(spvgen_mlp_config *p) {
  const spvgen_mlp_desc *d = &p->desc;
  uint64_t off = 0, flops = 0;
  uint32_t inputs = p->encoded_width;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    spvgen_mlp_layer *L = &p->layers[l];
    L->inputs = inputs;
    L->outputs = l + 1 == p->layer_count ? d->output_width : d->hidden_widths[l];
    bool s8 = d->weight_type == SPVGEN_COMPONENT_S8;
    L->row_stride = mlp_round_up(L->inputs * (s8 ? 1 : 2), 16);
    L->activation = d->layer_activations[l];
    off = (off + 63) & ~63ull;
    L->matrix_offset = off;
    off += (uint64_t)L->row_stride * L->outputs;
    L->scale_offset = 0;
    if (s8) { /* 1/s_l x inputs (padded to 4), out_scale[outputs] */
      off = (off + 15) & ~15ull;
      L->scale_offset = off;
      off += 4ull * mlp_round_up(L->inputs, 4) + 4ull * L->outputs;
    }
    if (!d->no_bias) {
      off = (off + 15) & ~15ull;
      L->bias_offset = off;
      off += (uint64_t)L->outputs * (s8 ? 4 : 2);
    }
    flops += 2ull * L->inputs * L->outputs;
    inputs = L->outputs;
  }
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) { /* the table after the layers */
    off = (off + 63) & ~63ull;
    p->grid_offset = off;
    off += 2ull * p->grid_entries * d->grid.features;
  }
  p->weight_bytes = (off + 15) & ~15ull;
  p->flops_per_point = flops;
}

/* Checks and resolves everything but the knobs; fills p's layers. */
static spvgen_status resolve(const spvgen_mlp_desc *in, spvgen_mlp_config *p, char *msg,
                             size_t size) {
  if (!in) return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "desc is NULL");
  memset(p, 0, sizeof *p);
  p->desc = *in;
  spvgen_status st = resolve_widths(p, msg, size);
  if (st == SPVGEN_OK) st = resolve_activations(p, msg, size);
  if (st == SPVGEN_OK) st = resolve_encoding(p, msg, size);
  if (st == SPVGEN_OK) st = resolve_types(p, msg, size);
  if (st == SPVGEN_OK) resolve_layout(p);
  return st;
}

void mlp_plan_name(spvgen_mlp_config *p) {
  const spvgen_mlp_desc *d = &p->desc;
  /* Without snprintf (a plan is made per module): ek_str truncates as it does. */
  char hidden[64];
  ek_str h = ek_str_start(hidden, sizeof hidden);
  bool same = true;
  for (uint32_t i = 1; i < d->hidden_count; i++) same &= d->hidden_widths[i] == d->hidden_widths[0];
  if (d->hidden_count && same) { /* "%ux%u-" */
    ek_str_u32(&h, d->hidden_widths[0]);
    ek_str_put(&h, "x");
    ek_str_u32(&h, d->hidden_count);
    ek_str_put(&h, "-");
  } else {
    size_t n = 0; /* the length snprintf would have reached, as before */
    for (uint32_t i = 0; i < d->hidden_count && n + 8 < sizeof hidden; i++) {
      n += ek_str_u32(&h, d->hidden_widths[i]) + 1;
      ek_str_put(&h, i + 1 < d->hidden_count ? "," : "-");
    }
  }
  char enc[24];
  ek_str e = ek_str_start(enc, sizeof enc);
  if (d->encoding) { /* " %s:%u", the hash grid " hashgrid:%ux%u" (levels x features) */
    ek_str_put(&e, " ");
    ek_str_put(&e, encoding_names[d->encoding]);
    ek_str_put(&e, ":");
    if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
      ek_str_u32(&e, d->grid.levels);
      ek_str_put(&e, "x");
      ek_str_u32(&e, d->grid.features);
    } else {
      ek_str_u32(&e, d->encoding_size);
    }
  }
  /* "%s %u-%.48s%u %s%.23s f16 w%u" */
  ek_str s = ek_str_start(p->name, sizeof p->name);
  ek_str_put(&s, variant_names[p->variant]);
  ek_str_put(&s, " ");
  ek_str_u32(&s, d->input_width);
  ek_str_put(&s, "-");
  ek_str_putn(&s, hidden, 48);
  ek_str_u32(&s, d->output_width);
  ek_str_put(&s, " ");
  ek_str_put(&s, spvgen_activation_name(d->hidden_count ? d->activation : d->output_activation));
  ek_str_putn(&s, enc, 23);
  ek_str_put(&s, " ");
  ek_str_put(&s, spvgen_component_type_name(d->weight_type));
  ek_str_put(&s, " w");
  ek_str_u32(&s, p->local_size[0]);
  if (d->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) ek_str_put(&s, " opt");
  if (p->variant == SPVGEN_MLP_VEC && d->points_per_group > 1) { /* points per invocation: " p%u" */
    ek_str_put(&s, " p");
    ek_str_u32(&s, d->points_per_group);
  }
  if (p->variant == SPVGEN_MLP_VEC && d->bias_path == SPVGEN_MLP_BIAS_ADD && !d->no_bias)
    ek_str_put(&s, " badd");
  if (p->variant == SPVGEN_MLP_VEC && d->vec_rows) { /* pieces of rows: " r%u" */
    ek_str_put(&s, " r");
    ek_str_u32(&s, d->vec_rows);
  }
  if (p->variant == SPVGEN_MLP_VEC && d->vec_stage) ek_str_put(&s, " stage");
  if (d->layer_loop) ek_str_put(&s, " loop");
  if (p->variant == SPVGEN_MLP_LAYERS && p->gemm_count) { /* the GEMMs: " coopmat2 g%u" */
    ek_str_put(&s, " ");
    ek_str_put(&s, spvgen_gemm_variant_name(p->gemms[p->layer_gemm[0]].variant));
    ek_str_put(&s, " g");
    ek_str_u32(&s, p->gemm_count);
    if (p->pad_width) { /* hidden widths padded: " pad64" */
      ek_str_put(&s, " pad");
      ek_str_u32(&s, p->pad_width);
    }
  }
  if (p->variant == SPVGEN_MLP_MAT) { /* the block of points and the accumulator: " p%u%s" */
    ek_str_put(&s, " p");
    ek_str_u32(&s, d->points_per_group);
    ek_str_put(&s, d->f16_accumulation ? " acc16" : "");
    ek_str_put(&s, d->mat_rows ? " rows" : "");
    if (d->mat_slab) { /* the streamed form: " slab%u" */
      ek_str_put(&s, " slab");
      ek_str_u32(&s, d->mat_slab);
    }
  }
  if (d->output_path == SPVGEN_MLP_OUTPUT_STAGED) ek_str_put(&s, " ostage");
}

static const spvgen_device_caps *default_caps(const spvgen_device_caps *caps, spvgen_device_caps *tmp) {
  if (caps) return caps;
  spvgen_caps_preset("vulkan13", tmp);
  return tmp;
}

/* A plan for a resolved config with a concrete variant (and weight layout). */
spvgen_status mlp_plan_variant(const spvgen_device_caps *caps, const spvgen_mlp_config *base,
                               const spvgen_mlp_desc *knobs, spvgen_mlp_variant v, spvgen_mlp_config *p,
                               char *msg, size_t size) {
  *p = *base;
  if (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_AUTO) /* mlp_select resolves it; a bug otherwise */
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "weight_layout auto reached a variant's plan");
  if (knobs) {
    p->desc.workgroup_size = knobs->workgroup_size;
    p->desc.points_per_group = knobs->points_per_group;
    p->desc.f16_accumulation = knobs->f16_accumulation;
    p->desc.mat_rows = knobs->mat_rows;
    p->desc.mat_slab = knobs->mat_slab;
    p->desc.bias_path = knobs->bias_path;
    p->desc.vec_rows = knobs->vec_rows;
    p->desc.vec_stage = knobs->vec_stage;
    p->desc.layer_loop = knobs->layer_loop;
    p->desc.output_path = knobs->output_path;
  }
  p->desc.variant = v;
  p->variant = v;
  if (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL && v != SPVGEN_MLP_VEC)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "weight_layout optimal: only the vec variant reads the driver's "
                    "inferencing-optimal layout (the %s variant reads row-major weights)",
                    variant_names[v]);
  if (p->desc.weight_type != SPVGEN_COMPONENT_F16 && v != SPVGEN_MLP_VEC)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "weight_type %s: 8-bit weights need the vec variant (cooperative vectors "
                    "with 8-bit interpretations); the %s variant reads f16 weights",
                    tname(p->desc.weight_type), variant_names[v]);
  if ((p->desc.mat_rows || p->desc.mat_slab) && v != SPVGEN_MLP_MAT)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "%s is a knob of the mat variant (the %s variant evaluates a point per invocation)",
                    p->desc.mat_rows ? "mat_rows" : "mat_slab", variant_names[v]);
  if ((p->desc.vec_rows || p->desc.vec_stage || p->desc.layer_loop) && v != SPVGEN_MLP_VEC)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "%s is a knob of the vec variant (the %s variant has its own structure)",
                    p->desc.vec_rows ? "vec_rows" : p->desc.vec_stage ? "vec_stage" : "layer_loop", variant_names[v]);
  if ((unsigned)p->desc.bias_path >= SPVGEN_MLP_BIAS_PATH_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "bias_path %d: not a spvgen_mlp_bias_path",
                    (int)p->desc.bias_path);
  if (p->desc.bias_path != SPVGEN_MLP_BIAS_AUTO && v != SPVGEN_MLP_VEC)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "bias_path is a knob of the vec variant (the %s variant adds its biases one way)",
                    variant_names[v]);
  if ((unsigned)p->desc.output_path >= SPVGEN_MLP_OUTPUT_PATH_COUNT)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "output_path %d: not a spvgen_mlp_output_path",
                    (int)p->desc.output_path);
  if (p->desc.output_path == SPVGEN_MLP_OUTPUT_STAGED && v != SPVGEN_MLP_VEC && v != SPVGEN_MLP_MAT)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "output_path staged is a knob of the vec and mat variants (the %s variant writes its "
                    "output one way)",
                    variant_names[v]);
  const bool bda = p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  spvgen_status st = variants[v]->plan(caps, p, msg, size);
  if (st != SPVGEN_OK) return st;
  /* Device addresses: each workgroup moves the input and output pointers to its first
   * point in 64-bit arithmetic (mlp_io_rebase), so points may lie past 4 GB. */
  if (bda) p->features |= SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64;
  /* Every variant: f16 weights, and the Vulkan memory model of the module it is emitted
   * into (spvgen_module_create's default). */
  p->features |= SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                 SPVGEN_FEATURE_VULKAN_MEMORY_MODEL;
  /* A subgroup size the kernel assumes is pinned at pipeline creation. */
  if (p->subgroup_size) p->features |= SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL;
  uint64_t missing = p->features & ~caps->features;
  if (missing)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the %s variant needs %s, which %s lacks",
                    variant_names[v], spvgen_feature_name(spvgen_feature_first(missing)),
                    caps->name);
  if (p->local_size[0] > caps->max_workgroup_invocations ||
      p->local_size[0] > caps->max_workgroup_size[0])
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "workgroup_size %u exceeds %s's limit %u", p->local_size[0], caps->name,
                    caps->max_workgroup_invocations);
  if (v != SPVGEN_MLP_LAYERS && caps->max_push_constants_size &&
      caps->max_push_constants_size < (bda ? MLP_BDA_PUSH_SIZE : 4))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "%s has %u bytes of push constants; the kernel takes %u",
                    caps->name, caps->max_push_constants_size, bda ? MLP_BDA_PUSH_SIZE : 4);
  mlp_plan_name(p);
  /* layers: the sum of its GEMM kernels' estimates (layers.c) */
  if (v != SPVGEN_MLP_LAYERS) p->compile_ms = mlp_compile_ms(caps, p);
  return SPVGEN_OK;
}

spvgen_status spvgen_mlp_plan(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                              spvgen_mlp_config *plan, char *msg, size_t size) {
  return mlp_plan_desc(desc, caps, true, plan, msg, size);
}

spvgen_status mlp_plan_desc(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps, bool layers,
                            spvgen_mlp_config *plan, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!plan) return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "plan is NULL");
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) {
    memset(plan, 0, sizeof *plan);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  caps = default_caps(caps, &tmp);
  spvgen_mlp_config base;
  spvgen_status st = resolve(desc, &base, msg, size);
  if (st != SPVGEN_OK) {
    memset(plan, 0, sizeof *plan);
    return st;
  }
  const spvgen_mlp_desc *bd = &base.desc;
  if (bd->variant == SPVGEN_MLP_LAYERS) { /* no knobs of its own: its GEMMs choose */
    st = mlp_plan_variant(caps, &base, NULL, SPVGEN_MLP_LAYERS, plan, msg, size);
    if (st != SPVGEN_OK) {
      memset(plan, 0, sizeof *plan);
      return st;
    }
    snprintf(plan->selection, sizeof plan->selection, "desc");
    return st;
  }
  if (bd->variant != SPVGEN_MLP_AUTO && bd->weight_layout != SPVGEN_MLP_WEIGHTS_AUTO && bd->workgroup_size &&
      bd->points_per_group) {
    /* everything fixed by the desc */
    st = mlp_plan_variant(caps, &base, NULL, bd->variant, plan, msg, size);
    if (st != SPVGEN_OK) {
      memset(plan, 0, sizeof *plan);
      return st;
    }
    snprintf(plan->selection, sizeof plan->selection, "desc");
    plan->estimated_ns_per_point = mlp_select_estimate(caps, plan);
    return st;
  }
  /* The variant, the layout or knobs are open: emitters/mlp/select.c. The optimal layout
   * and float8 / int8 weights are the vec variant's: its reason when it cannot. */
  bool fp8 = bd->weight_type != SPVGEN_COMPONENT_F16;
  bool vec_only = bd->variant == SPVGEN_MLP_AUTO && (bd->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL || fp8);
  spvgen_mlp_config sel = base;
  if (vec_only) sel.desc.variant = SPVGEN_MLP_VEC;
  st = mlp_select(caps, &sel, layers, plan, msg, size);
  if (st == SPVGEN_OK) return st;
  memset(plan, 0, sizeof *plan);
  if (vec_only && msg && size) {
    char why[512];
    const char *prefix = "spvgen_mlp_plan: ";
    snprintf(why, sizeof why, "%s", strncmp(msg, prefix, strlen(prefix)) ? msg : msg + strlen(prefix));
    if (fp8)
      mlp_fail(msg, size, st, "weight_type %s needs the vec variant: %s", tname(base.desc.weight_type), why);
    else
      mlp_fail(msg, size, st, "weight_layout optimal needs the vec variant: %s", why);
  }
  return st;
}

spvgen_status spvgen_mlp_plans(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                               spvgen_mlp_config *plans, uint32_t max, uint32_t *count,
                               char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!count || (max && !plans))
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "count is NULL, or plans is NULL with max > 0");
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) return SPVGEN_ERROR_INVALID_ARGUMENT;
  caps = default_caps(caps, &tmp);
  spvgen_mlp_config base;
  spvgen_status st = resolve(desc, &base, msg, size);
  if (st != SPVGEN_OK) return st;
  uint32_t n = 0;
  enum { MAX_CAND = 16 };
  spvgen_mlp_desc cand[MAX_CAND];
  for (int v = 1; v < SPVGEN_MLP_VARIANT_COUNT; v++) {
    if (base.desc.variant != SPVGEN_MLP_AUTO && base.desc.variant != (spvgen_mlp_variant)v) continue;
    /* layers only where the desc names it (AUTO takes it only where the measurements say
     * it wins: emitters/mlp/select.c; the candidates are AUTO's fused variants) */
    if (v == SPVGEN_MLP_LAYERS && base.desc.variant != SPVGEN_MLP_LAYERS) continue;
    /* weight_layout auto: the vec variant's plans in both layouts, row-major first */
    for (int opt = 0; opt < 2; opt++) {
      spvgen_mlp_config b = base;
      if (base.desc.weight_layout == SPVGEN_MLP_WEIGHTS_AUTO) {
        if (opt && v != SPVGEN_MLP_VEC) continue;
        b.desc.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      } else if (opt) {
        continue;
      }
      uint32_t c = variants[v]->candidates(caps, &b.desc, cand, MAX_CAND);
      for (uint32_t i = 0; i < c; i++) {
        spvgen_mlp_config p;
        if (mlp_plan_variant(caps, &b, &cand[i], (spvgen_mlp_variant)v, &p, NULL, 0) != SPVGEN_OK)
          continue;
        snprintf(p.selection, sizeof p.selection, "candidate");
        p.estimated_ns_per_point = v == SPVGEN_MLP_LAYERS ? 0 : mlp_select_estimate(caps, &p);
        if (n < max) plans[n] = p;
        n++;
      }
    }
  }
  *count = n;
  if (n == 0) {
    /* No candidate of the table fits the knobs the desc sets; the desc may still name a
     * plan of its own (a tile the table does not list): then that is the one candidate,
     * as spvgen_mlp_plan would give it, and otherwise its reason is the refusal. */
    spvgen_mlp_config p;
    st = spvgen_mlp_plan(desc, caps, &p, msg, size);
    if (st != SPVGEN_OK) return st;
    if (max) plans[0] = p;
    *count = 1;
  }
  return SPVGEN_OK;
}

static bool plan_ok(const spvgen_mlp_config *plan) {
  return plan && plan->variant > SPVGEN_MLP_AUTO && plan->variant < SPVGEN_MLP_VARIANT_COUNT &&
         plan->desc.variant == plan->variant && plan->local_size[0] && plan->layer_count &&
         plan->layer_count <= SPVGEN_MLP_MAX_LAYERS;
}

/* The alignment a device-address kernel needs of binding i's address (0 input, 1
 * weights, 2 output), beyond the 4 bytes every address has: 16 where the kernel makes
 * 16-byte or cooperative accesses to it (whose pointers the specs want 16-byte aligned:
 * cooperative vector loads and stores of whole points, the mat variant's 16-byte loads
 * of f16 points and of weights, its fragment loads of the weights and stores of the
 * output), and 64 for the vec variant's weights (GLSL_NV_cooperative_vector: the matrix
 * offset must be 64-byte aligned, "these alignment requirements also apply to the base
 * of the array"). The point offsets of every workgroup keep that alignment: a point's
 * bytes are then a multiple of 16. */
static uint32_t mlp_address_alignment(const spvgen_mlp_config *p, uint32_t i) {
  const spvgen_mlp_desc *d = &p->desc;
  if (p->variant == SPVGEN_MLP_VEC) {
    if (i == 1) return 64;
    uint32_t row = i == 0 ? d->input_width * spvgen_component_type_size(d->input_type)
                          : d->output_width * spvgen_component_type_size(d->output_type);
    return row % 16 == 0 ? 16 : 0;
  }
  if (p->variant == SPVGEN_MLP_MAT) {
    if (i == 1) return 16;
    if (i == 0)
      return mlp_mat_input_chunks(d) ? 16 : 0;
    return d->output_width % 16 == 0 ? 16 : 0;
  }
  return 0;
}

uint32_t spvgen_mlp_kernel_count(const spvgen_mlp_config *plan) {
  if (!plan_ok(plan)) return 0;
  return plan->variant == SPVGEN_MLP_LAYERS ? plan->layer_count + (plan->pad_width ? 1u : 0u) : 1u;
}

uint64_t spvgen_mlp_workspace_bytes(const spvgen_mlp_config *plan, uint64_t points) {
  if (!plan_ok(plan) || plan->variant != SPVGEN_MLP_LAYERS) return 0;
  return mlp_layers_workspace_bytes(plan, points);
}

spvgen_status spvgen_mlp_dispatch_for(const spvgen_mlp_config *plan, uint32_t index, uint64_t points,
                                      spvgen_mlp_dispatch *out, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!plan_ok(plan) || !out)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_mlp_dispatch_for: %s",
                    out ? "plan is NULL or not made by spvgen_mlp_plan" : "dispatch is NULL");
  const uint32_t n = spvgen_mlp_kernel_count(plan);
  if (index >= n)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "spvgen_mlp_dispatch_for: dispatch %u: the plan has %u", index, n);
  if (points < 1 || points > SPVGEN_MLP_MAX_POINTS)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "spvgen_mlp_dispatch_for: points %llu: 1 to %llu", (unsigned long long)points,
                    (unsigned long long)SPVGEN_MLP_MAX_POINTS);
  if (plan->variant == SPVGEN_MLP_LAYERS) return mlp_layers_dispatch(plan, index, points, out, msg, size);
  memset(out, 0, sizeof *out);
  spvgen_mlp_groups(plan, points, out->groups);
  const uint32_t count = (uint32_t)points;
  memcpy(out->push, &count, 4);
  out->push_size = 4; /* device addresses: the runner writes the pointers after it */
  out->binding_count = 3;
  for (uint32_t i = 0; i < 3; i++) out->bindings[i].buffer = (spvgen_mlp_buffer)i;
  return SPVGEN_OK;
}

spvgen_status spvgen_mlp_emit(spvgen_module *m, const spvgen_mlp_config *plan,
                              spvgen_kernel_info *info) {
  /* A plan of several kernels (the layers variant) emitted through the one-kernel call
   * would give a module that computes only the first layer: refused, never partial. */
  if (m && plan_ok(plan) && spvgen_mlp_kernel_count(plan) > 1)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit: the plan (%s) is %u kernels (a GEMM per layer); emit each "
                              "with spvgen_mlp_emit_kernel (spvgen_mlp_kernel_count)",
                              plan->name, spvgen_mlp_kernel_count(plan)),
           spvgen_module_status(m);
  return spvgen_mlp_emit_kernel(m, plan, 0, info);
}

spvgen_status spvgen_mlp_emit_kernel(spvgen_module *m, const spvgen_mlp_config *plan, uint32_t index,
                                     spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!plan_ok(plan))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit: plan is NULL or not made by spvgen_mlp_plan"),
           spvgen_module_status(m);
  if (index >= spvgen_mlp_kernel_count(plan))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit_kernel: kernel %u: the plan has %u", index,
                              spvgen_mlp_kernel_count(plan)),
           spvgen_module_status(m);
  if (plan->variant == SPVGEN_MLP_LAYERS) return mlp_layers_emit_kernel(m, plan, index, info);
  const bool bda = plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda && spvgen_module_addressing(m) != SpvAddressingModelPhysicalStorageBuffer64)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit: the plan takes device addresses; create the module with "
                              "spvgen_module_desc.addressing = SpvAddressingModelPhysicalStorageBuffer64 (%u)",
                              (unsigned)SpvAddressingModelPhysicalStorageBuffer64),
           spvgen_module_status(m);
  variants[plan->variant]->emit(m, plan);
  if (info) {
    memset(info, 0, sizeof *info);
    info->entry_point = "main";
    for (int i = 0; i < 3; i++) info->local_size[i] = plan->local_size[i];
    info->required_subgroup_size = plan->subgroup_size;
    info->push_constant_size = bda ? MLP_BDA_PUSH_SIZE : 4;
    info->push_field_count = 1;
    info->push_fields[0].name = "points";
    info->push_fields[0].size = 4;
    static const char *const names[3] = {"input", "weights", "output"};
    static const uint32_t access[3] = {SPVGEN_ACCESS_READ, SPVGEN_ACCESS_READ, SPVGEN_ACCESS_WRITE};
    ek_info_storage_buffers(info, 3, names, access);
    /* The weights are static (the optimal layout's matrices past weight_bytes have
     * device-defined sizes: weight_bytes is what is known); the points grow with the
     * point count, a push constant. */
    info->bindings[1].min_size = plan->weight_bytes;
    for (uint32_t i = 0; bda && i < 3; i++) { /* the pointers after the point count */
      info->bindings[i].kind = SPVGEN_BINDING_DEVICE_ADDRESS;
      info->bindings[i].binding = 0;
      info->bindings[i].address_offset = 8u + 8u * i;
      info->bindings[i].alignment = mlp_address_alignment(plan, i);
    }
    info->binding_sizes = ek_sizes_per_count;
    info->size_args[0] = (uint64_t)plan->desc.input_width * spvgen_component_type_size(plan->desc.input_type);
    info->size_args[2] = (uint64_t)plan->desc.output_width * spvgen_component_type_size(plan->desc.output_type);
    if (plan->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
      static const char *const offsets[SPVGEN_MLP_MAX_LAYERS] = {
          "matrix_offset_0",  "matrix_offset_1",  "matrix_offset_2",  "matrix_offset_3",
          "matrix_offset_4",  "matrix_offset_5",  "matrix_offset_6",  "matrix_offset_7",
          "matrix_offset_8",  "matrix_offset_9",  "matrix_offset_10", "matrix_offset_11",
          "matrix_offset_12", "matrix_offset_13", "matrix_offset_14", "matrix_offset_15"};
      static const char *const pieces[SPVGEN_MLP_MAX_LAYERS] = {
          "matrix_piece_bytes_0",  "matrix_piece_bytes_1",  "matrix_piece_bytes_2",  "matrix_piece_bytes_3",
          "matrix_piece_bytes_4",  "matrix_piece_bytes_5",  "matrix_piece_bytes_6",  "matrix_piece_bytes_7",
          "matrix_piece_bytes_8",  "matrix_piece_bytes_9",  "matrix_piece_bytes_10", "matrix_piece_bytes_11",
          "matrix_piece_bytes_12", "matrix_piece_bytes_13", "matrix_piece_bytes_14", "matrix_piece_bytes_15"};
      info->spec_constant_count = plan->layer_count;
      for (uint32_t l = 0; l < plan->layer_count; l++) {
        info->spec_constants[l].id = mlp_spec_id(&plan->desc, l);
        info->spec_constants[l].size = 4;
        info->spec_constants[l].value = plan->layers[l].matrix_offset;
        info->spec_constants[l].name = offsets[l];
      }
      /* vec_rows: the piece stride of each layer it splits. */
      for (uint32_t l = 0; l < plan->layer_count; l++) {
        const spvgen_mlp_layer *L = &plan->layers[l];
        uint32_t R = plan->desc.vec_rows;
        if (!R || R >= L->outputs) continue;
        spvgen_spec_constant *sc = &info->spec_constants[info->spec_constant_count++];
        sc->id = mlp_spec_id(&plan->desc, SPVGEN_MLP_SPEC_PIECE_BYTES + l);
        sc->size = 4;
        sc->value = (uint64_t)R * L->row_stride;
        sc->name = pieces[l];
      }
    }
  }
  return spvgen_module_status(m);
}

uint32_t spvgen_mlp_addressing_model(const spvgen_mlp_config *plan) {
  return plan && plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS
             ? (uint32_t)SpvAddressingModelPhysicalStorageBuffer64
             : (uint32_t)SpvAddressingModelLogical;
}

spvgen_status spvgen_mlp(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                         spvgen_kernel *kernel, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernel) return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernel is NULL");
  memset(kernel, 0, sizeof *kernel);
  spvgen_mlp_config plan;
  /* one kernel: AUTO chooses among the fused variants (a desc naming layers gets the
   * error below) */
  spvgen_status st = mlp_plan_desc(desc, caps, false, &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plan)});
  if (!m) return mlp_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  spvgen_kernel_info info;
  if (spvgen_mlp_kernel_count(&plan) > 1) {
    spvgen_module_destroy(m);
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "spvgen_mlp: the %s plan has %u kernels (one per layer); emit each with "
                    "spvgen_mlp_emit_kernel", variant_names[plan.variant], spvgen_mlp_kernel_count(&plan));
  }
  st = spvgen_mlp_emit(m, &plan, &info);
  return ek_kernel_finish(m, st, &info, kernel, "spvgen_mlp", msg, size);
}

spvgen_status spvgen_mlp_weight_layout(const spvgen_mlp_config *plan, spvgen_mlp_layer *layers,
                                       uint64_t *total) {
  if (!plan || !plan->layer_count || plan->layer_count > SPVGEN_MLP_MAX_LAYERS)
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (layers) memcpy(layers, plan->layers, plan->layer_count * sizeof *layers);
  if (total) *total = plan->weight_bytes;
  return SPVGEN_OK;
}

void spvgen_mlp_groups(const spvgen_mlp_config *plan, uint64_t points, uint32_t groups[3]) {
  if (!groups) return;
  spvgen_mlp_dispatch first;
  if (plan && plan->variant == SPVGEN_MLP_LAYERS &&
      spvgen_mlp_dispatch_for(plan, 0, points ? points : 1, &first, NULL, 0) == SPVGEN_OK) {
    for (int j = 0; j < 3; j++) groups[j] = first.groups[j];
    return;
  }
  uint64_t per = plan && plan->points_per_workgroup ? plan->points_per_workgroup : 1;
  uint64_t g = (points + per - 1) / per;
  groups[0] = g > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)g;
  groups[1] = groups[2] = 1;
}

spvgen_status spvgen_mlp_emit_function(spvgen_module *m, const spvgen_mlp_config *plan,
                                       spvgen_mlp_function_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!plan_ok(plan) || !info)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit_function: %s",
                              info ? "plan is NULL or not made by spvgen_mlp_plan" : "info is NULL"),
           spvgen_module_status(m);
  if (plan->variant == SPVGEN_MLP_LAYERS)
    return spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                              "spvgen_mlp_emit_function: the layers variant runs a GEMM per layer and has "
                              "no per-point function shape (plan the vec or loop variant)"),
           spvgen_module_status(m);
  if (!variants[plan->variant]->emit_function)
    return spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                              "spvgen_mlp_emit_function: the %s variant evaluates a subgroup's "
                              "tile of points and has no per-point function shape (plan the vec "
                              "or loop variant)", variant_names[plan->variant]),
           spvgen_module_status(m);
  if (spvgen_block_open(m))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_emit_function: called inside a function (end it "
                              "first: the network is a function of its own)"),
           spvgen_module_status(m);
  if (plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS)
    return spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                              "spvgen_mlp_emit_function: the function reads a descriptor weight "
                              "buffer (info.weights_buffer); plan with addressing descriptors"),
           spvgen_module_status(m);
  if (plan->desc.vec_stage)
    return spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                              "spvgen_mlp_emit_function: vec_stage stages the activations in a "
                              "shared-memory row per invocation of the plan's workgroup, which the "
                              "function shape does not know (plan without vec_stage)"),
           spvgen_module_status(m);
  /* output_path is the kernel's (how its workgroup stores): the function returns the
   * point's output to the caller, whichever the plan holds. */
  variants[plan->variant]->emit_function(m, plan, info);
  return spvgen_module_status(m);
}

/* ------------------------------------------------------- shared emission ---- */

void mlp_encode(spvgen_module *m, const spvgen_mlp_config *p, const uint32_t *in, uint32_t *out) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t f32 = ek_f32_type(m);
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) { /* needs the table: emitters/mlp/grid.c */
    spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                       "mlp_encode: the hash grid is encoded by mlp_grid_* (a bug in spvgen)");
    return;
  }
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
    for (uint32_t c = 0; c < d->input_width; c++) out[c] = in[c];
    return;
  }
  const uint32_t F = d->encoding_size;
  if (d->encoding == SPVGEN_MLP_ENCODING_FREQUENCY) {
    /* sin(2^k pi x) = sin(2 pi t) with t = 2^(k-1) x: reduced to a = 2 pi fract(t) - pi in
     * [-pi, pi), where GLSL's sin and cos are accurate: sin(2 pi t) = -sin(a),
     * cos(2 pi t) = -cos(a). */
    const double pi = 3.14159265358979323846;
    uint32_t two_pi = spvgen_const_f32(m, (float)(2.0 * pi)), mpi = spvgen_const_f32(m, (float)-pi);
    for (uint32_t c = 0; c < d->input_width; c++)
      for (uint32_t k = 0; k < F; k++) {
        uint32_t t = spvgen_op_f_mul(m, f32, in[c], spvgen_const_f32(m, ldexpf(1.0f, (int)k - 1)));
        uint32_t a = spvgen_glsl_fma(m, f32, spvgen_glsl_fract(m, f32, t), two_pi, mpi);
        out[c * 2 * F + 2 * k] = spvgen_op_f_negate(m, f32, spvgen_glsl_sin(m, f32, a));
        out[c * 2 * F + 2 * k + 1] = spvgen_op_f_negate(m, f32, spvgen_glsl_cos(m, f32, a));
      }
    return;
  }
  /* One-blob: exp(-((x - (i + 0.5) / B) * B)^2 / 2) = exp(-(x * B - i - 0.5)^2 / 2). */
  uint32_t mhalf = spvgen_const_f32(m, -0.5f);
  for (uint32_t c = 0; c < d->input_width; c++) {
    uint32_t xb = spvgen_op_f_mul(m, f32, in[c], spvgen_const_f32(m, (float)F));
    for (uint32_t i = 0; i < F; i++) {
      uint32_t t = spvgen_op_f_sub(m, f32, xb, spvgen_const_f32(m, (float)i + 0.5f));
      uint32_t e = spvgen_op_f_mul(m, f32, spvgen_op_f_mul(m, f32, t, t), mhalf);
      out[c * F + i] = spvgen_glsl_exp(m, f32, e);
    }
  }
}

ek_buffer mlp_weights_buffer(spvgen_module *m, spvgen_mlp_function_info *info) {
  uint32_t f16 = spvgen_type_float(m, 16);
  if (!info->weights_buffer) {
    ek_buffer b = ek_buffer_decl(m, f16, 1, true, "weights");
    info->weights_buffer = b.var;
    return b;
  }
  ek_buffer b;
  memset(&b, 0, sizeof b);
  b.var = info->weights_buffer;
  b.elem_type = f16;
  b.elem_ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, f16);
  b.array_ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer,
                                    spvgen_type_runtime_array_strided(m, f16, 2));
  return b;
}

void mlp_declare_io(spvgen_module *m, const spvgen_mlp_config *p, mlp_io *io) {
  if (p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS) {
    /* { uint points; input, weights, output pointers at 8, 16, 24 } */
    uint32_t u32 = ek_u32_type(m);
    static const char *const lead_names[1] = {"points"};
    static const char *const names[3] = {"input", "weights", "output"};
    uint32_t types[3] = {ek_type(m, p->desc.input_type), spvgen_type_float(m, 16), ek_type(m, p->desc.output_type)};
    static const bool ro[3] = {true, true, false};
    ek_buffer b[3];
    io->pc = ek_push_constants_bda(m, &u32, lead_names, 1, types, ro, names, 3, b);
    io->in = b[0];
    io->weights = b[1];
    io->out = b[2];
    return;
  }
  io->in = ek_buffer_decl(m, ek_type(m, p->desc.input_type), 0, true, "input");
  io->out = ek_buffer_decl(m, ek_type(m, p->desc.output_type), 2, false, "output");
  uint32_t u32 = ek_u32_type(m);
  io->pc = spvgen_push_constants(m, &u32, 1);
  spvgen_member_name(m, io->pc.struct_type, 0, "points");
}

uint32_t mlp_load_input(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                        uint32_t point, uint32_t c) {
  uint32_t v = ek_load_elem(m, &io->in, ek_iadd(m, ek_mul_imm(m, point, p->desc.input_width), c));
  return ek_convert(m, v, p->desc.input_type, SPVGEN_COMPONENT_F32);
}

void mlp_store_output(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                      uint32_t point, uint32_t c, uint32_t v) {
  ek_store_elem(m, &io->out, ek_iadd(m, ek_mul_imm(m, point, p->desc.output_width), c),
                ek_convert(m, v, SPVGEN_COMPONENT_F32, p->desc.output_type));
}

/* Loads point `point` as the network function's parameter (see mlp_emit_pointwise_kernel). */
static uint32_t pointwise_load(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                               const spvgen_mlp_function_info *fi, uint32_t point, bool array_shape) {
  const spvgen_mlp_desc *d = &p->desc;
  /* Cooperative vectors: a point whose bytes are a multiple of 16 is one
   * OpCooperativeVectorLoadNV (the offsets then are multiples of 16, as the instruction
   * requires; a bound buffer holds under 4 GiB, so point * bytes fits in 32 bits), not a
   * load per component. */
  uint32_t in_row = d->input_width * spvgen_component_type_size(d->input_type);
  if (!array_shape && in_row % 16 == 0) {
    uint32_t t = spvgen_type_coopvec(m, ek_type(m, d->input_type), d->input_width);
    const spvgen_memory_operands mem = mlp_mem16(&io->in);
    uint32_t v = spvgen_coopvec_load(m, t, ek_array(m, &io->in), ek_mul_imm(m, point, in_row), &mem);
    return d->input_type == SPVGEN_COMPONENT_F32 ? v : spvgen_coop_convert(m, fi->param_type, v);
  }
  if (array_shape && d->input_width > MLP_UNROLLED_IO) {
    /* A run-time loop into a Function array, loaded whole: a few instructions instead of
     * four per component (the driver unrolls it where that pays). */
    uint32_t var = ek_local(m, fi->param_type, 0);
    ek_for f;
    uint32_t c = ek_for_begin_var(m, &f, ek_local(m, ek_u32_type(m), 0), ek_u32(m, 0), ek_u32(m, d->input_width),
                                  ek_u32(m, 1), SpvLoopControlMaskNone);
    spvgen_store(m, ek_at(m, var, c), mlp_load_input(m, p, io, point, c));
    ek_for_end(m, &f);
    return spvgen_load(m, fi->param_type, var);
  }
  uint32_t comps[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t c = 0; c < d->input_width; c++) comps[c] = mlp_load_input(m, p, io, point, ek_u32(m, c));
  return array_shape ? spvgen_op_composite_construct(m, fi->param_type, comps, d->input_width)
                     : spvgen_coop_construct(m, fi->param_type, comps, d->input_width);
}

/* Stores the network's result y for point `point` (one OpCooperativeVectorStoreNV where
 * the row is a multiple of 16 bytes, as for the load). */
static void pointwise_store(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                            uint32_t point, uint32_t y, bool array_shape) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t out_row = d->output_width * spvgen_component_type_size(d->output_type);
  if (!array_shape && out_row % 16 == 0) {
    uint32_t t = spvgen_type_coopvec(m, ek_type(m, d->output_type), d->output_width);
    uint32_t v = d->output_type == SPVGEN_COMPONENT_F32 ? y : spvgen_coop_convert(m, t, y);
    const spvgen_memory_operands mem = mlp_mem16(&io->out);
    spvgen_coopvec_store(m, ek_array(m, &io->out), v, ek_mul_imm(m, point, out_row), &mem);
    return;
  }
  uint32_t f32 = ek_f32_type(m);
  if (array_shape && d->output_width > MLP_UNROLLED_IO) {
    uint32_t var = ek_local(m, spvgen_type_of(m, y), 0);
    spvgen_store(m, var, y);
    ek_for f;
    uint32_t c = ek_for_begin_var(m, &f, ek_local(m, ek_u32_type(m), 0), ek_u32(m, 0), ek_u32(m, d->output_width),
                                  ek_u32(m, 1), SpvLoopControlMaskNone);
    mlp_store_output(m, p, io, point, c, spvgen_load(m, f32, ek_at(m, var, c)));
    ek_for_end(m, &f);
    return;
  }
  for (uint32_t c = 0; c < d->output_width; c++) {
    uint32_t v = array_shape ? spvgen_op_composite_extract(m, f32, y, &c, 1) : spvgen_coop_extract(m, y, c);
    mlp_store_output(m, p, io, point, ek_u32(m, c), v);
  }
}

/* The invocation's first point: ppi points per invocation, one after another: a
 * workgroup of W invocations owns W * ppi consecutive points, and step j of invocation i
 * takes point base + j W + i (adjacent invocations, adjacent points: the loads and stores
 * stay coalesced). One point each: the global invocation index. The built-ins are
 * declared before the entry point (ids), loaded after it (pointwise_base). */
typedef struct pointwise_ids {
  uint32_t gid, wg, lid;
} pointwise_ids;

/* wg_lid: the workgroup's and the invocation's ids even for one point per invocation. */
static pointwise_ids pointwise_declare(spvgen_module *m, uint32_t ppi, bool wg_lid) {
  pointwise_ids b = {0, 0, 0};
  if (ppi == 1 && !wg_lid) {
    b.gid = ek_builtin_v3(m, SpvBuiltInGlobalInvocationId);
  } else {
    b.wg = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
    b.lid = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
  }
  return b;
}

static uint32_t pointwise_base(spvgen_module *m, const pointwise_ids *b, uint32_t ppi, uint32_t W) {
  if (b->gid) return ek_load_v3_component(m, b->gid, 0);
  return ek_iadd(m, ek_mul_imm(m, ek_load_v3_component(m, b->wg, 0), W * ppi), ek_load_v3_component(m, b->lid, 0));
}

/* The vec variant's staged output (SPVGEN_MLP_OUTPUT_STAGED): each invocation stores its
 * point's output vector into its row of a shared array of 16-byte chunks (rows of the
 * output's cpr chunks + 1: the extra chunk keeps the eight invocations of a 16-byte
 * access phase in distinct banks), and after a workgroup barrier the workgroup writes
 * the W points' rows as W * cpr consecutive chunks, chunk t = k W + lid, point t / cpr.
 * A direct cooperative-vector store of a 128-byte point writes 16-byte pieces 128 bytes
 * apart across a subgroup, each half of a 32-byte sector. */
typedef struct pointwise_ostage {
  uint32_t stage;  /* the Workgroup array of uvec4 (0: direct stores) */
  uint32_t v4;     /* uvec4 */
  uint32_t cpr;    /* 16-byte chunks per output point */
  ek_buffer out4;  /* binding 2 as 16-byte chunks */
  /* The element form (an output point of no whole number of chunks): stage is an array
   * of the output type, the workgroup's points back to back (W x output_width), and
   * after the barrier invocation i writes elements i, i + W, ... of the workgroup's
   * output, consecutive elements on consecutive invocations. elem is the output type
   * (0: the chunk form). */
  uint32_t elem;
} pointwise_ostage;

/* The element form: the point's outputs into its place in the stage, then the
 * workgroup's W points' elements to binding 2, the ones inside the point count. */
static void pointwise_store_staged_elems(spvgen_module *m, const spvgen_mlp_config *p, const pointwise_ostage *o,
                                         const ek_buffer *out, uint32_t y, uint32_t lid, uint32_t first, uint32_t n,
                                         bool again) {
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t W = p->local_size[0], ow = d->output_width;
  uint32_t t = spvgen_type_coopvec(m, o->elem, ow);
  uint32_t v = d->output_type == SPVGEN_COMPONENT_F32 ? y : spvgen_coop_convert(m, t, y);
  uint32_t row = ek_mul_imm(m, lid, ow);
  for (uint32_t c = 0; c < ow; c++)
    spvgen_store(m, ek_at(m, o->stage, ek_add_imm(m, row, c)), spvgen_coop_extract(m, v, c));
  spvgen_workgroup_barrier(m);
  /* the workgroup's first element and the end of the points' elements */
  uint32_t base = ek_mul_imm(m, first, ow), end = ek_mul_imm(m, n, ow);
  for (uint32_t k = 0; k < ow; k++) {
    uint32_t e = ek_add_imm(m, lid, k * W), at = ek_iadd(m, base, e);
    ek_guard inside = ek_guard_begin(m, ek_ult(m, at, end));
    ek_store_elem(m, out, at, spvgen_load(m, o->elem, ek_at(m, o->stage, e)));
    ek_guard_end(m, inside);
  }
  if (again) spvgen_workgroup_barrier(m); /* every element read before the next point's */
}

static void pointwise_store_staged(spvgen_module *m, const spvgen_mlp_config *p, const pointwise_ostage *o,
                                   uint32_t y, uint32_t lid, uint32_t first, uint32_t n, bool again) {
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t W = p->local_size[0], row = o->cpr + 1;
  uint32_t t = spvgen_type_coopvec(m, ek_type(m, d->output_type), d->output_width);
  uint32_t v = d->output_type == SPVGEN_COMPONENT_F32 ? y : spvgen_coop_convert(m, t, y);
  spvgen_coopvec_store(m, o->stage, v, ek_mul_imm(m, lid, row * 16), NULL);
  spvgen_workgroup_barrier(m);
  for (uint32_t k = 0; k < o->cpr; k++) {
    uint32_t c = ek_add_imm(m, lid, k * W);
    uint32_t r = ek_div_imm(m, c, o->cpr), col = ek_mod_imm(m, c, o->cpr);
    uint32_t point = ek_iadd(m, first, r);
    ek_guard inside = ek_guard_begin(m, ek_ult(m, point, n));
    uint32_t chunk = spvgen_load(m, o->v4, ek_at(m, o->stage, ek_iadd(m, ek_mul_imm(m, r, row), col)));
    ek_store_elem(m, &o->out4, ek_iadd(m, ek_mul_imm(m, point, o->cpr), col), chunk);
    ek_guard_end(m, inside);
  }
  if (again) spvgen_workgroup_barrier(m); /* every chunk read before the next point's rows */
}

void mlp_emit_pointwise_kernel(spvgen_module *m, const spvgen_mlp_config *p,
                               const mlp_variant_ops *ops, bool array_shape) {
  const spvgen_mlp_desc *d = &p->desc;
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  mlp_io io;
  memset(&io, 0, sizeof io);
  const bool bda = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda) {
    /* the network reads the weights through the pointer in the block: the block first */
    mlp_declare_io(m, p, &io);
    ops->emit_function_at(m, p, &fi, &io.weights);
  } else {
    ops->emit_function(m, p, &fi);
    mlp_declare_io(m, p, &io);
  }
  const uint32_t ppi = d->points_per_group > 1 ? d->points_per_group : 1, W = p->local_size[0];
  /* device addresses: the workgroup's id and the invocation's (the points are counted
   * from the workgroup's first, below) */
  const bool uniform = !array_shape;
  pointwise_ostage os = {0, 0, 0, {0}, 0};
  if (uniform && d->output_path == SPVGEN_MLP_OUTPUT_STAGED) {
    const uint32_t row = d->output_width * spvgen_component_type_size(d->output_type);
    if (row % 16) { /* the element form */
      os.elem = ek_type(m, d->output_type);
      os.stage = ek_shared_array(m, os.elem, W * d->output_width, "output_stage").var;
    } else {
      os.v4 = spvgen_type_vector(m, ek_u32_type(m), 4);
      os.cpr = row / 16;
      os.stage = ek_shared_array(m, os.v4, W * (os.cpr + 1), "output_stage").var;
      if (!bda) os.out4 = ek_buffer_view(m, &io.out, os.v4, 2, false, "output4");
    }
  }
  pointwise_ids ids = pointwise_declare(m, bda ? 2 : ppi, os.stage != 0);
  (void)ek_f32_type(m);
  spvgen_compute_main(m, "main", W, 1, 1);
  uint32_t base = bda ? 0 : pointwise_base(m, &ids, ppi, W);
  /* staged output: the invocation's index and the workgroup's first point (0 with device
   * addresses: the points count from it) */
  uint32_t lid = 0, first = 0;
  if (os.stage) {
    lid = ek_load_v3_component(m, ids.lid, 0);
    first = bda ? ek_u32(m, 0) : ek_mul_imm(m, ek_load_v3_component(m, ids.wg, 0), W * ppi);
  }
  uint32_t n = spvgen_push_constant_load(m, &io.pc, 0);
  ek_guard group = {0};
  if (bda) {
    /* The workgroup's W * ppi points from its first: the input and output pointers move
     * there in 64 bits, n becomes the points left from it, and the points are indexed
     * from 0 (the invocation's id), so no index grows with the point count. A workgroup
     * past the count (n points left 0) does nothing (a uniform branch). */
    uint32_t wg_first = ek_mul_imm(m, ek_load_v3_component(m, ids.wg, 0), W * ppi);
    group = ek_guard_begin(m, ek_ult(m, wg_first, n));
    n = mlp_io_rebase(m, p, &io, wg_first, n);
    base = ek_load_v3_component(m, ids.lid, 0);
    if (os.stage && !os.elem) os.out4 = ek_buffer_view(m, &io.out, os.v4, 2, false, "output4");
  }
  /* Cooperative vectors: the network runs in uniform control flow (every invocation
   * active), on the point clamped to the last one; only the store is guarded. The one
   * branch around it, n != 0, is uniform (a push constant). The loop variant keeps the
   * whole point under its guard. vk_cooperative_vector_perf's kernel is written the same
   * way. On the H100 / H200 it measured within the run-to-run spread of the guarded
   * form: (b) 0.8-8 % faster in each of four same-call pairs, (a) 0.2-1 % slower
   * (bench/results/mlp-h100-2026-11-26.md). */
  uint32_t last = 0;
  ek_guard any = ek_guard_begin(m, uniform && !bda ? spvgen_op_i_not_equal(m, ek_bool_type(m), n, ek_u32(m, 0)) : 0);
  if (uniform) last = ek_isub(m, n, ek_u32(m, 1));
  /* Uniform: every point's input is loaded first (the loads of later points overlap the
   * first point's network), then each point is evaluated and stored. */
  uint32_t points[8], xs[8];
  for (uint32_t j = 0; uniform && j < ppi; j++) {
    points[j] = ek_add_imm(m, base, j * W);
    xs[j] = pointwise_load(m, p, &io, &fi, ek_umin(m, points[j], last), false);
  }
  for (uint32_t j = 0; j < ppi; j++) {
    uint32_t point = uniform ? points[j] : ek_add_imm(m, base, j * W);
    uint32_t in_bounds = ek_ult(m, point, n);
    ek_guard whole = ek_guard_begin(m, uniform ? 0 : in_bounds);
    uint32_t x = uniform ? xs[j] : pointwise_load(m, p, &io, &fi, point, array_shape);
    uint32_t y = spvgen_op_function_call(m, fi.return_type, fi.function, &x, 1);
    if (os.stage) { /* every invocation takes part (the barrier); the copy is guarded */
      if (os.elem)
        pointwise_store_staged_elems(m, p, &os, &io.out, y, lid, ek_add_imm(m, first, j * W), n, j + 1 < ppi);
      else
        pointwise_store_staged(m, p, &os, y, lid, ek_add_imm(m, first, j * W), n, j + 1 < ppi);
    } else {
      ek_guard store = ek_guard_begin(m, uniform ? in_bounds : 0);
      pointwise_store(m, p, &io, point, y, array_shape);
      ek_guard_end(m, store);
    }
    ek_guard_end(m, whole);
  }
  ek_guard_end(m, any);
  if (bda) ek_guard_end(m, group);
  spvgen_function_end(m);
}

uint32_t mlp_io_rebase(spvgen_module *m, const spvgen_mlp_config *p, mlp_io *io, uint32_t first, uint32_t n) {
  if (!io->in.ptr_type) return n;
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t u32 = ek_u32_type(m);
  ek_buffer_rebase(m, &io->in, ek_batch_bytes64(m, first, ek_u32(m, d->input_width),
                                                spvgen_component_type_size(d->input_type)));
  ek_buffer_rebase(m, &io->out, ek_batch_bytes64(m, first, ek_u32(m, d->output_width),
                                                 spvgen_component_type_size(d->output_type)));
  return spvgen_op_select(m, u32, ek_ult(m, first, n), spvgen_op_i_sub(m, u32, n, first), ek_u32(m, 0));
}
