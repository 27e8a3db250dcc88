/* tests/tune/test_tune_mlp.c — the MLP template in the autotuner (spvgen/tune.h): its
 * cache key (determinism, the point-count bucket, what is and is not part of it), cached
 * plans (hit, miss, entries that do not fit), a real tuning of a small network on the test
 * device (lavapipe in CI: the loop variant) with every candidate's output checked, and
 * `spvgen tune mlp`. Must stay well under 60 s on lavapipe. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "harness.h"
#include "mlp_net.h"
#include "spvgen/mlp.h"
#include "spvgen/tune.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

/* in -> hidden (w x count) -> out, relu, f16, with bias. */
static spvgen_mlp_desc net(uint32_t in, uint32_t w, uint32_t count, uint32_t out) {
  return test_mlp_net(in, w, count, out, SPVGEN_MLP_ACT_DEFAULT);
}

static spvgen_tune_entry mlp_entry(const char *key, const char *variant, uint32_t wg, uint32_t ppg) {
  spvgen_tune_entry e;
  memset(&e, 0, sizeof e);
  snprintf(e.key, sizeof e.key, "%s", key);
  snprintf(e.knobs.variant, sizeof e.knobs.variant, "%s", variant);
  e.knobs.workgroup_size = wg;
  e.knobs.tile_m = ppg;
  e.median_ns = 4321.5;
  e.m = 5000;
  return e;
}

static spvgen_vk_context *open_device(void) {
  char msg[512];
  spvgen_vk_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.device_name = getenv("SPVGEN_VK_DEVICE");
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) {
    test_skip("no Vulkan device: %s", msg);
    return NULL;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  return ctx;
}

static spvgen_tune_cache *open_cache(const char *path) {
  char msg[1024];
  spvgen_tune_cache *c = NULL;
  spvgen_status st = spvgen_tune_cache_open(path, &c, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK && c, "open %s: %s", path, msg);
  return c;
}

/* ------------------------------------------------------------------- keys ---- */

