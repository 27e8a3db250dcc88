/* tests/vk/test_reflect_fuzz.c — the runner's SPIR-V reader (lib/vk/reflect.c) on words
 * nobody checked. spvgen_vk_pipeline_create reads every module it is given before a
 * driver sees it, and a framework may hand it anything: corrupted caches, truncated
 * files, modules from other tools. No device is needed: the reader is plain C.
 *
 * Valid modules (a vector add; a kernel with f16/int8 storage, spec constants and
 * LocalSizeId; KHR and Workgroup-scope cooperative matrices; cooperative vectors) are
 * read first and must give the expected record. Then each is mutated at random (bits
 * flipped, words replaced by 0, 1, 0xFFFF or random values, instruction word counts
 * changed, words inserted and deleted, the count cut short) and read again. Checked:
 * no crash or out-of-bounds read (the asan preset runs this too), a status of OK,
 * SPVGEN_ERROR_INVALID_ARGUMENT, or SPVGEN_ERROR_UNSUPPORTED for a capability, and on
 * error a NUL-terminated message that is not empty, also into a 1-byte buffer and with
 * no buffer at all.
 *
 * Capabilities: every value the grammar or the Vulkan table (spvgen_vk_capability_find)
 * knows, alone in a module, is read as the table says (a version, a feature bit,
 * subgroup operations) or refused with SPVGEN_ERROR_UNSUPPORTED naming it.
 *
 * Environment: SPVGEN_TEST_SEED (as every test), SPVGEN_FUZZ_ITERATIONS (mutations per
 * module, default 3000). A failure prints the module, iteration and mutation seed. */
#define _POSIX_C_SOURCE 200809L /* alarm: a reader that hangs fails instead */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "big_modules.h"
#include "internal.h" /* lib/vk: sg_reflect */
#include "spvgen/coop.h"
#include "vk_fixture.h"

#define MAX_WORDS 4096

typedef struct seed_module {
  const char *name;
  uint32_t words[MAX_WORDS];
  size_t count;
} seed_module;

static bool take_words(spvgen_module *m, seed_module *s, const char *name) {
  const uint32_t *w = NULL;
  size_t n = 0;
  s->name = name;
  s->count = 0;
  w = check_module(m, &n);
  if (!w || n > MAX_WORDS) {
    CHECK_MSG(w && n <= MAX_WORDS, "%s: %zu words (the test keeps at most %d)", name, n, MAX_WORDS);
    spvgen_module_destroy(m);
    return false;
  }
  memcpy(s->words, w, n * sizeof *w);
  s->count = n;
  spvgen_module_destroy(m);
  return true;
}

/* Small types in buffers, a push constant, spec constants and LocalSizeId. */
static void build_small_types(spvgen_module *m) {
  uint32_t f16 = spvgen_type_float(m, 16), s8 = spvgen_type_int(m, 8, true);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t p16 = 0, p8 = 0;
  uint32_t a = spvgen_storage_buffer(m, f16, 0, 0, false, &p16);
  uint32_t b = spvgen_storage_buffer(m, s8, 1, 3, true, &p8);
  uint32_t member_ptr = 0;
  uint32_t push = vk_push_constants_u32(m, 2, &member_ptr);
  uint32_t x = spvgen_spec_const_u32(m, 32, 0), one = spvgen_const_u32(m, 1);
  uint32_t fn = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, fn, "main", SPVGEN_INTERFACE_ALL);
  spvgen_execution_mode_id(m, fn, SpvExecutionModeLocalSizeId, (const uint32_t[]){x, one, one}, 3);
  uint32_t i = vk_load_push_u32(m, push, member_ptr, 1);
  uint32_t k0 = spvgen_const_u32(m, 0);
  uint32_t pa = spvgen_access_chain(m, p16, a, (const uint32_t[]){k0, i}, 2);
  uint32_t pb = spvgen_access_chain(m, p8, b, (const uint32_t[]){k0, i}, 2);
  uint32_t v = spvgen_op_convert_s_to_f(m, f16, spvgen_load(m, s8, pb));
  spvgen_store(m, pa, spvgen_op_f_add(m, f16, spvgen_load(m, f16, pa), v));
  spvgen_function_end(m);
  (void)u32;
}

