/* tests/cli/test_bench_trace.c — `spvgen bench trace` and its --reuse switch: the same
 * trace creates fewer pipelines with reuse on than off, on the test device (lavapipe in
 * CI: tests/data/trace-reuse.txt, every call's sample checked against the CPU) and, plan
 * only, for the h100 preset on the two LLM traces under bench/traces/; --tiered; --passes
 * (the calls again in the same process: no pipeline created, a line per pass, the summary's
 * passes= fields, the slow-call count) and --warm-up; --prefetch (each weight's family
 * compiled ahead: the default) against --prefetch off; and its options' errors. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "harness.h"

/* The value of `name=` in the output's summary line, or -1. */
static long summary_field(const char *out, const char *name) {
  const char *s = strstr(out, "summary ");
  if (!s) return -1;
  char key[64];
  snprintf(key, sizeof key, " %s=", name);
  const char *f = strstr(s, key);
  return f ? strtol(f + strlen(key), NULL, 10) : -1;
}

/* The value of `name=` in the summary line as a double, or -1 (missing or not a number). */
static double summary_double(const char *out, const char *name) {
  const char *s = strstr(out, "summary ");
  if (!s) return -1;
  char key[64];
  snprintf(key, sizeof key, " %s=", name);
  const char *f = strstr(s, key);
  if (!f) return -1;
  char *end;
  double v = strtod(f + strlen(key), &end);
  return end == f + strlen(key) ? -1 : v;
}

/* The pipelines created of the `pass K: GPU ms X, wall ms Y, pipelines created Z` line, or
 * -1 when there is no such line; *gpu gets X. */
static long pass_line(const char *out, int pass, double *gpu) {
  char key[32];
  snprintf(key, sizeof key, "\npass %d: GPU ms ", pass);
  const char *l = strstr(out, key);
  double g, w;
  long z;
  if (!l || sscanf(l + strlen(key), "%lf, wall ms %lf, pipelines created %ld", &g, &w, &z) != 3) return -1;
  if (gpu) *gpu = g;
  return z;
}

/* After a run on the device: false (the test skipped, r freed) when there is no Vulkan
 * device (exit 77); else true, with a failure unless it exited 0. */
static bool ran_on_a_device(cli_result *r) {
  if (r->ran && r->exited && r->code == 77) {
    test_skip("no Vulkan device");
    cli_result_free(r);
    return false;
  }
  CHECK_MSG(r->ran && r->exited && r->code == 0, "exit %d\n%s%s", r->code, r->out, r->err);
  return true;
}

static const char *source_path(const char *rel, char *buf, size_t size) {
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (!src) {
    test_skip("SPVGEN_SOURCE_DIR is not set");
    return NULL;
  }
  snprintf(buf, size, "%s/%s", src, rel);
  return buf;
}

static void reuse_creates_fewer_pipelines_on_the_device(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  /* (--prefetch off: reuse weighs the compiles at each plan's first call) */
  cli_result off = cli_run("bench", "trace", path, "--cold", "--reuse", "off", "--prefetch", "off");
  if (off.ran && off.exited && off.code == 77) {
    test_skip("no Vulkan device");
    cli_result_free(&off);
    return;
  }
  cli_result on = cli_run("bench", "trace", path, "--cold", "--prefetch", "off");
  CHECK_MSG(off.ran && off.exited && off.code == 0, "reuse off: exit %d\n%s%s", off.code, off.out, off.err);
  CHECK_MSG(on.ran && on.exited && on.code == 0, "reuse on: exit %d\n%s%s", on.code, on.out, on.err);
  const long p_off = summary_field(off.out, "pipelines"), p_on = summary_field(on.out, "pipelines");
  CHECK_MSG(p_on >= 1 && p_off > p_on, "pipelines: %ld with reuse on, %ld off\n%s", p_on, p_off, on.out);
  CHECK_EQ_U64(summary_field(off.out, "reused"), 0);
  CHECK(summary_field(on.out, "reused") > 0);
  CHECK_CONTAINS(on.out, "reuse=on");
  CHECK_CONTAINS(off.out, "reuse=off");
  CHECK_CONTAINS(on.out, "in place of");
  CHECK_CONTAINS(on.out, "check:             0 of 56 sampled outputs off");
  CHECK_CONTAINS(off.out, "check:             0 of 56 sampled outputs off");
  cli_result_free(&off);
  cli_result_free(&on);
}

