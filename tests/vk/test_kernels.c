/* tests/vk/test_kernels.c — builder-made compute kernels run through the runner and
 * checked against the CPU on random data, every output element: an f32 vector add with a
 * bounds check, an f16 multiply-add, a grid-stride loop with a shared-memory tree
 * reduction, two dependent dispatches in one submission (the barrier between them),
 * specialization constants, per-dispatch timestamps, host-visible buffers, and a context
 * wrapped around another one's Vulkan objects. CI runs them on lavapipe. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_tensor.h"
#include "vk_fixture.h"

/* The vector add: every element below n is a + b; the tail of c beyond n keeps its fill
 * (the shader's bounds check works and the dispatch covered every element). */
static void test_vector_add_f32_matches_cpu(void) {
  enum { N = 1000, CAP = 1088, LOCAL = 64 };
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  static float a[CAP], b[CAP], c[CAP];
  vk_build_vector_add(m, LOCAL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  for (int i = 0; i < CAP; i++) {
    a[i] = vk_rand_f32();
    b[i] = vk_rand_f32();
  }
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, CAP * 4, 0, &bufs[i]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, sizeof b));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bufs[2], 0, sizeof c, 0x7fc00bad));
  uint32_t n = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, (N + LOCAL - 1) / LOCAL, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, sizeof c));
  int bad = 0;
  for (int i = 0; i < CAP; i++) {
    uint32_t bits;
    memcpy(&bits, &c[i], 4);
    bool ok = i < N ? c[i] == a[i] + b[i] : bits == 0x7fc00bad;
    if (!ok && bad++ < 5)
      CHECK_MSG(0, "c[%d] = %.9g (0x%08x), expected %s", i, c[i], bits,
                i < N ? "a + b" : "the fill 0x7fc00bad");
  }
  CHECK_EQ_U64(bad, 0);
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* out[i] = a[i] * b[i] + a[i] in f16 arithmetic on f16 buffers; the CPU rounds after each
 * operation. A device may fuse the two (skipping the product's rounding, at most half an
 * f16 ulp of |a * b|) or compute in f32 (a different final rounding, at most one ulp of
 * the result): the tolerance is the sum of both bounds, doubled. */
static void test_float16_multiply_add_matches_cpu(void) {
  enum { N = 777, LOCAL = 32 };
  spvgen_vk_context *ctx =
      vk_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  static uint16_t a[N], b[N], out[N];

  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t pf = 0;
  uint32_t va_buf = spvgen_storage_buffer(m, f16, 0, 0, true, &pf);
  uint32_t vb_buf = spvgen_storage_buffer(m, f16, 0, 1, true, NULL);
  uint32_t vo_buf = spvgen_storage_buffer(m, f16, 0, 2, false, NULL);
  uint32_t pc_ptr = 0;
  uint32_t pc = vk_push_constants_u32(m, 1, &pc_ptr);
  spvgen_compute_main(m, "main", LOCAL, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t n = vk_load_push_u32(m, pc, pc_ptr, 0);
  spvgen_if(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), i, n));
  uint32_t x = spvgen_load(m, f16, vk_element(m, pf, va_buf, i));
  uint32_t y = spvgen_load(m, f16, vk_element(m, pf, vb_buf, i));
  uint32_t r = spvgen_op_f_add(m, f16, spvgen_op_f_mul(m, f16, x, y), x);
  spvgen_store(m, vk_element(m, pf, vo_buf, i), r);
  spvgen_end_if(m);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;

  for (int k = 0; k < N; k++) {
    a[k] = (uint16_t)tensor_ref_encode(TENSOR_REF_F16, vk_rand_f32());
    b[k] = (uint16_t)tensor_ref_encode(TENSOR_REF_F16, vk_rand_f32());
  }
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int k = 0; k < 3; k++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[k]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, sizeof b));
  uint32_t nn = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &nn, 4, (N + LOCAL - 1) / LOCAL, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, out, sizeof out));
  int bad = 0;
  double worst = 0;
  for (int k = 0; k < N; k++) {
    double fa = tensor_ref_decode(TENSOR_REF_F16, a[k]);
    double fb = tensor_ref_decode(TENSOR_REF_F16, b[k]);
    double prod = tensor_ref_decode(TENSOR_REF_F16, tensor_ref_encode(TENSOR_REF_F16, fa * fb));
    double ref = tensor_ref_decode(TENSOR_REF_F16, tensor_ref_encode(TENSOR_REF_F16, prod + fa));
    double got = tensor_ref_decode(TENSOR_REF_F16, out[k]);
    double tol = ldexp(1.0, -10) * (fabs(fa * fb) + 2.0 * fabs(ref)) + ldexp(1.0, -24);
    double err = fabs(got - ref);
    if (err > worst) worst = err;
    if (!(err <= tol) && bad++ < 5)
      CHECK_MSG(0, "out[%d] = %.6g, expected %.6g (a %.6g, b %.6g)", k, got, ref, fa, fb);
  }
  CHECK_EQ_U64(bad, 0);
