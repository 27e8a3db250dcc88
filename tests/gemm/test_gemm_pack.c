/* tests/gemm/test_gemm_pack.c — packed operands (desc.pack, spvgen/gemm.h "Packed
 * operands"): the plan's layout of the copies, the kernels in dispatch order, every
 * module validated, refusals named; and runs on lavapipe (the simt variant, which packs
 * like coopmat2 does: the same pack kernel, the same workspace layout) of every D element
 * against the float64 reference, the workspace NaN-filled before each run (a pad the pack
 * kernel did not zero would reach D). The coopmat2 kernels' runs are the GPU tests' (tests/
 * gpu/test_gpu_gemm.c, packed plans). */
#include <stdio.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"
#include "words.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc f16_desc(uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  return d;
}

/* Every kernel of d's plan, validated; returns the count (0: failed, reported). */
static uint32_t build(const spvgen_gemm_desc *d, const spvgen_device_caps *caps, spvgen_gemm_config *plan,
                      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT]) {
  char msg[512];
  uint32_t n = 0;
  spvgen_status st = spvgen_gemm_kernels(d, caps, k, &n, plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return 0;
  for (uint32_t i = 0; i < n; i++)
    CHECK_MSG(check_words(k[i].words, k[i].word_count), "kernel %u of %s", i, plan->name);
  return n;
}

static void free_all(spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT], uint32_t n) {
  for (uint32_t i = 0; i < n; i++) spvgen_kernel_free(&k[i]);
}


/* A FIXED coopmat2 plan with both operands packed pads K to whole groups of 8 K steps
 * where that adds at most a sixteenth (pack.c, k_pad_of): 3000^3 at tile_k 64 copies K
 * 3072 (48 steps: one K loop, no second loop for a rest), K 600 stays at the tile's 640
 * (1024 would add 60 %); the run-time class keeps the tile's pad. */
static void test_packed_k_pads_to_whole_groups(void) {
  const spvgen_device_caps h100 = preset("h100");
  static const struct { uint32_t k, kp; size_t loops; } cases[] = {{3000, 3072, 1}, {600, 640, 2}};
  for (size_t i = 0; i < 2; i++) {
    spvgen_gemm_desc d = f16_desc(3000, 3000, cases[i].k);
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.pack = SPVGEN_GEMM_PACK_AB;
    d.tile_m = 128, d.tile_n = 192, d.tile_k = 64, d.unroll = 1;
    spvgen_gemm_config p;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t n = build(&d, &h100, &p, k);
    const uint64_t mp = 3072, np = 3072, kp = cases[i].kp;
    CHECK_MSG(p.workspace_bytes == (mp * kp * 2 + 255) / 256 * 256 + kp * np * 2, "K %u: workspace %llu (K copied %llu)",
              cases[i].k, (unsigned long long)p.workspace_bytes, (unsigned long long)kp);
    if (n == 2) {
      const uint32_t loops = words_count(k[1].words, k[1].word_count, SpvOpLoopMerge);
      CHECK_MSG(loops == cases[i].loops, "K %u [%s]: %u loops in the main kernel (want %zu)", cases[i].k, p.name, loops,
                cases[i].loops);
    }
    free_all(k, n);
  }
  spvgen_gemm_desc r = f16_desc(0, 0, 0); /* the run-time class: the tile's pad */
  r.variant = SPVGEN_GEMM_COOPMAT2;
  r.pack = SPVGEN_GEMM_PACK_AB;
  r.tile_m = 128, r.tile_n = 192, r.tile_k = 64;
  spvgen_gemm_config pr;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&r, &h100, &pr, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_gemm_args a = {.m = 3000, .n = 3000, .k = 3000};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&pr, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.workspace_bytes, (3072ull * 3008 * 2 + 255) / 256 * 256 + 3008ull * 3072 * 2);
}

/* The layout of the copies for 4097x4095x4093 (the workspace: A's copy, then B's), the
 * kernels in dispatch order with their bindings, and the launch of a run-time plan giving
 * the same layout. */
