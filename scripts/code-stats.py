#!/usr/bin/env python3
"""scripts/code-stats.py [DIR] — the numbers issue 26 asks to watch: lines per kernel file
(emitters/*/*.c) and the longest C functions outside tests/ (a definition starts at column
0 and ends at the first "}" in column 0). Reads the files git tracks under DIR (default:
the repository root). Prints markdown tables for docs/design-notes.md."""
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
files = subprocess.check_output(["git", "-C", root, "ls-files", "*.c"], text=True).split()
files = [f for f in files if not f.startswith(("tests/", "lib/core/gen/"))]

START = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^;]*$")
funcs, kernels = [], []
for f in files:
    lines = open(os.path.join(root, f), encoding="utf-8", errors="replace").read().split("\n")
    if f.startswith("emitters/") and not f.endswith("_template.c"):
        kernels.append((len(lines) - 1, f))
    i = 0
    while i < len(lines):
        m = START.match(lines[i])
        if m and not lines[i].startswith(("#", "/", " ", "}")):
            j = i
            while j < len(lines) and "{" not in lines[j] and ";" not in lines[j]:
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{"):
                k = j + 1
                while k < len(lines) and not lines[k].startswith("}"):
                    k += 1
                funcs.append((k - i + 1, f"{f}:{i + 1}", m.group(1)))
                i = k
        i += 1

print("| kernel file | lines |\n| --- | --- |")
for n, f in sorted(kernels, reverse=True):
    print(f"| {f} | {n} |")
funcs.sort(reverse=True)
over = [x for x in funcs if x[0] > 150]
print(f"\nfunctions outside tests: {len(funcs)}; over 150 lines: {len(over)}\n")
print("| function | where | lines |\n| --- | --- | --- |")
for n, where, name in funcs[:15]:
    print(f"| `{name}` | {where} | {n} |")
