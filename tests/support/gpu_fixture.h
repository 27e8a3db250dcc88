/* tests/support/gpu_fixture.h — what tests that run kernels on a device share: a check
 * macro for runner calls, random inputs rounded to the element type, and (for the
 * gpu-label tests) opening a device that has the features a test needs.
 *
 * Every test that runs on a device (gpu, vk, gemm, mlp, threads) uses the default device,
 * or the one whose name contains $SPVGEN_VK_DEVICE (test_device_name). The gpu tests open
 * it with gpu_open: a missing device or feature skips the test with the reason (CI has
 * lavapipe), unless SPVGEN_GPU_REQUIRED is set to something other than 0
 * (scripts/gpu-check sets it on the GPU machine): then it is a failure. The other tests
 * open it with vk_open, which always skips.
 *
 * gpu_open and gpu_unavailable are macros that record the caller's file and line, so a
 * failure points at the test. */
#ifndef SPVGEN_TEST_GPU_FIXTURE_H
#define SPVGEN_TEST_GPU_FIXTURE_H

#include <stdint.h>

#include "harness.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

/* Fails the test and jumps to `done` when a runner call does not return SPVGEN_OK. */
#define VK_CHECK(ctx, call)                                                             \
  do {                                                                                  \
    spvgen_status vk_st_ = (call);                                                      \
    if (vk_st_ != SPVGEN_OK) {                                                          \
      test_fail_at(__FILE__, __LINE__, "%s: %s: %s", #call, spvgen_status_name(vk_st_), \
                   spvgen_vk_error(ctx));                                               \
      goto done;                                                                        \
    }                                                                                   \
  } while (0)

/* One dispatch of pipeline pl over the n buffers r with a GEMM launch's push constants
 * and grid, submitted and waited for (spvgen_vk_submit, spvgen_vk_wait). */
spvgen_status gemm_dispatch_wait(spvgen_vk_context *ctx, spvgen_vk_pipeline *pl, const spvgen_vk_buffer_range *r,
                                 uint32_t n, const spvgen_gemm_launch *l);

/* ------------------------------------------------------------ device access ---- */

/* $SPVGEN_VK_DEVICE: a substring of the test device's name; NULL for the runner's
 * default (discrete GPUs first). */
const char *test_device_name(void);

/* A context on the test device with `required` features; NULL after test_skip (no
 * device, or the device lacks a feature) or a failure. */
#define vk_open(required) vk_open_at(__FILE__, __LINE__, (required))
spvgen_vk_context *vk_open_at(const char *file, int line, uint64_t required);

/* Whether SPVGEN_GPU_REQUIRED asks for skips to be failures. */
int gpu_required(void);

/* A missing device or feature: skips the test with the reason, or fails it where a GPU
 * is required. */
#define gpu_unavailable(...) gpu_unavailable_at(__FILE__, __LINE__, __VA_ARGS__)
void gpu_unavailable_at(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A context on the gpu tests' device that has every feature in `needed`; NULL when it
 * does not (the test skipped or failed, naming the first missing feature). */
#define gpu_open(needed) gpu_open_at(__FILE__, __LINE__, (needed))
spvgen_vk_context *gpu_open_at(const char *file, int line, uint64_t needed);

/* ------------------------------------------------------------------- data ---- */

/* A random value with magnitude in [1/8, 1) and a random sign (test_rand_* stream). */
float gpu_rand_f32(void);
/* The same, rounded to f16 (the bits). */
uint16_t gpu_rand_f16(void);
/* The value of f16 bits. */
double gpu_f16_value(uint16_t bits);

#endif