static void test_plan_layout_and_kernels(void) {
  const spvgen_device_caps h100 = preset("h100");
  spvgen_gemm_desc d = f16_desc(4097, 4095, 4093);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.pack = SPVGEN_GEMM_PACK_AB;
  spvgen_gemm_config p;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  const uint32_t tm = p.desc.tile_m, tn = p.desc.tile_n, tk = p.desc.tile_k;
  const uint64_t mp = (4097 + tm - 1) / tm * tm, np = (4095 + tn - 1) / tn * tn, kp = (4093 + tk - 1) / tk * tk;
  CHECK_EQ_U64(p.desc.pack, SPVGEN_GEMM_PACK_AB);
  CHECK_EQ_U64(p.desc.k, 4093); /* the caller's shape stays */
  CHECK_EQ_U64(p.pack_a_offset, 0);
  CHECK_EQ_U64(p.pack_b_offset, (mp * kp * 2 + 255) / 256 * 256);
  CHECK_EQ_U64(p.workspace_bytes, p.pack_b_offset + kp * np * 2);
  CHECK_EQ_U64(p.workspace_binding, 3);
  CHECK_EQ_U64(p.desc.edge, SPVGEN_GEMM_EDGE_CLAMP); /* only D's store clamps */
  CHECK(strstr(p.name, "pack ab") != NULL);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&p), 2);
  CHECK_EQ_U64(spvgen_gemm_kernel_at(&p, 0), SPVGEN_GEMM_KERNEL_PACK);
  CHECK_EQ_U64(spvgen_gemm_kernel_at(&p, 1), SPVGEN_GEMM_KERNEL_MAIN);
  /* one 16-byte unit (8 halves) of the copies per invocation (pack_units 1), 256 a group */
  CHECK_EQ_U64(p.desc.pack_units, 1);
  const uint64_t groups = ((mp * kp + kp * np) / 8 + 255) / 256;
  CHECK_EQ_U64((uint64_t)p.pack_groups[0] * p.pack_groups[1] >= groups, 1);
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t n = build(&d, &h100, &p, k);
  CHECK_EQ_U64(n, 2);
  if (n == 2) {
    /* the pack kernel: A, B, the workspace (written); the main kernel: D, the workspace */
    CHECK_EQ_U64(k[0].info.binding_count, 3);
    CHECK_STR_EQ(k[0].info.bindings[2].name, "workspace");
    CHECK_EQ_U64(k[0].info.bindings[2].binding, 3);
    CHECK_EQ_U64(k[0].info.bindings[2].access, SPVGEN_ACCESS_WRITE);
    CHECK_EQ_U64(k[0].info.bindings[2].min_size, p.workspace_bytes);
    CHECK_EQ_U64(k[0].info.groups[0], p.pack_groups[0]);
    CHECK_EQ_U64(k[1].info.binding_count, 2);
    CHECK_STR_EQ(k[1].info.bindings[0].name, "D");
    CHECK_STR_EQ(k[1].info.bindings[1].name, "workspace");
    CHECK_EQ_U64(k[1].info.bindings[1].access, SPVGEN_ACCESS_READ);
    /* no K edge, no clamped load: 2 unclamped layouts (A, B) and D's clamped one */
    CHECK(words_count(k[1].words, k[1].word_count, SpvOpTensorLayoutSetDimensionNV) <= 3);
    spvgen_gemm_desc u = f16_desc(4097, 4095, 4093);
    u.variant = SPVGEN_GEMM_COOPMAT2;
    u.pack = SPVGEN_GEMM_PACK_NONE;
    u.unroll = p.desc.unroll;
    spvgen_gemm_config pu;
    spvgen_kernel ku[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t nu = build(&u, &h100, &pu, ku);
    if (nu) {
      /* the packed kernel loads A and B once per K step (unroll 1): no K-edge step */
      const uint32_t lp = words_count(k[1].words, k[1].word_count, SpvOpCooperativeMatrixLoadTensorNV),
                     lu = words_count(ku[0].words, ku[0].word_count, SpvOpCooperativeMatrixLoadTensorNV);
      printf("4097x4095x4093 u%u: packed main kernel %zu words, %u tensor loads; unpacked %zu words, %u loads\n",
             p.desc.unroll, k[1].word_count, lp, ku[0].word_count, lu);
      CHECK_EQ_U64(lp, 2u * p.desc.unroll);
      CHECK(lu > lp);
    }
    free_all(ku, nu);
  }
  free_all(k, n);
  /* the run-time plan's launch: the same layout from the shape */
  spvgen_gemm_desc r = f16_desc(0, 0, 0);
  r.variant = SPVGEN_GEMM_COOPMAT2;
  r.pack = SPVGEN_GEMM_PACK_AB;
  r.tile_m = p.desc.tile_m, r.tile_n = p.desc.tile_n, r.tile_k = p.desc.tile_k;
  spvgen_gemm_config pr;
  CHECK_MSG(spvgen_gemm_plan(&r, &h100, &pr, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(pr.workspace_bytes, 0);
  spvgen_gemm_args a = {.m = 4097, .n = 4095, .k = 4093};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&pr, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.workspace_bytes, p.workspace_bytes);
  CHECK_EQ_U64(l.pack_b_offset, p.pack_b_offset);
  CHECK_EQ_U64(l.pack_groups[0] * (uint64_t)l.pack_groups[1], (uint64_t)p.pack_groups[0] * p.pack_groups[1]);
  /* split-K's planes first, then the copies */
  spvgen_gemm_desc s = r;
  s.split_k = 3;
  spvgen_gemm_config ps;
  CHECK_MSG(spvgen_gemm_plan(&s, &h100, &ps, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&ps), 3);
  CHECK_EQ_U64(spvgen_gemm_kernel_at(&ps, 2), SPVGEN_GEMM_KERNEL_REDUCE);
  spvgen_gemm_args sa = {.m = 100, .n = 70, .k = 1000};
  CHECK_MSG(spvgen_gemm_launch_for(&ps, &sa, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.pack_a_offset, (3ull * 100 * 72 * 4 + 255) / 256 * 256);
}

/* Every packed form validates (spirv-val in process): both variants, every pack mode,
 * fixed and run-time, descriptors and device addresses, batches, split-K, 8-bit inputs,
 * the epilogue; the walk counts pack kernels. */
static void test_modules_validate(void) {
  const spvgen_device_caps h100 = preset("h100"), lava = preset("lavapipe");
  uint32_t packs = 0, walked = 0;
  for (int c = 0; c < 2; c++)
    for (int pk = SPVGEN_GEMM_PACK_A; pk <= SPVGEN_GEMM_PACK_AB; pk++)
      for (int rt = 0; rt < 2; rt++)
        for (int bda = 0; bda < 2; bda++)
          for (int form = 0; form < 3; form++) {
            spvgen_gemm_desc d = f16_desc(rt ? 0 : 129, rt ? 0 : 65, rt ? 0 : 33);
            d.pack = (spvgen_gemm_pack)pk;
            d.variant = c ? SPVGEN_GEMM_SIMT : SPVGEN_GEMM_COOPMAT2;
            d.addressing = bda ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
            if (form == 1) { /* s8, batches, column-major A */
              d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
              d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
              d.batch = 3;
              d.a_layout = SPVGEN_COL_MAJOR;
              d.bias = SPVGEN_GEMM_BIAS_ROW;
            } else if (form == 2) { /* the epilogue, split-K, f16 out */
              d.out_type = SPVGEN_COMPONENT_F16;
              d.beta = 0.5f, d.alpha = 2.0f, d.activation = SPVGEN_ACTIVATION_GELU;
              d.b_layout = SPVGEN_COL_MAJOR;
              d.split_k = 2;
            }
            spvgen_gemm_config p;
            spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
            uint32_t n = build(&d, c ? &lava : &h100, &p, k);
            CHECK_MSG(n == 1u + (d.split_k > 1) + 1u, "%s: %u kernels", p.name, n);
            for (uint32_t i = 0; i < n; i++) packs += spvgen_gemm_kernel_at(&p, i) == SPVGEN_GEMM_KERNEL_PACK;
            walked += n;
            free_all(k, n);
          }
  printf("%u packed modules validated, %u pack kernels\n", walked, packs);
  CHECK_EQ_U64(packs, 2 * 3 * 2 * 2 * 3);
}

/* The pack kernel of the other input types validates, each with 16-byte source loads
 * (leading dimensions multiples of 16 bytes) and with gathers (odd ones), fixed and
 * run-time, descriptors and device addresses: u8 on coopmat2, f32 and u8 on simt (f16 and
 * s8 above); bf16 (which SPIRV-Tools 2025.1 cannot parse) emits and is checked on its
 * words. */
static void test_every_input_type_validates(void) {
  const spvgen_device_caps h100 = preset("h100"), lava = preset("lavapipe");
  static const struct {
    spvgen_component_type ab, acc;
    spvgen_gemm_variant v;
  } types[] = {
      {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_GEMM_COOPMAT2},
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_SIMT},
      {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_GEMM_SIMT},
  };
  uint32_t packs = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (int form = 0; form < 8; form++) {
      const bool aligned = form & 1, rt = (form >> 1) & 1, bda = (form >> 2) & 1;
      const uint32_t esize = spvgen_component_type_size(types[t].ab);
      spvgen_gemm_desc d = f16_desc(rt ? 0 : 129, rt ? 0 : 65, rt ? 0 : 33);
      d.a_type = d.b_type = types[t].ab;
      d.acc_type = d.out_type = types[t].acc;
      d.variant = types[t].v;
      d.pack = SPVGEN_GEMM_PACK_AB;
      d.batch = rt ? 0 : 2;
      d.addressing = bda ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
      if (rt) d.ld_multiple = aligned ? 16u / esize : 1;
      else if (aligned) d.lda = 48, d.ldb = 80; /* K 33 and N 65 rounded up to 16 elements */
      spvgen_gemm_config p;
      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
      uint32_t n = build(&d, d.variant == SPVGEN_GEMM_SIMT ? &lava : &h100, &p, k);
      if (n) {
        CHECK_EQ_U64(spvgen_gemm_kernel_at(&p, 0), SPVGEN_GEMM_KERNEL_PACK);
        const bool vec = aligned && !(bda && d.variant == SPVGEN_GEMM_SIMT);
        CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "A4") == (vec && !bda) , "%s form %d: A4", p.name, form);
        packs++;
      }
      free_all(k, n);
    }
  printf("%u pack kernels of f32 and u8 validated\n", packs);
  CHECK_EQ_U64(packs, 8 * sizeof types / sizeof types[0]);
  /* bf16: gathered into 32-bit words (bitcasts of bf16 pairs), or 16-byte loads */
  for (int aligned = 0; aligned < 2; aligned++) {
    spvgen_gemm_desc d = f16_desc(129, 65, 33);
    d.a_type = d.b_type = SPVGEN_COMPONENT_BF16;
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.pack = SPVGEN_GEMM_PACK_AB;
    if (aligned) d.lda = 48, d.ldb = 80;
    spvgen_gemm_config p;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t n = 0;
    char msg[512];
    CHECK_MSG(spvgen_gemm_kernels(&d, &h100, k, &n, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    if (n) {
      CHECK_EQ_U64(words_has_name(k[0].words, k[0].word_count, "A4"), aligned);
      CHECK(words_has(k[0].words, k[0].word_count, SpvOpBitcast));
    }
    free_all(k, n);
  }
}

static void test_refusals_name_what_is_wrong(void) {
  const spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_config p;
  spvgen_gemm_desc d = f16_desc(100, 100, 100);
  d.pack = SPVGEN_GEMM_PACK_AB;
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "pack ab: the khr variant");
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.stages = 2;
  d.m = d.n = d.k = 4096;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "stages 2");
  d.stages = 0;
  d.pack_units = 17;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "pack_units 17 is over 16");
  d.pack_units = 0;
  d.pack = (spvgen_gemm_pack)9;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "pack 9");
  /* a workspace past 32-bit byte offsets */
  d.pack = SPVGEN_GEMM_PACK_AB;
  d.m = d.n = 32768; /* K within SPVGEN_GEMM_MAX_SERIAL_K: no split-K workspace first */
  d.k = 16384;
  d.batch = 2;
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "32-bit byte offsets");
  spvgen_gemm_desc r = f16_desc(0, 0, 0);
  r.pack = SPVGEN_GEMM_PACK_A;
  r.variant = SPVGEN_GEMM_COOPMAT2;
  CHECK(spvgen_gemm_plan(&r, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  spvgen_gemm_args a = {.m = 120000, .n = 8, .k = 16000, .batch = 2};

  spvgen_gemm_launch l;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "spvgen_gemm_launch_for");
  CHECK_CONTAINS(msg, "pack a");
  CHECK(spvgen_gemm_pack_parse("ab", &d.pack) && d.pack == SPVGEN_GEMM_PACK_AB);
  CHECK(!spvgen_gemm_pack_parse("abc", &d.pack));
  CHECK_STR_EQ(spvgen_gemm_pack_name(SPVGEN_GEMM_PACK_B), "b");
  /* AUTO packs both operands for coopmat2 where A or B is off 16 bytes and M, N >= 256;
   * nothing where both are aligned, for few rows, or on khr */
  d = f16_desc(4097, 4095, 4093);
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(p.desc.pack == SPVGEN_GEMM_PACK_AB && p.variant == SPVGEN_GEMM_COOPMAT2, "4097x4095x4093: %s", p.name);
  spvgen_gemm_desc k2 = d;
  k2.variant = SPVGEN_GEMM_COOPMAT_KHR;
  CHECK(spvgen_gemm_plan(&k2, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.pack, SPVGEN_GEMM_PACK_NONE);
  static const uint32_t unpacked[][3] = {{2048, 3584, 3584}, {3000, 3000, 3000}, {100, 4095, 4093}};
  for (size_t i = 0; i < 3; i++) {
    d = f16_desc(unpacked[i][0], unpacked[i][1], unpacked[i][2]);
    CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
    CHECK_MSG(p.desc.pack == SPVGEN_GEMM_PACK_NONE, "%ux%ux%u: %s", d.m, d.n, d.k, p.name);
  }
  /* the one-kernel call plans unpacked, and refuses an explicit pack */
  d = f16_desc(4097, 4095, 4093);
  spvgen_kernel one;
  CHECK(spvgen_gemm(&d, &h100, &one, msg, sizeof msg) == SPVGEN_OK);
  spvgen_kernel_free(&one);
  d.pack = SPVGEN_GEMM_PACK_AB;
  CHECK(spvgen_gemm(&d, &h100, &one, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_gemm_kernels");
  d = f16_desc(2048, 3584, 3584);
  CHECK(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK);
  /* the emitter refuses the pack kernel of an unpacked plan */
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_gemm_emit_kernel(m, &p, SPVGEN_GEMM_KERNEL_PACK, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "pack kernel");
  spvgen_module_destroy(m);
}

/* Runs on lavapipe (simt), every element of D against the float64 reference. */
static void test_runs_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const bool bda_ok = (spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS) != 0;
  static const gemm_pack_case cases[] = {
      {1, 1, 1, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_AB, 0, 0, 0, 0, 0,
       0, 0, 0, 0, 1, false, false, 0},
      {7, 17, 33, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_AB, 1, 37, 0, 0,
       0, 0, 0, 0, 0, 1, false, false, 0},
      {65, 127, 129, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, SPVGEN_GEMM_PACK_AB, 2, 131, 0,
       0, 5, 1.5f, 0.5f, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_GELU, 1, false, false, 0},
      {129, 65, 17, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_A, 3, 0, 0, 0,
       0, 0, 0, SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_ACTIVATION_RELU, 1, true, false, 0},
      {33, 129, 65, 3, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, SPVGEN_GEMM_PACK_B, 0, 67, 131,
       0, 3, 0, 0, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_RELU, 1, false, false, 0},
      {33, 70, 1001, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_AB, 1, 1003,
       0, 71, 0, 0, 0.25f, 0, 0, 3, false, false, 0},
      {57, 41, 333, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, SPVGEN_GEMM_PACK_AB, 2, 0, 0, 0,
       0, 0, 0, 0, 0, 2, true, false, 0},
      {127, 7, 65, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_AB, 3, 130, 70,
       0, 0, 2.0f, 1.0f, 0, 0, 1, true, true, 0},
      {65, 33, 129, 2, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, SPVGEN_GEMM_PACK_AB, 1, 0, 0, 0,
       9, 0, 0, 0, 0, 2, false, true, 0},
      {17, 129, 33, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, SPVGEN_GEMM_PACK_B, 2, 0, 35, 0,
       0, 0, 0, SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_ACTIVATION_SILU, 1, true, true, 0},
  };
  uint32_t ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].bda && !bda_ok) continue;
    spvgen_gemm_desc d;
    spvgen_gemm_args args;
    gemm_pack_case_desc(&cases[i], SPVGEN_GEMM_SIMT, &d, &args);
    d.tile_m = d.tile_n = 16; /* several tiles and edge tiles on both sides */
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.recheck = true; /* a second run over a NaN-filled workspace: the pads are the pack kernel's zeros */
    gemm_case_shapes(&d, &o, &args, cases[i].runtime);
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "case %zu", i)) continue;
    CHECK_EQ_U64(r.kernels, 1u + (d.split_k > 1) + 1u);
    ran++;
  }
  printf("%u packed runs matched the reference\n", ran);
  CHECK(ran >= 7u + 3u * bda_ok);
  spvgen_vk_destroy(ctx);
}

