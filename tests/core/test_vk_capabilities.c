/* tests/core/test_vk_capabilities.c — the Vulkan capability table (spvgen/caps.h,
 * lib/core/vk_capabilities.c) and the builder's capability inference against it.
 *
 * The builder writes Vulkan modules, so when the grammar lists several capabilities for
 * an item it must pick one that Vulkan allows (never Kernel, Addresses, ...), preferring
 * the core GroupNonUniform* family over the KHR subgroup extensions from SPIR-V 1.3 on.
 * Checked by iterating the generated grammar tables: every BuiltIn through
 * spvgen_builtin_input, every other enumerant with capabilities and every instruction
 * with capabilities through the builder's requirement path, each in a fresh module. An
 * item whose alternatives are all outside the Vulkan table (SubgroupMaxSize: Kernel only)
 * is refused with SPVGEN_ERROR_UNSUPPORTED naming it; one whose only Vulkan alternatives
 * are graphics capabilities (PrimitiveId: Geometry, ...) gets that graphics capability,
 * which Vulkan allows (a compute entry point may not use it, but the validator names that
 * case precisely). What must never happen is a declared capability outside the table. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "internal.h" /* lib/core: the generated grammar tables, sg_require_* */
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/check.h"

/* ----------------------------------------------------------------- helpers ---- */

/* How many OpCapability instructions the module has declared so far, and whether all
 * are in the Vulkan table (the first one that is not goes to *bad). */
static int declared_capabilities(const spvgen_module *m, uint32_t *bad) {
  const sg_words *b = &m->sec[SG_SEC_CAPABILITIES];
  int count = 0;
  *bad = UINT32_MAX;
  for (size_t i = 0; i + 1 < b->len; i += 2) {
    count++;
    if (!spvgen_vk_capability_find(b->data[i + 1]) && *bad == UINT32_MAX) *bad = b->data[i + 1];
  }
  return count;
}

static bool any_in_table(const uint16_t *caps, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (spvgen_vk_capability_find(caps[i])) return true;
  return false;
}

static bool any_declared(const spvgen_module *m, const uint16_t *caps, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (spvgen_has_capability(m, (SpvCapability)caps[i])) return true;
  return false;
}

/* Whether any alternative's name starts with prefix ("GroupNonUniform": the core family;
 * "Subgroup": SubgroupBallotKHR, SubgroupVoteKHR, the KHR extensions). */
static bool has_prefix(const uint16_t *caps, uint32_t n, const char *prefix) {
  for (uint32_t i = 0; i < n; i++) {
    const char *name = spvgen_capability_name(caps[i]);
    if (name && !strncmp(name, prefix, strlen(prefix))) return true;
  }
  return false;
}

static const char *declared_name(const spvgen_module *m, const uint16_t *caps, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (spvgen_has_capability(m, (SpvCapability)caps[i])) return spvgen_capability_name(caps[i]);
  return "none";
}

typedef struct tally {
  unsigned ok, refused;
} tally;

/* The common check after one item was required in a fresh module: accepted with only
 * Vulkan capabilities (one of the item's alternatives among them, a GroupNonUniform* one
 * where there is one), or refused because no alternative is in the Vulkan table. */
