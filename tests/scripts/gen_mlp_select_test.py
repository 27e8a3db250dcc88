#!/usr/bin/env python3
"""tests/scripts/gen_mlp_select_test.py — tools/gen_mlp_select.py on synthetic grid
measurements made from a known cost model (select.h's form): the fit recovers the
model's parameters, the table's choice is each network's best (and so never under half
of it), --check passes, and the C it writes compiles against emitters/mlp/select.h. The
layers class (a GEMM per layer: a larger per-point overhead, a lower cost per FLOP) is
measured too: it is the best on the deep 256-wide networks, its cell is in the table with
zero knobs, its model is fitted, and no compile model is fitted for it.

    gen_mlp_select_test.py SOURCE_DIR [CC]
"""
import os
import re
import subprocess
import sys
import tempfile

src = sys.argv[1]
cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
NETS = ["--in 3 --out 1 --hidden 48,48 --act sigmoid", "--in 8 --out 8 --hidden 32 --act tanh",
        "--in 64 --out 64 --hidden 64,64,64,64,64 --act relu", "--in 16 --out 3 --hidden 128,128,128 --act silu",
        "--in 32 --out 16 --hidden 64,64,64,64 --act relu", "--in 1 --out 1 --hidden 16 --act relu",
        "--in 64 --out 64 --hidden " + ",".join(["256"] * 8) + " --act relu", "--in 1 --out 64 --hidden 256 --act relu",
        "--in 32 --out 32 --hidden 128,128,128,128,128 --act relu", "--in 64 --out 1 --hidden 16,16,16 --act tanh",
        "--in 64 --out 64 --hidden " + ",".join(["256"] * 6) + " --act relu"]

A = {"vec": 0.05, "vec-opt": 0.04, "mat": 0.08, "loop": 0.05, "layers": 0.5}
B = {"vec": 1 / 120e3, "vec-opt": 1 / 480e3, "mat": 1 / 77e3, "loop": 1 / 9e3, "layers": 1 / 1e6}
BW = 3000.0


def pad(x):
    return (x + 15) // 16 * 16


rows = ["vendor\tdevice\tdevice_name\tnet\tflags\tpoints\tflops\tencoded_width\thidden_width\tdepth\toutput_width"
        "\tact_class\tencoding\tclass\tplan\tworkgroup_size\tpoints_per_group\tbias_add\tf16_acc\tgpts\ttflops\tms"
        "\tcompile_ms\temit_us\twords\tcheck\testimate_ns"]
best = {}  # (network, row-major only) -> its fastest class
for k, flags in enumerate(NETS):
    i = int(re.search(r"--in (\d+)", flags).group(1))
    o = int(re.search(r"--out (\d+)", flags).group(1))
    hid = [int(w) for w in re.search(r"--hidden (\S+)", flags).group(1).split(",")]
    d = [i] + hid + [o]
    act = 0 if "relu" in flags else 1
    for c in A:
        if c == "layers" and act:  # the GEMM epilogue has no tanh or sigmoid: no row
            continue
        w = sum(2 * (d[j] * d[j + 1] if c == "loop" else pad(d[j]) * pad(d[j + 1])) for j in range(len(d) - 1))
        t = max(A[c] + B[c] * w, (i + o) * 2 / BW)
        for row in (True, False):
            if not (row and c == "vec-opt") and t < best.get((k, row), ("", 1e30))[1]:
                best[(k, row)] = (c, t)
        rows.append("\t".join(map(str, [0x10de, 0x2330, "NVIDIA H100 80GB HBM3", f"n{k}", flags, 1 << 20, 0, i, hid[0],
                                        len(hid), o, act, 0, c, c + " plan", 0 if c == "layers" else 32,
                                        0 if c == "layers" else 1, 0, 0, "%.6f" % (1 / t), 0, 0, 5.0, 0,
                                        0, "ok", 0])))
# a figure with no fraction (7.0 G points/s, below n5's best): the C float literal must
# still be one ("7.0f", not "7f")
for j, r in enumerate(rows):
    f = r.split("\t")
    if f[3] == "n5" and f[13] == "mat":
        f[19] = "7.000000"
        rows[j] = "\t".join(f)
# a wrong plan's figure never counts
rows.append(rows[1].replace("\tok\t", "\tfail\t").replace("\tvec\t", "\tloop\t", 1))
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    tsv = os.path.join(tmp, "grid.tsv")
    open(tsv, "w").write("\n".join(rows) + "\n")
    out_c = os.path.join(tmp, "select_table.c")
    r = subprocess.run([sys.executable, os.path.join(src, "tools", "gen_mlp_select.py"), tsv, "--out", out_c, "--check"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: gen_mlp_select.py --check exited", r.returncode, r.stdout[-2000:], r.stderr[-2000:])
        failures += 1
    m = re.search(r"vec-opt: a (\S+) b (\S+)", r.stdout)
    if not m or abs(float(m.group(1)) - A["vec-opt"]) > 0.005 or abs(float(m.group(2)) * 480e3 - 1) > 0.05:
        print("FAIL: the fitted vec-opt model is not a 0.04, b 1/480e3:", m.group(0) if m else r.stdout[:500])
        failures += 1
    m = re.search(r"layers: a (\S+) b (\S+)", r.stdout)
    if not m or abs(float(m.group(1)) - A["layers"]) > 0.05 or abs(float(m.group(2)) * 1e6 - 1) > 0.1:
        print("FAIL: the fitted layers model is not a 0.5, b 1/1e6:", m.group(0) if m else r.stdout[:500])
        failures += 1
    if "compile layers: a 0 b 0 c 0 q 1 e 1 (default)" not in r.stdout:
        print("FAIL: a compile model fitted for layers (its compile is its GEMMs' estimates)")
        failures += 1
    for k in range(len(NETS)):
        for line in r.stdout.splitlines():
            if line.startswith(("row ", "auto")) and line.split()[1] == f"n{k}":
                took_layers = "| table layers 1.00 |" in line
                if took_layers != (best[(k, line.startswith("row "))][0] == "layers"):
                    print("FAIL: the table's choice", "is" if took_layers else "is not", "layers:", line)
                    failures += 1
    if not any(c == "layers" for c, _ in best.values()) or all(c == "layers" for c, _ in best.values()):
        print("FAIL: the synthetic grid does not have layers best on some networks only")
        failures += 1
    text = open(out_c).read()
    cells = re.findall(r"/\* n(\d+) \*/", text)
    entry6 = [ln for ln in text.splitlines() if ln.endswith("/* n6 */")]
    if len(cells) != len(NETS) or not entry6 or entry6[0].count("{") != 7 or \
            not re.search(r"\{[0-9.]+f, 0, 0, 0, 0, 0, 0, 0, 0\}\}\}, /\* n6", entry6[0]):
        print("FAIL: the table's entries are not 5 cells with layers' last (zero knobs):", entry6)
        failures += 1
    if "UNDER HALF" in r.stdout:
        print("FAIL: a choice under half the best:", r.stdout)
        failures += 1
    for line in r.stdout.splitlines():
        if line.startswith(("row ", "auto")) and "| table " in line and " 1.00 |" not in line.split("| table ")[1][:20]:
            print("FAIL: the table's choice is not the best:", line)
            failures += 1
    c = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "-I", os.path.join(src, "emitters", "mlp"),
                        out_c, "-o", os.path.join(tmp, "t.o")], capture_output=True, text=True)
    if c.returncode != 0:
        print("FAIL: the generated C does not compile:", c.stderr[-2000:])
        failures += 1
print("1 passed, 0 failed" if not failures else f"0 passed, {failures} failed")
sys.exit(1 if failures else 0)
