/* tools/spvgen/io.c — what the CLI's subcommands share for their input and messages:
 * the usage-error message, and reading .spv files with a clear message for every way a
 * file can fail to be a SPIR-V module (missing, a directory, empty, a size that is not
 * whole words, a wrong magic number, shorter than a header). What lies beyond the header
 * is the validator's or disassembler's business. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmds.h"
#include "spvgen/check.h"
#include "spvgen/vk.h"
#include "caps_json.h"

#define SPIRV_MAGIC 0x07230203u
#define SPIRV_MAGIC_SWAPPED 0x03022307u /* a big-endian module; SPIRV-Tools reads it */
#define HEADER_BYTES 20u
/* The largest module the check layer takes (spvgen/check.h: SPVGEN_VALIDATE_MAX_WORDS,
 * 4 MiB): a larger file is refused by its size before it is read, and a pipe is read no
 * further than that, so a mistaken path (a disk image, /dev/zero) costs nothing. */
#define MAX_BYTES (SPVGEN_VALIDATE_MAX_WORDS * 4)

static bool reader_gone;

bool spvgen_cli_reader_gone(FILE *f) {
  if (f == stdout && errno == EPIPE) reader_gone = true;
  return reader_gone && f == stdout;
}

int spvgen_cli_usage_error(const char *command, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "spvgen %s: ", command);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(`spvgen %s --help` for usage)\n", command);
  return 2;
}

/* Reads all of f into a malloc'd buffer (*bytes; NULL when empty). 0 on success, else
 * an errno-style code: EFBIG past MAX_BYTES, ENOMEM, or the read error. */
static int read_all(FILE *f, unsigned char **bytes, size_t *size) {
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      if (cap >= MAX_BYTES) {
        /* Full: a file of exactly MAX_BYTES ends here, a larger one is refused. */
        if (fgetc(f) == EOF && !ferror(f)) break;
        free(buf);
        return EFBIG;
      }
      size_t next = cap ? cap * 2 : 64 * 1024;
      if (next > MAX_BYTES) next = MAX_BYTES;
      unsigned char *grown = realloc(buf, next);
      if (!grown) {
        free(buf);
        return ENOMEM;
      }
      buf = grown;
      cap = next;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) {
      if (ferror(f)) {
        int err = errno ? errno : EIO;
        free(buf);
        return err;
      }
      break; /* end of file */
    }
  }
  if (len == 0) {
    free(buf);
    buf = NULL;
  }
  *bytes = buf;
  *size = len;
  return 0;
}

int spvgen_cli_read_spv(const char *path, uint32_t **words, size_t *count) {
  *words = NULL;
  *count = 0;
  int from_stdin = !strcmp(path, "-");
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "spvgen: %s: cannot open: %s\n", path, strerror(errno));
    return 1;
  }
  /* fopen() opens a directory for reading on Linux; reading it then fails with EISDIR,
   * but saying so up front is clearer. */
  struct stat st;
  if (!from_stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "spvgen: %s: is a directory, not a .spv file\n", path);
    fclose(f);
    return 1;
  }
  if (!from_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
      (uint64_t)st.st_size > MAX_BYTES) {
    fprintf(stderr,
            "spvgen: %s: %lld bytes is over the %zu MiB a module may have "
            "(SPVGEN_VALIDATE_MAX_WORDS); not read\n",
            path, (long long)st.st_size, MAX_BYTES >> 20);
    fclose(f);
    return 1;
  }
  unsigned char *bytes = NULL;
  size_t size = 0;
  errno = 0;
  int err = read_all(f, &bytes, &size);
  if (!from_stdin) fclose(f);
  if (err) {
    if (err == EFBIG)
      fprintf(stderr,
              "spvgen: %s: larger than the %zu MiB a module may have "
              "(SPVGEN_VALIDATE_MAX_WORDS)\n",
              path, MAX_BYTES >> 20);
    else
      fprintf(stderr, "spvgen: %s: cannot read: %s\n", path, strerror(err));
    return 1;
  }
  if (size == 0) {
    fprintf(stderr, "spvgen: %s: not a SPIR-V module: empty file (0 bytes)\n", path);
    return 1;
  }
  if (size % 4) {
    fprintf(stderr,
            "spvgen: %s: not a SPIR-V module: its size, %zu bytes, is not a multiple of 4 "
            "(truncated?)\n",
            path, size);
    free(bytes);
    return 1;
  }
  if (size < HEADER_BYTES) {
    fprintf(stderr,
            "spvgen: %s: not a SPIR-V module: %zu bytes is shorter than the %u-byte "
            "header\n",
            path, size, HEADER_BYTES);
    free(bytes);
    return 1;
  }
  /* malloc'd memory is aligned for any type, so the bytes can be used as words. */
  uint32_t *w = (uint32_t *)(void *)bytes;
  if (w[0] != SPIRV_MAGIC && w[0] != SPIRV_MAGIC_SWAPPED) {
    fprintf(stderr,
            "spvgen: %s: not a SPIR-V module: magic number 0x%08x, expected 0x%08x\n", path,
            (unsigned)w[0], SPIRV_MAGIC);
    free(bytes);
    return 1;
  }
  *words = w;
  *count = size / 4;
  return 0;
}

int spvgen_cli_resolve_caps(const char *cmd, const char *caps_name, spvgen_device_caps *caps) {
  if (caps_name) {
    if (spvgen_caps_preset(caps_name, caps) == SPVGEN_OK) return 0;
    FILE *f = fopen(caps_name, "rb");
    if (f) {
      /* A caps file: what `spvgen devices --json` wrote on some machine. */
      static char text[1 << 20];
      size_t n = fread(text, 1, sizeof text, f);
      bool too_big = n == sizeof text;
      fclose(f);
      char msg[256];
      if (too_big) {
        fprintf(stderr, "spvgen %s: --caps %s: over 1 MiB, not a caps file\n", cmd, caps_name);
        return 1;
      }
      if (!spvgen_caps_from_json(text, n, caps, msg, sizeof msg)) {
        fprintf(stderr, "spvgen %s: --caps %s: %s\n", cmd, caps_name, msg);
        return 1;
      }
      return 0;
    }
    fprintf(stderr, "spvgen %s: --caps: '%s' is neither a preset nor a readable caps file (", cmd, caps_name);
    const char *const *names = spvgen_caps_preset_names();
    for (int i = 0; names[i]; i++) fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
    fprintf(stderr, ")\n");
    return 2;
  }
  uint32_t count = 0;
  char msg[256];
  if (spvgen_vk_enumerate(caps, 1, &count, msg, sizeof msg) == SPVGEN_OK && count > 0) return 0;
  spvgen_caps_preset("vulkan13", caps);
  return 0;
}

bool spvgen_cli_u32(const char *s, uint32_t *out) { return sg_parse_u32(s, 0, UINT32_MAX, out); }
