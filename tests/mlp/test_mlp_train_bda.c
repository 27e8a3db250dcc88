/* tests/mlp/test_mlp_train_bda.c — MLP training in the device-address form
 * (net.addressing SPVGEN_ADDRESSING_DEVICE_ADDRESS; spvgen/mlp.h, "training"): both
 * kernels take their buffers as PhysicalStorageBuffer64 pointers after their push
 * constants, the gradient kernel moves the input and target pointers to each chunk's
 * first point and the gradient pointer to its workgroup's slot in 64 bits.
 *   - every training module of a spread of networks (loop, vec and mat; with and
 *     without the hash grid, float atomics and compare-exchange loops) validates
 *     (spirv-val, Vulkan 1.3) for the h100, vulkan13 and lavapipe presets; the info
 *     places each pointer, says its alignment and size; every load and store through a
 *     pointer carries Aligned (cooperative ones 16); the features listed cover the
 *     capabilities (bufferDeviceAddress, shaderInt64, float atomics);
 *   - on the CI device (lavapipe: the loop variant, and the mat variant in its
 *     emulation) training steps match the float64 reference exactly as the descriptor
 *     form's tests check them (tests/mlp/test_mlp_train.c, test_mlp_mat_train_emulated.c):
 *     every gradient, the loss, every optimizer value;
 *   - the same with the six buffers sub-allocated from one at aligned odd offsets, the
 *     guard words around them untouched;
 *   - what cannot take the form is refused by name.
 * tests/gpu/test_gpu_mlp_bda.c runs vec and mat training on the GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopmat_emulated.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_train_run.h"
#include "module_check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"
#include "words.h"

typedef struct train_net {
  spvgen_mlp_variant v;
  uint32_t in, width, count, out;
  spvgen_mlp_activation act, out_act;
  spvgen_mlp_encoding enc;
  bool f16_in, no_bias;
  spvgen_mlp_loss loss;
  spvgen_mlp_optimizer opt;
} train_net;

/* 3-D, 4 levels of 2 features, dense and hashed */
static const spvgen_mlp_hash_grid GRID = {4, 2, 8, 4, 1.5f};

static spvgen_mlp_train_desc train_desc(const train_net *n) {
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.variant = n->v;
  d.net.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  d.net.input_width = n->in;
  d.net.hidden_width = n->width;
  d.net.hidden_count = n->count;
  d.net.output_width = n->out;
  d.net.activation = n->act;
  d.net.output_activation = n->out_act;
  d.net.encoding = n->enc;
  if (n->enc == SPVGEN_MLP_ENCODING_FREQUENCY) d.net.encoding_size = 4;
  if (n->enc == SPVGEN_MLP_ENCODING_ONE_BLOB) d.net.encoding_size = 8;
  if (n->enc == SPVGEN_MLP_ENCODING_HASH_GRID) d.net.grid = GRID;
  d.net.input_type = n->f16_in ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
  d.net.no_bias = n->no_bias;
  d.loss = n->loss;
  d.optimizer = n->opt;
  d.grad_workgroups = 8;
  return d;
}

static bool has_capability(const spvgen_kernel_info *info, uint32_t cap) {
  for (uint32_t i = 0; i < info->capability_count; i++)
    if (info->capabilities[i] == cap) return true;
  return false;
}

/* What the spec of each form says a pointer needs (independent of the emitter's table):
 * the cooperative vector instructions' 64-byte matrices and gradients, the mat
 * variant's 16-byte weight loads and 16-byte chunks of f16 points without encoding; with
 * the hash grid the optimizer's 4-vectors (f16 weights 8, the f32 gradient and state 16,
 * an f16 gradient 8) and the f16 gradient's 4-vector atomics (4 or 8 features: 8). */
