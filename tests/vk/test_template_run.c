/* tests/vk/test_template_run.c — the one run-and-check lifecycle
 * (tools/common/template_run.c) on the CI device (lavapipe), for each template of the
 * table that has run hooks: a correct kernel passes with every element checked, and the
 * check fails where it must: a kernel that computes the wrong op (every element out of
 * tolerance), a grid one workgroup short (the NaN-filled tail never written), and both
 * name the first bad element. Also the shared-data form the tuner runs (run_bind,
 * run_compare) over every GEMM plan of a desc. */
#include <stdio.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "rand.h"
#include "spvgen/elementwise.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"
#include "template_run.h"

static template_run_options options(uint64_t size) {
  template_run_options o;
  memset(&o, 0, sizeof o);
  o.request.seed = test_rand_u32() | 1u;
  o.request.size = size;
  o.repeats = 1;
  return o;
}

static void test_every_template_passes_on_its_own_hooks(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_elementwise_desc ew = {.op = SPVGEN_ELEMENTWISE_MUL};
  spvgen_gemm_desc gd = {.m = 37, .n = 29, .k = 24, .a_type = SPVGEN_COMPONENT_F16,
                         .b_type = SPVGEN_COMPONENT_F16, .acc_type = SPVGEN_COMPONENT_F32,
                         .out_type = SPVGEN_COMPONENT_F32, .alpha = 1.0f, .variant = SPVGEN_GEMM_SIMT};
  spvgen_mlp_desc md = {.input_width = 5, .output_width = 3, .hidden_width = 16, .hidden_count = 2,
                        .variant = SPVGEN_MLP_LOOP};
  const struct { const sg_template *t; const void *desc; uint64_t size, elements; } cases[] = {
      {&sg_template_elementwise, &ew, 3001, 3001},
      {&sg_template_gemm, &gd, 0, 37 * 29},
      {&sg_template_mlp, &md, 777, 777 * 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    template_run_options o = options(cases[i].size);
    template_run_result r;
    char msg[512], plan[8192];
    CHECK(cases[i].t->plan_size <= sizeof plan);
    spvgen_status st = template_run(ctx, cases[i].t, cases[i].desc, &o, plan, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", cases[i].t->name, msg);
    CHECK_EQ_U64(r.check.checked, cases[i].elements);
    CHECK_MSG(r.check.bad == 0, "%s: %llu bad, first at %s: gpu %g cpu %g", cases[i].t->name,
              (unsigned long long)r.check.bad, r.first_bad_where, r.check.first_bad_gpu, r.check.first_bad_ref);
    CHECK(r.words > 0);
  }
  spvgen_vk_destroy(ctx);
}

/* The elementwise template with its emitter swapped for another op's: the data and the
 * check still expect the desc's op. */
static spvgen_status emit_add_instead(spvgen_module *m, const void *plan, spvgen_kernel_info *info) {
  spvgen_elementwise_config p = *(const spvgen_elementwise_config *)plan;
  p.desc.op = SPVGEN_ELEMENTWISE_ADD;
  return spvgen_elementwise_emit(m, &p, info);
}

/* ... and with its grid one workgroup short. */
static spvgen_status short_grid(spvgen_vk_context *ctx, const void *plan, const sg_run_request *rq, sg_run_data *data,
                                char *msg, size_t size) {
  spvgen_status st = sg_template_elementwise.run_data(ctx, plan, rq, data, msg, size);
  data->groups[0]--;
  return st;
}

static void test_the_check_fails_on_a_wrong_kernel_and_a_short_grid(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_elementwise_desc ew = {.op = SPVGEN_ELEMENTWISE_MUL, .local_size = 64};
  sg_template wrong = sg_template_elementwise, shortg = sg_template_elementwise;
  wrong.emit = emit_add_instead;
  shortg.run_data = short_grid;
  template_run_options o = options(1000); /* 16 groups of 64: the last holds 40 elements */
  template_run_result r;
  char msg[512];
  CHECK(template_run(ctx, &wrong, &ew, &o, NULL, &r, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(r.check.checked, 1000);
  CHECK_EQ_U64(r.check.bad, 1000);
  CHECK_STR_EQ(r.first_bad_where, "element 0");
  CHECK(template_run(ctx, &shortg, &ew, &o, NULL, &r, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(r.check.bad, 1000 - 15 * 64);
  CHECK_STR_EQ(r.first_bad_where, "element 960");
  CHECK(r.check.first_bad_gpu != r.check.first_bad_gpu); /* the NaN the output was filled with */
  spvgen_vk_destroy(ctx);
}

/* Kernel `which` of a plan as a pipeline, as the tuner makes it (emit, reflect, create). */
static spvgen_vk_pipeline *plan_pipeline(spvgen_vk_context *ctx, const sg_template *t, const void *plan,
                                         uint32_t which) {
  spvgen_module_desc md = {.addressing = t->addressing_model ? t->addressing_model(plan) : 0};
  spvgen_module *m = spvgen_module_create(&md);
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_vk_pipeline *pipe = NULL;
  char msg[512];
  if (m && sg_template_emit_kernel(t, m, plan, which, &info) == SPVGEN_OK &&
      spvgen_module_finish(m, &words, &count) == SPVGEN_OK &&
      spvgen_kernel_reflect(words, count, &info, msg, sizeof msg) == SPVGEN_OK)
    spvgen_vk_pipeline_create(ctx, words, count, &info, NULL, &pipe);
  spvgen_module_destroy(m);
  return pipe;
}

/* Shared data, many plans (the tuner's form) for one template: one data set for every
 * plan (count of them, plan_size bytes each), each bound in turn (run_bind), its sample
 * checked and the rest compared with the first plan's output (run_compare); a NaN put in
 * the first output element fails both. */
static void shared_data_case(spvgen_vk_context *ctx, const sg_template *t, const void *plans, uint32_t count,
                             uint64_t size, uint64_t sample, uint64_t sampled_elements, uint64_t elements,
                             uint32_t *multi) {
  char msg[512];
  sg_run_request rq = {.seed = test_rand_u32() | 1u, .size = size, .plans = plans, .plan_count = count};
  sg_run_data data;
  memset(&data, 0, sizeof data);
  spvgen_vk_buffer *bufs[SG_RUN_MAX_BUFFERS] = {0};
  CHECK_MSG(t->run_data(ctx, plans, &rq, &data, msg, sizeof msg) == SPVGEN_OK, "%s: %s", t->name, msg);
  CHECK_MSG(sg_run_upload(ctx, &data, bufs, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  for (uint32_t i = 0; i < count; i++) {
    const void *plan = (const uint8_t *)plans + (size_t)i * t->plan_size;
    char name[256];
    t->plan_name(plan, name, sizeof name);
    CHECK_MSG(t->run_bind(plan, &data, msg, sizeof msg) == SPVGEN_OK, "%s: %s", name, msg);
    /* every kernel of the plan (GEMM split-K: the partials, then the reduction) */
    const uint32_t kernels = sg_template_kernels(t, plan);
    CHECK_EQ_U64(data.kernel_count, kernels > 1 ? kernels : 0);
    if (kernels > 1) *multi += 1;
    spvgen_vk_pipeline *pipes[SG_RUN_MAX_KERNELS] = {0};
    bool ok = kernels <= SG_RUN_MAX_KERNELS;
    for (uint32_t k = 0; ok && k < kernels; k++) ok = (pipes[k] = plan_pipeline(ctx, t, plan, k)) != NULL;
    CHECK_MSG(ok, "%s: no pipeline", name);
    if (!ok) {
      for (uint32_t k = 0; k < SG_RUN_MAX_KERNELS; k++) spvgen_vk_pipeline_destroy(pipes[k]);
      continue;
    }
    spvgen_vk_dispatch_desc dd[SG_RUN_MAX_KERNELS];
    spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS];
    uint32_t nd = sg_run_dispatches(&data, pipes, bufs, bound, dd);
    CHECK_EQ_U64(nd, kernels);
    CHECK(sg_run_poison(ctx, &data, bufs, msg, sizeof msg) == SPVGEN_OK);
    CHECK_MSG(spvgen_vk_run(ctx, dd, nd, NULL) == SPVGEN_OK, "%s: %s", name, spvgen_vk_error(ctx));
    CHECK(sg_run_download(ctx, &data, bufs, true, msg, sizeof msg) == SPVGEN_OK);
    sg_check c;
    memset(&c, 0, sizeof c);
    t->run_check(plan, &data, sample, &c);
    t->run_compare(plan, &data, sample, &c);
    CHECK_EQ_U64(c.checked, i ? sampled_elements + elements : sampled_elements);
    CHECK_MSG(c.bad == 0, "%s: %llu bad", name, (unsigned long long)c.bad);
    if (i == count - 1) {
      const uint32_t nan = 0x7FC07FC0u; /* NaN in f32, and in both f16 halves */
      memcpy(data.buffers[2].host, &nan, 4);
      memset(&c, 0, sizeof c);
      t->run_check(plan, &data, sample, &c);
      uint64_t bad_in_sample = c.bad;
      t->run_compare(plan, &data, sample, &c);
      CHECK_MSG(bad_in_sample >= 1 && c.bad >= 2 * bad_in_sample && c.first_bad == 0, "%s: %llu then %llu bad, first %llu",
                t->name, (unsigned long long)bad_in_sample, (unsigned long long)c.bad,
                (unsigned long long)c.first_bad);
    }
    for (uint32_t k = 0; k < SG_RUN_MAX_KERNELS; k++) spvgen_vk_pipeline_destroy(pipes[k]);
  }
  sg_run_destroy(&data, bufs);
  t->run_free(&data);
}

static void test_shared_data_serves_every_plan_and_the_compare_fails_a_wrong_element(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  char msg[512];
  /* GEMM: the split-K candidates bind the workspace sized for the largest of them */
  spvgen_gemm_desc gd = {.m = 33, .n = 47, .k = 512, .a_type = SPVGEN_COMPONENT_F16,
                         .b_type = SPVGEN_COMPONENT_F16, .acc_type = SPVGEN_COMPONENT_F32,
                         .out_type = SPVGEN_COMPONENT_F32, .alpha = 1.0f, .beta = 0.5f};
  static spvgen_gemm_config gplans[16];
  uint32_t count = 0;
  CHECK(spvgen_gemm_plans(&gd, spvgen_vk_caps(ctx), gplans, 16, &count, msg, sizeof msg) == SPVGEN_OK);
  if (count > 16) count = 16;
  CHECK(count >= 2);
  uint32_t multi = 0; /* plans of two kernels among them */
  shared_data_case(ctx, &sg_template_gemm, gplans, count, 0, 64, 64, 33 * 47, &multi);
  CHECK(multi >= 1);
  /* MLP: its plans of one weight layout; 777 points, a sample of every 777 / 100 = 7th
   * (the last included: 112 points) */
  spvgen_mlp_desc md = {.input_width = 5, .output_width = 3, .hidden_width = 16, .hidden_count = 2,
                        .variant = SPVGEN_MLP_LOOP};
  static spvgen_mlp_config mplans[8];
  CHECK(spvgen_mlp_plans(&md, spvgen_vk_caps(ctx), mplans, 8, &count, msg, sizeof msg) == SPVGEN_OK);
  if (count > 8) count = 8;
  CHECK(count >= 1);
  shared_data_case(ctx, &sg_template_mlp, mplans, count, 777, 100, 112 * 3, 777 * 3, &multi);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_template_passes_on_its_own_hooks),
      TEST_CASE(test_the_check_fails_on_a_wrong_kernel_and_a_short_grid),
      TEST_CASE(test_shared_data_serves_every_plan_and_the_compare_fails_a_wrong_element),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
