/* tests/gemm/test_gemm_tpack.c — transposed copies of 8-bit operands (desc.pack_order K,
 * spvgen/gemm.h "Packed operands"; docs/design-notes.md "Transposed copies of 8-bit
 * operands"): AUTO packs the 8-bit operands that are not K-contiguous on coopmat2 and its
 * main kernel is the nt kernel, 16-bit plans are unchanged; and runs on lavapipe (the simt
 * variant, which packs with the same pack kernel when asked for order K) of every layout
 * and both 8-bit integer types, every D element against the float64 reference, the
 * workspace NaN-filled before the second run (a pad the transposing copy did not zero, or
 * a unit it wrote outside its copy, reaches D). The coopmat2 runs are the GPU tests'
 * (tests/gpu/test_gpu_gemm.c, packed s8 plans with A column-major). */
#include <stdio.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"
#include "words.h"

#define S8 SPVGEN_COMPONENT_S8
#define U8 SPVGEN_COMPONENT_U8
#define S32 SPVGEN_COMPONENT_S32
#define F16 SPVGEN_COMPONENT_F16
#define F32 SPVGEN_COMPONENT_F32
#define AB SPVGEN_GEMM_PACK_AB
#define PA SPVGEN_GEMM_PACK_A
#define PB SPVGEN_GEMM_PACK_B
#define K SPVGEN_GEMM_PACK_ORDER_K

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc desc_of(uint32_t m, uint32_t n, uint32_t k, spvgen_component_type ab, int layout) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.a_type = d.b_type = ab;
  d.acc_type = d.out_type = ab == F16 ? F32 : S32;
  d.a_layout = (spvgen_matrix_layout)(layout & 1);
  d.b_layout = (spvgen_matrix_layout)(layout >> 1);
  return d;
}


static const char *const layout_names[4] = {"nn", "tn", "nt", "tt"};

/* AUTO on coopmat2 (the H100 preset): s8 and u8 operands that are not K-contiguous (A
 * column-major, B row-major) are packed, copied K-contiguous (pack_order K), for aligned,
 * odd, skinny and run-time shapes; the main kernel's words are the nt plan's main kernel's
 * (byte for byte where nt packs the same operands) and its compile estimate the nt
 * kernel's plus the pack kernel's, under the 1 s limit; the nt plans themselves and every
 * f16 plan are what pack_order SAME gives (no transposition). */