static uint32_t expected_alignment(const spvgen_mlp_train_config *t, spvgen_mlp_train_kernel which, uint32_t b) {
  const spvgen_mlp_desc *d = &t->net.desc;
  const bool grid = d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID && t->net.variant != SPVGEN_MLP_VEC;
  const bool g16 = t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  if (which == SPVGEN_MLP_TRAIN_OPTIMIZER) return !grid ? 0 : b == 0 ? 8 : b == 1 ? (g16 ? 8 : 16) : b == 2 ? 16 : 0;
  if (t->net.variant == SPVGEN_MLP_VEC) return b == 1 || b == 3 ? 64 : 0;
  if (b == 3 && g16 && d->grid.features >= 4) return 8;
  if (t->net.variant == SPVGEN_MLP_MAT) {
    if (b == 1) return 16;
    if (b == 0)
      return d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_type == SPVGEN_COMPONENT_F16 && d->input_width % 8 == 0
                 ? 16 : 0;
  }
  return 0;
}

/* Emits one kernel of plan t in a module of its addressing model and checks it; returns
 * the cooperative accesses through pointers it has (-1: it failed). */
static int check_kernel(const char *preset, const spvgen_mlp_train_config *t, spvgen_mlp_train_kernel which) {
  const char *kname = which ? "optimizer" : "gradient";
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&t->net)});
  spvgen_kernel_info info;
  int coop = -1;
  spvgen_status st = spvgen_mlp_train_emit(m, t, which, &info);
  CHECK_MSG(st == SPVGEN_OK, "%s %s %s: %s", preset, t->name, kname, spvgen_module_error(m));
  size_t count = 0;
  const uint32_t *words = st == SPVGEN_OK ? check_module(m, &count) : NULL;
  if (!words) goto done;
  const uint32_t nb = which ? 4 : 5, size = which ? t->opt_push_constant_size : t->grad_push_constant_size;
  CHECK_EQ_U64(info.binding_count, nb);
  CHECK_EQ_U64(info.push_constant_size, size);
  CHECK_EQ_U64(size, which ? 48u : t->net.variant == SPVGEN_MLP_VEC ? 48u + 8 * t->net.layer_count : 48u);
  for (uint32_t b = 0; b < nb && b < info.binding_count; b++) {
    CHECK_EQ_U64(info.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
    CHECK_EQ_U64(info.bindings[b].address_offset, size - 8 * (nb - b));
    CHECK_MSG(info.bindings[b].alignment == expected_alignment(t, which, b), "%s %s %s binding %u: alignment %u",
              preset, t->name, kname, b, info.bindings[b].alignment);
  }
  CHECK_STR_EQ(info.bindings[which ? 0 : 1].name, "weights");
  CHECK_EQ_U64(info.bindings[which ? 0 : 1].min_size, t->net.weight_bytes);
  CHECK_EQ_U64(info.bindings[which ? 2 : 4].min_size, which ? t->state_bytes : t->loss_bytes);
  spvgen_kernel_info got = info;
  char msg[512];
  st = spvgen_kernel_reflect(words, count, &got, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s %s %s: %s", preset, t->name, kname, msg);
  if (st != SPVGEN_OK) goto done;
  /* the words' own bindings: the pointers only (no descriptor) */
  for (uint32_t b = 0; b < got.binding_count; b++) CHECK_EQ_U64(got.bindings[b].kind, SPVGEN_BINDING_DEVICE_ADDRESS);
  CHECK_EQ_U64(got.binding_count, nb);
  CHECK_MSG((got.features & ~t->features) == 0, "%s %s %s: the words need features 0x%llx the plan does not list",
            preset, t->name, kname, (unsigned long long)(got.features & ~t->features));
  CHECK(t->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  CHECK(has_capability(&got, SpvCapabilityPhysicalStorageBufferAddresses));
  words_psb_report r;
  CHECK(words_psb_accesses(words, count, &r));
  CHECK_MSG(r.unaligned == 0, "%s %s %s: %u of %u accesses through a pointer without Aligned (first at word %zu)",
            preset, t->name, kname, r.unaligned, r.accesses, r.first_unaligned);
  CHECK_MSG(r.accesses > 0, "%s %s %s: no access through a pointer", preset, t->name, kname);
  coop = (int)r.coop;
done:
  spvgen_module_destroy(m);
  return coop;
}

static const train_net NETS[] = {
    {SPVGEN_MLP_AUTO, 2, 32, 2, 3, SPVGEN_MLP_ACT_RELU, 0, SPVGEN_MLP_ENCODING_FREQUENCY, false, false,
     SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM},
    {SPVGEN_MLP_AUTO, 16, 64, 2, 16, SPVGEN_MLP_ACT_SILU, 0, 0, true, false, SPVGEN_MLP_LOSS_RELATIVE_L2,
     SPVGEN_MLP_OPTIMIZER_ADAM},
    {SPVGEN_MLP_AUTO, 3, 16, 2, 3, SPVGEN_MLP_ACT_TANH, 0, SPVGEN_MLP_ENCODING_HASH_GRID, false, false,
     SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM},
    {SPVGEN_MLP_AUTO, 5, 7, 4, 9, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_ONE_BLOB, true,
     true, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_SGD},
};

/* Every network on every variant the preset trains it on (vec and mat on h100; the hash
 * grid not on vec), the hash grid with float atomics, with compare-exchange loops, and
 * with an f16 table gradient (the preset given f16 vector atomics: those, and
 * compare-exchange loops on f16 pairs): both kernels checked (check_kernel). */
static void test_train_modules_validate(void) {
  static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};
  uint32_t checked = 0, mat_coop = 0;
  for (size_t pi = 0; pi < 3; pi++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[pi], &caps) == SPVGEN_OK);
    for (size_t i = 0; i < sizeof NETS / sizeof NETS[0]; i++)
      for (int v = SPVGEN_MLP_VEC; v <= SPVGEN_MLP_LOOP; v++)
        for (int mode = 0; mode < 4; mode++) {
          train_net n = NETS[i];
          n.v = (spvgen_mlp_variant)v;
          const bool grid = n.enc == SPVGEN_MLP_ENCODING_HASH_GRID, cas = mode & 1, h16 = mode >= 2;
          if (mode && !grid) continue;
          if (v == SPVGEN_MLP_VEC && grid) continue; /* refused: test_train_refusals_bda */
          if (pi > 0 && v != SPVGEN_MLP_LOOP) continue; /* cooperative features: h100 only */
          spvgen_mlp_train_desc d = train_desc(&n);
          spvgen_device_caps pc = caps;
          if (h16) {
            pc.features |= SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
            d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
            d.net.grid.features = mode == 2 ? 4 : 2; /* 4-vector atomics and 2-vector ones */
          }
          spvgen_mlp_train_config t;
          char msg[512];
          spvgen_status st = spvgen_mlp_train_plan(&d, &pc, &t, msg, sizeof msg);
          CHECK_MSG(st == SPVGEN_OK, "%s net %zu %s: %s", presets[pi], i,
                    spvgen_mlp_variant_name((spvgen_mlp_variant)v), msg);
          if (st != SPVGEN_OK) continue;
          CHECK_EQ_U64(t.net.desc.addressing, SPVGEN_ADDRESSING_DEVICE_ADDRESS);
          CHECK(t.features & SPVGEN_FEATURE_INT64);
          if (cas) t.features &= ~(SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD | SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
          for (int which = 0; which < 2; which++) {
            int coop = check_kernel(presets[pi], &t, (spvgen_mlp_train_kernel)which);
            if (coop < 0) continue;
            checked++;
            if (v == SPVGEN_MLP_MAT && !which) mat_coop += (uint32_t)coop;
          }
        }
  }
  CHECK_MSG(checked >= 30, "only %u kernels checked", checked);
  /* the mat gradient kernels load (some of) their weights straight from the pointer */
  CHECK_MSG(mat_coop > 0, "no mat gradient kernel has a cooperative access through a pointer");
}

