#!/usr/bin/env python3
"""tools/speed_fit.py — recorded GPU times of several plans of one shape, against the
planner's time estimates (emitters/gemm: gemm_plan_time_ms, what AUTO ranks plans by).

  python3 tools/speed_fit.py [--build build] [--caps FILE] [--out TSV] [--report] [--groups]

Harvests (shape, plan, GPU ms) from the raw records under bench/results/raw and
tests/results/raw, and compares plans only within one file and one shape (the same call,
mostly the same process: the clock and the card are the same for all of them):
  - `spvgen run gemm` / `spvgen bench gemm` rows: "== ARGS" (the shape from --m --n --k,
    or MxNxK, types and layout in the label), then "plan ..." and "gpu X ms median";
  - `spvgen tune gemm` tables ("median min status ... plan", the shape from the "=="
    line above them), timed rows;
  - bench_gemm_shapes tables (set shape types lay spec plan compile gpu_ms ...), rows of
    fixed specs not flagged slow-gpu, one group per table and shape.
Left out: run-time plans (--shapes runtime, rt specs), rows timed with an experiment's
environment (SPVGEN_EXP_*, SPVGEN_TIME_KERNEL: a kernel alone), tiered runs, mlp rows.
Every plan is planned again with its recorded knobs forced (`spvgen gemm ... --json`,
compile budget lifted) and kept only where the plan's name comes back the same; its
estimate is then the model's "time_ms_estimate" for that very kernel.

Per shape group, each plan i against the group's fastest measured plan b:
  ratio_i = (t_b / t_i) / (e_b / e_i)   (measured relative speed / estimated relative speed)
under 1: the model rates plan i too high against b; over 1: too low. Reported per class
(variant and tile m x n), median and spread. The regret of a group: the measured time of
the plan the model ranks first among the group's plans, over the best measured."""
import argparse
import concurrent.futures
import json
import math
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from compile_fit import parse_plan, norm, card_of, raw_files  # noqa: E402 (the same plan names and records)

# arguments of a run row that are the shape's (kept when the plan is planned again)
SHAPE_ARGS = {"--m", "--n", "--k", "--batch", "--layout", "--lda", "--ldb", "--ldc", "--ldd", "--alpha", "--beta",
              "--bias", "--act", "--leaky-slope", "--addressing"}
# arguments that choose the plan (the group is the shape's, whatever these say)
PLAN_ARGS = {"--variant", "--tile", "--wg", "--subgroups", "--stages", "--unroll", "--split-k", "--edge",
             "--edge-unroll", "--pack", "--pack-order", "--pack-units", "--codegen", "--compile-budget", "--types"}
SKIP_ROW = re.compile(r"SPVGEN_EXP|SPVGEN_TIME_KERNEL|--tiered|--shapes runtime|bench mlp|run mlp|--shapes rt")
GPU_RE = re.compile(r"^gpu\s+([\d.]+) ms median")
TUNE_ROW = re.compile(r"^([\d.]+) ms\s+([\d.]+) ms\s+timed\s+(?:[\d.]+ ms\s+)?((?:coopmat2|khr|simt) .*?)\s*(\(default\))?\s*(<- best)?$")
BENCH_ROW = re.compile(r"^(\S+)\s+(\d+)x(\d+)x(\d+)\s+(\S+)\s+(nn|nt|tn|tt)\s+(\S+)\s+((?:coopmat2|khr|simt) .*)$")


def types_of(plan):
    """--types of a plan name: 'coopmat2 f16->f32->f16 ...' -> f16,f32,f16."""
    return plan.split()[1].replace("->", ",")


def parse_args(text):
    """--flag value pairs of a command line (flags without a value map to None)."""
    toks, kv, i = text.split(), {}, 0
    while i < len(toks):
        t = toks[i]
        if t.startswith("--"):
            if i + 1 < len(toks) and not toks[i + 1].startswith("--"):
                kv[t] = toks[i + 1]
                i += 2
                continue
            kv[t] = None
        i += 1
    return kv


