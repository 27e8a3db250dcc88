/* lib/vk/coopvec.c — cooperative vector matrix conversion (VK_NV_cooperative_vector):
 * the size query, host conversion (vkConvertCooperativeVectorMatrixNV) and device
 * conversion between buffers (vkCmdConvertCooperativeVectorMatrixNV). The optimal
 * layouts are opaque and driver-specific; this is the only way to produce them. */
#include <string.h>

#include "internal.h"

static bool standard_layout(SpvCooperativeVectorMatrixLayout l) {
  return l == SpvCooperativeVectorMatrixLayoutRowMajorNV ||
         l == SpvCooperativeVectorMatrixLayoutColumnMajorNV;
}

static bool known_layout(SpvCooperativeVectorMatrixLayout l) {
  return l >= SpvCooperativeVectorMatrixLayoutRowMajorNV &&
         l <= SpvCooperativeVectorMatrixLayoutTrainingOptimalNV;
}

/* Bytes of a row- or column-major matrix with the given stride (0: packed). */
static bool standard_size(uint32_t rows, uint32_t cols, spvgen_component_type t,
                          SpvCooperativeVectorMatrixLayout layout, size_t stride, size_t *size,
                          size_t *effective_stride, char *msg, size_t msg_size, const char *side) {
  uint32_t elem = spvgen_component_type_size(t);
  if (!elem) {
    sg_vk_format(msg, msg_size, "%s_type %d has no known size", side, (int)t);
    return false;
  }
  bool row_major = layout == SpvCooperativeVectorMatrixLayoutRowMajorNV;
  size_t line = (size_t)(row_major ? cols : rows) * elem;     /* bytes of one row/column */
  size_t lines = row_major ? rows : cols;
  size_t s = stride ? stride : line;
  if (s < line) {
    sg_vk_format(msg, msg_size, "%s_stride %zu is less than one %s (%zu bytes)", side, stride,
                     row_major ? "row" : "column", line);
    return false;
  }
  if (s % elem) {
    sg_vk_format(msg, msg_size, "%s_stride %zu is not a multiple of the element size %u",
                     side, stride, elem);
    return false;
  }
  *size = (lines - 1) * s + line;
  *effective_stride = s;
  return true;
}

/* The device feature every conversion needs, named when it is missing. */
static spvgen_status need_coopvec(spvgen_vk_context *ctx, const char *who) {
  if (!(ctx->caps.features & SPVGEN_FEATURE_COOPVEC))
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: matrix conversion needs the device feature cooperativeVector "
                          "(VK_NV_cooperative_vector), which '%s' does not have enabled",
                          who, ctx->caps.name);
  return SPVGEN_OK;
}

/* Checks the description; fills the Vulkan info (sizes and addresses left to callers). */
static spvgen_status prepare(spvgen_vk_context *ctx, const char *who,
                             const spvgen_vk_coopvec_matrix *m,
                             VkConvertCooperativeVectorMatrixInfoNV *info, size_t *src_size) {
  if (!m) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: matrix is NULL", who);
  if (m->rows == 0 || m->columns == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: the matrix is %ux%u", who,
                          m->rows, m->columns);
  if (!known_layout(m->src_layout) || !known_layout(m->dst_layout))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: unknown %s layout %d", who,
                          known_layout(m->src_layout) ? "dst" : "src",
                          known_layout(m->src_layout) ? (int)m->dst_layout : (int)m->src_layout);
  VkComponentTypeKHR src_type = sg_vk_component_to_vk(m->src_type);
  VkComponentTypeKHR dst_type = sg_vk_component_to_vk(m->dst_type);
  if (src_type == VK_COMPONENT_TYPE_MAX_ENUM_KHR || dst_type == VK_COMPONENT_TYPE_MAX_ENUM_KHR) {
    bool src_bad = src_type == VK_COMPONENT_TYPE_MAX_ENUM_KHR;
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: %s_type %d is not a component type Vulkan has (VkComponentTypeKHR)",
                      who, src_bad ? "src" : "dst", src_bad ? (int)m->src_type : (int)m->dst_type);
  }
  spvgen_status st = need_coopvec(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!ctx->ConvertCooperativeVectorMatrixNV)
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: vkConvertCooperativeVectorMatrixNV is not available (was "
                          "VK_NV_cooperative_vector enabled on the device?)",
                          who);
  memset(info, 0, sizeof *info);
  info->sType = VK_STRUCTURE_TYPE_CONVERT_COOPERATIVE_VECTOR_MATRIX_INFO_NV;
  info->srcComponentType = src_type;
  info->dstComponentType = dst_type;
  info->numRows = m->rows;
  info->numColumns = m->columns;
  info->srcLayout = (VkCooperativeVectorMatrixLayoutNV)m->src_layout;
  info->dstLayout = (VkCooperativeVectorMatrixLayoutNV)m->dst_layout;
  char msg[256];
  size_t stride = 0;
  *src_size = 0;
  if (standard_layout(m->src_layout)) {
    if (!standard_size(m->rows, m->columns, m->src_type, m->src_layout, m->src_stride, src_size,
                       &stride, msg, sizeof msg, "src"))
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s", who, msg);
    info->srcStride = stride;
  }
  if (standard_layout(m->dst_layout)) {
    size_t ignored;
    if (!standard_size(m->rows, m->columns, m->dst_type, m->dst_layout, m->dst_stride, &ignored,
                       &stride, msg, sizeof msg, "dst"))
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s", who, msg);
    info->dstStride = stride;
  }
  return SPVGEN_OK;
}

