#!/usr/bin/env python3
"""ctest include_boundaries: no C file includes another directory's private header.

The rule (docs/architecture.md, "Include boundaries"). A C source or header of the tree
may include, with #include "...":
  1. a public header, spvgen/NAME.h (include/spvgen/, and the generated spvgen/version.h);
  2. a header of its own directory;
  3. a public-internal header of an internal library, where ALLOWED below lists it for
     the including file's directory (each row says why);
  4. a third-party header (not a file of this tree: volk.h, spirv-tools/..., spirv/...).
Anything else is a private header of another directory, reached through a relative path
("../x/y.h") or an include directory a CMakeLists.txt added: this test fails and names
the line. A white-box test that must read a library's internals is listed by name.

An include is resolved as the compiler would without knowing the include path: first
relative to the including file, else the tracked files whose path ends in it. When
several do ("internal.h"), the include passes if one of them is allowed.

Usage: check_includes.py SOURCE_DIR   (lists the tracked files with git, else walks)."""
import fnmatch
import os
import re
import subprocess
import sys

# (who may include, what, why). Patterns are fnmatch globs over paths relative to the
# source directory ("*" crosses "/"); "|" separates alternatives.
ALLOWED = [
    ("lib/core/*", "lib/core/*.h|lib/core/gen/*.h",
     "lib/core/gen/ is the generated half of lib/core (tools/gen_grammar.py)"),
    ("lib/*|emitters/*", "lib/core/error_private.h|lib/core/names.h",
     "the one error formatter every library reports through, and the enums' name tables"),
    ("lib/vk/*", "lib/core/reflect.h",
     "the SPIR-V reader the runner's checks share with spvgen_kernel_reflect"),
    ("emitters/*", "emitters/common/*.h",
     "the kernels' helper layer (ek_*), for every template"),
    ("lib/tune/*|lib/template/*|emitters/*/*_template.c|tools/*|bench/*|tests/*|samples/*",
     "lib/ref/ref_*.h",
     "float64 host references, their data and the f16/bf16/fp8 conversions (lib/ref)"),
    ("lib/tune/*|emitters/*/*_template.c|tools/*|bench/*|tests/*",
     "lib/template/template.h|lib/template/json_out.h",
     "the table of templates and the kernel metadata writer (lib/template)"),
    ("tools/*|bench/*|tests/*", "tools/common/*.h",
     "running and checking kernels on a device, caps files (tools/common)"),
    ("tests/*", "tests/support/*.h", "the test harness"),
    ("emitters/mlp/layers.c", "emitters/gemm/gemm_cost.h",
     "the layers variant plans its GEMM classes' fixed stand-ins (gemm_plan_runtime_stand_in)"),
    # White-box tests: each reads the internals of the one thing it tests.
    ("tests/tune/test_tune.c|tests/tune/test_tune_file.c|tests/fuzz/fuzz_tune.c",
     "lib/tune/tune_internal.h", "the tune cache's file format and compiled-in layer"),
    ("tests/gemm/test_kernel_builder.c", "emitters/common/*.h", "the helper layer's unit test"),
    ("tests/mlp/test_mlp_select.c", "emitters/mlp/select.h",
     "the MLP's variant choice against its shipped measurements"),
    ("tests/mlp/test_mlp_select_layers.c", "emitters/mlp/select.h",
     "the choice's layers class against a table generated from a synthetic grid"),
    ("tests/fuzz/fuzz_desc.c|tests/fuzz/fuzz_mlp_cli.c", "tools/spvgen/cmds.h",
     "the CLI's commands run in-process"),
    ("tests/vk/test_reflect_fuzz.c|tests/fuzz/fuzz_spirv.c", "lib/core/reflect.h|lib/vk/internal.h",
     "the runner's SPIR-V reader under mutation"),
    ("tests/core/test_vk_capabilities.c", "lib/core/internal.h",
     "the generated grammar tables and the builder's requirement path"),
]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def tracked_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        return [f for f in out if f and os.path.isfile(os.path.join(src, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(root, n), src) for n in names]
        return files


def matches(path, patterns):
    return any(fnmatch.fnmatchcase(path, p) for p in patterns.split("|"))


def allowed(who, header):
    if os.path.dirname(who) == os.path.dirname(header):
        return True
    if header.startswith("include/spvgen/"):
        return True
    return any(matches(who, w) and matches(header, h) for w, h, _ in ALLOWED)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    files = tracked_files(src)
    headers = [f for f in files if f.endswith(".h")]
    scanned = [f for f in files if f.endswith((".c", ".h"))
               and f.split("/")[0] in ("lib", "emitters", "tools", "bench", "samples", "tests", "include")]
    bad = []
    for f in scanned:
        with open(os.path.join(src, f), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if inc.startswith("spvgen/"):
                    continue  # public (include/spvgen/, or the generated version.h)
                rel = os.path.normpath(os.path.join(os.path.dirname(f), inc))
                if rel in files:
                    found = [rel]
                else:
                    found = [h for h in headers if h == inc or h.endswith("/" + inc)]
                if not found:
                    continue  # third-party
                if not any(allowed(f, h) for h in found):
                    bad.append(f"{f}:{n}: includes \"{inc}\", a private header of "
                               f"{' or '.join(sorted(set(os.path.dirname(h) for h in found)))}/")
    if bad:
        print("FAIL: includes across directories that tests/scripts/check_includes.py does not allow")
        print("(a public-internal header belongs in its ALLOWED table, with the reason):")
        print("\n".join(bad))
        return 1
    print(f"{len(scanned)} files: every include is public, local or an allowed internal header")
    return 0


if __name__ == "__main__":
    sys.exit(main())