/* Plan only (--caps): the Qwen2-7B and Llama-3-8B prefill traces on the h100 preset. */
static void reuse_plans_fewer_kernels_for_the_llm_traces(void) {
  if (!cli_binary()) return;
  static const char *const traces[] = {"bench/traces/qwen2-7b-prefill.txt", "bench/traces/llama3-8b-prefill.txt"};
  for (int t = 0; t < 2; t++) {
    char path[4096];
    if (!source_path(traces[t], path, sizeof path)) return;
    cli_result off = cli_run("bench", "trace", path, "--caps", "h100", "--reuse", "off", "--prefetch", "off");
    cli_result on = cli_run("bench", "trace", path, "--caps", "h100", "--reuse", "on", "--prefetch", "off");
    CHECK_MSG(off.ran && off.exited && off.code == 0, "%s", off.err);
    CHECK_MSG(on.ran && on.exited && on.code == 0, "%s", on.err);
    const long p_off = summary_field(off.out, "pipelines"), p_on = summary_field(on.out, "pipelines");
    const long c_off = summary_field(off.out, "est_compile_ms"), c_on = summary_field(on.out, "est_compile_ms");
    CHECK_MSG(p_on >= 1 && p_on < p_off, "%s: pipelines %ld on, %ld off", traces[t], p_on, p_off);
    CHECK_MSG(c_on < c_off, "%s: estimated compile %ld ms on, %ld off", traces[t], c_on, c_off);
    CHECK_EQ_U64(summary_field(on.out, "calls"), 40);
    cli_result_free(&off);
    cli_result_free(&on);
  }
}

/* --tiered: the trace runs and checks as without it; every plan compiled in the background
 * had its first call served by its quick form (on lavapipe no plan has one: simt). */
static void tiered_runs_the_trace(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--tiered");
  if (!ran_on_a_device(&r)) return;
  CHECK_EQ_U64(summary_field(r.out, "tiered"), 1);
  CHECK_EQ_U64(summary_field(r.out, "prefetch"), 0); /* asked for with --tiered: off by default */
  const long plans = summary_field(r.out, "background_plans"), quick = summary_field(r.out, "quick_calls");
  /* plans found compiled (--cold empties spvgen's cache, not the driver's: NVIDIA may
   * answer from its own) and plans tiered are plans of distinct calls */
  const long cached = summary_field(r.out, "cached_plans");
  CHECK_MSG(cached >= 0 && cached + plans <= summary_field(r.out, "calls"), "%ld cached plans\n%s", cached, r.out);
  CHECK_MSG(plans >= 0 && quick >= plans && quick <= summary_field(r.out, "calls"), "%ld plans, %ld quick calls\n%s",
            plans, quick, r.out);
  CHECK_CONTAINS(r.out, "check:             0 of 56 sampled outputs off");
  CHECK_CONTAINS(r.out, "tiered:            ");
  cli_result_free(&r);
}

/* --passes 2: the calls again in the same process, every pipeline held (no compile), a
 * line per pass, the summary's fields pass 1's (as with one pass) plus passes=, and each
 * pass's calls checked. */
