/* emitters/mlp/grid.c — the multiresolution hash grid encoding (spvgen/mlp.h,
 * SPVGEN_MLP_ENCODING_HASH_GRID): Instant-NGP's encoding in tiny-cuda-nn's
 * parameterization. The plan's side (mlp_grid_resolve: the levels, their tables' sizes
 * and offsets), and the emission every variant shares: one level of a point's lookup and
 * D-linear interpolation (the forward), the same level's gradient scattered into the
 * table's gradient with atomic adds (training), and a run-time loop over the levels.
 *
 * The level parameters (scale, resolution, entries, first entry, hashed or dense) are
 * compile-time values kept in Function arrays with constant initializers, indexed by the
 * level: a run-time level loop (with the Unroll hint, so that the driver may unroll it
 * and fold the arrays into constants) holds one copy of a level's code, however many
 * levels there are. */
#include <math.h>
#include <string.h>

#include "mlp_internal.h"

/* ------------------------------------------------------------------ plan ---- */

/* tiny-cuda-nn's coherent prime hash: the first factor is 1, which keeps neighbouring
 * cells along x in neighbouring entries (memory coherence). */
static const uint32_t grid_primes[3] = {1u, 2654435761u, 805459861u};

spvgen_status mlp_grid_resolve(spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  spvgen_mlp_hash_grid *g = &d->grid;
  if (d->encoding_size)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "encoding_size %u: the hash grid takes desc.grid (levels, features, "
                    "log2_hashmap_size, base_resolution, per_level_scale) and leaves "
                    "encoding_size 0", d->encoding_size);
  if (d->input_width != 2 && d->input_width != 3)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "input_width %u: the hash grid encodes 2-D or 3-D points", d->input_width);
  if (!g->levels) g->levels = 16;
  if (!g->features) g->features = 2;
  if (!g->log2_hashmap_size) g->log2_hashmap_size = 19;
  if (!g->base_resolution) g->base_resolution = 16;
  if (g->per_level_scale == 0.0f) g->per_level_scale = 2.0f;
  if (g->levels > SPVGEN_MLP_MAX_GRID_LEVELS)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "grid.levels %u: at most %u", g->levels,
                    SPVGEN_MLP_MAX_GRID_LEVELS);
  if (g->features != 1 && g->features != 2 && g->features != 4 && g->features != 8)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "grid.features %u: 1, 2, 4 or 8 features per level", g->features);
  if (g->log2_hashmap_size < 4 || g->log2_hashmap_size > 24)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "grid.log2_hashmap_size %u: 4 to 24", g->log2_hashmap_size);
  if (!isfinite(g->per_level_scale) || g->per_level_scale < 1.0f)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "grid.per_level_scale %g: a finite factor >= 1", (double)g->per_level_scale);
  const uint32_t D = d->input_width, T = 1u << g->log2_hashmap_size;
  uint64_t entries = 0;
  for (uint32_t l = 0; l < g->levels; l++) {
    struct spvgen_mlp_grid_level *L = &p->grid[l];
    double s = exp2((double)l * log2((double)g->per_level_scale)) * g->base_resolution - 1.0;
    /* Cells are floor(scale x + 0.5) in f32: exact integers only below 2^24. */
    if (!(s < 16777216.0))
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "grid level %u has scale %.6g (base_resolution %u, per_level_scale %g): "
                      "at most 2^24 cells per axis (f32 positions)",
                      l, s, g->base_resolution, (double)g->per_level_scale);
    L->scale = (float)s;
    L->resolution = (uint32_t)ceilf(L->scale) + 1;
    uint64_t dense = 1;
    for (uint32_t k = 0; k < D; k++) dense = dense > T ? dense : dense * L->resolution;
    L->hashed = dense > T;
    L->entries = L->hashed ? T : (uint32_t)((dense + 7) / 8 * 8);
    L->offset = (uint32_t)entries;
    entries += L->entries;
  }
  /* The table in the weight buffer: element indices stay 32-bit with room to spare. */
  if (entries * g->features * 2 > (1ull << 30))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the hash grid's table is %llu bytes (%llu entries of %u f16 features): at "
                    "most 1 GiB (fewer levels, a smaller log2_hashmap_size)",
                    (unsigned long long)(entries * g->features * 2), (unsigned long long)entries,
                    g->features);
  p->grid_entries = (uint32_t)entries;
  p->encoded_width = g->levels * g->features;
  return SPVGEN_OK;
}

