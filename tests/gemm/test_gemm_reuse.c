/* tests/gemm/test_gemm_reuse.c — planning with the caller's kernel cache (spvgen/gemm.h,
 * "Planning with a kernel cache"): spvgen_gemm_plan_ex returns spvgen_gemm_plan's plan,
 * byte for byte, when nothing usable is cached; takes a cached plan estimated about as
 * fast; keeps AUTO's plan when a cached one is estimated much slower over many runs; never
 * takes a cached plan of another class, type, layout or epilogue; and the plan it reuses
 * launches the call's shape and runs it right on the test device (lavapipe in CI), every
 * element against the float64 reference. spvgen_gemm_estimate_ms's contract too. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

/* A prompt-length call as a framework plans it (bench trace's flow): the class of the
 * shape with M free, M as the planning hint. */
static spvgen_gemm_desc call_desc(uint32_t m, uint32_t n, uint32_t k, spvgen_component_type in,
                                  spvgen_component_type acc, bool nt) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.a_type = d.b_type = in;
  d.acc_type = d.out_type = acc;
  d.b_layout = nt ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  spvgen_gemm_args a = {.m = m, .n = n, .k = k};
  spvgen_gemm_desc c;
  char msg[512];
  CHECK_MSG(spvgen_gemm_class_for(&d, &a, &c, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  c.m_multiple = 1;
  return c;
}

static spvgen_gemm_config plan_of(const spvgen_gemm_desc *d, const spvgen_device_caps *c) {
  spvgen_gemm_config p;
  char msg[512];
  memset(&p, 0, sizeof p);
  CHECK_MSG(spvgen_gemm_plan(d, c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  return p;
}

static bool have_none(void *user, uint64_t key) {
  (void)user, (void)key;
  return false;
}

/* Every key of a list of plans. */
typedef struct key_set {
  const uint64_t *keys;
  uint32_t count;
} key_set;

static bool have_keys(void *user, uint64_t key) {
  const key_set *s = user;
  for (uint32_t i = 0; i < s->count; i++)
    if (s->keys[i] == key) return true;
  return false;
}

/* --------------------------------------------------- nothing cached: AUTO's ---- */

/* Nothing cached (no opts, empty opts, a lookup that holds nothing, cached plans of no
 * use to the call): the very plan spvgen_gemm_plan gives, over shapes, types, layouts,
 * run-time and fixed descs and three presets; and the same module words. */
static void nothing_cached_gives_autos_plan_byte_for_byte(void) {
  static const char *const presets[] = {"h100", "lavapipe", "vulkan13"};
  static const uint32_t ms[] = {1, 3, 17, 77, 130, 200, 257, 513, 999, 2049, 3001};
  static const uint32_t nk[][2] = {{3584, 3584}, {512, 3584}, {18944, 3584}, {3584, 18944}, {56, 296}, {1000, 999}};
  static const spvgen_component_type types[][2] = {{SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
                                                   {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
                                                   {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32}};
  /* a plan cached for another output type: valid for none of the calls below */
  spvgen_device_caps h100 = preset("h100");
  spvgen_gemm_desc other = call_desc(64, 64, 64, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config useless = plan_of(&other, &h100);
  uint32_t checked = 0, emitted = 0;
  for (size_t c = 0; c < 3; c++) {
    spvgen_device_caps caps = preset(presets[c]);
    for (size_t t = 0; t < 3; t++)
      for (size_t s = 0; s < sizeof nk / sizeof nk[0]; s++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
          for (int fixed = 0; fixed < 2; fixed++) {
            spvgen_gemm_desc d = call_desc(ms[i], nk[s][0], nk[s][1], types[t][0], types[t][1], (i + s) % 2 == 0);
            if (fixed) { /* the same call as a fixed shape */
              spvgen_gemm_desc f;
              memset(&f, 0, sizeof f);
              f.m = d.m, f.n = d.n, f.k = d.k;
              f.a_type = d.a_type, f.b_type = d.b_type, f.acc_type = d.acc_type, f.out_type = d.out_type;
              f.b_layout = d.b_layout;
              d = f;
            }
            spvgen_gemm_config want, got;
            char msg[512];
            if (spvgen_gemm_plan(&d, &caps, &want, msg, sizeof msg) != SPVGEN_OK) {
              /* refused: plan_ex refuses the same way */
              spvgen_gemm_plan_opts o = {.compiled = &useless, .compiled_count = 1};
              CHECK(spvgen_gemm_plan_ex(&d, &caps, &o, &got, NULL, 0) != SPVGEN_OK);
              continue;
            }
            spvgen_gemm_plan_choice ch;
            const spvgen_gemm_plan_opts opts[4] = {
                {0}, {.have = have_none, .choice = &ch}, {.compiled = &useless, .compiled_count = 1, .choice = &ch},
                {.compiled = &useless, .compiled_count = 1, .have = have_none, .expected_runs = 1}};
            for (int o = -1; o < 4; o++) {
              memset(&got, 0xA5, sizeof got);
              CHECK_MSG(spvgen_gemm_plan_ex(&d, &caps, o < 0 ? NULL : &opts[o], &got, msg, sizeof msg) == SPVGEN_OK,
                        "%s", msg);
              CHECK_MSG(!memcmp(&got, &want, sizeof got), "%s %ux%ux%u opts %d: %s, AUTO %s", presets[c], d.m, d.n,
                        d.k, o, got.name, want.name);
              checked++;
            }
            CHECK(!ch.reused);
            CHECK_EQ_U64(ch.default_key, spvgen_gemm_class_key(&want));
            CHECK(ch.saved_ms == 0.0);
            if (c == 0 && t == 0 && s < 2 && i % 4 == 0) { /* the module: the same words */
              spvgen_kernel ka[SPVGEN_GEMM_KERNEL_COUNT], kb[SPVGEN_GEMM_KERNEL_COUNT];
              uint32_t na = 0, nb = 0;
              CHECK(spvgen_gemm_kernels(&d, &caps, ka, &na, NULL, msg, sizeof msg) == SPVGEN_OK);
              CHECK_MSG(spvgen_gemm_plan_kernels(&got, kb, &nb, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
              CHECK_EQ_U64(na, nb);
              for (uint32_t j = 0; j < na && j < nb; j++) {
                CHECK_EQ_U64(ka[j].word_count, kb[j].word_count);
                CHECK(ka[j].word_count == kb[j].word_count &&
                      !memcmp(ka[j].words, kb[j].words, ka[j].word_count * sizeof(uint32_t)));
                check_words(kb[j].words, kb[j].word_count);
                emitted++;
              }
              for (uint32_t j = 0; j < na; j++) spvgen_kernel_free(&ka[j]);
              for (uint32_t j = 0; j < nb; j++) spvgen_kernel_free(&kb[j]);
            }
          }
  }
  CHECK(checked > 1500);
  CHECK(emitted >= 6);
}

/* ------------------------------------------------------------ the decision ---- */

/* The Qwen2-7B trace on the h100 preset: the 1-token call's kernel (32x64 tiles, split K)
 * runs the 77-token call about as fast as the 64x64 plan AUTO gives it (which would cost
 * ~190 ms of compile): it is reused, through the plan list and through the key lookup. */
static void a_cached_near_equal_plan_is_reused(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d1 = call_desc(1, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_desc d77 = call_desc(77, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config p1 = plan_of(&d1, &c), auto77 = plan_of(&d77, &c);
  const uint64_t k1 = spvgen_gemm_class_key(&p1);
  CHECK_NE_U64(k1, spvgen_gemm_class_key(&auto77)); /* AUTO plans another kernel */
  spvgen_gemm_plan_choice ch;
  spvgen_gemm_plan_opts o = {.compiled = &p1, .compiled_count = 1, .choice = &ch};
  spvgen_gemm_config got;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan_ex(&d77, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(spvgen_gemm_class_key(&got), k1);
  CHECK(!memcmp(&got, &p1, sizeof got)); /* the cached plan as it was given */
  CHECK(ch.reused && !ch.default_cached);
  CHECK_EQ_U64(ch.candidates, 1);
  CHECK_EQ_U64(ch.expected_runs, SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS);
  CHECK_EQ_U64(ch.default_key, spvgen_gemm_class_key(&auto77));
  CHECK(!strcmp(ch.default_name, auto77.name));
  CHECK_EQ_U64(ch.default_compile_ms, auto77.compile_ms);
  /* the saving is the rule's: AUTO's compile less the runs' difference */
  const double want_saved = (ch.default_run_ms - ch.run_ms) * ch.expected_runs + auto77.compile_ms;
  CHECK_MSG(fabs(ch.saved_ms - want_saved) < 1e-6 * want_saved && ch.saved_ms > 0, "saved %g, want %g", ch.saved_ms,
            want_saved);
  spvgen_gemm_args a77 = {.m = 77, .n = 3584, .k = 3584};
  double est = 0;
  CHECK(spvgen_gemm_estimate_ms(&got, &c, &a77, &est, msg, sizeof msg) == SPVGEN_OK);
  CHECK(est == ch.run_ms);
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&got, &a77, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.groups[1], 3); /* 77 rows in 32-row tiles */

  /* the same through a key lookup: the desc's candidates whose keys the caller holds */
  spvgen_gemm_config list[64];
  uint32_t n = 0;
  CHECK(spvgen_gemm_plans(&d77, &c, list, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  uint64_t keys[64];
  uint32_t nkeys = 0;
  for (uint32_t i = 0; i < n && i < 64; i++)
    if (spvgen_gemm_class_key(&list[i]) != spvgen_gemm_class_key(&auto77)) keys[nkeys++] = spvgen_gemm_class_key(&list[i]);
  CHECK(nkeys > 0);
  key_set ks = {keys, nkeys};
  spvgen_gemm_plan_opts ok = {.have = have_keys, .user = &ks, .choice = &ch};
  CHECK_MSG(spvgen_gemm_plan_ex(&d77, &c, &ok, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(ch.reused);
  CHECK(have_keys(&ks, spvgen_gemm_class_key(&got)));
  /* the winner costs no more than AUTO's plan would, by the public estimate */
  CHECK(spvgen_gemm_estimate_ms(&got, &c, &a77, &est, msg, sizeof msg) == SPVGEN_OK);
  double est_auto = 0;
  CHECK(spvgen_gemm_estimate_ms(&auto77, &c, &a77, &est_auto, msg, sizeof msg) == SPVGEN_OK);
  CHECK(est * ch.expected_runs <= est_auto * ch.expected_runs + auto77.compile_ms);
  /* AUTO's plan cached too: it costs no compile, and a cached plan must then be faster */
  keys[nkeys] = spvgen_gemm_class_key(&auto77);
  ks.count = nkeys + 1;
  CHECK(spvgen_gemm_plan_ex(&d77, &c, &ok, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(ch.default_cached);
  CHECK(!ch.reused || ch.run_ms < ch.default_run_ms);
}

/* A 3001-token call against 18944-wide weights: the 1-token kernel's small tiles are
 * estimated over 2x slower than AUTO's 128x128 plan, which over the default runs outweighs
 * its compile: AUTO's plan. Expected once, the same cached plan wins (the rule's other
 * side). */
static void a_much_slower_cached_plan_is_not_reused_over_many_runs(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d1 = call_desc(1, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_desc big = call_desc(3001, 18944, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config p1 = plan_of(&d1, &c), auto_big = plan_of(&big, &c);
  spvgen_gemm_plan_choice ch;
  spvgen_gemm_plan_opts o = {.compiled = &p1, .compiled_count = 1, .choice = &ch};
  spvgen_gemm_config got;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan_ex(&big, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(!memcmp(&got, &auto_big, sizeof got));
  CHECK(!ch.reused);
  CHECK_EQ_U64(ch.candidates, 1); /* it could run the call: the estimate decided */
  CHECK_MSG(ch.run_ms > 0 && ch.run_ms == ch.default_run_ms, "%g %g", ch.run_ms, ch.default_run_ms);
  spvgen_gemm_args a = {.m = 3001, .n = 18944, .k = 3584};
  double slow = 0;
  CHECK(spvgen_gemm_estimate_ms(&p1, &c, &a, &slow, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(slow > 1.5 * ch.default_run_ms, "cached %g ms, AUTO %g ms", slow, ch.default_run_ms);
  o.expected_runs = 1;
  CHECK(spvgen_gemm_plan_ex(&big, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(ch.reused);
  CHECK_EQ_U64(spvgen_gemm_class_key(&got), spvgen_gemm_class_key(&p1));
}

/* Cached plans of another function or class are never taken, even at one expected run
 * (where any valid cached plan would win): other output, input types, layouts, epilogue,
 * a stricter class, split-K or packing where the desc keeps them off, a knob the desc
 * sets, a fixed shape of another size, a shift plan for fewer rows than its tile. */
static void a_cached_plan_of_another_class_is_never_reused(void) {
  spvgen_device_caps c = preset("h100");
  const spvgen_component_type F16 = SPVGEN_COMPONENT_F16, F32 = SPVGEN_COMPONENT_F32;
  spvgen_gemm_desc call = call_desc(77, 3584, 3584, F16, F32, true);
  spvgen_gemm_config others[16];
  uint32_t n = 0;
  spvgen_gemm_desc d;
  d = call_desc(1, 3584, 3584, F16, F16, true); /* f16 out */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, SPVGEN_COMPONENT_BF16, F32, true); /* bf16 in */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, false); /* nn */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.bias = SPVGEN_GEMM_BIAS_COLUMN; /* a bias */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.beta = 1.0f; /* a C operand */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.activation = SPVGEN_ACTIVATION_RELU;
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.m_multiple = 32; /* a class of M multiples of 32: not 77 */
  others[n++] = plan_of(&d, &c);
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  others[n++] = plan_of(&d, &c);
  spvgen_gemm_desc fixed;
  memset(&fixed, 0, sizeof fixed);
  fixed.m = 77, fixed.n = 3584, fixed.k = 3584, fixed.acc_type = fixed.out_type = F32;
  fixed.b_layout = SPVGEN_COL_MAJOR;
  others[n++] = plan_of(&fixed, &c); /* a fixed shape: not a run-time kernel */
  d = call_desc(300, 3584, 3584, F16, F32, true); /* a shift plan of 128-row tiles */
  spvgen_gemm_config shift = plan_of(&d, &c);
  CHECK_EQ_U64(shift.desc.edge, SPVGEN_GEMM_EDGE_SHIFT);
  CHECK(shift.desc.tile_m > 77);
  others[n++] = shift;
  const uint32_t n_any = n;
  spvgen_gemm_plan_choice ch;
  spvgen_gemm_plan_opts o = {.compiled = others, .compiled_count = n_any, .expected_runs = 1, .choice = &ch};
  spvgen_gemm_config got, want = plan_of(&call, &c);
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan_ex(&call, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(!ch.reused && !memcmp(&got, &want, sizeof got), "reused %s", got.name);
  CHECK_EQ_U64(ch.candidates, 0);

  /* the desc keeps split-K off / sets a knob: the split 1-token kernel does not serve it */
  spvgen_gemm_config p1;
  d = call_desc(1, 3584, 3584, F16, F32, true);
  p1 = plan_of(&d, &c);
  CHECK(p1.desc.split_k > 1);
  o.compiled = &p1, o.compiled_count = 1;
  spvgen_gemm_desc keep = call;
  keep.split_k = 1;
  CHECK(spvgen_gemm_plan_ex(&keep, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.candidates == 0 && got.desc.split_k == 1);
  keep = call;
  keep.tile_m = 64;
  CHECK(spvgen_gemm_plan_ex(&keep, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.candidates == 0);
  /* and the control: the same cached plan for the desc as it is, reused */
  CHECK(spvgen_gemm_plan_ex(&call, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(ch.reused && ch.candidates == 1);
  /* a class of M multiples of 32 launches a 64-row call, but the desc promises any M: no;
   * a desc that promises multiples of 64: yes */
  d = call_desc(1, 3584, 3584, F16, F32, true);
  d.m_multiple = 32;
  spvgen_gemm_config m32 = plan_of(&d, &c);
  o.compiled = &m32;
  spvgen_gemm_desc call64 = call_desc(64, 3584, 3584, F16, F32, true);
  CHECK(spvgen_gemm_plan_ex(&call64, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.candidates == 0);
  call64.m_multiple = 64;
  CHECK(spvgen_gemm_plan_ex(&call64, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(ch.candidates == 1 && ch.reused);
  /* a fixed desc reuses only its very shape (here AUTO's own plan, cached) */
  spvgen_gemm_config fp = plan_of(&fixed, &c);
  spvgen_gemm_desc fixed2 = fixed;
  fixed2.m = 78;
  o.compiled = &fp;
  CHECK(spvgen_gemm_plan_ex(&fixed2, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.candidates == 0 && got.desc.m == 78);
  CHECK(spvgen_gemm_plan_ex(&fixed, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.default_cached && !memcmp(&got, &fp, sizeof got));
}

/* Long K: a cached plan that does not split K cannot take a K over
 * SPVGEN_GEMM_MAX_SERIAL_K (its launch refuses it); a split one can (its launch raises
 * the slices). */
static void long_k_takes_only_split_plans(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = call_desc(257, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  d.split_k = 1;
  d.m = 0; /* no hint: no shift edge */
  spvgen_gemm_config unsplit = plan_of(&d, &c);
  CHECK_EQ_U64(unsplit.desc.split_k, 1);
  spvgen_gemm_desc lk = call_desc(257, 3584, 18944, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_plan_choice ch;
  spvgen_gemm_plan_opts o = {.compiled = &unsplit, .compiled_count = 1, .expected_runs = 1, .choice = &ch};
  spvgen_gemm_config got;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan_ex(&lk, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(!ch.reused && ch.candidates == 0 && got.desc.split_k > 1);
  spvgen_gemm_args a = {.m = 257, .n = 3584, .k = 18944};
  double ms = 0;
  CHECK(spvgen_gemm_estimate_ms(&unsplit, &c, &a, &ms, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "SPVGEN_GEMM_MAX_SERIAL_K");
  spvgen_gemm_desc s = call_desc(1, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config split = plan_of(&s, &c);
  o.compiled = &split;
  CHECK(spvgen_gemm_plan_ex(&lk, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(ch.reused && ch.candidates == 1);
  CHECK(spvgen_gemm_estimate_ms(&split, &c, &a, &ms, msg, sizeof msg) == SPVGEN_OK && ms > 0);
}

static void bad_arguments_are_refused_by_name(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = call_desc(77, 512, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_plan_opts o = {.compiled = NULL, .compiled_count = 2};
  spvgen_gemm_config got;
  char msg[512];
  CHECK(spvgen_gemm_plan_ex(&d, &c, &o, &got, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "opts.compiled is NULL");
  CHECK(spvgen_gemm_plan_ex(&d, &c, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  double ms = 1;
  CHECK(spvgen_gemm_estimate_ms(NULL, &c, NULL, &ms, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_gemm_estimate_ms");
  CHECK(ms == 0);
  spvgen_gemm_config p = plan_of(&d, &c);
  CHECK(spvgen_gemm_estimate_ms(&p, &c, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  spvgen_gemm_args a = {.m = 77, .n = 500, .k = 3584}; /* n outside the class (multiples of 256) */
  CHECK(spvgen_gemm_estimate_ms(&p, &c, &a, &ms, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "n_multiple");
  /* a fixed plan is estimated for its own shape only */
  spvgen_gemm_desc f;
  memset(&f, 0, sizeof f);
  f.m = 64, f.n = 64, f.k = 64;
  spvgen_gemm_config fp = plan_of(&f, &c);
  spvgen_gemm_args same = {.m = 64, .n = 64, .k = 64}, other = {.m = 65, .n = 64, .k = 64};
  double own = 0;
  CHECK(spvgen_gemm_estimate_ms(&fp, &c, NULL, &own, msg, sizeof msg) == SPVGEN_OK && own > 0);
  CHECK(spvgen_gemm_estimate_ms(&fp, &c, &same, &ms, msg, sizeof msg) == SPVGEN_OK && ms == own);
  CHECK(spvgen_gemm_estimate_ms(&fp, &c, &other, &ms, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "fixed-shape plan");
  /* an invalid cached plan (not made by the planner) is no candidate, never a crash */
  spvgen_gemm_config junk;
  memset(&junk, 0, sizeof junk);
  spvgen_gemm_plan_choice ch;
  o.compiled = &junk, o.compiled_count = 1, o.choice = &ch;
  CHECK(spvgen_gemm_plan_ex(&d, &c, &o, &got, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!ch.reused && ch.candidates == 0);
}

/* The estimate grows with the work and ranks a grid that fills the SMs over one that
 * does not. */
static void the_estimate_follows_the_work(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = call_desc(2048, 4096, 4096, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config p = plan_of(&d, &c);
  double t1 = 0, t2 = 0, t3 = 0;
  char msg[512];
  spvgen_gemm_args a1 = {.m = 1024, .n = 4096, .k = 4096}, a2 = {.m = 4096, .n = 4096, .k = 4096},
                   a3 = {.m = 4096, .n = 4096, .k = 8192};
  CHECK(spvgen_gemm_estimate_ms(&p, &c, &a1, &t1, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_estimate_ms(&p, &c, &a2, &t2, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_estimate_ms(&p, &c, &a3, &t3, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(t1 < t2 && t2 < t3, "%g %g %g", t1, t2, t3);
  /* 4096^3 at 100-400 TFLOP/s on an H100: 0.34-1.4 ms */
  CHECK_MSG(t2 > 0.34 && t2 < 1.4, "%g ms", t2);
  double own = 0;
  CHECK(spvgen_gemm_estimate_ms(&p, &c, NULL, &own, msg, sizeof msg) == SPVGEN_OK); /* the hint: 2048 rows */
  CHECK(own > t1 && own < t2);
}

/* The GPU test's flow (tests/gpu/test_gpu_gemm.c, prompt lengths with reused kernels) on
 * the h100 preset: at one expected run every cached kernel that can run a call stands in;
 * each chosen plan launches its call, its resolved desc plans to the same kernel (what
 * the runners rely on), and its kernels validate. */
static void reused_h100_plans_replan_to_themselves_and_validate(void) {
  spvgen_device_caps c = preset("h100");
  static const uint32_t weights[][2] = {{512, 1024}, {1536, 512}, {256, 20000}};
  static const uint32_t ms[] = {1, 77, 300, 1000, 33, 130};
  static const spvgen_component_type t[][2] = {{SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
                                               {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32}};
  spvgen_gemm_config held[64];
  uint32_t nheld = 0, reused = 0;
  for (size_t ti = 0; ti < 2; ti++)
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
      for (size_t w = 0; w < 3; w++) {
        spvgen_gemm_desc d = call_desc(ms[mi], weights[w][0], weights[w][1], t[ti][0], t[ti][1], true);
        spvgen_gemm_plan_choice ch;
        spvgen_gemm_plan_opts o = {.compiled = held, .compiled_count = nheld, .expected_runs = 1, .choice = &ch};
        spvgen_gemm_config p, again;
        char msg[512];
        CHECK_MSG(spvgen_gemm_plan_ex(&d, &c, &o, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        reused += ch.reused;
        spvgen_gemm_args a = {.m = ms[mi], .n = weights[w][0], .k = weights[w][1]};
        spvgen_gemm_launch l;
        CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s: %s", p.name, msg);
        CHECK_MSG(spvgen_gemm_plan(&p.desc, &c, &again, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        CHECK_MSG(spvgen_gemm_class_key(&again) == spvgen_gemm_class_key(&p), "%s replans to %s", p.name, again.name);
        bool have = false;
        for (uint32_t j = 0; j < nheld; j++) have = have || spvgen_gemm_class_key(&held[j]) == spvgen_gemm_class_key(&p);
        if (have) continue;
        held[nheld++] = p;
        spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
        uint32_t nk = 0;
        CHECK_MSG(spvgen_gemm_plan_kernels(&p, k, &nk, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        for (uint32_t j = 0; j < nk; j++) {
          check_words(k[j].words, k[j].word_count);
          spvgen_kernel_free(&k[j]);
        }
      }
  CHECK_MSG(reused >= 10, "%u calls reused a kernel", reused);
  CHECK(nheld >= 2);
}

/* ------------------------------------------------------- on the device ---- */

/* On the test device: a kernel planned for a 3-row call stands in for the plan AUTO gives
 * a 37-row call of the same class; its launch takes the 37-row shape (and another of the
 * class) and the results match the float64 reference, every element. */
static void a_reused_plan_runs_the_call_right(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_device_caps *c = spvgen_vk_caps(ctx);
  spvgen_gemm_desc d3 = call_desc(3, 56, 56, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_desc d37 = call_desc(37, 296, 56, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, true);
  spvgen_gemm_config p3 = plan_of(&d3, c), auto37 = plan_of(&d37, c);
  spvgen_gemm_plan_choice ch;
  spvgen_gemm_plan_opts o = {.compiled = &p3, .compiled_count = 1, .expected_runs = 1, .choice = &ch};
  spvgen_gemm_config got;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan_ex(&d37, c, &o, &got, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  if (spvgen_gemm_class_key(&p3) == spvgen_gemm_class_key(&auto37)) {
    /* this device's AUTO gives both calls one kernel: the reuse is the cache's own hit */
    CHECK(!ch.reused && ch.default_cached);
  } else {
    CHECK_MSG(ch.reused, "AUTO %s, cached %s", auto37.name, p3.name);
  }
  CHECK_EQ_U64(spvgen_gemm_class_key(&got), spvgen_gemm_class_key(&p3));
  /* run the reused kernel: its resolved desc plans to the same kernel */
  spvgen_gemm_desc run = got.desc;
  static const spvgen_gemm_args shapes[] = {{.m = 37, .n = 296, .k = 56}, {.m = 70, .n = 24, .k = 200}};
  gemm_run_result r[2];
  gemm_run_options ro = {0};
  ro.seed = test_rand_u32() | 1u;
  spvgen_status st = gemm_run_shapes(ctx, &run, shapes, 2, &ro, r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    CHECK_EQ_U64(spvgen_gemm_class_key(&r[0].plan), spvgen_gemm_class_key(&p3));
    for (int i = 0; i < 2; i++) {
      const spvgen_gemm_desc *s = &r[i].shape;
      CHECK_EQ_U64(r[i].checked, (uint64_t)s->m * s->n * s->batch);
      CHECK_MSG(r[i].bad == 0, "[%s] %ux%ux%u: %llu of %llu wrong; first (%llu,%llu) gpu %g cpu %g", r[i].plan.name,
                s->m, s->n, s->k, (unsigned long long)r[i].bad, (unsigned long long)r[i].checked,
                (unsigned long long)r[i].first_bad_row, (unsigned long long)r[i].first_bad_col, r[i].first_bad_gpu,
                r[i].first_bad_ref);
    }
  }
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(nothing_cached_gives_autos_plan_byte_for_byte),
      TEST_CASE(a_cached_near_equal_plan_is_reused),
      TEST_CASE(a_much_slower_cached_plan_is_not_reused_over_many_runs),
      TEST_CASE(a_cached_plan_of_another_class_is_never_reused),
      TEST_CASE(long_k_takes_only_split_plans),
      TEST_CASE(bad_arguments_are_refused_by_name),
      TEST_CASE(the_estimate_follows_the_work),
      TEST_CASE(reused_h100_plans_replan_to_themselves_and_validate),
      TEST_CASE(a_reused_plan_runs_the_call_right),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
