/* tests/core/test_kernel_reflect.c — spvgen_kernel_reflect: a kernel's metadata read back
 * from its words (bindings in (set, binding) order, aliased variables as one binding,
 * push-constant size, local size), what the caller set kept, and malformed input refused
 * with a message. */
#define _POSIX_C_SOURCE 200809L /* alarm: a reader that hangs fails instead */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spvgen/check.h"

#include "big_modules.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/kernel.h"

/* Buffers at (0,3) (0,1) and two views of (0,0), a push-constant block of 12 bytes. */
static spvgen_module *build(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), f32 = spvgen_type_float(m, 32);
  uint32_t v4 = spvgen_type_vector(m, u32, 4);
  uint32_t p3, p1, p0, p0v;
  uint32_t b3 = spvgen_storage_buffer(m, f32, 0, 3, false, &p3);
  uint32_t b1 = spvgen_storage_buffer(m, f32, 0, 1, true, &p1);
  uint32_t b0 = spvgen_storage_buffer(m, u32, 0, 0, true, &p0);
  uint32_t b0v = spvgen_storage_buffer(m, v4, 0, 0, true, &p0v);
  uint32_t mem[3] = {u32, u32, f32};
  uint32_t pc_t = spvgen_type_struct(m, mem, 3);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  for (uint32_t i = 0; i < 3; i++) spvgen_member_decorate1(m, pc_t, i, SpvDecorationOffset, 4 * i);
  uint32_t pc = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                                SpvStorageClassPushConstant, 0);
  spvgen_compute_main(m, "main", 32, 2, 1);
  uint32_t zero = spvgen_const_u32(m, 0), idx[2] = {zero, zero};
  uint32_t x = spvgen_load(m, u32, spvgen_access_chain(m, p0, b0, idx, 2));
  uint32_t y = spvgen_load(m, v4, spvgen_access_chain(m, p0v, b0v, idx, 2));
  uint32_t lane = 1;
  uint32_t s = spvgen_op_i_add(m, u32, x, spvgen_op_composite_extract(m, u32, y, &lane, 1));
  uint32_t k = spvgen_load(m, u32, spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, u32), pc, &zero, 1));
  uint32_t f = spvgen_op_convert_u_to_f(m, f32, spvgen_op_i_add(m, u32, s, k));
  f = spvgen_op_f_add(m, f32, f, spvgen_load(m, f32, spvgen_access_chain(m, p1, b1, idx, 2)));
  spvgen_store(m, spvgen_access_chain(m, p3, b3, idx, 2), f);
  spvgen_function_end(m);
  return m;
}