/* -------------------------------------------------------------- emission ---- */

static uint32_t const_array_u32(spvgen_module *m, const uint32_t *v, uint32_t n) {
  uint32_t u32 = ek_u32_type(m), ids[SPVGEN_MLP_MAX_GRID_LEVELS];
  for (uint32_t i = 0; i < n; i++) ids[i] = ek_u32(m, v[i]);
  uint32_t t = spvgen_type_array(m, u32, n);
  return ek_local(m, t, spvgen_const_composite(m, t, ids, n));
}

void mlp_grid_begin(spvgen_module *m, const spvgen_mlp_config *p, const ek_buffer *table,
                    mlp_grid *g) {
  memset(g, 0, sizeof *g);
  g->p = p;
  g->table = *table;
  g->f32 = ek_f32_type(m);
  g->u32 = ek_u32_type(m);
  const uint32_t L = p->desc.grid.levels;
  uint32_t res[SPVGEN_MLP_MAX_GRID_LEVELS], ent[SPVGEN_MLP_MAX_GRID_LEVELS];
  uint32_t off[SPVGEN_MLP_MAX_GRID_LEVELS], hashed[SPVGEN_MLP_MAX_GRID_LEVELS];
  uint32_t scale[SPVGEN_MLP_MAX_GRID_LEVELS];
  for (uint32_t l = 0; l < L; l++) {
    res[l] = p->grid[l].resolution;
    ent[l] = p->grid[l].entries;
    off[l] = p->grid[l].offset;
    hashed[l] = p->grid[l].hashed;
    scale[l] = spvgen_const_f32(m, p->grid[l].scale);
  }
  uint32_t ft = spvgen_type_array(m, g->f32, L);
  g->scale = ek_local(m, ft, spvgen_const_composite(m, ft, scale, L));
  g->res = const_array_u32(m, res, L);
  g->entries = const_array_u32(m, ent, L);
  g->offset = const_array_u32(m, off, L);
  g->hashed = const_array_u32(m, hashed, L);
  spvgen_name(m, g->scale, "grid_scale");
  spvgen_name(m, g->res, "grid_resolution");
  spvgen_name(m, g->entries, "grid_entries");
  spvgen_name(m, g->offset, "grid_offset");
  spvgen_name(m, g->hashed, "grid_hashed");
}

static uint32_t level_u32(spvgen_module *m, const mlp_grid *g, uint32_t arr, uint32_t level) {
  return spvgen_load(m, g->u32, ek_at(m, arr, level));
}

/* Level `level` (a u32 id) of the point x[D] (f32 ids): the 2^D corners' first feature
 * entries, counted from the start of the whole table ((offset + index) * features), and
 * their interpolation weights. */