static void check_item(spvgen_module *m, const char *kind, const char *name,
                       const uint16_t *caps, uint32_t ncaps, bool vulkan_1_3_plus, tally *t) {
  uint32_t bad;
  declared_capabilities(m, &bad);
  CHECK_MSG(bad == UINT32_MAX,
            "%s %s declared capability %s (%u), which is not in the Vulkan table", kind, name, spvgen_capability_name(bad) ? spvgen_capability_name(bad) : "?", bad);
  CHECK_MSG(!spvgen_has_capability(m, SpvCapabilityKernel), "%s %s declared Kernel", kind, name);
  spvgen_status st = spvgen_module_status(m);
  if (!ncaps) { /* no capability needed (GlobalInvocationId, ...): nothing to choose */
    CHECK_MSG(st == SPVGEN_OK, "%s %s: %s", kind, name, spvgen_module_error(m));
    t->ok++;
    return;
  }
  if (any_in_table(caps, ncaps) && st == SPVGEN_OK) {
    t->ok++;
    CHECK_MSG(any_declared(m, caps, ncaps), "%s %s: none of its capabilities is declared", kind,
              name);
    if (vulkan_1_3_plus && has_prefix(caps, ncaps, "GroupNonUniform") &&
        has_prefix(caps, ncaps, "Subgroup"))
      CHECK_MSG(!strncmp(declared_name(m, caps, ncaps), "GroupNonUniform", 15),
                "%s %s: declared %s where a GroupNonUniform capability was an alternative", kind,
                name, declared_name(m, caps, ncaps));
    return;
  }
  t->refused++;
  if (any_in_table(caps, ncaps)) {
    /* Only allowed when the Vulkan alternatives all need a newer SPIR-V. */
    CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "%s %s: %s (%s)", kind, name,
              spvgen_status_name(st), spvgen_module_error(m));
    CHECK_CONTAINS(spvgen_module_error(m), "requires SPIR-V");
    CHECK_MSG(!vulkan_1_3_plus, "%s %s refused in a 1.6 module: %s", kind, name,
              spvgen_module_error(m));
    return;
  }
  CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "%s %s: %s, expected a refusal", kind, name,
            spvgen_status_name(st));
  CHECK_CONTAINS(spvgen_module_error(m), name);
  CHECK_CONTAINS(spvgen_module_error(m), "which Vulkan does not allow");
}

/* ------------------------------------------------------------------- table ---- */

static void test_the_table_is_sorted_named_as_the_grammar_and_well_formed(void) {
  size_t n = 0;
  const spvgen_vk_capability *t = spvgen_vk_capabilities(&n);
  CHECK(n > 150);
  unsigned by_value = 0;
  for (size_t i = 0; i < n; i++) {
    const spvgen_vk_capability *c = &t[i];
    if (i) CHECK_MSG(t[i - 1].capability < c->capability, "table not sorted at %s", c->name);
    CHECK(spvgen_vk_capability_find(c->capability) == c);
    const char *grammar = sg_enumerant_name(SG_KIND_Capability, c->capability);
    if (grammar) CHECK_MSG(!strcmp(grammar, c->name), "%u: table %s, grammar %s", c->capability,
                           c->name, grammar);
    else by_value++;
    char what[128];
    snprintf(what, sizeof what, "capability %s", c->name);
    CHECK_STR_EQ(c->what, what);
    CHECK(c->enabled_by && c->enabled_by[0]);
    switch (c->kind) {
    case SPVGEN_VK_CAP_CORE:
      CHECK(c->version >= SPVGEN_API_VERSION(1, 0, 0));
      CHECK(!c->feature && !c->subgroup_ops);
      break;
    case SPVGEN_VK_CAP_FEATURE:
      CHECK_MSG(strcmp(spvgen_feature_name(c->feature), "unknown feature") != 0,
                "%s: feature 0x%llx", c->name, (unsigned long long)c->feature);
      /* The feature's Vulkan name appears in what the table says enables it. */
      CHECK_CONTAINS(c->enabled_by, spvgen_feature_name(c->feature));
      CHECK(!c->subgroup_ops);
      break;
    case SPVGEN_VK_CAP_SUBGROUP: CHECK(c->subgroup_ops && !c->feature); break;
    case SPVGEN_VK_CAP_UNTRACKED: CHECK(!c->feature && !c->subgroup_ops); break;
    default: CHECK_MSG(0, "%s: kind %d", c->name, (int)c->kind);
    }
  }
  /* bf16 (3) and float8 (2) are given by value: the 1.4.309 grammar lacks them. */
  CHECK_EQ_U64(by_value, 5);
  CHECK(spvgen_vk_capability_find(100000) == NULL);
  CHECK_STR_EQ(spvgen_capability_name(SpvCapabilityKernel), "Kernel");
  CHECK_STR_EQ(spvgen_capability_name(5116), "BFloat16TypeKHR");
  CHECK(spvgen_capability_name(100000) == NULL);
}