/* KHR subgroup and Workgroup-scope cooperative matrices loaded from a buffer. */
static void build_coopmat(spvgen_module *m) {
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t p16 = 0;
  uint32_t a = spvgen_storage_buffer(m, f16, 0, 0, false, &p16);
  spvgen_compute_main(m, "main", 128, 1, 1);
  uint32_t k0 = spvgen_const_u32(m, 0), stride = 16; /* elements */
  uint32_t p = spvgen_access_chain(m, p16, a, (const uint32_t[]){k0, k0}, 2);
  uint32_t sg = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, 16, 16, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t wg = spvgen_type_coopmat(m, f16, SpvScopeWorkgroup, 32, 32,
                                    SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t x = spvgen_coopmat_load(m, sg, p, SpvCooperativeMatrixLayoutRowMajorKHR, stride, NULL);
  spvgen_coopmat_store(m, p, x, SpvCooperativeMatrixLayoutRowMajorKHR, stride, NULL);
  uint32_t y = spvgen_coopmat_load(m, wg, p, SpvCooperativeMatrixLayoutColumnMajorKHR, stride, NULL);
  spvgen_coopmat_store(m, p, y, SpvCooperativeMatrixLayoutColumnMajorKHR, stride, NULL);
  spvgen_function_end(m);
}

/* A cooperative vector matrix-vector multiply. */
static void build_coopvec(spvgen_module *m) {
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t p16 = 0;
  uint32_t a = spvgen_storage_buffer(m, f16, 0, 0, false, &p16);
  uint32_t w = spvgen_storage_buffer(m, f16, 0, 1, true, NULL);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t k0 = spvgen_const_u32(m, 0);
  uint32_t arr = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer,
                                                            spvgen_type_runtime_array_strided(m, f16, 2)),
                                     a, &k0, 1);
  uint32_t mat = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer,
                                                            spvgen_type_runtime_array_strided(m, f16, 2)),
                                     w, &k0, 1);
  uint32_t v16 = spvgen_type_coopvec(m, f16, 16), v32 = spvgen_type_coopvec(m, f16, 32);
  uint32_t in = spvgen_coopvec_load(m, v32, arr, 0, NULL);
  spvgen_coopvec_matmul_desc d;
  memset(&d, 0, sizeof d);
  d.result_type = v16;
  d.input = in;
  d.matrix = mat;
  uint32_t out = spvgen_coopvec_matmul(m, &d);
  spvgen_coopvec_store(m, arr, out, 0, NULL);
  spvgen_function_end(m);
}

static uint64_t g_rng;
static uint64_t rnd(void) { return test_splitmix64(&g_rng); }
static uint32_t below(uint32_t n) { return test_splitmix64_below(&g_rng, n); }

/* One to four mutations of w[0..*n) in place (w has room for MAX_WORDS + 8). */
static void mutate(uint32_t *w, size_t *n) {
  static const uint32_t special[] = {0, 1, 2, 3, 0xFFFF, 0x10000, 0xFFFFFFFFu, 0x7FFFFFFFu,
                                     0x07230203u, 0x00FF0000u, 0x00020000u};
  uint32_t count = 1 + below(4);
  for (uint32_t c = 0; c < count && *n > 0; c++) {
    size_t at = below((uint32_t)*n);
    switch (below(7)) {
    case 0: w[at] ^= 1u << below(32); break;
    case 1: w[at] = special[below(sizeof special / sizeof *special)]; break;
    case 2: w[at] = (uint32_t)rnd(); break;
    case 3: /* an instruction word count (high half) or opcode (low half) */
      w[at] = below(2) ? (w[at] & 0xFFFFu) | (below(12) << 16) : (w[at] & 0xFFFF0000u) | below(6000);
      break;
    case 4: /* cut short */
      *n = at;
      break;
    case 5: /* insert a word */
      if (*n < MAX_WORDS + 8) {
        memmove(w + at + 1, w + at, (*n - at) * sizeof *w);
        w[at] = below(2) ? (uint32_t)rnd() : below(64);
        (*n)++;
      }
      break;
    default: /* delete a word */
      memmove(w + at, w + at + 1, (*n - at - 1) * sizeof *w);
      (*n)--;
      break;
    }
  }
}

