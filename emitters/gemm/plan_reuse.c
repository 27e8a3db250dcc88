/* emitters/gemm/plan_reuse.c — planning with the caller's kernel cache (spvgen/gemm.h,
 * "Planning with a kernel cache"): spvgen_gemm_plan_ex weighs AUTO's plan against the
 * compiled kernels a framework already holds, by estimated run time x expected runs plus
 * the compile a new kernel costs; spvgen_gemm_estimate_ms is that run-time estimate.
 *
 * Why: a framework's JIT sees prompt lengths that change on every call. Each length's
 * AUTO plan is the best for that length alone, so a trace of ten lengths compiled five
 * kernels (100-500 ms each on the H100) where two or three, already compiled for a
 * neighbouring length, run the call within microseconds of the new one. The rule needs
 * no state of its own: the caller says what it holds (plans or keys), as it owns the
 * pipelines (the template layer knows no Vulkan objects). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_internal.h"

/* What rate 1.0 of the planner's tile model is in absolute terms: coopmat2's best tiling
 * at 8192^3 f16 -> f32, 326 TFLOP/s over the 132 SMs of the card it was measured on (the
 * model's reference, spvgen/gemm.h), i.e. per SM and ms, in multiply-adds of 16-bit
 * inputs (8-bit ones run twice as many). */
#define EST_MACS_PER_UNIT_MS (326e12 / 2.0 / 132.0 / 1e3)
/* Memory: the first read of each operand and the write of D at the H100's DRAM bandwidth
 * (3 TB/s over 132 SMs; scaled by the device's units); the re-reads of A by every column
 * of tiles and of B by every row of tiles mostly from L2, at 4x that. A floor under the
 * tiles' arithmetic: skinny shapes (a prompt of a few tokens) are bound by reading B. */
#define EST_BYTES_PER_UNIT_MS (3.0e12 / 132.0 / 1e3)
#define EST_L2_FACTOR 4.0
/* Each dispatch's own cost (the launch and the barrier after it): a few microseconds. */
#define EST_DISPATCH_MS 0.004

static spvgen_status reuse_fail(char *msg, size_t size, spvgen_status st, const char *fn, const char *what) {
  if (msg && size) snprintf(msg, size, "%s: %s", fn, what);
  return st;
}

/* The shape a plan is estimated (and a cached plan checked) for: args, else the plan's
 * own (RUNTIME: its hints, GEMM_RUNTIME_HINT where none). */
static spvgen_gemm_args plan_shape(const spvgen_gemm_desc *d) {
  spvgen_gemm_args a;
  memset(&a, 0, sizeof a);
  a.m = d->m ? d->m : GEMM_RUNTIME_HINT;
  a.n = d->n ? d->n : GEMM_RUNTIME_HINT;
  a.k = d->k ? d->k : GEMM_RUNTIME_HINT;
  a.batch = d->batch ? d->batch : 1;
  if (!gemm_runtime(d)) {
    a.lda = d->lda, a.ldb = d->ldb, a.ldc = d->ldc, a.ldd = d->ldd;
    a.stride_a = d->stride_a, a.stride_b = d->stride_b, a.stride_c = d->stride_c, a.stride_d = d->stride_d;
  }
  a.alpha = d->alpha;
  a.beta = d->beta;
  return a;
}