/* Kernel, Addresses and Linkage, and every capability that implies one of them (Vector16,
 * Float16Buffer, ImageBasic, Pipes, DeviceEnqueue, GenericPointer, ...), are not in the
 * table. */
static bool implies_kernel_world(uint32_t cap, int depth) {
  if (cap == SpvCapabilityKernel || cap == SpvCapabilityAddresses || cap == SpvCapabilityLinkage)
    return true;
  const sg_enumerant *e = sg_find_enumerant(SG_KIND_Capability, cap);
  if (!e || depth > 8) return false;
  for (uint32_t i = 0; i < e->caps_n; i++)
    if (implies_kernel_world(sg_cap_pool[e->caps_off + i], depth + 1)) return true;
  return false;
}

static void test_kernel_only_capabilities_are_not_in_the_table(void) {
  const sg_operand_kind *k = &sg_operand_kinds[SG_KIND_Capability];
  unsigned kernel_world = 0;
  for (uint32_t i = 0; i < k->count; i++) {
    const sg_enumerant *e = &sg_enumerants[k->first + i];
    if (!implies_kernel_world(e->value, 0)) continue;
    kernel_world++;
    CHECK_MSG(spvgen_vk_capability_find(e->value) == NULL,
              "%s implies Kernel/Addresses/Linkage but is in the Vulkan table", e->name);
  }
  CHECK(kernel_world >= 10);
  static const uint32_t never[] = {SpvCapabilityKernel, SpvCapabilityAddresses,
                                   SpvCapabilityLinkage, SpvCapabilityVector16,
                                   SpvCapabilityFloat16Buffer, SpvCapabilityGroups,
                                   SpvCapabilityGenericPointer};
  for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
    CHECK_MSG(spvgen_vk_capability_find(never[i]) == NULL, "%s is in the table",
              spvgen_capability_name(never[i]));
}

/* --------------------------------------------------- inference, exhaustive ---- */

static void builtins_in(uint32_t version, tally *t) {
  uint32_t builtin_kind = UINT32_MAX;
  for (uint32_t i = 0; i < sg_operand_kind_count; i++)
    if (!strcmp(sg_operand_kinds[i].name, "BuiltIn")) builtin_kind = i;
  CHECK(builtin_kind != UINT32_MAX);
  if (builtin_kind == UINT32_MAX) return;
  const sg_operand_kind *bk = &sg_operand_kinds[builtin_kind];
  spvgen_module_desc d = {0};
  d.version = version;
  for (uint32_t i = 0; i < bk->count && !test_current_failed; i++) {
    const sg_enumerant *e = &sg_enumerants[bk->first + i];
    spvgen_module *m = spvgen_module_create(&d);
    uint32_t u32 = spvgen_type_int(m, 32, false);
    spvgen_builtin_input(m, (SpvBuiltIn)e->value, u32);
    check_item(m, "BuiltIn", e->name, sg_cap_pool + e->caps_off, e->caps_n,
               version >= SPVGEN_VERSION(1, 3), t);
    if (spvgen_module_status(m) != SPVGEN_OK)
      CHECK_CONTAINS(spvgen_module_error(m), "spvgen_builtin_input: BuiltIn ");
    spvgen_module_destroy(m);
  }
}

static void test_every_builtin_gets_a_vulkan_capability_or_is_refused(void) {
  tally t16 = {0}, t12 = {0};
  builtins_in(SPVGEN_VERSION(1, 6), &t16);
  builtins_in(SPVGEN_VERSION(1, 2), &t12);
  /* Both outcomes happen: SubgroupMaxSize (Kernel only) is refused; in 1.2 SubgroupId
   * too (GroupNonUniform needs SPIR-V 1.3). */
  CHECK(t16.ok > 50 && t16.refused >= 2);
  CHECK(t12.refused > t16.refused);
  fprintf(stderr, "built-ins: SPIR-V 1.6 %u accepted, %u refused; 1.2 %u accepted, %u refused\n",
          t16.ok, t16.refused, t12.ok, t12.refused);
}