done:
  for (int k = 0; k < 3; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* Each workgroup (LOCAL invocations) sums in[i] over a grid-stride loop
 * (i = group * LOCAL + lid; i < n; i += groups * LOCAL), then reduces its LOCAL partial
 * sums in shared memory with a loop of halving steps and barriers; invocation 0 writes
 * out[group]. LOCAL is a multiple of lavapipe's subgroup size 8 but larger than it, so
 * the barriers matter. */
static void test_shared_memory_loop_reduction_matches_cpu(void) {
  enum { N = 5003, LOCAL = 64, GROUPS = 7 };
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[2] = {NULL, NULL};
  static float in[N];
  float out[GROUPS];

  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t boolean = spvgen_type_bool(m);
  uint32_t pf = 0;
  uint32_t in_buf = spvgen_storage_buffer(m, f32, 0, 0, true, &pf);
  uint32_t out_buf = spvgen_storage_buffer(m, f32, 0, 1, false, NULL);
  uint32_t pc_ptr = 0;
  uint32_t pc = vk_push_constants_u32(m, 1, &pc_ptr);
  uint32_t shared_type = spvgen_type_array(m, f32, LOCAL);
  uint32_t shared = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, shared_type),
                                    SpvStorageClassWorkgroup, 0);
  uint32_t pw = spvgen_type_pointer(m, SpvStorageClassWorkgroup, f32);
  uint32_t fn_u32 = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t fn_f32 = spvgen_type_pointer(m, SpvStorageClassFunction, f32);

  spvgen_compute_main(m, "main", LOCAL, 1, 1);
  uint32_t lid = vk_builtin_x(m, SpvBuiltInLocalInvocationId);
  uint32_t group = vk_builtin_x(m, SpvBuiltInWorkgroupId);
  uint32_t groups = vk_builtin_x(m, SpvBuiltInNumWorkgroups);
  uint32_t n = vk_load_push_u32(m, pc, pc_ptr, 0);
  uint32_t local = spvgen_const_u32(m, LOCAL);
  uint32_t stride = spvgen_op_i_mul(m, u32, groups, local);
  uint32_t i_var = spvgen_variable(m, fn_u32, SpvStorageClassFunction, 0);
  uint32_t acc_var = spvgen_variable(m, fn_f32, SpvStorageClassFunction, 0);
  spvgen_store(m, i_var, spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, group, local), lid));
  spvgen_store(m, acc_var, spvgen_const_f32(m, 0.0f));
  spvgen_loop(m, SpvLoopControlMaskNone);
  {
    uint32_t i = spvgen_load(m, u32, i_var);
    spvgen_loop_while(m, spvgen_op_u_less_than(m, boolean, i, n));
    uint32_t v = spvgen_load(m, f32, vk_element(m, pf, in_buf, i));
    spvgen_store(m, acc_var, spvgen_op_f_add(m, f32, spvgen_load(m, f32, acc_var), v));
    spvgen_loop_continue_block(m);
    spvgen_store(m, i_var, spvgen_op_i_add(m, u32, spvgen_load(m, u32, i_var), stride));
  }
  spvgen_end_loop(m);
  spvgen_store(m, spvgen_access_chain(m, pw, shared, &lid, 1), spvgen_load(m, f32, acc_var));
  spvgen_workgroup_barrier(m);
  /* for (s = LOCAL / 2; s > 0; s >>= 1) { if (lid < s) sh[lid] += sh[lid + s]; barrier } */
  uint32_t s_var = spvgen_variable(m, fn_u32, SpvStorageClassFunction, 0);
  spvgen_store(m, s_var, spvgen_const_u32(m, LOCAL / 2));
  spvgen_loop(m, SpvLoopControlMaskNone);
  {
    uint32_t s = spvgen_load(m, u32, s_var);
    spvgen_loop_while(m, spvgen_op_u_greater_than(m, boolean, s, spvgen_const_u32(m, 0)));
    spvgen_if(m, spvgen_op_u_less_than(m, boolean, lid, s));
    {
      uint32_t other = spvgen_op_i_add(m, u32, lid, s);
      uint32_t mine_ptr = spvgen_access_chain(m, pw, shared, &lid, 1);
      uint32_t sum = spvgen_op_f_add(m, f32, spvgen_load(m, f32, mine_ptr),
                                     spvgen_load(m, f32, spvgen_access_chain(m, pw, shared, &other, 1)));
      spvgen_store(m, mine_ptr, sum);
    }
    spvgen_end_if(m);
    spvgen_workgroup_barrier(m);
    spvgen_loop_continue_block(m);
    spvgen_store(m, s_var, spvgen_op_shift_right_logical(m, u32, spvgen_load(m, u32, s_var),
                                                          spvgen_const_u32(m, 1)));
  }
  spvgen_end_loop(m);
  spvgen_if(m, spvgen_op_i_equal(m, boolean, lid, spvgen_const_u32(m, 0)));
  uint32_t zero = spvgen_const_u32(m, 0);
  spvgen_store(m, vk_element(m, pf, out_buf, group),
               spvgen_load(m, f32, spvgen_access_chain(m, pw, shared, &zero, 1)));
  spvgen_end_if(m);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;

  for (int k = 0; k < N; k++) in[k] = test_rand_float(-1.0f, 1.0f);
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof in, 0, &bufs[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof out, 0, &bufs[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, in, sizeof in));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bufs[1], 0, sizeof out, 0));
  uint32_t nn = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 2, &nn, 4, GROUPS, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[1], 0, out, sizeof out));
  for (int g = 0; g < GROUPS; g++) {
    double ref = 0, mag = 0;
    for (int l = 0; l < LOCAL; l++)
      for (int k = g * LOCAL + l; k < N; k += GROUPS * LOCAL) {
        ref += in[k];
        mag += fabs(in[k]);
      }
    /* f32 sums of ~N/GROUPS terms in a different order: error below n * eps * sum|x|. */
    double tol = (double)N / GROUPS * ldexp(1.0, -23) * mag;
    CHECK_MSG(fabs(out[g] - ref) <= tol, "group %d: sum %.9g, expected %.9g (tolerance %.3g)", g,
              out[g], ref, tol);
  }
