#!/usr/bin/env python3
"""Generates spvgen's instruction emitters and grammar tables from the SPIR-V grammar.

Inputs: spirv.core.grammar.json and extinst.glsl.std.450.grammar.json of ONE pinned
SPIRV-Headers release (PINNED below; scripts/deps.sh downloads it), never whatever the
build machine has: the public API must be the same everywhere. The outputs are committed
(include/spvgen/ops.h, lib/core/gen/) and the ctest `grammar_generated_fresh`
(tests/scripts/check_generated.sh) regenerates them and fails on any difference.
Outputs (in --out and --header-dir; the CMake target `regen_grammar` writes them in place):
  spvgen/ops.h        one emitter per core instruction (spvgen_op_<name>, and one per
                      alias the grammar lists, so a rename upstream keeps the old name)
                      and per GLSL.std.450 instruction (spvgen_glsl_<name>), each with a
                      one-line comment: opcode, capabilities, extensions, minimum version;
                      those the hand-written API (spvgen/builder.h) owns are marked "raw"
                      and name the hand-written function.
  ops.c               their definitions: pack operands, call the builder's sg_inst()
  grammar_tables.c    operand kinds, enumerants with their capabilities, extensions and
                      versions, instruction operand lists: what the builder walks to check
                      operands and infer capabilities
  sg_kinds.h          operand kind indices (SG_KIND_*)

Instructions are placed in module sections by opcode in the builder (lib/core), never by
the grammar's "class" field, which marks many NV instructions "Reserved".

The output depends only on the grammar files, so it is deterministic.
"""
import argparse
import hashlib
import json
import os
import re
import sys

# The one SPIRV-Headers release the committed files come from (Debian's binary package,
# architecture all: headers and grammar JSON only). --grammar files with other contents
# are refused, so the committed API cannot drift with the machine.
PINNED = {
    "package": "spirv-headers_1.6.1+1.4.309.0-1_all.deb",
    "spirv.core.grammar.json":
        "9a3c5318f6561a74a9cadbb203fba01b2dcf69b56ea182a3d2ed79ec5dea23c6",
    "extinst.glsl.std.450.grammar.json":
        "d211843d2d7f253e2b4b4e56f2afe546f6e4abbdedebca78b1cd8cfdb0ec69a5",
}
# Why 1.4.309 (Debian 13's) and not a newer release: it is the grammar of the validator
# spvgen tests against (SPIRV-Tools 2025.1 is built with it), so inference never picks
# what that validator cannot read. Checked on 2026-11-23 with unstable's 1.4.363: its
# capabilities list a second extension first (CooperativeMatrixReductionsNV and
# CooperativeMatrixPerElementOperationsNV: SPV_EXT_cooperative_matrix_maintenance1 before
# SPV_NV_cooperative_matrix2, which SPIRV-Tools 2025.1 rejects) and renames NV
# capabilities to EXT ones (error messages change): 436 of 55,227 test modules differed
# and 4 tests failed. Moving the pin is its own change, with the validator's.

# Instructions the hand-written API (include/spvgen/builder.h) owns: their generated
# emitters stay (raw access, the grammar walk and deduplication still apply) and their
# comment names the function to prefer.
OWNED = {
    "OpCapability": "spvgen_capability", "OpExtension": "spvgen_extension",
    "OpExtInstImport": "spvgen_ext_inst_import",
    "OpMemoryModel": "spvgen_module_create (spvgen_module_desc)",
    "OpEntryPoint": "spvgen_entry_point", "OpExecutionMode": "spvgen_execution_mode",
    "OpExecutionModeId": "spvgen_execution_mode_id", "OpTypeVoid": "spvgen_type_void",
    "OpTypeBool": "spvgen_type_bool", "OpTypeInt": "spvgen_type_int",
    "OpTypeFloat": "spvgen_type_float, spvgen_type_float_encoded",
    "OpTypeVector": "spvgen_type_vector", "OpTypeMatrix": "spvgen_type_matrix",
    "OpTypeArray": "spvgen_type_array, spvgen_type_array_strided",
    "OpTypeRuntimeArray": "spvgen_type_runtime_array, spvgen_type_runtime_array_strided",
    "OpTypeStruct": "spvgen_type_struct", "OpTypePointer": "spvgen_type_pointer",
    "OpTypeFunction": "spvgen_type_function", "OpConstantTrue": "spvgen_const_bool",
    "OpConstantFalse": "spvgen_const_bool",
    "OpConstant": "spvgen_const_u32, spvgen_const_i32, spvgen_const_float, spvgen_const_bits",
    "OpConstantComposite": "spvgen_const_composite", "OpConstantNull": "spvgen_const_null",
    "OpSpecConstant": "spvgen_spec_const_bits, spvgen_spec_const_u32",
    "OpSpecConstantTrue": "spvgen_spec_const_bool",
    "OpSpecConstantFalse": "spvgen_spec_const_bool", "OpVariable": "spvgen_variable",
    "OpDecorate": "spvgen_decorate", "OpDecorateId": "spvgen_decorate_id",
    "OpMemberDecorate": "spvgen_member_decorate", "OpName": "spvgen_name",
    "OpMemberName": "spvgen_member_name", "OpFunction": "spvgen_function_begin",
    "OpFunctionEnd": "spvgen_function_end", "OpLabel": "spvgen_label, spvgen_block",
    "OpSelectionMerge": "spvgen_if", "OpLoopMerge": "spvgen_loop",
    "OpReturn": "spvgen_return", "OpReturnValue": "spvgen_return_value",
    "OpAccessChain": "spvgen_access_chain", "OpLoad": "spvgen_load",
    "OpStore": "spvgen_store", "OpExtInst": "spvgen_ext_inst",
}