static void passes_run_the_calls_again(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--passes", "2", "--prefetch", "off");
  if (!ran_on_a_device(&r)) return;
  double g1 = -1, g2 = -1;
  const long z1 = pass_line(r.out, 1, &g1), z2 = pass_line(r.out, 2, &g2);
  CHECK_MSG(z1 >= 1 && z1 == summary_field(r.out, "pipelines"), "pass 1 created %ld pipelines\n%s", z1, r.out);
  CHECK_MSG(z2 == 0, "pass 2 created %ld pipelines (all are held after pass 1)\n%s", z2, r.out);
  CHECK_MSG(pass_line(r.out, 3, NULL) == -1, "a third pass ran\n%s", r.out);
  CHECK_EQ_U64(summary_field(r.out, "passes"), 2);
  CHECK_EQ_U64(summary_field(r.out, "calls"), 7);
  const double last = summary_double(r.out, "last_pass_gpu_ms"), best = summary_double(r.out, "best_pass_gpu_ms");
  CHECK_MSG(g2 > 0 && last == g2, /* both printed %.3f */
            "last_pass_gpu_ms=%g, pass 2's line %g\n%s", last, g2, r.out);
  CHECK_MSG(best > 0 && best <= last && best <= summary_double(r.out, "gpu_ms"), "best_pass_gpu_ms=%g\n%s", best,
            r.out);
  CHECK(summary_double(r.out, "last_pass_wall_ms") > 0);
  CHECK_MSG(summary_field(r.out, "slow_calls") >= 0 && !strstr(r.out, "slow_calls=na"), "%s", r.out);
  CHECK_CONTAINS(r.out, "\nslow calls:        ");
  CHECK_CONTAINS(r.out, "; pass 2: ");
  CHECK_CONTAINS(r.out, "check:             0 of 112 sampled outputs off");
  /* the shader clock before pass 1 and after each (lavapipe has VK_KHR_shader_clock):
   * three readings, each a rate, or the line saying why there are none */
  const char *clk = strstr(r.out, " clock_mhz=");
  CHECK_MSG(clk != NULL, "no clock_mhz= field\n%s", r.out);
  if (clk && strncmp(clk, " clock_mhz=na", 13)) {
    double mhz[3] = {0, 0, 0};
    /* (a reading that failed is 0, and said: on lavapipe the host's scheduling can spoil
     * one, see lib/vk/gpu_clock.c) */
    CHECK_MSG(sscanf(clk, " clock_mhz=%lf,%lf,%lf", &mhz[0], &mhz[1], &mhz[2]) == 3 &&
                  ((mhz[0] > 0 && mhz[1] > 0 && mhz[2] > 0) || strstr(r.out, "(a reading failed: ")),
              "%s", r.out);
    CHECK_CONTAINS(r.out, "\nGPU clock:         ");
    CHECK_CONTAINS(r.out, "MHz after pass 2");
    CHECK_MSG(summary_field(r.out, "low_clock_passes") >= 0, "%s", r.out);
  } else {
    CHECK_CONTAINS(r.out, "GPU clock:         not measured");
  }
  cli_result_free(&r);
}

/* The slow calls: on lavapipe a kernel's first dispatch includes its compile (hundreds of
 * ms with Mesa's shader cache off, against ~1 ms for the same call in pass 2), so pass 1
 * has a slow call to count, the way an idle clock makes them on the H100. Other devices:
 * only that the count is there. */
static void passes_count_slow_calls(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  const char *was = getenv("MESA_SHADER_CACHE_DISABLE");
  char *saved = was ? strdup(was) : NULL;
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  /* (--prefetch off: every call runs the same kernel in both passes, so all 7 compare) */
  cli_result r = cli_run("bench", "trace", path, "--cold", "--passes", "2", "--prefetch", "off");
  if (saved) setenv("MESA_SHADER_CACHE_DISABLE", saved, 1);
  else unsetenv("MESA_SHADER_CACHE_DISABLE");
  free(saved);
  if (!ran_on_a_device(&r)) return;
  unsigned s1 = 0, c1 = 0;
  const char *l = strstr(r.out, "\nslow calls:        ");
  if (l && !strncmp(l + 20, "none: ", 6)) l += 6;
  CHECK_MSG(l && sscanf(l + 20, "pass 1: %u of %u", &s1, &c1) == 2 && c1 == 7, "%s", r.out);
  if (strstr(r.out, "llvmpipe")) {
    CHECK_MSG(s1 >= 1 && summary_field(r.out, "slow_calls") >= 1, "no slow call in pass 1\n%s", r.out);
    CHECK_CONTAINS(r.out, "the GPU clock still ramping up from idle");
  }
  cli_result_free(&r);
}