static void level_corners(spvgen_module *m, const mlp_grid *g, uint32_t level, const uint32_t *x,
                          uint32_t *entry, uint32_t *weight) {
  const spvgen_mlp_config *p = g->p;
  const uint32_t D = p->desc.input_width, F = p->desc.grid.features;
  uint32_t f32 = g->f32, u32 = g->u32, i32 = spvgen_type_int(m, 32, true);
  uint32_t scale = spvgen_load(m, f32, ek_at(m, g->scale, level));
  uint32_t res = level_u32(m, g, g->res, level), size = level_u32(m, g, g->entries, level);
  uint32_t off = level_u32(m, g, g->offset, level);
  uint32_t hashed = spvgen_op_i_not_equal(m, ek_bool_type(m), level_u32(m, g, g->hashed, level), ek_u32(m, 0));
  uint32_t cell[3], frac[3], rest[3];
  uint32_t one = spvgen_const_f32(m, 1.0f);
  for (uint32_t k = 0; k < D; k++) {
    /* pos = scale x + 0.5 (fused where the device fuses; Vulkan allows either) */
    uint32_t pos = spvgen_glsl_fma(m, f32, scale, x[k], spvgen_const_f32(m, 0.5f));
    uint32_t fl = spvgen_glsl_floor(m, f32, pos);
    cell[k] = spvgen_op_bitcast(m, u32, spvgen_op_convert_f_to_s(m, i32, fl)); /* (uint32_t)(int) */
    frac[k] = spvgen_op_f_sub(m, f32, pos, fl);
    rest[k] = spvgen_op_f_sub(m, f32, one, frac[k]);
  }
  uint32_t mask = ek_isub(m, size, ek_u32(m, 1));
  uint32_t idxv = ek_local(m, u32, 0);
  for (uint32_t c = 0; c < (1u << D); c++) {
    uint32_t w = 0, dense = 0, hash = 0, stride = 0;
    for (uint32_t k = 0; k < D; k++) {
      bool up = (c >> k) & 1;
      uint32_t ck = up ? ek_add_imm(m, cell[k], 1) : cell[k];
      uint32_t wk = up ? frac[k] : rest[k];
      w = k ? spvgen_op_f_mul(m, f32, w, wk) : wk;
      /* dense: c0 + c1 r + c2 r^2; hashed: c0 ^ c1 p1 ^ c2 p2 (u32, wrapping) */
      dense = k ? ek_iadd(m, dense, ek_imul(m, ck, stride)) : ck;
      stride = k ? ek_imul(m, stride, res) : res;
      uint32_t hk = ek_mul_imm(m, ck, grid_primes[k]); /* primes[0] = 1: folds */
      hash = k ? spvgen_op_bitwise_xor(m, u32, hash, hk) : hk;
    }
    /* Both modulo the level's entries: a power of two for hashed levels (a mask), any
     * multiple of 8 for dense ones (an index past the grid's far edge wraps, as in
     * tiny-cuda-nn). The division runs only where a dense index does wrap: a branch, not
     * a select, which would compute it for every corner of every level. */
    spvgen_store(m, idxv, spvgen_op_bitwise_and(m, u32, hash, mask));
    ek_guard dense_level = ek_guard_begin(m, spvgen_op_logical_not(m, ek_bool_type(m), hashed));
    spvgen_store(m, idxv, dense);
    ek_guard wraps = ek_guard_begin(m, spvgen_op_logical_not(m, ek_bool_type(m), ek_ult(m, dense, size)));
    spvgen_store(m, idxv, ek_umod(m, dense, size));
    ek_guard_end(m, wraps);
    ek_guard_end(m, dense_level);
    entry[c] = ek_mul_imm(m, ek_iadd(m, off, spvgen_load(m, u32, idxv)), F);
    weight[c] = w;
  }
}

void mlp_grid_level_features(spvgen_module *m, const mlp_grid *g, uint32_t level, const uint32_t *x,
                             uint32_t *feat) {
  const spvgen_mlp_config *p = g->p;
  const uint32_t D = p->desc.input_width, F = p->desc.grid.features;
  uint32_t entry[8], weight[8];
  level_corners(m, g, level, x, entry, weight);
  for (uint32_t f = 0; f < F; f++) feat[f] = 0;
  for (uint32_t c = 0; c < (1u << D); c++) {
    uint32_t e = ek_add_imm(m, entry[c], (uint32_t)(p->grid_offset / 2));
    for (uint32_t f = 0; f < F; f++) {
      uint32_t v = spvgen_op_f_convert(m, g->f32, ek_load_elem(m, &g->table, ek_add_imm(m, e, f)));
      feat[f] = feat[f] ? spvgen_glsl_fma(m, g->f32, weight[c], v, feat[f]) : spvgen_op_f_mul(m, g->f32, weight[c], v);
    }
  }
}

/* word[index] (a u32 holding a value of type vt: f32, or an f16 2-vector) += value by a
 * compare-exchange loop on the word's bits (OpAtomicCompareExchange on u32 is core
 * Vulkan), Device scope, relaxed: the sums are only read after the dispatch; an f16
 * vector's lanes round to f16 each, as the vector atomic rounds them. */