static void test_every_enumerant_and_instruction_with_capabilities_gets_a_vulkan_one(void) {
  tally t = {0}, ti = {0};
  unsigned items = 0;
  for (uint32_t kind = 0; kind < sg_operand_kind_count && !test_current_failed; kind++) {
    const sg_operand_kind *k = &sg_operand_kinds[kind];
    if (kind == SG_KIND_Capability) continue; /* declaring one is explicit, not inferred */
    if (k->category != SG_CAT_VALUEENUM && k->category != SG_CAT_BITENUM) continue;
    for (uint32_t i = 0; i < k->count && !test_current_failed; i++) {
      const sg_enumerant *e = &sg_enumerants[k->first + i];
      if (!e->caps_n) continue;
      items++;
      spvgen_module *m = spvgen_module_create(NULL);
      sg_require_enumerant(m, "test", kind, e->value);
      check_item(m, k->name, e->name, sg_cap_pool + e->caps_off, e->caps_n, true, &t);
      spvgen_module_destroy(m);
    }
  }
  for (uint32_t i = 0; i < sg_instruction_count && !test_current_failed; i++) {
    const sg_instruction *ins = &sg_instructions[i];
    if (!ins->caps_n) continue;
    spvgen_module *m = spvgen_module_create(NULL);
    sg_require_instruction(m, "test", ins);
    check_item(m, "instruction", ins->name, sg_cap_pool + ins->caps_off, ins->caps_n, true, &ti);
    spvgen_module_destroy(m);
  }
  CHECK(t.ok > 100 && t.refused > 10 && ti.ok > 100 && ti.refused > 10);
  fprintf(stderr,
          "enumerants with capabilities: %u (%u accepted, %u refused); instructions: %u "
          "accepted, %u refused\n",
          items, t.ok, t.refused, ti.ok, ti.refused);
}

/* Items whose first grammar alternative is Kernel (or a KHR subgroup extension) get the
 * Vulkan one. */
static void test_items_listing_kernel_first_get_the_vulkan_alternative(void) {
  static const struct {
    uint32_t kind; /* UINT32_MAX: an instruction (value is the opcode) */
    const char *kind_name;
    uint32_t value;
    SpvCapability expected;
  } cases[] = {
      {UINT32_MAX, NULL, SpvOpImageQuerySize, SpvCapabilityImageQuery},
      {UINT32_MAX, NULL, SpvOpImageQueryLevels, SpvCapabilityImageQuery},
      {UINT32_MAX, NULL, SpvOpPtrAccessChain, SpvCapabilityVariablePointers},
      {0, "GroupOperation", SpvGroupOperationReduce, SpvCapabilityGroupNonUniformArithmetic},
      {0, "GroupOperation", SpvGroupOperationExclusiveScan,
       SpvCapabilityGroupNonUniformArithmetic},
      {0, "Decoration", SpvDecorationFPFastMathMode, SpvCapabilityFloatControls2},
      {0, "BuiltIn", SpvBuiltInSubgroupEqMask, SpvCapabilityGroupNonUniformBallot},
      {0, "BuiltIn", SpvBuiltInSubgroupSize, SpvCapabilityGroupNonUniform},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_module *m = spvgen_module_create(NULL);
    if (cases[i].kind == UINT32_MAX) {
      const sg_instruction *ins = sg_find_instruction(cases[i].value);
      CHECK(ins != NULL);
      if (ins) CHECK(sg_require_instruction(m, "test", ins));
    } else {
      uint32_t kind = UINT32_MAX;
      for (uint32_t k = 0; k < sg_operand_kind_count; k++)
        if (!strcmp(sg_operand_kinds[k].name, cases[i].kind_name)) kind = k;
      CHECK(sg_require_enumerant(m, "test", kind, cases[i].value) != NULL);
    }
    CHECK_MSG(spvgen_has_capability(m, cases[i].expected), "case %zu: %s not declared", i,
              spvgen_capability_name(cases[i].expected));
    CHECK_MSG(!spvgen_has_capability(m, SpvCapabilityKernel), "case %zu: Kernel declared", i);
    CHECK_MSG(!spvgen_has_capability(m, SpvCapabilityAddresses), "case %zu: Addresses declared", i);
    spvgen_module_destroy(m);
  }
}

