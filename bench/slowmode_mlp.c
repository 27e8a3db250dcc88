/* bench/slowmode_mlp.c — the "slow mode" (issue 24 item 7) on a fused MLP: now and then a
 * process measures a kernel at a fraction of its speed for the whole run. Call S14-5
 * (bench/results/mlp-2026-11-27-s14.md) showed that the compiled binary is not the
 * trigger; this program asks what in a process is. The same plan is measured in many
 * trials, each after renewing one suspect:
 *   none      nothing renewed: the session's buffers, optimal weights and pipeline again
 *   buffers   a new session (tools/common/mlp_run.h): new input, output and weight
 *             buffers, the optimal layout converted again (memory placement)
 *   context   a new context (device, queue, pipeline cache) and a new session
 *   keep      a new session, the earlier ones kept open; after the last trial every
 *             session is measured again, in the order they were made ("again keep I"):
 *             a session that was slow and stays slow beside fast ones is slow for where
 *             its buffers are, not for when it ran
 * A trial is mlp_session_run: a sustained warm-up, --repeats timed dispatches (median),
 * and the check of --sample points against the float64 reference. A trial slower than
 * 1.6x the best trial of the run is "slow".
 *
 *   bench_slowmode_mlp [NETWORK FLAGS] [--points N] [--modes none,buffers,context,keep]
 *                      [--trials N] [--repeats N] [--warmup-ms MS] [--sample N]
 *
 * NETWORK FLAGS are `spvgen mlp`'s (--in, --hidden, --out, --act, --variant, --weights,
 * ...: the MLP template's own flag table, sg_template_mlp).
 *
 * Defaults: 32-64x3-16 silu, vec, optimal weights, 4,194,304 points (the network of S14-4),
 * modes none,buffers,context, 6 trials each. Output: one line per trial ("trial MODE I
 * MS ms G points/s ... at HH:MM:SS.mmm", the wall clock (UTC) when its timing ended: to
 * line up with a log of the GPU's clocks, e.g. nvidia-smi --query-gpu=timestamp,... -lms),
 * then a summary of the slow trials per mode. Results go to bench/results/. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlp_run.h"
#include "slow_trials.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"
#include "template.h"

typedef struct trial_env {
  spvgen_vk_context *ctx;
  mlp_session *session;
  spvgen_mlp_config plan;
  mlp_session **kept; /* mode keep: the earlier sessions, open */
  uint64_t kept_count;
} trial_env;

static void env_close_kept(trial_env *e) {
  for (uint64_t i = 0; i < e->kept_count; i++) mlp_session_close(e->kept[i]);
  free(e->kept);
  e->kept = NULL;
  e->kept_count = 0;
}

static void env_close(trial_env *e) {
  env_close_kept(e);
  mlp_session_close(e->session);
  e->session = NULL;
  spvgen_vk_destroy(e->ctx);
  e->ctx = NULL;
}

static spvgen_status env_session(trial_env *e, const mlp_run_options *o, char *msg, size_t size) {
  mlp_session_close(e->session);
  e->session = NULL;
  return mlp_session_open(e->ctx, &e->plan, o, &e->session, msg, size);
}

/* Mode keep: the current session joins the kept ones, and a new one opens. */
static spvgen_status env_keep_session(trial_env *e, const mlp_run_options *o, uint64_t trials, char *msg,
                                      size_t size) {
  if (e->session) {
    if (!e->kept && !(e->kept = calloc(trials, sizeof *e->kept))) {
      snprintf(msg, size, "out of host memory");
      return SPVGEN_ERROR_OUT_OF_MEMORY;
    }
    e->kept[e->kept_count++] = e->session;
    e->session = NULL;
  }
  return mlp_session_open(e->ctx, &e->plan, o, &e->session, msg, size);
}

/* The wall clock (UTC) as HH:MM:SS.mmm, in buf (32 bytes). */
static const char *wall_clock(char buf[32]) {
  struct timespec ts;
  struct tm tm;
  if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm)) return "?";
  snprintf(buf, 32, "%02d:%02d:%02d.%03d", tm.tm_hour % 24, tm.tm_min % 60, tm.tm_sec % 61,
           (int)(ts.tv_nsec / 1000000 % 1000));
  return buf;
}

static void print_trial(const char *what, const char *mode, uint64_t i, const mlp_run_result *r) {
  char compile[48] = "compile: the process's own pipeline", at[32];
  if (r->compile_ms >= 0) snprintf(compile, sizeof compile, "compile %.1f ms", r->compile_ms);
  printf("%s %s %llu %.3f ms %.3f G points/s; %s; check %s (%llu of %llu wrong) at %s\n", what, mode,
         (unsigned long long)i, r->median_ns / 1e6, r->points_per_s / 1e9, compile, r->bad ? "FAILED" : "ok",
         (unsigned long long)r->bad, (unsigned long long)r->checked, wall_clock(at));
  fflush(stdout);
}

static spvgen_status env_open(trial_env *e, const spvgen_mlp_desc *d, const mlp_run_options *o, char *msg,
                              size_t size) {
  env_close(e);
  spvgen_status st = spvgen_vk_create(NULL, &e->ctx, msg, size);
  if (st == SPVGEN_OK) st = spvgen_mlp_plan(d, spvgen_vk_caps(e->ctx), &e->plan, msg, size);
  if (st == SPVGEN_OK) st = env_session(e, o, msg, size);
  return st;
}

/* One network flag of `spvgen mlp` (sg_template_mlp's own table: --in, --hidden, --act,
 * --variant, --weights, ...) into d. Returns 1 (a switch) or 2 (a flag and its value)
 * arguments taken, 0 when arg is none of them, -1 on a bad value (why written). */
