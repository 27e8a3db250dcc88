/* tests/tune/test_tune.c — the autotuner and its cache (spvgen/tune.h): tuning the SIMT
 * GEMM on the test device (lavapipe in CI), the tuner loop's statuses with a fake
 * template, cache keys, round trips through the file, concurrent writers, corrupt files,
 * cached plans (hit, miss, invalid knobs), the compiled-in layer, export/import and the
 * CLI. Must stay under 60 s on lavapipe. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "harness.h"
#include "spvgen/gemm.h"
#include "spvgen/tune.h"
#include "tune_internal.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static spvgen_gemm_desc shape(uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.n = n;
  d.k = k;
  d.acc_type = SPVGEN_COMPONENT_F32;
  d.out_type = SPVGEN_COMPONENT_F32;
  return d;
}

static spvgen_tune_entry entry(const char *key, const char *variant, uint32_t tm, uint32_t tn, uint32_t tk,
                               uint32_t wg) {
  spvgen_tune_entry e;
  memset(&e, 0, sizeof e);
  snprintf(e.key, sizeof e.key, "%s", key);
  snprintf(e.knobs.variant, sizeof e.knobs.variant, "%s", variant);
  e.knobs.tile_m = tm;
  e.knobs.tile_n = tn;
  e.knobs.tile_k = tk;
  e.knobs.workgroup_size = wg;
  e.knobs.stages = 1;
  e.knobs.unroll = 1;
  e.median_ns = 12345.5;
  e.m = 100;
  e.n = 70;
  e.k = 50;
  e.batch = 1;
  return e;
}

static bool knobs_equal(const spvgen_tune_knobs *a, const spvgen_tune_knobs *b) {
  return !strcmp(a->variant, b->variant) && a->tile_m == b->tile_m && a->tile_n == b->tile_n &&
         a->tile_k == b->tile_k && a->workgroup_size == b->workgroup_size && a->subgroups == b->subgroups &&
         a->stages == b->stages && a->unroll == b->unroll && a->split_k == b->split_k;
}

static spvgen_tune_cache *open_ok(const char *path, char *msg, size_t size) {
  spvgen_tune_cache *c = NULL;
  spvgen_status st = tune_cache_open_with_builtin(path, NULL, 0, &c, msg, size);
  CHECK_MSG(st == SPVGEN_OK && c, "open %s: %s", path, msg);
  return c;
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

/* ------------------------------------------------------------------- keys ---- */

