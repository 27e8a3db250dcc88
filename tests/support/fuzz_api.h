/* tests/support/fuzz_api.h — the builder-call interpreter behind the randomized API
 * tests (tests/core/test_fuzz_api.c, tests/coop/test_coop_fuzz.c) and the libFuzzer
 * target tests/fuzz/fuzz_builder.c: random streams, the trace of calls printed as C,
 * crash reports, the error-contract checker, the generator of valid call sequences
 * (valid_body: every call must succeed and the module must validate) and of
 * anything-goes ones (chaos_body: no crash, the first error sticks, its message names a
 * call). See tests/core/test_fuzz_api.c for what each checks.
 *
 * Every decision is drawn through fz_rng: from a seed (xorshift-style mixing), or, when
 * fz_rng.data is set, from those bytes first (4 bytes a decision; the seed's stream
 * after they run out), so that a coverage-guided fuzzer's mutations steer the calls.
 *
 * It is a header of static functions, included by one .c file per program, after
 * `#define _XOPEN_SOURCE 700` (sigaltstack) and before anything else. */
#ifndef SPVGEN_TEST_FUZZ_API_H
#define SPVGEN_TEST_FUZZ_API_H

#if defined(__GNUC__)
#define FZ_MAYBE_UNUSED __attribute__((unused))
#else
#define FZ_MAYBE_UNUSED
#endif

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* ====================================================================== random ==== */

typedef struct fz_rng {
  uint64_t s;
  const uint8_t *data; /* NULL, or bytes each decision takes first (libFuzzer) */
  size_t len, pos;
} fz_rng;

static uint64_t rng_next(fz_rng *r) {
  if (r->data && r->pos < r->len) {
    uint64_t v = 0;
    for (int i = 0; i < 4 && r->pos < r->len; i++) v |= (uint64_t)r->data[r->pos++] << (8 * i);
    return v;
  }
  return test_splitmix64(&r->s);
}
/* Uniform in [0, n); 0 when n is 0. */
static uint32_t below(fz_rng *r, uint32_t n) { return n ? (uint32_t)(rng_next(r) % n) : 0; }
static bool chance(fz_rng *r, uint32_t percent) { return below(r, 100) < percent; }

/* ================================================================ environment ==== */

static uint64_t env_u64(const char *name, uint64_t fallback, bool *given) {
  const char *s = getenv(name);
  if (given) *given = false;
  if (!s || !*s) return fallback;
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 0);
  if (end == s) return fallback;
  if (given) *given = true;
  return (uint64_t)v;
}

static bool under_sanitizer(void);

/* Sequences per test: SPVGEN_FUZZ_ITERATIONS, or the test's default, a third of it under
 * a sanitizer (which makes the validator's allocations slow) so that the binary stays
 * within a few seconds there too. */
static uint32_t fuzz_iterations(uint32_t fallback) {
  bool given;
  uint64_t n = env_u64("SPVGEN_FUZZ_ITERATIONS", 0, &given);
  if (!given) return under_sanitizer() ? (fallback + 2) / 3 : fallback;
  return n ? (uint32_t)(n > 100000000u ? 100000000u : n) : 1;
}

static bool fuzz_trace_all(void) {
  const char *s = getenv("SPVGEN_FUZZ_TRACE");
  return s && *s && strcmp(s, "0") != 0;
}