static void atomic_add_cas(spvgen_module *m, const ek_buffer *words, uint32_t index, uint32_t vt, uint32_t value) {
  uint32_t u32 = ek_u32_type(m), b = ek_bool_type(m);
  uint32_t ptr = ek_elem(m, words, index);
  uint32_t oldv = ek_local(m, u32, 0), done = ek_local(m, b, 0);
  spvgen_store(m, oldv, spvgen_load(m, u32, ptr));
  spvgen_store(m, done, spvgen_const_bool(m, false));
  spvgen_loop(m, SpvLoopControlDontUnrollMask);
  spvgen_loop_while(m, spvgen_op_logical_not(m, b, spvgen_load(m, b, done)));
  {
    uint32_t old = spvgen_load(m, u32, oldv);
    uint32_t sum = spvgen_op_bitcast(m, u32, spvgen_op_f_add(m, vt, spvgen_op_bitcast(m, vt, old), value));
    uint32_t got = spvgen_op_atomic_compare_exchange(m, u32, ptr, ek_u32(m, SpvScopeDevice), ek_u32(m, 0),
                                                     ek_u32(m, 0), sum, old);
    spvgen_store(m, done, spvgen_op_i_equal(m, b, got, old));
    spvgen_store(m, oldv, got);
  }
  spvgen_end_loop(m);
}

void mlp_atomic_add_f32(spvgen_module *m, const mlp_atomics *at, uint32_t index, uint32_t value) {
  uint32_t f32 = ek_f32_type(m);
  if (at->floats) { /* OpAtomicFAddEXT (shaderBufferFloat32AtomicAdd); Device scope, relaxed */
    /* declared first: of the instruction's capabilities (f16, f32, f64 adds) the f32 one */
    spvgen_capability(m, SpvCapabilityAtomicFloat32AddEXT);
    spvgen_op_atomic_f_add_ext(m, f32, ek_elem(m, at->floats, index), ek_u32(m, SpvScopeDevice), ek_u32(m, 0), value);
    return;
  }
  atomic_add_cas(m, at->words, index, f32, value); /* without float atomics */
}

void mlp_grid_gradient_atomics(spvgen_module *m, const spvgen_mlp_train_config *t, const ek_buffer *grad,
                               ek_buffer *view, mlp_atomics *at) {
  const bool bda = t->net.desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  const uint32_t F = t->net.desc.grid.features;
  memset(at, 0, sizeof *at);
  if (t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16) {
    at->scale = t->desc.grid_gradient_scale;
    at->width = F == 2 ? 2 : 4;
    if (t->features & SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR) {
      *view = ek_buffer_view(m, grad, spvgen_type_vector(m, spvgen_type_float(m, 16), at->width), 3, false,
                             "table_gradient_f16");
      at->halves = view;
    } else {
      *view = ek_buffer_view(m, grad, ek_u32_type(m), 3, false, "table_gradient_f16_pairs");
      at->hwords = view;
    }
  } else {
    const bool floats = (t->features & SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD) != 0;
    if (!bda && floats) {
      at->floats = grad;
      return;
    }
    if (bda) *view = ek_buffer_view(m, grad, floats ? ek_f32_type(m) : ek_u32_type(m), 3, false, "table_gradient");
    else *view = ek_buffer_decl(m, ek_u32_type(m), 3, false, "gradient_words");
    at->floats = floats ? view : NULL;
    at->words = floats ? NULL : view;
  }
  if (bda) ek_buffer_rebase(m, view, spvgen_const_bits(m, spvgen_type_int(m, 64, false), t->grid_grad_offset * 4));
}