static void test_auto_plans_copy_8bit_operands_k_contiguous(void) {
  const spvgen_device_caps h100 = preset("h100");
  static const uint32_t shapes[][3] = {{2048, 2048, 4096}, {4096, 4096, 4096}, {4097, 4095, 4093},
                                       {128, 16384, 4096}, {0, 0, 0}};
  static const spvgen_component_type types[] = {S8, U8, F16};
  char msg[512];
  uint32_t checked = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      spvgen_gemm_desc nt = desc_of(shapes[s][0], shapes[s][1], shapes[s][2], types[t], 2);
      spvgen_gemm_config pnt;
      CHECK_MSG(spvgen_gemm_plan(&nt, &h100, &pnt, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      for (int lay = 0; lay < 4; lay++) {
        spvgen_gemm_desc d = desc_of(shapes[s][0], shapes[s][1], shapes[s][2], types[t], lay);
        spvgen_gemm_config p, same;
        CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        spvgen_gemm_desc ds = d;
        ds.pack_order = SPVGEN_GEMM_PACK_ORDER_SAME;
        CHECK_MSG(spvgen_gemm_plan(&ds, &h100, &same, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        const char *what = layout_names[lay];
        const bool ta = lay & 1, tb = !(lay >> 1); /* A column-major, B row-major */
        CHECK_MSG(p.compile_ms <= 1000u, "%s %ux%ux%u [%s]: %u ms", what, d.m, d.n, d.k, p.name, p.compile_ms);
        if (types[t] == F16 || (!ta && !tb)) { /* nothing to transpose: the plan SAME gives */
          CHECK_MSG(strcmp(p.name, same.name) == 0, "%s: %s against %s", what, p.name, same.name);
          CHECK_EQ_U64(spvgen_gemm_class_key(&p), spvgen_gemm_class_key(&same));
          CHECK_MSG(strstr(p.name, "order k") == NULL, "%s: %s", what, p.name);
          checked++;
          continue;
        }
        CHECK_EQ_U64(p.variant, SPVGEN_GEMM_COOPMAT2);
        CHECK_EQ_U64(p.desc.pack_order, SPVGEN_GEMM_PACK_ORDER_K);
        CHECK_MSG(p.desc.pack == SPVGEN_GEMM_PACK_AB || p.desc.pack == (ta ? PA : PB), "%s [%s]", what, p.name);
        if (ta) CHECK_MSG(p.desc.pack == AB || p.desc.pack == PA, "%s [%s]: A not packed", what, p.name);
        if (tb) CHECK_MSG(p.desc.pack == AB || p.desc.pack == PB, "%s [%s]: B not packed", what, p.name);
        CHECK_MSG(strstr(p.name, "order k") != NULL, "%s: %s", what, p.name);
        CHECK_EQ_U64(p.desc.a_layout, d.a_layout); /* the caller's layouts stay in the plan */
        CHECK_EQ_U64(p.desc.b_layout, d.b_layout);
        CHECK_EQ_U64(spvgen_gemm_kernel_at(&p, 0), SPVGEN_GEMM_KERNEL_PACK);
        CHECK(spvgen_gemm_class_key(&p) != spvgen_gemm_class_key(&same));
        /* the nt kernel's tile, its estimate and the pack kernel's (nt itself packed too:
         * the same estimate) */
        if (pnt.variant == p.variant && pnt.desc.split_k <= 1 && p.desc.split_k <= 1) {
          CHECK_MSG(p.desc.tile_m == pnt.desc.tile_m && p.desc.tile_n == pnt.desc.tile_n &&
                        p.desc.tile_k == pnt.desc.tile_k,
                    "%s %ux%ux%u: [%s] against nt [%s]", what, d.m, d.n, d.k, p.name, pnt.name);
          CHECK_MSG(p.compile_ms >= pnt.compile_ms && p.compile_ms <= pnt.compile_ms + 40u,
                    "%s %ux%ux%u: %u ms [%s] against nt %u ms [%s]", what, d.m, d.n, d.k, p.compile_ms, p.name,
                    pnt.compile_ms, pnt.name);
        }
        /* in place, the same layout estimates 2.4x per such operand */
        if (same.variant == p.variant && same.desc.tile_m == p.desc.tile_m && same.desc.tile_n == p.desc.tile_n &&
            same.desc.tile_k == p.desc.tile_k && same.desc.pack == SPVGEN_GEMM_PACK_NONE)
          CHECK_MSG(same.compile_ms > p.compile_ms, "%s: in place %u ms, packed %u", what, same.compile_ms,
                    p.compile_ms);
        /* the main kernel is the nt kernel: the same words where nt packs the same operands */
        if (pnt.desc.pack == p.desc.pack && pnt.desc.split_k == p.desc.split_k) {
          spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT], kn[SPVGEN_GEMM_KERNEL_COUNT];
          uint32_t n = 0, nn = 0;
          spvgen_gemm_desc q = nt;
          q.pack = p.desc.pack;
          if (spvgen_gemm_kernels(&d, &h100, k, &n, NULL, msg, sizeof msg) == SPVGEN_OK &&
              spvgen_gemm_kernels(&q, &h100, kn, &nn, NULL, msg, sizeof msg) == SPVGEN_OK && n == nn && n >= 2) {
            CHECK_EQ_U64(k[1].word_count, kn[1].word_count);
            CHECK_MSG(k[1].word_count == kn[1].word_count &&
                          !memcmp(k[1].words, kn[1].words, k[1].word_count * sizeof *k[1].words),
                      "%s %ux%ux%u: the main kernel differs from nt's", what, d.m, d.n, d.k);
            CHECK(check_words(k[0].words, k[0].word_count));
            CHECK(words_has_name(k[0].words, k[0].word_count, "tile"));
          } else {
            CHECK_MSG(0, "%s: %s", what, msg);
          }
          for (uint32_t i = 0; i < n; i++) spvgen_kernel_free(&k[i]);
          for (uint32_t i = 0; i < nn; i++) spvgen_kernel_free(&kn[i]);
        }
        checked++;
      }
    }
  printf("%u AUTO plans checked\n", checked);
  CHECK_EQ_U64(checked, 3 * 5 * 4);
}

/* The layout of a transposed copy (2048x2048x4096 s8 tn: both operands): K-contiguous
 * copies (A [m][kp], B [n][kp]) with the plan's pads, a 64 x 64-byte tile per workgroup
 * of the pack kernel, the run-time launch giving the same. */
static void test_plan_layout_of_transposed_copies(void) {
  const spvgen_device_caps h100 = preset("h100");
  spvgen_gemm_desc d = desc_of(2048, 2048, 4096, S8, 1);
  spvgen_gemm_config p;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.pack, AB);
  CHECK_EQ_U64(p.pack_a_offset, 0);
  CHECK_EQ_U64(p.pack_b_offset, 2048ull * 4096);
  CHECK_EQ_U64(p.workspace_bytes, 2ull * 2048 * 4096);
  CHECK_EQ_U64((uint64_t)p.pack_groups[0] * p.pack_groups[1], 2ull * (2048 / 64) * (4096 / 64));
  /* the same plan with run-time shapes: the launch lays the copies out alike */
  spvgen_gemm_desc r = d;
  r.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  r.tile_m = p.desc.tile_m, r.tile_n = p.desc.tile_n, r.tile_k = p.desc.tile_k;
  spvgen_gemm_config pr;
  CHECK_MSG(spvgen_gemm_plan(&r, &h100, &pr, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(pr.desc.pack_order, K);
  spvgen_gemm_args a = {.m = 2048, .n = 2048, .k = 4096};
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&pr, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  if (pr.desc.pack == AB) {
    CHECK_EQ_U64(l.workspace_bytes, p.workspace_bytes);
    CHECK_EQ_U64(l.pack_b_offset, p.pack_b_offset);
    CHECK_EQ_U64((uint64_t)l.pack_groups[0] * l.pack_groups[1], (uint64_t)p.pack_groups[0] * p.pack_groups[1]);
  }
  /* nn: B alone, [n][kp] */
  spvgen_gemm_desc b = desc_of(2048, 2048, 4096, S8, 0);
  CHECK_MSG(spvgen_gemm_plan(&b, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.pack, PB);
  CHECK_EQ_U64(p.workspace_bytes, 2048ull * 4096);
}

/* Refused with a message naming what is wrong: an order that is no value, K with nothing
 * copied, K for 16-bit inputs. */
static void test_refusals_name_what_is_wrong(void) {
  const spvgen_device_caps h100 = preset("h100");
  char msg[512];
  spvgen_gemm_config p;
  spvgen_gemm_desc d = desc_of(256, 256, 256, S8, 1);
  d.pack_order = (spvgen_gemm_pack_order)7;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "pack_order 7 is not auto (0), same (1) or k (2)");
  d.pack_order = K;
  d.pack = SPVGEN_GEMM_PACK_NONE;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "pack none makes none");
  d = desc_of(256, 256, 256, F16, 1);
  d.pack = AB;
  d.pack_order = K;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "a_type is f16");
  /* the khr variant reads its operands in place: K asked for there is refused by pack */
  d = desc_of(256, 256, 256, S8, 1);
  d.pack = AB;
  d.pack_order = K;
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  CHECK_EQ_U64(spvgen_gemm_plan(&d, &h100, &p, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "khr variant reads its operands in place");
  CHECK_STR_EQ(spvgen_gemm_pack_order_name(K), "k");
  spvgen_gemm_pack_order o = SPVGEN_GEMM_PACK_ORDER_AUTO;
  CHECK(spvgen_gemm_pack_order_parse("same", &o) && o == SPVGEN_GEMM_PACK_ORDER_SAME);
  CHECK(!spvgen_gemm_pack_order_parse("t", &o));
}

/* Every form of the transposing pack kernel validates (spirv-val in process): both
 * variants, each operand and both, fixed and run-time, descriptors and device addresses,
 * 4-byte and byte loads, batches, split-K. */
static void test_modules_validate(void) {
  const spvgen_device_caps h100 = preset("h100"), lava = preset("lavapipe");
  uint32_t walked = 0;
  for (int c = 0; c < 2; c++)
    for (int lay = 0; lay < 4; lay++)
      for (int form = 0; form < 8; form++) {
        const bool rt = form & 1, bda = (form >> 1) & 1, wide = (form >> 2) & 1;
        spvgen_gemm_desc d = desc_of(rt ? 0 : 129, rt ? 0 : 65, rt ? 0 : 333, c ? U8 : S8, lay);
        d.variant = c ? SPVGEN_GEMM_SIMT : SPVGEN_GEMM_COOPMAT2;
        d.pack = AB;
        d.pack_order = K;
        d.addressing = bda ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
        if (rt) {
          d.ld_multiple = wide ? 4 : 1;
        } else {
          d.batch = 2;
          if (wide) d.lda = d.a_layout ? 132 : 336, d.ldb = d.b_layout ? 336 : 68;
        }
        if (form == 5) d.split_k = 2;
        spvgen_gemm_config p;
        spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
        uint32_t n = 0;
        char msg[512];
        spvgen_status st = spvgen_gemm_kernels(&d, c ? &lava : &h100, k, &n, &p, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "%s form %d: %s", layout_names[lay], form, msg);
        for (uint32_t i = 0; i < n; i++) CHECK_MSG(check_words(k[i].words, k[i].word_count), "%s kernel %u", p.name, i);
        if (n) {
          const bool ta = lay & 1, tb = !(lay >> 1);
          CHECK_EQ_U64(words_has_name(k[0].words, k[0].word_count, "tile"), ta || tb);
          /* (device addresses: the views are the pointer's, unnamed) */
          CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "A32") == (ta && wide && !bda), "%s form %d: A32", p.name,
                    form);
          CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "B32") == (tb && wide && !bda), "%s form %d: B32", p.name,
                    form);
        }
        walked += n;
        for (uint32_t i = 0; i < n; i++) spvgen_kernel_free(&k[i]);
      }
  printf("%u modules of transposing plans validated\n", walked);
  CHECK(walked >= 2 * 4 * 8 * 2);
}