/* --passes 2 --tiered: a later pass takes a plan whose background compile has ended,
 * else the quick form, without waiting (on lavapipe no plan has a quick form). */
static void passes_run_with_tiered(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--passes", "2", "--tiered");
  if (!ran_on_a_device(&r)) return;
  CHECK_EQ_U64(summary_field(r.out, "tiered"), 1);
  CHECK_EQ_U64(summary_field(r.out, "passes"), 2);
  CHECK_MSG(pass_line(r.out, 2, NULL) == 0, "%s", r.out);
  CHECK_CONTAINS(r.out, "tiered:            ");
  CHECK_CONTAINS(r.out, "check:             0 of 112 sampled outputs off");
  cli_result_free(&r);
}

/* --warm-up: its line, and pass 1 as without it (its kernel is none of the trace's); one
 * pass of a trace with no repeated call: the slow calls are not measured. */
static void warm_up_runs_before_pass_one(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--warm-up", "--prefetch", "off");
  if (!ran_on_a_device(&r)) return;
  CHECK_CONTAINS(r.out, "\nwarm-up: ");
  CHECK_CONTAINS(r.out, "not in any total");
  CHECK_EQ_U64(summary_field(r.out, "pipelines"), 1); /* as reuse_creates_fewer_pipelines' run */
  CHECK_EQ_U64(summary_field(r.out, "passes"), 1);
  CHECK_CONTAINS(r.out, "slow calls:        not measured (one pass");
  CHECK_CONTAINS(r.out, " slow_calls=na");
  CHECK_CONTAINS(r.out, "check:             0 of 56 sampled outputs off");
  cli_result_free(&r);
}

static void bad_options_are_named(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--reuse", "maybe");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--reuse: 'maybe' is not on or off");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--runs", "0");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--runs");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--caps", "h100", "--cold");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--caps plans without a device");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--caps", "h100", "--tiered");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--tiered");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--clock", "maybe");
  CHECK_MSG(r.ran && r.exited && r.code == 2, "--clock maybe: exit %d", r.code);
  CHECK_CONTAINS(r.err, "--clock: 'maybe' is not on or off");
  cli_result_free(&r);
  static const char *const bad_passes[] = {"0", "101", "x"};
  for (int i = 0; i < 3; i++) {
    r = cli_run("bench", "trace", path, "--passes", bad_passes[i]);
    CHECK_MSG(r.ran && r.exited && r.code == 2, "--passes %s: exit %d", bad_passes[i], r.code);
    CHECK_CONTAINS(r.err, "--passes");
    cli_result_free(&r);
  }
  r = cli_run("bench", "trace", path, "--caps", "h100", "--passes", "2");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--passes");
  cli_result_free(&r);
  static const char *const bad_prefetch[] = {"0", "25", "x"};
  for (int i = 0; i < 3; i++) {
    r = cli_run("bench", "trace", path, "--prefetch", bad_prefetch[i]);
    CHECK_MSG(r.ran && r.exited && r.code == 2, "--prefetch %s: exit %d", bad_prefetch[i], r.code);
    CHECK_CONTAINS(r.err, "--prefetch: ");
    CHECK_CONTAINS(r.err, "is not off or a plan count from 1 to 24");
    cli_result_free(&r);
  }
  r = cli_run("bench", "trace", path, "--prefetch", "4", "--shapes", "fixed");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--prefetch 4 needs --shapes runtime");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--prefetch-max-m", "0");
  CHECK(r.ran && r.exited && r.code == 2);
  CHECK_CONTAINS(r.err, "--prefetch-max-m: '0' is not a row count");
  cli_result_free(&r);
  r = cli_run("bench", "trace", path, "--caps", "no-such-preset");
  CHECK(r.ran && r.exited && r.code != 0);
  CHECK_CONTAINS(r.err, "no-such-preset");
  cli_result_free(&r);
}