static bool message_ok(const char *msg, size_t size) {
  const char *end = memchr(msg, 0, size);
  return end && end > msg;
}

static void test_valid_modules_are_read_as_built(void) {
  static seed_module s;
  sg_reflection r;
  char msg[512];
  spvgen_module *m = spvgen_module_create(NULL);
  vk_build_vector_add(m, 64);
  if (take_words(m, &s, "vector add")) {
    CHECK_EQ_U64(sg_reflect(s.words, s.count, "main", &r, msg, sizeof msg), SPVGEN_OK);
    CHECK(r.entry_found);
    CHECK_EQ_U64(r.local_size[0], 64);
    CHECK_EQ_U64(r.binding_count, 3);
    CHECK_EQ_U64(r.push_constant_size, 4);
  }
  m = spvgen_module_create(NULL);
  build_small_types(m);
  if (take_words(m, &s, "small types")) {
    CHECK_EQ_U64(sg_reflect(s.words, s.count, "main", &r, msg, sizeof msg), SPVGEN_OK);
    CHECK(r.local_size_id);
    CHECK_EQ_U64(r.binding_count, 2);
    CHECK_EQ_U64(r.push_constant_size, 8);
    CHECK(r.required_features & SPVGEN_FEATURE_FLOAT16);
    CHECK(r.required_features & SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
    CHECK(r.required_features & SPVGEN_FEATURE_STORAGE_BUFFER_8BIT);
  }
  m = spvgen_module_create(NULL);
  build_coopmat(m);
  if (take_words(m, &s, "coopmat")) {
    CHECK_EQ_U64(sg_reflect(s.words, s.count, "main", &r, msg, sizeof msg), SPVGEN_OK);
    CHECK(r.required_features & SPVGEN_FEATURE_COOPMAT);
    CHECK(r.required_features & SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE);
  }
  m = spvgen_module_create(NULL);
  build_coopvec(m);
  if (take_words(m, &s, "coopvec")) {
    CHECK_EQ_U64(sg_reflect(s.words, s.count, "main", &r, msg, sizeof msg), SPVGEN_OK);
    CHECK(r.required_features & SPVGEN_FEATURE_COOPVEC);
  }
  /* An entry point that is not there is named, not a crash. */
  m = spvgen_module_create(NULL);
  vk_build_vector_add(m, 64);
  if (take_words(m, &s, "vector add")) {
    spvgen_status st = sg_reflect(s.words, s.count, "nope", &r, msg, sizeof msg);
    CHECK(st == SPVGEN_OK ? !r.entry_found : message_ok(msg, sizeof msg));
  }
}

static void test_mutated_modules_are_read_or_rejected_with_a_message(void) {
  static seed_module seeds[4];
  static uint32_t w[MAX_WORDS + 8];
  void (*builders[4])(spvgen_module *) = {NULL, build_small_types, build_coopmat, build_coopvec};
  static const char *names[4] = {"vector add", "small types", "coopmat", "coopvec"};
  for (int i = 0; i < 4; i++) {
    spvgen_module *m = spvgen_module_create(NULL);
    if (builders[i]) builders[i](m);
    else vk_build_vector_add(m, 64);
    if (!take_words(m, &seeds[i], names[i])) return;
  }
  const char *env = getenv("SPVGEN_FUZZ_ITERATIONS");
  long iterations = env ? strtol(env, NULL, 0) : 3000;
  if (iterations < 1) iterations = 1;
  uint64_t base = test_rand_u32() | (uint64_t)test_rand_u32() << 32;
  uint64_t accepted = 0, rejected = 0;
  for (int i = 0; i < 4 && !test_current_failed; i++) {
    for (long it = 0; it < iterations && !test_current_failed; it++) {
      uint64_t seed = base ^ ((uint64_t)i << 56) ^ (uint64_t)it * UINT64_C(0x100000001b3);
      g_rng = seed;
      size_t n = seeds[i].count;
      memcpy(w, seeds[i].words, n * sizeof *w);
      mutate(w, &n);
      const char *entry = below(4) ? "main" : NULL;
      sg_reflection r;
      char msg[256];
      memset(msg, 'x', sizeof msg);
      spvgen_status st = sg_reflect(w, n, entry, &r, msg, sizeof msg);
      if (st == SPVGEN_OK) {
        accepted++;
        CHECK_MSG(r.binding_count <= SG_REFLECT_MAX_BINDINGS,
                  "%s, iteration %ld (seed 0x%016llx): %u bindings", names[i], it,
                  (unsigned long long)seed, r.binding_count);
        continue;
      }
      rejected++;
      /* Malformed words, or a mutated OpCapability operand that Vulkan does not allow or
       * the runner cannot map (named in the message). */
      CHECK_MSG(st == SPVGEN_ERROR_INVALID_ARGUMENT ||
                    (st == SPVGEN_ERROR_UNSUPPORTED && strstr(msg, "capability")),
                "%s, iteration %ld (seed 0x%016llx): status %s (%s)", names[i], it,
                (unsigned long long)seed, spvgen_status_name(st), msg);
      CHECK_MSG(message_ok(msg, sizeof msg),
                "%s, iteration %ld (seed 0x%016llx): the message is empty or not terminated",
                names[i], it, (unsigned long long)seed);
      /* The same words into a 1-byte buffer and into none: same status, no overflow. */
      char tiny[1] = {'x'};
      CHECK_EQ_U64(sg_reflect(w, n, entry, &r, tiny, sizeof tiny), st);
      CHECK_EQ_U64(tiny[0], 0);
      CHECK_EQ_U64(sg_reflect(w, n, entry, &r, NULL, 0), st);
    }
  }
  /* A mutation test that never rejects (or never accepts) is not exercising the reader. */
  CHECK_MSG(rejected > 0 && accepted > 0, "accepted %llu, rejected %llu",
            (unsigned long long)accepted, (unsigned long long)rejected);
  fprintf(stderr, "reflect fuzz: %ld mutations of each of 4 modules: %llu read, %llu rejected\n",
          iterations, (unsigned long long)accepted, (unsigned long long)rejected);
}

/* Header (SPIR-V 1.6, bound 2) and one OpCapability. */
static size_t capability_module(uint32_t *w, uint32_t capability) {
  const uint32_t words[] = {0x07230203u, 0x00010600u, 0, 2, 0, (2u << 16) | 17u, capability};
  memcpy(w, words, sizeof words);
  return sizeof words / sizeof words[0];
}

static void test_every_capability_is_mapped_or_refused(void) {
  uint32_t w[8];
  char msg[512];
  sg_reflection r;
  unsigned counts[5] = {0}; /* refused as not Vulkan, core, feature, subgroup, untracked */
  for (uint32_t cap = 0; cap < 8192 && !test_current_failed; cap++) {
    const char *name = spvgen_capability_name(cap);
    const spvgen_vk_capability *c = spvgen_vk_capability_find(cap);
    if (!name && cap > 100) continue; /* unknown values: a sample below 100 is enough */
    size_t n = capability_module(w, cap);
    spvgen_status st = sg_reflect(w, n, "main", &r, msg, sizeof msg);
    if (!c) {
      counts[0]++;
      CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "capability %u (%s): %s", cap,
                name ? name : "?", spvgen_status_name(st));
      if (name) {
        CHECK_CONTAINS(msg, name);
        CHECK_CONTAINS(msg, "Vulkan does not allow");
      }
      continue;
    }
    CHECK_MSG(name && !strcmp(name, c->name), "capability %u: name %s, table %s", cap,
              name ? name : "NULL", c->name);
    switch (c->kind) {
    case SPVGEN_VK_CAP_CORE:
      counts[1]++;
      CHECK_MSG(st == SPVGEN_OK, "%s: %s (%s)", c->name, spvgen_status_name(st), msg);
      CHECK_EQ_U64(r.required_api_version, c->version);
      CHECK_EQ_U64(r.required_features, 0);
      CHECK_EQ_U64(r.required_subgroup_ops, 0);
      break;
    case SPVGEN_VK_CAP_FEATURE: {
      counts[2]++;
      CHECK_MSG(st == SPVGEN_OK, "%s: %s (%s)", c->name, spvgen_status_name(st), msg);
      CHECK_EQ_U64(r.required_features, c->feature);
      int bit = 0;
      while (bit < SPVGEN_FEATURE_COUNT && c->feature != (1ull << bit)) bit++;
      CHECK_MSG(bit < SPVGEN_FEATURE_COUNT, "%s: feature 0x%llx is not one bit", c->name,
                (unsigned long long)c->feature);
      if (bit < SPVGEN_FEATURE_COUNT) {
        CHECK(r.feature_reason[bit] != NULL);
        if (r.feature_reason[bit]) CHECK_CONTAINS(r.feature_reason[bit], c->name);
      }
      break;
    }
    case SPVGEN_VK_CAP_SUBGROUP:
      counts[3]++;
      CHECK_MSG(st == SPVGEN_OK, "%s: %s (%s)", c->name, spvgen_status_name(st), msg);
      CHECK(c->subgroup_ops != 0);
      CHECK_EQ_U64(r.required_subgroup_ops, c->subgroup_ops);
      CHECK_EQ_U64(r.required_features, 0);
      break;
    default:
      counts[4]++;
      CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "%s: %s", c->name, spvgen_status_name(st));
      CHECK_CONTAINS(msg, c->what);
      CHECK_CONTAINS(msg, c->enabled_by);
      break;
    }
  }
  /* Spot checks of the mapping the runner relied on before the table. */
  size_t n = capability_module(w, SpvCapabilityGroupNonUniformBallot);
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(r.required_subgroup_ops, SPVGEN_SUBGROUP_BALLOT);
  n = capability_module(w, SpvCapabilityInt64);
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(r.required_features, SPVGEN_FEATURE_INT64);
  n = capability_module(w, SpvCapabilityShader);
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(r.required_features | r.required_subgroup_ops, 0);
  CHECK_EQ_U64(r.required_api_version, SPVGEN_API_VERSION(1, 0, 0));
  n = capability_module(w, SpvCapabilityVariablePointers);
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "capability VariablePointers");
  CHECK_CONTAINS(msg, "variablePointers");
  n = capability_module(w, 100000);
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "capability 100000");
  for (int k = 0; k < 5; k++) CHECK_MSG(counts[k] > 0, "no capability of class %d", k);
  fprintf(stderr, "capabilities: %u refused (not Vulkan), %u core, %u feature, %u subgroup, "
          "%u refused (untracked)\n", counts[0], counts[1], counts[2], counts[3], counts[4]);
}