/* The estimate for a launchable shape (the launch's slice count given). */
static double estimate(const spvgen_device_caps *caps, const spvgen_gemm_config *p, const spvgen_gemm_args *a,
                       uint32_t slices) {
  spvgen_gemm_config q = *p;
  q.desc.m = a->m, q.desc.n = a->n, q.desc.k = a->k, q.desc.batch = a->batch;
  const spvgen_gemm_desc *d = &q.desc;
  const double units = gemm_units(caps);
  const uint32_t in_bytes = spvgen_component_type_size(d->a_type), out_bytes = spvgen_component_type_size(d->out_type);
  /* the busiest SM's K loops (and split-K's partials) at the tiling's rate */
  const double macs = EST_MACS_PER_UNIT_MS * (in_bytes == 1 ? 2.0 : in_bytes == 2 ? 1.0 : 0.5);
  const double compute = gemm_split_time(caps, &q, a->k, slices ? slices : 1) / macs;
  /* bytes: A, B and D once from memory; A again per further column of tiles, B per
   * further row of tiles (from L2); split-K's partials written and read */
  const double batch = a->batch, bw = EST_BYTES_PER_UNIT_MS * units;
  const double ab = (double)a->m * a->k * in_bytes * batch, bb = (double)a->k * a->n * in_bytes * batch;
  const double tn = gemm_ceil_div(a->n, d->tile_n), tm = gemm_ceil_div(a->m, d->tile_m);
  double bytes = ab + bb + (double)a->m * a->n * out_bytes * batch * (d->beta != 0.0f ? 2.0 : 1.0);
  double reread = ab * (tn - 1.0) + bb * (tm - 1.0);
  if (slices > 1) bytes += 2.0 * slices * (double)a->m * ((a->n + 3u) & ~3u) * 4.0 * batch;
  const double memory = (bytes + reread / EST_L2_FACTOR) / bw;
  /* the pack kernel before it: each packed operand read and its copy written */
  const double copied = (gemm_packs(d, 'a') ? ab : 0.0) + (gemm_packs(d, 'b') ? bb : 0.0);
  return (compute > memory ? compute : memory) + 2.0 * copied / bw + EST_DISPATCH_MS * spvgen_gemm_kernel_count(p);
}

double gemm_plan_time_ms(const spvgen_device_caps *caps, const spvgen_gemm_config *p) {
  const spvgen_gemm_args a = plan_shape(&p->desc);
  return estimate(caps, p, &a, p->desc.split_k > 1 ? p->desc.split_k : 1);
}

/* The launch's slice count of p for a (RUNTIME: spvgen_gemm_launch_for's; FIXED: the
 * plan's), or an error naming why p cannot run a. */
static spvgen_status launch_slices(const spvgen_gemm_config *p, const spvgen_gemm_args *a, uint32_t *slices,
                                   char *msg, size_t size) {
  spvgen_gemm_launch l;
  spvgen_status st = spvgen_gemm_launch_for(p, gemm_runtime(&p->desc) ? a : NULL, &l, msg, size);
  if (st != SPVGEN_OK) return st;
  *slices = gemm_runtime(&p->desc) ? (p->desc.split_k > 1 ? l.push.split_k : 1) : p->desc.split_k;
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_estimate_ms(const spvgen_gemm_config *plan, const spvgen_device_caps *caps,
                                      const spvgen_gemm_args *args, double *ms, char *msg, size_t size) {
  static const char fn[] = "spvgen_gemm_estimate_ms";
  if (msg && size) msg[0] = 0;
  if (ms) *ms = 0.0;
  if (!ms) return reuse_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "ms is NULL");
  if (!gemm_plan_made(plan))
    return reuse_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "plan is NULL or not made by spvgen_gemm_plan");
  spvgen_device_caps tmp;
  if (!caps) {
    spvgen_caps_preset("vulkan13", &tmp);
    caps = &tmp;
  }
  spvgen_gemm_args a = args ? *args : plan_shape(&plan->desc);
  spvgen_status st;
  if (!gemm_runtime(&plan->desc)) { /* a FIXED plan runs its own shape: args, if any, must be it */
    spvgen_gemm_launch l;
    if (args && (st = spvgen_gemm_launch_for(plan, args, &l, msg, size)) != SPVGEN_OK) return st;
    a = plan_shape(&plan->desc);
  }
  uint32_t slices;
  if ((st = launch_slices(plan, &a, &slices, msg, size)) != SPVGEN_OK) return st;
  if (!a.batch) a.batch = 1;
  *ms = estimate(caps, plan, &a, slices);
  return SPVGEN_OK;
}

/* ------------------------------------------------------------ plan_ex ---- */

/* A multiple the desc promises (0 reads as 1) is one the plan relies on. */
static bool covers(uint32_t plan_q, uint32_t desc_q) {
  plan_q = plan_q ? plan_q : 1;
  desc_q = desc_q ? desc_q : 1;
  return desc_q % plan_q == 0;
}