/* The seed of sequence i of the running test. */
static uint64_t sequence_seed(uint32_t i) {
  uint64_t h = 1469598103934665603ull;
  for (const char *p = test_current_name; p && *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
  return test_mix64(test_rand_seed() ^ test_mix64(h + 0x632BE59BD9B4E019ull * (i + 1)));
}

/* ======================================================= the trace of calls ==== */

/* The calls of the running sequence, one C statement per line. */
static struct {
  char *text;
  size_t len, cap;
} g_trace;
static bool g_trace_enabled = true;

static void trace_reset(void) { g_trace.len = 0; if (g_trace.text) g_trace.text[0] = 0; }

static void trace_vadd(const char *fmt, va_list ap) {
  if (!g_trace_enabled) return;
  for (;;) {
    size_t room = g_trace.cap - g_trace.len;
    va_list cp;
    va_copy(cp, ap);
    int n = g_trace.text ? vsnprintf(g_trace.text + g_trace.len, room, fmt, cp) : -1;
    va_end(cp);
    if (n >= 0 && (size_t)n + 2 < room) {
      g_trace.len += (size_t)n;
      g_trace.text[g_trace.len++] = '\n';
      g_trace.text[g_trace.len] = 0;
      return;
    }
    size_t cap = g_trace.cap ? g_trace.cap * 2 : 1 << 16;
    char *t = realloc(g_trace.text, cap);
    if (!t) return;
    g_trace.text = t;
    g_trace.cap = cap;
  }
}

static void trace(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void trace(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  trace_vadd(fmt, ap);
  va_end(ap);
}

/* Appends " /" "* id *" "/" to the last line (the id the call returned). */
static void trace_result(uint32_t id) {
  if (!g_trace_enabled || !g_trace.len || g_trace.text[g_trace.len - 1] != '\n') return;
  g_trace.len--;
  trace(" /* %u */", id);
}

/* Prints the trace (the last `max_lines` lines) through write(2): usable while dying. */
static void write_all(const char *s, size_t n) {
  while (n) {
    ssize_t w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void trace_print(size_t max_lines) {
  if (!g_trace.text || !g_trace.len) return;
  size_t start = g_trace.len, lines = 0;
  while (start > 0 && lines <= max_lines) {
    start--;
    if (g_trace.text[start] == '\n' && start + 1 < g_trace.len) lines++;
  }
  if (lines > max_lines) {
    start++;
    write_all("    ... (earlier calls left out)\n", 33);
  }
  const char *p = g_trace.text + start, *end = g_trace.text + g_trace.len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
    write_all("    ", 4);
    write_all(p, n);
    p += n;
  }
}

/* Array arguments as C: "(const uint32_t[]){1, 2}" or "NULL". Rotating buffers so that
 * one trace line can hold several. */
static const char *carr(const uint32_t *a, uint32_t n) {
  static char bufs[4][700];
  static int which = 0;
  char *b = bufs[which = (which + 1) & 3];
  const size_t cap = sizeof bufs[0];
  if (!a) return "NULL";
  size_t len = (size_t)snprintf(b, cap, "(const uint32_t[]){%s", n ? "" : "0");
  for (uint32_t i = 0; i < n; i++) {
    if (len + 40 > cap) { /* room for the note and the brace stays */
      len += (size_t)snprintf(b + len, cap - len, " /* and %u more */", n - i);
      break;
    }
    len += (size_t)snprintf(b + len, cap - len, "%s%u", i ? ", " : "", a[i]);
  }
  snprintf(b + len, cap - len, "}");
  return b;
}

/* Arguments as ", 1, 2, 3". */
static const char *cargs(const uint32_t *a, uint32_t n) {
  static char buf[200];
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < n && len + 14 < sizeof buf; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, ", %u", a[i]);
  return buf;
}

/* A string argument as a C literal (NULL, or escaped; long strings abbreviated as a
 * comment, which a reproduction then has to fill in). */
static const char *cstr(const char *s) {
  static char bufs[2][400];
  static int which = 0;
  char *b = bufs[which = (which + 1) & 1];
  if (!s) return "NULL";
  size_t n = strlen(s);
  if (n > 120) {
    snprintf(b, sizeof bufs[0], "long_name /* %zu chars */", n);
    return b;
  }
  size_t j = 0;
  b[j++] = '"';
  for (size_t i = 0; i < n && j + 6 < sizeof bufs[0]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      b[j++] = '\\';
      b[j++] = (char)c;
    } else if (c < 32 || c > 126) {
      j += (size_t)snprintf(b + j, sizeof bufs[0] - j, "\\%03o", c);
    } else {
      b[j++] = (char)c;
    }
  }
  b[j++] = '"';
  b[j] = 0;
  return b;
}

/* ============================================================ crash reports ==== */

/* What a crash report names: set before each sequence. */
static char g_crash_note[256];

static void crash_report(void) {
  write_all("\n*** fuzz: the process is dying inside ", 39);
  write_all(g_crash_note, strlen(g_crash_note));
  write_all("\n*** the calls of this sequence so far (the last one crashed):\n", 63);
  trace_print(400);
}

/* Sanitizer runtimes (ASan, UBSan) call this before they exit; absent otherwise. */
extern void __sanitizer_set_death_callback(void (*callback)(void))
#if defined(__GNUC__)
    __attribute__((weak))
#endif
    ;

static bool under_sanitizer(void) { return __sanitizer_set_death_callback != NULL; }

static void on_fatal_signal(int sig) {
  crash_report();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_crash_report(void) {
  static bool done = false;
  if (done) return;
  done = true;
  if (__sanitizer_set_death_callback) {
    __sanitizer_set_death_callback(crash_report); /* the sanitizer keeps its own handlers */
    return;
  }
  /* Without a sanitizer: our own handlers, on an alternate stack so that a stack
   * overflow (runaway recursion) still gets its report. */
  static char alt[1 << 16];
  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt;
  ss.ss_size = sizeof alt;
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

/* ============================================== the error-contract checker ==== */

enum { P_TYPE, P_VALUE, P_PTR, P_LABEL, P_FUNC, P_RESERVED, P_CONST, P_OTHER, P_COUNT };
#define POOL_SIZE 64

typedef struct fz {
  fz_rng r;
  uint64_t seed;
  const char *mode;
  spvgen_module *m;
  bool stop;            /* this sequence failed: stop checking it */
  /* the contract */
  bool errored;
  spvgen_status first_status;
  char first_msg[600];
  uint32_t bound_at_error;
  bool finished;        /* finish returned OK and nothing was reset since */
  const uint32_t *words; /* the finished words, while they must stay valid */
  uint32_t *words_copy;
  size_t nwords;
  /* ids the module handed out, by what they are */
  uint32_t pool[P_COUNT][POOL_SIZE];
  uint32_t pool_n[P_COUNT], pool_next[P_COUNT];
} fz;

static int g_failed_sequences = 0;

static void fz_fail_at(fz *z, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void fz_fail_at(fz *z, int line, const char *fmt, ...) {
  if (z->stop) return;
  char msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  test_fail_at(__FILE__, line, "%s sequence, seed 0x%016llx: %s", z->mode,
               (unsigned long long)z->seed, msg);
  fprintf(stderr, "  rerun it alone: SPVGEN_FUZZ_SEQUENCE=0x%016llx <this binary> %s\n"
                  "  its calls (m is the module):\n",
          (unsigned long long)z->seed, test_current_name);
  fflush(stderr);
  trace_print(400);
  z->stop = true;
  g_failed_sequences++;
}
#define FZ_CHECK(z, cond, ...)                                  \
  do {                                                          \
    if (!(cond)) fz_fail_at((z), __LINE__, __VA_ARGS__);        \
  } while (0)

static void pool_add(fz *z, int pool, uint32_t id) {
  if (!id) return;
  uint32_t *n = &z->pool_n[pool], *next = &z->pool_next[pool];
  z->pool[pool][*next] = id;
  *next = (*next + 1) % POOL_SIZE;
  if (*n < POOL_SIZE) (*n)++;
}

static void pools_clear(fz *z) {
  memset(z->pool_n, 0, sizeof z->pool_n);
  memset(z->pool_next, 0, sizeof z->pool_next);
}

static void forget_words(fz *z) {
  free(z->words_copy);
  z->words_copy = NULL;
  z->words = NULL;
  z->nwords = 0;
}

/* The state the contract starts from: a new or reset module. */
static void fz_restart(fz *z) {
  z->errored = false;
  z->finished = false;
  forget_words(z);
  pools_clear(z);
}

enum { EMITS = 1, ID = 2 };

/* After every call on z->m. `flags`: EMITS for calls that add to the module (an error
 * after finish), ID for calls that return an id (0 exactly when they failed or the
 * module was already failed). */
static void fz_after(fz *z, const char *call, int flags, uint32_t id) {
  if (z->stop) return;
  spvgen_module *m = z->m;
  spvgen_status st = spvgen_module_status(m);
  const char *msg = spvgen_module_error(m);
  if (z->words) /* finished words stay valid and unchanged until reset */
    FZ_CHECK(z, !memcmp(z->words, z->words_copy, z->nwords * sizeof *z->words),
             "%s changed the words an earlier spvgen_module_finish returned", call);
  if (z->errored) {
    FZ_CHECK(z, st == z->first_status, "%s changed the sticky status from %s to %s", call,
             spvgen_status_name(z->first_status), spvgen_status_name(st));
    FZ_CHECK(z, msg && !strcmp(msg, z->first_msg),
             "%s changed the sticky message\n  from: %s\n  to:   %s", call, z->first_msg,
             msg ? msg : "(null)");
    FZ_CHECK(z, spvgen_module_bound(m) == z->bound_at_error,
             "%s allocated ids after the module failed (bound %u -> %u)", call,
             z->bound_at_error, spvgen_module_bound(m));
    if (flags & ID)
      FZ_CHECK(z, id == 0, "%s returned id %u on a failed module (%s: %s)", call, id,
               spvgen_status_name(st), msg);
    return;
  }
  if (st == SPVGEN_OK) {
    FZ_CHECK(z, msg && !msg[0], "status OK after %s but the error message is \"%s\"", call,
             msg ? msg : "(null)");
    if (flags & ID)
      FZ_CHECK(z, id != 0 && id < spvgen_module_bound(m),
               "%s succeeded but returned id %u (bound %u)", call, id, spvgen_module_bound(m));
    if (z->finished && (flags & EMITS))
      FZ_CHECK(z, false, "%s after spvgen_module_finish recorded no error", call);
    return;
  }
  /* The first error: it names the call. */
  z->errored = true;
  z->first_status = st;
  z->bound_at_error = spvgen_module_bound(m);
  snprintf(z->first_msg, sizeof z->first_msg, "%s", msg ? msg : "");
  FZ_CHECK(z, msg && msg[0], "%s failed (%s) with an empty message", call, spvgen_status_name(st));
  FZ_CHECK(z, msg && !strncmp(msg, "spvgen_", 7) && strstr(msg, ": "),
           "%s failed (%s) with a message that does not start with the name of a call "
           "(\"spvgen_...: \"): \"%s\"", call, spvgen_status_name(st), msg ? msg : "(null)");
  if (flags & ID)
    FZ_CHECK(z, id == 0, "%s failed (%s: %s) but returned id %u", call, spvgen_status_name(st),
             msg, id);
  if (z->finished && (flags & EMITS))
    FZ_CHECK(z, st == SPVGEN_ERROR_INVALID_STATE && strstr(msg, "finished"),
             "%s after finish: expected SPVGEN_ERROR_INVALID_STATE naming the finished module, "
             "got %s: %s", call, spvgen_status_name(st), msg);
}

/* Calls with a logged line and the contract check. fmt/args describe the arguments after
 * `m`; for none, pass "%s", "". */
#define FZ_ID(z, pool_kind, fn, args, fmt, ...)                                   \
  fz_id_result((z), (pool_kind), #fn,                                             \
               (trace(#fn "(m" fmt ");", __VA_ARGS__), fn args))
#define FZ_VOID(z, fn, args, fmt, ...)                                            \
  do {                                                                            \
    trace(#fn "(m" fmt ");", __VA_ARGS__);                                        \
    fn args;                                                                      \
    fz_after((z), #fn, EMITS, 0);                                                 \
  } while (0)

static uint32_t fz_id_result(fz *z, int pool_kind, const char *call, uint32_t id) {
  trace_result(id);
  fz_after(z, call, EMITS | ID, id);
  if (id && !z->errored) pool_add(z, pool_kind, id);
  return id;
}

/* spvgen_module_finish with its contract. Returns true when it gave words. */
static bool fz_finish(fz *z, const uint32_t **out, size_t *out_n) {
  const uint32_t *w = (const uint32_t *)(uintptr_t)1;
  size_t n = 12345;
  bool was_errored = z->errored, was_finished = z->finished;
  spvgen_status before = spvgen_module_status(z->m);
  uint32_t bound = spvgen_module_bound(z->m);
  trace("spvgen_module_finish(m, &words, &count);");
  spvgen_status st = spvgen_module_finish(z->m, &w, &n);
  trace_result((uint32_t)st);
  if (z->stop) return false;
  if (was_errored) {
    FZ_CHECK(z, st == before, "spvgen_module_finish returned %s, the sticky status is %s",
             spvgen_status_name(st), spvgen_status_name(before));
    FZ_CHECK(z, !w && !n, "spvgen_module_finish on a failed module gave words (%p, %zu)",
             (const void *)w, n);
    fz_after(z, "spvgen_module_finish", 0, 0);
    return false;
  }
  if (st != SPVGEN_OK) {
    FZ_CHECK(z, st == spvgen_module_status(z->m),
             "spvgen_module_finish returned %s but the module's status is %s",
             spvgen_status_name(st), spvgen_status_name(spvgen_module_status(z->m)));
    FZ_CHECK(z, !w && !n, "a failed spvgen_module_finish gave words (%p, %zu)", (const void *)w, n);
    fz_after(z, "spvgen_module_finish", 0, 0);
    return false;
  }
  fz_after(z, "spvgen_module_finish", 0, 0);
  FZ_CHECK(z, w && n >= 5 && w[0] == 0x07230203u && w[3] == bound,
           "spvgen_module_finish gave a bad header (%zu words, magic 0x%08x, bound %u vs %u)", n,
           w ? w[0] : 0, w && n >= 5 ? w[3] : 0, bound);
  if (was_finished && z->words)
    FZ_CHECK(z, n == z->nwords && !memcmp(w, z->words_copy, n * sizeof *w),
             "a second spvgen_module_finish gave other words");
  /* A finished module can be read back: whatever the calls were, the words decode (valid
   * or not). Only the documented exception is left out: the bfloat16 and float8
   * capabilities (SPIRV-Headers 1.4.309 has them, SPIRV-Tools 2025.1 does not know them:
   * its disassembler refuses each of Float8EXT 4212, Float8CooperativeMatrixEXT 4213,
   * BFloat16TypeKHR 5116, BFloat16DotProductKHR 5117, BFloat16CooperativeMatrixKHR 5118). */
  static const uint32_t unknown_to_tools[] = {4212, 4213, 5116, 5117, 5118};
  bool decodable = true;
  for (size_t i = 0; i < sizeof unknown_to_tools / sizeof unknown_to_tools[0]; i++)
    if (spvgen_has_capability(z->m, (SpvCapability)unknown_to_tools[i])) decodable = false;
  if (!was_finished && decodable) {
    char *text = NULL;
    static char dis_message[1024];
    spvgen_status ds = spvgen_disassemble(w, n, 0, &text, dis_message, sizeof dis_message);
    FZ_CHECK(z, ds == SPVGEN_OK, "spvgen_module_finish succeeded but the words do not decode: %s",
             dis_message);
    spvgen_free_text(text);
  }
  if (!z->words || z->words != w) {
    forget_words(z);
    z->words_copy = malloc(n * sizeof *w);
    if (z->words_copy) {
      memcpy(z->words_copy, w, n * sizeof *w);
      z->words = w;
      z->nwords = n;
    }
  }
  z->finished = true;
  if (out) *out = w;
  if (out_n) *out_n = n;
  return !z->stop;
}

static void fz_reset(fz *z, const spvgen_module_desc *desc) {
  if (desc)
    trace("spvgen_module_reset(m, &(spvgen_module_desc){.version = 0x%x, .addressing = %u, "
          ".memory_model = %u, .generator = %u, .no_memory_model = %d});",
          desc->version, desc->addressing, desc->memory_model, desc->generator,
          desc->no_memory_model);
  else
    trace("spvgen_module_reset(m, NULL);");
  spvgen_module_reset(z->m, desc);
  fz_restart(z);
  fz_after(z, "spvgen_module_reset", 0, 0);
}

/* Queries: never change the module. */
static void fz_queries(fz *z, uint32_t id) {
  spvgen_module *m = z->m;
  spvgen_status st = spvgen_module_status(m);
  uint32_t bound = spvgen_module_bound(m);
  trace("/* queries on id %u */", id);
  uint32_t out[8];
  uint64_t bits;
  {
    volatile uint32_t sink = 0;
    sink += spvgen_type_of(m, id);
    sink += spvgen_is_type(m, id);
    sink += spvgen_type_size(m, id);
    sink += spvgen_type_element(m, id);
    sink += spvgen_type_opcode(m, id);
    sink += spvgen_type_operands(m, id, out, below(&z->r, 9));
    sink += spvgen_type_operands(m, id, NULL, 8);
    sink += spvgen_const_value(m, id, chance(&z->r, 50) ? &bits : NULL);
    sink += spvgen_has_capability(m, (SpvCapability)below(&z->r, 7000));
    sink += spvgen_has_extension(m, chance(&z->r, 10) ? NULL : "SPV_KHR_16bit_storage");
    sink += spvgen_module_version(m) + spvgen_module_min_version(m) + spvgen_current_block(m);
    sink += spvgen_block_open(m) + spvgen_loop_header(m) + spvgen_loop_continue_target(m) +
            spvgen_loop_merge(m);
    (void)sink;
  }
  fz_after(z, "a query", 0, 0);
  FZ_CHECK(z, spvgen_module_status(m) == st && spvgen_module_bound(m) == bound,
           "a query on id %u changed the module", id);
}

/* ============================================================ valid sequences ==== */
/* A generator that mirrors what the module holds (types, values in scope, variables,
 * functions, open constructs, reachability) and only makes choices that the API
 * documents as valid and that SPIR-V's rules allow: values are used only where their
 * definition dominates (inside the construct that made them; only constants in
 * unreachable code), break/continue only in a loop's body, nothing ends a continue
 * construct early, calls form no cycle, every planned function gets defined. */

enum { K_BOOL, K_UINT, K_SINT, K_FLOAT };
#define T_VOID 0xFFu
#define VG_TYPES 48
#define VG_VALS 160
#define VG_CONSTS 160
#define VG_VARS 24
#define VG_AGGS 12
#define VG_FNS 10
#define VG_DEPTH 6

typedef struct vg_type {
  uint32_t id;
  uint8_t kind, width, count; /* count 1: a scalar */
} vg_type;

typedef struct vg_val {
  uint32_t id;
  uint8_t t;
} vg_val;

/* A pointer to a scalar or vector: a variable. access: 0 read-write, 1 read-only,
 * 2 an Input builtin. */
typedef struct vg_var {
  uint32_t id;
  uint8_t t, access;
} vg_var;

/* A variable reached through an access chain. */
enum { AG_SSBO, AG_SSBO_OF_ARRAYS, AG_ARRAY, AG_STRUCT };
typedef struct vg_agg {
  uint32_t var, storage;
  uint8_t kind, t;      /* t: the element type (for structs, members[]) */
  uint8_t members[4];
  uint32_t n;           /* array length (a plain constant) or member count; 0: a spec constant */
  uint32_t inner;       /* AG_SSBO_OF_ARRAYS: the length of each element array */
  bool readonly, restrict_or_aliased;
} vg_agg;

typedef struct vg_fn {
  uint32_t id;
  uint8_t ret, params[4];
  uint32_t np;
  bool defined, entry;
} vg_fn;

enum { PH_THEN, PH_ELSE, PH_COND, PH_BODY, PH_CONT };
typedef struct vg_frame {
  uint8_t kind; /* 1 if, 2 loop */
  uint8_t phase;
  bool has_else, entry_reach, exit_reach, cont_reach;
  uint32_t mark, body_mark; /* value counts at the construct's start / the loop body's */
  bool phi;
  uint8_t phi_t;
  uint32_t header_value, header_label;
  uint32_t pairs[4], npairs;
} vg_frame;

typedef struct vg {
  fz *z;
  spvgen_module *m;
  fz_rng *r;
  uint32_t version, memory_model;
  vg_type types[VG_TYPES];
  uint32_t ntypes;
  vg_val consts[VG_CONSTS];
  uint32_t nconsts;
  vg_val vals[VG_VALS]; /* values of the current function that dominate this point */
  uint32_t nvals;
  vg_var gvars[VG_VARS], fvars[VG_VARS];
  uint32_t ngvars, nfvars;
  vg_agg gaggs[VG_AGGS], faggs[VG_AGGS];
  uint32_t ngaggs, nfaggs;
  vg_fn fns[VG_FNS];
  uint32_t nfns;
  int cur; /* the function being defined, -1 none */
  bool in_fn, block_open, reach;
  vg_frame cf[VG_DEPTH];
  uint32_t ncf;
  uint32_t next_spec_id, next_binding, entries;
  uint32_t builtins_used; /* bit per builtin kind */
  uint32_t last_float_arith;
  uint32_t relaxed[32], nrelaxed; /* ids decorated RelaxedPrecision (once each) */
} vg;

#define M_ (g->m)
#define VID(pool, fn, args, fmt, ...) FZ_ID(g->z, pool, fn, args, fmt, __VA_ARGS__)
#define VVOID(fn, args, fmt, ...) FZ_VOID(g->z, fn, args, fmt, __VA_ARGS__)

static bool vg_ok(const vg *g) { return !g->z->stop && !g->z->errored; }

/* ---------------------------------------------------------------- types ---- */

static uint32_t tid(const vg *g, uint8_t t) { return g->types[t].id; }

static uint8_t vg_type_of(vg *g, uint8_t kind, uint8_t width, uint8_t count) {
  for (uint32_t i = 0; i < g->ntypes; i++) {
    const vg_type *t = &g->types[i];
    if (t->kind == kind && t->width == width && t->count == count) {
      if (chance(g->r, 3)) { /* ask again: types are deduplicated */
        uint32_t again = 0;
        if (count > 1)
          again = VID(P_TYPE, spvgen_type_vector, (M_, tid(g, vg_type_of(g, kind, width, 1)), count),
                      ", %u, %u", tid(g, vg_type_of(g, kind, width, 1)), count);
        else if (kind == K_BOOL)
          again = VID(P_TYPE, spvgen_type_bool, (M_), "%s", "");
        else if (kind == K_FLOAT)
          again = VID(P_TYPE, spvgen_type_float, (M_, width), ", %u", width);
        else
          again = VID(P_TYPE, spvgen_type_int, (M_, width, kind == K_SINT), ", %u, %d", width,
                      kind == K_SINT);
        FZ_CHECK(g->z, again == t->id || !vg_ok(g), "asking again for type %u gave %u", t->id, again);
      }
      return (uint8_t)i;
    }
  }
  uint32_t id;
  if (count > 1) {
    uint32_t c = tid(g, vg_type_of(g, kind, width, 1));
    id = VID(P_TYPE, spvgen_type_vector, (M_, c, count), ", %u, %u", c, count);
  } else if (kind == K_BOOL) {
    id = VID(P_TYPE, spvgen_type_bool, (M_), "%s", "");
  } else if (kind == K_FLOAT) {
    id = VID(P_TYPE, spvgen_type_float, (M_, width), ", %u", width);
  } else {
    id = VID(P_TYPE, spvgen_type_int, (M_, width, kind == K_SINT), ", %u, %d", width, kind == K_SINT);
  }
  if (g->ntypes == VG_TYPES) return 0; /* cannot happen: 48 kinds in all */
  g->types[g->ntypes] = (vg_type){id, kind, width, count};
  if (vg_ok(g)) {
    FZ_CHECK(g->z, spvgen_is_type(M_, id), "type %u: spvgen_is_type says no", id);
    uint32_t size = kind == K_BOOL ? 0 : (uint32_t)width / 8 * count;
    FZ_CHECK(g->z, spvgen_type_size(M_, id) == size, "spvgen_type_size(%u) is %u, not %u", id,
             spvgen_type_size(M_, id), size);
  }
  return (uint8_t)g->ntypes++;
}

static uint8_t pick_width(vg *g, uint8_t kind) {
  if (kind == K_BOOL) return 1;
  uint32_t x = below(g->r, 100);
  if (x < 60) return 32;
  if (kind == K_FLOAT) return x < 80 ? 16 : 64;
  return x < 73 ? 8 : x < 86 ? 16 : 64;
}

/* A random type; numeric: no bool. Half the time one that exists already. */
static uint8_t rand_type(vg *g, bool numeric, bool vectors) {
  if (g->ntypes && chance(g->r, 50)) {
    for (int tries = 0; tries < 6; tries++) {
      uint8_t t = (uint8_t)below(g->r, g->ntypes);
      if ((!numeric || g->types[t].kind != K_BOOL) && (vectors || g->types[t].count == 1)) return t;
    }
  }
  uint32_t x = below(g->r, 100);
  uint8_t kind = x < 32 ? K_UINT : x < 57 ? K_SINT : x < 87 ? K_FLOAT : K_BOOL;
  if (numeric && kind == K_BOOL) kind = K_UINT;
  uint8_t count = vectors && chance(g->r, 35) ? (uint8_t)(2 + below(g->r, 3)) : 1;
  return vg_type_of(g, kind, pick_width(g, kind), count);
}

static uint8_t scalar_of(vg *g, uint8_t t) {
  const vg_type *ty = &g->types[t];
  return vg_type_of(g, ty->kind, ty->width, 1);
}

static uint8_t bool_like(vg *g, uint8_t t) { return vg_type_of(g, K_BOOL, 1, g->types[t].count); }

static uint32_t ptr_type(vg *g, SpvStorageClass sc, uint32_t pointee) {
  return VID(P_TYPE, spvgen_type_pointer, (M_, sc, pointee), ", %u, %u", (uint32_t)sc, pointee);
}

/* ------------------------------------------------------------ constants ---- */

static void add_const(vg *g, uint32_t id, uint8_t t) {
  if (!id) return;
  if (g->nconsts < VG_CONSTS)
    g->consts[g->nconsts++] = (vg_val){id, t};
  else
    g->consts[below(g->r, VG_CONSTS)] = (vg_val){id, t};
}

static uint64_t rand_bits(vg *g, uint32_t width, uint8_t kind) {
  static const uint32_t f32s[] = {0x00000000u, 0x3F800000u, 0xBF800000u, 0x40490FDBu,
                                  0x7F800000u, 0x7FC00000u, 0x00000001u, 0x80000000u};
  uint64_t v = rng_next(g->r);
  if (kind == K_FLOAT && width == 32 && chance(g->r, 50)) return f32s[below(g->r, 8)];
  if (chance(g->r, 50)) v &= 0xF;
  return width >= 64 ? v : v & ((1ull << width) - 1);
}

static uint32_t const_of(vg *g, uint8_t t) {
  const vg_type ty = g->types[t];
  uint32_t id;
  if (chance(g->r, 6)) {
    id = VID(P_CONST, spvgen_const_null, (M_, ty.id), ", %u", ty.id);
  } else if (ty.count > 1) {
    uint32_t parts[4];
    uint8_t s = scalar_of(g, t);
    for (uint32_t i = 0; i < ty.count; i++) parts[i] = const_of(g, s);
    id = VID(P_CONST, spvgen_const_composite, (M_, ty.id, parts, ty.count), ", %u, %s, %u", ty.id,
             carr(parts, ty.count), ty.count);
  } else if (ty.kind == K_BOOL) {
    bool b = chance(g->r, 50);
    id = VID(P_CONST, spvgen_const_bool, (M_, b), ", %d", b);
    uint64_t v = 9;
    if (vg_ok(g))
      FZ_CHECK(g->z, spvgen_const_value(M_, id, &v) && v == (uint64_t)b,
               "spvgen_const_value(%u) is not %d", id, b);
  } else if (ty.kind == K_UINT && ty.width == 32 && chance(g->r, 70)) {
    uint32_t v = (uint32_t)rand_bits(g, 32, K_UINT);
    id = VID(P_CONST, spvgen_const_u32, (M_, v), ", %u", v);
    uint64_t got = 0;
    if (vg_ok(g))
      FZ_CHECK(g->z, spvgen_const_value(M_, id, &got) && got == v,
               "spvgen_const_value(%u) is %llu, not %u", id, (unsigned long long)got, v);
  } else if (ty.kind == K_SINT && ty.width == 32 && chance(g->r, 70)) {
    int32_t v = (int32_t)(uint32_t)rand_bits(g, 32, K_SINT);
    id = VID(P_CONST, spvgen_const_i32, (M_, v), ", %d", v);
  } else if (ty.kind == K_FLOAT && ty.width == 32 && chance(g->r, 60)) {
    static const float fs[] = {0.0f, 1.0f, -2.5f, 0.125f, 1e10f, -0.0f};
    float v = fs[below(g->r, 6)];
    id = VID(P_CONST, spvgen_const_f32, (M_, v), ", (float)%.9g", (double)v);
  } else {
    uint64_t bits = rand_bits(g, ty.width, ty.kind);
    id = VID(P_CONST, spvgen_const_bits, (M_, ty.id, bits), ", %u, 0x%llxull", ty.id,
             (unsigned long long)bits);
  }
  if (vg_ok(g))
    FZ_CHECK(g->z, spvgen_type_of(M_, id) == ty.id, "constant %u has type %u, not %u", id,
             spvgen_type_of(M_, id), ty.id);
  add_const(g, id, t);
  return id;
}

static uint32_t spec_const_of(vg *g, uint8_t t) {
  const vg_type ty = g->types[t];
  uint32_t spec = g->next_spec_id;
  g->next_spec_id += 1 + below(g->r, 3);
  uint32_t id;
  if (ty.kind == K_BOOL) {
    bool b = chance(g->r, 50);
    id = VID(P_CONST, spvgen_spec_const_bool, (M_, b, spec), ", %d, %u", b, spec);
  } else if (ty.kind == K_UINT && ty.width == 32 && chance(g->r, 50)) {
    uint32_t v = 1 + below(g->r, 16);
    id = VID(P_CONST, spvgen_spec_const_u32, (M_, v, spec), ", %u, %u", v, spec);
  } else {
    uint64_t bits = rand_bits(g, ty.width, ty.kind);
    id = VID(P_CONST, spvgen_spec_const_bits, (M_, ty.id, bits, spec), ", %u, 0x%llxull, %u", ty.id,
             (unsigned long long)bits, spec);
  }
  add_const(g, id, t);
  return id;
}

/* ---------------------------------------------------------------- values ---- */

static void add_val(vg *g, uint32_t id, uint8_t t) {
  if (!id || !g->in_fn || !g->reach || g->nvals == VG_VALS) return;
  g->vals[g->nvals++] = (vg_val){id, t};
}

/* A value of type t usable here: one in scope, an existing constant or a new one. */
static uint32_t pick_value(vg *g, uint8_t t) {
  if (g->in_fn && g->reach && chance(g->r, 75)) {
    uint32_t c[VG_VALS], n = 0;
    for (uint32_t i = 0; i < g->nvals; i++)
      if (g->vals[i].t == t) c[n++] = g->vals[i].id;
    if (n) return c[below(g->r, n)];
  }
  if (chance(g->r, 60)) {
    uint32_t c[VG_CONSTS], n = 0;
    for (uint32_t i = 0; i < g->nconsts; i++)
      if (g->consts[i].t == t) c[n++] = g->consts[i].id;
    if (n) return c[below(g->r, n)];
  }
  return const_of(g, t);
}

/* A constant of type t (initializers of module-scope variables). */
static uint32_t pick_const(vg *g, uint8_t t) {
  uint32_t c[VG_CONSTS], n = 0;
  for (uint32_t i = 0; i < g->nconsts; i++)
    if (g->consts[i].t == t) c[n++] = g->consts[i].id;
  return n && chance(g->r, 60) ? c[below(g->r, n)] : const_of(g, t);
}

/* A type some value in scope has (or a random one). */
static uint8_t type_in_use(vg *g, bool numeric, bool vectors) {
  if (g->nvals && chance(g->r, 70)) {
    for (int tries = 0; tries < 4; tries++) {
      uint8_t t = g->vals[below(g->r, g->nvals)].t;
      if ((!numeric || g->types[t].kind != K_BOOL) && (vectors || g->types[t].count == 1)) return t;
    }
  }
  return rand_type(g, numeric, vectors);
}

/* ------------------------------------------------------------- arithmetic ---- */

typedef uint32_t (*emit2_fn)(spvgen_module *, uint32_t, uint32_t, uint32_t);
typedef uint32_t (*emit1_fn)(spvgen_module *, uint32_t, uint32_t);
typedef struct named2 {
  const char *name;
  emit2_fn fn;
  SpvOp op;
} named2;
typedef struct named1 {
  const char *name;
  emit1_fn fn;
} named1;
#define N2(f, op) {#f, f, SpvOp##op}
#define N1(f) {#f, f}

/* A binary instruction through its generated emitter, or raw: spvgen_emit_result, or
 * spvgen_emit with a reserved result id. */
static uint32_t call2(vg *g, const named2 *op, uint32_t rt, uint32_t a, uint32_t b) {
  uint32_t x = below(g->r, 10), ab[2] = {a, b};
  if (x == 0) {
    return VID(P_VALUE, spvgen_emit_result, (M_, op->op, rt, ab, 2), ", %u, %u, %s, 2",
               (uint32_t)op->op, rt, carr(ab, 2));
  }
  if (x == 1) {
    uint32_t r = VID(P_RESERVED, spvgen_reserve_id, (M_), "%s", "");
    uint32_t w[4] = {rt, r, a, b};
    VVOID(spvgen_emit, (M_, op->op, w, 4), ", %u, %s, 4", (uint32_t)op->op, carr(w, 4));
    if (vg_ok(g))
      FZ_CHECK(g->z, spvgen_type_of(M_, r) == rt, "spvgen_emit defined %u with type %u, not %u", r,
               spvgen_type_of(M_, r), rt);
    return vg_ok(g) ? r : 0;
  }
  trace("%s(m, %u, %u, %u);", op->name, rt, a, b);
  uint32_t id = op->fn(M_, rt, a, b);
  return fz_id_result(g->z, P_VALUE, op->name, id);
}

static uint32_t call1(vg *g, const named1 *op, uint32_t rt, uint32_t a) {
  trace("%s(m, %u, %u);", op->name, rt, a);
  uint32_t id = op->fn(M_, rt, a);
  return fz_id_result(g->z, P_VALUE, op->name, id);
}

static void act_binary(vg *g) {
  static const named2 uops[] = {N2(spvgen_op_i_add, IAdd), N2(spvgen_op_i_sub, ISub), N2(spvgen_op_i_mul, IMul),
                                N2(spvgen_op_u_div, UDiv), N2(spvgen_op_u_mod, UMod), N2(spvgen_op_bitwise_and, BitwiseAnd),
                                N2(spvgen_op_bitwise_or, BitwiseOr), N2(spvgen_op_bitwise_xor, BitwiseXor),
                                N2(spvgen_op_shift_left_logical, ShiftLeftLogical), N2(spvgen_op_shift_right_logical, ShiftRightLogical)};
  static const named2 sops[] = {N2(spvgen_op_i_add, IAdd), N2(spvgen_op_i_sub, ISub), N2(spvgen_op_i_mul, IMul),
                                N2(spvgen_op_s_div, SDiv), N2(spvgen_op_s_rem, SRem), N2(spvgen_op_s_mod, SMod),
                                N2(spvgen_op_bitwise_xor, BitwiseXor), N2(spvgen_op_shift_right_arithmetic, ShiftRightArithmetic)};
  static const named2 fops[] = {N2(spvgen_op_f_add, FAdd), N2(spvgen_op_f_sub, FSub), N2(spvgen_op_f_mul, FMul),
                                N2(spvgen_op_f_div, FDiv), N2(spvgen_op_f_rem, FRem), N2(spvgen_op_f_mod, FMod)};
  static const named2 bops[] = {N2(spvgen_op_logical_and, LogicalAnd), N2(spvgen_op_logical_or, LogicalOr),
                                N2(spvgen_op_logical_equal, LogicalEqual), N2(spvgen_op_logical_not_equal, LogicalNotEqual)};
  uint8_t t = type_in_use(g, false, true);
  const vg_type ty = g->types[t];
  const named2 *op;
  switch (ty.kind) {
  case K_UINT: op = &uops[below(g->r, 10)]; break;
  case K_SINT: op = &sops[below(g->r, 8)]; break;
  case K_FLOAT: op = &fops[below(g->r, 6)]; break;
  default: op = &bops[below(g->r, 4)]; break;
  }
  uint32_t a = pick_value(g, t), b = pick_value(g, t);
  uint32_t id = call2(g, op, ty.id, a, b);
  add_val(g, id, t);
  if (ty.kind == K_FLOAT && g->reach) g->last_float_arith = id;
}

static void act_unary(vg *g) {
  static const named1 iops[] = {N1(spvgen_op_not), N1(spvgen_op_s_negate), N1(spvgen_op_copy_object)};
  static const named1 fops[] = {N1(spvgen_op_f_negate), N1(spvgen_op_copy_object)};
  static const named1 bops[] = {N1(spvgen_op_logical_not), N1(spvgen_op_copy_object)};
  uint8_t t = type_in_use(g, false, true);
  const vg_type ty = g->types[t];
  const named1 *op = ty.kind == K_FLOAT ? &fops[below(g->r, 2)]
                     : ty.kind == K_BOOL ? &bops[below(g->r, 2)]
                                         : &iops[below(g->r, 3)];
  add_val(g, call1(g, op, ty.id, pick_value(g, t)), t);
}

static void act_compare(vg *g) {
  static const named2 uops[] = {N2(spvgen_op_i_equal, IEqual), N2(spvgen_op_i_not_equal, INotEqual),
                                N2(spvgen_op_u_less_than, ULessThan), N2(spvgen_op_u_greater_than_equal, UGreaterThanEqual)};
  static const named2 sops[] = {N2(spvgen_op_i_equal, IEqual), N2(spvgen_op_s_less_than, SLessThan),
                                N2(spvgen_op_s_greater_than, SGreaterThan)};
  static const named2 fops[] = {N2(spvgen_op_f_ord_less_than, FOrdLessThan), N2(spvgen_op_f_ord_equal, FOrdEqual),
                                N2(spvgen_op_f_unord_not_equal, FUnordNotEqual),
                                N2(spvgen_op_f_ord_greater_than_equal, FOrdGreaterThanEqual)};
  uint8_t t = type_in_use(g, true, true);
  const vg_type ty = g->types[t];
  const named2 *op = ty.kind == K_UINT ? &uops[below(g->r, 4)]
                     : ty.kind == K_SINT ? &sops[below(g->r, 3)]
                                         : &fops[below(g->r, 4)];
  uint8_t bt = bool_like(g, t);
  uint32_t a = pick_value(g, t), b = pick_value(g, t);
  add_val(g, call2(g, op, tid(g, bt), a, b), bt);
}

static void act_select(vg *g) {
  uint8_t t = type_in_use(g, false, true);
  uint8_t ct = bool_like(g, t);
  uint32_t c = pick_value(g, ct), a = pick_value(g, t), b = pick_value(g, t);
  uint32_t id = VID(P_VALUE, spvgen_op_select, (M_, tid(g, t), c, a, b), ", %u, %u, %u, %u",
                    tid(g, t), c, a, b);
  add_val(g, id, t);
}

static void act_convert(vg *g) {
  uint8_t s = type_in_use(g, true, true);
  const vg_type st = g->types[s];
  uint32_t x = below(g->r, 4);
  uint8_t dkind;
  uint8_t dwidth = pick_width(g, K_UINT);
  const named1 *op;
  static const named1 ops[] = {N1(spvgen_op_convert_u_to_f), N1(spvgen_op_convert_s_to_f),
                               N1(spvgen_op_convert_f_to_u), N1(spvgen_op_convert_f_to_s),
                               N1(spvgen_op_u_convert), N1(spvgen_op_s_convert),
                               N1(spvgen_op_f_convert), N1(spvgen_op_bitcast)};
  if (x == 0) { /* bitcast: same width, another kind */
    if (st.width == 8) return;
    dwidth = st.width;
    dkind = st.kind == K_FLOAT ? (chance(g->r, 50) ? K_UINT : K_SINT)
                               : (chance(g->r, 50) ? K_FLOAT : (st.kind == K_UINT ? K_SINT : K_UINT));
    op = &ops[7];
  } else if (st.kind == K_FLOAT) {
    if (x == 1) {
      dkind = K_FLOAT;
      dwidth = pick_width(g, K_FLOAT);
      if (dwidth == st.width) return;
      op = &ops[6];
    } else {
      dkind = x == 2 ? K_UINT : K_SINT;
      op = x == 2 ? &ops[2] : &ops[3];
    }
  } else if (x == 1) {
    dkind = st.kind;
    if (dwidth == st.width) return;
    op = st.kind == K_UINT ? &ops[4] : &ops[5];
  } else {
    dkind = K_FLOAT;
    dwidth = pick_width(g, K_FLOAT);
    op = st.kind == K_UINT ? &ops[0] : &ops[1];
  }
  uint8_t d = vg_type_of(g, dkind, dwidth, st.count);
  add_val(g, call1(g, op, tid(g, d), pick_value(g, s)), d);
}

static void act_composite(vg *g) {
  uint8_t t = type_in_use(g, false, true);
  const vg_type ty = g->types[t];
  if (ty.count == 1) { /* construct a vector of it */
    uint32_t n = 2 + below(g->r, 3), parts[4];
    uint8_t vt = vg_type_of(g, ty.kind, ty.width, (uint8_t)n);
    for (uint32_t i = 0; i < n; i++) parts[i] = pick_value(g, t);
    uint32_t id = VID(P_VALUE, spvgen_op_composite_construct, (M_, tid(g, vt), parts, n),
                      ", %u, %s, %u", tid(g, vt), carr(parts, n), n);
    add_val(g, id, vt);
  } else {
    uint32_t idx = below(g->r, ty.count), v = pick_value(g, t);
    uint8_t s = scalar_of(g, t);
    uint32_t id = VID(P_VALUE, spvgen_op_composite_extract, (M_, tid(g, s), v, &idx, 1),
                      ", %u, %u, %s, 1", tid(g, s), v, carr(&idx, 1));
    add_val(g, id, s);
  }
}

static void act_glsl(vg *g) {
  uint8_t t = type_in_use(g, true, true);
  const vg_type ty = g->types[t];
  uint32_t rt = ty.id, id = 0;
  if (ty.width == 8) return; /* GLSL.std.450 takes 16-, 32- and 64-bit operands */
  if (ty.kind == K_FLOAT && chance(g->r, 20)) { /* the hand-written path */
    uint32_t set = VID(P_OTHER, spvgen_ext_inst_import, (M_, "GLSL.std.450"), "%s", ", \"GLSL.std.450\"");
    uint32_t ops[2] = {pick_value(g, t), pick_value(g, t)};
    id = VID(P_VALUE, spvgen_ext_inst, (M_, rt, set, GLSLstd450FMax, ops, 2), ", %u, %u, %u, %s, 2", rt,
             set, (uint32_t)GLSLstd450FMax, carr(ops, 2));
  } else if (ty.kind == K_FLOAT) {
    uint32_t a = pick_value(g, t), b = pick_value(g, t), c = pick_value(g, t);
    switch (below(g->r, 6)) {
    case 0: id = VID(P_VALUE, spvgen_glsl_f_abs, (M_, rt, a), ", %u, %u", rt, a); break;
    case 1: id = VID(P_VALUE, spvgen_glsl_sqrt, (M_, rt, a), ", %u, %u", rt, a); break;
    case 2: id = VID(P_VALUE, spvgen_glsl_f_min, (M_, rt, a, b), ", %u, %u, %u", rt, a, b); break;
    case 3: id = VID(P_VALUE, spvgen_glsl_f_max, (M_, rt, a, b), ", %u, %u, %u", rt, a, b); break;
    case 4: id = VID(P_VALUE, spvgen_glsl_fma, (M_, rt, a, b, c), ", %u, %u, %u, %u", rt, a, b, c); break;
    default:
      if (ty.width == 64) return; /* Exp2 takes 16- and 32-bit floats */
      id = VID(P_VALUE, spvgen_glsl_exp2, (M_, rt, a), ", %u, %u", rt, a);
      break;
    }
  } else if (ty.kind == K_UINT) {
    uint32_t a = pick_value(g, t), b = pick_value(g, t);
    id = VID(P_VALUE, spvgen_glsl_u_min, (M_, rt, a, b), ", %u, %u, %u", rt, a, b);
  } else {
    uint32_t a = pick_value(g, t);
    id = VID(P_VALUE, spvgen_glsl_s_abs, (M_, rt, a), ", %u, %u", rt, a);
  }
  add_val(g, id, t);
}

static void act_vector_float(vg *g) {
  uint8_t w = chance(g->r, 70) ? 32 : chance(g->r, 50) ? 16 : 64;
  uint8_t n = (uint8_t)(2 + below(g->r, 3));
  uint8_t vt = vg_type_of(g, K_FLOAT, w, n), st = vg_type_of(g, K_FLOAT, w, 1);
  uint32_t a = pick_value(g, vt);
  if (chance(g->r, 50)) {
    uint32_t s = pick_value(g, st);
    uint32_t id = VID(P_VALUE, spvgen_op_vector_times_scalar, (M_, tid(g, vt), a, s),
                      ", %u, %u, %u", tid(g, vt), a, s);
    add_val(g, id, vt);
  } else {
    uint32_t b = pick_value(g, vt);
    uint32_t id = VID(P_VALUE, spvgen_op_dot, (M_, tid(g, st), a, b), ", %u, %u, %u", tid(g, st), a, b);
    add_val(g, id, st);
  }
}

static void act_undef(vg *g) {
  uint8_t t = rand_type(g, false, true);
  add_val(g, VID(P_VALUE, spvgen_op_undef, (M_, tid(g, t)), ", %u", tid(g, t)), t);
}

/* ----------------------------------------------------------------- memory ---- */

/* A constant index below n (n > 0), or a run-time u32/i32 value when `runtime`. */
static uint32_t index_value(vg *g, uint32_t n, bool runtime) {
  if (runtime && g->reach && chance(g->r, 50)) {
    uint8_t t = vg_type_of(g, chance(g->r, 70) ? K_UINT : K_SINT, 32, 1);
    return pick_value(g, t);
  }
  uint32_t i = below(g->r, n ? n : 1);
  return VID(P_CONST, spvgen_const_u32, (M_, i), ", %u", i);
}

static uint32_t length_const(vg *g, uint32_t *n) {
  if (chance(g->r, 15)) { /* a specialization constant length */
    *n = 0;
    uint8_t u32 = vg_type_of(g, K_UINT, 32, 1);
    uint32_t spec = g->next_spec_id++;
    uint32_t v = 1 + below(g->r, 8);
    uint32_t id = VID(P_CONST, spvgen_spec_const_u32, (M_, v, spec), ", %u, %u", v, spec);
    add_const(g, id, u32);
    return id;
  }
  *n = 1 + below(g->r, 8);
  return VID(P_CONST, spvgen_const_u32, (M_, *n), ", %u", *n);
}

static void global_storage_buffer(vg *g) {
  if (g->ngaggs == VG_AGGS) return;
  vg_agg a;
  memset(&a, 0, sizeof a);
  a.storage = SpvStorageClassStorageBuffer;
  a.readonly = chance(g->r, 30);
  uint32_t elem;
  if (chance(g->r, 20)) { /* elements that are arrays: they need their own ArrayStride */
    a.kind = AG_SSBO_OF_ARRAYS;
    a.t = rand_type(g, true, false);
    a.inner = 2 + below(g->r, 3);
    uint32_t len = VID(P_CONST, spvgen_const_u32, (M_, a.inner), ", %u", a.inner);
    uint32_t stride = chance(g->r, 70) ? g->types[a.t].width / 8u : 16u; /* tight, or padded */
    elem = VID(P_TYPE, spvgen_type_array_strided_id, (M_, tid(g, a.t), len, stride), ", %u, %u, %u",
               tid(g, a.t), len, stride);
  } else {
    a.kind = AG_SSBO;
    a.t = rand_type(g, true, true);
    elem = tid(g, a.t);
  }
  uint32_t set = below(g->r, 3), binding = g->next_binding++;
  uint32_t ep = 0;
  a.var = VID(P_PTR, spvgen_storage_buffer, (M_, elem, set, binding, a.readonly, &ep),
              ", %u, %u, %u, %d, &element_pointer_type", elem, set, binding, a.readonly);
  if (!vg_ok(g)) return;
  uint32_t pt = spvgen_type_of(M_, a.var), st = 0;
  uint32_t ops[2] = {0, 0};
  if (spvgen_type_operands(M_, pt, ops, 2) == 2) st = ops[1];
  if (st && chance(g->r, 40)) VVOID(spvgen_member_name, (M_, st, 0, "data"), ", %u, 0, \"data\"", st);
  if (st && chance(g->r, 30)) VVOID(spvgen_name, (M_, st, "Buffer"), ", %u, \"Buffer\"", st);
  g->gaggs[g->ngaggs++] = a;
}

static void global_variable(vg *g) {
  uint32_t x = below(g->r, 10);
  if (x < 4 && g->ngvars < VG_VARS) { /* a Private scalar or vector */
    uint8_t t = rand_type(g, false, true);
    uint32_t pt = ptr_type(g, SpvStorageClassPrivate, tid(g, t));
    uint32_t init = chance(g->r, 50) ? pick_const(g, t) : 0;
    uint32_t v = VID(P_PTR, spvgen_variable, (M_, pt, SpvStorageClassPrivate, init), ", %u, %u, %u",
                     pt, (uint32_t)SpvStorageClassPrivate, init);
    if (vg_ok(g)) g->gvars[g->ngvars++] = (vg_var){v, t, 0};
    return;
  }
  if (g->ngaggs == VG_AGGS) return;
  vg_agg a;
  memset(&a, 0, sizeof a);
  if (x < 7) { /* a Private or Workgroup array */
    bool wg = x == 6;
    a.kind = AG_ARRAY;
    a.storage = wg ? SpvStorageClassWorkgroup : SpvStorageClassPrivate;
    a.t = rand_type(g, wg, true);
    uint32_t len = length_const(g, &a.n);
    uint32_t at = VID(P_TYPE, spvgen_type_array_id, (M_, tid(g, a.t), len), ", %u, %u", tid(g, a.t), len);
    uint32_t init = 0;
    if (!wg && a.n && chance(g->r, 40)) {
      uint32_t parts[8];
      for (uint32_t i = 0; i < a.n; i++) parts[i] = pick_const(g, a.t);
      init = VID(P_CONST, spvgen_const_composite, (M_, at, parts, a.n), ", %u, %s, %u", at,
                 carr(parts, a.n), a.n);
    } else if (!wg && chance(g->r, 20)) {
      init = VID(P_CONST, spvgen_const_null, (M_, at), ", %u", at);
    }
    uint32_t pt = ptr_type(g, a.storage, at);
    a.var = VID(P_PTR, spvgen_variable, (M_, pt, a.storage, init), ", %u, %u, %u", pt, a.storage, init);
  } else if (x < 9) { /* a Private struct */
    a.kind = AG_STRUCT;
    a.storage = SpvStorageClassPrivate;
    a.n = 1 + below(g->r, 4);
    uint32_t mem[4];
    for (uint32_t i = 0; i < a.n; i++) mem[i] = tid(g, a.members[i] = rand_type(g, false, true));
    uint32_t st = VID(P_TYPE, spvgen_type_struct, (M_, mem, a.n), ", %s, %u", carr(mem, a.n), a.n);
    if (chance(g->r, 30)) {
      uint32_t k = below(g->r, a.n);
      VVOID(spvgen_member_name, (M_, st, k, "field"), ", %u, %u, \"field\"", st, k);
    }
    uint32_t init = chance(g->r, 30) ? VID(P_CONST, spvgen_const_null, (M_, st), ", %u", st) : 0;
    uint32_t pt = ptr_type(g, a.storage, st);
    a.var = VID(P_PTR, spvgen_variable, (M_, pt, a.storage, init), ", %u, %u, %u", pt, a.storage, init);
  } else { /* a builtin input */
    static const SpvBuiltIn v3[] = {SpvBuiltInGlobalInvocationId, SpvBuiltInLocalInvocationId,
                                    SpvBuiltInWorkgroupId, SpvBuiltInNumWorkgroups};
    uint32_t k = below(g->r, 5);
    if (g->builtins_used & (1u << k) || g->ngvars == VG_VARS) return;
    g->builtins_used |= 1u << k;
    uint8_t t = vg_type_of(g, K_UINT, 32, k < 4 ? 3 : 1);
    SpvBuiltIn b = k < 4 ? v3[k] : SpvBuiltInLocalInvocationIndex;
    uint32_t v = VID(P_PTR, spvgen_builtin_input, (M_, b, tid(g, t)), ", %u, %u", (uint32_t)b, tid(g, t));
    if (vg_ok(g)) g->gvars[g->ngvars++] = (vg_var){v, t, 2};
    return;
  }
  if (vg_ok(g)) g->gaggs[g->ngaggs++] = a;
}

static void function_variable(vg *g) {
  if (chance(g->r, 60)) {
    if (g->nfvars == VG_VARS) return;
    uint8_t t = rand_type(g, false, true);
    uint32_t pt = ptr_type(g, SpvStorageClassFunction, tid(g, t));
    uint32_t init = chance(g->r, 40) ? const_of(g, t) : 0;
    uint32_t v = VID(P_PTR, spvgen_variable, (M_, pt, SpvStorageClassFunction, init), ", %u, %u, %u",
                     pt, (uint32_t)SpvStorageClassFunction, init);
    if (vg_ok(g)) g->fvars[g->nfvars++] = (vg_var){v, t, 0};
    return;
  }
  if (g->nfaggs == VG_AGGS) return;
  vg_agg a;
  memset(&a, 0, sizeof a);
  a.storage = SpvStorageClassFunction;
  uint32_t inner, init = 0;
  if (chance(g->r, 50)) {
    a.kind = AG_ARRAY;
    a.t = rand_type(g, false, true);
    uint32_t len = length_const(g, &a.n);
    inner = VID(P_TYPE, spvgen_type_array_id, (M_, tid(g, a.t), len), ", %u, %u", tid(g, a.t), len);
    if (a.n && chance(g->r, 30)) {
      uint32_t parts[8];
      for (uint32_t i = 0; i < a.n; i++) parts[i] = pick_const(g, a.t);
      init = VID(P_CONST, spvgen_const_composite, (M_, inner, parts, a.n), ", %u, %s, %u", inner,
                 carr(parts, a.n), a.n);
    }
  } else {
    a.kind = AG_STRUCT;
    a.n = 1 + below(g->r, 4);
    uint32_t mem[4];
    for (uint32_t i = 0; i < a.n; i++) mem[i] = tid(g, a.members[i] = rand_type(g, false, true));
    inner = VID(P_TYPE, spvgen_type_struct, (M_, mem, a.n), ", %s, %u", carr(mem, a.n), a.n);
  }
  uint32_t pt = ptr_type(g, SpvStorageClassFunction, inner);
  a.var = VID(P_PTR, spvgen_variable, (M_, pt, SpvStorageClassFunction, init), ", %u, %u, %u", pt,
              (uint32_t)SpvStorageClassFunction, init);
  if (vg_ok(g)) g->faggs[g->nfaggs++] = a;
}

/* A pointer to a scalar or vector usable here: *t its pointee type, *access as in vg_var.
 * Reaches into aggregates with spvgen_access_chain. 0 when there is none. */
static uint32_t pick_pointer(vg *g, uint8_t *t, uint8_t *access, uint32_t *storage) {
  bool fn_ok = g->reach; /* function variables dominate only reachable code */
  uint32_t total = g->ngvars + g->ngaggs + (fn_ok ? g->nfvars + g->nfaggs : 0);
  if (!total) return 0;
  uint32_t k = below(g->r, total);
  if (k < g->ngvars) {
    *t = g->gvars[k].t;
    *access = g->gvars[k].access;
    *storage = g->gvars[k].access == 2 ? SpvStorageClassInput : SpvStorageClassPrivate;
    return g->gvars[k].id;
  }
  k -= g->ngvars;
  const vg_agg *a;
  if (k < g->ngaggs) {
    a = &g->gaggs[k];
  } else {
    k -= g->ngaggs;
    if (k < g->nfvars) {
      *t = g->fvars[k].t;
      *access = 0;
      *storage = SpvStorageClassFunction;
      return g->fvars[k].id;
    }
    a = &g->faggs[k - g->nfvars];
  }
  uint32_t idx[3], n = 0;
  switch (a->kind) {
  case AG_SSBO:
    idx[n++] = VID(P_CONST, spvgen_const_u32, (M_, 0), "%s", ", 0");
    idx[n++] = index_value(g, 64, true);
    *t = a->t;
    break;
  case AG_SSBO_OF_ARRAYS:
    idx[n++] = VID(P_CONST, spvgen_const_u32, (M_, 0), "%s", ", 0");
    idx[n++] = index_value(g, 64, true);
    idx[n++] = index_value(g, a->inner, true);
    *t = a->t;
    break;
  case AG_ARRAY:
    idx[n++] = index_value(g, a->n, a->n == 0 || chance(g->r, 50));
    *t = a->t;
    break;
  default: {
    uint32_t member = below(g->r, a->n);
    idx[n++] = VID(P_CONST, spvgen_const_u32, (M_, member), ", %u", member);
    *t = a->members[member];
    break;
  }
  }
  *access = a->readonly ? 1 : 0;
  *storage = a->storage;
  uint32_t pt = ptr_type(g, a->storage, tid(g, *t));
  return VID(P_VALUE, spvgen_access_chain, (M_, pt, a->var, idx, n), ", %u, %u, %s, %u", pt, a->var,
             carr(idx, n), n);
}

static void act_memory(vg *g) {
  uint8_t t = 0, access = 0;
  uint32_t storage = 0;
  uint32_t p = pick_pointer(g, &t, &access, &storage);
  if (!p || !vg_ok(g)) return;
  const vg_type ty = g->types[t];
  uint32_t x = below(g->r, 10);
  if (x < 2 && access == 0 && ty.count == 1 && ty.width == 32 &&
      (ty.kind == K_UINT || ty.kind == K_SINT) &&
      (storage == SpvStorageClassStorageBuffer || storage == SpvStorageClassWorkgroup)) {
    /* an atomic add */
    uint32_t scope = storage == SpvStorageClassWorkgroup || chance(g->r, 50) ? SpvScopeWorkgroup
                                                                             : SpvScopeDevice;
    uint32_t sc = VID(P_CONST, spvgen_const_u32, (M_, scope), ", %u", scope);
    uint32_t sem = VID(P_CONST, spvgen_const_u32, (M_, 0), "%s", ", 0");
    uint32_t v = pick_value(g, t);
    uint32_t id = VID(P_VALUE, spvgen_op_atomic_i_add, (M_, ty.id, p, sc, sem, v),
                      ", %u, %u, %u, %u, %u", ty.id, p, sc, sem, v);
    add_val(g, id, t);
  } else if (x < 6 && access == 0) {
    uint32_t v = pick_value(g, t);
    if (chance(g->r, 80) || g->version < SPVGEN_VERSION(1, 4))
      VVOID(spvgen_store, (M_, p, v), ", %u, %u", p, v);
    else
      VVOID(spvgen_op_store, (M_, p, v, SpvMemoryAccessNontemporalMask, NULL, 0),
            ", %u, %u, %u, NULL, 0", p, v, (uint32_t)SpvMemoryAccessNontemporalMask);
  } else {
    uint32_t id;
    if (chance(g->r, 80) || g->version < SPVGEN_VERSION(1, 4))
      id = VID(P_VALUE, spvgen_load, (M_, ty.id, p), ", %u, %u", ty.id, p);
    else
      id = VID(P_VALUE, spvgen_op_load, (M_, ty.id, p, SpvMemoryAccessNontemporalMask, NULL, 0),
               ", %u, %u, %u, NULL, 0", ty.id, p, (uint32_t)SpvMemoryAccessNontemporalMask);
    add_val(g, id, t);
  }
}

/* ------------------------------------------------------ names, decorations ---- */

static void act_name(vg *g) {
  static const char *const names[] = {"x", "value", "a_b", "Buffer0", "main", "_", "i", "long_name_0123456789"};
  uint32_t id = 0, x = below(g->r, 4);
  if (x == 0 && g->ntypes) id = g->types[below(g->r, g->ntypes)].id;
  else if (x == 1 && g->nconsts) id = g->consts[below(g->r, g->nconsts)].id;
  else if (x == 2 && g->nvals) id = g->vals[below(g->r, g->nvals)].id;
  else if (g->nfns) id = g->fns[below(g->r, g->nfns)].id;
  if (!id) return;
  const char *name = names[below(g->r, 8)];
  VVOID(spvgen_name, (M_, id, name), ", %u, %s", id, cstr(name));
}

static void act_decorate(vg *g) {
  uint32_t x = below(g->r, 3);
  if (x == 0 && g->ngaggs) {
    vg_agg *a = &g->gaggs[below(g->r, g->ngaggs)];
    if (a->restrict_or_aliased || a->storage != SpvStorageClassStorageBuffer) return;
    a->restrict_or_aliased = true;
    SpvDecoration d = chance(g->r, 50) ? SpvDecorationRestrict : SpvDecorationAliased;
    VVOID(spvgen_decorate, (M_, a->var, d), ", %u, %u", a->var, (uint32_t)d);
  } else if (x == 1 && g->last_float_arith) {
    /* NoContraction on a float arithmetic result */
    uint32_t id = g->last_float_arith;
    g->last_float_arith = 0;
    VVOID(spvgen_decorate, (M_, id, SpvDecorationNoContraction), ", %u, %u", id,
          (uint32_t)SpvDecorationNoContraction);
  } else if (g->nvals) {
    /* RelaxedPrecision on a 32-bit float value */
    const vg_val v = g->vals[below(g->r, g->nvals)];
    if (g->types[v.t].kind != K_FLOAT || g->types[v.t].width != 32 || g->nrelaxed == 32) return;
    for (uint32_t i = 0; i < g->nrelaxed; i++)
      if (g->relaxed[i] == v.id) return;
    g->relaxed[g->nrelaxed++] = v.id;
    VVOID(spvgen_decorate_n, (M_, v.id, SpvDecorationRelaxedPrecision, NULL, 0), ", %u, %u, NULL, 0",
          v.id, (uint32_t)SpvDecorationRelaxedPrecision);
  }
}

static void act_capability(vg *g) {
  static const SpvCapability caps[] = {SpvCapabilityInt64, SpvCapabilityInt16, SpvCapabilityFloat16,
                                       SpvCapabilityFloat64, SpvCapabilityInt8, SpvCapabilityShader};
  static const char *const exts[] = {"SPV_KHR_16bit_storage", "SPV_KHR_8bit_storage",
                                     "SPV_KHR_storage_buffer_storage_class"};
  if (chance(g->r, 70)) {
    SpvCapability c = caps[below(g->r, 6)];
    VVOID(spvgen_capability, (M_, c), ", %u", (uint32_t)c);
    if (vg_ok(g)) FZ_CHECK(g->z, spvgen_has_capability(M_, c), "capability %u not declared", (uint32_t)c);
  } else {
    const char *e = exts[below(g->r, 3)];
    VVOID(spvgen_extension, (M_, e), ", %s", cstr(e));
    if (vg_ok(g)) FZ_CHECK(g->z, spvgen_has_extension(M_, e), "extension %s not declared", e);
  }
}

/* One declaration at module scope (allowed inside functions too: it goes to its section). */
static void act_global(vg *g) {
  switch (below(g->r, 12)) {
  case 0: case 1: rand_type(g, false, true); break;
  case 2: case 3: const_of(g, rand_type(g, false, true)); break;
  case 4: spec_const_of(g, rand_type(g, false, false)); break;
  case 5: global_storage_buffer(g); break;
  case 6: case 7: global_variable(g); break;
  case 8: act_name(g); break;
  case 9: act_decorate(g); break;
  case 10: act_capability(g); break;
  default: { /* not an emitting call once the import exists: it hands back the same id */
    trace("spvgen_glsl_std_450(m);");
    uint32_t id = spvgen_glsl_std_450(M_);
    trace_result(id);
    fz_after(g->z, "spvgen_glsl_std_450", ID, id);
    break;
  }
  }
}

/* ------------------------------------------------------------- functions ---- */

static uint32_t ret_type_id(vg *g, uint8_t ret) {
  return ret == T_VOID ? VID(P_TYPE, spvgen_type_void, (M_), "%s", "") : tid(g, ret);
}

static void act_call(vg *g) {
  uint32_t c[VG_FNS], n = 0;
  bool in_entry = g->cur >= 0 && g->fns[g->cur].entry;
  for (uint32_t i = 0; i < g->nfns; i++) {
    const vg_fn *f = &g->fns[i];
    if ((int)i == g->cur || f->entry) continue;
    /* Defined functions only call defined ones, so calls never form a cycle; entry
     * points (never called) may also call functions defined later. */
    if (f->defined || in_entry) c[n++] = i;
  }
  if (!n) return;
  const vg_fn *f = &g->fns[c[below(g->r, n)]];
  uint32_t args[4];
  for (uint32_t i = 0; i < f->np; i++) args[i] = pick_value(g, f->params[i]);
  uint32_t rt = ret_type_id(g, f->ret);
  uint32_t id = VID(P_VALUE, spvgen_op_function_call, (M_, rt, f->id, args, f->np), ", %u, %u, %s, %u",
                    rt, f->id, carr(args, f->np), f->np);
  if (f->ret != T_VOID) add_val(g, id, f->ret);
}

/* Begins fns[k] (defined by id when it was planned). */
static void begin_function(vg *g, uint32_t k, bool planned) {
  vg_fn *f = &g->fns[k];
  uint32_t rt = ret_type_id(g, f->ret);
  uint32_t pt[4], params[4] = {0};
  for (uint32_t i = 0; i < f->np; i++) pt[i] = tid(g, f->params[i]);
  SpvFunctionControlMask control = chance(g->r, 70) ? SpvFunctionControlMaskNone
                                   : chance(g->r, 50) ? SpvFunctionControlInlineMask
                                                      : SpvFunctionControlDontInlineMask;
  uint32_t id;
  if (planned)
    id = VID(P_FUNC, spvgen_function_begin_id, (M_, f->id, rt, control, pt, f->np, params),
             ", %u, %u, %u, %s, %u, params", f->id, rt, (uint32_t)control, carr(pt, f->np), f->np);
  else
    id = VID(P_FUNC, spvgen_function_begin, (M_, rt, control, pt, f->np, params),
             ", %u, %u, %s, %u, params", rt, (uint32_t)control, carr(pt, f->np), f->np);
  if (planned) FZ_CHECK(g->z, id == f->id || !vg_ok(g), "spvgen_function_begin_id gave %u, not %u", id, f->id);
  f->id = id;
  g->cur = (int)k;
  g->in_fn = g->block_open = g->reach = true;
  g->nvals = g->nfvars = g->nfaggs = 0;
  g->ncf = 0;
  g->last_float_arith = 0;
  for (uint32_t i = 0; i < f->np; i++) add_val(g, params[i], f->params[i]);
}

static vg_fn *new_fn(vg *g, bool entry) {
  if (g->nfns == VG_FNS) return NULL;
  vg_fn *f = &g->fns[g->nfns++];
  memset(f, 0, sizeof *f);
  f->entry = entry;
  f->ret = T_VOID;
  if (!entry) {
    if (chance(g->r, 60)) f->ret = rand_type(g, false, true);
    f->np = below(g->r, 4);
    for (uint32_t i = 0; i < f->np; i++) f->params[i] = rand_type(g, false, true);
  }
  return f;
}

static void local_size(vg *g, uint32_t fn_id) {
  uint32_t x = 1 + below(g->r, 64), y = 1 + below(g->r, 4), z = 1;
  if (g->version >= SPVGEN_VERSION(1, 2) && chance(g->r, 25)) {
    uint8_t u32 = vg_type_of(g, K_UINT, 32, 1);
    uint32_t ids[3] = {chance(g->r, 50) ? spec_const_of(g, u32) : VID(P_CONST, spvgen_const_u32, (M_, x), ", %u", x),
                       VID(P_CONST, spvgen_const_u32, (M_, y), ", %u", y),
                       VID(P_CONST, spvgen_const_u32, (M_, z), ", %u", z)};
    VVOID(spvgen_execution_mode_id, (M_, fn_id, SpvExecutionModeLocalSizeId, ids, 3), ", %u, %u, %s, 3",
          fn_id, (uint32_t)SpvExecutionModeLocalSizeId, carr(ids, 3));
  } else if (chance(g->r, 30)) {
    uint32_t args[3] = {x, y, z};
    VVOID(spvgen_execution_mode, (M_, fn_id, SpvExecutionModeLocalSize, args, 3), ", %u, %u, %s, 3",
          fn_id, (uint32_t)SpvExecutionModeLocalSize, carr(args, 3));
  } else {
    VVOID(spvgen_local_size, (M_, fn_id, x, y, z), ", %u, %u, %u, %u", fn_id, x, y, z);
  }
}

static const char *entry_name(vg *g) {
  static const char *const names[] = {"main", "main1", "main2", "main3", "main4", "main5"};
  return names[g->entries++ % 6];
}

/* At module scope: a new helper, a compute main, a planned function or entry point, or
 * the definition of a planned one. */
static void act_module_level(vg *g) {
  uint32_t x = below(g->r, 10);
  if (x < 3 && g->nfns + 1 < VG_FNS) { /* a helper (one slot stays for an entry point) */
    vg_fn *f = new_fn(g, false);
    begin_function(g, (uint32_t)(f - g->fns), false);
  } else if (x < 5 && g->nfns < VG_FNS && g->entries < 5) { /* a compute main */
    vg_fn *f = new_fn(g, true);
    const char *name = entry_name(g);
    uint32_t sx = 1 + below(g->r, 64);
    uint32_t id = VID(P_FUNC, spvgen_compute_main, (M_, name, sx, 1, 1), ", %s, %u, 1, 1", cstr(name), sx);
    f->id = id;
    g->cur = (int)(f - g->fns);
    g->in_fn = g->block_open = g->reach = true;
    g->nvals = g->nfvars = g->nfaggs = 0;
    g->ncf = 0;
  } else if (x < 6 && g->nfns + 1 < VG_FNS) { /* plan a helper: its id before its definition */
    vg_fn *f = new_fn(g, false);
    f->id = VID(P_RESERVED, spvgen_reserve_id, (M_), "%s", "");
  } else if (x < 7 && g->nfns < VG_FNS && g->entries < 5) { /* an entry point named first */
    vg_fn *f = new_fn(g, true);
    f->id = VID(P_RESERVED, spvgen_reserve_id, (M_), "%s", "");
    const char *name = entry_name(g);
    VVOID(spvgen_entry_point, (M_, SpvExecutionModelGLCompute, f->id, name, SPVGEN_INTERFACE_ALL),
          ", %u, %u, %s, SPVGEN_INTERFACE_ALL", (uint32_t)SpvExecutionModelGLCompute, f->id, cstr(name));
    local_size(g, f->id);
  } else if (x < 8 && g->entries < 5) { /* a second name for a defined entry function */
    for (uint32_t i = 0; i < g->nfns; i++)
      if (g->fns[i].entry && g->fns[i].defined) {
        const char *name = entry_name(g);
        VVOID(spvgen_entry_point, (M_, SpvExecutionModelGLCompute, g->fns[i].id, name, SPVGEN_INTERFACE_ALL),
              ", %u, %u, %s, SPVGEN_INTERFACE_ALL", (uint32_t)SpvExecutionModelGLCompute, g->fns[i].id,
              cstr(name));
        return;
      }
    act_global(g);
  } else { /* define a planned one, or declare something */
    for (uint32_t i = 0; i < g->nfns; i++)
      if (!g->fns[i].defined && chance(g->r, 60)) {
        begin_function(g, i, true);
        return;
      }
    act_global(g);
  }
}

static void end_function(vg *g) {
  vg_fn *f = &g->fns[g->cur];
  if (g->block_open && f->ret != T_VOID) {
    uint32_t v = pick_value(g, f->ret);
    VVOID(spvgen_return_value, (M_, v), ", %u", v);
  }
  VVOID(spvgen_function_end, (M_), "%s", "");
  f->defined = true;
  g->cur = -1;
  g->in_fn = g->block_open = false;
  g->nvals = g->nfvars = g->nfaggs = 0;
}

/* --------------------------------------------------------- control flow ---- */

static vg_frame *top(vg *g) { return g->ncf ? &g->cf[g->ncf - 1] : NULL; }

static vg_frame *innermost_loop(vg *g) {
  for (uint32_t i = g->ncf; i > 0; i--)
    if (g->cf[i - 1].kind == 2) return &g->cf[i - 1];
  return NULL;
}

static bool in_continue_construct(vg *g) {
  for (uint32_t i = 0; i < g->ncf; i++)
    if (g->cf[i].kind == 2 && g->cf[i].phase == PH_CONT) return true;
  return false;
}

static uint32_t current_block(vg *g) {
  uint32_t b = spvgen_current_block(M_);
  trace("/* current block: %u */", b);
  return b;
}

/* The phi pair of an arm that ends by branching to the merge. */
static void phi_pair(vg *g, vg_frame *f) {
  if (!f->phi || f->npairs >= 2) return;
  uint32_t v = pick_value(g, f->phi_t);
  f = top(g); /* pick_value does not move frames; re-read for clarity */
  f->pairs[2 * f->npairs] = v;
  f->pairs[2 * f->npairs + 1] = current_block(g);
  f->npairs++;
}

static void act_if(vg *g) {
  if (g->ncf == VG_DEPTH) return;
  uint8_t bt = vg_type_of(g, K_BOOL, 1, 1);
  uint32_t c = pick_value(g, bt);
  vg_frame f;
  memset(&f, 0, sizeof f);
  f.kind = 1;
  f.phase = PH_THEN;
  f.mark = g->nvals;
  f.entry_reach = g->reach;
  if (chance(g->r, 35)) {
    f.phi = true;
    f.phi_t = type_in_use(g, false, true);
    f.header_value = pick_value(g, f.phi_t);
    f.header_label = current_block(g);
  }
  g->cf[g->ncf++] = f;
  VVOID(spvgen_if, (M_, c), ", %u", c);
}

static void act_else(vg *g) {
  vg_frame *f = top(g);
  if (g->block_open) {
    phi_pair(g, f);
    f->exit_reach |= g->reach;
  }
  VVOID(spvgen_else, (M_), "%s", "");
  g->nvals = f->mark;
  g->reach = f->entry_reach;
  g->block_open = true;
  f->phase = PH_ELSE;
  f->has_else = true;
}

static void act_end_if(vg *g) {
  vg_frame *f = top(g);
  if (g->block_open) {
    phi_pair(g, f);
    f->exit_reach |= g->reach;
  }
  if (!f->has_else) {
    f->exit_reach |= f->entry_reach;
    if (f->phi && f->npairs < 2) {
      f->pairs[2 * f->npairs] = f->header_value;
      f->pairs[2 * f->npairs + 1] = f->header_label;
      f->npairs++;
    }
  }
  VVOID(spvgen_end_if, (M_), "%s", "");
  vg_frame done = *f;
  g->ncf--;
  g->nvals = done.mark;
  g->reach = done.exit_reach;
  g->block_open = true;
  if (done.phi && done.npairs) { /* the merge block is new: a phi may open it */
    uint32_t t = tid(g, done.phi_t);
    uint32_t id = VID(P_VALUE, spvgen_op_phi, (M_, t, done.pairs, 2 * done.npairs), ", %u, %s, %u", t,
                      carr(done.pairs, 2 * done.npairs), 2 * done.npairs);
    add_val(g, id, done.phi_t);
  }
}

static void act_loop(vg *g) {
  if (g->ncf == VG_DEPTH) return;
  vg_frame f;
  memset(&f, 0, sizeof f);
  f.kind = 2;
  f.phase = PH_COND;
  f.mark = g->nvals;
  f.entry_reach = g->reach;
  g->cf[g->ncf++] = f;
  uint32_t x = below(g->r, 10);
  SpvLoopControlMask control = x < 6   ? SpvLoopControlMaskNone
                               : x < 8 ? SpvLoopControlUnrollMask
                               : x < 9 || g->version < SPVGEN_VERSION(1, 1) ? SpvLoopControlDontUnrollMask
                                                                            : SpvLoopControlDependencyInfiniteMask;
  VVOID(spvgen_loop, (M_, control), ", %u", (uint32_t)control);
}

static void act_loop_while(vg *g) {
  vg_frame *f = top(g);
  uint32_t c = pick_value(g, vg_type_of(g, K_BOOL, 1, 1));
  f = top(g);
  f->exit_reach |= g->reach;
  VVOID(spvgen_loop_while, (M_, c), ", %u", c);
  f->phase = PH_BODY;
  f->body_mark = g->nvals;
}

static void act_continue_block(vg *g) {
  vg_frame *f = top(g);
  if (g->block_open) f->cont_reach |= g->reach;
  VVOID(spvgen_loop_continue_block, (M_), "%s", "");
  if (f->phase == PH_BODY) g->nvals = f->body_mark;
  f->phase = PH_CONT;
  g->reach = f->cont_reach;
  g->block_open = true;
}

static void act_end_loop(vg *g) {
  vg_frame *f = top(g);
  if (f->phase != PH_CONT && g->block_open) f->cont_reach |= g->reach;
  VVOID(spvgen_end_loop, (M_), "%s", "");
  g->ncf--;
  g->nvals = f->mark;
  g->reach = f->exit_reach;
  g->block_open = true;
}

static void act_break_continue(vg *g) {
  vg_frame *l = innermost_loop(g);
  if (!l || l->phase != PH_BODY) return;
  if (chance(g->r, 50)) {
    l->exit_reach |= g->reach;
    VVOID(spvgen_break, (M_), "%s", "");
  } else {
    l->cont_reach |= g->reach;
    VVOID(spvgen_continue, (M_), "%s", "");
  }
  g->block_open = false;
  g->reach = false;
}

static void act_return(vg *g) {
  if (in_continue_construct(g)) return;
  const vg_fn *f = &g->fns[g->cur];
  if (f->ret == T_VOID) {
    VVOID(spvgen_return, (M_), "%s", "");
  } else {
    uint32_t v = pick_value(g, f->ret);
    VVOID(spvgen_return_value, (M_, v), ", %u", v);
  }
  g->block_open = false;
  g->reach = false;
}

/* Ends the block with a branch to a new one (straight-line code across blocks). */
static void act_split_block(vg *g) {
  uint32_t l = chance(g->r, 50) ? VID(P_LABEL, spvgen_label, (M_), "%s", "")
                                : VID(P_RESERVED, spvgen_reserve_id, (M_), "%s", "");
  VVOID(spvgen_op_branch, (M_, l), ", %u", l);
  uint32_t b = VID(P_LABEL, spvgen_block, (M_, l), ", %u", l);
  FZ_CHECK(g->z, b == l || !vg_ok(g), "spvgen_block(%u) returned %u", l, b);
}

/* Closes the innermost open arm: else / end_if, continue block / end_loop. */
static void act_close(vg *g) {
  vg_frame *f = top(g);
  if (!f) return;
  if (f->kind == 1) {
    if (f->phase == PH_THEN && chance(g->r, 50))
      act_else(g);
    else
      act_end_if(g);
  } else if (f->phase == PH_CONT || chance(g->r, 40)) {
    act_end_loop(g);
  } else {
    act_continue_block(g);
  }
}

static void act_straight_line(vg *g) {
  switch (below(g->r, 16)) {
  case 0: case 1: case 2: act_binary(g); break;
  case 3: act_unary(g); break;
  case 4: act_compare(g); break;
  case 5: act_select(g); break;
  case 6: act_convert(g); break;
  case 7: act_composite(g); break;
  case 8: act_glsl(g); break;
  case 9: act_vector_float(g); break;
  case 10: case 11: case 12: act_memory(g); break;
  case 13: function_variable(g); break;
  case 14: act_call(g); break;
  default:
    if (chance(g->r, 30)) {
      VVOID(spvgen_workgroup_barrier, (M_), "%s", "");
    } else if (chance(g->r, 30)) {
      act_undef(g);
    } else {
      act_decorate(g);
    }
    break;
  }
}

/* One step of a valid sequence. */
static void vg_step(vg *g) {
  if (!g->in_fn) {
    act_module_level(g);
    return;
  }
  vg_frame *f = top(g);
  if (!g->block_open) { /* after break / continue / return: close the arm */
    if (f)
      act_close(g);
    else
      end_function(g);
    return;
  }
  if (f && f->kind == 2 && f->phase == PH_COND) { /* the loop's condition block */
    uint32_t x = below(g->r, 10);
    if (x < 6) {
      act_straight_line(g);
    } else if (x < 8) {
      act_loop_while(g);
    } else if (x < 9) {
      f->phase = PH_BODY; /* no condition: a loop left by break */
      f->body_mark = g->nvals;
    } else {
      act_end_loop(g);
    }
    return;
  }
  uint32_t x = below(g->r, 100);
  if (x < 55) act_straight_line(g);
  else if (x < 62) act_global(g);
  else if (x < 69) act_if(g);
  else if (x < 74) act_loop(g);
  else if (x < 84) act_close(g);
  else if (x < 88) act_break_continue(g);
  else if (x < 89) act_return(g);
  else if (x < 92) act_split_block(g);
  else if (!f) end_function(g);
  else act_close(g);
}

/* Closes everything, defines what was planned, makes sure an entry point exists. */
static void vg_wind_down(vg *g) {
  for (int guard = 0; guard < 100 && vg_ok(g); guard++) {
    if (g->in_fn) {
      vg_frame *f = top(g);
      if (!f) {
        end_function(g);
      } else if (f->kind == 1) {
        act_end_if(g);
      } else {
        act_end_loop(g);
      }
      continue;
    }
    bool planned = false;
    for (uint32_t i = 0; i < g->nfns && !planned; i++)
      if (!g->fns[i].defined) {
        begin_function(g, i, true);
        planned = true;
      }
    if (planned) continue;
    bool has_entry = false;
    for (uint32_t i = 0; i < g->nfns; i++) has_entry |= g->fns[i].entry;
    if (has_entry || g->nfns == VG_FNS) break;
    vg_fn *f = new_fn(g, true);
    const char *name = entry_name(g);
    f->id = VID(P_FUNC, spvgen_compute_main, (M_, name, 8, 1, 1), ", %s, 8, 1, 1", cstr(name));
    g->cur = (int)(f - g->fns);
    g->in_fn = g->block_open = g->reach = true;
    g->nvals = g->nfvars = g->nfaggs = 0;
    g->ncf = 0;
  }
}

static spvgen_module_desc valid_desc(fz_rng *r) {
  spvgen_module_desc d;
  memset(&d, 0, sizeof d);
  if (chance(r, 40)) d.version = SPVGEN_VERSION(1, below(r, 7));
  if (chance(r, 30)) d.memory_model = SpvMemoryModelGLSL450;
  if (chance(r, 10)) d.memory_model = SpvMemoryModelVulkan;
  if (chance(r, 20)) d.generator = (uint32_t)rng_next(r);
  return d;
}

static void trace_create(const spvgen_module_desc *d) {
  trace("spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.version = 0x%x, "
        ".addressing = %u, .memory_model = %u, .generator = %u, .no_memory_model = %d});",
        d->version, d->addressing, d->memory_model, d->generator, d->no_memory_model);
}

/* Runs a valid sequence of `steps` steps on z->m (created or reset with desc by the
 * caller), winds it down. */
static void vg_run(fz *z, const spvgen_module_desc *desc, uint32_t steps, bool wind_down) {
  vg *g = calloc(1, sizeof *g);
  if (!g) return;
  g->z = z;
  g->m = z->m;
  g->r = &z->r;
  g->cur = -1;
  g->version = desc->version ? desc->version : SPVGEN_VERSION(1, 6);
  g->memory_model = desc->memory_model;
  g->next_spec_id = below(&z->r, 4);
  for (uint32_t i = 0; i < steps && vg_ok(g); i++) vg_step(g);
  if (wind_down) vg_wind_down(g);
  free(g);
}

/* ====================================================== anything-goes sequences ==== */

/* An id argument: mostly one the module returned (of the kind the parameter wants,
 * or any kind), sometimes any id below the bound, the bound itself, 0 or huge. */
static uint32_t any_id(fz *z, int want) {
  uint32_t bound = z->m ? spvgen_module_bound(z->m) : 1;
  uint32_t x = below(&z->r, 100);
  int pool = want;
  if (x >= 60 && x < 75) pool = (int)below(&z->r, P_COUNT);
  else if (x >= 75 && x < 80) pool = P_RESERVED;
  if (x < 80 && z->pool_n[pool]) return z->pool[pool][below(&z->r, z->pool_n[pool])];
  if (x < 90) return 1 + below(&z->r, bound > 1 ? bound - 1 : 1);
  if (x < 93) return bound + below(&z->r, 2);
  if (x < 96) return 0;
  static const uint32_t huge[] = {0xFFFFFFFFu, 0x80000000u, 0x3FFFFFu, 0xFFFFu, 0x10000u};
  return huge[below(&z->r, 5)];
}

/* A literal or enumerant argument. */
static uint32_t any_lit(fz *z) {
  static const uint32_t interesting[] = {
      0, 1, 2, 3, 4, 5, 8, 16, 32, 64, 128, 4214, 4215, 5116, 5118, 4212, 4213, 4456, 5349,
      1000491000, 1000491001, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0xFFFFu, 65535, 65536};
  uint32_t x = below(&z->r, 100);
  if (x < 45) return below(&z->r, 9);
  if (x < 85) return interesting[below(&z->r, sizeof interesting / sizeof interesting[0])];
  return (uint32_t)rng_next(&z->r);
}

/* An operand array of n (random ids and literals); NULL now and then. */
#define ARR_MAX 300
static const uint32_t *any_array(fz *z, uint32_t *arr, uint32_t *n, int want) {
  uint32_t x = below(&z->r, 100);
  if (x < 6) { /* NULL with a count */
    static const uint32_t counts[] = {1, 2, 3, 17, 255, 65535, 0xFFFFFFFFu};
    *n = counts[below(&z->r, 7)];
    return NULL;
  }
  *n = x < 90 ? below(&z->r, 6) : x < 97 ? below(&z->r, 40) : below(&z->r, ARR_MAX + 1);
  for (uint32_t i = 0; i < *n; i++) arr[i] = chance(&z->r, 80) ? any_id(z, want) : any_lit(z);
  if (x < 9 && *n == 0) return NULL;
  return arr;
}

static const char *any_name(fz *z) {
  static char longname[700];
  static const char *const names[] = {"main", "", "x", "GLSL.std.450", "SPV_KHR_16bit_storage",
                                      "SPV_NV_cooperative_matrix2", "not an extension",
                                      "\xc3\xa9t\xc3\xa9", "a\x01" "b"};
  uint32_t x = below(&z->r, 100);
  if (x < 8) return NULL;
  if (x < 12) {
    size_t n = 1 + below(&z->r, sizeof longname - 1);
    for (size_t i = 0; i < n; i++) longname[i] = (char)('a' + i % 26);
    longname[n] = 0;
    return longname;
  }
  return names[below(&z->r, sizeof names / sizeof names[0])];
}

static spvgen_module_desc any_desc(fz *z) {
  spvgen_module_desc d;
  memset(&d, 0, sizeof d);
  if (chance(&z->r, 85)) return valid_desc(&z->r);
  d.version = chance(&z->r, 50) ? SPVGEN_VERSION(below(&z->r, 3), below(&z->r, 9)) : any_lit(z);
  d.addressing = chance(&z->r, 70) ? below(&z->r, 3) : any_lit(z);
  if (chance(&z->r, 20)) d.addressing = SpvAddressingModelPhysicalStorageBuffer64;
  d.memory_model = chance(&z->r, 70) ? below(&z->r, 4) : any_lit(z);
  d.generator = any_lit(z);
  d.no_memory_model = chance(&z->r, 20);
  return d;
}

/* Generated emitters whose arguments after m are all uint32_t: {name, function, returns
 * an id, argument count}. Called through the right function type. */
typedef struct gen_emitter {
  const char *name;
  void (*fn)(void);
  bool returns_id;
  uint8_t nargs;
} gen_emitter;
#define GI(f, n) {#f, (void (*)(void))f, true, n}
#define GV(f, n) {#f, (void (*)(void))f, false, n}
static const gen_emitter gen_emitters[] = {
    GI(spvgen_op_type_void, 0), GI(spvgen_op_type_bool, 0), GI(spvgen_op_type_sampler, 0),
    GI(spvgen_op_type_event, 0), GI(spvgen_op_type_queue, 0), GI(spvgen_op_label, 0),
    GI(spvgen_op_undef, 1), GI(spvgen_op_constant_true, 1), GI(spvgen_op_constant_false, 1),
    GI(spvgen_op_constant_null, 1), GI(spvgen_op_spec_constant_true, 1),
    GI(spvgen_op_function_parameter, 1), GI(spvgen_op_type_runtime_array, 1),
    GI(spvgen_op_type_sampled_image, 1), GI(spvgen_op_type_pipe, 1),
    GI(spvgen_op_create_tensor_layout_nv, 1),
    GI(spvgen_op_type_int, 2), GI(spvgen_op_type_float, 2), GI(spvgen_op_type_vector, 2),
    GI(spvgen_op_type_matrix, 2), GI(spvgen_op_type_array, 2), GI(spvgen_op_type_pointer, 2),
    GI(spvgen_op_copy_object, 2), GI(spvgen_op_s_negate, 2), GI(spvgen_op_f_negate, 2),
    GI(spvgen_op_not, 2), GI(spvgen_op_logical_not, 2), GI(spvgen_op_bitcast, 2),
    GI(spvgen_op_convert_u_to_f, 2), GI(spvgen_op_u_convert, 2), GI(spvgen_op_f_convert, 2),
    GI(spvgen_op_type_cooperative_vector_nv, 2), GI(spvgen_op_cooperative_matrix_length_khr, 2),
    GI(spvgen_op_type_tensor_layout_nv, 2), GI(spvgen_op_spec_constant_op, 2),
    GI(spvgen_op_cooperative_matrix_convert_nv, 2),
    GI(spvgen_op_i_add, 3), GI(spvgen_op_f_add, 3), GI(spvgen_op_i_mul, 3), GI(spvgen_op_f_div, 3),
    GI(spvgen_op_i_equal, 3), GI(spvgen_op_s_less_than, 3), GI(spvgen_op_logical_and, 3),
    GI(spvgen_op_shift_left_logical, 3), GI(spvgen_op_variable, 3), GI(spvgen_op_array_length, 3),
    GI(spvgen_op_vector_times_scalar, 3), GI(spvgen_op_dot, 3),
    GI(spvgen_op_select, 4), GI(spvgen_op_atomic_load, 4),
    GI(spvgen_op_atomic_i_add, 5), GI(spvgen_op_cooperative_matrix_mul_add_khr, 5),
    GI(spvgen_op_type_cooperative_matrix_khr, 5), GI(spvgen_op_group_non_uniform_i_add, 5),
    GI(spvgen_op_type_image, 8),
    GV(spvgen_op_nop, 0), GV(spvgen_op_return, 0), GV(spvgen_op_unreachable, 0), GV(spvgen_op_kill, 0),
    GV(spvgen_op_function_end, 0), GV(spvgen_op_branch, 1), GV(spvgen_op_return_value, 1),
    GV(spvgen_op_selection_merge, 2), GV(spvgen_op_memory_barrier, 2),
    GV(spvgen_op_control_barrier, 3), GV(spvgen_op_line, 3), GV(spvgen_op_atomic_store, 4),
};

typedef uint32_t (*gi0)(spvgen_module *);
typedef uint32_t (*gi1)(spvgen_module *, uint32_t);
typedef uint32_t (*gi2)(spvgen_module *, uint32_t, uint32_t);
typedef uint32_t (*gi3)(spvgen_module *, uint32_t, uint32_t, uint32_t);
typedef uint32_t (*gi4)(spvgen_module *, uint32_t, uint32_t, uint32_t, uint32_t);
typedef uint32_t (*gi5)(spvgen_module *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);
typedef uint32_t (*gi8)(spvgen_module *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                        uint32_t, uint32_t);
typedef void (*gv0)(spvgen_module *);
typedef void (*gv1)(spvgen_module *, uint32_t);
typedef void (*gv2)(spvgen_module *, uint32_t, uint32_t);
typedef void (*gv3)(spvgen_module *, uint32_t, uint32_t, uint32_t);
typedef void (*gv4)(spvgen_module *, uint32_t, uint32_t, uint32_t, uint32_t);

/* Calls a generated emitter; -1 when the shape is not one of the above. */
static int64_t call_generated(const gen_emitter *e, spvgen_module *m, const uint32_t *a) {
  if (e->returns_id) {
    switch (e->nargs) {
    case 0: return ((gi0)e->fn)(m);
    case 1: return ((gi1)e->fn)(m, a[0]);
    case 2: return ((gi2)e->fn)(m, a[0], a[1]);
    case 3: return ((gi3)e->fn)(m, a[0], a[1], a[2]);
    case 4: return ((gi4)e->fn)(m, a[0], a[1], a[2], a[3]);
    case 5: return ((gi5)e->fn)(m, a[0], a[1], a[2], a[3], a[4]);
    case 8: return ((gi8)e->fn)(m, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    default: return -1;
    }
  }
  switch (e->nargs) {
  case 0: ((gv0)e->fn)(m); return 0;
  case 1: ((gv1)e->fn)(m, a[0]); return 0;
  case 2: ((gv2)e->fn)(m, a[0], a[1]); return 0;
  case 3: ((gv3)e->fn)(m, a[0], a[1], a[2]); return 0;
  case 4: ((gv4)e->fn)(m, a[0], a[1], a[2], a[3]); return 0;
  default: return -1;
  }
}

/* Opcodes the raw emitters are given: real ones (types with forward-declared operands
 * among them), then anything. */
static uint32_t any_opcode(fz *z) {
  static const SpvOp real[] = {
      SpvOpNop, SpvOpUndef, SpvOpName, SpvOpMemberName, SpvOpString, SpvOpLine, SpvOpExtension,
      SpvOpExtInstImport, SpvOpExtInst, SpvOpMemoryModel, SpvOpEntryPoint, SpvOpExecutionMode,
      SpvOpCapability, SpvOpTypeVoid, SpvOpTypeBool, SpvOpTypeInt, SpvOpTypeFloat,
      SpvOpTypeVector, SpvOpTypeMatrix, SpvOpTypeImage, SpvOpTypeArray, SpvOpTypeRuntimeArray,
      SpvOpTypeStruct, SpvOpTypePointer, SpvOpTypeFunction, SpvOpTypeForwardPointer,
      SpvOpConstantTrue, SpvOpConstant, SpvOpConstantComposite, SpvOpConstantNull,
      SpvOpSpecConstant, SpvOpSpecConstantComposite, SpvOpSpecConstantOp, SpvOpFunction,
      SpvOpFunctionParameter, SpvOpFunctionEnd, SpvOpFunctionCall, SpvOpVariable, SpvOpLoad,
      SpvOpStore, SpvOpCopyMemory, SpvOpAccessChain, SpvOpDecorate, SpvOpMemberDecorate,
      SpvOpDecorateId, SpvOpVectorShuffle, SpvOpCompositeConstruct, SpvOpCompositeExtract,
      SpvOpCompositeInsert, SpvOpIAdd, SpvOpFAdd, SpvOpSelect, SpvOpPhi, SpvOpLoopMerge,
      SpvOpSelectionMerge, SpvOpLabel, SpvOpBranch, SpvOpBranchConditional, SpvOpSwitch,
      SpvOpReturn, SpvOpReturnValue, SpvOpUnreachable, SpvOpControlBarrier, SpvOpAtomicIAdd,
      SpvOpGroupNonUniformIAdd, SpvOpTypeCooperativeMatrixKHR, SpvOpCooperativeMatrixLoadKHR,
      SpvOpCooperativeMatrixMulAddKHR, SpvOpTypeCooperativeVectorNV, SpvOpTypeTensorLayoutNV,
      SpvOpTypeTensorViewNV, SpvOpCooperativeMatrixReduceNV, SpvOpExecutionModeId,
      SpvOpDecorateString, SpvOpModuleProcessed, SpvOpSourceExtension, SpvOpSource};
  uint32_t x = below(&z->r, 100);
  if (x < 70) return (uint32_t)real[below(&z->r, sizeof real / sizeof real[0])];
  if (x < 82) return below(&z->r, 450);
  if (x < 90) return 4400 + below(&z->r, 2200);
  if (x < 95) return below(&z->r, 0x10000);
  return (uint32_t)rng_next(&z->r);
}

/* Raw operand words: ids (reserved ones often: forward declarations), literals, the
 * bytes of a string now and then. */
static uint32_t any_operands(fz *z, uint32_t *w, uint32_t max) {
  uint32_t n = chance(&z->r, 90) ? below(&z->r, 9) : below(&z->r, max + 1);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = below(&z->r, 100);
    if (x < 25) w[i] = any_id(z, P_RESERVED);
    else if (x < 55) w[i] = any_id(z, chance(&z->r, 50) ? P_TYPE : P_VALUE);
    else if (x < 85) w[i] = any_lit(z);
    else if (x < 93) w[i] = 0x6e69616du; /* "main" without its NUL */
    else w[i] = 0;
  }
  return n;
}

/* A type declared through a reserved id, with reserved ids among its operands: the
 * forward declarations raw emission allows (and their cycles). */
static void forward_type(fz *z) {
  static const SpvOp ops[] = {SpvOpTypeArray, SpvOpTypeRuntimeArray, SpvOpTypeVector,
                              SpvOpTypeMatrix, SpvOpTypePointer, SpvOpTypeStruct,
                              SpvOpTypeFunction, SpvOpTypeCooperativeVectorNV};
  spvgen_module *m = z->m;
  SpvOp op = ops[below(&z->r, sizeof ops / sizeof ops[0])];
  uint32_t r = z->pool_n[P_RESERVED] && chance(&z->r, 50) ? any_id(z, P_RESERVED)
                                                           : FZ_ID(z, P_RESERVED, spvgen_reserve_id, (m), "%s", "");
  uint32_t w[6], n;
  uint32_t other = chance(&z->r, 60) ? r : any_id(z, chance(&z->r, 50) ? P_RESERVED : P_TYPE);
  switch (op) {
  case SpvOpTypeArray: {
    uint32_t len = chance(&z->r, 70) ? FZ_ID(z, P_CONST, spvgen_const_u32, (m, 4), "%s", ", 4") : any_id(z, P_CONST);
    w[0] = r, w[1] = other, w[2] = len, n = 3;
    break;
  }
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
  case SpvOpTypeCooperativeVectorNV:
    w[0] = r, w[1] = other, w[2] = op == SpvOpTypeCooperativeVectorNV ? any_id(z, P_CONST) : 2 + below(&z->r, 3);
    n = 3;
    break;
  case SpvOpTypePointer: w[0] = r, w[1] = below(&z->r, 2) ? SpvStorageClassPrivate : SpvStorageClassFunction, w[2] = other, n = 3; break;
  case SpvOpTypeStruct: w[0] = r, w[1] = other, w[2] = any_id(z, P_TYPE), n = 1 + below(&z->r, 3); break;
  case SpvOpTypeFunction: w[0] = r, w[1] = other, w[2] = other, n = 2 + below(&z->r, 2); break;
  default: w[0] = r, w[1] = other, n = 2; break;
  }
  trace("spvgen_emit(m, %u, %s, %u);", (uint32_t)op, carr(w, n), n);
  spvgen_emit(m, op, w, n);
  fz_after(z, "spvgen_emit", EMITS, 0);
  if (!z->errored) pool_add(z, P_TYPE, r);
  if (chance(&z->r, 70)) fz_queries(z, r);
}

/* Whatever the calls were, finished words are a header and whole instructions. */
static void check_whole_instructions(fz *z, const uint32_t *w, size_t count) {
  size_t i = 5;
  while (i < count && (w[i] >> 16) != 0) i += w[i] >> 16;
  FZ_CHECK(z, i == count, "the finished words are not whole instructions (%s at word %zu of %zu)",
           i < count ? "a zero word count" : "the last one runs past the end", i, count);
}

/* One random call of an anything-goes sequence. */
static void chaos_step(fz *z) {
  spvgen_module *m = z->m;
  fz_rng *r = &z->r;
  uint32_t arr[ARR_MAX + 8], n = 0;
  const uint32_t *a;
  uint32_t x = below(r, 84);
  switch (x) {
  case 0: FZ_ID(z, P_TYPE, spvgen_type_void, (m), "%s", ""); break;
  case 1: FZ_ID(z, P_TYPE, spvgen_type_bool, (m), "%s", ""); break;
  case 2: {
    uint32_t w = any_lit(z);
    bool s = chance(r, 50);
    FZ_ID(z, P_TYPE, spvgen_type_int, (m, w, s), ", %u, %d", w, s);
    break;
  }
  case 3: {
    uint32_t w = any_lit(z);
    FZ_ID(z, P_TYPE, spvgen_type_float, (m, w), ", %u", w);
    break;
  }
  case 4: {
    uint32_t w = any_lit(z), e = chance(r, 50) ? any_lit(z) : 4214 + below(r, 2);
    FZ_ID(z, P_TYPE, spvgen_type_float_encoded, (m, w, e), ", %u, %u", w, e);
    break;
  }
  case 5: {
    uint32_t c = any_id(z, P_TYPE), k = chance(r, 70) ? below(r, 6) : any_lit(z);
    FZ_ID(z, P_TYPE, spvgen_type_vector, (m, c, k), ", %u, %u", c, k);
    break;
  }
  case 6: {
    uint32_t c = any_id(z, P_TYPE), k = below(r, 6);
    FZ_ID(z, P_TYPE, spvgen_type_matrix, (m, c, k), ", %u, %u", c, k);
    break;
  }
  case 7: {
    uint32_t e = any_id(z, P_TYPE), l = any_id(z, P_CONST);
    if (chance(r, 50)) FZ_ID(z, P_TYPE, spvgen_type_array_id, (m, e, l), ", %u, %u", e, l);
    else FZ_ID(z, P_TYPE, spvgen_type_array, (m, e, l), ", %u, %u", e, l);
    break;
  }
  case 8: {
    uint32_t e = any_id(z, P_TYPE);
    FZ_ID(z, P_TYPE, spvgen_type_runtime_array, (m, e), ", %u", e);
    break;
  }
  case 9: {
    uint32_t e = any_id(z, P_TYPE), l = any_id(z, P_CONST), s = any_lit(z);
    if (chance(r, 25))
      FZ_ID(z, P_TYPE, spvgen_type_array_strided, (m, e, l, s), ", %u, %u, %u", e, l, s);
    else if (chance(r, 33))
      FZ_ID(z, P_TYPE, spvgen_type_array_strided_id, (m, e, l, s), ", %u, %u, %u", e, l, s);
    else
      FZ_ID(z, P_TYPE, spvgen_type_runtime_array_strided, (m, e, s), ", %u, %u", e, s);
    break;
  }
  case 10:
    a = any_array(z, arr, &n, P_TYPE);
    FZ_ID(z, P_TYPE, spvgen_type_struct, (m, a, n), ", %s, %u", carr(a, n), n);
    break;
  case 11: {
    uint32_t sc = chance(r, 80) ? below(r, 13) : any_lit(z), p = any_id(z, P_TYPE);
    FZ_ID(z, P_TYPE, spvgen_type_pointer, (m, (SpvStorageClass)sc, p), ", %u, %u", sc, p);
    break;
  }
  case 12: {
    uint32_t rt = any_id(z, P_TYPE);
    a = any_array(z, arr, &n, P_TYPE);
    FZ_ID(z, P_TYPE, spvgen_type_function, (m, rt, a, n), ", %u, %s, %u", rt, carr(a, n), n);
    break;
  }
  case 13: {
    bool b = chance(r, 50);
    FZ_ID(z, P_CONST, spvgen_const_bool, (m, b), ", %d", b);
    break;
  }
  case 14: {
    uint32_t v = any_lit(z);
    if (chance(r, 50))
      FZ_ID(z, P_CONST, spvgen_const_u32, (m, v), ", %u", v);
    else
      FZ_ID(z, P_CONST, spvgen_const_i32, (m, (int32_t)v), ", %d", (int32_t)v);
    break;
  }
  case 15: {
    float f = (float)(int32_t)any_lit(z) / 3.0f;
    FZ_ID(z, P_CONST, spvgen_const_f32, (m, f), ", (float)%a", (double)f);
    break;
  }
  case 16: {
    uint32_t t = any_id(z, P_TYPE);
    uint64_t b = rng_next(r);
    FZ_ID(z, P_CONST, spvgen_const_bits, (m, t, b), ", %u, 0x%llxull", t, (unsigned long long)b);
    break;
  }
  case 17: {
    uint32_t t = any_id(z, P_TYPE);
    a = any_array(z, arr, &n, P_CONST);
    FZ_ID(z, P_CONST, spvgen_const_composite, (m, t, a, n), ", %u, %s, %u", t, carr(a, n), n);
    break;
  }
  case 18: {
    uint32_t t = any_id(z, P_TYPE);
    FZ_ID(z, P_CONST, spvgen_const_null, (m, t), ", %u", t);
    break;
  }
  case 19: {
    uint32_t t = any_id(z, P_TYPE), s = chance(r, 70) ? below(r, 8) : any_lit(z);
    uint64_t b = rng_next(r);
    if (chance(r, 40))
      FZ_ID(z, P_CONST, spvgen_spec_const_bits, (m, t, b, s), ", %u, 0x%llxull, %u", t,
            (unsigned long long)b, s);
    else if (chance(r, 50))
      FZ_ID(z, P_CONST, spvgen_spec_const_u32, (m, (uint32_t)b, s), ", %u, %u", (uint32_t)b, s);
    else
      FZ_ID(z, P_CONST, spvgen_spec_const_bool, (m, b & 1, s), ", %d, %u", (int)(b & 1), s);
    break;
  }
  case 20: {
    uint32_t pt = any_id(z, P_TYPE), sc = chance(r, 80) ? below(r, 13) : any_lit(z),
             init = chance(r, 60) ? 0 : any_id(z, P_CONST);
    FZ_ID(z, P_PTR, spvgen_variable, (m, pt, (SpvStorageClass)sc, init), ", %u, %u, %u", pt, sc, init);
    break;
  }
  case 21: {
    uint32_t t = any_id(z, P_TYPE), set = any_lit(z), b = any_lit(z), ep = 7;
    bool ro = chance(r, 50), want_ep = chance(r, 70);
    trace("spvgen_storage_buffer(m, %u, %u, %u, %d, %s);", t, set, b, ro, want_ep ? "&ep" : "NULL");
    uint32_t id = spvgen_storage_buffer(m, t, set, b, ro, want_ep ? &ep : NULL);
    fz_id_result(z, P_PTR, "spvgen_storage_buffer", id);
    if (want_ep) {
      FZ_CHECK(z, (id != 0) == (ep != 0), "spvgen_storage_buffer returned %u but the element pointer type %u", id, ep);
      if (id) pool_add(z, P_TYPE, ep);
    }
    break;
  }
  case 22: {
    uint32_t b = chance(r, 70) ? below(r, 50) : any_lit(z), t = any_id(z, P_TYPE);
    FZ_ID(z, P_PTR, spvgen_builtin_input, (m, (SpvBuiltIn)b, t), ", %u, %u", b, t);
    break;
  }
  case 23: {
    uint32_t t = any_id(z, P_VALUE), d = chance(r, 70) ? below(r, 50) : any_lit(z);
    a = any_array(z, arr, &n, P_CONST);
    if (n > 20) n = 20; /* (the calls refuse more than 16 before reading them) */
    switch (below(r, 4)) {
    case 0: FZ_VOID(z, spvgen_decorate, (m, t, (SpvDecoration)d), ", %u, %u", t, d); break;
    case 1: FZ_VOID(z, spvgen_decorate1, (m, t, (SpvDecoration)d, n), ", %u, %u, %u", t, d, n); break;
    case 2:
      FZ_VOID(z, spvgen_decorate_n, (m, t, (SpvDecoration)d, a, n), ", %u, %u, %s, %u", t, d, carr(a, n), n);
      break;
    default:
      FZ_VOID(z, spvgen_decorate_id, (m, t, (SpvDecoration)d, a, n), ", %u, %u, %s, %u", t, d, carr(a, n), n);
      break;
    }
    break;
  }
  case 24: {
    uint32_t s = any_id(z, P_TYPE), k = chance(r, 70) ? below(r, 4) : any_lit(z),
             d = chance(r, 70) ? below(r, 50) : any_lit(z), v = any_lit(z);
    if (chance(r, 50))
      FZ_VOID(z, spvgen_member_decorate, (m, s, k, (SpvDecoration)d), ", %u, %u, %u", s, k, d);
    else
      FZ_VOID(z, spvgen_member_decorate1, (m, s, k, (SpvDecoration)d, v), ", %u, %u, %u, %u", s, k, d, v);
    break;
  }
  case 25: {
    uint32_t t = any_id(z, P_VALUE);
    const char *s = any_name(z);
    FZ_VOID(z, spvgen_name, (m, t, s), ", %u, %s", t, cstr(s));
    break;
  }
  case 26: {
    uint32_t t = any_id(z, P_TYPE), k = chance(r, 70) ? below(r, 4) : any_lit(z);
    const char *s = any_name(z);
    FZ_VOID(z, spvgen_member_name, (m, t, k, s), ", %u, %u, %s", t, k, cstr(s));
    break;
  }
  case 27: {
    uint32_t model = chance(r, 70) ? SpvExecutionModelGLCompute : any_lit(z), f = any_id(z, P_FUNC);
    const char *s = any_name(z);
    if (chance(r, 50)) {
      FZ_VOID(z, spvgen_entry_point, (m, (SpvExecutionModel)model, f, s, SPVGEN_INTERFACE_ALL),
              ", %u, %u, %s, SPVGEN_INTERFACE_ALL", model, f, cstr(s));
    } else {
      a = any_array(z, arr, &n, P_PTR);
      FZ_VOID(z, spvgen_entry_point, (m, (SpvExecutionModel)model, f, s, a, n), ", %u, %u, %s, %s, %u",
              model, f, cstr(s), carr(a, n), n);
    }
    break;
  }
  case 28: {
    uint32_t f = any_id(z, P_FUNC), mode = chance(r, 70) ? below(r, 40) : any_lit(z);
    a = any_array(z, arr, &n, P_CONST);
    if (chance(r, 50))
      FZ_VOID(z, spvgen_execution_mode, (m, f, (SpvExecutionMode)mode, a, n), ", %u, %u, %s, %u", f, mode,
              carr(a, n), n);
    else
      FZ_VOID(z, spvgen_execution_mode_id, (m, f, (SpvExecutionMode)mode, a, n), ", %u, %u, %s, %u", f,
              mode, carr(a, n), n);
    break;
  }
  case 29: {
    uint32_t f = any_id(z, P_FUNC), sx = any_lit(z), sy = below(r, 3), sz = 1;
    FZ_VOID(z, spvgen_local_size, (m, f, sx, sy, sz), ", %u, %u, %u, %u", f, sx, sy, sz);
    break;
  }
  case 30: case 31: {
    uint32_t rt = any_id(z, P_TYPE), ctl = chance(r, 80) ? below(r, 4) : any_lit(z), params[ARR_MAX + 8];
    a = any_array(z, arr, &n, P_TYPE);
    bool want = chance(r, 70);
    if (x == 30) {
      trace("spvgen_function_begin(m, %u, %u, %s, %u, %s);", rt, ctl, carr(a, n), n, want ? "params" : "NULL");
      uint32_t id = spvgen_function_begin(m, rt, (SpvFunctionControlMask)ctl, a, n, want ? params : NULL);
      fz_id_result(z, P_FUNC, "spvgen_function_begin", id);
    } else {
      uint32_t f = any_id(z, P_RESERVED);
      trace("spvgen_function_begin_id(m, %u, %u, %u, %s, %u, %s);", f, rt, ctl, carr(a, n), n,
            want ? "params" : "NULL");
      uint32_t id = spvgen_function_begin_id(m, f, rt, (SpvFunctionControlMask)ctl, a, n, want ? params : NULL);
      fz_id_result(z, P_FUNC, "spvgen_function_begin_id", id);
    }
    if (want && !z->errored && a)
      for (uint32_t i = 0; i < n && i < 8; i++) pool_add(z, P_VALUE, params[i]);
    break;
  }
  case 32: FZ_VOID(z, spvgen_function_end, (m), "%s", ""); break;
  case 33: {
    const char *s = any_name(z);
    uint32_t sx = chance(r, 80) ? 1 + below(r, 64) : any_lit(z);
    FZ_ID(z, P_FUNC, spvgen_compute_main, (m, s, sx, 1, 1), ", %s, %u, 1, 1", cstr(s), sx);
    break;
  }
  case 34: FZ_ID(z, P_LABEL, spvgen_label, (m), "%s", ""); break;
  case 35: {
    uint32_t l = chance(r, 30) ? 0 : any_id(z, chance(r, 50) ? P_LABEL : P_RESERVED);
    FZ_ID(z, P_LABEL, spvgen_block, (m, l), ", %u", l);
    break;
  }
  case 36: {
    uint32_t c = any_id(z, P_VALUE);
    FZ_VOID(z, spvgen_if, (m, c), ", %u", c);
    break;
  }
  case 37: FZ_VOID(z, spvgen_else, (m), "%s", ""); break;
  case 38: FZ_VOID(z, spvgen_end_if, (m), "%s", ""); break;
  case 39: {
    uint32_t c = chance(r, 70) ? below(r, 4) : any_lit(z);
    FZ_VOID(z, spvgen_loop, (m, (SpvLoopControlMask)c), ", %u", c);
    break;
  }
  case 40: {
    uint32_t c = any_id(z, P_VALUE);
    FZ_VOID(z, spvgen_loop_while, (m, c), ", %u", c);
    break;
  }
  case 41: FZ_VOID(z, spvgen_loop_continue_block, (m), "%s", ""); break;
  case 42: FZ_VOID(z, spvgen_end_loop, (m), "%s", ""); break;
  case 43: FZ_VOID(z, spvgen_break, (m), "%s", ""); break;
  case 44: FZ_VOID(z, spvgen_continue, (m), "%s", ""); break;
  case 45: FZ_VOID(z, spvgen_return, (m), "%s", ""); break;
  case 46: {
    uint32_t v = any_id(z, P_VALUE);
    FZ_VOID(z, spvgen_return_value, (m, v), ", %u", v);
    break;
  }
  case 47: case 48: case 49: { /* raw emission */
    uint32_t op = any_opcode(z);
    bool null_ops = chance(r, 4);
    n = any_operands(z, arr, ARR_MAX);
    if (null_ops && !n) n = 1 + below(r, 3);
    trace("spvgen_emit(m, %u, %s, %u);", op, carr(null_ops ? NULL : arr, n), n);
    spvgen_emit(m, (SpvOp)op, null_ops ? NULL : arr, n);
    fz_after(z, "spvgen_emit", EMITS, 0);
    break;
  }
  case 50: case 51: {
    uint32_t op = any_opcode(z), rt = chance(r, 20) ? 0 : any_id(z, P_TYPE);
    bool null_ops = chance(r, 4);
    n = any_operands(z, arr, ARR_MAX);
    if (null_ops && !n) n = 1 + below(r, 3);
    trace("spvgen_emit_result(m, %u, %u, %s, %u);", op, rt, carr(null_ops ? NULL : arr, n), n);
    uint32_t id = spvgen_emit_result(m, (SpvOp)op, rt, null_ops ? NULL : arr, n);
    fz_id_result(z, rt ? P_VALUE : P_TYPE, "spvgen_emit_result", id);
    break;
  }
  case 52: forward_type(z); break;
  case 53: {
    uint32_t t = any_id(z, P_TYPE), p = any_id(z, P_PTR);
    FZ_ID(z, P_VALUE, spvgen_load, (m, t, p), ", %u, %u", t, p);
    break;
  }
  case 54: {
    uint32_t p = any_id(z, P_PTR), v = any_id(z, P_VALUE);
    FZ_VOID(z, spvgen_store, (m, p, v), ", %u, %u", p, v);
    break;
  }
  case 55: {
    uint32_t pt = any_id(z, P_TYPE), b = any_id(z, P_PTR);
    a = any_array(z, arr, &n, P_CONST);
    FZ_ID(z, P_PTR, spvgen_access_chain, (m, pt, b, a, n), ", %u, %u, %s, %u", pt, b, carr(a, n), n);
    break;
  }
  case 56: {
    uint32_t t = any_id(z, P_TYPE), set = chance(r, 60) ? any_id(z, P_OTHER) : any_id(z, P_VALUE),
             ins = chance(r, 70) ? below(r, 82) : any_lit(z);
    a = any_array(z, arr, &n, P_VALUE);
    FZ_ID(z, P_VALUE, spvgen_ext_inst, (m, t, set, ins, a, n), ", %u, %u, %u, %s, %u", t, set, ins,
          carr(a, n), n);
    break;
  }
  case 57: FZ_VOID(z, spvgen_workgroup_barrier, (m), "%s", ""); break;
  case 58: {
    uint32_t c = chance(r, 70) ? below(r, 80) : chance(r, 50) ? 4400 + below(r, 2000) : any_lit(z);
    FZ_VOID(z, spvgen_capability, (m, (SpvCapability)c), ", %u", c);
    break;
  }
  case 59: {
    const char *s = any_name(z);
    FZ_VOID(z, spvgen_extension, (m, s), ", %s", cstr(s));
    break;
  }
  case 60: {
    /* Not an emitting call once the import exists: it hands back the same id. */
    trace("spvgen_glsl_std_450(m);");
    uint32_t id = spvgen_glsl_std_450(m);
    trace_result(id);
    fz_after(z, "spvgen_glsl_std_450", ID, id);
    if (id && !z->errored) pool_add(z, P_OTHER, id);
    break;
  }
  case 61: {
    const char *s = any_name(z);
    FZ_ID(z, P_OTHER, spvgen_ext_inst_import, (m, s), ", %s", cstr(s));
    break;
  }
  case 62: case 63: FZ_ID(z, P_RESERVED, spvgen_reserve_id, (m), "%s", ""); break;
  case 64: case 65: case 66: { /* a generated emitter */
    const gen_emitter *e = &gen_emitters[below(r, sizeof gen_emitters / sizeof gen_emitters[0])];
    uint32_t args[8];
    for (uint32_t i = 0; i < 8; i++)
      args[i] = chance(r, 75) ? any_id(z, i == 0 ? P_TYPE : P_VALUE) : any_lit(z);
    trace("%s(m%s);", e->name, cargs(args, e->nargs));
    int64_t id = call_generated(e, m, args);
    if (e->returns_id) {
      trace_result((uint32_t)id);
      fz_after(z, e->name, EMITS | ID, (uint32_t)id);
      if (id > 0 && !z->errored) pool_add(z, P_VALUE, (uint32_t)id);
    } else {
      fz_after(z, e->name, EMITS, 0);
    }
    break;
  }
  case 67: { /* generated emitters with arrays */
    uint32_t t = any_id(z, P_TYPE), b = any_id(z, P_VALUE);
    a = any_array(z, arr, &n, P_VALUE);
    switch (below(r, 5)) {
    case 0:
      FZ_ID(z, P_PTR, spvgen_op_access_chain, (m, t, b, a, n), ", %u, %u, %s, %u", t, b, carr(a, n), n);
      break;
    case 1:
      FZ_ID(z, P_VALUE, spvgen_op_composite_construct, (m, t, a, n), ", %u, %s, %u", t, carr(a, n), n);
      break;
    case 2: {
      uint32_t ma = any_lit(z);
      FZ_ID(z, P_VALUE, spvgen_op_load, (m, t, b, ma, a, n), ", %u, %u, %u, %s, %u", t, b, ma, carr(a, n), n);
      break;
    }
    case 3: {
      uint32_t lc = any_lit(z);
      FZ_VOID(z, spvgen_op_loop_merge, (m, t, b, lc, a, n), ", %u, %u, %u, %s, %u", t, b, lc, carr(a, n), n);
      break;
    }
    default: {
      const char *s = any_name(z);
      FZ_VOID(z, spvgen_op_entry_point, (m, SpvExecutionModelGLCompute, t, s, a, n), ", 5, %u, %s, %s, %u", t,
              cstr(s), carr(a, n), n);
      break;
    }
    }
    break;
  }
  case 68: {
    const uint32_t *w = NULL;
    size_t count = 0;
    if (fz_finish(z, &w, &count)) check_whole_instructions(z, w, count);
    break;
  }
  case 69: {
    spvgen_module_desc d = any_desc(z);
    fz_reset(z, chance(r, 10) ? NULL : &d);
    break;
  }
  case 70: {
    spvgen_status st = (spvgen_status)below(r, 11);
    trace("spvgen_module_fail(m, %u, \"spvgen_fuzz_layer: injected %%u\", %u);", (uint32_t)st, x);
    uint32_t id = spvgen_module_fail(m, st, "spvgen_fuzz_layer: injected %u", x);
    FZ_CHECK(z, id == 0, "spvgen_module_fail returned %u", id);
    fz_after(z, "spvgen_module_fail", 0, 0);
    FZ_CHECK(z, spvgen_module_status(m) != SPVGEN_OK, "spvgen_module_fail left the module OK");
    break;
  }
  default: /* 71..83: queries */
    fz_queries(z, any_id(z, (int)below(r, P_COUNT)));
    break;
  }
}

/* ============================================================= NULL module ==== */

#define NULL_CALLS 60
/* Call number k of the API on a NULL module: nothing to crash on, 0 / false back. */
static void null_call(fz *z, uint32_t k) {
  spvgen_module *m = NULL;
  uint32_t arr[4] = {1, 2, 3, 4}, id = 0;
  const uint32_t *w = arr;
  size_t count = 5;
  trace("/* NULL module: call %u */", k);
  switch (k) {
  case 0: id = spvgen_type_void(m); break;
  case 1: id = spvgen_type_bool(m); break;
  case 2: id = spvgen_type_int(m, 32, false); break;
  case 3: id = spvgen_type_float(m, 32); break;
  case 4: id = spvgen_type_float_encoded(m, 16, 0); break;
  case 5: id = spvgen_type_vector(m, 1, 4); break;
  case 6: id = spvgen_type_matrix(m, 1, 4); break;
  case 7: id = spvgen_type_array(m, 1, 2) + spvgen_type_array_id(m, 1, 2); break;
  case 8: id = spvgen_type_runtime_array_strided(m, 1, 4); break;
  case 9: id = spvgen_type_struct(m, arr, 2); break;
  case 10: id = spvgen_type_pointer(m, SpvStorageClassPrivate, 1); break;
  case 11: id = spvgen_type_function(m, 1, arr, 2); break;
  case 12: id = spvgen_const_bool(m, true); break;
  case 13: id = spvgen_const_u32(m, 7); break;
  case 14: id = spvgen_const_i32(m, -7); break;
  case 15: id = spvgen_const_f32(m, 1.5f); break;
  case 16: id = spvgen_const_bits(m, 1, 3); break;
  case 17: id = spvgen_const_composite(m, 1, arr, 2); break;
  case 18: id = spvgen_const_null(m, 1); break;
  case 19: id = spvgen_spec_const_u32(m, 1, 0); break;
  case 20: id = spvgen_spec_const_bool(m, true, 1); break;
  case 21: id = spvgen_variable(m, 1, SpvStorageClassPrivate, 0); break;
  case 22: id = spvgen_storage_buffer(m, 1, 0, 0, false, arr); CHECK(arr[0] == 0); break;
  case 23: id = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, 1); break;
  case 24: spvgen_decorate(m, 1, SpvDecorationBlock); spvgen_decorate1(m, 1, SpvDecorationBinding, 0); break;
  case 25: spvgen_decorate_n(m, 1, SpvDecorationBinding, arr, 1); spvgen_decorate_id(m, 1, SpvDecorationUniformId, arr, 1); break;
  case 26: spvgen_member_decorate(m, 1, 0, SpvDecorationNonWritable); spvgen_member_decorate1(m, 1, 0, SpvDecorationOffset, 0); break;
  case 27: spvgen_name(m, 1, "x"); spvgen_member_name(m, 1, 0, "y"); break;
  case 28: spvgen_entry_point(m, SpvExecutionModelGLCompute, 1, "main", SPVGEN_INTERFACE_ALL); break;
  case 29: spvgen_execution_mode(m, 1, SpvExecutionModeLocalSize, arr, 3); spvgen_execution_mode_id(m, 1, SpvExecutionModeLocalSizeId, arr, 3); break;
  case 30: spvgen_local_size(m, 1, 1, 1, 1); break;
  case 31: id = spvgen_function_begin(m, 1, SpvFunctionControlMaskNone, NULL, 0, NULL); break;
  case 32: id = spvgen_function_begin_id(m, 2, 1, SpvFunctionControlMaskNone, arr, 1, arr + 2); break;
  case 33: spvgen_function_end(m); break;
  case 34: id = spvgen_compute_main(m, "main", 1, 1, 1); break;
  case 35: id = spvgen_label(m) + spvgen_block(m, 0) + spvgen_current_block(m) + spvgen_block_open(m); break;
  case 36: spvgen_if(m, 1); spvgen_else(m); spvgen_end_if(m); break;
  case 37: spvgen_loop(m, SpvLoopControlMaskNone); spvgen_loop_while(m, 1); spvgen_loop_continue_block(m); spvgen_end_loop(m); break;
  case 38: id = spvgen_loop_header(m) + spvgen_loop_continue_target(m) + spvgen_loop_merge(m); break;
  case 39: spvgen_break(m); spvgen_continue(m); spvgen_return(m); spvgen_return_value(m, 1); break;
  case 40: spvgen_emit(m, SpvOpNop, NULL, 0); spvgen_emit(m, SpvOpIAdd, arr, 4); break;
  case 41: id = spvgen_emit_result(m, SpvOpIAdd, 1, arr, 2); break;
  case 42: id = spvgen_load(m, 1, 2); spvgen_store(m, 1, 2); break;
  case 43: id = spvgen_access_chain(m, 1, 2, arr, 1); break;
  case 44: id = spvgen_ext_inst(m, 1, 2, 3, arr, 1); break;
  case 45: spvgen_workgroup_barrier(m); break;
  case 46: spvgen_capability(m, SpvCapabilityShader); spvgen_extension(m, "SPV_KHR_16bit_storage"); break;
  case 47: id = spvgen_has_capability(m, SpvCapabilityShader) + spvgen_has_extension(m, "x"); break;
  case 48: id = spvgen_glsl_std_450(m) + spvgen_ext_inst_import(m, "GLSL.std.450"); break;
  case 49: id = spvgen_reserve_id(m) + spvgen_type_of(m, 1) + spvgen_is_type(m, 1); break;
  case 50: id = spvgen_type_size(m, 1) + spvgen_type_element(m, 1) + spvgen_type_opcode(m, 1) +
                spvgen_type_operands(m, 1, arr + 3, 1); break;
  case 51: { uint64_t b = 5; id = spvgen_const_value(m, 1, &b); CHECK(b == 5); break; }
  case 52: id = spvgen_module_version(m) + spvgen_module_min_version(m) + spvgen_module_bound(m); break;
  case 53:
    CHECK(spvgen_module_finish(m, &w, &count) != SPVGEN_OK);
    CHECK(w == NULL && count == 0);
    break;
  case 54: CHECK(spvgen_module_status(m) != SPVGEN_OK); break;
  case 55: CHECK(spvgen_module_error(m) != NULL); break;
  case 56: id = spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_x: %d", 1); break;
  case 57: spvgen_module_reset(m, NULL); spvgen_module_destroy(m); break;
  case 58: id = spvgen_op_i_add(m, 1, 2, 3) + spvgen_op_type_int(m, 32, 0); spvgen_op_return(m); break;
  default: id = spvgen_spec_const_bits(m, 1, 2, 3) + spvgen_type_array_strided(m, 1, 2, 4) +
                spvgen_type_array_strided_id(m, 1, 2, 4) +
                spvgen_type_runtime_array(m, 1); break;
  }
  FZ_CHECK(z, id == 0, "call %u on a NULL module returned %u", k, id);
}

/* ================================================================= the runs ==== */

static void begin_sequence(fz *z, uint64_t seed, const char *mode) {
  memset(z, 0, sizeof *z);
  z->seed = seed;
  z->r.s = seed;
  z->mode = mode;
  trace_reset();
  snprintf(g_crash_note, sizeof g_crash_note,
           "%s: %s sequence, seed 0x%016llx (rerun alone: SPVGEN_FUZZ_SEQUENCE=0x%016llx <this "
           "binary> %s)", test_current_name, mode, (unsigned long long)seed,
           (unsigned long long)seed, test_current_name);
}

static void end_sequence(fz *z) {
  if (fuzz_trace_all()) {
    fprintf(stderr, "--- %s sequence 0x%016llx\n", z->mode, (unsigned long long)z->seed);
    fflush(stderr);
    trace_print((size_t)-1);
  }
  forget_words(z);
}

/* Runs `body` for each sequence of the test (or only SPVGEN_FUZZ_SEQUENCE), stopping
 * after a few failing sequences. */
FZ_MAYBE_UNUSED static void for_each_sequence(const char *mode, uint32_t default_count, void (*body)(fz *)) {
  install_crash_report();
  bool only_given;
  uint64_t only = env_u64("SPVGEN_FUZZ_SEQUENCE", 0, &only_given);
  uint32_t n = only_given ? 1 : fuzz_iterations(default_count);
  g_failed_sequences = 0;
  fz *z = malloc(sizeof *z);
  if (!z) return;
  for (uint32_t i = 0; i < n && g_failed_sequences < 3; i++) {
    begin_sequence(z, only_given ? only : sequence_seed(i), mode);
    body(z);
    end_sequence(z);
  }
  free(z);
  snprintf(g_crash_note, sizeof g_crash_note, "%s, between sequences", test_current_name);
}

/* Validates z's finished words; on failure reports the validator's message and the
 * disassembly (the seed and calls follow from fz_fail_at). */
static void expect_valid(fz *z, const uint32_t *w, size_t count) {
  static char message[16384];
  spvgen_status st = spvgen_validate(w, count, NULL, message, sizeof message);
  if (st == SPVGEN_OK) return;
  char *text = NULL;
  spvgen_disassemble(w, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT, &text, NULL, 0);
  fz_fail_at(z, __LINE__,
             "a valid sequence built a module that spirv-val (Vulkan 1.3) rejects: a builder "
             "bug\n  validator: %s\n  disassembly:\n%s",
             message, text ? text : "(none)");
  spvgen_free_text(text);
  /* SPVGEN_TEST_DUMP: the rejected module goes where check_words puts modules (it
   * reports the failure once more). */
  const char *dump = getenv("SPVGEN_TEST_DUMP");
  if (dump && *dump) check_words(w, count);
}


/* One valid sequence on a new module (see tests/core/test_fuzz_api.c). */
FZ_MAYBE_UNUSED static void valid_body(fz *z) {
  spvgen_module_desc d = valid_desc(&z->r);
  uint32_t steps = 40 + below(&z->r, 161);
  uint64_t gen_seed = rng_next(&z->r);
  trace_create(&d);
  z->m = spvgen_module_create(&d);
  if (!z->m) {
    FZ_CHECK(z, false, "spvgen_module_create returned NULL");
    return;
  }
  fz_after(z, "spvgen_module_create", 0, 0);
  z->r.s = gen_seed;
  vg_run(z, &d, steps, true);
  FZ_CHECK(z, !z->errored, "the builder rejected a valid call (%s): %s",
           spvgen_status_name(z->first_status), z->first_msg);
  const uint32_t *w = NULL;
  size_t count = 0;
  if (!z->stop && fz_finish(z, &w, &count)) {
    expect_valid(z, w, count);
    FZ_CHECK(z, spvgen_module_min_version(z->m) <= (w[1] & 0x00FFFF00u),
             "min version 0x%x above the header's 0x%x", spvgen_module_min_version(z->m), w[1]);
  }
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

/* One anything-goes sequence on a new module. */
FZ_MAYBE_UNUSED static void chaos_body(fz *z) {
  spvgen_module_desc d = any_desc(z);
  trace_create(&d);
  z->m = spvgen_module_create(&d);
  if (!z->m) {
    FZ_CHECK(z, false, "spvgen_module_create returned NULL");
    return;
  }
  fz_after(z, "spvgen_module_create", 0, 0);
  uint32_t steps = 40 + below(&z->r, 161);
  /* Half the sequences start with valid calls, so that the random ones land inside
   * functions, constructs and blocks. */
  uint32_t prefix = chance(&z->r, 50) ? below(&z->r, steps) : 0;
  if (prefix) vg_run(z, &d, prefix, chance(&z->r, 30));
  for (uint32_t i = prefix; i < steps && !z->stop; i++) {
    if (chance(&z->r, 2)) {
      null_call(z, below(&z->r, NULL_CALLS));
      continue;
    }
    chaos_step(z);
  }
  const uint32_t *w = NULL;
  size_t count = 0;
  if (!z->stop && fz_finish(z, &w, &count)) check_whole_instructions(z, w, count);
  if (!z->stop && chance(&z->r, 50)) chaos_step(z); /* after finish */
  trace("spvgen_module_destroy(m);");
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

#endif