void mlp_grid_level_scatter(spvgen_module *m, const mlp_grid *g, uint32_t level, const uint32_t *x,
                            const uint32_t *dfeat, const mlp_atomics *grad, uint32_t grad_base) {
  const spvgen_mlp_config *p = g->p;
  const uint32_t D = p->desc.input_width, F = p->desc.grid.features;
  uint32_t entry[8], weight[8];
  level_corners(m, g, level, x, entry, weight);
  if (grad->halves || grad->hwords) {
    /* f16 sums: the features times the scale (a power of two: exact), each corner's F
     * values as F / V vectors of V, one atomic each (the compare-exchange form: the same
     * vectors, each as V / 2 words of two); indices in vectors from the table gradient's
     * first f16 element */
    const uint32_t V = grad->width;
    const uint32_t h16 = spvgen_type_float(m, 16), vt32 = spvgen_type_vector(m, g->f32, V);
    const uint32_t vt16 = spvgen_type_vector(m, h16, V), h2 = spvgen_type_vector(m, h16, 2);
    uint32_t ds[8];
    for (uint32_t f = 0; f < F; f++) ds[f] = spvgen_op_f_mul(m, g->f32, dfeat[f], spvgen_const_f32(m, grad->scale));
    uint32_t vbase = ek_div_imm(m, ek_mul_imm(m, grad_base, 2), V);
    if (grad->halves) spvgen_capability(m, SpvCapabilityAtomicFloat16VectorNV);
    for (uint32_t c = 0; c < (1u << D); c++) {
      uint32_t e = ek_iadd(m, ek_div_imm(m, entry[c], V), vbase);
      for (uint32_t f = 0; f < F; f += V) {
        uint32_t comp[4];
        for (uint32_t k = 0; k < V; k++) comp[k] = spvgen_op_f_mul(m, g->f32, weight[c], ds[f + k]);
        uint32_t v16 = spvgen_op_f_convert(m, vt16, spvgen_op_composite_construct(m, vt32, comp, V));
        uint32_t at = ek_add_imm(m, e, f / V);
        if (grad->halves) {
          spvgen_op_atomic_f_add_ext(m, vt16, ek_elem(m, grad->halves, at), ek_u32(m, SpvScopeDevice), ek_u32(m, 0),
                                     v16);
          continue;
        }
        for (uint32_t k = 0; k < V / 2; k++) {
          const uint32_t lanes[2] = {2 * k, 2 * k + 1};
          uint32_t pair = V == 2 ? v16 : spvgen_op_vector_shuffle(m, h2, v16, v16, lanes, 2);
          atomic_add_cas(m, grad->hwords, ek_add_imm(m, ek_mul_imm(m, at, V / 2), k), spvgen_type_of(m, pair), pair);
        }
      }
    }
    return;
  }
  for (uint32_t c = 0; c < (1u << D); c++) {
    uint32_t e = ek_iadd(m, entry[c], grad_base);
    for (uint32_t f = 0; f < F; f++)
      mlp_atomic_add_f32(m, grad, ek_add_imm(m, e, f), spvgen_op_f_mul(m, g->f32, weight[c], dfeat[f]));
  }
}

void mlp_grid_encode_array(spvgen_module *m, const mlp_grid *g, const uint32_t *x, uint32_t arr,
                           uint32_t arr_base) {
  const uint32_t F = g->p->desc.grid.features;
  ek_for lv;
  uint32_t l = ek_for_begin_var(m, &lv, ek_local(m, g->u32, 0), ek_u32(m, 0), ek_u32(m, g->p->desc.grid.levels),
                                ek_u32(m, 1), SpvLoopControlUnrollMask);
  uint32_t feat[8];
  mlp_grid_level_features(m, g, l, x, feat);
  uint32_t at = ek_add_imm(m, ek_mul_imm(m, l, F), arr_base);
  for (uint32_t f = 0; f < F; f++) spvgen_store(m, ek_at(m, arr, ek_add_imm(m, at, f)), feat[f]);
  ek_for_end(m, &lv);
}

void mlp_grid_encode(spvgen_module *m, const mlp_grid *g, const uint32_t *x, uint32_t *out) {
  const uint32_t W = g->p->encoded_width;
  uint32_t arr = ek_local(m, spvgen_type_array(m, g->f32, W), 0);
  mlp_grid_encode_array(m, g, x, arr, 0);
  for (uint32_t j = 0; j < W; j++) out[j] = spvgen_load(m, g->f32, ek_at(m, arr, ek_u32(m, j)));
}