/* The descriptor form is unchanged by the device-address one: same push constants, the
 * bindings at set 0 (the words: tests/mlp/test_mlp_train.c). */
static void test_descriptor_form_stays_the_default(void) {
  train_net n = NETS[0];
  n.v = SPVGEN_MLP_LOOP;
  spvgen_mlp_train_desc d = train_desc(&n);
  d.net.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  spvgen_kernel k;
  char msg[512];
  CHECK_MSG(spvgen_mlp_train(&d, NULL, SPVGEN_MLP_TRAIN_GRADIENT, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(k.info.push_constant_size, 4);
  CHECK_EQ_U64(k.info.bindings[3].kind, SPVGEN_BINDING_STORAGE_BUFFER);
  CHECK(!has_capability(&k.info, SpvCapabilityPhysicalStorageBufferAddresses));
  spvgen_kernel_free(&k);
  CHECK_MSG(spvgen_mlp_train(&d, NULL, SPVGEN_MLP_TRAIN_OPTIMIZER, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(k.info.push_constant_size, 8);
  spvgen_kernel_free(&k);
  /* the one-shot makes the module the form needs */
  d.net.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  CHECK_MSG(spvgen_mlp_train(&d, NULL, SPVGEN_MLP_TRAIN_OPTIMIZER, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(check_words(k.words, k.word_count));
  CHECK_EQ_U64(k.info.push_constant_size, 48);
  CHECK_STR_EQ(k.info.push_fields[2].name, "loss_elements");
  CHECK_EQ_U64(k.info.push_fields[2].offset, 8);
  spvgen_kernel_free(&k);
}

static void test_train_refusals_bda(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  char msg[512];
  spvgen_mlp_train_config t;
  train_net n = NETS[0];
  n.v = SPVGEN_MLP_LOOP;
  /* a device without shaderInt64 (the 64-bit pointer moves) or bufferDeviceAddress */
  spvgen_mlp_train_desc d = train_desc(&n);
  spvgen_device_caps no64 = h100;
  no64.features &= ~SPVGEN_FEATURE_INT64;
  CHECK(spvgen_mlp_train_plan(&d, &no64, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "shaderInt64");
  spvgen_device_caps no_bda = h100;
  no_bda.features &= ~SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS;
  CHECK(spvgen_mlp_train_plan(&d, &no_bda, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "bufferDeviceAddress");
  /* vec: more layers than a push-constant block has members for the offsets and pointers */
  n.v = SPVGEN_MLP_VEC;
  d = train_desc(&n);
  d.net.hidden_count = 13; /* 14 layers: 2 + 28 + 5 members */
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "with device addresses takes 2 + 2 per layer push constants and 5 pointers");
  d.net.hidden_count = 10;
  CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* a gradient buffer past the largest signed index (60000 slots of 16-128x3-16's about
   * 37,000 elements: under 2^32, which descriptors take, over 2^31) */
  n.v = SPVGEN_MLP_LOOP;
  d = train_desc(&n);
  d.net.encoding = SPVGEN_MLP_ENCODING_NONE;
  d.net.encoding_size = 0;
  d.net.input_width = 16;
  d.net.hidden_width = 128;
  d.net.hidden_count = 3;
  d.net.output_width = 16;
  d.grad_workgroups = 60000;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "exceed 2^31 - 1, the largest signed access-chain index");
  d.net.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(t.grad_bytes / 4 > 0x7FFFFFFFull);
  /* a Logical module */
  d = train_desc(&n);
  CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "create the module with spvgen_module_desc.addressing");
  spvgen_module_destroy(m);
}

/* ----------------------------------------------------------- on the device ---- */

/* mlp_train_run's guards: at least 4 KiB before, between and after the six ranges */
#define GUARD_WORDS_EACH 1024ull

typedef struct run_case {
  train_net net;
  uint32_t points, grad_workgroups;
  bool cas;         /* the hash grid through compare-exchange loops */
  bool suballocate; /* the six buffers in one */
  bool h16;         /* an f16 table gradient (through compare-exchange loops on f16 pairs) */
} run_case;

/* Three steps of rc through mlp_train_run, checked as the descriptor form's tests check
 * them: every gradient and optimizer value within the reference's tolerance, the loss,
 * (mat) the worst gradient error under a quarter of its bound; sub-allocated: the
 * offsets not 256-aligned and the guards untouched. */
static void run_one(spvgen_vk_context *ctx, const run_case *rc) {
  spvgen_mlp_train_desc d = train_desc(&rc->net);
  d.grad_workgroups = rc->grad_workgroups;
  spvgen_device_caps caps = *spvgen_vk_caps(ctx);
  const bool mat = rc->net.v == SPVGEN_MLP_MAT;
  if (mat) {
    caps = coopmat_emulated_caps(&caps, false);
    caps.max_shared_memory -= 4096; /* the emulation's scratch, outside the plan */
    d.net.points_per_group = 16;
    d.grad_workgroup_size = caps.subgroup_size;
  }
  if (rc->h16) {
    caps.features |= SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
    d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
  }
  spvgen_mlp_train_config plan;
  char msg[512];
  spvgen_status st = spvgen_mlp_train_plan(&d, &caps, &plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  if (mat) plan.net.features &= ~SPVGEN_FEATURE_COOPMAT; /* the emulation */
  if (rc->cas || rc->h16) plan.features &= ~(SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD | SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
  mlp_train_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = rc->points;
  o.steps = 3;
  o.lr = rc->net.opt == SPVGEN_MLP_OPTIMIZER_SGD ? 0.05f : 0.01f;
  o.plan = &plan;
  o.suballocate = rc->suballocate;
  mlp_train_run_result r;
  st = mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "[%s]: %s", plan.name, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.grad.checked, r.plan.params * o.steps);
  CHECK_MSG(r.grad.bad == 0, "[%s] %llu of %llu gradients wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
            plan.name, (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked,
            (unsigned long long)r.grad.first_bad, r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
  if (mat)
    CHECK_MSG(r.grad.worst_ratio <= 0.25, "[%s]: worst gradient |err| / tolerance %.3f, expected <= 0.25", plan.name,
              r.grad.worst_ratio);
  CHECK_MSG(r.opt.bad == 0, "[%s] %llu of %llu optimizer values wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
            plan.name, (unsigned long long)r.opt.bad, (unsigned long long)r.opt.checked,
            (unsigned long long)r.opt.first_bad, r.opt.first_gpu, r.opt.first_ref, r.opt.first_tol);
  CHECK_MSG(r.loss_bad == 0, "[%s] loss gpu %.8g cpu %.8g (step 1)", plan.name, r.loss_gpu[0], r.loss_ref[0]);
  if (rc->suballocate) {
    CHECK_EQ_U64(r.guard_bad, 0);
    CHECK(r.guard_words >= 3ull * 7 * GUARD_WORDS_EACH); /* 7 guards of >= 4 KiB, 3 steps */
    for (int i = 0; i < 6; i++) CHECK_MSG(r.offsets[i] % 256 != 0, "[%s] buffer %d at offset %llu", plan.name, i,
                                          (unsigned long long)r.offsets[i]);
  }
  fprintf(stderr, "  %-60s%s%s %u points: worst gradient err/tol %.3f, optimizer %.3f, loss %.5g -> %.5g\n", plan.name,
          rc->h16   ? " (f16 pairs)"
          : rc->cas ? " (compare-exchange)"
                    : "",
          rc->suballocate ? " (sub-allocated)" : "", rc->points,
          r.grad.worst_ratio, r.opt.worst_ratio, r.loss_gpu[0], r.loss_gpu[2]);
}

/* The loop variant on the device: several chunks per workgroup (the input and target
 * pointers move per chunk), the last one partial; the encodings, f16 and f32 points, no
 * bias, both losses and optimizers; the hash grid with float atomics and with
 * compare-exchange loops through pointers. */
static void test_loop_training_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64);
  if (!ctx) return;
  const run_case cases[] = {
      {NETS[0], 700, 3, false, false, false},
      {NETS[1], 300, 8, false, false, false},
      {NETS[3], 257, 13, false, false, false},
      {NETS[2], 300, 8, false, false, false},
      {NETS[2], 200, 3, true, false, false},
      {NETS[2], 300, 8, false, false, true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    run_case rc = cases[i];
    rc.net.v = SPVGEN_MLP_LOOP;
    run_one(ctx, &rc);
  }
  spvgen_vk_destroy(ctx);
}

/* The buffers sub-allocated from one (the loop variant; the hash grid's table gradient
 * behind the slots), every value checked and nothing outside the ranges written. */
static void test_loop_training_suballocated_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64);
  if (!ctx) return;
  run_case rc = {NETS[2], 333, 5, false, true, false};
  rc.net.v = SPVGEN_MLP_LOOP;
  run_one(ctx, &rc);
  rc.h16 = true; /* the optimizer's 8- and 16-byte quads through the moved pointers */
  run_one(ctx, &rc);
  rc = (run_case){NETS[1], 150, 4, false, true, false};
  rc.net.v = SPVGEN_MLP_LOOP;
  run_one(ctx, &rc);
  spvgen_vk_destroy(ctx);
}

/* The mat variant's gradient kernel in its emulation (lavapipe compiles it slowly: one
 * network), sub-allocated: 16-byte weights and f16 input chunks through the pointers, the
 * chunks' pointer moves (two chunks per workgroup), the held tile sums written to the
 * workgroup's moved slot pointer. */
static void test_mat_emulated_training_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64);
  if (!ctx) return;
  run_case rc = {{SPVGEN_MLP_MAT, 16, 32, 1, 3, SPVGEN_MLP_ACT_TANH, 0, 0, true, false, SPVGEN_MLP_LOSS_L2,
                  SPVGEN_MLP_OPTIMIZER_ADAM},
                 61, 2, false, true, false};
  run_one(ctx, &rc);
  /* the hash grid: the table's gradient through its own moved pointer, compare-exchange
   * loops on it (lavapipe has float atomics: the loop variant's test takes those) */
  rc = (run_case){{SPVGEN_MLP_MAT, 3, 16, 2, 3, SPVGEN_MLP_ACT_TANH, 0, SPVGEN_MLP_ENCODING_HASH_GRID, false, false,
                   SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM},
                  45, 3, true, false, false};
  if (!test_current_failed) run_one(ctx, &rc);
  rc.cas = false; /* the f16 table gradient through its moved pointer */
  rc.h16 = true;
  if (!test_current_failed) run_one(ctx, &rc);
  spvgen_vk_destroy(ctx);
}

/* The runner's own refusals of a sub-allocated range that is too short or misaligned come
 * from the info (tests/vk); here: mlp_train_run refuses to sub-allocate descriptors. */
static void test_suballocation_needs_device_addresses(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  train_net n = NETS[0];
  n.v = SPVGEN_MLP_LOOP;
  spvgen_mlp_train_desc d = train_desc(&n);
  d.net.addressing = SPVGEN_ADDRESSING_DESCRIPTORS;
  mlp_train_run_options o;
  memset(&o, 0, sizeof o);
  o.suballocate = true;
  o.points = 64;
  mlp_train_run_result r;
  char msg[512];
  CHECK(mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "suballocate: the kernels take descriptors");
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_train_modules_validate),
      TEST_CASE(test_descriptor_form_stays_the_default),
      TEST_CASE(test_train_refusals_bda),
      TEST_CASE(test_loop_training_matches_cpu),
      TEST_CASE(test_loop_training_suballocated_matches_cpu),
      TEST_CASE(test_mat_emulated_training_matches_cpu),
      TEST_CASE(test_suballocation_needs_device_addresses),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
