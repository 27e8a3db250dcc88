#!/usr/bin/env python3
"""tools/plan_diff.py — the default plan of two spvgen builds side by side, over the
shapes of bench_gemm_shapes' sets and of the traces under bench/traces, for one caps file.

  python3 tools/plan_diff.py --a OLD/spvgen --b NEW/spvgen [--bench build/bench/bench_gemm_shapes]
                             [--sets recheck,random,split,targets,prompt] [--caps FILE] [--rows OUT]

Prints one row per shape (fixed shapes for the sets' rows; the traces' calls both fixed and
run-time, as `spvgen bench trace` plans them run-time): shape, types, layout, shapes, plan
and compile estimate of each build, and a flag: TILE or VARIANT where the tile or the variant
moved, knobs where only other knobs did. With --rows, writes the moved rows as a
bench_gemm_shapes --rows file (spec default: the planner's choice, which is what moved)."""
import argparse
import glob
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def plan(binary, m, n, k, types, layout, shapes, caps):
    r = subprocess.run([binary, "gemm", "--m", str(m), "--n", str(n), "--k", str(k), "--types", types, "--layout", layout,
                        "--shapes", shapes, "--caps", caps, "--json"], capture_output=True, text=True)
    if r.returncode:
        return "refused: " + r.stderr.strip().splitlines()[-1][:60], 0
    j = json.loads(r.stdout)
    return j["plan"], j["compile_ms_estimate"]


def head(name):
    m = re.match(r"^(\S+) \S+ (\d+x\d+x\d+)", name)
    return (m.group(1), m.group(2)) if m else (name, "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--bench", default=os.path.join(ROOT, "build/bench/bench_gemm_shapes"))
    ap.add_argument("--sets", default="recheck,random,split,targets,prompt")
    ap.add_argument("--caps", default=os.path.join(ROOT, "tests/results/raw/devices/h200-2026-11-26-call3.json"))
    ap.add_argument("--rows")
    a = ap.parse_args()
    rows, seen = [], set()
    out = subprocess.run([a.bench, "--list", "--set", a.sets], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        s, shape, types, lay, spec = line.split()[:5]
        m, n, k = map(int, shape.split("x"))
        key = (m, n, k, types, lay, "fixed")
        if key not in seen:
            seen.add(key)
            rows.append(key + (s,))
    for tr in sorted(glob.glob(os.path.join(ROOT, "bench/traces/*.txt"))):
        name = os.path.basename(tr)[:-4]
        for line in open(tr):
            t = line.split("#")[0].split()
            if len(t) < 5:
                continue
            m, n, k = map(int, t[:3])
            for sh in ("fixed", "runtime"):
                key = (m, n, k, t[3], t[4], sh)
                if key not in seen:
                    seen.add(key)
                    rows.append(key + (name,))
    print("%-8s %-18s %-8s %-3s %-7s | %-58s %6s | %-58s %6s | %s" %
          ("from", "shape", "types", "lay", "shapes", "main plan", "est", "branch plan", "est", "moved"))
    moved_rows, counts = [], {"TILE": 0, "VARIANT": 0, "knobs": 0, "": 0}
    for m, n, k, types, lay, sh, src in rows:
        pa, ea = plan(a.a, m, n, k, types, lay, sh, a.caps)
        pb, eb = plan(a.b, m, n, k, types, lay, sh, a.caps)
        va, ta = head(pa)
        vb, tb = head(pb)
        flag = "VARIANT" if va != vb else "TILE" if ta != tb else "knobs" if pa != pb else ""
        counts[flag] += 1
        print("%-8s %-18s %-8s %-3s %-7s | %-58s %6s | %-58s %6s | %s" %
              (src[:8], "%dx%dx%d" % (m, n, k), types, lay, sh, pa, ea, pb, eb, flag))
        if flag and sh == "fixed":
            moved_rows.append("%s %dx%dx%d %s %s default" % (src[:8], m, n, k, types, lay))
        elif flag:
            moved_rows.append("%s %dx%dx%d %s %s rt-call" % (src[:8], m, n, k, types, lay))
    print("# %d rows: %d variant moved, %d tile moved, %d other knobs moved, %d the same" %
          (len(rows), counts["VARIANT"], counts["TILE"], counts["knobs"], counts[""]))
    if a.rows:
        with open(a.rows, "w") as f:
            f.write("# the rows whose default plan moved (tools/plan_diff.py): SET MxNxK TYPES LAYOUT SPEC\n")
            f.write("\n".join(moved_rows) + "\n")


if __name__ == "__main__":
    main()
