/* tests/gpu/test_gpu_mlp_train.c — MLP training (spvgen/mlp.h, "training") on a real
 * device: the loop variant's gradient and optimizer kernels for the sample's network
 * (2 -> freq:6 -> 64x3 -> 3, Adam, L2) and 32-64x4-16 (SGD, relative L2) on a batch of
 * 65536 points (lavapipe: 512), three steps, every weight and bias gradient, the loss
 * and every optimizer value checked against the float64 reference of
 * tools/common/mlp_train_ref.c (tolerances: mlp_train_ref.h). Prints a gpu-summary line
 * with the training throughput. The validation part emits both kernels for the "h100"
 * preset and validates them, everywhere.
 *
 * The vec variant's gradient kernel (NV cooperative vectors; needs cooperativeVector and
 * cooperativeVectorTraining): the host lays out the TrainingOptimal f16 gradient matrices
 * (sizes from vkConvertCooperativeVectorMatrixNV) and bias gradients, zeroes the buffer,
 * runs one batch, converts each matrix back to row-major f16 on the host and compares
 * every weight and bias gradient (divided by the loss scale) with the float64 reference.
 * f16 forward and f16 atomic accumulation: the tolerance is 2^-5 |ref| plus 2^-5 of the
 * layer's largest |gradient| (a wrong index, layout or transposition is off by O(1)).
 * Not run anywhere yet: this is the first check of that kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_train_ref.h"
#include "module_check.h"
#include "spvgen/mlp.h"

static spvgen_mlp_train_desc train_net(int which) {
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  if (which == 0) {
    d.net.input_width = 2;
    d.net.output_width = 3;
    d.net.hidden_width = 64;
    d.net.hidden_count = 3;
    d.net.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
    d.net.encoding_size = 6;
    d.net.input_type = SPVGEN_COMPONENT_F32;
  } else {
    d.net.input_width = 32;
    d.net.output_width = 16;
    d.net.hidden_width = 64;
    d.net.hidden_count = 4;
    d.loss = SPVGEN_MLP_LOSS_RELATIVE_L2;
    d.optimizer = SPVGEN_MLP_OPTIMIZER_SGD;
  }
  return d;
}

static void test_mlp_train_loop_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  bool cpu = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU;
  for (int which = 0; which < 2 && !test_current_failed; which++) {
    spvgen_mlp_train_desc d = train_net(which);
    mlp_train_run_options o = {.seed = 99 + which, .points = cpu ? 512 : 65536, .steps = 3, .lr = 1e-3f};
    mlp_train_run_result r;
    char msg[512];
    spvgen_status st = mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) break;
    CHECK_EQ_U64(r.grad.checked, r.plan.params * o.steps);
    CHECK_MSG(r.grad.bad == 0, "[%s] %llu gradients wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.grad.bad, (unsigned long long)r.grad.first_bad,
              r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
    CHECK_MSG(r.opt.bad == 0, "[%s] %llu optimizer values wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.opt.bad, (unsigned long long)r.opt.first_bad,
              r.opt.first_gpu, r.opt.first_ref, r.opt.first_tol);
    CHECK_MSG(r.loss_bad == 0, "[%s] loss gpu %.8g cpu %.8g", r.plan.name, r.loss_gpu[0], r.loss_ref[0]);
    printf("gpu-summary %s/%d worst_grad_err_over_tol=%.3g gpu_us=%.1f device=%s\n", test_current_name, which,
           r.grad.worst_ratio, (r.grad_ns + r.opt_ns) / 1e3, spvgen_vk_caps(ctx)->name);
    printf("  [%s] %llu points: gradient %.3f ms + optimizer %.3f ms, %.4g samples/s\n", r.plan.name,
           (unsigned long long)o.points, r.grad_ns / 1e6, r.opt_ns / 1e6, r.samples_per_s);
  }
  spvgen_vk_destroy(ctx);
}

static void test_mlp_train_vec_gradients_match_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                    SPVGEN_FEATURE_COOPVEC | SPVGEN_FEATURE_COOPVEC_TRAINING);
  if (!ctx) return;
  spvgen_mlp_train_desc d = train_net(0);
  d.net.variant = SPVGEN_MLP_VEC;
  d.net.hidden_width = 32;
  d.net.hidden_count = 2;
  spvgen_mlp_train_config t;
  char msg[512];
  spvgen_status st = spvgen_mlp_train_plan(&d, spvgen_vk_caps(ctx), &t, msg, sizeof msg);
  spvgen_module *m = NULL;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *b[5] = {0};
  mlp_train_data data;
  memset(&data, 0, sizeof data);
  uint8_t *gbytes = NULL, *rowmajor = NULL;
  double *grad = NULL, *tol = NULL;
  float *loss = NULL;
  if (st == SPVGEN_ERROR_UNSUPPORTED) {
    gpu_unavailable("%s", msg);
    goto done;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) goto done;
  const uint32_t L = t.net.layer_count, N = 4096;
  const float loss_scale = 1024.0f;
  /* the gradient buffer's layout: matrices (64-byte aligned), then the biases */
  uint32_t push[2 + 2 * SPVGEN_MLP_MAX_LAYERS];
  size_t msize[SPVGEN_MLP_MAX_LAYERS];
  uint64_t off = 0;
  for (uint32_t l = 0; l < L; l++) {
    spvgen_vk_coopvec_matrix cm = {.rows = t.net.layers[l].outputs, .columns = t.net.layers[l].inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SPVGEN_COOPVEC_ROW_MAJOR,
                                   .dst_layout = SPVGEN_COOPVEC_TRAINING_OPTIMAL};
    VK_CHECK(ctx, spvgen_vk_coopvec_matrix_size(ctx, &cm, &msize[l]));
    push[2 + l] = (uint32_t)off;
    off = (off + msize[l] + 63) & ~63ull;
  }
  for (uint32_t l = 0; l < L; l++) {
    push[2 + L + l] = (uint32_t)off;
    off = (off + 2ull * t.net.layers[l].outputs + 15) & ~15ull;
  }
  push[0] = N;
  memcpy(&push[1], &loss_scale, 4);
  CHECK(mlp_train_make_data(&t, N, 4321, &data));
  m = spvgen_module_create(NULL);
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  CHECK_MSG(spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, &info) == SPVGEN_OK &&
                spvgen_module_finish(m, &words, &count) == SPVGEN_OK, "%s", spvgen_module_error(m));
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_kernel_reflect(words, count, &info, msg, sizeof msg));
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, &info, NULL, &pipe));
  uint64_t in_bytes = (uint64_t)N * d.net.input_width * 4, t_bytes = (uint64_t)N * d.net.output_width * 4;
  uint64_t sizes[5] = {in_bytes, t.net.weight_bytes, t_bytes, off, 4ull * t.grad_workgroups};
  for (int i = 0; i < 5; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (sizes[i] + 3) & ~3ull, 0, &b[i]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, b[0], 0, data.input, in_bytes));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, b[1], 0, data.weights, t.net.weight_bytes));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, b[2], 0, data.targets, t_bytes));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, b[3], 0, (off + 3) & ~3ull, 0));
  spvgen_vk_dispatch_desc dd = {.pipeline = pipe, .buffers = b, .buffer_count = 5, .push_data = push,
                                .push_size = t.grad_push_constant_size, .groups = {t.grad_workgroups, 1, 1}};
  uint64_t ns = 0;
  VK_CHECK(ctx, spvgen_vk_run(ctx, &dd, 1, &ns));
  gbytes = malloc(off);
  loss = malloc(4ull * t.grad_workgroups);
  grad = malloc(8 * t.elements);
  tol = malloc(8 * t.elements);
  CHECK(gbytes && loss && grad && tol);
  if (!gbytes || !loss || !grad || !tol) goto done;
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, b[3], 0, gbytes, off));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, b[4], 0, loss, 4ull * t.grad_workgroups));
  double lref, ltol, lgpu = 0;
  CHECK(mlp_train_reference(&t, data.weights, &data, grad, tol, &lref, &ltol));
  for (uint32_t g = 0; g < t.grad_workgroups; g++) lgpu += loss[g];
  CHECK_MSG(fabs(lgpu - lref) <= 0x1p-5 * fabs(lref), "loss gpu %.6g cpu %.6g", lgpu, lref);
  uint64_t bad = 0, checked = 0;
  double worst = 0;
  for (uint32_t l = 0; l < L && !test_current_failed; l++) {
    const spvgen_mlp_layer *Ly = &t.net.layers[l];
    spvgen_vk_coopvec_matrix cm = {.rows = Ly->outputs, .columns = Ly->inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SPVGEN_COOPVEC_TRAINING_OPTIMAL,
                                   .dst_layout = SPVGEN_COOPVEC_ROW_MAJOR, .dst_stride = 2ull * Ly->inputs};
    free(rowmajor);
    rowmajor = malloc(2ull * Ly->inputs * Ly->outputs);
    if (!rowmajor) break;
    VK_CHECK(ctx, spvgen_vk_convert_coopvec_matrix(ctx, &cm, gbytes + push[2 + l], msize[l], rowmajor,
                                                   2ull * Ly->inputs * Ly->outputs, NULL));
    double lmax = 0;
    for (uint32_t i = 0; i < Ly->outputs; i++) {
      for (uint32_t j = 0; j < Ly->inputs; j++) {
        double r = fabs(grad[Ly->matrix_offset / 2 + (uint64_t)i * (Ly->row_stride / 2) + j]);
        lmax = r > lmax ? r : lmax;
      }
      double r = fabs(grad[Ly->bias_offset / 2 + i]);
      lmax = r > lmax ? r : lmax;
    }
    for (uint32_t i = 0; i < Ly->outputs; i++)
      for (uint32_t j = 0; j <= Ly->inputs; j++) {
        uint16_t h;
        double ref;
        if (j < Ly->inputs) {
          memcpy(&h, rowmajor + 2ull * ((uint64_t)i * Ly->inputs + j), 2);
          ref = grad[Ly->matrix_offset / 2 + (uint64_t)i * (Ly->row_stride / 2) + j];
        } else {
          memcpy(&h, gbytes + push[2 + L + l] + 2ull * i, 2);
          ref = grad[Ly->bias_offset / 2 + i];
        }
        double g = gpu_f16_value(h) / loss_scale, tl = 0x1p-5 * (fabs(ref) + lmax);
        double ratio = fabs(g - ref) / tl;
        worst = ratio > worst ? ratio : worst;
        checked++;
        if (!(ratio <= 1) && bad++ == 0)
          test_fail_at(__FILE__, __LINE__, "[%s] layer %u gradient (%u, %u): gpu %.6g cpu %.6g tol %.3g", t.name,
                       l, i, j, g, ref, tl);
      }
  }
  printf("gpu-summary %s worst_err_over_tol=%.3g gpu_us=%.1f device=%s\n", test_current_name, worst, ns / 1e3,
         spvgen_vk_caps(ctx)->name);
  printf("  [%s] %u points: %llu gradients, %llu off; loss gpu %.6g cpu %.6g\n", t.name, N,
         (unsigned long long)checked, (unsigned long long)bad, lgpu, lref);
done:
  spvgen_module_destroy(m);
  mlp_train_free_data(&data);
  free(gbytes);
  free(rowmajor);
  free(grad);
  free(tol);
  free(loss);
  spvgen_vk_destroy(ctx); /* the buffers and the pipeline with it */
}

static void test_mlp_train_kernels_h100_validation(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  for (int which = 0; which < 3; which++)
    for (int k = 0; k < 2; k++) {
      spvgen_mlp_train_desc d = train_net(which % 2);
      if (which == 2) { /* the vec gradient kernel of the test above */
        if (k) continue;
        d = train_net(0);
        d.net.variant = SPVGEN_MLP_VEC;
        d.net.hidden_width = 32;
        d.net.hidden_count = 2;
      }
      spvgen_kernel kern;
      char msg[512];
      spvgen_status st = spvgen_mlp_train(&d, &caps, (spvgen_mlp_train_kernel)k, &kern, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s", msg);
      if (st != SPVGEN_OK) continue;
      CHECK(check_words(kern.words, kern.word_count));
      spvgen_kernel_free(&kern);
    }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mlp_train_loop_matches_cpu),
      TEST_CASE(test_mlp_train_vec_gradients_match_cpu),
      TEST_CASE(test_mlp_train_kernels_h100_validation),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