C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "true", "false", "m", "id", "w", "n",
    # GNU C and C++ keywords: the header must compile as gnu11 and as C++.
    "asm", "typeof", "class", "new", "delete", "this", "template", "typename", "operator",
    "private", "protected", "public", "namespace", "using", "virtual", "friend", "explicit",
    "mutable", "export", "try", "catch", "throw", "and", "or", "not", "xor", "compl",
    "bitand", "bitor", "alignas", "alignof", "decltype", "nullptr", "constexpr", "noexcept",
    "static_assert", "thread_local", "requires", "concept", "module", "import", "wchar_t",
    "char8_t", "char16_t", "char32_t", "const_cast", "dynamic_cast", "reinterpret_cast",
    "static_cast", "typeid",
}

# Roles of id operands of function-body and terminator instructions, as numbers shared
# with lib/core/internal.h (SG_ROLE_*): what kind of id the builder accepts there.
# A forward reference (a reserved, not yet defined id) is accepted in every role.
ROLE_ANY, ROLE_VALUE, ROLE_LABEL = 0, 1, 2

# Label operands of branches and merges: must be labels.
LABEL_OPERANDS = {
    ("OpBranch", "Target Label"),
    ("OpBranchConditional", "True Label"),
    ("OpBranchConditional", "False Label"),
    ("OpSwitch", "Default"),
    ("OpSwitch", "Target"),  # the id of each (literal, label) pair
    ("OpLoopMerge", "Merge Block"),
    ("OpLoopMerge", "Continue Target"),
    ("OpSelectionMerge", "Merge Block"),
}

# Every other IdRef operand of a body or terminator instruction is a value operand (a
# type, label or function id there is an error), and so are IdScope and
# IdMemorySemantics operands (constants) everywhere in them, except those whose name says,
# or may say, that they take something else: a false rejection of valid SPIR-V is far
# worse than a missed one. The excluded operands ("any id"), from every IdRef operand
# name of body and terminator instructions in the grammar (SPIRV-Headers 1.4.309):
#  - by a word of the name (split at spaces, punctuation and camelCase, any case):
#    type       'Type' (OpCooperativeMatrixLength*: a type), 'Base Type', 'Data Type',
#               'Pointer Type', 'Payload Type', 'Image Type', 'Input Type' (OpFixed*INTEL),
#               'Asm type'; and values, merely to be safe: 'Cache Type', 'Slice Type',
#               'Block Based Skip Type', 'Skip Block Partition Type'
#    label, block, target
#               the labels of branches and merges (checked as labels above); and values:
#               'Target' (OpCopyMemory*, OpArithmeticFenceEXT, OpAsmINTEL,
#               OpImageBlockMatch*QCOM), 'Target Coordinates', 'Target Sampled Image',
#               'Block Count', 'Block Height', 'Block Width', 'Block Size', 'BlockSize'
#    function, func
#               'Function' (OpFunctionCall), 'Func' (OpCooperativeMatrixPerElementOpNV),
#               'CombineFunc' (OpCooperativeMatrixReduceNV)
#    set        'Set' (OpExtInst: an OpExtInstImport)
#    invoke     'Invoke' (OpEnqueueKernel, OpGetKernel*: a function)
#    group      'Group Count X', 'Group Count Y', 'Group Count Z' (OpEmitMeshTasksEXT;
#               values)
#    parent     'Variable, Parent, ...' (OpPhi; a pair, whose ids are not role-checked)
#    entry, interface, kernel: no body operand today (entry points, interfaces)
#  - by the whole name: 'Structure' (OpUntypedArrayLengthKHR: a struct type; so also
#    OpArrayLength's pointer), 'Result' (OpFPGARegINTEL, unclear), 'Alias Domain',
#    'AliasScope1, AliasScope2, ...' and 'Name' (OpAlias*DeclINTEL: declarations and an
#    OpString)
#  - every id operand of OpExtInst ('Operand 1', ...): extended instructions such as
#    debug info take types, functions and strings;
#  - an IdRef operand without a name (none today).
# Decorations, names, entry points, execution modes, types and constants are not body
# instructions: their ids stay unchecked here. Operands inside enumerant parameters
# (image operands, memory operands, tensor addressing's 'DecodeFunc') are not either.
ANY_ID_WORDS = {"type", "label", "block", "target", "function", "func", "set", "entry",
                "invoke", "group", "parent", "interface", "kernel"}
ANY_ID_NAMES = {"Structure", "Result", "Alias Domain", "AliasScope1, AliasScope2, ...",
                "Name"}
ANY_ID_INSTRUCTIONS = {"OpExtInst"}
ROLE_KINDS = ("IdRef", "IdScope", "IdMemorySemantics", "PairLiteralIntegerIdRef")


