#!/usr/bin/env python3
"""tests/docs/doc_blocks.py — every code block of README.md and docs/*.md that claims to
be C compiles, and the shell blocks marked `run` run.

The convention, for whoever writes docs:

  ```c            C that must compile.
                  - With a `main(` it is a whole program: compiled with -Wall -Werror,
                    linked with spvgen's static libraries and run (exit 0, or 77 meaning
                    "no Vulkan device", pass).
                  - Otherwise it is a fragment: compiled (not linked) inside
                        int doc_fragment(void) { <common> { <prelude> { <the block> } } return 0; }
                    after #include <spvgen/spvgen.h>, <stdio.h>, <stdlib.h>, <string.h>;
                    #include lines of the block move to the top. <common> declares what
                    the prose usually supplies: spvgen_module *m, spvgen_vk_context *ctx,
                    uint32_t f16, f32, u32, s32, bool_t, const uint32_t *words, size_t
                    count (a block may declare them again: inner scopes shadow). Other
                    names come from a hidden prelude: an HTML comment right before the
                    fence, which renders as nothing:
                        <!-- doc-test prelude: uint32_t x = 0, y = 0; -->
                    Unused and maybe-uninitialized variables (parts elided with
                    /* ... */) are not errors in fragments; everything else -Wall warns
                    about is.
  ```c sketch     pseudo-code (`...` for elided parts): highlighted, not compiled.
  ```sh run       a shell script run with bash -e in an empty temporary directory with
                  the built `spvgen` first on PATH; it must exit 0. Use it for cheap CLI
                  examples (no device needed).
  anything else   (```sh, ``` transcripts with `$ ` prompts, ...) is not checked.

Usage: doc_blocks.py --cc CC --cflags "..." --libs "..." --spvgen PATH FILE.md...
A failure prints the file, the line of the block, the compiler's output and exits 1.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
PRELUDE = re.compile(r"<!--\s*doc-test prelude:(.*?)-->\s*\Z", re.S)


COMMON = ("spvgen_module *m = NULL; spvgen_vk_context *ctx = NULL;\n"
          "uint32_t f16 = 0, f32 = 0, u32 = 0, s32 = 0, bool_t = 0;\n"
          "const uint32_t *words = NULL; size_t count = 0;")


def blocks(path):
    text = open(path, encoding="utf-8").read()
    for m in FENCE.finditer(text):
        info = m.group(1).strip().split()
        lang = info[0] if info else ""
        flags = set(info[1:])
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()]
        pm = PRELUDE.match(before[before.rfind("<!--"):]) if "<!--" in before else None
        prelude = pm.group(1).strip() if pm else ""
        yield lang, flags, line, m.group(2), prelude


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cflags", default="")
    ap.add_argument("--libs", default="")
    ap.add_argument("--spvgen", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    cflags = shlex.split(a.cflags)
    libs = shlex.split(a.libs)
    failures = 0
    counts = {"program": 0, "fragment": 0, "sketch": 0, "shell": 0}
    with tempfile.TemporaryDirectory(prefix="spvgen-doc-blocks-") as tmp:
        n = 0
        for path in a.files:
            name = os.path.relpath(path)
            for lang, flags, line, body, prelude in blocks(path):
                n += 1
                where = "%s:%d" % (name, line)
                if lang == "c" and "sketch" in flags:
                    counts["sketch"] += 1
                    continue
                if lang == "c":
                    src = os.path.join(tmp, "block%d.c" % n)
                    program = re.search(r"\bmain\s*\(", body) is not None
                    if program:
                        code = "#line %d \"%s\"\n%s" % (line + 1, name, body)
                        cmd = [a.cc, "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror",
                               *cflags, "-o", src[:-2], src, *libs]
                    else:
                        includes = [l for l in body.splitlines() if l.startswith("#include")]
                        rest = "\n".join("" if l.startswith("#include") else l for l in body.splitlines())
                        code = ("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                                "#include <spvgen/spvgen.h>\n%s\n"
                                "int doc_fragment(void);\nint doc_fragment(void) {\n%s\n{\n%s\n{\n#line %d \"%s\"\n%s\n}}\nreturn 0;\n}\n"
                                % ("\n".join(includes), COMMON, prelude, line + 1, name, rest))
                        cmd = [a.cc, "-std=c11", "-Wall", "-Werror", "-Wno-unused-variable",
                               "-Wno-unused-but-set-variable", "-Wno-unused-value", "-Wno-maybe-uninitialized", *cflags, "-c", "-o",
                               src[:-2] + ".o", src]
                    with open(src, "w") as f:
                        f.write(code)
                    r = run(cmd)
                    if r.returncode != 0:
                        print("FAIL %s: the C block does not compile:\n%s" % (where, r.stdout))
                        failures += 1
                        continue
                    if program:
                        r = run([src[:-2]], cwd=tmp, timeout=120)
                        if r.returncode not in (0, 77):
                            print("FAIL %s: the program exited %d:\n%s" % (where, r.returncode, r.stdout[-4000:]))
                            failures += 1
                            continue
                        counts["program"] += 1
                    else:
                        counts["fragment"] += 1
                elif lang in ("sh", "bash", "shell") and "run" in flags:
                    d = os.path.join(tmp, "sh%d" % n)
                    os.makedirs(d)
                    env = dict(os.environ)
                    env["PATH"] = os.path.dirname(os.path.abspath(a.spvgen)) + os.pathsep + env.get("PATH", "")
                    r = run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=d, env=env, timeout=120)
                    if r.returncode != 0:
                        print("FAIL %s: the shell block exited %d:\n%s" % (where, r.returncode, r.stdout[-4000:]))
                        failures += 1
                        continue
                    counts["shell"] += 1
    print("doc blocks: %(program)d programs built and run, %(fragment)d fragments compiled, "
          "%(shell)d shell blocks run, %(sketch)d sketches skipped" % counts)
    if counts["program"] + counts["fragment"] == 0 and failures == 0:
        print("FAIL: no C block found (wrong files?)")
        return 1
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
