/* tests/core/test_golden.c — golden disassembly: small, named modules built with the
 * builder, disassembled with friendly names and no header, compared byte for byte with
 * tests/golden/<name>.spvasm. A change in what the builder emits (order, ids, sections,
 * capabilities) shows up here as a readable diff.
 *
 * The golden directory is $SPVGEN_SOURCE_DIR/tests/golden (set by ctest), or found from
 * this file's path. With SPVGEN_UPDATE_GOLDEN=1 the test rewrites the files instead of
 * comparing; read the diff before committing it. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* Every call below is sequenced on its own line: C leaves the order of evaluation of
 * arguments unspecified, and the golden text records the order of emission. */

/* c[i] = a[i] + b[i] for i = gl_GlobalInvocationID.x < n (a push constant). */
static void build_add_buffers(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t bool_t = spvgen_type_bool(m);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t elem = 0;
  uint32_t a = spvgen_storage_buffer(m, f32, 0, 0, true, &elem);
  uint32_t b = spvgen_storage_buffer(m, f32, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, f32, 0, 2, false, NULL);
  spvgen_name(m, a, "a");
  spvgen_name(m, b, "b");
  spvgen_name(m, c, "c");
  uint32_t push_t = spvgen_type_struct(m, &u32, 1);
  spvgen_name(m, push_t, "Push");
  spvgen_member_name(m, push_t, 0, "n");
  spvgen_decorate(m, push_t, SpvDecorationBlock);
  spvgen_member_decorate1(m, push_t, 0, SpvDecorationOffset, 0);
  uint32_t push_ptr = spvgen_type_pointer(m, SpvStorageClassPushConstant, push_t);
  uint32_t push = spvgen_variable(m, push_ptr, SpvStorageClassPushConstant, 0);
  spvgen_name(m, push, "push");
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);

  uint32_t main_fn = spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t g = spvgen_load(m, v3, gid);
  uint32_t i = spvgen_op_composite_extract(m, u32, g, (const uint32_t[]){0}, 1);
  spvgen_name(m, i, "i");
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t n_ptr_t = spvgen_type_pointer(m, SpvStorageClassPushConstant, u32);
  uint32_t n_ptr = spvgen_access_chain(m, n_ptr_t, push, &zero, 1);
  uint32_t n = spvgen_load(m, u32, n_ptr);
  spvgen_name(m, n, "n");
  uint32_t out_of_range = spvgen_op_u_greater_than_equal(m, bool_t, i, n);
  spvgen_if(m, out_of_range);
  spvgen_return(m);
  spvgen_end_if(m);
  uint32_t idx[2] = {zero, i};
  uint32_t pa = spvgen_access_chain(m, elem, a, idx, 2);
  uint32_t pb = spvgen_access_chain(m, elem, b, idx, 2);
  uint32_t pc = spvgen_access_chain(m, elem, c, idx, 2);
  uint32_t va = spvgen_load(m, f32, pa);
  uint32_t vb = spvgen_load(m, f32, pb);
  uint32_t sum = spvgen_op_f_add(m, f32, va, vb);
  spvgen_name(m, sum, "sum");
  spvgen_store(m, pc, sum);
  spvgen_function_end(m);
}