done:
  for (int k = 0; k < 2; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* Two dispatches in one spvgen_vk_run: c = a + b, then d = c + a reads what the first
 * wrote. Without the barrier between them the second could read stale c. Each gets its
 * own GPU time. */
static void test_batched_dispatches_see_earlier_writes(void) {
  enum { N = 4096, LOCAL = 64 };
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  static float ha[N], hb[N], hd[N];
  vk_build_vector_add(m, LOCAL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  for (int i = 0; i < N; i++) {
    ha[i] = vk_rand_f32();
    hb[i] = vk_rand_f32();
  }
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof ha, 0, &a));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof ha, 0, &b));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof ha, 0, &c));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof ha, 0, &d));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, a, 0, ha, sizeof ha));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, b, 0, hb, sizeof hb));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, c, 0, sizeof ha, 0));
  uint32_t n = N;
  spvgen_vk_buffer *first[3] = {a, b, c}, *second[3] = {c, a, d};
  spvgen_vk_dispatch_desc runs[2];
  memset(runs, 0, sizeof runs);
  runs[0].pipeline = runs[1].pipeline = pipe;
  runs[0].buffers = first;
  runs[1].buffers = second;
  runs[0].buffer_count = runs[1].buffer_count = 3;
  runs[0].push_data = runs[1].push_data = &n;
  runs[0].push_size = runs[1].push_size = 4;
  runs[0].groups[0] = runs[1].groups[0] = N / LOCAL;
  uint64_t ns[2] = {0, 0};
  VK_CHECK(ctx, spvgen_vk_run(ctx, runs, 2, ns));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, d, 0, hd, sizeof hd));
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (hd[i] != (ha[i] + hb[i]) + ha[i] && bad++ < 5)
      CHECK_MSG(0, "d[%d] = %.9g, expected (a + b) + a = %.9g", i, hd[i], (ha[i] + hb[i]) + ha[i]);
  CHECK_EQ_U64(bad, 0);
  if (spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_TIMESTAMPS) {
    CHECK_MSG(ns[0] > 0 && ns[1] > 0, "GPU times %llu and %llu ns", (unsigned long long)ns[0],
              (unsigned long long)ns[1]);
    /* Two vector adds of 16 KiB each: far below a second on any device. */
    CHECK_MSG(ns[0] < 1000000000ull && ns[1] < 1000000000ull, "GPU times %llu and %llu ns",
              (unsigned long long)ns[0], (unsigned long long)ns[1]);
  }
