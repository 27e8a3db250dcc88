/* emitters/gemm/coopmat2.c — placeholder until the variant lands. */
#include "gemm_internal.h"

static spvgen_status coopmat2_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size) {
  (void)caps; (void)p;
  return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the coopmat2 variant is not implemented yet");
}
static uint32_t coopmat2_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                                spvgen_gemm_desc *out, uint32_t max) {
  (void)caps; (void)desc; (void)out; (void)max;
  return 0;
}
static void coopmat2_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  (void)p;
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_gemm_emit: the coopmat2 variant is not implemented yet");
}
const gemm_variant_ops gemm_variant_coopmat2 = {"coopmat2", coopmat2_plan, coopmat2_candidates, coopmat2_emit};
