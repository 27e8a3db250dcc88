/* lib/tune/cache.c — the tune cache: the text file format (tune_internal.h), reading it
 * without trusting it (in time linear in its size, whatever the order of its lines),
 * atomic and lock-protected saving with a merge that replaces only a regular file of its
 * own, export/import and the compiled-in layer. Numbers are written and read in the C
 * locale whatever the application set. */
#define _XOPEN_SOURCE 700 /* realpath, and POSIX 2008 (newlocale, uselocale) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "tune_internal.h"

typedef struct tune_slot {
  spvgen_tune_entry e;
  bool dirty; /* stored since the last open/save */
} tune_slot;

typedef struct tune_list {
  tune_slot *v;
  size_t n, cap;
} tune_list;

struct spvgen_tune_cache {
  char *path;
  tune_list file;    /* sorted by key */
  tune_list builtin; /* sorted by key */
};

void tune_msg(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, SPVGEN_OK, NULL, fmt, ap); /* the one formatter */
  va_end(ap);
}

/* Appends to msg (already a string). */
static void msg_append(char *msg, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void msg_append(char *msg, size_t size, const char *fmt, ...) {
  if (!msg || !size) return;
  size_t len = strnlen(msg, size);
  if (len + 1 >= size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + len, size - len, fmt, ap);
  va_end(ap);
}

uint32_t tune_crc32(const void *data, size_t n) {
  const unsigned char *p = data;
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int b = 0; b < 8; b++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

/* ---------------------------------------------------------- the C locale ---- */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

/* The calling thread's locale switched to "C" (restore with uselocale(returned)); when
 * the locale object could not be made (out of memory at the first call), (locale_t)0 and
 * nothing switched. */
static locale_t enter_c_locale(void) {
  pthread_once(&c_locale_once, make_c_locale);
  return c_locale ? uselocale(c_locale) : (locale_t)0;
}

static void leave_c_locale(locale_t previous) {
  if (previous) uselocale(previous);
}

int tune_snprintf_c(char *buf, size_t size, const char *fmt, ...) {
  locale_t previous = enter_c_locale();
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  leave_c_locale(previous);
  return n;
}

double tune_strtod_c(const char *s, char **end) {
  locale_t previous = enter_c_locale();
  double v = strtod(s, end);
  leave_c_locale(previous);
  return v;
}

/* ----------------------------------------------------------------- lists ---- */

/* Index of key, or where it would go (*found false). */
static size_t list_find(const tune_list *l, const char *key, bool *found) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(l->v[mid].e.key, key);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *found = false;
  return lo;
}

static bool list_put(tune_list *l, const spvgen_tune_entry *e, bool dirty) {
  bool found;
  size_t i = list_find(l, e->key, &found);
  if (!found) {
    if (l->n == l->cap) {
      size_t cap = l->cap ? l->cap * 2 : 16;
      tune_slot *v = realloc(l->v, cap * sizeof *v);
      if (!v) return false;
      l->v = v;
      l->cap = cap;
    }
    memmove(l->v + i + 1, l->v + i, (l->n - i) * sizeof *l->v);
    l->n++;
  }
  l->v[i].e = *e;
  l->v[i].dirty = dirty;
  return true;
}

static void list_free(tune_list *l) {
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* Appends e (unsorted; list_sort puts the list in order). */
static bool list_append(tune_list *l, const spvgen_tune_entry *e, bool dirty) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    tune_slot *v = realloc(l->v, cap * sizeof *v);
    if (!v) return false;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n].e = *e;
  l->v[l->n].dirty = dirty;
  l->n++;
  return true;
}

static const tune_slot *sort_base;
static int by_key_then_position(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int c = strcmp(sort_base[x].e.key, sort_base[y].e.key);
  return c ? c : (x < y ? -1 : x > y);
}

/* Sorts an appended list by key; of entries with the same key the last appended stays
 * (a later line of a file wins, as it did when lines were put one by one). O(n log n):
 * a file in any order reads in time linear in its size times log n. false: out of
 * memory (the list unchanged). qsort has no context argument, so the comparison reads
 * sort_base: the lists sorted here are private to one call, but two threads reading
 * caches at once would race on it, so the sort holds a lock. */
static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;
static bool list_sort(tune_list *l) {
  if (l->n < 2) return true;
  size_t *order = malloc(l->n * sizeof *order);
  tune_slot *sorted = malloc(l->n * sizeof *sorted);
  if (!order || !sorted) {
    free(order);
    free(sorted);
    return false;
  }
  for (size_t i = 0; i < l->n; i++) order[i] = i;
  pthread_mutex_lock(&sort_lock);
  sort_base = l->v;
  qsort(order, l->n, sizeof *order, by_key_then_position);
  sort_base = NULL;
  pthread_mutex_unlock(&sort_lock);
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++) {
    if (i + 1 < l->n && !strcmp(l->v[order[i]].e.key, l->v[order[i + 1]].e.key)) continue;
    sorted[n++] = l->v[order[i]];
  }
  free(order);
  free(l->v);
  l->v = sorted;
  l->cap = l->n; /* what sorted holds */
  l->n = n;
  return true;
}