done:
  spvgen_vk_buffer_destroy(a);
  spvgen_vk_buffer_destroy(b);
  spvgen_vk_buffer_destroy(c);
  spvgen_vk_buffer_destroy(d);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* out[i] = in[i] * scale + offset with scale (SpecId 0, f32) and offset (SpecId 1, u32
 * converted): the info's values apply, and options override them by id. Scales are
 * powers of two, so the products are exact and a fused multiply-add changes nothing. */
static void test_spec_constants_from_info_and_options_apply(void) {
  enum { N = 256, LOCAL = 32 };
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *p1 = NULL, *p2 = NULL;
  spvgen_vk_buffer *bufs[2] = {NULL, NULL};
  static float in[N], out[N];
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  float default_scale = 2.0f;
  uint32_t scale_bits;
  memcpy(&scale_bits, &default_scale, 4);
  uint32_t scale = spvgen_spec_const_bits(m, f32, scale_bits, 0);
  uint32_t offset = spvgen_spec_const_u32(m, 1, 1);
  uint32_t pf = 0;
  uint32_t ib = spvgen_storage_buffer(m, f32, 0, 0, true, &pf);
  uint32_t ob = spvgen_storage_buffer(m, f32, 0, 1, false, NULL);
  spvgen_compute_main(m, "main", LOCAL, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t v = spvgen_load(m, f32, vk_element(m, pf, ib, i));
  uint32_t r = spvgen_op_f_add(m, f32, spvgen_op_f_mul(m, f32, v, scale),
                               spvgen_op_convert_u_to_f(m, f32, offset));
  spvgen_store(m, vk_element(m, pf, ob, i), r);
  spvgen_function_end(m);
  (void)u32;
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  for (int k = 0; k < N; k++) in[k] = vk_rand_f32();

  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  info.binding_count = 2;
  info.bindings[0] = (spvgen_binding){.set = 0, .binding = 0, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "in"};
  info.bindings[1] = (spvgen_binding){.set = 0, .binding = 1, .kind = SPVGEN_BINDING_STORAGE_BUFFER, .name = "out"};
  float info_scale = 4.0f;
  uint32_t info_bits;
  memcpy(&info_bits, &info_scale, 4);
  info.spec_constant_count = 1;
  info.spec_constants[0] = (spvgen_spec_constant){0, 4, info_bits, "scale"};
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, &info, NULL, &p1));
  spvgen_spec_constant over[2] = {{1, 4, 5, "offset"}, {0, 0, 0, "scale"}};
  float opt_scale = -0.5f;
  memcpy(&info_bits, &opt_scale, 4);
  over[1].value = info_bits;
  spvgen_vk_pipeline_options opts;
  memset(&opts, 0, sizeof opts);
  opts.spec_constants = over;
  opts.spec_constant_count = 2;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, &info, &opts, &p2));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof in, 0, &bufs[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof out, 0, &bufs[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, in, sizeof in));
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, p1, bufs, 2, NULL, 0, N / LOCAL, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[1], 0, out, sizeof out));
  int bad = 0;
  for (int k = 0; k < N; k++)
    if (out[k] != in[k] * 4.0f + 1.0f && bad++ < 3)
      CHECK_MSG(0, "info values: out[%d] = %.9g, expected in * 4 + 1 = %.9g", k, out[k],
                in[k] * 4.0f + 1.0f);
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, p2, bufs, 2, NULL, 0, N / LOCAL, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[1], 0, out, sizeof out));
  for (int k = 0; k < N; k++)
    if (out[k] != in[k] * -0.5f + 5.0f && bad++ < 6)
      CHECK_MSG(0, "options values: out[%d] = %.9g, expected in * -0.5 + 5 = %.9g", k, out[k],
                in[k] * -0.5f + 5.0f);
  CHECK_EQ_U64(bad, 0);
