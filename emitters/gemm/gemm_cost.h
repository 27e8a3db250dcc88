/* emitters/gemm/gemm_cost.h — what other emitters may ask of the GEMM's cost model
 * (emitters/gemm/plan_cost.c). */
#ifndef SPVGEN_EMITTERS_GEMM_COST_H
#define SPVGEN_EMITTERS_GEMM_COST_H

#include <stdbool.h>

/* Plan FIXED descs with a run-time class's compile model (on) or their own (off), on this
 * thread: for a fixed stand-in of a run-time class (the MLP layers variant's GEMMs,
 * emitters/mlp/layers.c). The small-tile cap of the compile model was fitted on fixed
 * kernels only (docs/design-notes.md, "The compile model's small tiles"). */
void gemm_cost_as_runtime_class(bool on);

#endif
