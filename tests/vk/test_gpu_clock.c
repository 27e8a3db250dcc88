/* tests/vk/test_gpu_clock.c — spvgen_vk_measure_clock: on a device with VK_KHR_shader_clock
 * (lavapipe has it: its "subgroup clock" is the CPU's cycle counter) the probe gives a rate
 * in a plausible range, its longer probe counted at least the cycles asked for, and two
 * measurements in a row agree within a factor of 3 (a GPU whose clock ramps may read low
 * first: the bound is loose on purpose); a wrapped context whose chain does not enable the
 * feature says so; NULL arguments are named. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "vk_fixture.h"

static void measures_a_plausible_rate(void) {
  spvgen_vk_context *ctx = vk_open_cached(NULL);
  if (!ctx) return;
  spvgen_vk_clock a, b;
  spvgen_status st = spvgen_vk_measure_clock(ctx, &a);
  if (st == SPVGEN_ERROR_UNSUPPORTED && !(spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_SHADER_CLOCK)) {
    /* a device without the extension: the message names it; nothing else to check */
    CHECK_CONTAINS(spvgen_vk_error(ctx), "VK_KHR_shader_clock");
    test_skip("%s", spvgen_vk_error(ctx));
    spvgen_vk_destroy(ctx);
    return;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", spvgen_status_name(st), spvgen_vk_error(ctx));
  st = spvgen_vk_measure_clock(ctx, &b);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", spvgen_status_name(st), spvgen_vk_error(ctx));
  printf("  %s: %.0f MHz, then %.0f MHz (%u cycles in %llu ns)\n", spvgen_vk_caps(ctx)->name, a.mhz, b.mhz, b.cycles,
         (unsigned long long)b.ns);
  /* 10 MHz to 10 GHz: every GPU's and CPU's shader clock */
  CHECK_MSG(a.mhz > 10 && a.mhz < 10000 && b.mhz > 10 && b.mhz < 10000, "%.1f, %.1f MHz", a.mhz, b.mhz);
  CHECK_MSG(b.cycles >= 1010000u, "the longer probe counted %u cycles", b.cycles);
  CHECK_MSG(b.ns > 0 && b.cycles / (b.ns * 1e-3) > 0.5 * b.mhz, "%u cycles in %llu ns against %.1f MHz", b.cycles,
            (unsigned long long)b.ns, b.mhz);
  /* a GPU's clock: the two agree within 3x (a ramp from idle is at most ~5.7x, and the
   * first probe is work already); a CPU's dispatch noise is its own, not checked */
  if (spvgen_vk_caps(ctx)->type != SPVGEN_DEVICE_CPU)
    CHECK_MSG(a.mhz < 3 * b.mhz && b.mhz < 3 * a.mhz, "%.1f then %.1f MHz", a.mhz, b.mhz);
  spvgen_vk_destroy(ctx);
}

#define VK_CHECK_OK(ctx, call)                                                                       \
  do {                                                                                               \
    spvgen_status st_ = (call);                                                                      \
    CHECK_MSG(st_ == SPVGEN_OK, "%s: %s: %s", #call, spvgen_status_name(st_), spvgen_vk_error(ctx)); \
  } while (0)

static void wrapped_without_the_feature_says_so(void) {
  spvgen_vk_context *owner = vk_open_cached(NULL);
  if (!owner) return;
  spvgen_vk_context *w = NULL;
  /* the caller says it enabled everything the owner did but the shader clock */
  spvgen_vk_wrap_desc wd = vk_wrap_desc_of(owner);
  wd.enabled_features &= ~SPVGEN_FEATURE_SHADER_CLOCK;
  char msg[1024];
  spvgen_status st = spvgen_vk_wrap(&wd, &w, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s", msg);
  if (st == SPVGEN_OK) {
    spvgen_vk_clock c;
    VK_EXPECT_ERROR(w, spvgen_vk_measure_clock(w, &c), SPVGEN_ERROR_UNSUPPORTED, "a wrapped context");
    CHECK(c.mhz == 0);
    VK_EXPECT_ERROR(w, spvgen_vk_measure_clock(w, NULL), SPVGEN_ERROR_INVALID_ARGUMENT, "out is NULL");
  }
  /* with the feature (where the owner has it): measured */
  if (spvgen_vk_caps(owner)->features & SPVGEN_FEATURE_SHADER_CLOCK) {
    spvgen_vk_destroy(w);
    w = NULL;
    wd.enabled_features = spvgen_vk_caps(owner)->features;
    st = spvgen_vk_wrap(&wd, &w, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s", msg);
    spvgen_vk_clock c;
    if (st == SPVGEN_OK) VK_CHECK_OK(w, spvgen_vk_measure_clock(w, &c));
  }
  CHECK(spvgen_vk_measure_clock(NULL, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  spvgen_vk_destroy(w);
  spvgen_vk_destroy(owner);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(measures_a_plausible_rate),
      TEST_CASE(wrapped_without_the_feature_says_so),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