static void test_gemm_key_buckets_and_alignment(void) {
  spvgen_device_caps lvp = preset("lavapipe");
  char key[SPVGEN_TUNE_KEY_SIZE], key2[SPVGEN_TUNE_KEY_SIZE], msg[256];
  spvgen_gemm_desc d = shape(100, 70, 50);
  CHECK_MSG(spvgen_tune_gemm_key(&d, &lvp, key, sizeof key, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(!strncmp(key, "gemm dev=", 9));
  CHECK_CONTAINS(key, " types=f16,f16,f32,f32 layout=nn-n shape=128x128x64x1 align=4,2,2,2,2,-,2");
  /* Same bucket and alignments: the same key. */
  d = shape(124, 66, 62);
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(!strcmp(key, key2), "%s\n%s", key, key2);
  /* Another alignment of M: another key. */
  d = shape(96, 70, 50);
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK(strcmp(key, key2) != 0);
  CHECK_CONTAINS(key2, "align=16,");
  /* Layouts, C, ld, batch. */
  d = shape(64, 64, 64);
  d.a_layout = SPVGEN_COL_MAJOR;
  d.beta = 0.5f;
  d.ldc = 72;
  d.ldd = 66;
  d.batch = 3;
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, "layout=tnnn shape=64x64x64x4 align=16,16,16,16,16,8,2");
  /* The device: percent-encoded name, no spaces or tabs anywhere. */
  spvgen_device_caps fake = lvp;
  snprintf(fake.name, sizeof fake.name, "My GPU:\t2");
  fake.vendor_id = 0xabcd;
  fake.device_id = 0x12;
  fake.driver_version = 7;
  CHECK(spvgen_tune_gemm_key(&d, &fake, key2, sizeof key2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(key2, "dev=abcd:0012:00000007:My%20GPU%3A%092 ");
  CHECK(!strchr(key2, '\t'));
  /* Refusals. */
  d = shape(0, 5, 5);
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key2, sizeof key2, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "m, n and k");
  d = shape(5, 5, 5);
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key2, 20, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(key2[0] == 0);
}

/* ---------------------------------------------------------------- format ---- */

static void test_line_format_round_trips(void) {
  spvgen_tune_entry e = entry("gemm dev=x types=y", "simt", 64, 32, 16, 128), back;
  e.knobs.subgroups = 4;
  e.knobs.unroll = 2;
  char line[TUNE_MAX_LINE], why[256];
  CHECK_MSG(tune_format_line(&e, line, sizeof line, why, sizeof why), "%s", why);
  CHECK_CONTAINS(line, "gemm dev=x types=y\tvariant=simt tile=64x32x16 wg=128 sg=4 stages=1 unroll=2 ns=12345.5 at=100x70x50x1\tcrc=");
  CHECK_MSG(tune_parse_line(line, strlen(line), &back, why, sizeof why), "%s", why);
  CHECK(!strcmp(back.key, e.key));
  CHECK(knobs_equal(&back.knobs, &e.knobs));
  CHECK(back.median_ns == e.median_ns && back.m == 100 && back.n == 70 && back.k == 50 && back.batch == 1);
  /* zlib's CRC-32 ("123456789" -> cbf43926). */
  CHECK_EQ_U64(tune_crc32("123456789", 9), 0xcbf43926u);
  /* Keys and knobs that cannot be written. */
  spvgen_tune_entry bad = e;
  snprintf(bad.key, sizeof bad.key, "gemm a\tb");
  CHECK(!tune_format_line(&bad, line, sizeof line, why, sizeof why));
  snprintf(bad.key, sizeof bad.key, "nospace");
  CHECK(!tune_format_line(&bad, line, sizeof line, why, sizeof why));
  bad = e;
  snprintf(bad.knobs.variant, sizeof bad.knobs.variant, "a b");
  CHECK(!tune_format_line(&bad, line, sizeof line, why, sizeof why));
  bad = e;
  bad.median_ns = NAN;
  CHECK(!tune_format_line(&bad, line, sizeof line, why, sizeof why));
  /* A split-K entry: " split_k=N" after unroll (only when N > 1: other lines unchanged). */
  e.knobs.split_k = 4;
  CHECK_MSG(tune_format_line(&e, line, sizeof line, why, sizeof why), "%s", why);
  CHECK_CONTAINS(line, "stages=1 unroll=2 split_k=4 ns=12345.5 at=100x70x50x1\tcrc=");
  CHECK_MSG(tune_parse_line(line, strlen(line), &back, why, sizeof why), "%s", why);
  CHECK(knobs_equal(&back.knobs, &e.knobs));
  CHECK_EQ_U64(back.knobs.split_k, 4);
  e.knobs.split_k = 1;
  CHECK_MSG(tune_format_line(&e, line, sizeof line, why, sizeof why), "%s", why);
  CHECK(strstr(line, "split_k") == NULL);
  /* The build time the tuner measured: " compile_ms=X" after at= (lines without it, as
   * older caches wrote them, still read, with compile_ms 0). */
  CHECK(strstr(line, "compile_ms") == NULL);
  CHECK_MSG(tune_parse_line(line, strlen(line), &back, why, sizeof why), "%s", why);
  CHECK(back.compile_ms == 0.0);
  e.compile_ms = 224.5;
  CHECK_MSG(tune_format_line(&e, line, sizeof line, why, sizeof why), "%s", why);
  CHECK_CONTAINS(line, "at=100x70x50x1 compile_ms=224.5\tcrc=");
  CHECK_MSG(tune_parse_line(line, strlen(line), &back, why, sizeof why), "%s", why);
  CHECK(back.compile_ms == 224.5);
}

static void test_robust_median_drops_outliers(void) {
  uint64_t ns[] = {1000, 1010, 990, 1005, 50000, 995, 1002, 998, 10};
  uint32_t kept, rejected;
  double min;
  double med = tune_robust_median(ns, 9, &kept, &rejected, &min);
  CHECK_EQ_U64(rejected, 2);
  CHECK_EQ_U64(kept, 7);
  CHECK(med == 1000.0);
  CHECK(min == 990.0);
  uint64_t same[] = {5, 5, 5, 5};
  med = tune_robust_median(same, 4, &kept, &rejected, &min);
  CHECK(med == 5.0 && kept == 4 && rejected == 0);
}

/* ----------------------------------------------------------------- cache ---- */

static void test_cache_round_trip_and_plan_cached(void) {
  const char *path = cli_path("roundtrip.txt");
  cli_path("roundtrip.txt.lock");
  char msg[1024];
  spvgen_device_caps lvp = preset("lavapipe");
  spvgen_gemm_desc d = shape(100, 70, 50);
  d.variant = SPVGEN_GEMM_SIMT;
  char key[SPVGEN_TUNE_KEY_SIZE];
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  spvgen_gemm_config heuristic;
  CHECK(spvgen_gemm_plan(&d, &lvp, &heuristic, msg, sizeof msg) == SPVGEN_OK);
  CHECK(heuristic.desc.tile_m != 32 || heuristic.desc.tile_n != 64);

  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  CHECK_MSG(msg[0] == 0, "a missing file is an empty cache: %s", msg);
  CHECK_EQ_U64(spvgen_tune_cache_count(c), 0);
  CHECK(!spvgen_tune_cache_lookup(c, key, NULL));
  spvgen_tune_entry e = entry(key, "simt", 32, 64, 16, 128), other = entry("gemm other key", "khr", 128, 256, 32, 256);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_tune_cache_store(c, &other, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(spvgen_tune_cache_save(c, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_tune_cache_close(c);

  c = open_ok(path, msg, sizeof msg);
  CHECK_MSG(msg[0] == 0, "%s", msg);
  CHECK_EQ_U64(spvgen_tune_cache_count(c), 2);
  spvgen_tune_entry got;
  CHECK(spvgen_tune_cache_lookup(c, key, &got));
  CHECK(knobs_equal(&got.knobs, &e.knobs));
  CHECK(got.median_ns == e.median_ns && got.origin == SPVGEN_TUNE_ORIGIN_FILE);
  CHECK(spvgen_tune_cache_lookup(c, "gemm other key", &got) && got.knobs.tile_n == 256);

  /* The cached plan takes the entry's tile. */
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan_cached(&d, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(msg[0] == 0, "%s", msg);
  CHECK_EQ_U64(p.desc.tile_m, 32);
  CHECK_EQ_U64(p.desc.tile_n, 64);
  CHECK_EQ_U64(p.desc.tile_k, 16);
  CHECK_EQ_U64(p.desc.workgroup_size, 128);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_SIMT);
  /* A miss (another shape class), or no cache: the heuristic plan. */
  spvgen_gemm_desc d2 = shape(300, 70, 50);
  spvgen_gemm_config h2;
  CHECK(spvgen_gemm_plan(&d2, &lvp, &h2, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(spvgen_gemm_plan_cached(&d2, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK && msg[0] == 0, "%s", msg);
  CHECK(!strcmp(p.name, h2.name));
  CHECK(spvgen_gemm_plan_cached(&d, &lvp, NULL, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!strcmp(p.name, heuristic.name));
  /* A knob the desc sets wins: the entry conflicts, the heuristic plan is used. */
  spvgen_gemm_desc d3 = d;
  d3.tile_m = 64;
  CHECK(spvgen_gemm_plan_cached(&d3, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "the desc sets tile_m 64");
  CHECK_EQ_U64(p.desc.tile_m, 64);
  /* Errors of the desc itself are spvgen_gemm_plan's. */
  d3 = d;
  d3.k = 0;
  CHECK(spvgen_gemm_plan_cached(&d3, &lvp, c, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "m, n and k");
  spvgen_tune_cache_close(c);
}

static void test_invalid_cached_knobs_fall_back(void) {
  const char *path = cli_path("invalid.txt");
  char msg[1024];
  spvgen_device_caps lvp = preset("lavapipe");
  spvgen_gemm_desc d = shape(64, 48, 40);
  char key[SPVGEN_TUNE_KEY_SIZE];
  CHECK(spvgen_tune_gemm_key(&d, &lvp, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  spvgen_gemm_config heuristic, p;
  CHECK(spvgen_gemm_plan(&d, &lvp, &heuristic, msg, sizeof msg) == SPVGEN_OK);
  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  /* A tile the SIMT variant refuses (48 is not a power of two). */
  spvgen_tune_entry e = entry(key, "simt", 48, 48, 16, 0);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_cached(&d, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "spvgen_gemm_plan_cached: the cache file entry (simt 48x48x16");
  CHECK_CONTAINS(msg, "tile_m 48");
  CHECK_CONTAINS(msg, "the heuristic plan is used");
  CHECK(!strcmp(p.name, heuristic.name));
  /* A variant this device lacks (an entry from a GPU with cooperative matrices). */
  e = entry(key, "khr", 128, 128, 32, 256);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_cached(&d, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "does not fit here");
  CHECK(!strcmp(p.name, heuristic.name));
  /* A variant name no GEMM has. */
  e = entry(key, "warp9", 64, 64, 16, 256);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_cached(&d, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "variant 'warp9' is not a GEMM variant");
  CHECK(!strcmp(p.name, heuristic.name));
  spvgen_tune_cache_close(c);
}

static void test_concurrent_writers_keep_every_key(void) {
  const char *path = cli_path("concurrent.txt");
  cli_path("concurrent.txt.lock");
  enum { PROCS = 4, STORES = 20 };
  fflush(stdout);
  fflush(stderr);
  pid_t pids[PROCS];
  for (int p = 0; p < PROCS; p++) {
    pids[p] = fork();
    if (pids[p] == 0) {
      int bad = 0;
      for (int i = 0; i < STORES; i++) {
        spvgen_tune_cache *c = NULL;
        char msg[1024], key[64];
        if (tune_cache_open_with_builtin(path, NULL, 0, &c, msg, sizeof msg) != SPVGEN_OK || msg[0]) bad = 1;
        if (!c) _exit(3);
        snprintf(key, sizeof key, "gemm writer%d store%02d", p, i);
        spvgen_tune_entry e = entry(key, "simt", 16u << (i % 4), 32, 16, 0);
        /* Each process also rewrites a shared key: the last save wins, none is lost. */
        spvgen_tune_entry shared = entry("gemm shared", "simt", 16u << p, 16, 16, 0);
        if (spvgen_tune_cache_store(c, &e, msg, sizeof msg) != SPVGEN_OK ||
            spvgen_tune_cache_store(c, &shared, msg, sizeof msg) != SPVGEN_OK ||
            spvgen_tune_cache_save(c, msg, sizeof msg) != SPVGEN_OK)
          bad = 2;
        spvgen_tune_cache_close(c);
      }
      _exit(bad);
    }
  }
  for (int p = 0; p < PROCS; p++) {
    int status = 0;
    CHECK(pids[p] > 0 && waitpid(pids[p], &status, 0) == pids[p]);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d: status %d", p, status);
  }
  char msg[1024];
  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  CHECK_MSG(msg[0] == 0, "the file must parse cleanly: %s", msg);
  CHECK_EQ_U64(spvgen_tune_cache_count(c), PROCS * STORES + 1);
  for (int p = 0; p < PROCS; p++)
    for (int i = 0; i < STORES; i++) {
      char key[64];
      snprintf(key, sizeof key, "gemm writer%d store%02d", p, i);
      spvgen_tune_entry e;
      CHECK_MSG(spvgen_tune_cache_lookup(c, key, &e) && e.knobs.tile_m == (16u << (i % 4)), "%s lost", key);
    }
  CHECK(spvgen_tune_cache_lookup(c, "gemm shared", NULL));
  spvgen_tune_cache_close(c);
  /* No temporary file is left behind. */
  DIR *dir = opendir(cli_dir());
  struct dirent *de;
  while (dir && (de = readdir(dir)))
    CHECK_MSG(!strstr(de->d_name, "concurrent.txt.tmp"), "left over: %s", de->d_name);
  if (dir) closedir(dir);
}

/* A valid two-entry file; returns its text (static). */
static const char *valid_file(char *line1, char *line2) {
  static char text[4096];
  char why[256];
  spvgen_tune_entry a = entry("gemm first key", "simt", 32, 32, 16, 64);
  spvgen_tune_entry b = entry("gemm second key", "simt", 64, 64, 16, 256);
  CHECK(tune_format_line(&a, line1, TUNE_MAX_LINE, why, sizeof why));
  CHECK(tune_format_line(&b, line2, TUNE_MAX_LINE, why, sizeof why));
  snprintf(text, sizeof text, "spvgen-tune-cache 1\n# comment\n\n%s\n%s\n", line1, line2);
  return text;
}

static void expect_open(const char *path, const char *text_in_msg, uint32_t count) {
  char msg[1024];
  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  CHECK_CONTAINS(msg, text_in_msg);
  CHECK_MSG(spvgen_tune_cache_count(c) == count, "%s: %u entries, expected %u", path, spvgen_tune_cache_count(c),
            count);
  spvgen_tune_cache_close(c);
}

static void test_corrupt_files_are_ignored_with_a_message(void) {
  char l1[TUNE_MAX_LINE], l2[TUNE_MAX_LINE], msg[1024];
  const char *text = valid_file(l1, l2);
  size_t len = strlen(text);
  /* The valid file reads without a message. */
  const char *path = cli_write("valid.txt", text, len);
  expect_open(path, "", 2);

  /* Truncated in the middle of the last line: that entry is dropped. */
  path = cli_write("truncated.txt", text, len - 10);
  expect_open(path, "line 5: truncated", 1);
  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  CHECK(!spvgen_tune_cache_lookup(c, "gemm second key", NULL));
  CHECK(spvgen_tune_cache_lookup(c, "gemm first key", NULL));
  spvgen_tune_cache_close(c);
  /* Truncated inside the header: not a cache. */
  path = cli_write("truncated-header.txt", text, 9);
  expect_open(path, "not a spvgen tune cache", 0);
  /* Empty: an empty cache, no complaint. */
  path = cli_write("empty.txt", "", 0);
  expect_open(path, "", 0);

  /* Garbage bytes: ignored whole, and never overwritten. */
  unsigned char garbage[3000];
  uint64_t s = 0x1234;
  for (size_t i = 0; i < sizeof garbage; i++) garbage[i] = (unsigned char)((s = s * 6364136223846793005ull + 1) >> 56);
  path = cli_write("garbage.txt", garbage, sizeof garbage);
  cli_path("garbage.txt.lock");
  expect_open(path, "not a spvgen tune cache", 0);
  c = open_ok(path, msg, sizeof msg);
  CHECK(!spvgen_tune_cache_lookup(c, "gemm first key", NULL));
  spvgen_tune_entry e = entry("gemm new", "simt", 16, 16, 16, 16);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_tune_cache_save(c, msg, sizeof msg) == SPVGEN_ERROR_IO);
  CHECK_CONTAINS(msg, "was not overwritten");
  spvgen_tune_cache_close(c);
  size_t glen = 0;
  char *back = cli_read(path, &glen);
  CHECK(glen == sizeof garbage && !memcmp(back, garbage, glen));
  free(back);
  /* Garbage after a valid header: every bad line dropped, counted. */
  char mixed[8192];
  int n = snprintf(mixed, sizeof mixed, "spvgen-tune-cache 1\n%s\n", l1);
  memcpy(mixed + n, garbage, 500);
  n += 500;
  n += snprintf(mixed + n, sizeof mixed - (size_t)n, "\n%s\n", l2);
  path = cli_write("mixed.txt", mixed, (size_t)n);
  c = open_ok(path, msg, sizeof msg);
  CHECK_CONTAINS(msg, "cannot be trusted");
  CHECK_EQ_U64(spvgen_tune_cache_count(c), 2);
  spvgen_tune_cache_close(c);

  /* A line whose checksum does not match (its tile edited by hand). */
  char edited[4096];
  snprintf(edited, sizeof edited, "spvgen-tune-cache 1\n%s\n%s\n", l1, l2);
  char *t = strstr(edited, "tile=64x64x16");
  CHECK(t != NULL);
  if (t) memcpy(t, "tile=16x64x16", 13);
  path = cli_write("badcrc.txt", edited, strlen(edited));
  expect_open(path, "line 3: checksum mismatch", 1);
  c = open_ok(path, msg, sizeof msg);
  CHECK(!spvgen_tune_cache_lookup(c, "gemm second key", NULL));
  spvgen_tune_cache_close(c);
  /* A malformed checksum field and a line without tabs. */
  snprintf(edited, sizeof edited, "spvgen-tune-cache 1\n%s\n%.*scrc=zzzzzzzz\njust words\n", l1,
           (int)(strstr(l2, "crc=") - l2), l2);
  path = cli_write("badfields.txt", edited, strlen(edited));
  expect_open(path, "ignored 2 lines", 1);

  /* A newer version: ignored whole, not overwritten. */
  char newer[4096];
  snprintf(newer, sizeof newer, "spvgen-tune-cache 2\n%s\n", l1);
  path = cli_write("newer.txt", newer, strlen(newer));
  cli_path("newer.txt.lock");
  expect_open(path, "a version 2 tune cache, newer than this spvgen reads (1)", 0);
  c = open_ok(path, msg, sizeof msg);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_tune_cache_save(c, msg, sizeof msg) == SPVGEN_ERROR_IO);
  spvgen_tune_cache_close(c);
  /* An unknown header of the right name. */
  path = cli_write("badversion.txt", "spvgen-tune-cache one\n", 22);
  expect_open(path, "not a spvgen tune cache of a known version", 0);

  /* A huge line (1 MiB) between two good ones; and one without a newline at the end. */
  size_t huge = 1u << 20;
  char *big = malloc(huge + 8192);
  if (big) {
    n = snprintf(big, 8192, "spvgen-tune-cache 1\n%s\n", l1);
    memset(big + n, 'x', huge);
    n += (int)huge;
    n += snprintf(big + n, 8192, "\n%s\n", l2);
    path = cli_write("huge.txt", big, (size_t)n);
    expect_open(path, "line 3: longer than 1024 bytes", 2);
    n -= (int)strlen(l2) + 2;
    path = cli_write("huge-end.txt", big, (size_t)n);
    expect_open(path, "line 3: truncated", 1);
    free(big);
  }
  /* A line with a NUL byte. */
  char nul[4096];
  n = snprintf(nul, sizeof nul, "spvgen-tune-cache 1\n%s\n", l1);
  nul[20 + 5] = 0;
  path = cli_write("nul.txt", nul, (size_t)n);
  expect_open(path, "has a NUL byte", 0);
  /* A directory where the file should be. */
  expect_open(cli_dir(), "not a regular file", 0);
}

static void test_save_repairs_dropped_lines(void) {
  char l1[TUNE_MAX_LINE], l2[TUNE_MAX_LINE], msg[1024];
  const char *text = valid_file(l1, l2);
  char edited[4096];
  snprintf(edited, sizeof edited, "%s%s", text, "gemm junk\tline\tcrc=00000000\n");
  const char *path = cli_write("repair.txt", edited, strlen(edited));
  cli_path("repair.txt.lock");
  spvgen_tune_cache *c = open_ok(path, msg, sizeof msg);
  CHECK_CONTAINS(msg, "checksum mismatch");
  spvgen_tune_entry e = entry("gemm third key", "simt", 16, 16, 16, 16);
  CHECK(spvgen_tune_cache_store(c, &e, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(spvgen_tune_cache_save(c, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_CONTAINS(msg, "dropped from the file");
  spvgen_tune_cache_close(c);
  expect_open(path, "", 3);
}

/* ------------------------------------------------------ compiled-in layer ---- */

/* The H100 entries of lib/tune/builtin.txt (a recorded tuning run) reach the h100 preset,
 * whose vendor, device and driver version are the tuned machine's: an untuned call there
 * starts from the measured plan. 8192x256x4096 s8 was tuned to 128x128x128 unroll 2
 * (0.081 ms against 0.206 for the heuristic's unroll 4 then). */
static void test_builtin_h100_entries_reach_the_h100_preset(void) {
  char msg[1024];
  spvgen_tune_cache *c = NULL;
  CHECK(spvgen_tune_cache_open(cli_path("no-such-cache-h100.txt"), &c, msg, sizeof msg) == SPVGEN_OK);
  spvgen_device_caps h100 = preset("h100");
  spvgen_gemm_desc d = shape(8192, 256, 4096);
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
  char key[512];
  CHECK(spvgen_tune_gemm_key(&d, &h100, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  spvgen_tune_entry e;
  CHECK_MSG(spvgen_tune_cache_lookup(c, key, &e), "no compiled-in entry for %s", key);
  spvgen_gemm_config p;
  CHECK(spvgen_gemm_plan_cached(&d, &h100, c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(msg[0] == 0, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_COOPMAT2);
  CHECK_EQ_U64(p.desc.tile_m, 128);
  CHECK_EQ_U64(p.desc.tile_n, 128);
  CHECK_EQ_U64(p.desc.tile_k, 128);
  CHECK_EQ_U64(p.desc.unroll, 2);
  /* The same shape on another device: no entry, the heuristic. */
  spvgen_device_caps other = h100;
  other.driver_version += 1;
  CHECK(spvgen_tune_gemm_key(&d, &other, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!spvgen_tune_cache_lookup(c, key, &e));
  spvgen_tune_cache_close(c);
}

static void test_builtin_entries_for_a_fake_device(void) {
  char msg[1024];
  /* The library's own table parses (every line checked). */
  const char *missing = cli_path("no-such-cache.txt");
  spvgen_tune_cache *c = NULL;
  CHECK(spvgen_tune_cache_open(missing, &c, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(msg[0] == 0, "the compiled-in table: %s", msg);
  CHECK_EQ_U64(spvgen_tune_cache_count(c), tune_builtin_count);
  spvgen_tune_cache_close(c);

  /* A table with an entry for a device that does not exist. */
  spvgen_device_caps fake = preset("lavapipe");
  snprintf(fake.name, sizeof fake.name, "spvgen fake GPU 9000");
  fake.vendor_id = 0xfa4e;
  fake.device_id = 0x9000;
  fake.driver_version = 42;
  spvgen_gemm_desc d = shape(100, 70, 50);
  spvgen_tune_entry e;
  memset(&e, 0, sizeof e);
  CHECK(spvgen_tune_gemm_key(&d, &fake, e.key, sizeof e.key, msg, sizeof msg) == SPVGEN_OK);
  e = entry(e.key, "simt", 16, 32, 8, 32);
  char line[TUNE_MAX_LINE], why[256];
  CHECK(tune_format_line(&e, line, sizeof line, why, sizeof why));
  const char *lines[] = {line, "gemm broken\tvariant=simt\tcrc=00000000"};
  const char *path = cli_path("builtin-over.txt");
  cli_path("builtin-over.txt.lock");
  CHECK(tune_cache_open_with_builtin(path, lines, 2, &c, msg, sizeof msg) == SPVGEN_OK);
  CHECK_CONTAINS(msg, "1 compiled-in entry could not be read");
  CHECK_EQ_U64(spvgen_tune_cache_count(c), 1);
  spvgen_tune_entry got;
  CHECK(spvgen_tune_cache_lookup(c, e.key, &got) && got.origin == SPVGEN_TUNE_ORIGIN_BUILTIN);
  CHECK(knobs_equal(&got.knobs, &e.knobs));
  spvgen_gemm_config p;
  CHECK_MSG(spvgen_gemm_plan_cached(&d, &fake, c, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0], "%s", msg);
  CHECK(p.desc.tile_m == 16 && p.desc.tile_n == 32 && p.desc.tile_k == 8);
  /* The real lavapipe misses it. */
  spvgen_device_caps lvp = preset("lavapipe");
  spvgen_gemm_config h;
  CHECK(spvgen_gemm_plan(&d, &lvp, &h, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_gemm_plan_cached(&d, &lvp, c, &p, msg, sizeof msg) == SPVGEN_OK && !strcmp(p.name, h.name));
  /* A file entry with the same key wins; export writes the file's entries only. */
  spvgen_tune_entry mine = entry(e.key, "simt", 32, 32, 16, 64);
  CHECK(spvgen_tune_cache_store(c, &mine, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_tune_cache_lookup(c, e.key, &got) && got.origin == SPVGEN_TUNE_ORIGIN_FILE && got.knobs.tile_m == 32);
  CHECK_EQ_U64(spvgen_tune_cache_count(c), 2);
  CHECK(spvgen_tune_cache_entry(c, 1, &got) && got.origin == SPVGEN_TUNE_ORIGIN_BUILTIN);
  CHECK(!spvgen_tune_cache_entry(c, 2, &got));
  const char *exported = cli_path("builtin-export.txt");
  uint32_t count = 0;
  CHECK(spvgen_tune_cache_export(c, exported, &count, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(count, 1);
  spvgen_tune_cache_close(c);

  /* The generator: merge an exported file into a table, then write the C table. */
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (src) {
    const char *table = cli_path("builtin-table.txt");
    const char *ctab = cli_path("builtin-table.c");
    cli_write("builtin-table.txt", "spvgen-tune-cache 1\n# shipped\n", 30);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "python3 '%s/tools/gen_tune_builtin.py' --merge '%s' '%s' >/dev/null && "
             "python3 '%s/tools/gen_tune_builtin.py' --out '%s' '%s'",
             src, exported, table, src, ctab, table);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    char *ct = cli_read(ctab, NULL);
    CHECK_CONTAINS(ct, "const size_t tune_builtin_count = 1;");
    CHECK_CONTAINS(ct, "variant=simt tile=32x32x16 wg=64");
    free(ct);
    char *tt = cli_read(table, NULL);
    CHECK_CONTAINS(tt, "# shipped\n");
    free(tt);
    /* A hand-edited line fails the generator (and so the build). */
    cli_write("builtin-bad.txt", "spvgen-tune-cache 1\ngemm x\tvariant=simt\tcrc=00000000\n", 53);
    snprintf(cmd, sizeof cmd, "python3 '%s/tools/gen_tune_builtin.py' --out '%s' '%s' 2>/dev/null", src, ctab,
             cli_path("builtin-bad.txt"));
    CHECK(system(cmd) != 0);
  }
}

static void test_export_import_round_trip(void) {
  char msg[1024];
  const char *a_path = cli_path("export-a.txt"), *b_path = cli_path("export-b.txt");
  cli_path("export-b.txt.lock");
  const char *file = cli_path("exported.txt");
  spvgen_tune_cache *a = open_ok(a_path, msg, sizeof msg), *b = open_ok(b_path, msg, sizeof msg);
  for (int i = 0; i < 3; i++) {
    char key[64];
    snprintf(key, sizeof key, "gemm exported %d", i);
    spvgen_tune_entry e = entry(key, "simt", 16u << i, 16, 16, 0);
    CHECK(spvgen_tune_cache_store(a, &e, msg, sizeof msg) == SPVGEN_OK);
  }
  uint32_t count = 0;
  CHECK_MSG(spvgen_tune_cache_export(a, file, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(count, 3);
  CHECK_MSG(spvgen_tune_cache_import(b, file, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(count, 3);
  CHECK(spvgen_tune_cache_save(b, msg, sizeof msg) == SPVGEN_OK);
  spvgen_tune_cache_close(b);
  b = open_ok(b_path, msg, sizeof msg);
  CHECK_EQ_U64(spvgen_tune_cache_count(b), 3);
  spvgen_tune_entry got;
  CHECK(spvgen_tune_cache_lookup(b, "gemm exported 2", &got) && got.knobs.tile_m == 64);
  /* Importing garbage or a missing file imports nothing. */
  const char *junk = cli_write("junk.txt", "hello\n", 6);
  CHECK(spvgen_tune_cache_import(b, junk, &count, msg, sizeof msg) == SPVGEN_ERROR_IO && count == 0);
  CHECK_CONTAINS(msg, "not a spvgen tune cache");
  CHECK(spvgen_tune_cache_import(b, cli_path("missing.txt"), &count, msg, sizeof msg) == SPVGEN_ERROR_IO);
  CHECK_CONTAINS(msg, "no such file");
  CHECK_EQ_U64(spvgen_tune_cache_count(b), 3);
  spvgen_tune_cache_close(a);
  spvgen_tune_cache_close(b);
}

static void test_default_path_follows_xdg(void) {
  char path[512];
  char *old_xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
  char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
  setenv("XDG_CACHE_HOME", "/x/cache", 1);
  CHECK(spvgen_tune_cache_default_path(path, sizeof path) == SPVGEN_OK && !strcmp(path, "/x/cache/spvgen/tune-v1.txt"));
  setenv("XDG_CACHE_HOME", "relative", 1); /* not absolute: ignored (XDG spec) */
  setenv("HOME", "/home/u", 1);
  CHECK(spvgen_tune_cache_default_path(path, sizeof path) == SPVGEN_OK &&
        !strcmp(path, "/home/u/.cache/spvgen/tune-v1.txt"));
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  CHECK(spvgen_tune_cache_default_path(path, sizeof path) == SPVGEN_ERROR_IO);
  spvgen_tune_cache *c = NULL;
  char msg[256];
  CHECK(spvgen_tune_cache_open(NULL, &c, msg, sizeof msg) == SPVGEN_ERROR_IO && c == NULL);
  CHECK_CONTAINS(msg, "no cache path");
  setenv("HOME", "/h", 1);
  CHECK(spvgen_tune_cache_default_path(path, 8) == SPVGEN_ERROR_INVALID_ARGUMENT);
  if (old_xdg) setenv("XDG_CACHE_HOME", old_xdg, 1);
  if (old_home) setenv("HOME", old_home, 1);
  else unsetenv("HOME");
  free(old_xdg);
  free(old_home);
}

/* ------------------------------------------------------- the tuner loop ---- */

/* A fake template: every candidate runs the same small GEMM kernel; candidate 1's output
 * is reported wrong, candidate 2 cannot be built. */
typedef struct fake_state {
  spvgen_vk_context *ctx;
  spvgen_vk_pipeline *pipe;
  spvgen_vk_buffer *bufs[3];
  spvgen_kernel kernel;
  int built, released;
} fake_state;

/* Candidate 2 fails to build; candidate 3 is a plan of two kernels (the same one twice,
 * as a split-K plan's partials and reduction are two dispatches timed as one run). */
static spvgen_status fake_build(void *state, uint32_t i, spvgen_vk_dispatch_desc *dd, uint32_t *count, char *msg,
                                size_t size) {
  fake_state *s = state;
  if (i == 2) return snprintf(msg, size, "no such tile here"), SPVGEN_ERROR_UNSUPPORTED;
  spvgen_status st = spvgen_vk_pipeline_create_kernel(s->ctx, &s->kernel, NULL, &s->pipe);
  if (st != SPVGEN_OK) return snprintf(msg, size, "%s", spvgen_vk_error(s->ctx)), st;
  dd->pipeline = s->pipe;
  dd->buffers = s->bufs;
  dd->buffer_count = 3;
  for (int j = 0; j < 3; j++) dd->groups[j] = s->kernel.info.groups[j];
  *count = i == 3 ? 2 : 1;
  if (i == 3) dd[1] = dd[0];
  s->built++;
  return SPVGEN_OK;
}

static spvgen_status fake_poison(void *state, char *msg, size_t size) {
  (void)state;
  (void)msg;
  (void)size;
  return SPVGEN_OK;
}

static spvgen_status fake_check(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg, size_t size) {
  (void)state;
  *checked = 10;
  *bad = i == 1 ? 3 : 0;
  if (*bad) snprintf(msg, size, "3 elements off");
  return SPVGEN_OK;
}

static spvgen_status all_wrong_check(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg,
                                     size_t size) {
  (void)state;
  (void)i;
  *checked = *bad = 1;
  snprintf(msg, size, "off");
  return SPVGEN_OK;
}

static void fake_release(void *state, uint32_t i) {
  fake_state *s = state;
  (void)i;
  spvgen_vk_pipeline_destroy(s->pipe);
  s->pipe = NULL;
  s->released++;
}

static void count_progress(const spvgen_tune_progress *p, void *user) {
  uint32_t *calls = user;
  CHECK_EQ_U64(p->done, *calls + 1);
  CHECK(p->current != NULL && p->done <= p->total);
  (*calls)++;
}

static void test_tuner_loop_statuses(void) {
  spvgen_vk_context *ctx = open_device();
  if (!ctx) return;
  fake_state s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  char msg[1024];
  spvgen_gemm_desc d = shape(16, 16, 16);
  d.variant = SPVGEN_GEMM_SIMT;
  spvgen_tune_result *res = calloc(1, sizeof *res);
  CHECK(res != NULL);
  if (!res) goto done;
  CHECK(spvgen_gemm(&d, spvgen_vk_caps(ctx), &s.kernel, msg, sizeof msg) == SPVGEN_OK);
  for (int b = 0; b < 3; b++) CHECK(spvgen_vk_buffer_create(ctx, 4096, 0, &s.bufs[b]) == SPVGEN_OK);
  static const tune_ops ops = {"fake", fake_build, fake_poison, fake_check, fake_release};
  spvgen_tune_options o;
  memset(&o, 0, sizeof o);
  o.repeats = 3;
  o.warmup = 1;
  o.warmup_ms = 1;
  o.warmup_limit_ms = 1; /* short: no wait for steadiness */
  o.max_candidates = 4;
  uint32_t calls = 0;
  o.progress = count_progress;
  o.progress_user = &calls;
  res->count = 5;
  for (uint32_t i = 0; i < 5; i++) snprintf(res->candidates[i].name, sizeof res->candidates[i].name, "cand%u", i);
  spvgen_status st = tune_loop(ctx, &ops, &s, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(calls, 5);
  CHECK_EQ_U64(res->candidates[0].status, SPVGEN_TUNE_TIMED);
  CHECK_EQ_U64(res->candidates[1].status, SPVGEN_TUNE_WRONG);
  CHECK_CONTAINS(res->candidates[1].message, "3 elements off");
  CHECK_EQ_U64(res->candidates[1].bad, 3);
  CHECK_EQ_U64(res->candidates[2].status, SPVGEN_TUNE_FAILED);
  CHECK_CONTAINS(res->candidates[2].message, "no such tile here");
  CHECK_EQ_U64(res->candidates[3].status, SPVGEN_TUNE_TIMED);
  CHECK_EQ_U64(res->candidates[4].status, SPVGEN_TUNE_NOT_RUN); /* max_candidates */
  CHECK(res->timed == 2 && res->wrong == 1 && res->failed == 1 && res->not_run == 1);
  CHECK(res->best == 0 || res->best == 3);
  CHECK(res->candidates[0].median_ns > 0 && res->candidates[0].samples + res->candidates[0].rejected == 3);
  CHECK(res->best_ns == res->candidates[res->best].median_ns);
  CHECK_EQ_U64(s.built, 3);
  CHECK_EQ_U64(s.released, 4); /* every build, failed ones too */
  /* A spent budget: the first candidate still runs, the rest do not. */
  memset(res, 0, sizeof *res);
  res->count = 5;
  o.budget_seconds = 1e-9;
  o.progress = NULL;
  st = tune_loop(ctx, &ops, &s, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  CHECK(res->timed == 1 && res->not_run == 4 && res->best == 0);
  /* Nothing correct: an error naming it. */
  memset(res, 0, sizeof *res);
  res->count = 3;
  for (uint32_t i = 0; i < 3; i++) snprintf(res->candidates[i].name, sizeof res->candidates[i].name, "cand%u", i);
  o.budget_seconds = 0;
  o.max_candidates = 0;
  static const tune_ops wrong_ops = {"fake", fake_build, fake_poison, all_wrong_check, fake_release};
  st = tune_loop(ctx, &wrong_ops, &s, &o, res, msg, sizeof msg);
  CHECK(st == SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(msg, "no candidate produced a correct output (2 wrong, 1 failed, 0 not run); the first wrong one: cand0: off");
  CHECK(res->wrong == 2 && res->failed == 1);
done:
  for (int b = 0; b < 3; b++) spvgen_vk_buffer_destroy(s.bufs[b]);
  spvgen_kernel_free(&s.kernel);
  free(res);
  spvgen_vk_destroy(ctx);
}

/* --------------------------------------------------------- on the device ---- */

static void tune_shape(spvgen_vk_context *ctx, uint32_t m, uint32_t n, uint32_t k, const char *cache_name) {
  char msg[1024];
  spvgen_gemm_desc d = shape(m, n, k);
  d.variant = SPVGEN_GEMM_SIMT;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_gemm_config def;
  CHECK(spvgen_gemm_plan(&d, caps, &def, msg, sizeof msg) == SPVGEN_OK);
  uint32_t nplans = 0;
  CHECK(spvgen_gemm_plans(&d, caps, NULL, 0, &nplans, msg, sizeof msg) == SPVGEN_OK);
  spvgen_gemm_config *plans = calloc(nplans, sizeof *plans);
  spvgen_tune_result *res = calloc(1, sizeof *res);
  const char *path = cli_path(cache_name);
  char lock[128];
  snprintf(lock, sizeof lock, "%s.lock", cache_name);
  cli_path(lock);
  spvgen_tune_cache *cache = open_ok(path, msg, sizeof msg);
  if (!plans || !res || !cache) goto done;
  CHECK(spvgen_gemm_plans(&d, caps, plans, nplans, &nplans, msg, sizeof msg) == SPVGEN_OK);
  bool def_listed = false;
  for (uint32_t i = 0; i < nplans; i++) def_listed |= !strcmp(plans[i].name, def.name);

  spvgen_tune_options o;
  memset(&o, 0, sizeof o);
  o.repeats = 5;
  o.warmup = 1;
  o.warmup_ms = 20;
  o.warmup_limit_ms = 20; /* short: no wait for steadiness */
  o.budget_seconds = 500; /* every candidate must run */
  o.cache = cache;
  uint32_t calls = 0;
  o.progress = count_progress;
  o.progress_user = &calls;
  spvgen_status st = spvgen_tune_gemm(ctx, &d, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%ux%ux%u: %s", m, n, k, msg);
  if (st != SPVGEN_OK) goto done;
  /* The table is complete: the heuristic plan first, then every other plan. */
  CHECK_EQ_U64(res->count, nplans + (def_listed ? 0 : 1));
  CHECK_EQ_U64(res->offered, res->count);
  CHECK_EQ_U64(calls, res->count);
  CHECK_EQ_U64(res->default_index, 0);
  CHECK(res->candidates[0].is_default && !strcmp(res->candidates[0].name, def.name));
  for (uint32_t i = 0; i < nplans; i++) {
    bool found = false;
    for (uint32_t j = 0; j < res->count; j++) found |= !strcmp(res->candidates[j].name, plans[i].name);
    CHECK_MSG(found, "plan %s is missing from the table", plans[i].name);
  }
  /* Every candidate ran and was checked on every element. */
  CHECK_EQ_U64(res->timed, res->count);
  for (uint32_t i = 0; i < res->count; i++) {
    const spvgen_tune_candidate *c = &res->candidates[i];
    CHECK_MSG(c->status == SPVGEN_TUNE_TIMED, "%s: %s %s", c->name, spvgen_tune_candidate_status_name(c->status),
              c->message);
    CHECK_EQ_U64(c->checked, (uint64_t)m * n);
    CHECK_EQ_U64(c->bad, 0);
    CHECK(c->median_ns > 0 && c->min_ns > 0 && c->min_ns <= c->median_ns);
    CHECK_EQ_U64(c->samples + c->rejected, 5);
    /* The best is the fastest timed candidate, or the default when none beats it by
     * more than SPVGEN_TUNE_MARGIN. */
    if (res->best == res->default_index)
      CHECK_MSG(c->median_ns >= res->default_ns / (1.0 + SPVGEN_TUNE_MARGIN), "%s: %.0f ns beats the kept default %.0f ns",
                c->name, c->median_ns, res->default_ns);
    else
      CHECK(res->best_ns <= c->median_ns);
  }
  if (res->best != res->default_index)
    CHECK_MSG(res->best_ns < res->default_ns / (1.0 + SPVGEN_TUNE_MARGIN), "the winner %.0f ns is within the margin of the default %.0f ns",
              res->best_ns, res->default_ns);
  if (k >= 512) {
    uint32_t split = 0;
    for (uint32_t i = 0; i < res->count; i++) split += res->candidates[i].knobs.split_k > 1;
    CHECK_MSG(split >= 1, "%ux%ux%u: no split-K candidate", m, n, k);
  }
  CHECK(res->best < res->count);
  CHECK(res->best_ns > 0 && res->best_ns <= res->default_ns);
  CHECK(!strcmp(res->plan.name, res->candidates[res->best].name));
  /* The winner is in the cache, under the problem's key, and plan_cached returns it. */
  char key[SPVGEN_TUNE_KEY_SIZE];
  CHECK(spvgen_tune_gemm_key(&d, caps, key, sizeof key, msg, sizeof msg) == SPVGEN_OK);
  CHECK(!strcmp(key, res->key));
  CHECK(res->stored);
  spvgen_tune_entry e;
  CHECK(spvgen_tune_cache_lookup(cache, key, &e));
  CHECK(knobs_equal(&e.knobs, &res->candidates[res->best].knobs));
  CHECK(e.median_ns == res->best_ns && e.m == m && e.n == n && e.k == k);
  spvgen_gemm_config p;
  CHECK(spvgen_gemm_plan_cached(&d, caps, cache, &p, msg, sizeof msg) == SPVGEN_OK && !msg[0]);
  CHECK_MSG(!strcmp(p.name, res->plan.name), "%s vs %s", p.name, res->plan.name);
  CHECK(spvgen_tune_cache_save(cache, msg, sizeof msg) == SPVGEN_OK);
  printf("  %ux%ux%u: %u candidates in %.1f s; best %s %.3f ms, default %s %.3f ms\n", m, n, k, res->count,
         res->seconds, res->plan.name, res->best_ns / 1e6, def.name, res->default_ns / 1e6);
done:
  spvgen_tune_cache_close(cache);
  free(plans);
  free(res);
}

static void test_tune_simt_small_shapes(void) {
  spvgen_vk_context *ctx = open_device();
  if (!ctx) return;
  tune_shape(ctx, 64, 48, 40, "tuned-a.txt");
  tune_shape(ctx, 100, 70, 50, "tuned-b.txt");
  /* A small grid with a long K: the table ends with split-K candidates, which run
   * (workspace zeroed by the tuner) and check like the others. */
  tune_shape(ctx, 33, 40, 600, "tuned-c.txt");
  spvgen_vk_destroy(ctx);
}

static void test_tune_sampled_check_and_errors(void) {
  spvgen_vk_context *ctx = open_device();
  if (!ctx) return;
  char msg[1024];
  spvgen_tune_result *res = calloc(1, sizeof *res);
  if (!res) goto done;
  /* A problem over full_check_macs: a sample against the CPU, the rest against the
   * first correct candidate. */
  spvgen_gemm_desc d = shape(33, 47, 20);
  d.variant = SPVGEN_GEMM_SIMT;
  d.beta = 0.5f;
  d.bias = SPVGEN_GEMM_BIAS_ROW;
  d.activation = SPVGEN_ACTIVATION_RELU;
  spvgen_tune_options o;
  memset(&o, 0, sizeof o);
  o.repeats = 2;
  o.warmup = 1;
  o.warmup_ms = 1;
  o.warmup_limit_ms = 1; /* short: no wait for steadiness */
  o.max_candidates = 3;
  o.full_check_macs = 1000;
  spvgen_status st = spvgen_tune_gemm(ctx, &d, &o, res, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK && !msg[0], "%s", msg);
  CHECK(res->timed == 3 && res->not_run == res->count - 3);
  CHECK_EQ_U64(res->candidates[0].checked, 1024);
  CHECK_EQ_U64(res->candidates[1].checked, 1024 + 33 * 47);
  CHECK(!res->stored);
  /* Refusals come back with the plan's message. */
  d.variant = SPVGEN_GEMM_COOPMAT2;
  st = spvgen_tune_gemm(ctx, &d, &o, res, msg, sizeof msg);
  if (!spvgen_caps_has(spvgen_vk_caps(ctx), SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE)) {
    CHECK(st == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "spvgen_gemm_plan:");
  }
  CHECK(spvgen_tune_gemm(ctx, NULL, &o, res, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
done:
  free(res);
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------------------------- CLI ---- */

static void test_cli_tune(void) {
  if (!cli_binary()) return;
  const char *cache = cli_path("cli-cache.txt");
  cli_path("cli-cache.txt.lock");
  const char *exported = cli_path("cli-export.txt");
  /* The list shows the file's entries and the compiled-in ones (lib/tune/builtin.txt). */
  char none[64], one[64];
  snprintf(none, sizeof none, ": %zu entr%s", tune_builtin_count, tune_builtin_count == 1 ? "y" : "ies");
  snprintf(one, sizeof one, ": %zu entr%s", tune_builtin_count + 1, tune_builtin_count + 1 == 1 ? "y" : "ies");
  cli_result r = cli_run("tune", "--list", "--cache", cache);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, none);
  cli_result_free(&r);
  r = cli_run("tune", "gemm", "--m", "40", "--n", "24", "--k", "16", "--variant", "simt", "--max-candidates", "2",
              "--repeats", "2", "--cache", cache);
  bool ran = r.exited && r.code == 0;
  if (!ran && strstr(r.err, "no Vulkan device")) {
    cli_result_free(&r);
  } else {
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, "key      gemm dev=");
    CHECK_CONTAINS(r.out, "<- best");
    CHECK_CONTAINS(r.out, "(default)");
    CHECK_CONTAINS(r.out, "not run");
    CHECK_CONTAINS(r.err, "2/");          /* plain progress lines: stderr is a file */
    CHECK(!strchr(r.err, '\r'));
    cli_result_free(&r);
    r = cli_run("tune", "--list", "--cache", cache);
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, one);
    CHECK_CONTAINS(r.out, "[file]");
    cli_result_free(&r);
    r = cli_run("tune", "export", exported, "--cache", cache);
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, "exported 1 entry");
    cli_result_free(&r);
    const char *other = cli_path("cli-other.txt");
    cli_path("cli-other.txt.lock");
    r = cli_run("tune", "import", exported, "--cache", other);
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, "imported 1 entry");
    cli_result_free(&r);
  }
  /* Usage errors and a corrupt cache. */
  r = cli_run("tune");
  CHECK_EXIT(r, 2);
  cli_result_free(&r);
  r = cli_run("tune", "export");
  CHECK_EXIT(r, 2);
  cli_result_free(&r);
  r = cli_run("tune", "gemm", "--m", "4", "--n", "4", "--k", "4", "--budget", "-1");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--budget");
  cli_result_free(&r);
  r = cli_run("tune", "gemm", "--m", "4", "--n", "4", "--k", "4", "--caps", "h100");
  CHECK_EXIT(r, 2);
  cli_result_free(&r);
  r = cli_run("tune", "gemm", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "--budget SECONDS");
  cli_result_free(&r);
  const char *junk = cli_write("cli-junk.txt", "not a cache\n", 12);
  r = cli_run("tune", "--list", "--cache", junk);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "not a spvgen tune cache");
  cli_result_free(&r);
  r = cli_run("tune", "import", junk, "--cache", cache);
  CHECK_EXIT(r, 1);
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_gemm_key_buckets_and_alignment),
      TEST_CASE(test_line_format_round_trips),
      TEST_CASE(test_robust_median_drops_outliers),
      TEST_CASE(test_cache_round_trip_and_plan_cached),
      TEST_CASE(test_invalid_cached_knobs_fall_back),
      TEST_CASE(test_concurrent_writers_keep_every_key),
      TEST_CASE(test_corrupt_files_are_ignored_with_a_message),
      TEST_CASE(test_save_repairs_dropped_lines),
      TEST_CASE(test_builtin_entries_for_a_fake_device),
      TEST_CASE(test_builtin_h100_entries_reach_the_h100_preset),
      TEST_CASE(test_export_import_round_trip),
      TEST_CASE(test_default_path_follows_xdg),
      TEST_CASE(test_tuner_loop_statuses),
      TEST_CASE(test_tune_simt_small_shapes),
      TEST_CASE(test_tune_sampled_check_and_errors),
      TEST_CASE(test_cli_tune),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