/* ------------------------------------------------------ subgroup built-ins ---- */

/* A compute module that loads a u32 built-in and stores it to a buffer. */
static spvgen_module *subgroup_builtin_module(uint32_t version, SpvBuiltIn builtin, bool vec4) {
  spvgen_module_desc d = {0};
  d.version = version;
  spvgen_module *m = spvgen_module_create(&d);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t type = vec4 ? spvgen_type_vector(m, u32, 4) : u32;
  uint32_t elem = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem);
  uint32_t in = spvgen_builtin_input(m, builtin, type);
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t v = spvgen_load(m, type, in);
  if (vec4) v = spvgen_op_composite_extract(m, u32, v, (const uint32_t[]){0}, 1);
  uint32_t k0 = spvgen_const_u32(m, 0);
  spvgen_store(m, spvgen_access_chain(m, elem, buf, (const uint32_t[]){k0, k0}, 2), v);
  spvgen_function_end(m);
  return m;
}

static void test_subgroup_builtins_declare_group_non_uniform_not_kernel(void) {
  static const SpvBuiltIn builtins[] = {SpvBuiltInSubgroupId, SpvBuiltInNumSubgroups,
                                        SpvBuiltInSubgroupSize,
                                        SpvBuiltInSubgroupLocalInvocationId};
  for (size_t i = 0; i < 4; i++) {
    spvgen_module *m = subgroup_builtin_module(SPVGEN_VERSION(1, 6), builtins[i], false);
    CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniform));
    CHECK(!spvgen_has_capability(m, SpvCapabilityKernel));
    CHECK(!spvgen_has_capability(m, SpvCapabilitySubgroupBallotKHR));
    size_t n = 0;
    const uint32_t *w = check_module(m, &n); /* Vulkan 1.3 rules */
    char *text = check_disassemble(w, n);
    check_has_line(text, "OpCapability GroupNonUniform");
    check_lacks_line(text, "OpCapability Kernel");
    check_lacks_line(text, "OpCapability SubgroupBallotKHR");
    check_lacks_line(text, "OpExtension \"SPV_KHR_shader_ballot\"");
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}

static void test_subgroup_masks_declare_ballot_without_the_khr_extension(void) {
  static const SpvBuiltIn masks[] = {SpvBuiltInSubgroupEqMask, SpvBuiltInSubgroupGeMask,
                                     SpvBuiltInSubgroupGtMask, SpvBuiltInSubgroupLeMask,
                                     SpvBuiltInSubgroupLtMask};
  for (size_t i = 0; i < 5; i++) {
    spvgen_module *m = subgroup_builtin_module(SPVGEN_VERSION(1, 6), masks[i], true);
    CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformBallot));
    CHECK(!spvgen_has_capability(m, SpvCapabilitySubgroupBallotKHR));
    CHECK(!spvgen_has_extension(m, "SPV_KHR_shader_ballot"));
    size_t n = 0;
    const uint32_t *w = check_module(m, &n);
    char *text = check_disassemble(w, n);
    check_has_line(text, "OpCapability GroupNonUniformBallot");
    check_lacks_line(text, "OpExtension \"SPV_KHR_shader_ballot\"");
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}

/* Before SPIR-V 1.3 there is no GroupNonUniform: SubgroupSize and the masks take the KHR
 * ballot extension, SubgroupId (GroupNonUniform or Kernel only) is refused. */