/* dst = dst merged with src (both sorted), src's entry winning on the same key, marked
 * dirty when `dirty` (else as src had it); linear. false: out of memory (dst
 * unchanged). */
static bool list_merge(tune_list *dst, const tune_list *src, bool only_dirty, bool dirty) {
  size_t cap = dst->n + src->n + 1;
  tune_slot *v = malloc(cap * sizeof *v);
  if (!v) return false;
  size_t i = 0, j = 0, n = 0;
  while (i < dst->n || j < src->n) {
    if (j < src->n && only_dirty && !src->v[j].dirty) {
      j++;
      continue;
    }
    int c = i == dst->n ? 1 : j == src->n ? -1 : strcmp(dst->v[i].e.key, src->v[j].e.key);
    if (c < 0) {
      v[n++] = dst->v[i++];
    } else {
      v[n] = src->v[j++];
      if (dirty) v[n].dirty = true;
      n++;
      if (c == 0) i++;
    }
  }
  free(dst->v);
  dst->v = v;
  dst->n = n;
  dst->cap = cap;
  return true;
}

/* ---------------------------------------------------------------- format ---- */

static bool key_ok(const char *key, char *why, size_t size) {
  size_t len = strnlen(key, SPVGEN_TUNE_KEY_SIZE);
  if (len == 0) return tune_msg(why, size, "the key is empty"), false;
  if (len >= SPVGEN_TUNE_KEY_SIZE) return tune_msg(why, size, "the key is too long"), false;
  /* "<template> <fields>": the template a lowercase identifier. */
  size_t t = 0;
  while ((key[t] >= 'a' && key[t] <= 'z') || (t && ((key[t] >= '0' && key[t] <= '9') || key[t] == '_'))) t++;
  if (t == 0 || t > 15 || key[t] != ' ' || !key[t + 1])
    return tune_msg(why, size, "the key does not start with a template name and a space"), false;
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)key[i] < 0x20 || (unsigned char)key[i] > 0x7E)
      return tune_msg(why, size, "the key has a tab, control or non-ASCII byte at %zu", i), false;
  return true;
}

static bool variant_ok(const char *v) {
  size_t n = strnlen(v, sizeof ((spvgen_tune_knobs *)0)->variant);
  if (n == 0 || n >= sizeof ((spvgen_tune_knobs *)0)->variant) return false;
  for (size_t i = 0; i < n; i++)
    if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= '0' && v[i] <= '9') || v[i] == '_')) return false;
  return true;
}

bool tune_format_line(const spvgen_tune_entry *e, char *line, size_t size, char *msg, size_t msize) {
  char why[128];
  if (!key_ok(e->key, why, sizeof why)) return tune_msg(msg, msize, "%s", why), false;
  const spvgen_tune_knobs *k = &e->knobs;
  if (!variant_ok(k->variant))
    return tune_msg(msg, msize, "the variant name '%.15s' is not a lowercase identifier", k->variant), false;
  if (!(isfinite(e->median_ns) && e->median_ns >= 0 && e->median_ns <= TUNE_MAX_NS))
    return tune_msg(msg, msize, "median_ns is not a number from 0 to 1e15"), false;
  char body[TUNE_MAX_LINE], split[32] = "";
  if (k->split_k > 1) snprintf(split, sizeof split, " split_k=%u", k->split_k);
  /* compile_ms: optional (lines of caches written before it have none) */
  char compile[40] = "";
  if (e->compile_ms > 0 && isfinite(e->compile_ms) && e->compile_ms < 1e9)
    tune_snprintf_c(compile, sizeof compile, " compile_ms=%.1f", e->compile_ms);
  int n = tune_snprintf_c(body, sizeof body, "%s\tvariant=%s tile=%ux%ux%u wg=%u sg=%u stages=%u unroll=%u%s ns=%.1f at=%ux%ux%ux%u%s",
                   e->key, k->variant, k->tile_m, k->tile_n, k->tile_k, k->workgroup_size, k->subgroups,
                   k->stages, k->unroll, split, e->median_ns, e->m, e->n, e->k, e->batch, compile);
  if (n < 0 || (size_t)n + 14 + 1 > TUNE_MAX_LINE || (size_t)n + 14 >= size)
    return tune_msg(msg, msize, "the entry is longer than a line may be (%d bytes)", TUNE_MAX_LINE), false;
  snprintf(line, size, "%s\tcrc=%08x", body, tune_crc32(body, (size_t)n));
  return true;
}

/* Strict unsigned decimal: digits only, no overflow. */
static bool parse_uint(const char **p, uint32_t *out) {
  const char *s = *p;
  uint64_t v = 0;
  if (*s < '0' || *s > '9') return false;
  for (; *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > 0xFFFFFFFFull) return false;
  }
  *out = (uint32_t)v;
  *p = s;
  return true;
}

static bool expect(const char **p, const char *lit) {
  size_t n = strlen(lit);
  if (strncmp(*p, lit, n)) return false;
  *p += n;
  return true;
}

/* "AxBxC[xD]" of count numbers. */
static bool parse_dims(const char **p, uint32_t *out, int count) {
  for (int i = 0; i < count; i++)
    if ((i && !expect(p, "x")) || !parse_uint(p, &out[i])) return false;
  return true;
}