/* A knob the caller set (non-zero) must be the cached plan's. */
static bool knob_ok(uint32_t want, uint32_t have) { return !want || want == have; }

/* Whether cached plan c can run the call of desc (the caller's desc, whose AUTO plan is
 * def, resolved), for shape a: see spvgen/gemm.h, "Planning with a kernel cache". */
static bool can_run(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc, const spvgen_gemm_config *def,
                    const spvgen_gemm_config *c, const spvgen_gemm_args *a, uint32_t *slices) {
  const spvgen_gemm_desc *r = &def->desc, *cd = &c->desc;
  if (!gemm_plan_made(c)) return false;
  /* the same function, reached the same way */
  if (cd->a_type != r->a_type || cd->b_type != r->b_type || cd->acc_type != r->acc_type ||
      cd->out_type != r->out_type || cd->a_layout != r->a_layout || cd->b_layout != r->b_layout ||
      cd->d_layout != r->d_layout || (r->beta != 0.0f) != (cd->beta != 0.0f) ||
      (r->beta != 0.0f && cd->c_layout != r->c_layout) || cd->bias != r->bias || cd->activation != r->activation ||
      cd->leaky_slope != r->leaky_slope || cd->alpha != r->alpha || cd->addressing != r->addressing ||
      cd->shapes != r->shapes)
    return false;
  if (gemm_runtime(r)) {
    if (!covers(cd->m_multiple, r->m_multiple) || !covers(cd->n_multiple, r->n_multiple) ||
        !covers(cd->k_multiple, r->k_multiple) || !covers(cd->ld_multiple, r->ld_multiple))
      return false;
    /* a desc without a planned M (N) serves any: a shift plan needs a whole tile */
    if (cd->edge == SPVGEN_GEMM_EDGE_SHIFT && c->variant == SPVGEN_GEMM_COOPMAT2 && (!desc->m || !desc->n))
      return false;
  } else if (cd->m != r->m || cd->n != r->n || cd->k != r->k || cd->batch != r->batch || cd->lda != r->lda ||
             cd->ldb != r->ldb || cd->ldc != r->ldc || cd->ldd != r->ldd || cd->stride_a != r->stride_a ||
             cd->stride_b != r->stride_b || cd->stride_c != r->stride_c || cd->stride_d != r->stride_d) {
    return false; /* a FIXED kernel is its shape */
  }
  /* split-K and packing bring a workspace binding: not where the desc keeps them off */
  if (desc->split_k == 1 && cd->split_k > 1) return false;
  if (desc->split_k > 1 && (cd->split_k <= 1 || (!gemm_runtime(r) && cd->split_k != desc->split_k))) return false;
  if (desc->pack == SPVGEN_GEMM_PACK_NONE && gemm_packed(cd)) return false;
  if (desc->pack != SPVGEN_GEMM_PACK_AUTO && desc->pack != SPVGEN_GEMM_PACK_NONE && cd->pack != desc->pack)
    return false;
  if (!knob_ok((uint32_t)desc->variant, (uint32_t)c->variant) || !knob_ok(desc->tile_m, cd->tile_m) ||
      !knob_ok(desc->tile_n, cd->tile_n) || !knob_ok(desc->tile_k, cd->tile_k) ||
      !knob_ok(desc->workgroup_size, cd->workgroup_size) || !knob_ok(desc->subgroups, cd->subgroups) ||
      !knob_ok(desc->stages, cd->stages) || !knob_ok(desc->unroll, cd->unroll) ||
      !knob_ok((uint32_t)desc->edge, (uint32_t)cd->edge) || !knob_ok(desc->edge_unroll, cd->edge_unroll) ||
      !knob_ok(desc->codegen, cd->codegen) || !knob_ok(desc->pack_units, cd->pack_units) ||
      !knob_ok((uint32_t)desc->pack_order, (uint32_t)cd->pack_order))
    return false;
  /* the device */
  if (c->features & ~caps->features) return false;
  if (caps->max_push_constants_size && (c->push_size > caps->max_push_constants_size ||
                                        c->reduce_push_size > caps->max_push_constants_size))
    return false;
  if (c->subgroup_size && caps->min_subgroup_size && caps->max_subgroup_size &&
      (c->subgroup_size < caps->min_subgroup_size || c->subgroup_size > caps->max_subgroup_size))
    return false;
  /* the call's shape: the class checks, the edge mode, the long-K bound, the grid */
  return launch_slices(c, a, slices, NULL, 0) == SPVGEN_OK;
}

