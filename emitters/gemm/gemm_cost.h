/* emitters/gemm/gemm_cost.h — what other emitters may ask of the GEMM's planner beyond
 * spvgen/gemm.h (emitters/gemm/plan_cost.c). */
#ifndef SPVGEN_EMITTERS_GEMM_COST_H
#define SPVGEN_EMITTERS_GEMM_COST_H

#include "spvgen/gemm.h"

/* spvgen_gemm_plan of a FIXED desc that stands in for a run-time class (the MLP layers
 * variant's GEMMs take their knobs from the fixed shape at a typical point count,
 * emitters/mlp/layers.c): planned with the run-time class's compile model. The compile
 * model's small-tile cap was fitted on fixed kernels only and put such classes' plans
 * 0.58-1.01x (docs/design-notes.md, "The compile model's small tiles"). */
spvgen_status gemm_plan_runtime_stand_in(const spvgen_gemm_desc *fixed, const spvgen_device_caps *caps,
                                         spvgen_gemm_config *out, char *msg, size_t size);

#endif