/* --prefetch (the default with run-time shapes): each weight's first call starts its family
 * compiling ahead; the calls that take a plan of it first say "ahead" and compile nothing
 * themselves, every call checked; --prefetch off compiles at the calls (the same plans'
 * kernels or fewer), and the summary's fields say which. */
static void prefetch_compiles_each_weights_family_ahead(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result on = cli_run("bench", "trace", path, "--cold", "--passes", "2");
  if (!ran_on_a_device(&on)) return;
  cli_result off = cli_run("bench", "trace", path, "--cold", "--passes", "2", "--prefetch", "off");
  CHECK_MSG(off.ran && off.exited && off.code == 0, "exit %d\n%s%s", off.code, off.out, off.err);
  const long fetched = summary_field(on.out, "prefetched"), ahead = summary_field(on.out, "ahead_calls");
  CHECK_EQ_U64(summary_field(on.out, "prefetch"), 8);
  CHECK_MSG(fetched >= 1 && ahead >= 1 && ahead <= fetched &&
                summary_field(on.out, "prefetch_unused") == fetched - ahead,
            "%ld prefetched, %ld taken\n%s", fetched, ahead, on.out);
  CHECK_MSG(summary_field(on.out, "prefetch_pipelines") >= fetched, "%s", on.out);
  /* held from the start, the families serve every call of this trace (lengths 3 and 37):
   * no call compiles */
  CHECK_MSG(summary_field(on.out, "pipelines") == 0, "%s", on.out);
  CHECK_CONTAINS(on.out, "| ahead     |");
  CHECK_CONTAINS(on.out, "\nprefetch:          ");
  /* each held plan is compiled once: at the calls, or ahead (none twice) */
  CHECK_MSG(summary_field(on.out, "pipelines") + ahead <= summary_field(off.out, "pipelines") + fetched, "%s", on.out);
  CHECK_MSG(pass_line(on.out, 2, NULL) == 0, "%s", on.out);
  CHECK_CONTAINS(on.out, "check:             0 of 112 sampled outputs off");
  CHECK_EQ_U64(summary_field(off.out, "prefetch"), 0);
  CHECK_EQ_U64(summary_field(off.out, "prefetched"), 0);
  CHECK_EQ_U64(summary_field(off.out, "ahead_calls"), 0);
  CHECK_MSG(!strstr(off.out, "| ahead "), "%s", off.out);
  CHECK_MSG(summary_field(off.out, "pipelines") >= 1, "%s", off.out);
  cli_result_free(&on);
  cli_result_free(&off);
}

/* --prefetch with --tiered (asked for: off by default there): the families are held from each weight's first call; a plan
 * found compiled (cached-only creates) runs at once, the others compile as tiers (their
 * calls on the quick form meanwhile) or, with no quick form (lavapipe's simt plans), as
 * prefetch entries whose calls wait; every call checked, as without it. */
static void prefetch_with_tiers(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--tiered", "--prefetch", "8", "--passes", "2");
  if (!ran_on_a_device(&r)) return;
  const long fam = summary_field(r.out, "prefetched"), cached = summary_field(r.out, "cached_plans");
  const long tiers = summary_field(r.out, "background_plans");
  CHECK_EQ_U64(summary_field(r.out, "tiered"), 1);
  CHECK_EQ_U64(summary_field(r.out, "prefetch"), 8);
  /* every family plan: found, a tier, or an entry compiled ahead (its pipelines counted) */
  CHECK_MSG(fam >= 1 && cached >= 0 && tiers >= 0 && cached + tiers <= fam &&
                (cached + tiers == fam || summary_field(r.out, "prefetch_pipelines") >= 1),
            "%ld family plans, %ld found, %ld tiers\n%s", fam, cached, tiers, r.out);
  CHECK_CONTAINS(r.out, "held from each weight's first call");
  CHECK_MSG(pass_line(r.out, 2, NULL) == 0, "%s", r.out);
  CHECK_CONTAINS(r.out, "check:             0 of 112 sampled outputs off");
  cli_result_free(&r);
}