/* Whether key is among the caller's: its compiled plans, or its lookup. */
static bool cached(const spvgen_gemm_plan_opts *o, uint64_t key) {
  for (uint32_t i = 0; i < o->compiled_count; i++)
    if (spvgen_gemm_class_key(&o->compiled[i]) == key) return true;
  return o->have && o->have(o->user, key);
}

spvgen_status spvgen_gemm_plan_ex(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                  const spvgen_gemm_plan_opts *opts, spvgen_gemm_config *plan, char *msg,
                                  size_t size) {
  spvgen_status st = spvgen_gemm_plan(desc, caps, plan, msg, size);
  spvgen_gemm_plan_choice *ch = opts ? opts->choice : NULL;
  if (ch) memset(ch, 0, sizeof *ch);
  if (st != SPVGEN_OK || !opts) return st;
  if (opts->compiled_count && !opts->compiled)
    return reuse_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_gemm_plan_ex",
                      "opts.compiled is NULL with compiled_count > 0");
  spvgen_device_caps tmp;
  if (!caps) {
    spvgen_caps_preset("vulkan13", &tmp);
    caps = &tmp;
  }
  const uint32_t runs = opts->expected_runs ? opts->expected_runs : SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS;
  const spvgen_gemm_config def = *plan;
  const uint64_t def_key = spvgen_gemm_class_key(&def);
  const spvgen_gemm_args a = plan_shape(&def.desc);
  uint32_t slices = 1;
  double def_run = 0.0;
  if (launch_slices(&def, &a, &slices, NULL, 0) == SPVGEN_OK) def_run = estimate(caps, &def, &a, slices);
  const bool def_cached = cached(opts, def_key);
  const double def_cost = def_run * runs + (def_cached ? 0.0 : def.compile_ms);
  double best_cost = def_cost, best_run = def_run;
  uint32_t n_cand = 0;
  bool reused = false;
  /* 1. the plans the caller holds, each as it is */
  for (uint32_t i = 0; i < opts->compiled_count; i++) {
    const spvgen_gemm_config *c = &opts->compiled[i];
    if (spvgen_gemm_class_key(c) == def_key || !can_run(caps, desc, &def, c, &a, &slices)) continue;
    n_cand++;
    const double run = estimate(caps, c, &a, slices), cost = run * runs;
    if (cost < best_cost) best_cost = cost, best_run = run, *plan = *c, reused = true;
  }
  /* 2. with a lookup: the candidates of the desc whose kernels the caller holds */
  if (opts->have) {
    enum { MAX_CAND = 64 };
    spvgen_gemm_config cand[MAX_CAND];
    uint32_t count = 0;
    if (spvgen_gemm_plans(desc, caps, cand, MAX_CAND, &count, NULL, 0) == SPVGEN_OK) {
      if (count > MAX_CAND) count = MAX_CAND;
      for (uint32_t i = 0; i < count; i++) {
        const spvgen_gemm_config *c = &cand[i];
        const uint64_t key = spvgen_gemm_class_key(c);
        if (key == def_key || !opts->have(opts->user, key) || !can_run(caps, desc, &def, c, &a, &slices)) continue;
        n_cand++;
        const double run = estimate(caps, c, &a, slices), cost = run * runs;
        if (cost < best_cost) best_cost = cost, best_run = run, *plan = *c, reused = true;
      }
    }
  }
  if (ch) {
    ch->reused = reused;
    ch->default_cached = def_cached;
    ch->candidates = n_cand;
    ch->expected_runs = runs;
    ch->default_key = def_key;
    memcpy(ch->default_name, def.name, sizeof ch->default_name);
    ch->default_compile_ms = def.compile_ms;
    ch->default_run_ms = def_run;
    ch->run_ms = best_run;
    ch->saved_ms = def_cost - best_cost;
  }
  return SPVGEN_OK;
}