def shape_of_label(label, header):
    """The shape args of a '==' line: its --m --n --k flags, else MxNxK (with types and a
    layout) in the label, else a K-sweep label (k128-...) under the header's command."""
    kv = parse_args(label)
    if all(x in kv for x in ("--m", "--n", "--k")):
        return {a: v for a, v in kv.items() if a in SHAPE_ARGS}
    m = re.search(r"\b(\d+)x(\d+)x(\d+)\b", label) or re.search(r"\btune (\d+) (\d+) (\d+)\b", label)
    if m:
        out = {"--m": m.group(1), "--n": m.group(2), "--k": m.group(3)}
        lay = re.search(r"\b(nn|nt|tn|tt)\b", label)
        if lay:
            out["--layout"] = lay.group(1)
        out.update({a: v for a, v in kv.items() if a in SHAPE_ARGS and a not in out})
        return out
    m = re.match(r"^k(\d+)-", label.strip())
    hm = re.search(r"spvgen run gemm (--m \d+ --n \d+[^;:)]*)", header)
    if m and hm:
        out = {a: v for a, v in parse_args(hm.group(1)).items() if a in SHAPE_ARGS}
        out["--k"] = m.group(1)
        return out
    return None


def shape_key(sh):
    return " ".join("%s %s" % (a, sh[a]) if sh[a] is not None else a for a in sorted(sh))


def harvest():
    pts = []
    for rel, text in raw_files():
        if "coopmat2 " not in text and "khr " not in text:
            continue
        card = card_of(text)
        header = "\n".join(l for l in text.splitlines()[:8] if l.startswith("#"))
        pts += harvest_runs(rel, text, header, card)
        pts += harvest_bench(rel, text, card)
    return pts


def harvest_runs(rel, text, header, card):
    """run / bench gemm rows and tune tables under '==' lines."""
    out, label, sh, skip, plan = [], None, None, False, None
    for line in text.splitlines():
        if line.startswith("== ") or line.startswith("=== "):
            label = line.split(" ", 1)[1]
            label = re.sub(r"\s*\(\d\d:\d\d:\d\d[^)]*\)\s*$", "", label)
            skip = bool(SKIP_ROW.search(label))
            sh = shape_of_label(label, header)
            plan = None
            continue
        if sh is None or skip:
            continue
        if line.startswith("plan "):
            plan = line[5:].strip()
            continue
        g = GPU_RE.match(line)
        if g and plan:
            out.append({"src": rel, "card": card, "kind": "run", "shape": dict(sh), "plan": plan, "ms": float(g.group(1)),
                        "label": label})
            plan = None
            continue
        t = TUNE_ROW.match(line)
        if t:
            out.append({"src": rel, "card": card, "kind": "tune", "shape": dict(sh), "plan": t.group(3).strip(),
                        "ms": float(t.group(1)), "label": label})
    return out


def harvest_bench(rel, text, card):
    """bench_gemm_shapes tables: a group per table (process) and shape."""
    out, table = [], 0
    for line in text.splitlines():
        if line.startswith("set ") and "shape" in line:
            table += 1
            continue
        r = BENCH_ROW.match(line)
        if not r or r.group(7).startswith("rt") or "slow-gpu" in line or " wrong" in line:
            continue
        rest = r.group(8)
        pm = re.match(r"^(.*?) \(est \d+\)\s+(\S+)\s+([\d.]+)\s", rest)
        if not pm:
            continue
        sh = {"--m": r.group(2), "--n": r.group(3), "--k": r.group(4), "--layout": r.group(6)}
        out.append({"src": "%s#table%d" % (rel, table), "card": card, "kind": "bench", "shape": sh,
                    "plan": pm.group(1).strip(), "ms": float(pm.group(3)), "label": r.group(7)})
    return out


