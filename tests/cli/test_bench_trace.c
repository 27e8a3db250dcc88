/* tests/cli/test_bench_trace.c — `spvgen bench trace` and its --reuse switch: the same
 * trace creates fewer pipelines with reuse on than off, on the test device (lavapipe in
 * CI: tests/data/trace-reuse.txt, every call's sample checked against the CPU) and, plan
 * only, for the h100 preset on the two LLM traces under bench/traces/; --tiered; and its
 * options' errors. */
#define _GNU_SOURCE
#include <stdlib.h>

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
  cli_result off = cli_run("bench", "trace", path, "--cold", "--reuse", "off");
  if (off.ran && off.exited && off.code == 77) {
    test_skip("no Vulkan device");
    cli_result_free(&off);
    return;
  }
  cli_result on = cli_run("bench", "trace", path, "--cold");
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
    cli_result off = cli_run("bench", "trace", path, "--caps", "h100", "--reuse", "off");
    cli_result on = cli_run("bench", "trace", path, "--caps", "h100", "--reuse", "on");
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
  if (r.ran && r.exited && r.code == 77) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_MSG(r.ran && r.exited && r.code == 0, "exit %d\n%s%s", r.code, r.out, r.err);
  CHECK_EQ_U64(summary_field(r.out, "tiered"), 1);
  const long plans = summary_field(r.out, "background_plans"), quick = summary_field(r.out, "quick_calls");
  CHECK_MSG(plans >= 0 && quick >= plans && quick <= summary_field(r.out, "calls"), "%ld plans, %ld quick calls\n%s",
            plans, quick, r.out);
  CHECK_CONTAINS(r.out, "check:             0 of 56 sampled outputs off");
  CHECK_CONTAINS(r.out, "tiered:            ");
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
  r = cli_run("bench", "trace", path, "--caps", "no-such-preset");
  CHECK(r.ran && r.exited && r.code != 0);
  CHECK_CONTAINS(r.err, "no-such-preset");
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(reuse_creates_fewer_pipelines_on_the_device),
      TEST_CASE(reuse_plans_fewer_kernels_for_the_llm_traces),
      TEST_CASE(tiered_runs_the_trace),
      TEST_CASE(bad_options_are_named),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