bool tune_parse_line(const char *line, size_t len, spvgen_tune_entry *e, char *why, size_t wsize) {
  if (len + 1 > TUNE_MAX_LINE) return tune_msg(why, wsize, "longer than %d bytes", TUNE_MAX_LINE), false;
  if (memchr(line, 0, len)) return tune_msg(why, wsize, "has a NUL byte"), false;
  char buf[TUNE_MAX_LINE];
  memcpy(buf, line, len);
  buf[len] = 0;
  char *t1 = strchr(buf, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
  if (!t1 || !t2 || strchr(t2 + 1, '\t')) return tune_msg(why, wsize, "is not KEY<tab>VALUE<tab>crc=..."), false;
  const char *crc = t2 + 1;
  if (strlen(crc) != 12 || strncmp(crc, "crc=", 4)) return tune_msg(why, wsize, "has no crc=XXXXXXXX at its end"), false;
  uint32_t want = 0;
  for (int i = 4; i < 12; i++) {
    char c = crc[i];
    uint32_t d = c >= '0' && c <= '9' ? (uint32_t)(c - '0') : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10) : 99;
    if (d == 99) return tune_msg(why, wsize, "has a malformed checksum"), false;
    want = want << 4 | d;
  }
  if (tune_crc32(buf, (size_t)(t2 - buf)) != want) return tune_msg(why, wsize, "checksum mismatch"), false;
  memset(e, 0, sizeof *e);
  *t1 = 0;
  if (!key_ok(buf, why, wsize)) return false;
  memcpy(e->key, buf, (size_t)(t1 - buf) + 1);
  *t2 = 0;
  const char *p = t1 + 1;
  spvgen_tune_knobs *k = &e->knobs;
  if (!expect(&p, "variant=")) goto bad;
  size_t vn = strcspn(p, " ");
  if (vn == 0 || vn >= sizeof k->variant) goto bad;
  memcpy(k->variant, p, vn);
  k->variant[vn] = 0;
  if (!variant_ok(k->variant)) goto bad;
  p += vn;
  uint32_t tile[3], at[4];
  if (!expect(&p, " tile=") || !parse_dims(&p, tile, 3) || !expect(&p, " wg=") || !parse_uint(&p, &k->workgroup_size) ||
      !expect(&p, " sg=") || !parse_uint(&p, &k->subgroups) || !expect(&p, " stages=") ||
      !parse_uint(&p, &k->stages) || !expect(&p, " unroll=") || !parse_uint(&p, &k->unroll))
    goto bad;
  if (expect(&p, " split_k=") && (!parse_uint(&p, &k->split_k) || k->split_k < 2)) goto bad;
  if (!expect(&p, " ns=")) goto bad;
  char *end;
  if (*p < '0' || *p > '9') goto bad;
  errno = 0;
  e->median_ns = tune_strtod_c(p, &end);
  if (errno || end == p || !isfinite(e->median_ns) || e->median_ns < 0) goto bad;
  if (e->median_ns > TUNE_MAX_NS)
    return tune_msg(why, wsize, "has ns=%.*s, over the 1e15 a figure may be", (int)(end - p), p), false;
  p = end;
  if (!expect(&p, " at=") || !parse_dims(&p, at, 4)) goto bad;
  if (expect(&p, " compile_ms=")) {
    if (*p < '0' || *p > '9') goto bad;
    errno = 0;
    e->compile_ms = strtod(p, &end);
    if (errno || end == p || !isfinite(e->compile_ms) || e->compile_ms < 0) goto bad;
    p = end;
  }
  if (*p) goto bad;
  k->tile_m = tile[0];
  k->tile_n = tile[1];
  k->tile_k = tile[2];
  e->m = at[0];
  e->n = at[1];
  e->k = at[2];
  e->batch = at[3];
  /* An entry is accepted only if it can be written back: a line that reads but would
   * re-serialise longer than a line may be (numbers written shorter in the file than
   * the writer writes them) would be counted on import and dropped on save. */
  char again[TUNE_MAX_LINE], reason[160];
  if (!tune_format_line(e, again, sizeof again, reason, sizeof reason))
    return tune_msg(why, wsize, "cannot be written back: %s", reason), false;
  return true;
bad:
  tune_msg(why, wsize, "has a malformed value (expected variant=V tile=MxNxK wg= sg= stages= unroll= [split_k=] ns= "
                       "at=MxNxKxB [compile_ms=])");
  return false;
}

/* ------------------------------------------------------------------ read ---- */

typedef enum read_verdict {
  READ_OK = 0,      /* read (maybe with dropped lines) */
  READ_MISSING = 1, /* no file: empty */
  READ_FOREIGN = 2, /* not a tune cache, or a newer version: ignored whole */
  READ_ERROR = 3,   /* could not be read */
} read_verdict;

/* Reads path into l (entries not dirty). Writes into msg what was ignored (msg is
 * "" when nothing was). */
static read_verdict read_text(const char *path, char *buf, size_t n, tune_list *l, char *msg, size_t size);