def forced_args(p):
    """spvgen gemm arguments that plan p's recorded knobs again (None: a name this cannot force)."""
    f = p["f"]
    a = []
    for k, v in sorted(p["shape"].items()):
        a += [k] + ([v] if v is not None else [])
    a += ["--types", types_of(p["plan"]), "--variant", f["variant"], "--tile", "%dx%dx%d" % f["tile"], "--wg", str(f["wg"])]
    if f["variant"] == "coopmat2":
        a += ["--unroll", str(f["unroll"]), "--edge", f["edge"] or "branch", "--pack", f["pack"]]
        if f["eu"]:
            a += ["--edge-unroll", str(f["eu"])]
        if f["order"]:
            a += ["--pack-order", f["order"]]
        if f.get("units"):
            a += ["--pack-units", str(f["units"])]
    elif f["variant"] == "khr":
        for t in f.get("khr", []):
            if re.match(r"^s\d$", t):
                a += ["--stages", t[1:]]
    a += ["--split-k", str(f["sk"]), "--compile-budget", "600000"]
    if f["cg"]:
        a += ["--codegen", f["cg"]]
    return a


def plan_again(pts, build, caps, jobs=4):
    cli = os.path.join(build, "tools/spvgen")
    if os.path.isdir(cli):
        cli = os.path.join(cli, "spvgen")

    def one(p):
        r = subprocess.run([cli, "gemm"] + forced_args(p) + ["--caps", caps, "--json"], capture_output=True, text=True)
        if r.returncode == 0:
            j = json.loads(r.stdout)
            p["replan"], p["est"] = j["plan"], j.get("time_ms_estimate")

    cache = {}
    for p in pts:  # the same plan and shape once
        cache.setdefault((shape_key(p["shape"]), p["plan"]), []).append(p)
    firsts = [v[0] for v in cache.values()]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        list(ex.map(one, firsts))
    for v in cache.values():
        for p in v[1:]:
            p["replan"], p["est"] = v[0].get("replan"), v[0].get("est")


def klass(p):
    f = p["f"]
    v = {"coopmat2": "cm2", "khr": "khr", "simt": "simt"}[f["variant"]]
    s = "%s %dx%d" % (v, f["tile"][0], f["tile"][1])
    if f["ab"] in ("s8", "u8"):
        s += " s8"
    return s


def groups_of(kept):
    """{(file, shape): {plan: (measured ms: the fastest of its rows, estimate ms, point)}}"""
    g = {}
    for p in kept:
        key = (p["src"], shape_key(p["shape"]) + " --types " + types_of(p["plan"]))
        d = g.setdefault(key, {})
        if p["plan"] not in d or p["ms"] < d[p["plan"]][0]:
            d[p["plan"]] = (p["ms"], p["est"], p)
    return {k: v for k, v in g.items() if len(v) >= 2}


def analyse(groups):
    """Per-plan ratios and per-group regrets."""
    ratios, regrets = [], []
    for key, d in sorted(groups.items()):
        plans = sorted(d.items(), key=lambda kv: kv[1][0])
        best_plan, (tb, eb, _) = plans[0]
        for name, (t, e, p) in plans[1:]:
            ratios.append({"group": key, "plan": name, "class": klass(p), "ref": klass(plans[0][1][2]),
                           "ratio": (tb / t) / (eb / e), "t": t, "e": e, "tb": tb, "eb": eb})
        pick = min(plans, key=lambda kv: kv[1][1])
        regrets.append({"group": key, "pick": pick[0], "best": best_plan, "regret": pick[1][0] / tb, "plans": len(plans)})
    return ratios, regrets


def q(r, x):
    return r[min(len(r) - 1, int(x * len(r)))]