/* A module the builder made with Kernel declared by hand: the reader refuses it, naming
 * the capability (spvgen_vk_pipeline_create reports this message; tests/vk/test_errors.c
 * runs that on the device). */
static void test_a_kernel_module_is_refused_naming_kernel(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_capability(m, SpvCapabilityKernel);
  vk_build_vector_add(m, 64);
  const uint32_t *w = NULL;
  size_t n = 0;
  CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_OK);
  sg_reflection r;
  char msg[512];
  CHECK_EQ_U64(sg_reflect(w, n, "main", &r, msg, sizeof msg), SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "capability Kernel (6), which Vulkan does not allow");
  spvgen_module_destroy(m);
}

/* The runner's reader on a struct that lists itself as its members (18 words):
 * spvgen_vk_pipeline_create never returned on it. Refused, naming the type. */
static void test_a_struct_containing_itself_is_refused(void) {
  static const uint32_t words[] = {
      0x07230203, 0x10600, 0, 8, 0,
      (5u << 16) | 30, 5, 5, 5, 5, /* %5 = OpTypeStruct %5 %5 %5 */
      (4u << 16) | 32, 6, 12, 5,   /* %6 = OpTypePointer StorageBuffer %5 */
      (4u << 16) | 59, 6, 7, 12,   /* %7 = OpVariable %6 StorageBuffer */
  };
  sg_reflection r;
  char msg[512];
  alarm(60);
  CHECK_EQ_U64(sg_reflect(words, sizeof words / 4, "main", &r, msg, sizeof msg),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  alarm(0);
  CHECK_CONTAINS(msg, "malformed SPIR-V: type 5 at word 5 contains itself");
}

/* The work of computing sizes is linear: at most a few operand visits per word of the
 * module, for a block of N structs of N members (one inner struct N times, or N
 * different ones), and the sizes are right (4*N*N bytes). */
static void test_type_sizes_take_linear_work(void) {
  static const struct {
    uint32_t n;
    bool distinct;
  } cases[] = {{8, false}, {8, true}, {1600, false}, {200, true}};
  spvgen_module *m = spvgen_module_create(NULL);
  alarm(120);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    spvgen_module_reset(m, NULL);
    build_struct_block(m, cases[c].n, cases[c].distinct);
    const uint32_t *w = NULL;
    size_t count = 0;
    if (cases[c].n <= 8)
      w = check_module(m, &count);
    else
      CHECK_MSG(spvgen_module_finish(m, &w, &count) == SPVGEN_OK, "%s", spvgen_module_error(m));
    if (!w) continue;
    sg_reflection r;
    char msg[512];
    CHECK_MSG(sg_reflect(w, count, "main", &r, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(r.binding_count, 1);
    CHECK_EQ_U64(r.bindings[0].min_size, 4ull * cases[c].n * cases[c].n);
    CHECK_MSG(r.size_work > 0 && r.size_work <= 2 * count,
              "N=%u%s: %llu operand visits for %zu words", cases[c].n,
              cases[c].distinct ? " distinct" : "", (unsigned long long)r.size_work, count);
  }
  alarm(0);
  spvgen_module_destroy(m);
}

/* SPIRV-Tools accepts an id bound up to 0x3FFFFF; the reader took 0x400000 too. */
static void test_the_id_bound_limit_is_spirv_tools_one(void) {
  uint32_t words[] = {0x07230203u, 0x10600u, 0, 0x400000u, 0, (2u << 16) | 17, 1 /* Shader */};
  sg_reflection r;
  char msg[512];
  CHECK_EQ_U64(sg_reflect(words, 7, "main", &r, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "id bound 4194304 is 0 or larger than 4194303");
  words[3] = 0x3FFFFFu;
  CHECK_MSG(sg_reflect(words, 7, "main", &r, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_capability_is_mapped_or_refused),
      TEST_CASE(test_a_kernel_module_is_refused_naming_kernel),
      TEST_CASE(test_valid_modules_are_read_as_built),
      TEST_CASE(test_a_struct_containing_itself_is_refused),
      TEST_CASE(test_type_sizes_take_linear_work),
      TEST_CASE(test_the_id_bound_limit_is_spirv_tools_one),
      TEST_CASE(test_mutated_modules_are_read_or_rejected_with_a_message),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