static read_verdict read_file(const char *path, tune_list *l, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return READ_MISSING;
    tune_msg(msg, size, "%s: cannot open: %s (ignored)", path, strerror(errno));
    return READ_ERROR;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    tune_msg(msg, size, "%s: not a regular file (ignored)", path);
    return READ_ERROR;
  }
  if ((uint64_t)st.st_size > TUNE_MAX_FILE) {
    close(fd);
    tune_msg(msg, size, "%s: %lld bytes, over the %u MiB a tune cache may have: not a tune cache (ignored)", path,
             (long long)st.st_size, TUNE_MAX_FILE >> 20);
    return READ_FOREIGN;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    close(fd);
    tune_msg(msg, size, "%s: out of memory reading it (ignored)", path);
    return READ_ERROR;
  }
  for (;;) { /* the file may change size under us: read what is there, up to cap - 1 */
    ssize_t r = read(fd, buf + n, cap - 1 - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      free(buf);
      close(fd);
      tune_msg(msg, size, "%s: read failed: %s (ignored)", path, strerror(errno));
      return READ_ERROR;
    }
    if (r == 0 || n + (size_t)r == cap - 1) {
      n += (size_t)r;
      break;
    }
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  return read_text(path, buf, n, l, msg, size);
}

/* Parses n bytes of buf (NUL-terminated at n; freed here) as a cache file named path
 * (for messages) into l, sorted. */
static read_verdict read_text(const char *path, char *buf, size_t n, tune_list *l, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (n == 0) { /* an empty file (touched): an empty cache */
    free(buf);
    return READ_OK;
  }
  /* Header. A file written on (or copied through) Windows ends its lines in CRLF: each
   * line's CR is dropped (the checksum covers KEY<tab>VALUE, not the line ending). */
  size_t hl = 0;
  while (hl < n && buf[hl] != '\n') hl++;
  size_t hlen = hl > 0 && buf[hl - 1] == '\r' ? hl - 1 : hl;
  size_t ml = strlen(TUNE_MAGIC);
  if (hl == n || hl < ml + 2 || memcmp(buf, TUNE_MAGIC " ", ml + 1)) {
    tune_msg(msg, size, "%s: not a spvgen tune cache (the first line is not \"" TUNE_MAGIC " %d\"): ignored", path,
             TUNE_VERSION);
    free(buf);
    return READ_FOREIGN;
  }
  uint32_t version = 0;
  const char *vp = buf + ml + 1;
  const char *vend = buf + hlen;
  bool vok = parse_uint(&vp, &version) && vp == vend;
  if (!vok || version != TUNE_VERSION) {
    if (vok && version > TUNE_VERSION)
      tune_msg(msg, size, "%s: a version %u tune cache, newer than this spvgen reads (%d): ignored", path, version,
               TUNE_VERSION);
    else
      tune_msg(msg, size, "%s: not a spvgen tune cache of a known version (header \"%.*s\"): ignored", path,
               (int)(hlen < 60 ? hlen : 60), buf);
    free(buf);
    return READ_FOREIGN;
  }

  /* Entry lines. */
  uint32_t dropped = 0, lineno = 1;
  char first[3][200];
  size_t pos = hl + 1;
  while (pos < n) {
    lineno++;
    size_t end = pos;
    while (end < n && buf[end] != '\n') end++;
    size_t len = end - pos;
    const char *line = buf + pos;
    bool complete = end < n;
    pos = end + 1;
    if (complete && len > 0 && line[len - 1] == '\r') len--;
    if (len == 0 || line[0] == '#') continue;
    spvgen_tune_entry e;
    char why[160];
    bool ok;
    if (!complete) ok = (snprintf(why, sizeof why, "truncated (no newline at the end of the file)"), false);
    else ok = tune_parse_line(line, len, &e, why, sizeof why);
    if (ok && !list_append(l, &e, false)) ok = (snprintf(why, sizeof why, "out of memory"), false);
    if (!ok) {
      if (dropped < 3) snprintf(first[dropped], sizeof first[0], "line %u: %s", lineno, why);
      dropped++;
    }
  }
  free(buf);
  if (!list_sort(l)) {
    list_free(l);
    tune_msg(msg, size, "%s: out of memory reading it (ignored)", path);
    return READ_ERROR;
  }
  if (dropped) {
    tune_msg(msg, size, "%s: ignored %u line%s that cannot be trusted (", path, dropped, dropped == 1 ? "" : "s");
    for (uint32_t i = 0; i < dropped && i < 3; i++) msg_append(msg, size, "%s%s", i ? "; " : "", first[i]);
    msg_append(msg, size, "%s)", dropped > 3 ? "; ..." : "");
  }
  return READ_OK;
}

/* ------------------------------------------------------------------ open ---- */

spvgen_status spvgen_tune_cache_default_path(char *path, size_t size) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg && xdg[0] == '/') n = snprintf(path, size, "%s/spvgen/tune-v%d.txt", xdg, TUNE_VERSION);
  else if (home && home[0]) n = snprintf(path, size, "%s/.cache/spvgen/tune-v%d.txt", home, TUNE_VERSION);
  else {
    if (path && size) path[0] = 0;
    return SPVGEN_ERROR_IO;
  }
  if (n < 0 || (size_t)n >= size) {
    if (path && size) path[0] = 0;
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  return SPVGEN_OK;
}