/* ------------------------------------------------------------- the family ---- */

/* The prompt lengths spvgen_gemm_plan_family plans for: 1, 3, 7, 13, then 2^k + 1 and
 * 3 x 2^(k-1) + 1 (17, 33, 49, 65, 97, 129, 193, ...), rounded up to the class's
 * m_multiple, up to m_max, and m_max itself. None is a power of two: prompt lengths
 * rarely are, and a length one past a tile multiple is the one that needs edge handling
 * (the plan for 257 rows is the plan for 256 + an edge). */
#define FAMILY_MAX_LENGTHS 48u
#define FAMILY_MAX_PLANS 24u /* distinct plans kept (a length past them plans alone) */

static uint32_t family_lengths(uint32_t m_max, uint32_t mm, uint32_t *out) {
  uint32_t n = 0;
  uint64_t raw[FAMILY_MAX_LENGTHS];
  uint32_t r = 0;
  static const uint32_t small[] = {1, 3, 7, 13};
  for (uint32_t i = 0; i < 4; i++) raw[r++] = small[i];
  for (uint32_t k = 4; k < 31 && r + 2 < FAMILY_MAX_LENGTHS; k++) {
    raw[r++] = ((uint64_t)1 << k) + 1;
    if (k >= 5) raw[r++] = 3 * ((uint64_t)1 << (k - 1)) + 1;
  }
  raw[r++] = m_max;
  for (uint32_t i = 0; i < r; i++) {
    uint64_t v = raw[i] > m_max ? m_max : raw[i];
    if (mm > 1) v = (v + mm - 1) / mm * mm;
    if (v > m_max) v = m_max; /* m_max itself is a multiple (checked by the caller) */
    if (!n || v > out[n - 1]) out[n++] = (uint32_t)v;
  }
  return n;
}