/* Plan only, the h100 preset, the two LLM traces: every plan compiled ahead (no call
 * compiles), each prefetched plan but at most one taken by a call, and the estimated GPU
 * total no worse than with --prefetch off (every call's plan_ex choice among more held
 * plans). A family member is one a family length takes (spvgen_gemm_plan_family); a
 * trace's own lengths may take a held plan the estimates put within a few percent of it
 * instead (qwen2-7b's 77 x 18944 x 3584: 32x64x64 sk8 at 0.1655 ms against the member
 * 64x64x64 u1's 0.1675), so one per trace may go untaken. */
static void prefetch_plans_the_llm_traces(void) {
  if (!cli_binary()) return;
  static const char *const traces[] = {"bench/traces/qwen2-7b-prefill.txt", "bench/traces/llama3-8b-prefill.txt"};
  for (int t = 0; t < 2; t++) {
    char path[4096];
    if (!source_path(traces[t], path, sizeof path)) return;
    cli_result on = cli_run("bench", "trace", path, "--caps", "h100");
    cli_result off = cli_run("bench", "trace", path, "--caps", "h100", "--prefetch", "off");
    CHECK_MSG(on.ran && on.exited && on.code == 0, "%s", on.err);
    CHECK_MSG(off.ran && off.exited && off.code == 0, "%s", off.err);
    const long fetched = summary_field(on.out, "prefetched");
    long ahead = 0;
    for (const char *l = on.out; (l = strstr(l, "| ahead    |")) != NULL; l++) ahead++;
    CHECK_MSG(fetched >= 2 && ahead <= fetched && ahead >= fetched - 1, "%s: %ld prefetched, %ld taken\n%s", traces[t],
              fetched, ahead, on.out);
    CHECK_EQ_U64(summary_field(on.out, "pipelines"), 0);
    const double g_on = summary_double(on.out, "est_gpu_ms"), g_off = summary_double(off.out, "est_gpu_ms");
    CHECK_MSG(g_on > 0 && g_on <= g_off, "%s: est. %g ms with prefetch, %g without", traces[t], g_on, g_off);
    cli_result_free(&on);
    cli_result_free(&off);
  }
}

/* --clock off: no reading, and the line says why */
static void clock_off_reads_nothing(void) {
  if (!cli_binary()) return;
  char path[4096];
  if (!source_path("tests/data/trace-reuse.txt", path, sizeof path)) return;
  cli_result r = cli_run("bench", "trace", path, "--cold", "--clock", "off");
  if (!ran_on_a_device(&r)) return;
  CHECK_CONTAINS(r.out, "GPU clock:         not measured (--clock off)");
  CHECK_CONTAINS(r.out, " clock_mhz=na busy_clock_mhz=0 ");
  CHECK_MSG(!strstr(r.out, "clock reference:"), "%s", r.out);
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(reuse_creates_fewer_pipelines_on_the_device),
      TEST_CASE(reuse_plans_fewer_kernels_for_the_llm_traces),
      TEST_CASE(tiered_runs_the_trace),
      TEST_CASE(passes_run_the_calls_again),
      TEST_CASE(passes_count_slow_calls),
      TEST_CASE(passes_run_with_tiered),
      TEST_CASE(warm_up_runs_before_pass_one),
      TEST_CASE(bad_options_are_named),
      TEST_CASE(clock_off_reads_nothing),
      TEST_CASE(prefetch_compiles_each_weights_family_ahead),
      TEST_CASE(prefetch_plans_the_llm_traces),
      TEST_CASE(prefetch_with_tiers),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