static int network_flag(spvgen_mlp_desc *d, const char *arg, const char *value, char *why, size_t size) {
  for (const sg_flag *f = sg_template_mlp.flags; f && f->name; f++) {
    if (!*f->name || strcmp(f->name, arg)) continue;
    if (!f->value) { /* a switch */
      if (f->parse) return f->parse(d, NULL, why, size) ? 1 : -1;
      *(bool *)((char *)d + f->offset) = true;
      return 1;
    }
    if (!value) return snprintf(why, size, "needs a value (%s)", f->value), -1;
    if (f->parse) return f->parse(d, value, why, size) ? 2 : -1;
    *(const char **)((char *)d + f->offset) = value;
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  /* the network of S14-4 unless the flags say otherwise */
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 32;
  d.hidden_width = 64;
  d.hidden_count = 3;
  d.output_width = 16;
  d.activation = SPVGEN_MLP_ACT_SILU;
  d.variant = SPVGEN_MLP_VEC;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  mlp_run_options o = {.seed = 7, .points = 4194304, .repeats = 20, .warmup = 2, .warmup_ms = 100, .sample = 1024};
  const char *modes = "none,buffers,context";
  uint64_t trials = 6;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char why[256] = "";
    int took = network_flag(&d, a, v, why, sizeof why);
    if (took == 0) {
      bool ok = v != NULL;
      if (!strcmp(a, "--points")) ok = ok && sg_parse_u64(v, false, 1, 0xFFFFFFFFull, &o.points);
      else if (!strcmp(a, "--modes")) modes = v;
      else if (!strcmp(a, "--trials")) ok = ok && sg_parse_u64(v, false, 1, 10000, &trials);
      else if (!strcmp(a, "--repeats")) ok = ok && sg_parse_u32(v, 1, 100000, &o.repeats);
      else if (!strcmp(a, "--warmup-ms")) ok = ok && sg_parse_u32(v, 0, 60000, &o.warmup_ms);
      else if (!strcmp(a, "--sample")) ok = ok && sg_parse_u64(v, false, 0, 0xFFFFFFFFull, &o.sample);
      else ok = false;
      took = ok ? 2 : -1;
    }
    if (took < 0) {
      fprintf(stderr, "bench_slowmode_mlp: bad argument '%s'%s%s%s%s (see the comment at the top of bench/slowmode_mlp.c)\n",
              a, v ? " " : "", v ? v : "", *why ? ": " : "", why);
      return 2;
    }
    i += took - 1;
  }
  char msg[1024] = "";
  trial_env e = {0};
  if (env_open(&e, &d, &o, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "bench_slowmode_mlp: %s\n", msg);
    env_close(&e);
    return 1;
  }
  printf("# %s, %s, %llu points; trials %llu, repeats %u, warm-up %u ms\n", spvgen_vk_caps(e.ctx)->name,
         e.plan.name, (unsigned long long)o.points, (unsigned long long)trials, o.repeats, o.warmup_ms);
  int rc = 0;
  char list[256];
  snprintf(list, sizeof list, "%s", modes);
  char *save = NULL; /* strtok_r: the Vulkan loader calls strtok itself */
  for (char *mode = strtok_r(list, ",", &save); mode && !rc; mode = strtok_r(NULL, ",", &save)) {
    if (strcmp(mode, "none") && strcmp(mode, "buffers") && strcmp(mode, "context") && strcmp(mode, "keep")) {
      fprintf(stderr, "bench_slowmode_mlp: unknown mode '%s' (none, buffers, context, keep)\n", mode);
      rc = 2;
      break;
    }
    double *t = calloc(trials, sizeof *t);
    if (!t) {
      rc = 1;
      break;
    }
    for (uint64_t i = 0; i < trials; i++) {
      spvgen_status st = SPVGEN_OK;
      if (!strcmp(mode, "buffers")) st = env_session(&e, &o, msg, sizeof msg);
      else if (!strcmp(mode, "context")) st = env_open(&e, &d, &o, msg, sizeof msg);
      else if (!strcmp(mode, "keep")) /* the session before this mode's first trial is not kept */
        st = i ? env_keep_session(&e, &o, trials, msg, sizeof msg) : env_session(&e, &o, msg, sizeof msg);
      mlp_run_result r;
      if (st == SPVGEN_OK) st = mlp_session_run(e.session, &e.plan, &r, msg, sizeof msg);
      if (st != SPVGEN_OK) {
        fprintf(stderr, "bench_slowmode_mlp: %s trial %llu: %s\n", mode, (unsigned long long)i, msg);
        rc = 1;
        break;
      }
      t[i] = r.median_ns;
      print_trial("trial", mode, i, &r);
      if (r.bad) rc = 1;
    }
    double best, worst;
    unsigned slow = slow_trials(mode, t, trials, &best, &worst);
    printf("summary %s: %llu trials, %u slow (> 1.6x the best), best %.3f ms, worst %.3f ms\n", mode,
           (unsigned long long)trials, slow, best / 1e6, worst / 1e6);
    if (!strcmp(mode, "keep") && !rc) {
      /* every session again, oldest first (the last one is e.session) */
      for (uint64_t i = 0; i <= e.kept_count && !rc; i++) {
        mlp_session *ks = i < e.kept_count ? e.kept[i] : e.session;
        mlp_run_result r;
        if (!ks) break;
        if (mlp_session_run(ks, &e.plan, &r, msg, sizeof msg) != SPVGEN_OK) {
          fprintf(stderr, "bench_slowmode_mlp: keep: session %llu again: %s\n", (unsigned long long)i, msg);
          rc = 1;
          break;
        }
        print_trial("again", mode, i, &r);
        if (r.bad) rc = 1;
      }
      env_close_kept(&e);
    }
    free(t);
  }
  env_close(&e);
  return rc;
}