def name_words(name):
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {w.lower() for w in re.split(r"[^A-Za-z]+", name) if w}


def operand_role(ins, o):
    """SG_ROLE_* of one operand of a body or terminator instruction."""
    if placement(ins["opname"]) not in (PLACE_BODY, PLACE_TERMINATOR):
        return ROLE_ANY
    if o["kind"] not in ROLE_KINDS:
        return ROLE_ANY
    name = (o.get("name") or "").strip("'")
    if (ins["opname"], name) in LABEL_OPERANDS:
        return ROLE_LABEL
    if o["kind"] == "PairLiteralIntegerIdRef":
        return ROLE_ANY
    if o["kind"] in ("IdScope", "IdMemorySemantics"):
        return ROLE_VALUE
    if not name or ins["opname"] in ANY_ID_INSTRUCTIONS or name in ANY_ID_NAMES:
        return ROLE_ANY
    if name_words(name) & ANY_ID_WORDS:
        return ROLE_ANY
    return ROLE_VALUE


# Instructions that write memory through a pointer operand, and which operand: the
# builder's one read-only check (lib/core/helpers.c, sg_check_writable) runs on that
# pointer for every one of them, whichever emitter (generated or hand-written) emits it.
# Every instruction whose name says it may write (a store, an atomic other than a load)
# must be listed here or in NOT_WRITING: a grammar that adds one fails the generator.
WRITES = {
    "OpStore": "Pointer", "OpCopyMemory": "Target", "OpCopyMemorySized": "Target",
    "OpAtomicStore": "Pointer", "OpAtomicExchange": "Pointer",
    "OpAtomicCompareExchange": "Pointer", "OpAtomicCompareExchangeWeak": "Pointer",
    "OpAtomicIIncrement": "Pointer", "OpAtomicIDecrement": "Pointer",
    "OpAtomicIAdd": "Pointer", "OpAtomicISub": "Pointer", "OpAtomicSMin": "Pointer",
    "OpAtomicUMin": "Pointer", "OpAtomicSMax": "Pointer", "OpAtomicUMax": "Pointer",
    "OpAtomicAnd": "Pointer", "OpAtomicOr": "Pointer", "OpAtomicXor": "Pointer",
    "OpAtomicFlagTestAndSet": "Pointer", "OpAtomicFlagClear": "Pointer",
    "OpAtomicFMinEXT": "Pointer", "OpAtomicFMaxEXT": "Pointer", "OpAtomicFAddEXT": "Pointer",
    "OpCooperativeMatrixStoreKHR": "Pointer", "OpCooperativeMatrixStoreNV": "Pointer",
    "OpCooperativeMatrixStoreTensorNV": "Pointer", "OpCooperativeVectorStoreNV": "Pointer",
    "OpCooperativeVectorOuterProductAccumulateNV": "Pointer",
    "OpCooperativeVectorReduceSumAccumulateNV": "Pointer",
    "OpGroupAsyncCopy": "Destination", "OpSubgroup2DBlockStoreINTEL": "Dst Base Pointer",
}
NOT_WRITING = {"OpAtomicLoad", "OpSubgroupMatrixMultiplyAccumulateINTEL"}


def write_operand(ins):
    """1 + the index of the operand whose pointee ins writes; 0 when it writes none."""
    name = ins["opname"]
    if name not in WRITES:
        if ("Store" in name or "Atomic" in name) and name not in NOT_WRITING:
            raise SystemExit("%s may write memory: list it in WRITES or NOT_WRITING" % name)
        return 0
    for i, o in enumerate(ins.get("operands", [])):
        if (o.get("name") or "").strip("'") == WRITES[name]:
            return i + 1
    raise SystemExit("%s has no operand '%s'" % (name, WRITES[name]))


# Operand kind categories, as numbers shared with lib/core/internal.h.
CAT = {"BitEnum": 1, "ValueEnum": 2, "Id": 3, "Literal": 4, "Composite": 5}
QUANT = {None: 0, "?": 1, "*": 2}
NO_VERSION = 0xFFFF  # "None": only through an extension


def snake(name):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return s.lower()


def version_code(v):
    if v is None or v == "None":
        return NO_VERSION if v == "None" else 0x0100
    major, minor = v.split(".")
    return (int(major) << 8) | int(minor)


# Operand kinds that are ids: their parameters are named *_id (a repeated one *_ids), so
# that a prototype says which arguments are ids and which literals
# (spvgen_op_group_non_uniform_f_add(m, result_type, execution_id, operation, value_id,
# cluster_size_id): the scope is a constant's id, the group operation a literal).
ID_KINDS = ("IdRef", "IdScope", "IdMemorySemantics")


def param_name(op, used, is_id=False):
    raw = op.get("name")
    if raw:
        raw = raw.strip("'")
        raw = raw.split("\n")[0]
        name = re.sub(r"[^A-Za-z0-9]+", "_", raw).strip("_")
        name = snake(name) if not name.islower() else name
        name = re.sub(r"_+", "_", name).lower()
    else:
        name = snake(op["kind"])
    if not name or name[0].isdigit():
        name = "op_" + name
    if is_id:
        repeated = op.get("quantifier") == "*"
        if repeated:
            name = re.sub(r"_(id|ids)$", "", name) + "_ids"
        elif not name.endswith("_id"):
            name = name + "_id"
    if name in C_KEYWORDS:
        name = name + "_"
    base, i = name, 2
    while name in used:
        name = "%s%d" % (base, i)
        i += 1
    used.add(name)
    return name