done:
  for (int k = 0; k < 2; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(p1);
  spvgen_vk_pipeline_destroy(p2);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* Host-visible buffers are mapped: what the host writes through the mapping the shader
 * reads, what the shader writes appears in the mapping after the call returns. */
static void test_host_visible_buffers_are_coherent_with_dispatches(void) {
  enum { N = 512, LOCAL = 64 };
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  vk_build_vector_add(m, LOCAL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int k = 0; k < 3; k++)
    VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, N * 4, SPVGEN_VK_BUFFER_HOST_VISIBLE, &bufs[k]));
  float *a = spvgen_vk_buffer_map(bufs[0]), *b = spvgen_vk_buffer_map(bufs[1]),
        *c = spvgen_vk_buffer_map(bufs[2]);
  CHECK(a && b && c);
  if (!a || !b || !c) goto done;
  for (int k = 0; k < N; k++) {
    a[k] = vk_rand_f32();
    b[k] = vk_rand_f32();
    c[k] = 0;
  }
  uint32_t n = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, N / LOCAL, 1, 1, NULL));
  int bad = 0;
  for (int k = 0; k < N; k++)
    if (c[k] != a[k] + b[k] && bad++ < 3) CHECK_MSG(0, "c[%d] = %.9g", k, c[k]);
  CHECK_EQ_U64(bad, 0);
  /* upload/download work on mapped buffers too. */
  float back[4] = {0};
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 8, back, sizeof back));
  CHECK(back[0] == c[2] && back[3] == c[5]);
done:
  for (int k = 0; k < 3; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* Transfers bigger than one staging chunk (64 MiB) and at unaligned offsets. */
static void test_large_and_offset_transfers_round_trip(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const uint64_t size = (64ull << 20) + 4096 + 12;
  uint8_t *src = malloc(size), *dst = malloc(size);
  spvgen_vk_buffer *buf = NULL;
  CHECK(src && dst);
  if (!src || !dst) goto done;
  for (uint64_t k = 0; k < size; k += 4) {
    uint32_t r = test_rand_u32();
    memcpy(src + k, &r, size - k < 4 ? size - k : 4);
  }
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, size + 100, 0, &buf));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, buf, 100, src, size));
  memset(dst, 0, size);
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, buf, 100, dst, size));
  CHECK(memcmp(src, dst, size) == 0);
  /* A small read from the middle sees the same bytes. */
  uint8_t mid[7];
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, buf, 100 + (33ull << 20) + 3, mid, sizeof mid));
  CHECK(memcmp(mid, src + (33ull << 20) + 3, sizeof mid) == 0);
done:
  spvgen_vk_buffer_destroy(buf);
  free(src);
  free(dst);
  spvgen_vk_destroy(ctx);
}

/* spvgen_vk_wrap on the Vulkan objects of another context: pipelines and dispatches work
 * through it, destroying it leaves the objects alive, the first context still works. */
static void test_wrapped_context_runs_on_callers_device(void) {
  enum { N = 256, LOCAL = 64 };
  spvgen_vk_context *owner = vk_open(0);
  if (!owner) return;
  spvgen_vk_context *ctx = NULL;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  static float a[N], b[N], c[N];
  vk_build_vector_add(m, LOCAL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  spvgen_vk_wrap_desc wd = vk_wrap_desc_of(owner);
  char msg[1024];
  spvgen_status st = spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s: %s", spvgen_status_name(st), msg);
  if (st != SPVGEN_OK) goto done;
  CHECK_STR_EQ(spvgen_vk_caps(ctx)->name, spvgen_vk_caps(owner)->name);
  CHECK_EQ_U64(spvgen_vk_caps(ctx)->features, spvgen_vk_caps(owner)->features);
  for (int k = 0; k < N; k++) {
    a[k] = vk_rand_f32();
    b[k] = vk_rand_f32();
  }
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int k = 0; k < 3; k++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[k]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, sizeof b));
  uint32_t n = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, N / LOCAL, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, sizeof c));
  int bad = 0;
  for (int k = 0; k < N; k++)
    if (c[k] != a[k] + b[k]) bad++;
  CHECK_EQ_U64(bad, 0);
  /* Destroying the wrapper (and what it made) leaves the owner's device usable. */
  spvgen_vk_destroy(ctx);
  ctx = NULL;
  pipe = NULL;
  for (int k = 0; k < 3; k++) bufs[k] = NULL;
  spvgen_vk_buffer *still = NULL;
  VK_CHECK(owner, spvgen_vk_buffer_create(owner, 64, 0, &still));
  VK_CHECK(owner, spvgen_vk_buffer_fill(owner, still, 0, 64, 7));
  spvgen_vk_buffer_destroy(still);
done:
  for (int k = 0; k < 3; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_vk_destroy(ctx);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(owner);
}

/* Without info, bindings and the push constant size come from the module, in (set,
 * binding) order; the module's LocalSize lands in the info. */