/* The pack kernel's 16-byte units on lavapipe (simt), every element of D against the
 * float64 reference over a NaN-filled workspace: sources read 16 bytes at a time (leading
 * dimensions and batch strides multiples of 16 bytes: f16, s8, f32, both layouts, a
 * run-time class that promises it) and gathered element by element (odd leading
 * dimensions: f16, s8, u8, f32), each with a row's last unit crossing the source's inner
 * extent, M, N and K ending inside a tile, batches, split-K, several units per invocation,
 * and a tile_k under the 16-element pad. */
static void test_wide_units_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const bool bda_ok = (spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS) != 0;
#define F16 SPVGEN_COMPONENT_F16
#define F32 SPVGEN_COMPONENT_F32
#define S8 SPVGEN_COMPONENT_S8
#define U8 SPVGEN_COMPONENT_U8
#define S32 SPVGEN_COMPONENT_S32
#define AB SPVGEN_GEMM_PACK_AB
#define PA SPVGEN_GEMM_PACK_A
#define PB SPVGEN_GEMM_PACK_B
  static const struct {
    gemm_pack_case c;
    bool vec_a, vec_b;    /* the pack kernel reads A (B) 16 bytes at a time */
    uint32_t units, tile_k; /* desc.pack_units, tile_k (0: the plan's) */
  } cases[] = {
      /* f16, 16-byte rows and batches (ld 72 and 48, pad 8), K 70 and N 45 inside a unit */
      {{37, 45, 70, 2, F16, F32, F32, AB, 0, 72, 48, 0, 8, 0, 0, 0, 0, 1, false, false, 0}, true, true, 0, 0},
      /* both column-major, a run-time class of 16-byte rows */
      {{45, 37, 70, 2, F16, F32, F16, AB, 3, 48, 72, 40, 8, 0, 0, 0, 0, 1, true, false, 8}, true, true, 0, 0},
      /* s8, 16-byte rows (ld 48, 64): 16 elements a unit */
      {{33, 50, 40, 1, S8, S32, S32, AB, 1, 48, 64, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, true, true, 0, 0},
      /* ... in a run-time class that promises them (ld_multiple 16), batches */
      {{33, 50, 40, 2, S8, S32, S32, AB, 1, 48, 64, 64, 16, 0, 0, 0, 0, 1, true, false, 16}, true, true, 0, 0},
      /* s8 gathered: odd leading dimensions, batches, run-time */
      {{50, 33, 70, 3, S8, S32, S32, AB, 2, 71, 73, 0, 5, 0, 0, 0, 0, 1, true, false, 0}, false, false, 0, 0},
      /* u8 gathered, 3 units an invocation */
      {{19, 21, 37, 1, U8, S32, S32, AB, 0, 39, 23, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, false, false, 3, 0},
      /* f32: 4 elements a unit, gathered (tight, odd) and 16-byte rows (A column-major, ld 20) */
      {{17, 19, 21, 1, F32, F32, F32, AB, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, false, false, 0, 0},
      {{17, 19, 21, 2, F32, F32, F32, AB, 1, 20, 24, 0, 4, 0, 0, 0, 0, 1, false, false, 0}, true, true, 0, 0},
      /* A aligned, B gathered, split-K, 2 units an invocation; tile_k 4 under the pad */
      {{65, 33, 129, 2, F16, F32, F32, AB, 0, 136, 35, 0, 0, 0, 0, 0, 0, 2, false, false, 0}, true, false, 2, 4},
      /* one operand packed, vector loads */
      {{40, 24, 33, 1, F16, F32, F32, PA, 0, 40, 0, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, true, false, 4, 0},
      {{24, 40, 33, 1, F16, F32, F32, PB, 2, 0, 40, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, false, true, 0, 0},
      /* device addresses (simt: A and B 4-byte aligned, so gathered) */
      {{37, 45, 70, 2, F16, F32, F32, AB, 0, 72, 48, 0, 8, 0, 0, 0, 0, 1, false, true, 0}, false, false, 2, 0},
  };
#undef F16
#undef F32
#undef S8
#undef U8
#undef S32
#undef AB
#undef PA
#undef PB
  uint32_t ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].c.bda && !bda_ok) continue;
    spvgen_gemm_desc d;
    spvgen_gemm_args args;
    gemm_pack_case_desc(&cases[i].c, SPVGEN_GEMM_SIMT, &d, &args);
    d.tile_m = d.tile_n = 16;
    d.tile_k = cases[i].tile_k;
    d.pack_units = cases[i].units;
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.recheck = true;
    gemm_case_shapes(&d, &o, &args, cases[i].c.runtime);
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "wide case %zu", i)) continue;
    ran++;
    /* the path the case is for: 16-byte loads of a source (its u32x4 view) or none */
    spvgen_gemm_config p;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t n = build(&d, spvgen_vk_caps(ctx), &p, k);
    if (n) {
      CHECK_EQ_U64(spvgen_gemm_kernel_at(&p, 0), SPVGEN_GEMM_KERNEL_PACK);
      CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "A4") == cases[i].vec_a, "wide case %zu: A4", i);
      CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "B4") == cases[i].vec_b, "wide case %zu: B4", i);
      CHECK_EQ_U64(p.desc.pack_units, cases[i].units ? cases[i].units : 1);
    }
    free_all(k, n);
  }
  printf("%u packed runs of 16-byte units matched the reference\n", ran);
  CHECK(ran >= 11u + bda_ok);
  spvgen_vk_destroy(ctx);
}