class Grammar:
    def __init__(self, core, glsl):
        self.core = core
        self.glsl = glsl
        self.kinds = {k["kind"]: k for k in core["operand_kinds"]}
        self.kind_index = {k["kind"]: i for i, k in enumerate(core["operand_kinds"])}
        # Extensions, numbered.
        exts = set()
        for k in core["operand_kinds"]:
            for e in k.get("enumerants", []):
                exts.update(e.get("extensions", []))
        for ins in core["instructions"]:
            exts.update(ins.get("extensions", []))
        self.extensions = sorted(exts)
        self.ext_index = {e: i for i, e in enumerate(self.extensions)}
        self.kinds_header = []
        caps = self.kinds["Capability"]["enumerants"]
        self.cap_value = {}
        for c in caps:
            self.cap_value[c["enumerant"]] = int(c["value"])
            for a in c.get("aliases", []):
                self.cap_value[a] = int(c["value"])

    def kind_has_params(self, kind):
        return any(e.get("parameters") for e in self.kinds[kind].get("enumerants", []))


def value_of(e):
    v = e["value"]
    return int(v, 16) if isinstance(v, str) else int(v)


def gen_tables(g, out):
    w = out.append
    w("/* Generated by tools/gen_grammar.py from the pinned SPIR-V grammar. Do not edit. */")
    w('#include "internal.h"')
    w("")
    w("const char *const sg_extension_names[] = {")
    for e in g.extensions:
        w('  "%s",' % e)
    w("};")
    w("const uint32_t sg_extension_count = %d;" % len(g.extensions))
    w("")
    # Shared pools: capability values, extension indices, parameter kinds.
    cap_pool, ext_pool, param_pool = [], [], []
    pool_index = {}

    def pool(lst, items, tag):
        key = (tag, tuple(items))
        if not items:
            return 0
        if key in pool_index:
            return pool_index[key]
        off = len(lst)
        lst.extend(items)
        pool_index[key] = off
        return off

    enum_rows = []
    kind_rows = []
    for k in g.core["operand_kinds"]:
        ens = k.get("enumerants", [])
        # Deduplicate by value (aliases share a value); keep the first spelling.
        by_value = {}
        for e in ens:
            v = value_of(e)
            if v not in by_value:
                by_value[v] = e
        first = len(enum_rows)
        for v in sorted(by_value):
            e = by_value[v]
            caps = [g.cap_value[c] for c in e.get("capabilities", [])]
            exts = [g.ext_index[x] for x in e.get("extensions", [])]
            params = [g.kind_index[p["kind"]] for p in e.get("parameters", [])]
            enum_rows.append((v, pool(cap_pool, caps, "c"), len(caps),
                              pool(ext_pool, exts, "e"), len(exts),
                              pool(param_pool, params, "p"), len(params),
                              version_code(e.get("version")), e["enumerant"]))
        kind_rows.append((k["kind"], CAT[k["category"]], first, len(by_value)))

    w("const uint16_t sg_cap_pool[] = {%s};" % (", ".join(str(c) for c in cap_pool) or "0"))
    w("const uint16_t sg_ext_pool[] = {%s};" % (", ".join(str(c) for c in ext_pool) or "0"))
    w("const uint16_t sg_param_pool[] = {%s};" % (", ".join(str(c) for c in param_pool) or "0"))
    w("")
    w("const sg_enumerant sg_enumerants[] = {")
    for r in enum_rows:
        w('  {%du, %d, %d, %d, %d, %d, %d, 0x%04x, "%s"},' % r)
    w("};")
    w("")
    w("const sg_operand_kind sg_operand_kinds[] = {")
    for r in kind_rows:
        w('  {"%s", %d, %d, %d},' % r)
    w("};")
    w("const uint32_t sg_operand_kind_count = %d;" % len(kind_rows))
    for name in ("IdResultType", "IdResult", "IdRef", "IdScope", "IdMemorySemantics",
                 "LiteralInteger", "LiteralString", "LiteralContextDependentNumber",
                 "LiteralExtInstInteger", "LiteralSpecConstantOpInteger", "LiteralFloat",
                 "PairLiteralIntegerIdRef", "PairIdRefLiteralInteger", "PairIdRefIdRef",
                 "Capability", "StorageClass", "Decoration", "FPEncoding", "ExecutionModel",
                 "Scope", "MemorySemantics"):
        g.kinds_header.append("#define SG_KIND_%s %du" % (name, g.kind_index.get(name, 0xFFFF)))
    w("")
    # Instructions.
    op_rows = []
    operand_rows = []
    max_opcode = 0
    seen = {}
    for ins in g.core["instructions"]:
        oc = ins["opcode"]
        if oc in seen:
            continue
        seen[oc] = True
        max_opcode = max(max_opcode, oc)
        ops = ins.get("operands", [])
        first = len(operand_rows)
        roles = [operand_role(ins, o) for o in ops]
        for o, role in zip(ops, roles):
            operand_rows.append((g.kind_index[o["kind"]], QUANT[o.get("quantifier")], role,
                                 (o.get("name") or o["kind"]).strip("'").replace('"', "").split("\n")[0]))
        caps = [g.cap_value[c] for c in ins.get("capabilities", [])]
        exts = [g.ext_index[x] for x in ins.get("extensions", [])]
        has_type = int(any(o["kind"] == "IdResultType" for o in ops))
        has_result = int(any(o["kind"] == "IdResult" for o in ops))
        # Fast-path shape: required operands are single ids, then optional operands of
        # any kind (accepted only when absent) or one repeated IdRef.
        req = [o for o in ops if not o.get("quantifier")]
        first_q = next((i for i, o in enumerate(ops) if o.get("quantifier")), len(ops))
        tail = ops[first_q:]
        lits = ("LiteralInteger", "LiteralExtInstInteger", "LiteralSpecConstantOpInteger")
        simple = (first_q <= 16
                  and all(o["kind"] in ("IdResultType", "IdResult", "IdRef") + lits
                          for o in ops[:first_q])
                  and all(o.get("quantifier") for o in tail))
        lit_mask = sum(1 << i for i, o in enumerate(ops[:first_q]) if o["kind"] in lits)
        id_tail = len(tail) == 1 and tail[0].get("quantifier") == "*" and tail[0]["kind"] == "IdRef"
        lit_tail = (len(tail) == 1 and tail[0].get("quantifier") == "*"
                    and tail[0]["kind"] == "LiteralInteger")
        # For the inline checks of simple instructions (operand index = word index):
        # which required operands are values and which labels, and whether the repeated
        # IdRef tail is values.
        value_mask = sum(1 << i for i in range(first_q) if roles[i] == ROLE_VALUE) if simple else 0
        label_mask = sum(1 << i for i in range(first_q) if roles[i] == ROLE_LABEL) if simple else 0
        any_mask = sum(1 << i for i in range(first_q) if roles[i] == ROLE_ANY and ops[i]["kind"]
                       not in ("IdResultType", "IdResult") + lits) if simple else 0
        value_tail = simple and id_tail and roles[first_q] == ROLE_VALUE
        head = sum(1 << i for i in range(first_q) if ops[i]["kind"] in ("IdResultType", "IdResult"))
        assert not simple or value_mask | label_mask | any_mask | lit_mask | head == (1 << first_q) - 1
        noreq = not caps and not exts and version_code(ins.get("version")) <= 0x0100
        flags = ((1 if simple else 0) | (2 if noreq else 0) | (4 if id_tail else 0)
                 | (8 if lit_tail else 0) | (16 if value_tail else 0))
        writes = write_operand(ins)
        # SG_INST_WATCHED: sg_inst looks at it beyond the grammar (a write through a
        # pointer, or a call: the read-only check), one bit on the hot path.
        if writes or ins["opname"] == "OpFunctionCall":
            flags |= 32
        assert len(req) == first_q or not simple
        op_rows.append((oc, has_type, has_result, placement(ins["opname"]), flags, first_q, writes, lit_mask,
                        value_mask, label_mask, any_mask,
                        first, len(ops),
                        pool(cap_pool, caps, "c"), len(caps), pool(ext_pool, exts, "e"),
                        len(exts), version_code(ins.get("version")), ins["opname"]))
    found = {(i["opname"], (o.get("name") or "").strip("'")) for i in g.core["instructions"]
             for o in i.get("operands", []) if operand_role(i, o) == ROLE_LABEL}
    if found != LABEL_OPERANDS:
        raise SystemExit("label operands not in the grammar: %s" % sorted(LABEL_OPERANDS - found))
    # pools may have grown: re-emit them after instructions
    out[:] = [l for l in out if not l.startswith("const uint16_t sg_cap_pool[]")
              and not l.startswith("const uint16_t sg_ext_pool[]")
              and not l.startswith("const uint16_t sg_param_pool[]")]
    w("const uint16_t sg_cap_pool[] = {%s};" % (", ".join(str(c) for c in cap_pool) or "0"))
    w("const uint16_t sg_ext_pool[] = {%s};" % (", ".join(str(c) for c in ext_pool) or "0"))
    w("const uint16_t sg_param_pool[] = {%s};" % (", ".join(str(c) for c in param_pool) or "0"))
    w("")
    w("const sg_operand sg_operands[] = {")
    for r in operand_rows:
        w('  {%d, %d, %d, "%s"},' % r)
    w("};")
    w("")
    w("const sg_instruction sg_instructions[] = {")
    for r in op_rows:
        w('  {%d, %d, %d, %d, %d, %d, %d, 0x%x, 0x%x, 0x%x, 0x%x, %d, %d, %d, %d, %d, %d, 0x%04x, "%s"},' % r)
    w("};")
    w("const uint32_t sg_instruction_count = %d;" % len(op_rows))
    # Dense opcode -> index+1 map.
    idx = [0] * (max_opcode + 1)
    for i, r in enumerate(op_rows):
        idx[r[0]] = i + 1
    w("const uint32_t sg_max_opcode = %d;" % max_opcode)
    w("const uint16_t sg_opcode_index[] = {")
    for i in range(0, len(idx), 32):
        w("  " + ",".join(str(x) for x in idx[i:i + 32]) + ",")
    w("};")
    # Capability implications (a capability's "capabilities" = what it implicitly declares).
    w("")
    w("/* Capabilities each capability implicitly declares, and its extensions. */")
    rows = []
    for c in g.kinds["Capability"]["enumerants"]:
        rows.append(c)
    w("const uint32_t sg_capability_count = %d;" % len(rows))
    return op_rows