static spvgen_status query_size(spvgen_vk_context *ctx, const char *who,
                                const VkConvertCooperativeVectorMatrixInfoNV *info,
                                const spvgen_vk_coopvec_matrix *m, size_t *size) {
  VkConvertCooperativeVectorMatrixInfoNV q = *info;
  *size = 0;
  q.srcSize = 0;
  q.srcData.hostAddress = NULL;
  q.dstData.hostAddress = NULL;
  q.pDstSize = size;
  VkResult r = ctx->ConvertCooperativeVectorMatrixNV(ctx->device, &q);
  if (r != VK_SUCCESS)
    return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                          "%s: vkConvertCooperativeVectorMatrixNV (size query) failed: %s (%d) "
                          "for a %ux%u matrix, %s -> %s",
                          who, sg_vk_result_name(r), (int)r, info->numRows, info->numColumns,
                          spvgen_component_type_name(m->src_type),
                          spvgen_component_type_name(m->dst_type));
  if (*size == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: the driver reports 0 bytes for this conversion (unsupported types "
                          "or layout?)",
                          who);
  return SPVGEN_OK;
}

/* prepare(), then the source matrix's size in bytes: computed for a row- or
 * column-major source, asked of the driver for an optimal-layout one. */
static spvgen_status prepare_with_source_size(spvgen_vk_context *ctx, const char *who,
                                              const spvgen_vk_coopvec_matrix *m,
                                              VkConvertCooperativeVectorMatrixInfoNV *info,
                                              size_t *src_size) {
  spvgen_status st = prepare(ctx, who, m, info, src_size);
  if (st != SPVGEN_OK || standard_layout(m->src_layout)) return st;
  /* An optimal-layout source has the size the driver gives for that layout. */
  VkConvertCooperativeVectorMatrixInfoNV q = *info;
  q.dstLayout = q.srcLayout;
  q.dstComponentType = q.srcComponentType;
  return query_size(ctx, who, &q, m, src_size);
}

spvgen_status spvgen_vk_coopvec_src_size(const spvgen_vk_coopvec_matrix *m, size_t *size) {
  if (!m || !size) return SPVGEN_ERROR_INVALID_ARGUMENT;
  *size = 0;
  if (m->rows == 0 || m->columns == 0 || !standard_layout(m->src_layout))
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  char msg[8];
  size_t stride;
  return standard_size(m->rows, m->columns, m->src_type, m->src_layout, m->src_stride, size,
                       &stride, msg, sizeof msg, "src")
             ? SPVGEN_OK
             : SPVGEN_ERROR_INVALID_ARGUMENT;
}

spvgen_status spvgen_vk_coopvec_matrix_size(spvgen_vk_context *ctx,
                                            const spvgen_vk_coopvec_matrix *m, size_t *dst_size) {
  static const char *who = "spvgen_vk_coopvec_matrix_size";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!dst_size) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dst_size is NULL", who);
  *dst_size = 0;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  VkConvertCooperativeVectorMatrixInfoNV info;
  size_t src_size;
  st = prepare(ctx, who, m, &info, &src_size);
  if (st != SPVGEN_OK) return st;
  return query_size(ctx, who, &info, m, dst_size);
}