spvgen_status spvgen_gemm_plan_family(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps, uint32_t m_max,
                                      const spvgen_gemm_config *held, uint32_t held_count, spvgen_gemm_config *plans,
                                      uint32_t capacity, uint32_t *count, uint32_t *total, char *msg, size_t size) {
  static const char *fn = "spvgen_gemm_plan_family";
  if (count) *count = 0;
  if (total) *total = 0;
  if (!desc || !count || (capacity && !plans) || (held_count && !held))
    return reuse_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                      !desc ? "desc is NULL" : !count ? "count is NULL" : !plans && capacity ? "plans is NULL with capacity > 0"
                                                                                   : "held is NULL with held_count > 0");
  if (desc->shapes != SPVGEN_GEMM_SHAPES_RUNTIME)
    return reuse_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                      "desc.shapes is not RUNTIME: a fixed shape has one plan (spvgen_gemm_plan), a family is "
                      "the plans of one run-time class over prompt lengths (spvgen_gemm_class_for makes such a desc)");
  const uint32_t mm = desc->m_multiple ? desc->m_multiple : 1;
  if (!m_max || m_max % mm) {
    if (msg && size && !m_max)
      snprintf(msg, size, "%s: m_max 0 (the longest prompt length to plan for) is not at least 1", fn);
    else if (msg && size)
      snprintf(msg, size, "%s: m_max %u is not a multiple of desc.m_multiple %u", fn, m_max, mm);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  uint32_t len[FAMILY_MAX_LENGTHS];
  const uint32_t nlen = family_lengths(m_max, mm, len);
  /* 1. each length's AUTO plan, once by key */
  spvgen_gemm_config fam[FAMILY_MAX_PLANS];
  uint32_t uses[FAMILY_MAX_PLANS], first[FAMILY_MAX_PLANS], nfam = 0;
  bool planned[FAMILY_MAX_LENGTHS] = {false};
  spvgen_status first_err = SPVGEN_OK;
  for (uint32_t i = 0; i < nlen; i++) {
    spvgen_gemm_desc d = *desc;
    d.m = len[i];
    spvgen_gemm_config p;
    char why[512] = "";
    spvgen_status st = spvgen_gemm_plan(&d, caps, &p, why, sizeof why);
    if (st != SPVGEN_OK) { /* a length no plan takes (e.g. past a limit): the others still count */
      if (first_err == SPVGEN_OK) {
        first_err = st;
        if (msg && size) snprintf(msg, size, "%s: m %u: %s", fn, len[i], why);
      }
      continue;
    }
    planned[i] = true;
    const uint64_t key = spvgen_gemm_class_key(&p);
    bool have = false;
    for (uint32_t h = 0; h < held_count && !have; h++) have = spvgen_gemm_class_key(&held[h]) == key;
    uint32_t j = 0;
    while (j < nfam && spvgen_gemm_class_key(&fam[j]) != key) j++;
    if (!have && j == nfam && nfam < FAMILY_MAX_PLANS) fam[nfam] = p, first[nfam] = i, nfam++;
  }
  if (first_err != SPVGEN_OK && !nfam) {
    bool any = false; /* every planned length's plan is held already: an empty family, fine */
    for (uint32_t i = 0; i < nlen && !any; i++) any = planned[i];
    if (!any) return first_err;
  }
  if (msg && size) msg[0] = 0;
  /* what plan_ex weighs: the family, then the caller's plans */
  spvgen_gemm_config *all = NULL;
  if (held_count) {
    all = malloc(sizeof *all * ((size_t)held_count + FAMILY_MAX_PLANS));
    if (!all) return reuse_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
    memcpy(all + FAMILY_MAX_PLANS, held, sizeof *all * held_count);
  }
  /* 2. what spvgen_gemm_plan_ex takes at each length (its default expected runs) with the
   * family and the held plans compiled: a cached plan it estimates faster may stand in for
   * a length's own, so a member no length takes is dropped, and the rest weighed again,
   * until every member is taken (a member a length took keeps that length when others are
   * dropped: one more round settles it) */
  for (uint32_t round = 0; round < 8 && nfam; round++) {
    for (uint32_t j = 0; j < nfam; j++) uses[j] = 0;
    /* the family right before the held plans (one list) */
    const spvgen_gemm_config *list = fam;
    if (all) {
      memcpy(all + FAMILY_MAX_PLANS - nfam, fam, sizeof *all * nfam);
      list = all + FAMILY_MAX_PLANS - nfam;
    }
    for (uint32_t i = 0; i < nlen; i++) {
      if (!planned[i]) continue;
      spvgen_gemm_desc d = *desc;
      d.m = len[i];
      spvgen_gemm_config p;
      const spvgen_gemm_plan_opts o = {.compiled = list, .compiled_count = nfam + held_count};
      if (spvgen_gemm_plan_ex(&d, caps, &o, &p, NULL, 0) != SPVGEN_OK) continue;
      const uint64_t key = spvgen_gemm_class_key(&p);
      for (uint32_t j = 0; j < nfam; j++)
        if (spvgen_gemm_class_key(&fam[j]) == key) {
          if (!uses[j]) first[j] = i; /* the first length that takes it */
          uses[j]++;
          break;
        }
    }
    uint32_t kept = 0;
    for (uint32_t j = 0; j < nfam; j++)
      if (uses[j]) fam[kept] = fam[j], uses[kept] = uses[j], first[kept] = first[j], kept++;
    const bool stable = kept == nfam;
    nfam = kept;
    if (stable) break;
  }
  free(all);
  /* 3. the most used first; ties: the shorter length first (insertion sort of few) */
  uint32_t order[FAMILY_MAX_PLANS];
  for (uint32_t i = 0; i < nfam; i++) {
    uint32_t j = i;
    while (j && (uses[order[j - 1]] < uses[i] || (uses[order[j - 1]] == uses[i] && first[order[j - 1]] > first[i]))) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  const uint32_t n = nfam < capacity ? nfam : capacity;
  for (uint32_t i = 0; i < n; i++) plans[i] = fam[order[i]];
  *count = n;
  if (total) *total = nfam;
  return SPVGEN_OK;
}