# Where an instruction goes, by opcode name (never by the grammar's "class").
# Codes shared with lib/core/internal.h (SG_PLACE_*).
PLACE_BODY, PLACE_TYPE, PLACE_CONSTANT, PLACE_SPEC_CONSTANT, PLACE_DEBUG_SOURCE, \
    PLACE_NAMES, PLACE_PROCESSED, PLACE_ANNOTATION, PLACE_SPECIAL, PLACE_TERMINATOR = range(10)
SPECIAL = {"OpCapability", "OpExtension", "OpExtInstImport", "OpMemoryModel", "OpEntryPoint",
           "OpExecutionMode", "OpExecutionModeId", "OpVariable", "OpUndef", "OpLine",
           "OpNoLine", "OpFunction", "OpFunctionParameter", "OpFunctionEnd", "OpLabel",
           "OpTypeForwardPointer", "OpExtInstWithForwardRefsKHR"}
TERMINATORS = {"OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn", "OpReturnValue",
               "OpKill", "OpUnreachable", "OpTerminateInvocation", "OpIgnoreIntersectionKHR",
               "OpTerminateRayKHR", "OpEmitMeshTasksEXT"}
ANNOTATIONS = {"OpDecorate", "OpMemberDecorate", "OpDecorationGroup", "OpGroupDecorate",
               "OpGroupMemberDecorate", "OpDecorateId", "OpDecorateString",
               "OpMemberDecorateString"}


