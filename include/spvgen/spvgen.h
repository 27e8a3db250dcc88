/* spvgen/spvgen.h — everything: builder, cooperative helpers, checking, runner,
 * templates, the autotuner, version. */
#ifndef SPVGEN_SPVGEN_H
#define SPVGEN_SPVGEN_H
#include "spvgen/status.h"
#include "spvgen/version.h" /* generated at configure time (cmake/version.h.in) */
#include "spvgen/builder.h"
#include "spvgen/coop.h"
#include "spvgen/kernel.h"
#include "spvgen/check.h"
#include "spvgen/vk.h"
#include "spvgen/activation.h"
#include "spvgen/elementwise.h"
#include "spvgen/gemm.h"
#include "spvgen/tune.h"
#include "spvgen/mlp.h"
#endif