/* Pack AUTO on aligned odd 16-bit shapes (rows whole 16-byte chunks, tiles crossing M or
 * N): both operands packed where that fits the compile budget and is estimated faster,
 * the copies' traffic counted. 3000^3 f16->f32 takes the packed 128x192x64 plan at a
 * budget of 1000 ms, and keeps khr at the default (the packed plan is over 300 ms); the
 * packed plan's estimate counts the copies; 192-wide tiles are no candidates where they
 * would cross an extent unpacked (8192^3 keeps 128x256), and take the shape where they
 * divide it (6144^3). */
static void test_aligned_odd_shapes_pack_where_it_pays(void) {
  const spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_config p, q;
  spvgen_gemm_desc d = f16_desc(3000, 3000, 3000);
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.variant == SPVGEN_GEMM_COOPMAT_KHR && p.desc.pack == SPVGEN_GEMM_PACK_NONE,
            "3000^3 at the default budget: [%s]", p.name);
  d.compile_budget_ms = 1000;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &q, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(q.variant == SPVGEN_GEMM_COOPMAT2 && q.desc.pack == SPVGEN_GEMM_PACK_AB && q.desc.tile_n == 192 &&
                q.compile_ms <= 1000,
            "3000^3 at a budget of 1000: [%s] %u ms", q.name, q.compile_ms);
  double tp = 0, tq = 0;
  CHECK(spvgen_gemm_estimate_ms(&p, &h100, NULL, &tp, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_estimate_ms(&q, &h100, NULL, &tq, msg, sizeof msg) == SPVGEN_OK);
  /* AUTO keeps coopmat2 unless khr is estimated 1.1x faster (measured on the H200:
   * packed 218.3 against khr's 196.1 TFLOP/s, bench/results/gemm-2026-11-27-s10.md) */
  CHECK_MSG(tq > 0 && tq < 1.1 * tp, "estimates: packed %.4f ms against khr %.4f", tq, tp);
  /* the copies count: the same plan's estimate is more than its main kernel's alone */
  spvgen_gemm_config unpacked = q;
  unpacked.desc.pack = SPVGEN_GEMM_PACK_NONE;
  double tu = 0;
  if (spvgen_gemm_estimate_ms(&unpacked, &h100, NULL, &tu, NULL, 0) == SPVGEN_OK)
    CHECK_MSG(tq > tu, "packed %.4f ms, the same tiles unpacked %.4f", tq, tu);
  d = f16_desc(8192, 8192, 8192);
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.tile_m == 128 && p.desc.tile_n == 256 && p.desc.pack == SPVGEN_GEMM_PACK_NONE, "8192^3: [%s]",
            p.name);
  d = f16_desc(6144, 6144, 6144);
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.tile_n == 192 && p.desc.unroll == 1 && p.desc.pack == SPVGEN_GEMM_PACK_NONE, "6144^3: [%s]",
            p.name);
}

