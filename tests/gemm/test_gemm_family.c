/* tests/gemm/test_gemm_family.c — a weight's kernel family (spvgen/gemm.h,
 * spvgen_gemm_plan_family): the plans spvgen_gemm_plan_ex takes for one run-time class over
 * prompt lengths with the family held, each once, the most used first: a caller holding
 * the family compiles nothing more at any length tried, and every member is taken at one
 * of the family's lengths (none compiled for nothing); capacity keeps the most used; bad
 * input is refused naming what. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "spvgen/gemm.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

/* The class of a linear layer's calls: N x K weights stored as a linear layer stores
 * them (nt), M free, as spvgen_gemm_class_for makes it for a call of M rows. */
static spvgen_gemm_desc weight_class(uint32_t n, uint32_t k) {
  spvgen_gemm_desc base;
  memset(&base, 0, sizeof base);
  base.a_type = base.b_type = SPVGEN_COMPONENT_F16;
  base.acc_type = base.out_type = SPVGEN_COMPONENT_F32;
  base.b_layout = SPVGEN_COL_MAJOR;
  spvgen_gemm_args a = {.m = 1, .n = n, .k = k};
  spvgen_gemm_desc d;
  char msg[512];
  CHECK_MSG(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  d.m_multiple = 1;
  return d;
}

static bool holds(const spvgen_gemm_config *plans, uint32_t n, uint64_t key) {
  for (uint32_t i = 0; i < n; i++)
    if (spvgen_gemm_class_key(&plans[i]) == key) return true;
  return false;
}

/* The family's own lengths (spvgen_gemm_plan_family's, to 4096). */
static const uint32_t family_len[] = {1, 3, 7, 13, 17, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4096};

/* How many of the family's lengths spvgen_gemm_plan_ex takes each of fam[0..nfam) at, with
 * the n plans of held compiled (fam among them, or fam itself); false when planning
 * failed. Any plan taken outside fam is counted in *outside (optional). */
static bool uses_at_family_lengths(const spvgen_gemm_desc *d, const spvgen_device_caps *c,
                                   const spvgen_gemm_config *held, uint32_t n, const spvgen_gemm_config *fam,
                                   uint32_t nfam, uint32_t *uses, uint32_t *outside) {
  char msg[1024];
  for (uint32_t a = 0; a < nfam; a++) uses[a] = 0;
  for (size_t j = 0; j < sizeof family_len / sizeof family_len[0]; j++) {
    spvgen_gemm_desc dm = *d;
    dm.m = family_len[j];
    spvgen_gemm_config ex;
    spvgen_gemm_plan_opts o = {.compiled = held, .compiled_count = n};
    if (spvgen_gemm_plan_ex(&dm, c, &o, &ex, msg, sizeof msg) != SPVGEN_OK) {
      CHECK_MSG(0, "M %u: %s", family_len[j], msg);
      return false;
    }
    bool in = false;
    for (uint32_t a = 0; a < nfam; a++)
      if (spvgen_gemm_class_key(&fam[a]) == spvgen_gemm_class_key(&ex)) uses[a]++, in = true;
    if (!in && outside) (*outside)++;
  }
  return true;
}

/* The family of each of a model's weights on the h100 and lavapipe presets: distinct
 * plans; on the h100 more than one (lengths from 1 to 4096 take small-M tiles and 128-row
 * ones). With the family held, spvgen_gemm_plan_ex takes a plan of the family at every
 * length tried (not only the family's own): AUTO's own, or one it estimates at least as
 * fast; and each member is taken at one of the family's lengths at least. */
static void every_length_is_served_by_the_family(void) {
  static const char *presets[] = {"h100", "lavapipe"};
  static const uint32_t w[][2] = {{3584, 3584}, {512, 3584}, {18944, 3584}, {3584, 18944}, {1024, 4096}};
  static const uint32_t m[] = {1, 2, 5, 16, 31, 64, 77, 100, 128, 200, 256, 257, 300, 511, 513, 999, 1024,
                               1537, 2000, 2049, 3001, 4096};
  for (size_t p = 0; p < 2; p++) {
    spvgen_device_caps c = preset(presets[p]);
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
      spvgen_gemm_desc d = weight_class(w[i][0], w[i][1]);
      spvgen_gemm_config fam[24];
      uint32_t count = 0, total = 0;
      char msg[1024];
      if (spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, fam, 24, &count, &total, msg, sizeof msg) != SPVGEN_OK) {
        CHECK_MSG(0, "%s %ux%u: %s", presets[p], w[i][0], w[i][1], msg);
        continue;
      }
      CHECK_MSG(count == total && count >= (p == 0 ? 2u : 1u), "%s %ux%u: %u of %u plans", presets[p], w[i][0], w[i][1],
                count, total);
      for (uint32_t a = 0; a < count; a++)
        for (uint32_t b = a + 1; b < count; b++)
          CHECK_MSG(spvgen_gemm_class_key(&fam[a]) != spvgen_gemm_class_key(&fam[b]), "%s twice", fam[a].name);
      for (size_t j = 0; j < sizeof m / sizeof m[0]; j++) {
        spvgen_gemm_desc dm = d;
        dm.m = m[j];
        spvgen_gemm_config own, ex;
        spvgen_gemm_plan_choice ch;
        CHECK(spvgen_gemm_plan(&dm, &c, &own, msg, sizeof msg) == SPVGEN_OK);
        spvgen_gemm_plan_opts o = {.compiled = fam, .compiled_count = count, .choice = &ch};
        CHECK(spvgen_gemm_plan_ex(&dm, &c, &o, &ex, msg, sizeof msg) == SPVGEN_OK);
        CHECK_MSG(holds(fam, count, spvgen_gemm_class_key(&ex)) && (!ch.reused || ch.run_ms <= ch.default_run_ms),
                  "%s %ux%u, M %u: plan_ex took %s (reused %d, est. %.4f ms against AUTO's %s, %.4f)", presets[p],
                  w[i][0], w[i][1], m[j], ex.name, ch.reused, ch.run_ms, own.name, ch.default_run_ms);
      }
      uint32_t uses[24];
      if (!uses_at_family_lengths(&d, &c, fam, count, fam, count, uses, NULL)) continue;
      for (uint32_t a = 0; a < count; a++)
        CHECK_MSG(uses[a] > 0, "%s %ux%u: %s is taken at none of the family's lengths", presets[p], w[i][0], w[i][1],
                  fam[a].name);
    }
  }
}