static void test_bindings_sorted_aliases_merged_push_constants_sized(void) {
  spvgen_module *m = build();
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  if (!w) return;
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  info.groups[0] = 7;
  info.required_subgroup_size = 32;
  char msg[256];
  CHECK_MSG(spvgen_kernel_reflect(w, count, &info, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(info.binding_count, 3);
  CHECK_EQ_U64(info.bindings[0].binding, 0);
  CHECK_EQ_U64(info.bindings[1].binding, 1);
  CHECK_EQ_U64(info.bindings[2].binding, 3);
  for (uint32_t i = 0; i < 3; i++) CHECK_EQ_U64(info.bindings[i].kind, SPVGEN_BINDING_STORAGE_BUFFER);
  CHECK_EQ_U64(info.push_constant_size, 12);
  CHECK_EQ_U64(info.local_size[0], 32);
  CHECK_EQ_U64(info.local_size[1], 2);
  CHECK_EQ_U64(info.local_size[2], 1);
  CHECK_EQ_U64(info.groups[0], 7); /* what words cannot say is kept */
  CHECK_EQ_U64(info.required_subgroup_size, 32);
  spvgen_module_destroy(m);
}

static void test_missing_entry_point_and_bad_words_are_refused(void) {
  spvgen_module *m = build();
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  if (!w) return;
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  info.entry_point = "other";
  char msg[256];
  CHECK(spvgen_kernel_reflect(w, count, &info, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_kernel_reflect: the module has no GLCompute entry point named 'other' (it has: main)");
  uint32_t junk[5] = {0x12345678, 0x10600, 0, 10, 0};
  info.entry_point = NULL;
  CHECK(spvgen_kernel_reflect(junk, 5, &info, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_kernel_reflect: ");
  CHECK(spvgen_kernel_reflect(w, count, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "info is NULL");
  CHECK(spvgen_kernel_reflect(w, 3, &info, NULL, 0) == SPVGEN_ERROR_INVALID_ARGUMENT);
  spvgen_module_destroy(m);
}

/* A struct that lists itself as its members, reached from a StorageBuffer variable (18
 * words). The reader walked it exponentially (spvgen_vk_pipeline_create never returned);
 * now it is refused. SIGALRM ends the test if it ever hangs again. */
static const uint32_t self_containing_struct[] = {
    0x07230203, 0x10600, 0, 8, 0,
    (5u << 16) | 30, 5, 5, 5, 5,  /* %5 = OpTypeStruct %5 %5 %5 */
    (4u << 16) | 32, 6, 12, 5,    /* %6 = OpTypePointer StorageBuffer %5 */
    (4u << 16) | 59, 6, 7, 12,    /* %7 = OpVariable %6 StorageBuffer */
};

/* Two structs that contain each other: the first names the second before its
 * definition. An array whose element is itself. */
static const uint32_t mutual_structs[] = {
    0x07230203, 0x10600, 0, 9, 0,
    (3u << 16) | 30, 5, 6,        /* %5 = OpTypeStruct %6 */
    (3u << 16) | 30, 6, 5,        /* %6 = OpTypeStruct %5 */
    (4u << 16) | 32, 7, 12, 5,    /* %7 = OpTypePointer StorageBuffer %5 */
    (4u << 16) | 59, 7, 8, 12,    /* %8 = OpVariable %7 StorageBuffer */
};
static const uint32_t self_containing_array[] = {
    0x07230203, 0x10600, 0, 9, 0,
    (4u << 16) | 21, 1, 32, 0,    /* %1 = OpTypeInt 32 0 */
    (4u << 16) | 43, 1, 2, 4,     /* %2 = OpConstant %1 4 */
    (4u << 16) | 28, 5, 5, 2,     /* %5 = OpTypeArray %5 %2 */
    (3u << 16) | 30, 6, 5,        /* %6 = OpTypeStruct %5 */
    (4u << 16) | 32, 7, 12, 6,    /* %7 = OpTypePointer StorageBuffer %6 */
    (4u << 16) | 59, 7, 8, 12,    /* %8 = OpVariable %7 StorageBuffer */
};

static void test_types_that_contain_themselves_are_refused(void) {
  static const struct {
    const uint32_t *words;
    size_t count;
    const char *message;
  } cases[] = {
      {self_containing_struct, sizeof self_containing_struct / 4,
       "spvgen_kernel_reflect: malformed SPIR-V: type 5 at word 5 contains itself"},
      {mutual_structs, sizeof mutual_structs / 4,
       "spvgen_kernel_reflect: malformed SPIR-V: type 6 at word 8 is used by a type defined "
       "before it"},
      {self_containing_array, sizeof self_containing_array / 4,
       "spvgen_kernel_reflect: malformed SPIR-V: type 5 at word 13 contains itself"},
  };
  alarm(60);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_kernel_info info;
    memset(&info, 0, sizeof info);
    char msg[256];
    CHECK_EQ_U64(spvgen_kernel_reflect(cases[i].words, cases[i].count, &info, msg, sizeof msg),
                 SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, cases[i].message);
  }
  alarm(0);
}

/* A block of N structs of N u32 members: reading it took 0.37 s at N=800, 2.85 s at
 * 1600, 22.6 s at 3200 (every member's offset was searched among all Offset
 * decorations, for every use of the struct). Now each type's size is computed once, so
 * N=1600 takes microseconds; the limit is generous (sanitizer builds, a loaded machine).
 * The same with N different inner structs (N*N members; the old reader was quartic:
 * 14 s at N=400). The construction itself is valid (checked at N=24). */
static void test_a_block_of_1600_structs_of_1600_members_is_read_quickly(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_struct_block(m, 24, false);
  check_module(m, NULL);
  spvgen_module_reset(m, NULL);
  build_struct_block(m, 24, true);
  check_module(m, NULL);
  static const struct {
    uint32_t n;
    bool distinct;
  } cases[] = {{1600, false}, {300, true}};
  alarm(120);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    spvgen_module_reset(m, NULL);
    build_struct_block(m, cases[c].n, cases[c].distinct);
    const uint32_t *w = NULL;
    size_t count = 0;
    CHECK_MSG(spvgen_module_finish(m, &w, &count) == SPVGEN_OK, "%s", spvgen_module_error(m));
    if (!w) continue;
    spvgen_kernel_info info;
    memset(&info, 0, sizeof info);
    char msg[256];
    double t0 = test_seconds();
    spvgen_status st = spvgen_kernel_reflect(w, count, &info, msg, sizeof msg);
    double elapsed = test_seconds() - t0;
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(info.binding_count, 1);
    CHECK_MSG(elapsed < 0.5, "N=%u%s: spvgen_kernel_reflect took %.3f s (limit 0.5 s)",
              cases[c].n, cases[c].distinct ? " distinct" : "", elapsed);
  }
  alarm(0);
  spvgen_module_destroy(m);
}

/* shared/repro/2026-11-26/fwdptr_valid.spvasm: a buffer-reference linked list, whose
 * struct names its own PhysicalStorageBuffer pointer through OpTypeForwardPointer. Valid
 * (spirv-val agrees) and refused by the reader as "contains itself"; now read, the push
 * constant block one 8-byte pointer. */
static const char fwdptr_text[] =
    "OpCapability Shader\n"
    "OpCapability PhysicalStorageBufferAddresses\n"
    "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %pc\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpDecorate %node Block\n"
    "OpMemberDecorate %node 0 Offset 0\n"
    "OpMemberDecorate %node 1 Offset 8\n"
    "OpDecorate %pcblk Block\n"
    "OpMemberDecorate %pcblk 0 Offset 0\n"
    "OpTypeForwardPointer %pnode PhysicalStorageBuffer\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%node = OpTypeStruct %pnode %uint\n"
    "%pnode = OpTypePointer PhysicalStorageBuffer %node\n"
    "%pcblk = OpTypeStruct %pnode\n"
    "%ppc = OpTypePointer PushConstant %pcblk\n"
    "%pc = OpVariable %ppc PushConstant\n"
    "%main = OpFunction %void None %fn\n"
    "%l = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_a_forward_pointer_linked_list_is_read(void) {
  uint32_t *words = NULL;
  size_t count = 0;
  char msg[512];
  CHECK_MSG(spvgen_assemble(fwdptr_text, SPVGEN_ENV_VULKAN_1_3, &words, &count, msg, sizeof msg) == SPVGEN_OK,
            "%s", msg);
  if (!words) return;
  CHECK_MSG(spvgen_validate(words, count, NULL, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  CHECK_MSG(spvgen_kernel_reflect(words, count, &info, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(info.push_constant_size, 8);
  CHECK_EQ_U64(info.binding_count, 0);
  spvgen_free_words(words);
}

/* shared/repro/2026-11-26: a 28-byte module whose header claims the id bound 0x3FFFFF
 * made the reader allocate 200 MB (an entry per possible id). Its memory now follows the
 * module's size: read in a child process whose address space may grow by 32 MB only
 * (skipped under a sanitizer, which reserves terabytes of shadow). */
static void test_a_huge_id_bound_costs_no_memory(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  test_skip("a sanitizer reserves its shadow memory: no address-space limit here");
  return;
#else
  static const uint32_t tiny[] = {0x07230203, 0x10600, 0, 0x3FFFFF, 0, (2u << 16) | 17, 1};
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    /* The address space used now, from /proc/self/statm (pages), plus 32 MB. */
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!f || fscanf(f, "%lu", &pages) != 1) _exit(3);
    fclose(f);
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = pages * (rlim_t)sysconf(_SC_PAGESIZE) + (32u << 20);
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(4);
    spvgen_kernel_info info;
    memset(&info, 0, sizeof info);
    char msg[256];
    spvgen_status st = spvgen_kernel_reflect(tiny, sizeof tiny / 4, &info, msg, sizeof msg);
    /* No entry point "main": refused for that, not for memory. */
    _exit(st == SPVGEN_ERROR_INVALID_ARGUMENT && strstr(msg, "no GLCompute entry point") ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child: status 0x%x", status);
#endif
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_bindings_sorted_aliases_merged_push_constants_sized),
      TEST_CASE(test_missing_entry_point_and_bad_words_are_refused),
      TEST_CASE(test_types_that_contain_themselves_are_refused),
      TEST_CASE(test_a_forward_pointer_linked_list_is_read),
      TEST_CASE(test_a_huge_id_bound_costs_no_memory),
      TEST_CASE(test_a_block_of_1600_structs_of_1600_members_is_read_quickly),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