def placement(name):
    if name in SPECIAL:
        return PLACE_SPECIAL
    if name in TERMINATORS:
        return PLACE_TERMINATOR
    if name in ANNOTATIONS:
        return PLACE_ANNOTATION
    if name in ("OpString", "OpSource", "OpSourceContinued", "OpSourceExtension"):
        return PLACE_DEBUG_SOURCE
    if name in ("OpName", "OpMemberName"):
        return PLACE_NAMES
    if name == "OpModuleProcessed":
        return PLACE_PROCESSED
    if name.startswith("OpType"):
        return PLACE_TYPE
    if name.startswith("OpSpecConstant"):
        return PLACE_SPEC_CONSTANT
    if name.startswith("OpConstant"):
        return PLACE_CONSTANT
    return PLACE_BODY


def c_params(g, ins, used):
    """Returns (param declarations, pack statements, result info)."""
    decls, packs = [], []
    ops = ins.get("operands", [])
    has_type = any(o["kind"] == "IdResultType" for o in ops)
    has_result = any(o["kind"] == "IdResult" for o in ops)
    presence = []  # (index, expression that is true when given) for '?' operands
    for i, o in enumerate(ops):
        kind, q = o["kind"], o.get("quantifier")
        if kind == "IdResultType":
            decls.append("uint32_t result_type")
            packs.append(("word", "result_type", None))
            continue
        if kind == "IdResult":
            packs.append(("result", None, None))
            continue
        name = param_name(o, used, kind in ID_KINDS)
        cat = g.kinds[kind]["category"]
        if q == "*" or cat == "Composite":
            if kind == "LiteralString":
                raise SystemExit("repeated string operand unsupported")
            decls.append("const uint32_t *%s, uint32_t %s_count" % (name, name))
            packs.append(("array", name, q))
            continue
        if kind == "LiteralString":
            decls.append("const char *%s" % name)
            packs.append(("string", name, q))
            continue
        if kind == "LiteralContextDependentNumber":
            decls.append("const uint32_t *%s, uint32_t %s_count" % (name, name))
            packs.append(("array", name, q))
            continue
        if cat in ("BitEnum", "ValueEnum") and g.kind_has_params(kind):
            decls.append("uint32_t %s, const uint32_t *%s_args, uint32_t %s_args_count" %
                         (name, name, name))
            packs.append(("enum_args", name, q, cat))
            continue
        decls.append("uint32_t %s" % name)
        packs.append(("word", name, q, cat))
    return decls, packs, has_type, has_result


def presence_expr(p):
    kind, name = p[0], p[1]
    cat = p[3] if len(p) > 3 else None
    if kind == "string":
        return "%s != NULL" % name
    if kind == "array":
        return "%s_count != 0" % name
    if cat == "BitEnum":
        return "%s != 0" % name if kind == "word" else "(%s != 0 || %s_args_count != 0)" % (name, name)
    if cat == "Id":
        return "%s != 0" % name
    return "%s != SPVGEN_ABSENT" % name


def version_text(v):
    if v == "None":
        return "no core version (extensions only)"
    return "SPIR-V %s" % (v or "1.0")