/* Capacity: the first plans are the most used ones, in the full family's order; count
 * says how many were written, total how many there are. The order: each plan's lengths
 * counted by planning the family's own lengths (1, 3, 7, 13, 17, 33, 49, 65, 97, ...). */
static void capacity_keeps_the_most_used_plans(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = weight_class(3584, 3584);
  spvgen_gemm_config all[24], two[2];
  uint32_t n_all = 0, n_two = 0, total = 0;
  char msg[1024];
  CHECK(spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, all, 24, &n_all, NULL, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, two, 2, &n_two, &total, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(n_two == 2 && total == n_all && n_all > 2, "%u written, %u in all, %u", n_two, total, n_all);
  for (uint32_t i = 0; i < n_two && i < n_all; i++) CHECK_MSG(!strcmp(two[i].name, all[i].name), "%s / %s", two[i].name, all[i].name);
  /* the uses (the lengths spvgen_gemm_plan_ex takes each at, the family held), recounted
   * here, never rise along the list */
  uint32_t uses[24] = {0};
  CHECK(uses_at_family_lengths(&d, &c, all, n_all, all, n_all, uses, NULL));
  for (uint32_t i = 0; i + 1 < n_all; i++)
    CHECK_MSG(uses[i] >= uses[i + 1], "%s (%u lengths) before %s (%u)", all[i].name, uses[i], all[i + 1].name, uses[i + 1]);
  /* capacity 0 asks for the size only */
  uint32_t n0 = 5, t0 = 0;
  CHECK(spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, NULL, 0, &n0, &t0, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(n0 == 0 && t0 == n_all, "%u, %u", n0, t0);
}

/* m_max bounds the lengths: a family planned up to 16 rows holds only what short prompts
 * take (here: M 1's plan alone), and a class of M multiples plans multiples only. */
static void m_max_and_m_multiple_bound_the_lengths(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = weight_class(3584, 3584);
  spvgen_gemm_config fam[24], small;
  uint32_t n = 0;
  char msg[1024];
  CHECK(spvgen_gemm_plan_family(&d, &c, 16, NULL, 0, fam, 24, &n, NULL, msg, sizeof msg) == SPVGEN_OK);
  spvgen_gemm_desc d1 = d;
  d1.m = 1;
  CHECK(spvgen_gemm_plan(&d1, &c, &small, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(n == 1 && !strcmp(fam[0].name, small.name), "%u plans, the first %s (M 1: %s)", n, n ? fam[0].name : "-",
            small.name);
  spvgen_gemm_desc d128 = d;
  d128.m_multiple = 128;
  CHECK(spvgen_gemm_plan_family(&d128, &c, 4096, NULL, 0, fam, 24, &n, NULL, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n; i++) CHECK_MSG(fam[i].desc.m % 128 == 0, "%s planned for M %u", fam[i].name, fam[i].desc.m);
}

/* A second weight's family with the first's held: only plans not held, and with both held
 * spvgen_gemm_plan_ex takes one of them at each of the family's lengths, each new plan at
 * one at least. A family whose every plan is held is empty. */
static void held_plans_are_weighed_not_listed(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d1 = weight_class(3584, 3584), d2 = weight_class(512, 3584);
  spvgen_gemm_config f1[24], f2[24], both[48];
  uint32_t n1 = 0, n2 = 0, n3 = 9, t3 = 9;
  char msg[1024];
  CHECK(spvgen_gemm_plan_family(&d1, &c, 4096, NULL, 0, f1, 24, &n1, NULL, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_family(&d2, &c, 4096, f1, n1, f2, 24, &n2, NULL, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n2; i++) CHECK_MSG(!holds(f1, n1, spvgen_gemm_class_key(&f2[i])), "%s is held", f2[i].name);
  memcpy(both, f1, sizeof *f1 * n1);
  memcpy(both + n1, f2, sizeof *f2 * n2);
  /* every length takes a plan of the two (nothing compiles), each new one at one at least */
  uint32_t uses_all[48], uses2[24], outside = 0;
  CHECK(uses_at_family_lengths(&d2, &c, both, n1 + n2, both, n1 + n2, uses_all, &outside));
  CHECK_MSG(outside == 0, "%u lengths compile a plan of their own", outside);
  CHECK(uses_at_family_lengths(&d2, &c, both, n1 + n2, f2, n2, uses2, NULL));
  for (uint32_t a = 0; a < n2; a++) CHECK_MSG(uses2[a] > 0, "%s is taken at none of the lengths", f2[a].name);
  /* the first weight again, its own family held: nothing left to compile */
  CHECK(spvgen_gemm_plan_family(&d1, &c, 4096, f1, n1, f2, 24, &n3, &t3, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(n3 == 0 && t3 == 0, "%u, %u", n3, t3);
  /* held NULL with a count */
  CHECK(spvgen_gemm_plan_family(&d1, &c, 4096, NULL, 2, f2, 24, &n3, NULL, msg, sizeof msg) ==
        SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "held is NULL with held_count > 0");
}

/* Bad input: named, nothing written. */
static void bad_input_is_refused_by_name(void) {
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_desc d = weight_class(3584, 3584);
  spvgen_gemm_config fam[4];
  uint32_t n = 7, t = 7;
  char msg[1024];
  struct {
    const char *want;
    spvgen_status st;
  } r[6];
  r[0].st = spvgen_gemm_plan_family(NULL, &c, 4096, NULL, 0, fam, 4, &n, &t, msg, sizeof msg);
  r[0].want = "desc is NULL";
  CHECK(n == 0 && t == 0);
  CHECK_MSG(strstr(msg, r[0].want) != NULL, "%s", msg);
  r[1].st = spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, fam, 4, NULL, &t, msg, sizeof msg);
  CHECK_MSG(r[1].st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "count is NULL"), "%s", msg);
  r[2].st = spvgen_gemm_plan_family(&d, &c, 4096, NULL, 0, NULL, 4, &n, &t, msg, sizeof msg);
  CHECK_MSG(r[2].st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "plans is NULL"), "%s", msg);
  r[3].st = spvgen_gemm_plan_family(&d, &c, 0, NULL, 0, fam, 4, &n, &t, msg, sizeof msg);
  CHECK_MSG(r[3].st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "m_max 0 (the longest prompt length to plan for) is not at least 1"), "%s", msg);
  spvgen_gemm_desc d64 = d;
  d64.m_multiple = 64;
  r[4].st = spvgen_gemm_plan_family(&d64, &c, 1000, NULL, 0, fam, 4, &n, &t, msg, sizeof msg);
  CHECK_MSG(r[4].st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "m_max 1000 is not a multiple of desc.m_multiple 64"),
            "%s", msg);
  spvgen_gemm_desc fixed = d;
  fixed.shapes = SPVGEN_GEMM_SHAPES_FIXED;
  fixed.m = 100;
  r[5].st = spvgen_gemm_plan_family(&fixed, &c, 4096, NULL, 0, fam, 4, &n, &t, msg, sizeof msg);
  CHECK_MSG(r[5].st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "not RUNTIME"), "%s", msg);
  CHECK(r[0].st == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_MSG(n == 0 && t == 0, "%u, %u", n, t);
  /* a class no length has a plan for: the planner's message, with the length */
  spvgen_device_caps plain = preset("vulkan13"); /* no cooperative matrices */
  spvgen_gemm_desc bad = d;
  bad.variant = SPVGEN_GEMM_COOPMAT2;
  spvgen_status st = spvgen_gemm_plan_family(&bad, &plain, 4096, NULL, 0, fam, 4, &n, &t, msg, sizeof msg);
  CHECK_MSG(st != SPVGEN_OK && strstr(msg, "spvgen_gemm_plan_family: m 1: "), "%d %s", st, msg);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(every_length_is_served_by_the_family),
      TEST_CASE(capacity_keeps_the_most_used_plans),
      TEST_CASE(m_max_and_m_multiple_bound_the_lengths),
      TEST_CASE(held_plans_are_weighed_not_listed),
      TEST_CASE(bad_input_is_refused_by_name),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