spvgen_status spvgen_vk_convert_coopvec_matrix(spvgen_vk_context *ctx,
                                               const spvgen_vk_coopvec_matrix *m, const void *src,
                                               size_t src_size, void *dst, size_t dst_size,
                                               size_t *written) {
  static const char *who = "spvgen_vk_convert_coopvec_matrix";
  if (written) *written = 0;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!src || !dst)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who,
                          src ? "dst" : "src");
  VkConvertCooperativeVectorMatrixInfoNV info;
  size_t need_src;
  st = prepare_with_source_size(ctx, who, m, &info, &need_src);
  if (st != SPVGEN_OK) return st;
  if (src_size < need_src)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: src_size %zu is less than the %zu bytes the source matrix needs",
                          who, src_size, need_src);
  size_t need_dst;
  st = query_size(ctx, who, &info, m, &need_dst);
  if (st != SPVGEN_OK) return st;
  if (dst_size < need_dst)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dst_size %zu is less than the %zu bytes the converted matrix needs",
                          who, dst_size, need_dst);
  size_t out_size = dst_size;
  info.srcSize = src_size;
  info.srcData.hostAddress = src;
  info.dstData.hostAddress = dst;
  info.pDstSize = &out_size;
  VkResult r = ctx->ConvertCooperativeVectorMatrixNV(ctx->device, &info);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkConvertCooperativeVectorMatrixNV", r);
  if (written) *written = out_size;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_convert_coopvec_matrix_buffers(spvgen_vk_context *ctx,
                                                       const spvgen_vk_coopvec_matrix *m,
                                                       spvgen_vk_buffer *src, uint64_t src_offset,
                                                       spvgen_vk_buffer *dst, uint64_t dst_offset) {
  static const char *who = "spvgen_vk_convert_coopvec_matrix_buffers";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st == SPVGEN_OK) st = need_coopvec(ctx, who);
  if (st != SPVGEN_OK) return st;
  st = sg_vk_check_buffer(ctx, who, src, "src");
  if (st != SPVGEN_OK) return st;
  st = sg_vk_check_buffer(ctx, who, dst, "dst");
  if (st != SPVGEN_OK) return st;
  if (!src->address || !dst->address)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: %s was not created with SPVGEN_VK_BUFFER_DEVICE_ADDRESS", who,
                          src->address ? "dst" : "src");
  if ((src->address + src_offset) % 64 || (dst->address + dst_offset) % 64)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the %s address must be a multiple of 64 (offset %llu)", who,
                          (src->address + src_offset) % 64 ? "src" : "dst",
                          (unsigned long long)((src->address + src_offset) % 64 ? src_offset
                                                                                 : dst_offset));
  if (!ctx->CmdConvertCooperativeVectorMatrixNV)
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: vkCmdConvertCooperativeVectorMatrixNV is not available (was "
                          "VK_NV_cooperative_vector enabled on the device?)", who);
  VkConvertCooperativeVectorMatrixInfoNV info;
  size_t need_src;
  st = prepare_with_source_size(ctx, who, m, &info, &need_src);
  if (st != SPVGEN_OK) return st;
  size_t need_dst;
  st = query_size(ctx, who, &info, m, &need_dst);
  if (st != SPVGEN_OK) return st;
  if (src_offset > src->size || need_src > src->size - src_offset)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the source matrix (%zu bytes at offset %llu) does not fit in src "
                          "(%llu bytes)",
                          who, need_src, (unsigned long long)src_offset,
                          (unsigned long long)src->size);
  if (dst_offset > dst->size || need_dst > dst->size - dst_offset)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the converted matrix (%zu bytes at offset %llu) does not fit in "
                          "dst (%llu bytes)",
                          who, need_dst, (unsigned long long)dst_offset,
                          (unsigned long long)dst->size);
  size_t dst_size = need_dst;
  info.srcSize = need_src;
  info.srcData.deviceAddress = src->address + src_offset;
  info.dstData.deviceAddress = dst->address + dst_offset;
  info.pDstSize = &dst_size;
  st = sg_vk_begin(ctx, who);
  if (st != SPVGEN_OK) return st;
  ctx->CmdConvertCooperativeVectorMatrixNV(ctx->cmd, 1, &info);
  return sg_vk_submit_wait(ctx, who);
}