static void test_before_spirv_1_3_the_khr_ballot_extension_is_the_vulkan_way(void) {
  spvgen_module *m = subgroup_builtin_module(SPVGEN_VERSION(1, 2), SpvBuiltInSubgroupSize, false);
  CHECK(spvgen_has_capability(m, SpvCapabilitySubgroupBallotKHR));
  CHECK(spvgen_has_extension(m, "SPV_KHR_shader_ballot"));
  CHECK(!spvgen_has_capability(m, SpvCapabilityKernel));
  check_module(m, NULL);
  spvgen_module_destroy(m);
  m = subgroup_builtin_module(SPVGEN_VERSION(1, 2), SpvBuiltInSubgroupEqMask, true);
  CHECK(spvgen_has_capability(m, SpvCapabilitySubgroupBallotKHR));
  CHECK(spvgen_has_extension(m, "SPV_KHR_shader_ballot"));
  check_module(m, NULL);
  spvgen_module_destroy(m);
  m = subgroup_builtin_module(SPVGEN_VERSION(1, 2), SpvBuiltInSubgroupId, false);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED,
                     "spvgen_builtin_input: BuiltIn SubgroupId needs capability GroupNonUniform, "
                     "which requires SPIR-V 1.3, but the module targets 1.2");
  CHECK(!spvgen_has_capability(m, SpvCapabilityKernel));
  spvgen_module_destroy(m);
}

/* A subgroup reduction alone in a module: GroupOperation Reduce lists Kernel first. */
static void test_a_lone_subgroup_reduction_declares_arithmetic_not_kernel(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t sg = spvgen_const_u32(m, SpvScopeSubgroup);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t one = spvgen_const_f32(m, 1.0f);
  spvgen_op_group_non_uniform_f_add(m, f32, sg, SpvGroupOperationReduce, one, 0);
  spvgen_function_end(m);
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformArithmetic));
  CHECK(!spvgen_has_capability(m, SpvCapabilityKernel));
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_lacks_line(text, "OpCapability Kernel");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* SubgroupMaxSize has only Kernel: refused, unless Kernel was declared by hand, and then
 * spvgen_validate rejects the module for every Vulkan env, naming Kernel. */
static void test_a_kernel_only_builtin_is_refused_and_hand_declared_kernel_fails_validation(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  CHECK_EQ_U64(spvgen_builtin_input(m, SpvBuiltInSubgroupMaxSize, u32), 0);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED,
                     "spvgen_builtin_input: BuiltIn SubgroupMaxSize needs capability Kernel, "
                     "which Vulkan does not allow");
  CHECK(!spvgen_has_capability(m, SpvCapabilityKernel));
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  spvgen_capability(m, SpvCapabilityKernel);
  u32 = spvgen_type_int(m, 32, false);
  CHECK(spvgen_builtin_input(m, SpvBuiltInSubgroupMaxSize, u32) != 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  const uint32_t *w = NULL;
  size_t n = 0;
  CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_OK);
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_1, SPVGEN_ENV_VULKAN_1_2,
                                           SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4};
  for (size_t i = 0; i < 4 && w; i++) {
    spvgen_validate_options o = {0};
    o.env = envs[i];
    char msg[512];
    CHECK_EQ_U64(spvgen_validate(w, n, &o, msg, sizeof msg), SPVGEN_ERROR_VALIDATION);
    CHECK_CONTAINS(msg, "OpCapability Kernel");
    CHECK_CONTAINS(msg, "Vulkan does not allow capability Kernel");
  }
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_the_table_is_sorted_named_as_the_grammar_and_well_formed),
      TEST_CASE(test_kernel_only_capabilities_are_not_in_the_table),
      TEST_CASE(test_every_builtin_gets_a_vulkan_capability_or_is_refused),
      TEST_CASE(test_every_enumerant_and_instruction_with_capabilities_gets_a_vulkan_one),
      TEST_CASE(test_items_listing_kernel_first_get_the_vulkan_alternative),
      TEST_CASE(test_subgroup_builtins_declare_group_non_uniform_not_kernel),
      TEST_CASE(test_subgroup_masks_declare_ballot_without_the_khr_extension),
      TEST_CASE(test_before_spirv_1_3_the_khr_ballot_extension_is_the_vulkan_way),
      TEST_CASE(test_a_lone_subgroup_reduction_declares_arithmetic_not_kernel),
      TEST_CASE(test_a_kernel_only_builtin_is_refused_and_hand_declared_kernel_fails_validation),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
