/* emitters/gemm/coopmat_khr.c — placeholder until the variant lands. */
#include "gemm_internal.h"

static spvgen_status khr_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size) {
  (void)caps; (void)p;
  return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the khr variant is not implemented yet");
}
static uint32_t khr_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                                spvgen_gemm_desc *out, uint32_t max) {
  (void)caps; (void)desc; (void)out; (void)max;
  return 0;
}
static void khr_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  (void)p;
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_gemm_emit: the khr variant is not implemented yet");
}
const gemm_variant_ops gemm_variant_khr = {"khr", khr_plan, khr_candidates, khr_emit};