static void test_mlp_key_fields_and_buckets(void) {
  spvgen_device_caps lvp = preset("lavapipe"), h100 = preset("h100");
  char msg[512], key[SPVGEN_TUNE_KEY_SIZE], key2[SPVGEN_TUNE_KEY_SIZE];
  spvgen_mlp_desc d = net(3, 32, 2, 4);
  CHECK_MSG(spvgen_tune_mlp_key(&d, &lvp, 5000, key, sizeof key, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(!strncmp(key, "mlp dev=", 8));
  CHECK_CONTAINS(key, " net=3-32-32-4 acts=relu,relu,none enc=none types=f16,f16,f16 acc=f32 bias=1 points=8192");
  CHECK(!strchr(key, '\t'));
  /* Deterministic, and one bucket for 4097 .. 8192 points. */
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(key, key2);
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 8192, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(key, key2);
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 4097, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(key, key2);
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 8193, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, "points=16384");
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 1, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, "points=1");
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 0xFFFFFFFFull, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, "points=4294967296");
  /* The knobs are not part of the key. */
  spvgen_mlp_desc k = d;
  k.variant = SPVGEN_MLP_LOOP;
  k.workgroup_size = 128;
  CHECK(spvgen_tune_mlp_key(&k, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(key, key2);
  /* The device, the encoding, the activations, bias, types and accumulation are. */
  CHECK(spvgen_tune_mlp_key(&d, &h100, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK(strcmp(key, key2) != 0);
  CHECK_CONTAINS(key2, "dev=10de:2330:");
  k = d;
  k.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  k.encoding_size = 4;
  CHECK(spvgen_tune_mlp_key(&k, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, " net=24-32-32-4 ");
  CHECK_CONTAINS(key2, " enc=freq:4 ");
  k = d;
  k.activation = SPVGEN_MLP_ACT_LEAKY_RELU;
  k.output_activation = SPVGEN_MLP_ACT_SIGMOID;
  k.no_bias = true;
  k.input_type = SPVGEN_COMPONENT_F32;
  k.f16_accumulation = true;
  CHECK(spvgen_tune_mlp_key(&k, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, " acts=leaky_relu:0.01,leaky_relu:0.01,sigmoid ");
  CHECK_CONTAINS(key2, " types=f16,f32,f16 acc=f16 bias=0 ");
  /* Errors name what was wrong; the key is left empty. */
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 0, key2, sizeof key2, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "points must be at least 1");
  CHECK(key2[0] == 0);
  k = d;
  k.input_width = 0;
  CHECK(spvgen_tune_mlp_key(&k, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_tune_mlp_key: spvgen_mlp_plan:");
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 5000, key2, 40, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "key_size is 40");
  CHECK(key2[0] == 0);
  CHECK(spvgen_tune_mlp_key(NULL, &lvp, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  /* caps NULL: the vulkan13 preset. */
  spvgen_device_caps v13 = preset("vulkan13");
  CHECK(spvgen_tune_mlp_key(&d, NULL, 5000, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_tune_mlp_key(&d, &v13, 5000, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(key, key2);
}

/* ---------------------------------------------------------------- cached ---- */

static void test_mlp_plan_cached_hit_miss_fallback(void) {
  const char *path = cli_path("mlp-cached.txt");
  cli_path("mlp-cached.txt.lock");
  char msg[1024], key[SPVGEN_TUNE_KEY_SIZE];
  spvgen_device_caps lvp = preset("lavapipe");
  spvgen_mlp_desc d = net(8, 16, 2, 3);
  CHECK(spvgen_tune_mlp_key(&d, &lvp, 5000, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  spvgen_mlp_config heuristic, p;
  CHECK_MSG(spvgen_mlp_plan(&d, &lvp, &heuristic, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(heuristic.variant, SPVGEN_MLP_LOOP);
  CHECK(heuristic.desc.workgroup_size != 128);

  /* Stored, saved and read back: the MLP's entry goes through the file format. */
  spvgen_tune_cache *c = open_cache(path);
  spvgen_tune_entry e = mlp_entry(key, "loop", 128, 1);
  CHECK_MSG(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_tune_cache_save(c, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_tune_cache_close(c);
  c = open_cache(path);
  spvgen_tune_entry got;
  CHECK(spvgen_tune_cache_lookup(c, key, &got));
  CHECK_STR_EQ(got.knobs.variant, "loop");
  CHECK_EQ_U64(got.knobs.workgroup_size, 128);
  CHECK_EQ_U64(got.knobs.tile_m, 1);
  CHECK_EQ_U64(got.m, 5000);
  CHECK(got.median_ns == 4321.5 && got.origin == SPVGEN_TUNE_ORIGIN_FILE);

  /* A hit: the entry's knobs. */
  CHECK_MSG(spvgen_mlp_plan_cached(&d, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(msg[0] == 0, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_MLP_LOOP);
  CHECK_EQ_U64(p.desc.workgroup_size, 128);
  CHECK_EQ_U64(p.local_size[0], 128);
  /* A miss (another point bucket, another network) or no cache: the heuristic plan. */
  CHECK(spvgen_mlp_plan_cached(&d, &lvp, 9000, c, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0]);
  CHECK_STR_EQ(p.name, heuristic.name);
  spvgen_mlp_desc d2 = net(8, 16, 3, 3);
  spvgen_mlp_config h2;
  CHECK(spvgen_mlp_plan(&d2, &lvp, &h2, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_mlp_plan_cached(&d2, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0]);
  CHECK_STR_EQ(p.name, h2.name);
  CHECK(spvgen_mlp_plan_cached(&d, &lvp, 6000, NULL, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0]);
  CHECK_STR_EQ(p.name, heuristic.name);
  /* A knob the desc sets wins: the entry conflicts, the heuristic plan is used. */
  spvgen_mlp_desc d3 = d;
  d3.workgroup_size = 32;
  CHECK(spvgen_mlp_plan_cached(&d3, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "the desc sets workgroup_size 32");
  CHECK_CONTAINS(msg, "the heuristic plan is used");
  CHECK_EQ_U64(p.desc.workgroup_size, 32);
  /* Entries that do not fit: a points_per_group the loop variant refuses, a variant no
   * MLP has, GEMM knobs. */
  e = mlp_entry(key, "loop", 64, 16);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_mlp_plan_cached(&d, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "spvgen_mlp_plan_cached: the cache file entry (loop wg64 ppg16) does not fit here");
  CHECK_CONTAINS(msg, "points_per_group 16");
  CHECK_STR_EQ(p.name, heuristic.name);
  e = mlp_entry(key, "warp9", 64, 0);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_mlp_plan_cached(&d, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "variant 'warp9' is not an MLP variant");
  CHECK_STR_EQ(p.name, heuristic.name);
  e = mlp_entry(key, "loop", 64, 0);
  e.knobs.tile_n = 64;
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_mlp_plan_cached(&d, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "knobs the MLP does not have");
  /* Errors of the desc itself are spvgen_mlp_plan's. */
  d3 = d;
  d3.output_width = 0;
  CHECK(spvgen_mlp_plan_cached(&d3, &lvp, 6000, c, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_mlp_plan:");
  spvgen_tune_cache_close(c);
}

/* ----------------------------------------------------------------- tuner ---- */

static void test_tune_small_network(void) {
  spvgen_vk_context *ctx = open_device();
  if (!ctx) return;
  char msg[1024];
  const char *path = cli_path("mlp-tuned.txt");
  cli_path("mlp-tuned.txt.lock");
  spvgen_tune_cache *c = open_cache(path);
  spvgen_tune_result *res = calloc(1, sizeof *res);
  CHECK(res != NULL);
  if (!res) goto done;
  spvgen_mlp_desc d = net(3, 16, 1, 4);
  d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  d.encoding_size = 2;
  spvgen_tune_options o;
  memset(&o, 0, sizeof o);
  o.repeats = 3;
  o.warmup = 1;
  o.warmup_ms = 1;
  o.warmup_limit_ms = 1; /* short: no wait for steadiness */
  o.max_candidates = 3;
  o.cache = c;
  spvgen_status st = spvgen_tune_mlp(ctx, &d, 300, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  CHECK(res->count >= 1 && res->count <= res->offered);
  CHECK(res->candidates[0].is_default && res->default_index == 0);
  spvgen_mlp_config def;
  CHECK(spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &def, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(res->candidates[0].name, def.name);
  CHECK_EQ_U64(res->timed + res->not_run + res->wrong + res->failed, res->count);
  CHECK_EQ_U64(res->wrong, 0);
  CHECK_EQ_U64(res->failed, 0);
  CHECK(res->timed >= 1 && res->timed <= 3);
  for (uint32_t i = 0; i < res->count; i++) {
    const spvgen_tune_candidate *cand = &res->candidates[i];
    if (cand->status != SPVGEN_TUNE_TIMED) continue;
    /* Every component of every point against the CPU (300 * 16 / 2 MACs per point is
     * under full_check_macs). */
    CHECK_EQ_U64(cand->checked, 300 * 4);
    CHECK_EQ_U64(cand->bad, 0);
    CHECK(cand->median_ns > 0 && cand->samples >= 1);
    CHECK_EQ_U64(cand->knobs.tile_n, 0);
    CHECK_EQ_U64(cand->knobs.stages, 0);
  }
  CHECK(res->candidates[res->best].status == SPVGEN_TUNE_TIMED);
  CHECK_STR_EQ(res->mlp_plan.name, res->candidates[res->best].name);
  CHECK(res->best_ns == res->candidates[res->best].median_ns && res->default_ns > 0);
  CHECK_CONTAINS(res->key, "mlp dev=");
  CHECK_CONTAINS(res->key, " net=12-16-4 ");
  CHECK_CONTAINS(res->key, " points=512");
  /* Stored: the cached plan is the winner. */
  CHECK(res->stored);
  spvgen_mlp_config p;
  CHECK_MSG(spvgen_mlp_plan_cached(&d, spvgen_vk_caps(ctx), 400, c, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0],
            "%s", msg);
  CHECK_STR_EQ(p.name, res->mlp_plan.name);

  /* Over full_check_macs: a sample of about 256 points against the CPU (the MLP's
   * run_check: every 1000 / 256 = 3rd point, the last included: 334), every output
   * against the first correct candidate. */
  o.cache = NULL;
  o.full_check_macs = 1;
  o.max_candidates = 2;
  st = spvgen_tune_mlp(ctx, &d, 1000, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  CHECK(!res->stored);
  CHECK_EQ_U64(res->candidates[0].checked, 334 * 4);
  CHECK_EQ_U64(res->candidates[0].bad, 0);
  if (res->count > 1) {
    CHECK_MSG(res->candidates[1].status == SPVGEN_TUNE_TIMED, "%s", res->candidates[1].message);
    CHECK_EQ_U64(res->candidates[1].checked, 334 * 4 + 1000 * 4);
  }
  /* Errors. */
  CHECK(spvgen_tune_mlp(ctx, &d, 0x100000000ull, &o, res, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "uint32");
  CHECK(spvgen_tune_mlp(ctx, NULL, 10, &o, res, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  spvgen_mlp_desc bad = d;
  bad.hidden_width = 0;
  bad.hidden_widths[0] = 0;
  bad.input_width = 0;
  CHECK(spvgen_tune_mlp(ctx, &bad, 10, &o, res, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_mlp_plan");
done:
  free(res);
  spvgen_tune_cache_close(c);
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------------------------- CLI ---- */

static void test_cli_tune_mlp(void) {
  if (!cli_binary()) return;
  const char *cache = cli_path("mlp-cli.txt");
  cli_path("mlp-cli.txt.lock");
  cli_result r = cli_run("tune", "mlp", "--in", "3", "--hidden", "16x1", "--out", "2", "--points", "200",
                         "--max-candidates", "2", "--repeats", "2", "--budget", "30", "--cache", cache);
  if (!(r.exited && r.code == 0) && strstr(r.err, "no Vulkan device")) {
    cli_result_free(&r);
  } else {
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, "key      mlp dev=");
    CHECK_CONTAINS(r.out, "net=3-16-2 ");
    CHECK_CONTAINS(r.out, "points=256");
    CHECK_CONTAINS(r.out, "<- best");
    CHECK_CONTAINS(r.out, "(default)");
    CHECK_CONTAINS(r.out, "best     ");
    CHECK_CONTAINS(r.out, "cache    ");
    CHECK_CONTAINS(r.err, "1/"); /* plain progress lines: stderr is a file */
    CHECK(!strchr(r.err, '\r'));
    cli_result_free(&r);
    r = cli_run("tune", "--list", "--cache", cache);
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, "\nmlp dev=");
    CHECK_CONTAINS(r.out, " at 200 points [file]");
    cli_result_free(&r);
  }
  r = cli_run("tune", "mlp", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "--points N");
  CHECK_CONTAINS(r.out, "--budget SECONDS");
  CHECK_CONTAINS(r.out, "spvgen tune mlp --in 32 --hidden 64x4 --out 16");
  cli_result_free(&r);
  r = cli_run("tune", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "spvgen tune mlp");
  cli_result_free(&r);
  /* Usage errors name the flag. */
  static const struct { const char *args[6]; const char *err; } bad[] = {
      {{"--in", "3", "--out", "2", "--caps", "h100"}, "--caps"},
      {{"--in", "3", "--out", "2", "--budget", "-1"}, "--budget"},
      {{"--in", "3", "--out", "2", "--points", "0"}, "--points"},
      {{"--in", "3", "--out", "2", "--max-candidates", "x"}, "--max-candidates"},
      {{"--in", "3", "--out", "2", "--train", NULL}, "--train"},
      {{"--in", "3", "--out", "2", "--bogus", "1"}, "--bogus"},
      {{"--in", "3", "--points", "10", NULL, NULL}, "--in and --out are required"},
      {{"--in", "3", "--out", "2", "--points", NULL}, "--points needs a value"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *args[10] = {"tune", "mlp"};
    size_t n = 2;
    for (size_t j = 0; j < 6 && bad[i].args[j]; j++) args[n++] = bad[i].args[j];
    args[n] = NULL;
    r = cli_run_in(NULL, args);
    CHECK_EXIT(r, 2);
    CHECK_CONTAINS(r.err, bad[i].err);
    cli_result_free(&r);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mlp_key_fields_and_buckets),
      TEST_CASE(test_mlp_plan_cached_hit_miss_fallback),
      TEST_CASE(test_tune_small_network),
      TEST_CASE(test_cli_tune_mlp),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
