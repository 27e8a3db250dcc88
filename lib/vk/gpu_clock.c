/* lib/vk/gpu_clock.c — spvgen_vk_measure_clock (spvgen/vk.h): the GPU's shader clock as it
 * is now, measured by a probe kernel that counts its own cycles (VK_KHR_shader_clock's
 * subgroup clock, OpReadClockKHR) while the queue's timestamps time it.
 *
 * Why: after an idle second the NVIDIA driver keeps the SM clock at its idle value (345 MHz
 * on the H100 and H200) for the first 100-400 ms of work, and a kernel timed then runs
 * 3-5x slow (docs/design-notes.md, "The slow mode is the clock's ramp (session 15)"). A
 * timing without the clock beside it cannot tell that from a slow kernel.
 *
 * The probe is one invocation spinning on the clock until `cycles` have passed, then
 * writing how many did. Two probes of different lengths, each timed, give the frequency
 * from the difference (the launch's fixed cost cancels): MHz = (c2 - c1) / (t2 - t1) us;
 * a third, unmeasured and first, takes whatever the driver still does at a pipeline's
 * first dispatch. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "internal.h"
#include "spvgen/builder.h"

/* The two probes' lengths in clock cycles: 1 ms apart at 2 GHz, 5.8 ms at 345 MHz. Long
 * enough that a CPU implementation's dispatch noise (lavapipe: a few hundred us) does not
 * swamp the difference. */
#define PROBE_SHORT 20000u
#define PROBE_LONG 2020000u

/* The probe's module: binding 0 a uint buffer (element 0 gets the cycles counted), push
 * constant 0 the cycles to count. */
static spvgen_status probe_module(spvgen_module *m, const uint32_t **words, size_t *count) {
  const uint32_t u32 = spvgen_type_int(m, 32, false);
  const uint32_t v2 = spvgen_type_vector(m, u32, 2);
  const uint32_t b = spvgen_type_bool(m);
  spvgen_buffer out = spvgen_buffer_declare(m, u32, 0, 0, 0);
  spvgen_push_constant_block pc = spvgen_push_constants(m, &u32, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  const uint32_t subgroup = spvgen_const_u32(m, SpvScopeSubgroup);
  const uint32_t target = spvgen_push_constant_load(m, &pc, 0);
  const uint32_t zero = spvgen_const_u32(m, 0);
  static const uint32_t x = 0; /* the literal index of component x */
  /* the low 32 bits: the probes' spans are far under 2^32 cycles, and the unsigned
   * difference is right across a wrap */
  const uint32_t start = spvgen_op_composite_extract(m, u32, spvgen_op_read_clock_khr(m, v2, subgroup), &x, 1);
  const uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, u32),
                                       SpvStorageClassFunction, 0);
  spvgen_loop(m, SpvLoopControlMaskNone);
  const uint32_t now = spvgen_op_composite_extract(m, u32, spvgen_op_read_clock_khr(m, v2, subgroup), &x, 1);
  const uint32_t spent = spvgen_op_i_sub(m, u32, now, start);
  spvgen_store(m, var, spent);
  spvgen_loop_while(m, spvgen_op_u_less_than(m, b, spent, target));
  spvgen_end_loop(m);
  spvgen_store(m, spvgen_buffer_element(m, &out, zero), spvgen_load(m, u32, var));
  spvgen_function_end(m);
  return spvgen_module_finish(m, words, count);
}

spvgen_status spvgen_vk_measure_clock(spvgen_vk_context *ctx, spvgen_vk_clock *out) {
  static const char who[] = "spvgen_vk_measure_clock";
  if (out) memset(out, 0, sizeof *out);
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!out) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: out is NULL", who);
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!(ctx->caps.features & SPVGEN_FEATURE_SHADER_CLOCK))
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                      "%s: VK_KHR_shader_clock (shaderSubgroupClock) is not enabled on '%s'%s", who, ctx->caps.name,
                      ctx->wrapped ? " (a wrapped context: the feature was not in device_create_info or "
                                     "enabled_features)"
                                   : ": the device lacks it");
  if (!(ctx->caps.features & SPVGEN_FEATURE_TIMESTAMPS))
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED, "%s: the queue of '%s' writes no timestamps", who,
                      ctx->caps.name);
  spvgen_module *m = spvgen_module_create(NULL);
  if (!m) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  const uint32_t *words = NULL;
  size_t count = 0;
  if (probe_module(m, &words, &count) != SPVGEN_OK) {
    st = sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_STATE, "%s: the probe kernel: %s (a bug in spvgen)", who,
                    spvgen_module_error(m));
    spvgen_module_destroy(m);
    return st;
  }
  spvgen_vk_pipeline *p = NULL;
  spvgen_vk_buffer *buf = NULL;
  st = spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &p); /* the kernel cache's after the first */
  spvgen_module_destroy(m);
  if (st == SPVGEN_OK) st = spvgen_vk_buffer_create(ctx, 16, 0, &buf);
  /* a short probe first, unmeasured: a driver may finish the compile at the first
   * dispatch (lavapipe does). Up to three tries of the pair: on a CPU implementation a
   * thread that moves between cores may read another core's cycle counter. */
  uint32_t cycles[3] = {0, 0, 0};
  uint64_t ns[3] = {0, 0, 0};
  static const uint32_t target[3] = {PROBE_SHORT, PROBE_SHORT, PROBE_LONG};
  bool sane = false;
  for (int attempt = 0; attempt < 3 && st == SPVGEN_OK && !sane; attempt++) {
    for (int i = attempt ? 1 : 0; i < 3 && st == SPVGEN_OK; i++) {
      st = spvgen_vk_dispatch(ctx, p, &buf, 1, &target[i], sizeof target[i], 1, 1, 1, &ns[i]);
      if (st == SPVGEN_OK) st = spvgen_vk_buffer_download(ctx, buf, 0, &cycles[i], sizeof cycles[i]);
    }
    sane = cycles[2] > cycles[1] + PROBE_LONG / 2 && ns[2] > ns[1];
  }
  spvgen_vk_buffer_destroy(buf);
  spvgen_vk_pipeline_destroy(p);
  if (st != SPVGEN_OK) return st; /* the failed call's message stands */
  if (!sane)
    return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                      "%s: the probe's readings make no sense (%u cycles in %llu ns, %u in %llu ns): the device's "
                      "subgroup clock or timestamps are not usable",
                      who, cycles[1], (unsigned long long)ns[1], cycles[2], (unsigned long long)ns[2]);
  out->mhz = (double)(cycles[2] - cycles[1]) * 1e3 / (double)(ns[2] - ns[1]);
  out->cycles = cycles[2];
  out->ns = ns[2];
  return SPVGEN_OK;
}