/* out[i] = sum over k < n of (a[k] > 0 ? a[k] : -a[k] * 0.5), one invocation per i. */
static void build_loop_if(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t bool_t = spvgen_type_bool(m);
  uint32_t elem = 0;
  uint32_t a = spvgen_storage_buffer(m, f32, 0, 0, true, &elem);
  uint32_t out = spvgen_storage_buffer(m, f32, 0, 1, false, NULL);
  spvgen_name(m, a, "a");
  spvgen_name(m, out, "out");
  uint32_t n = spvgen_spec_const_u32(m, 16, 0);
  spvgen_name(m, n, "n");
  uint32_t lid_var = spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t one = spvgen_const_u32(m, 1);
  uint32_t fzero = spvgen_const_f32(m, 0.0f);
  uint32_t fhalf = spvgen_const_f32(m, 0.5f);
  uint32_t fu32 = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t ff32 = spvgen_type_pointer(m, SpvStorageClassFunction, f32);

  uint32_t main_fn = spvgen_compute_main(m, "main", 32, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t i = spvgen_load(m, u32, lid_var);
  spvgen_name(m, i, "i");
  uint32_t k = spvgen_variable(m, fu32, SpvStorageClassFunction, zero);
  spvgen_name(m, k, "k");
  uint32_t acc = spvgen_variable(m, ff32, SpvStorageClassFunction, fzero);
  spvgen_name(m, acc, "acc");
  spvgen_loop(m, SpvLoopControlMaskNone);
  spvgen_name(m, spvgen_loop_header(m), "loop");
  spvgen_name(m, spvgen_loop_continue_target(m), "next");
  spvgen_name(m, spvgen_loop_merge(m), "done");
  uint32_t kv = spvgen_load(m, u32, k);
  uint32_t more = spvgen_op_u_less_than(m, bool_t, kv, n);
  spvgen_loop_while(m, more);
  uint32_t idx[2] = {zero, kv};
  uint32_t pk = spvgen_access_chain(m, elem, a, idx, 2);
  uint32_t x = spvgen_load(m, f32, pk);
  spvgen_name(m, x, "x");
  uint32_t positive = spvgen_op_f_ord_greater_than(m, bool_t, x, fzero);
  uint32_t before = spvgen_load(m, f32, acc);
  spvgen_if(m, positive);
  uint32_t plus = spvgen_op_f_add(m, f32, before, x);
  spvgen_store(m, acc, plus);
  spvgen_else(m);
  uint32_t neg = spvgen_op_f_negate(m, f32, x);
  uint32_t scaled = spvgen_glsl_fma(m, f32, neg, fhalf, before);
  spvgen_store(m, acc, scaled);
  spvgen_end_if(m);
  spvgen_loop_continue_block(m);
  uint32_t kv2 = spvgen_load(m, u32, k);
  uint32_t kn = spvgen_op_i_add(m, u32, kv2, one);
  spvgen_store(m, k, kn);
  spvgen_end_loop(m);
  uint32_t oidx[2] = {zero, i};
  uint32_t po = spvgen_access_chain(m, elem, out, oidx, 2);
  uint32_t total = spvgen_load(m, f32, acc);
  spvgen_store(m, po, total);
  spvgen_function_end(m);
}

/* ------------------------------------------------------------- comparison ---- */

static void golden_path(const char *name, char *out, size_t size) {
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (src && src[0]) {
    snprintf(out, size, "%s/tests/golden/%s", src, name);
    return;
  }
  /* This file is <src>/tests/core/test_golden.c. */
  snprintf(out, size, "%s", __FILE__);
  char *slash = strrchr(out, '/');
  if (slash) {
    *slash = '\0';
    size_t used = strlen(out);
    snprintf(out + used, size - used, "/../golden/%s", name);
  } else {
    snprintf(out, size, "../golden/%s", name);
  }
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (text && n > 0 && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  if (text) text[n > 0 ? n : 0] = '\0';
  fclose(f);
  return text;
}

/* Reports the first differing line of two texts. */
static void report_difference(const char *path, const char *want, const char *got) {
  int line = 1;
  const char *w = want, *g = got;
  while (*w && *g && *w == *g) {
    if (*w == '\n') line++;
    w++;
    g++;
  }
  /* Back to the start of the line. */
  while (w > want && w[-1] != '\n') w--, g--;
  const char *we = strchr(w, '\n'), *ge = strchr(g, '\n');
  int wl = we ? (int)(we - w) : (int)strlen(w), gl = ge ? (int)(ge - g) : (int)strlen(g);
  test_fail_at(__FILE__, __LINE__,
               "%s differs at line %d:\n  golden: %.*s\n  built:  %.*s\n"
               "(rerun with SPVGEN_UPDATE_GOLDEN=1 to rewrite it after checking)\n--- built:\n%s",
               path, line, wl, w, gl, g, got);
}

static void check_golden(spvgen_module *m, const char *name) {
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *dis = check_disassemble(w, n);
  if (!dis) return;
  /* The files end with a newline, as text files do; the disassembler's last line has
   * none. */
  size_t len = strlen(dis);
  char *text = malloc(len + 2);
  if (!text) {
    spvgen_free_text(dis);
    return;
  }
  memcpy(text, dis, len + 1);
  if (len == 0 || text[len - 1] != '\n') memcpy(text + len, "\n", 2);
  spvgen_free_text(dis);
  char path[1024];
  golden_path(name, path, sizeof path);
  const char *update = getenv("SPVGEN_UPDATE_GOLDEN");
  if (update && !strcmp(update, "1")) {
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (f) {
      fputs(text, f);
      CHECK_MSG(fclose(f) == 0, "cannot write %s", path);
      fprintf(stderr, "rewrote %s\n", path);
    }
  } else {
    char *want = read_file(path);
    CHECK_MSG(want != NULL, "cannot read %s (create it with SPVGEN_UPDATE_GOLDEN=1)", path);
    if (want && strcmp(want, text) != 0) report_difference(path, want, text);
    free(want);
  }
  free(text);
}

static void test_add_buffers_matches_its_golden_disassembly(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_add_buffers(m);
  check_golden(m, "add_buffers.spvasm");
  spvgen_module_destroy(m);
}

static void test_loop_if_matches_its_golden_disassembly(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_loop_if(m);
  check_golden(m, "loop_if.spvasm");
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_add_buffers_matches_its_golden_disassembly),
      TEST_CASE(test_loop_if_matches_its_golden_disassembly),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