static void test_pipeline_info_is_derived_from_the_module(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  vk_build_vector_add(m, 16);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  const spvgen_kernel_info *info = spvgen_vk_pipeline_info(pipe);
  CHECK_EQ_U64(info->binding_count, 3);
  for (uint32_t k = 0; k < 3 && k < info->binding_count; k++) {
    CHECK_EQ_U64(info->bindings[k].set, 0);
    CHECK_EQ_U64(info->bindings[k].binding, k);
    CHECK_EQ_U64(info->bindings[k].kind, SPVGEN_BINDING_STORAGE_BUFFER);
  }
  CHECK_EQ_U64(info->push_constant_size, 4);
  CHECK_EQ_U64(info->local_size[0], 16);
  CHECK_STR_EQ(info->entry_point, "main");
done:
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* The pipeline cache's contents can be read back and seed a new context. */
static void test_pipeline_cache_data_round_trips(void) {
  spvgen_vk_context *ctx = vk_open(0), *again = NULL;
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL, *pipe2 = NULL;
  void *data = NULL;
  vk_build_vector_add(m, 64);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  size_t size = 0;
  VK_CHECK(ctx, spvgen_vk_pipeline_cache_data(ctx, NULL, &size));
  CHECK(size > 0);
  data = malloc(size ? size : 1);
  VK_CHECK(ctx, spvgen_vk_pipeline_cache_data(ctx, data, &size));
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = spvgen_vk_caps(ctx)->name;
  desc.pipeline_cache_data = data;
  desc.pipeline_cache_size = size;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&desc, &again, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) goto done;
  VK_CHECK(again, spvgen_vk_pipeline_create(again, words, count, NULL, NULL, &pipe2));
done:
  free(data);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_vk_pipeline_destroy(pipe2);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(again);
  spvgen_vk_destroy(ctx);
}

/* With VK_LAYER_KHRONOS_validation on, buffers, transfers, a batched run with
 * timestamps and the teardown raise no validation error. Skipped where the layer is not
 * installed (Debian: vulkan-validationlayers). */
static void test_runs_are_clean_under_the_validation_layer(void) {
  enum { N = 300, LOCAL = 64 };
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  desc.enable_validation = true;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_UNSUPPORTED || st == SPVGEN_ERROR_NO_DEVICE) {
    test_skip("%s", msg);
    return;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  static float a[N], c[N];
  vk_build_vector_add(m, LOCAL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  for (int i = 0; i < N; i++) a[i] = vk_rand_f32();
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, SPVGEN_VK_BUFFER_HOST_VISIBLE, &bufs[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[2]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, a, sizeof a));
  uint32_t n = N;
  spvgen_vk_dispatch_desc runs[3];
  memset(runs, 0, sizeof runs);
  for (int i = 0; i < 3; i++) {
    runs[i].pipeline = pipe;
    runs[i].buffers = bufs;
    runs[i].buffer_count = 3;
    runs[i].push_data = &n;
    runs[i].push_size = 4;
    runs[i].groups[0] = (N + LOCAL - 1) / LOCAL;
  }
  uint64_t ns[3];
  VK_CHECK(ctx, spvgen_vk_run(ctx, runs, 3, ns));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, sizeof c));
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] + a[i] && bad++ < 3) CHECK_MSG(0, "c[%d] = %.9g, expected a + a", i, c[i]);
  CHECK_EQ_U64(bad, 0);
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  const char *first = NULL;
  uint32_t errors = spvgen_vk_validation_errors(ctx, &first);
  CHECK_MSG(errors == 0, "%u validation errors; first: %s", errors, first);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  int skip = vk_test_device_present();
  if (skip) return skip;
  static const test_case tests[] = {
      TEST_CASE(test_vector_add_f32_matches_cpu),
      TEST_CASE(test_float16_multiply_add_matches_cpu),
      TEST_CASE(test_shared_memory_loop_reduction_matches_cpu),
      TEST_CASE(test_batched_dispatches_see_earlier_writes),
      TEST_CASE(test_spec_constants_from_info_and_options_apply),
      TEST_CASE(test_host_visible_buffers_are_coherent_with_dispatches),
      TEST_CASE(test_large_and_offset_transfers_round_trip),
      TEST_CASE(test_wrapped_context_runs_on_callers_device),
      TEST_CASE(test_pipeline_info_is_derived_from_the_module),
      TEST_CASE(test_pipeline_cache_data_round_trips),
      TEST_CASE(test_runs_are_clean_under_the_validation_layer),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