/* A workspace smaller than the launch needs is refused by the runner, naming it. */
static void test_small_workspace_is_refused(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d = f16_desc(0, 0, 0);
  d.variant = SPVGEN_GEMM_SIMT;
  d.pack = SPVGEN_GEMM_PACK_AB;
  spvgen_gemm_config p;
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t n = build(&d, spvgen_vk_caps(ctx), &p, k);
  char msg[512];
  spvgen_gemm_args a = {.m = 33, .n = 17, .k = 9};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {0};
  if (n == 2 && spvgen_vk_pipeline_create_kernel(ctx, &k[0], NULL, &pipe) == SPVGEN_OK &&
      spvgen_vk_buffer_create(ctx, 33 * 9 * 2 + 2, 0, &bufs[0]) == SPVGEN_OK &&
      spvgen_vk_buffer_create(ctx, 9 * 17 * 2 + 2, 0, &bufs[1]) == SPVGEN_OK &&
      spvgen_vk_buffer_create(ctx, l.workspace_bytes - 256, 0, &bufs[2]) == SPVGEN_OK) {
    spvgen_vk_dispatch_desc dd = {.pipeline = pipe, .buffers = bufs, .buffer_count = 3, .push_data = &l.push,
                                  .push_size = l.push_size,
                                  .groups = {l.pack_groups[0], l.pack_groups[1], l.pack_groups[2]}};
    CHECK(spvgen_vk_run(ctx, &dd, 1, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "workspace");
  } else {
    CHECK_MSG(0, "setup: %s", spvgen_vk_error(ctx));
  }
  free_all(k, n);
  spvgen_vk_destroy(ctx);
}

/* A packed plan's kernel runs its tile over the workgroup the tile was ranked with: the
 * tile planned unpacked with the same desc gets the same workgroup, the table's. (Before,
 * a tile forced without its workgroup, as the packed plan's inner desc is, took every
 * table entry's workgroup at that entry's rating: 32x32x64 took 256 invocations as
 * 128x256x64 and ran 0.70x the 64-wide kernel: 556 x 1024 x 4096 f16, H200, call S22-2.) */
static void test_packed_plan_keeps_its_tiles_workgroup(void) {
  const spvgen_device_caps h100 = preset("h100");
  static const uint32_t shapes[][3] = {{556, 1024, 4096}, {300, 700, 1000}, {4097, 4095, 4093}};
  char msg[512];
  for (size_t i = 0; i < 3; i++) {
    spvgen_gemm_desc d = f16_desc(shapes[i][0], shapes[i][1], shapes[i][2]);
    d.out_type = SPVGEN_COMPONENT_F16;
    d.b_layout = SPVGEN_COL_MAJOR;
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.pack = SPVGEN_GEMM_PACK_AB;
    spvgen_gemm_config p, u;
    CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    spvgen_gemm_desc e = d;
    e.pack = SPVGEN_GEMM_PACK_NONE;
    e.tile_m = p.desc.tile_m, e.tile_n = p.desc.tile_n, e.tile_k = p.desc.tile_k;
    CHECK_MSG(spvgen_gemm_plan(&e, &h100, &u, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.desc.workgroup_size == u.desc.workgroup_size, "[%s] against [%s]", p.name, u.name);
  }
  /* and a tile forced without its workgroup takes the table's (32x32x64: 64 invocations) */
  spvgen_gemm_desc d = f16_desc(556, 1024, 4096);
  d.b_layout = SPVGEN_COL_MAJOR;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.tile_m = d.tile_n = 32, d.tile_k = 64;
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(p.desc.workgroup_size == 64, "[%s]", p.name);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_packed_plan_keeps_its_tiles_workgroup),
      TEST_CASE(test_plan_layout_and_kernels),
      TEST_CASE(test_packed_k_pads_to_whole_groups),
      TEST_CASE(test_modules_validate),
      TEST_CASE(test_every_input_type_validates),
      TEST_CASE(test_refusals_name_what_is_wrong),
      TEST_CASE(test_runs_match_the_reference),
      TEST_CASE(test_wide_units_match_the_reference),
      TEST_CASE(test_small_workspace_is_refused),
      TEST_CASE(test_aligned_odd_shapes_pack_where_it_pays),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