def doc_line(ins, name, opcode, note=None):
    """The one-line comment over a prototype: what it emits and what that requires."""
    parts = ["%s (%d)" % (name, opcode)]
    if ins.get("capabilities"):
        parts.append("capabilities " + ", ".join(ins["capabilities"]))
    if ins.get("extensions"):
        parts.append("extensions " + ", ".join(ins["extensions"]))
    parts.append(version_text(ins.get("version")))
    if ins.get("lastVersion"):
        parts[-1] += " to %s" % ins["lastVersion"]
    if note:
        parts.append(note)
    return "/* %s */" % "; ".join(parts)


def gen_emitter(g, ins, fname, opcode_expr, header, source, ext_set=None, doc=None):
    used = set()
    decls, packs, has_type, has_result = c_params(g, ins, used)
    if ext_set is not None:
        has_result = True
    ret = "uint32_t" if has_result else "void"
    args = ", ".join(["spvgen_module *m"] + decls)
    if doc:
        header.append(doc)
    header.append("SPVGEN_API\n%s %s(%s);" % (ret, fname, args))
    s = source.append
    s("%s %s(%s) {" % (ret, fname, args))
    fixed = all(p[0] in ("word", "result") and (len(p) < 3 or p[2] is None) for p in packs)
    if fixed and ext_set is not None:
        rest = [p[1] for p in packs if p[0] == "word" and p[1] != "result_type"]
        words = ["result_type", "0", "spvgen_glsl_std_450(m)", str(ext_set)] + rest
        s("  uint32_t w_[%d] = {%s};" % (len(words), ", ".join(words)))
        s('  return sg_inst(m, "%s", SpvOpExtInst, w_, %d);' % (fname, len(words)))
        s("}")
        s("")
        return
    if fixed:
        words = ["0" if p[0] == "result" else p[1] for p in packs]
        if words:
            s("  uint32_t w_[%d] = {%s};" % (len(words), ", ".join(words)))
            call = 'sg_inst(m, "%s", %s, w_, %d)' % (fname, opcode_expr, len(words))
        else:
            call = 'sg_inst(m, "%s", %s, NULL, 0)' % (fname, opcode_expr)
        s("  return %s;" % call if has_result else "  %s;" % call)
        s("}")
        s("")
        return
    s("  sg_packer pk_;")
    s('  if (!sg_pack_begin(m, &pk_, "%s")) return%s;' % (fname, " 0" if has_result else ""))
    if ext_set is not None:
        s("  sg_pack_word(&pk_, result_type);")
        s("  sg_pack_result(&pk_);")
        s("  sg_pack_word(&pk_, spvgen_glsl_std_450(m));")
        s("  sg_pack_word(&pk_, %d);" % ext_set)
    # Optional operands: emit operand i when it or any later optional is given.
    opt = [i for i, p in enumerate(packs) if p[0] != "result" and len(p) > 2 and p[2] == "?"]
    for i, p in enumerate(packs):
        kind = p[0]
        if kind == "result":
            s("  sg_pack_result(&pk_);")
            continue
        name = p[1]
        if ext_set is not None and name == "result_type":
            continue
        q = p[2] if len(p) > 2 else None
        guard = None
        if q == "?":
            later = [presence_expr(packs[j]) for j in opt if j >= i]
            guard = " || ".join("(%s)" % e for e in later)
        ind = "  "
        if guard:
            s("  if (%s) {" % guard)
            ind = "    "
        if kind == "word":
            s(ind + "sg_pack_word(&pk_, %s);" % name)
        elif kind == "string":
            s(ind + "sg_pack_string(&pk_, %s);" % name)
        elif kind == "array":
            s(ind + "sg_pack_words(&pk_, %s, %s_count);" % (name, name))
        elif kind == "enum_args":
            s(ind + "sg_pack_word(&pk_, %s);" % name)
            s(ind + "sg_pack_words(&pk_, %s_args, %s_args_count);" % (name, name))
        if guard:
            s("  }")
    if ext_set is not None:
        s("  return sg_pack_end(&pk_, SpvOpExtInst);")
    elif has_result:
        s("  return sg_pack_end(&pk_, %s);" % opcode_expr)
    else:
        s("  sg_pack_end(&pk_, %s);" % opcode_expr)
    s("}")
    s("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grammar", required=True)
    ap.add_argument("--glsl", required=True)
    ap.add_argument("--out", required=True, help="where ops.c, grammar_tables.c, sg_kinds.h go")
    ap.add_argument("--header-dir", help="where ops.h goes (default: OUT/spvgen)")
    ap.add_argument("--allow-unpinned", action="store_true",
                    help="accept grammar files other than the pinned ones (to try a new pin)")
    a = ap.parse_args()
    digests = {}
    for path in (a.grammar, a.glsl):
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        base = os.path.basename(path)
        digests[base] = digest
        if PINNED.get(base) != digest and not a.allow_unpinned:
            sys.exit("%s: sha256 %s is not the pinned %s's (%s); the generated API comes "
                     "from one grammar only (scripts/deps.sh downloads it)"
                     % (path, digest, PINNED["package"], PINNED.get(base)))
    with open(a.grammar) as f:
        core = json.load(f)
    with open(a.glsl) as f:
        glsl = json.load(f)
    g = Grammar(core, glsl)
    header_dir = a.header_dir or os.path.join(a.out, "spvgen")
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(header_dir, exist_ok=True)

    tables = []
    gen_tables(g, tables)

    header = [
        "/* spvgen/ops.h — generated by tools/gen_grammar.py from the SPIR-V grammar",
        " * (SPIRV-Headers %d.%d rev %d, Debian's %s). Do not edit." % (
            core["major_version"], core["minor_version"], core["revision"], PINNED["package"]),
        " * Grammar sha256: spirv.core.grammar.json %s," % digests.get("spirv.core.grammar.json", "?"),
        " *   extinst.glsl.std.450.grammar.json %s." % digests.get("extinst.glsl.std.450.grammar.json", "?"),
        " * The API is the same on every machine: this file is committed and regenerated only",
        " * from that grammar (tools/gen_grammar.py; ctest grammar_generated_fresh).",
        " *",
        " * Each prototype's comment: the instruction and its opcode, the capabilities and",
        " * extensions that declaring it adds (inferred), the first SPIR-V version that has it.",
        " * \"raw\": spvgen/builder.h has a hand-written function for it (named there) that",
        " * checks more and is the one to use; \"alias\": the grammar's other name for an",
        " * instruction (the same emitter, kept so that upstream renames break no caller).",
        " *",
        " * One emitter per instruction: spvgen_op_<opname in snake case>, e.g.",
        " * spvgen_op_i_add(m, result_type, operand_1_id, operand_2_id). Result ids are",
        " * returned; operands follow the grammar's order. A parameter named *_id (*_ids for a",
        " * repeated one) takes an id; any other one a literal word: a Scope or",
        " * MemorySemantics operand is the id of an integer OpConstant",
        " * (spvgen_const_u32(m, SpvScopeSubgroup)), which the builder checks, never the enum",
        " * value itself. Optional operands: ids 0, bit masks 0, literals and value",
        " * enums SPVGEN_ABSENT, strings NULL, arrays count 0 mean 'not given'. Repeated",
        " * operands are (pointer, count) pairs; enumerants with parameters take their",
        " * parameter words as (args, args_count). GLSL.std.450: spvgen_glsl_<name>. */",
        "#ifndef SPVGEN_OPS_H",
        "#define SPVGEN_OPS_H",
        "#include <stdint.h>",
        '#include "spvgen/export.h" /* SPVGEN_API: exported from libspvgen.so */',
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "typedef struct spvgen_module spvgen_module;",
        "",
    ]
    source = [
        "/* Generated by tools/gen_grammar.py from the pinned SPIR-V grammar. Do not edit. */",
        '#include "internal.h"',
        "",
    ]
    names = {}
    seen_opcodes = set()
    for ins in core["instructions"]:
        if ins["opcode"] in seen_opcodes:
            continue
        seen_opcodes.add(ins["opcode"])
        fname = "spvgen_op_" + snake(ins["opname"][2:])
        if fname in names:
            sys.exit("name clash: %s from %s and %s" % (fname, names[fname], ins["opname"]))
        names[fname] = ins["opname"]
        owner = OWNED.get(ins["opname"])
        note = "raw: prefer %s" % owner if owner else None
        gen_emitter(g, ins, fname, "%d" % ins["opcode"], header, source,
                    doc=doc_line(ins, ins["opname"], ins["opcode"], note))
        for alias in ins.get("aliases", []):
            aname = "spvgen_op_" + snake(alias[2:])
            if aname == fname:
                continue
            if aname in names:
                sys.exit("name clash: %s from %s and %s" % (aname, names[aname], alias))
            names[aname] = alias
            gen_emitter(g, ins, aname, "%d" % ins["opcode"], header, source,
                        doc=doc_line(ins, alias, ins["opcode"], "alias of %s" % fname))
    header.append("")
    header.append("/* GLSL.std.450 extended instructions (the set is imported on first use). */")
    for ins in glsl["instructions"]:
        fname = "spvgen_glsl_" + snake(ins["opname"])
        if fname in names:
            sys.exit("name clash: %s" % fname)
        names[fname] = ins["opname"]
        fake = {"operands": [{"kind": "IdResultType"}] + ins.get("operands", [])}
        doc = doc_line({k: v for k, v in ins.items() if k != "version"},
                       "GLSL.std.450 " + ins["opname"], ins["opcode"],
                       "OpExtInst; imports the set on first use")
        gen_emitter(g, fake, fname, None, header, source, ext_set=ins["opcode"], doc=doc)
    header += ["", "#ifdef __cplusplus", "}", "#endif", "#endif", ""]

    def write(path, lines):
        text = "\n".join(lines) + "\n"
        full = os.path.join(header_dir, path) if path == "ops.h" else os.path.join(a.out, path)
        try:
            with open(full) as f:
                if f.read() == text:
                    return
        except OSError:
            pass
        with open(full, "w") as f:
            f.write(text)

    write("ops.h", header)
    write("ops.c", source)
    write("grammar_tables.c", tables)
    write("sg_kinds.h", ["/* Generated by tools/gen_grammar.py. Do not edit. */",
                         "#ifndef SG_KINDS_H", "#define SG_KINDS_H"] + g.kinds_header + ["#endif"])


if __name__ == "__main__":
    main()