spvgen_status tune_cache_open_with_builtin(const char *path, const char *const *lines, size_t count,
                                           spvgen_tune_cache **out, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!out) return tune_msg(msg, size, "spvgen_tune_cache_open: out is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  *out = NULL;
  char def[4096];
  if (!path) {
    spvgen_status st = spvgen_tune_cache_default_path(def, sizeof def);
    if (st != SPVGEN_OK)
      return tune_msg(msg, size, "spvgen_tune_cache_open: no cache path: set XDG_CACHE_HOME or HOME, or give a path"),
             st;
    path = def;
  }
  if (!path[0]) return tune_msg(msg, size, "spvgen_tune_cache_open: the path is empty"), SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_tune_cache *c = calloc(1, sizeof *c);
  if (c) c->path = strdup(path);
  if (!c || !c->path) {
    free(c);
    return tune_msg(msg, size, "spvgen_tune_cache_open: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  uint32_t bad_builtin = 0;
  for (size_t i = 0; i < count; i++) {
    spvgen_tune_entry e;
    char why[160];
    if (!lines[i] || !tune_parse_line(lines[i], strlen(lines[i]), &e, why, sizeof why) ||
        !list_append(&c->builtin, &e, false))
      bad_builtin++;
  }
  if (!list_sort(&c->builtin)) {
    spvgen_tune_cache_close(c);
    return tune_msg(msg, size, "spvgen_tune_cache_open: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  read_file(c->path, &c->file, msg, size);
  if (bad_builtin)
    msg_append(msg, size, "%s%u compiled-in entr%s could not be read (ignored)", msg && msg[0] ? "; " : "",
               bad_builtin, bad_builtin == 1 ? "y" : "ies");
  *out = c;
  return SPVGEN_OK;
}

spvgen_status spvgen_tune_cache_open(const char *path, spvgen_tune_cache **out, char *msg, size_t size) {
  return tune_cache_open_with_builtin(path, tune_builtin_lines, tune_builtin_count, out, msg, size);
}

void spvgen_tune_cache_close(spvgen_tune_cache *c) {
  if (!c) return;
  list_free(&c->file);
  list_free(&c->builtin);
  free(c->path);
  free(c);
}

const char *spvgen_tune_cache_path(const spvgen_tune_cache *c) { return c ? c->path : ""; }

bool spvgen_tune_cache_lookup(const spvgen_tune_cache *c, const char *key, spvgen_tune_entry *out) {
  if (!c || !key) return false;
  bool found;
  size_t i = list_find(&c->file, key, &found);
  if (found) {
    if (out) *out = c->file.v[i].e, out->origin = SPVGEN_TUNE_ORIGIN_FILE;
    return true;
  }
  i = list_find(&c->builtin, key, &found);
  if (found) {
    if (out) *out = c->builtin.v[i].e, out->origin = SPVGEN_TUNE_ORIGIN_BUILTIN;
    return true;
  }
  return false;
}

spvgen_status spvgen_tune_cache_store(spvgen_tune_cache *c, const spvgen_tune_entry *e, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!c || !e) return tune_msg(msg, size, "spvgen_tune_cache_store: cache or entry is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  char line[TUNE_MAX_LINE], why[160];
  if (!tune_format_line(e, line, sizeof line, why, sizeof why))
    return tune_msg(msg, size, "spvgen_tune_cache_store: %s", why), SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_tune_entry copy = *e;
  copy.origin = SPVGEN_TUNE_ORIGIN_FILE;
  if (!list_put(&c->file, &copy, true))
    return tune_msg(msg, size, "spvgen_tune_cache_store: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  return SPVGEN_OK;
}

uint32_t spvgen_tune_cache_count(const spvgen_tune_cache *c) {
  return c ? (uint32_t)(c->file.n + c->builtin.n) : 0;
}

bool spvgen_tune_cache_entry(const spvgen_tune_cache *c, uint32_t i, spvgen_tune_entry *out) {
  if (!c || !out) return false;
  if (i < c->file.n) {
    *out = c->file.v[i].e;
    out->origin = SPVGEN_TUNE_ORIGIN_FILE;
    return true;
  }
  i -= (uint32_t)c->file.n;
  if (i < c->builtin.n) {
    *out = c->builtin.v[i].e;
    out->origin = SPVGEN_TUNE_ORIGIN_BUILTIN;
    return true;
  }
  return false;
}

/* ----------------------------------------------------------------- write ---- */

/* mkdir -p of the directory part of path. */
static bool make_parent_dirs(const char *path, char *msg, size_t size) {
  char *dir = strdup(path);
  if (!dir) return tune_msg(msg, size, "out of memory"), false;
  char *slash = strrchr(dir, '/');
  bool ok = true;
  if (slash && slash != dir) {
    *slash = 0;
    for (char *p = dir + 1; ok; p++) {
      bool last = *p == 0;
      if (*p == '/' || last) {
        char saved = *p;
        *p = 0;
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
          tune_msg(msg, size, "cannot create the directory %s: %s", dir, strerror(errno));
          ok = false;
        }
        *p = saved;
      }
      if (last) break;
    }
  }
  free(dir);
  return ok;
}

/* The file a write replaces, as judged before writing (docs/tune.md, "Writing"). */
typedef struct write_target {
  char *path;  /* the file itself: path, or where path's symlinks lead (malloc'd) */
  bool exists;
  struct stat st; /* when it exists */
} write_target;

static const char *file_kind(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
       : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Decides what writing path may replace. A symlink is followed to the file it names,
 * which is replaced (the link stays a link, as an editor leaves it); a link to nothing
 * (or a loop) is refused. What exists there must be a regular file that this process can
 * read and write: a device node, a directory, a FIFO, a file we cannot read (its
 * content could not be merged) or cannot write (read-only, or another user's without
 * group or other write permission) is refused, never replaced. false with a message. */
static bool judge_target(const char *path, write_target *t, char *msg, size_t size) {
  memset(t, 0, sizeof *t);
  struct stat lst;
  if (lstat(path, &lst) != 0) {
    if (errno != ENOENT) return tune_msg(msg, size, "%s: %s", path, strerror(errno)), false;
    t->path = strdup(path);
    if (!t->path) return tune_msg(msg, size, "out of memory"), false;
    return true;
  }
  if (S_ISLNK(lst.st_mode)) {
    char *real = realpath(path, NULL);
    if (!real)
      return tune_msg(msg, size, "%s is a symlink to a file that cannot be reached (%s): not followed", path,
                      strerror(errno)),
             false;
    t->path = real;
  } else {
    t->path = strdup(path);
    if (!t->path) return tune_msg(msg, size, "out of memory"), false;
  }
  if (stat(t->path, &t->st) != 0) {
    tune_msg(msg, size, "%s: %s", t->path, strerror(errno));
    free(t->path);
    return false;
  }
  t->exists = true;
  const char *why = NULL;
  char reason[160];
  if (!S_ISREG(t->st.st_mode)) {
    snprintf(reason, sizeof reason, "is %s", file_kind(t->st.st_mode));
    why = reason;
  } else if (access(t->path, R_OK) != 0) {
    snprintf(reason, sizeof reason, "cannot be read (%s), so its entries could not be kept", strerror(errno));
    why = reason;
  } else if (access(t->path, W_OK) != 0) {
    snprintf(reason, sizeof reason, "is not writable (mode %04o, owner uid %u: %s)", (unsigned)(t->st.st_mode & 07777),
             (unsigned)t->st.st_uid, strerror(errno));
    why = reason;
  }
  if (why) {
    tune_msg(msg, size, "%s %s: not replaced", t->path, why);
    free(t->path);
    return false;
  }
  return true;
}

#define TUNE_STR_(x) #x
#define TUNE_STR(x) TUNE_STR_(x)

/* The file's text: the header, then each entry's line (malloc'd, NUL-terminated).
 * *written: the entries in it. */
static char *format_file(const tune_list *l, size_t *length, uint32_t *written, char *msg, size_t size) {
  static const char header[] = TUNE_MAGIC " " TUNE_STR(TUNE_VERSION)
      "\n# spvgen autotuner cache (docs/tune.md): KEY<tab>VALUE<tab>crc=CRC-32 of KEY<tab>VALUE; edit with "
      "`spvgen tune`, not by hand\n";
  size_t cap = sizeof header + l->n * 256 + TUNE_MAX_LINE, n = sizeof header - 1;
  char *text = malloc(cap);
  if (!text) return tune_msg(msg, size, "out of memory"), NULL;
  memcpy(text, header, sizeof header);
  char why[160];
  for (size_t i = 0; i < l->n; i++) {
    if (cap - n < TUNE_MAX_LINE + 1) {
      char *grown = realloc(text, cap * 2);
      if (!grown) {
        free(text);
        return tune_msg(msg, size, "out of memory"), NULL;
      }
      text = grown;
      cap *= 2;
    }
    /* Every entry in a list was checked when it was read or stored; one that still
     * cannot be written is an error, not a silent drop. */
    if (!tune_format_line(&l->v[i].e, text + n, TUNE_MAX_LINE, why, sizeof why)) {
      tune_msg(msg, size, "the entry \"%.80s\" cannot be written: %s", l->v[i].e.key, why);
      free(text);
      return NULL;
    }
    n += strlen(text + n);
    text[n++] = '\n';
    text[n] = 0;
  }
  *length = n;
  *written = (uint32_t)l->n;
  return text;
}

/* write() of all of text, retrying after EINTR and short writes. */
static bool write_all(int fd, const char *text, size_t length) {
  while (length) {
    ssize_t w = write(fd, text, length);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    text += w;
    length -= (size_t)w;
  }
  return true;
}

/* Writes l's entries to the file at path (judge_target's rules) through a temporary file
 * in the same directory: written, fsync'd, given the old file's mode (and owner, where
 * this process may set it: never a change of owner), renamed over it, the directory
 * fsync'd. *written: the entries written. */
static bool write_atomic(const char *path, const tune_list *l, uint32_t *written, char *msg, size_t size) {
  write_target t;
  if (!judge_target(path, &t, msg, size)) return false;
  size_t length = 0;
  uint32_t count = 0;
  char *text = format_file(l, &length, &count, msg, size);
  if (!text) {
    free(t.path);
    return false;
  }
  size_t plen = strlen(t.path);
  char *tmp = malloc(plen + 40);
  int fd = -1;
  static unsigned serial;
  for (int attempt = 0; tmp && fd < 0 && attempt < 100; attempt++) {
    snprintf(tmp, plen + 40, "%s.tmp-%ld-%u", t.path, (long)getpid(),
             __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
    /* 0666 less the umask for a new file, as any program creating it would. */
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  bool ok = fd >= 0;
  if (!ok) {
    tune_msg(msg, size, "cannot create a temporary file beside %s: %s", t.path, tmp ? strerror(errno) : "out of memory");
  } else {
    const char *step = "write";
    if (t.exists && (t.st.st_uid != geteuid() || t.st.st_gid != getegid()) &&
        fchown(fd, t.st.st_uid, t.st.st_gid) != 0 && t.st.st_uid != geteuid()) {
      tune_msg(msg, size, "%s belongs to uid %u: replacing it would change its owner (%s): not replaced", t.path,
               (unsigned)t.st.st_uid, strerror(errno));
      ok = false;
    } else if ((t.exists && fchmod(fd, t.st.st_mode & 07777) != 0 && (step = "chmod")) ||
               !(step = "write", write_all(fd, text, length)) || (step = "fsync", fsync(fd) != 0)) {
      tune_msg(msg, size, "%s of %s failed: %s", step, tmp, strerror(errno));
      ok = false;
    }
    if (close(fd) != 0 && ok) {
      tune_msg(msg, size, "writing %s failed: %s", tmp, strerror(errno));
      ok = false;
    }
    if (ok && rename(tmp, t.path) != 0) {
      tune_msg(msg, size, "cannot rename %s to %s: %s", tmp, t.path, strerror(errno));
      ok = false;
    }
    if (!ok) {
      unlink(tmp);
    } else {
      /* The rename itself durable: the directory's entry. */
      char *slash = strrchr(t.path, '/');
      char *dir = slash ? strndup(t.path, slash == t.path ? 1 : (size_t)(slash - t.path)) : strdup(".");
      int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
      if (dfd >= 0) {
        fsync(dfd); /* best effort: some file systems refuse fsync on a directory */
        close(dfd);
      }
      free(dir);
    }
  }
  free(tmp);
  free(text);
  free(t.path);
  if (ok && written) *written = count;
  return ok;
}

/* An exclusive lock on path + ".lock" (fcntl: released when the descriptor closes,
 * also when the process dies). -1 with a message on failure. */
static int lock_path(const char *path, char *msg, size_t size) {
  size_t plen = strlen(path);
  char *lp = malloc(plen + 6);
  if (!lp) return tune_msg(msg, size, "out of memory"), -1;
  snprintf(lp, plen + 6, "%s.lock", path);
  int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    tune_msg(msg, size, "cannot open the lock file %s: %s", lp, strerror(errno));
    free(lp);
    return -1;
  }
  struct flock fl;
  memset(&fl, 0, sizeof fl);
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  int r;
  while ((r = fcntl(fd, F_SETLKW, &fl)) != 0 && errno == EINTR) {
  }
  if (r != 0) {
    tune_msg(msg, size, "cannot lock %s: %s", lp, strerror(errno));
    close(fd);
    fd = -1;
  }
  free(lp);
  return fd;
}

/* The path the cache file really is (a symlink followed), for the lock and the merge:
 * two links to one file share one lock. path itself when it is no link (or a broken one,
 * which judge_target then refuses). malloc'd; NULL only when out of memory. */
static char *resolved_path(const char *path) {
  struct stat lst;
  if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char *real = realpath(path, NULL);
    if (real) return real;
  }
  return strdup(path);
}

spvgen_status spvgen_tune_cache_save(spvgen_tune_cache *c, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!c) return tune_msg(msg, size, "spvgen_tune_cache_save: cache is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  size_t dirty = 0;
  for (size_t i = 0; i < c->file.n; i++) dirty += c->file.v[i].dirty;
  if (!dirty) return SPVGEN_OK;
  char why[512];
  char *path = resolved_path(c->path);
  if (!path) return tune_msg(msg, size, "spvgen_tune_cache_save: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  if (!make_parent_dirs(path, why, sizeof why)) {
    free(path);
    return tune_msg(msg, size, "spvgen_tune_cache_save: %s", why), SPVGEN_ERROR_IO;
  }
  int lock = lock_path(path, why, sizeof why);
  if (lock < 0) {
    free(path);
    return tune_msg(msg, size, "spvgen_tune_cache_save: %s", why), SPVGEN_ERROR_IO;
  }
  /* Under the lock: what the file holds now (other processes may have saved since we
   * read it), then our stored entries over it. */
  tune_list merged = {0};
  char rmsg[512];
  read_verdict v = read_file(path, &merged, rmsg, sizeof rmsg);
  spvgen_status st = SPVGEN_OK;
  if (v == READ_FOREIGN || v == READ_ERROR) {
    tune_msg(msg, size, "spvgen_tune_cache_save: %s; the file was not overwritten (remove it, or give another path)",
             rmsg);
    st = SPVGEN_ERROR_IO;
  }
  if (st == SPVGEN_OK && !list_merge(&merged, &c->file, true, false)) {
    tune_msg(msg, size, "spvgen_tune_cache_save: out of memory");
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  if (st == SPVGEN_OK && !write_atomic(path, &merged, NULL, why, sizeof why)) {
    tune_msg(msg, size, "spvgen_tune_cache_save: %s", why);
    st = SPVGEN_ERROR_IO;
  }
  close(lock);
  free(path);
  if (st != SPVGEN_OK) {
    list_free(&merged);
    return st;
  }
  for (size_t i = 0; i < merged.n; i++) merged.v[i].dirty = false;
  list_free(&c->file);
  c->file = merged;
  if (rmsg[0]) tune_msg(msg, size, "%s (dropped from the file)", rmsg);
  return SPVGEN_OK;
}

spvgen_status spvgen_tune_cache_export(const spvgen_tune_cache *c, const char *path, uint32_t *count, char *msg,
                                       size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!c || !path || !path[0])
    return tune_msg(msg, size, "spvgen_tune_cache_export: cache or path is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  /* An existing file is replaced only when it is a tune cache (or empty): export never
   * overwrites someone's other file. */
  char why[512];
  tune_list old = {0};
  read_verdict v = read_file(path, &old, why, sizeof why);
  list_free(&old);
  if (v == READ_FOREIGN)
    return tune_msg(msg, size, "spvgen_tune_cache_export: %s: not replaced", why), SPVGEN_ERROR_IO;
  uint32_t written = 0;
  if (!write_atomic(path, &c->file, &written, why, sizeof why))
    return tune_msg(msg, size, "spvgen_tune_cache_export: %s", why), SPVGEN_ERROR_IO;
  if (count) *count = written;
  return SPVGEN_OK;
}

spvgen_status spvgen_tune_cache_export_text(const spvgen_tune_cache *c, char **text, size_t *length,
                                            uint32_t *count, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (text) *text = NULL;
  if (length) *length = 0;
  if (!c || !text || !length)
    return tune_msg(msg, size, "spvgen_tune_cache_export_text: cache, text or length is NULL"),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  char why[256];
  uint32_t written = 0;
  char *t = format_file(&c->file, length, &written, why, sizeof why);
  if (!t) return tune_msg(msg, size, "spvgen_tune_cache_export_text: %s", why), SPVGEN_ERROR_OUT_OF_MEMORY;
  *text = t;
  if (count) *count = written;
  return SPVGEN_OK;
}

void spvgen_tune_free_text(char *text) { free(text); }

static spvgen_status import_list(spvgen_tune_cache *c, const char *path, tune_list *in, read_verdict v,
                                 const char *rmsg, uint32_t *count, char *msg, size_t size);

spvgen_status spvgen_tune_cache_import(spvgen_tune_cache *c, const char *path, uint32_t *count, char *msg,
                                       size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!c || !path)
    return tune_msg(msg, size, "spvgen_tune_cache_import: cache or path is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  tune_list in = {0};
  char rmsg[512];
  read_verdict v = read_file(path, &in, rmsg, sizeof rmsg);
  return import_list(c, path, &in, v, rmsg, count, msg, size);
}

spvgen_status spvgen_tune_cache_import_text(spvgen_tune_cache *c, const char *text, size_t length,
                                            uint32_t *count, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!c || (!text && length))
    return tune_msg(msg, size, "spvgen_tune_cache_import_text: cache or text is NULL"),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  if (length > TUNE_MAX_FILE)
    return tune_msg(msg, size, "spvgen_tune_cache_import_text: %zu bytes, over the %u MiB a tune cache may have",
                    length, TUNE_MAX_FILE >> 20),
           SPVGEN_ERROR_IO;
  char *buf = malloc(length + 1);
  if (!buf) return tune_msg(msg, size, "spvgen_tune_cache_import_text: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  if (length) memcpy(buf, text, length);
  buf[length] = 0;
  tune_list in = {0};
  char rmsg[512];
  read_verdict v = read_text("(text)", buf, length, &in, rmsg, sizeof rmsg);
  return import_list(c, "(text)", &in, v, rmsg, count, msg, size);
}

static spvgen_status import_list(spvgen_tune_cache *c, const char *path, tune_list *in_list, read_verdict v,
                                 const char *rmsg, uint32_t *count, char *msg, size_t size) {
  tune_list in = *in_list;
  if (v == READ_MISSING) {
    tune_msg(msg, size, "spvgen_tune_cache_import: %s: no such file", path);
    return SPVGEN_ERROR_IO;
  }
  if (v != READ_OK) {
    list_free(&in);
    tune_msg(msg, size, "spvgen_tune_cache_import: %s", rmsg);
    return SPVGEN_ERROR_IO;
  }
  /* in is sorted with one entry per key (the file's last line for a key), each of which
   * can be written back (tune_parse_line): the count is what save will write. */
  uint32_t n = (uint32_t)in.n;
  bool ok = list_merge(&c->file, &in, false, true);
  list_free(&in);
  if (!ok) return tune_msg(msg, size, "spvgen_tune_cache_import: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  if (count) *count = n;
  if (rmsg[0]) tune_msg(msg, size, "%s", rmsg);
  return SPVGEN_OK;
}
