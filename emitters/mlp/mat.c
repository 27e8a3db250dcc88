/* emitters/mlp/mat.c — the MLP on KHR cooperative matrices (placeholder). */
#include "mlp_internal.h"

static spvgen_status mat_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                              size_t size) {
  (void)caps;
  (void)p;
  return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the mat variant is not implemented yet");
}

static uint32_t mat_candidates(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc,
                               spvgen_mlp_desc *out, uint32_t max) {
  (void)caps;
  if (!max) return 0;
  out[0] = *desc;
  return 1;
}

static void mat_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  (void)p;
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_mlp_emit: the mat variant is not implemented yet");
}

const mlp_variant_ops mlp_variant_mat = {"mat", mat_plan, mat_candidates, mat_emit, NULL};