/* Runs on lavapipe (simt, pack_order K), every element of D against the float64 reference
 * over a NaN-filled workspace. M and K cross several 64-byte tiles and end inside one
 * (interior tiles on the unchecked path, edge tiles checked), K's pad is no multiple of the
 * tile (units past a copy's row left alone); every layout, s8 and u8, 4-byte and byte
 * loads, batches with padded strides, run-time classes, split-K, one operand or both,
 * device addresses, the epilogue. */
static void test_transposed_copies_match_the_reference(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const bool bda_ok = (spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS) != 0;
  static const struct {
    gemm_pack_case c;
    bool wide_a, wide_b; /* the pack kernel reads A (B) transposed 4 bytes at a time through
                            a named view (descriptors; device addresses: unnamed) */
  } cases[] = {
      /* tn, tight (lda 150: byte loads), both transposed, batches */
      {{150, 70, 200, 2, S8, S32, S32, AB, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, false, false},
      /* nn u8: B transposed 4 bytes at a time (ldb 72), batches with padded strides */
      {{70, 150, 200, 2, U8, S32, S32, AB, 0, 0, 152, 0, 8, 0, 0, 0, 0, 1, false, false, 0}, false, true},
      /* tt: A transposed (lda 152), B straight; a run-time class of 4-byte rows */
      {{150, 37, 130, 3, S8, S32, S32, AB, 3, 152, 132, 40, 4, 0, 0, 0, 0, 1, true, false, 4}, true, false},
      /* nn, B alone, split-K, odd ldb and padded batches */
      {{33, 129, 300, 2, S8, S32, S32, PB, 0, 0, 131, 0, 5, 0, 0, SPVGEN_GEMM_BIAS_ROW, SPVGEN_ACTIVATION_RELU, 2,
        false, false, 0},
       false, false},
      /* tn, A alone, a row of output and one K step */
      {{1, 17, 1, 1, S8, S32, S32, PA, 1, 0, 0, 0, 0, 0, 0, SPVGEN_GEMM_BIAS_COLUMN, 0, 1, false, false, 0},
       false, false},
      /* tn u8 run-time, byte loads */
      {{37, 45, 70, 2, U8, S32, S32, AB, 1, 0, 0, 0, 3, 0, 0, 0, 0, 1, true, false, 0}, false, false},
      /* tn over 64-byte tiles both ways, 4-byte loads of both, batches, f32 out with alpha */
      {{200, 130, 260, 2, S8, S32, F32, AB, 1, 204, 132, 0, 0, 0.5f, 0, 0, 0, 1, false, false, 0}, true, true},
      /* nt with order K: nothing to transpose */
      {{50, 60, 70, 1, S8, S32, S32, AB, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, false, false, 0}, false, false},
      /* device addresses: tt fixed with 4-byte loads, tn run-time with bytes */
      {{65, 66, 130, 2, S8, S32, S32, AB, 3, 68, 132, 0, 4, 0, 0, 0, 0, 1, false, true, 0}, false, false},
      {{37, 45, 130, 2, U8, S32, S32, AB, 1, 0, 0, 0, 3, 0, 0, 0, 0, 2, true, true, 0}, false, false},
  };
  uint32_t ran = 0, bda_cases = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].c.bda) bda_cases++;
    if (cases[i].c.bda && !bda_ok) continue;
    spvgen_gemm_desc d;
    spvgen_gemm_args args;
    gemm_pack_case_desc(&cases[i].c, SPVGEN_GEMM_SIMT, &d, &args);
    d.pack_order = K;
    d.tile_m = d.tile_n = 16; /* several tiles and edge tiles of the main kernel too */
    gemm_run_options o = {0};
    o.seed = test_rand_u32() | 1u;
    o.recheck = true; /* a second run over a NaN-filled workspace */
    gemm_case_shapes(&d, &o, &args, cases[i].c.runtime);
    gemm_run_result r;
    if (!gemm_run_checked(ctx, &d, &o, &r, "transposed case %zu", i)) continue;
    CHECK_EQ_U64(r.kernels, 1u + (d.split_k > 1) + 1u);
    ran++;
    spvgen_gemm_config p;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
    uint32_t n = 0;
    char msg[512];
    CHECK_MSG(spvgen_gemm_kernels(&d, spvgen_vk_caps(ctx), k, &n, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    if (n) {
      const int lay = cases[i].c.layout;
      const bool ta = (lay & 1) && d.pack != PB, tb = !(lay >> 1) && d.pack != PA;
      CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "tile") == (ta || tb), "case %zu: tile", i);
      CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "A32") == cases[i].wide_a, "case %zu: A32", i);
      CHECK_MSG(words_has_name(k[0].words, k[0].word_count, "B32") == cases[i].wide_b, "case %zu: B32", i);
    }
    for (uint32_t j = 0; j < n; j++) spvgen_kernel_free(&k[j]);
  }
  printf("%u transposed-copy runs matched the reference\n", ran);
  CHECK(ran >= sizeof cases / sizeof cases[0] - (bda_ok ? 0 : bda_cases));
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_auto_plans_copy_8bit_operands_k_contiguous),
      TEST_CASE(test_plan_layout_of_transposed_copies),
      TEST_CASE(test_refusals_name_what_is_wrong),
      TEST_CASE(test_modules_validate),
      TEST_CASE(test_transposed_copies_match_the_reference),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