def report(ratios, regrets):
    lines = ["# per class: measured relative speed / estimated relative speed, against the fastest measured plan of the "
             "same shape and file (under 1: the model rates the class too high)",
             "%-22s %5s %7s %6s %6s" % ("class", "plans", "median", "p10", "p90")]
    by = {}
    for r in ratios:
        by.setdefault(r["class"], []).append(r["ratio"])
    for c in sorted(by):
        r = sorted(by[c])
        lines.append("%-22s %5d %7.2f %6.2f %6.2f" % (c, len(r), statistics.median(r), q(r, 0.1), q(r, 0.9)))
    rg = sorted(x["regret"] for x in regrets)
    gm = math.exp(sum(math.log(x) for x in rg) / len(rg))
    kh = [x["regret"] for x in regrets if " khr " in " ".join(x["group"]) or x["pick"].startswith("khr") or
          x["best"].startswith("khr")]
    lines.append("# regret (measured time of the model's first plan / the best measured), %d shape groups: median %.3f, "
                 "geometric mean %.3f, p90 %.3f, max %.3f; %d groups over 1.05; the %d groups where the pick or the best "
                 "is khr: geometric mean %.3f, %d over 1.05" %
                 (len(rg), statistics.median(rg), gm, q(rg, 0.9), rg[-1], sum(1 for x in rg if x > 1.05), len(kh),
                  math.exp(sum(math.log(x) for x in kh) / max(1, len(kh))), sum(1 for x in kh if x > 1.05)))
    for x in sorted(regrets, key=lambda x: -x["regret"]):
        if x["regret"] > 1.05:
            lines.append("regret %.2f  %s | %s\n      model picks %s, best %s" %
                         (x["regret"], x["group"][0], x["group"][1], x["pick"], x["best"]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--caps", default=os.path.join(ROOT, "tests/results/raw/devices/h200-2026-11-26-call3.json"))
    ap.add_argument("--out", help="TSV of every kept point (group, plan, measured, estimate)")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--groups", action="store_true", help="print every group's plans")
    a = ap.parse_args()
    pts = []
    for p in harvest():
        p["f"] = parse_plan(p["plan"])
        if p["f"] and p["f"]["ab"] in ("f16", "bf16", "s8", "u8"):
            pts.append(p)
    plan_again(pts, a.build, a.caps)
    kept = [p for p in pts if p.get("est") and norm(p.get("replan")) == norm(p["plan"])]
    groups = groups_of(kept)
    ratios, regrets = analyse(groups)
    files = sorted({k[0] for k in groups})
    print("%d points harvested, %d planned again to the same name, %d shape groups of 2+ plans in %d files" %
          (len(pts), len(kept), len(groups), len(files)), file=sys.stderr)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# Raw: tools/speed_fit.py --out: recorded GPU times of plans of one shape in one file (the files "
                    "under bench/results/raw and tests/results/raw named in column 1), the model's time estimate (caps "
                    "%s)\n" % (a.caps if not os.path.exists(a.caps) else os.path.relpath(a.caps, ROOT)))
            f.write("# References: each plan against the fastest measured plan of its shape in the same file "
                    "(ratio_vs_best: measured relative speed / estimated); the file named in column 1 records its own "
                    "call's cuBLAS (shared/anchors/gemm_anchor.py) or torch references; no new GPU measurement here\n")
            f.write("# First compiles: not in this table (GPU times only); each file in column 1 records its plans' "
                    "first compiles\n")
            f.write("file\tshape\tplan\tclass\tmeasured_ms\testimate_ms\tratio_vs_best\n")
            for key, d in sorted(groups.items()):
                plans = sorted(d.items(), key=lambda kv: kv[1][0])
                tb, eb = plans[0][1][0], plans[0][1][1]
                for name, (t, e, p) in plans:
                    f.write("%s\t%s\t%s\t%s\t%.4f\t%.5f\t%.3f\n" % (key[0], key[1], name, klass(p), t, e, (tb / t) / (eb / e)))
    if a.groups:
        for key, d in sorted(groups.items()):
            print("## %s | %s" % key)
            for name, (t, e, p) in sorted(d.items(), key=lambda kv: kv[1][0]):
                print("   %8.4f ms  est %8.4f  %s" % (t, e, name))
    if a.report:
        print(report(ratios, regrets))


if __name__ == "__main__":
    main()
