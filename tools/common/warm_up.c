/* tools/common/warm_up.c — see warm_up.h: the runner's warm-up (spvgen_vk_warm_up). */
#include "warm_up.h"

#include <string.h>

spvgen_status warm_up_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                          uint32_t min_ms, uint64_t *ns, warm_up_info *info) {
  return warm_up_run_limit(ctx, dd, count, min_ms, 0, ns, info);
}

spvgen_status warm_up_run_limit(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t min_ms, uint32_t limit_ms, uint64_t *ns, warm_up_info *info) {
  return warm_up_run_steps(ctx, dd, count, 1, min_ms, limit_ms, ns, info);
}

spvgen_status warm_up_run_steps(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t group, uint32_t min_ms, uint32_t limit_ms, uint64_t *ns,
                                warm_up_info *info) {
  (void)ns; /* the runner keeps its own timestamps */
  if (!group) group = 1;
  spvgen_vk_warm_up_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.dispatches = dd;
  wd.count = count * group;
  wd.group = group;
  wd.min_ms = min_ms;
  wd.limit_ms = limit_ms;
  return spvgen_vk_warm_up(ctx, &wd, info);
}
