#!/usr/bin/env python3
"""tools/compile_fit.py — every recorded first compile of a GEMM plan, against the compile
model's estimate (emitters/gemm/plan_cost.c).

  python3 tools/compile_fit.py [--build build] [--caps FILE] [--out TSV] [--report]

Harvests (plan, first compile ms, card) from the raw records under bench/results/raw and
tests/results/raw:
  - bench_gemm_shapes tables (set shape types lay spec plan compile ...): the compile
    column, "P+M" (pack kernel + main) or "partials+reduction"; a part of 0 is a kernel the
    process had compiled already (its share is the model's: 20 ms pack, 15 reduction);
  - `spvgen run gemm` rows ("== ARGS" then "plan ..." and "pipeline X ms").
First compiles only: files whose header says the driver cache was empty, rows after the
first of the same kernel in one process dropped ("cached", or a plan and shape seen
before), files of compiles run in parallel skipped. Every point is planned again with its
recorded plan's knobs forced (bench rows through bench_gemm_shapes --rows --plans, run rows
through `spvgen gemm`), and kept only where the plan's name comes back the same: its
estimate is then the model's for that very kernel.

Writes the TSV (source, card, plan, measured ms, features, estimate) and, with --report,
the error per class: the median of measured / estimate and its spread (the 10th and 90th
percentiles). tools/compile_fit.py --report --model FILE.json evaluates the model in
model_estimate() with other constants instead of the binary's (refits)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RAW_DIRS = ["bench/results/raw", "tests/results/raw"]
PACK_SHARE_MS, REDUCE_SHARE_MS = 20.0, 15.0

ROW_RE = re.compile(r"^(\S+)\s+(\d+)x(\d+)x(\d+)\s+(\S+)\s+(nn|nt|tn|tt)\s+(\S+)\s+((?:coopmat2|khr|simt) .*)$")
COMPILE_TOK = re.compile(r"^\d+(\.\d+)?(\+\d+(\.\d+)?)*$")
PLAN_TOK = re.compile(r"^(coopmat2|khr|simt) (\S+)->(\S+) (\d+)x(\d+)x(\d+) w(\d+)(.*)$")


def card_of(text):
    m = re.search(r"H100|H200", text[:6000])
    return m.group(0) if m else ""


def cold_file(head):
    """Whether a file's header says its compiles are first compiles (empty driver cache)."""
    h = head.lower()
    if "parallel" in h or "15 at once" in h or "threads" in h:
        return False
    return ("empty driver" in h or "driver cache /tmp/" in h or "first compile" in h or "cold" in h
            or "__gl_shader_disk_cache_path" in h)


def parse_plan(name):
    """The knobs a plan's name prints."""
    m = PLAN_TOK.match(name.strip())
    if not m:
        return None
    f = {"variant": m.group(1), "ab": m.group(2), "out": m.group(3), "tile": (int(m.group(4)), int(m.group(5)), int(m.group(6))),
         "wg": int(m.group(7)), "unroll": 1, "eu": 0, "edge": "", "cg": "", "pack": "none", "order": "", "sk": 1}
    toks = m.group(8).split()
    i = 0
    while i < len(toks):
        t = toks[i]
        if re.match(r"^u\d+(/\d+)?$", t):
            a = t[1:].split("/")
            f["unroll"] = int(a[0])
            f["eu"] = int(a[1]) if len(a) > 1 else 0
        elif t in ("clamp", "shift"):
            f["edge"] = t
        elif t.startswith("cg:"):
            f["cg"] = t[3:]
        elif t == "pack" and i + 1 < len(toks):
            f["pack"] = toks[i + 1]
            i += 1
        elif t == "order" and i + 1 < len(toks):
            f["order"] = toks[i + 1]
            i += 1
        elif re.match(r"^sk\d+$", t):
            f["sk"] = int(t[2:])
        elif re.match(r"^x\d+$", t):
            f["units"] = int(t[1:])
        elif re.match(r"^(sg\d+x\d+(x\d+)?|w\d+x\d+|s\d)$", t):
            f.setdefault("khr", []).append(t)
        else:
            return None  # a token this parser does not know (an older plan name)
        i += 1
    return f


def forced_spec(prefix, f, m, n, k):
    """A bench spec with every knob of plan f forced."""
    v = {"coopmat2": "cm2", "khr": "khr", "simt": "simt"}[f["variant"]]
    parts = [v]
    if f["variant"] == "coopmat2":
        parts.append("u%d" % f["unroll"])
        edge = f["edge"] or "branch"
        parts.append(edge + ("/%d" % f["eu"] if f["eu"] else ""))
        parts.append("pk" + f["pack"])
    elif f["variant"] == "simt":
        parts.append("pk" + f["pack"])
    parts.append("t%dx%dx%d" % f["tile"])
    parts.append("w%d" % f["wg"])
    parts.append("sk%d" % f["sk"])
    parts.append("b600000")  # no budget: the knobs are the record's (an unrolled rest loop included)
    if f["cg"]:
        parts.append("cg" + f["cg"])
    spec = ":".join(parts)
    return (prefix + "-" + spec) if prefix else spec


def spec_prefix(spec):
    m = re.match(r"^(rt-m1|rt-call|rt)", spec)
    return m.group(1) if m else ""


def raw_files():
    """(path relative to the tree, text) of every recorded raw file (bench/results/raw,
    tests/results/raw; not the call scripts), in a fixed order: what the fit tools harvest."""
    for d in RAW_DIRS:
        for dp, _, files in os.walk(os.path.join(ROOT, d)):
            if "/calls" in dp:
                continue
            for fn in sorted(files):
                path = os.path.join(dp, fn)
                try:
                    text = open(path, errors="replace").read()
                except OSError:
                    continue
                yield os.path.relpath(path, ROOT), text


def harvest():
    pts = []
    for rel, text in raw_files():
        if ("coopmat2 " not in text and "khr " not in text) or ("compile" not in text and "pipeline" not in text):
            continue
        head = "\n".join(l for l in text.splitlines()[:40] if l.startswith("#") or l.startswith("=="))
        date = (re.search(r"2026-\d\d-\d\d", rel) or re.search(r"2026-\d\d-\d\d", text[:2000]))
        date = date.group(0) if date else ""
        card = card_of(text)
        pts += harvest_table(rel, text, head, card, date)
        pts += harvest_run(rel, text, card, date)
    return pts


def harvest_table(rel, text, head, card, date):
    out = []
    if not re.search(r"^set +shape +types", text, re.M) or not cold_file(head + text[:3000]):
        return out
    seen = set()
    for line in text.splitlines():
        if line.startswith("set ") and "shape" in line:
            seen = set()  # a new process (several tables in one file)
        r = ROW_RE.match(line)
        if not r:
            continue
        rest = r.group(8).split()
        # the plan runs to "(est N)" or to the compile column
        plan_toks, i = [], 0
        while i < len(rest) and not COMPILE_TOK.match(rest[i]) and rest[i] not in ("cached", "-"):
            if rest[i] == "(est":
                i += 2
                break
            plan_toks.append(rest[i])
            i += 1
        if i >= len(rest):
            continue
        comp = rest[i]
        m, n, k = int(r.group(2)), int(r.group(3)), int(r.group(4))
        types, lay, spec = r.group(5), r.group(6), r.group(7)
        plan = " ".join(plan_toks)
        key = (plan, types, lay, spec_prefix(spec) != "", (m, n, k) if not spec_prefix(spec) else spec_prefix(spec))
        if not COMPILE_TOK.match(comp):
            seen.add(key)
            continue
        if key in seen:
            continue
        seen.add(key)
        out.append({"src": rel, "card": card, "date": date, "kind": "bench", "m": m, "n": n, "k": k, "types": types,
                    "layout": lay, "spec": spec, "plan": plan, "parts": [float(x) for x in comp.split("+")]})
    return out


RUN_KEEP = {"--m", "--n", "--k", "--batch", "--types", "--layout", "--lda", "--ldb", "--ldc", "--ldd", "--alpha", "--beta",
            "--bias", "--act", "--leaky-slope", "--shapes", "--m-multiple", "--n-multiple", "--k-multiple",
            "--ld-multiple", "--addressing", "--pack-units", "--pack-order"}


def harvest_run(rel, text, card, date):
    out = []
    head = "\n".join(text.splitlines()[:6]).lower()
    if "empty driver" not in head and "first compile" not in head:
        return out
    args = None
    for line in text.splitlines():
        if line.startswith("== "):
            a = line[3:]
            a = re.sub(r"^\[[^\]]*\]\s*", "", a)
            a = re.sub(r"^[A-Za-z0-9_.-]+:\s+", "", a)
            a = re.sub(r"\s*\(\d\d:\d\d:\d\d[^)]*\)\s*$", "", a)
            args = a.split()
            plan = None
        elif line.startswith("plan ") and args is not None:
            plan = line[5:].strip()
        elif line.startswith("pipeline ") and args is not None and plan:
            m = re.match(r"pipeline ([\d.]+) ms \(the driver's compile(?:: (\w+) ([\d.]+) \+ (\w+) ([\d.]+))?", line)
            if not m:
                continue
            parts = [float(m.group(3)), float(m.group(5))] if m.group(2) else [float(m.group(1))]
            kv = {}
            i = 0
            while i < len(args):
                if args[i].startswith("--") and i + 1 < len(args) and not args[i + 1].startswith("--"):
                    kv[args[i]] = args[i + 1]
                    i += 2
                else:
                    kv[args[i]] = None
                    i += 1
            if not all(x in kv for x in ("--m", "--n", "--k")):
                continue
            keep = [x for a, v in kv.items() if a in RUN_KEEP for x in ([a, v] if v is not None else [a])]
            out.append({"src": rel, "card": card, "date": date, "kind": "run", "m": int(kv["--m"]), "n": int(kv["--n"]),
                        "k": int(kv["--k"]), "types": kv.get("--types", "f16,f32"), "layout": kv.get("--layout", "nn"),
                        "spec": "rt" if kv.get("--shapes") == "runtime" else "default", "args": keep, "plan": plan,
                        "parts": parts})
            args = None
    return out


def plan_again(pts, build, caps):
    """Each point's plan planned again with its knobs forced: name and estimate."""
    bench = [p for p in pts if p["kind"] == "bench"]
    with tempfile.NamedTemporaryFile("w", suffix=".rows", delete=False) as f:
        for i, p in enumerate(bench):
            p["forced"] = forced_spec(spec_prefix(p["spec"]), p["f"], p["m"], p["n"], p["k"])
            f.write("p%d %dx%dx%d %s %s %s\n" % (i, p["m"], p["n"], p["k"], p["types"], p["layout"], p["forced"]))
        rows = f.name
    res = subprocess.run([os.path.join(build, "bench/bench_gemm_shapes"), "--rows", rows, "--plans", caps],
                         capture_output=True, text=True)
    os.unlink(rows)
    for line in res.stdout.splitlines():
        m = re.match(r"^p(\d+)\s.*?\s((?:coopmat2|khr|simt) .*?) \(est (\d+)\)", line)
        if m:
            p = bench[int(m.group(1))]
            p["replan"], p["est"] = m.group(2).strip(), int(m.group(3))
    cli = os.path.join(build, "tools/spvgen/spvgen")
    if not os.path.exists(cli):
        cli = os.path.join(build, "tools/spvgen")
    for p in pts:
        if p["kind"] != "run":
            continue
        f = p["f"]
        a = list(p["args"]) + ["--variant", {"coopmat2": "coopmat2", "khr": "khr", "simt": "simt"}[f["variant"]],
                               "--tile", "%dx%dx%d" % f["tile"], "--wg", str(f["wg"])]
        if f["variant"] == "coopmat2":
            a += ["--unroll", str(f["unroll"]), "--edge", f["edge"] or "branch", "--pack", f["pack"]]
            if f["eu"]:
                a += ["--edge-unroll", str(f["eu"])]
        a += ["--split-k", str(f["sk"]), "--compile-budget", "600000"]
        if f["cg"]:
            a += ["--codegen", f["cg"]]
        r = subprocess.run([cli, "gemm"] + a + ["--caps", caps, "--json"], capture_output=True, text=True)
        if r.returncode == 0:
            j = json.loads(r.stdout)
            p["replan"], p["est"] = j["plan"], j["compile_ms_estimate"]


def norm(name):
    """A plan name without an edge unroll of 1 (printed by some versions, the default)."""
    return re.sub(r"(u\d+)/1\b", r"\1", name) if name else name


def measured(p):
    """The first compile of the plan's kernels: a part of 0 (compiled earlier in the
    process) counts the model's share for it."""
    f = p["f"]
    parts = list(p["parts"])
    if len(parts) == 1:
        return parts[0]
    share = PACK_SHARE_MS if f["pack"] != "none" else REDUCE_SHARE_MS
    if len(parts) == 2 and f["pack"] != "none" and f["sk"] <= 1:
        return (parts[0] or share) + parts[1]
    if len(parts) == 2:
        return parts[0] + (parts[1] or share)
    return sum(x or share for x in parts)


def klass(p):
    """The class a point's error is reported in."""
    f = p["f"]
    rt = spec_prefix(p["spec"]) != "" or "--shapes" in p.get("args", [])
    if f["ab"] in ("s8", "u8"):
        return "s8 " + f["variant"]
    if f["variant"] == "simt":
        return "simt"
    if f["variant"] == "khr":
        return "khr" + (" runtime" if rt else "")
    if rt:
        return "cm2 runtime"
    if f["sk"] > 1:
        return "cm2 split-K"
    if f["pack"] != "none":
        return "cm2 packed"
    t = "%dx%dx%d" % f["tile"]
    edges = (p["m"] % f["tile"][0]) or (p["n"] % f["tile"][1])
    kedge = p["k"] % f["tile"][2]
    if f["edge"] or edges or kedge:
        return "cm2 edge " + (f["edge"] or "branch") + (" kedge" if kedge else "")
    return "cm2 fixed %s u%d" % (t, f["unroll"])


def summarize(rows, key_est="est"):
    by = {}
    for p in rows:
        by.setdefault(p["class"], []).append(p["ms"] / p[key_est])
    lines = []
    allr = []
    for c in sorted(by):
        r = sorted(by[c])
        allr += r
        q = lambda x: r[min(len(r) - 1, int(x * len(r)))]
        within = sum(1 for x in r if 1 / 1.3 <= x <= 1.3)
        lines.append("%-34s %4d  median %5.2f  p10 %5.2f  p90 %5.2f  within 30%% %3d%%" %
                     (c, len(r), statistics.median(r), q(0.1), q(0.9), 100 * within // len(r)))
    r = sorted(allr)
    within = sum(1 for x in r if 1 / 1.3 <= x <= 1.3)
    lines.append("%-34s %4d  median %5.2f  p10 %5.2f  p90 %5.2f  within 30%% %3d%%" %
                 ("all", len(r), statistics.median(r), r[int(0.1 * len(r))], r[int(0.9 * len(r))], 100 * within // len(r)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--caps", default=os.path.join(ROOT, "tests/results/raw/devices/h200-2026-11-26-call3.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/raw/compile-points-2026-11-27.tsv"))
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--all-cards", action="store_true", help="H100 points too (default: the TSV has them, the report too)")
    a = ap.parse_args()
    pts = []
    for p in harvest():
        p["f"] = parse_plan(p["plan"])
        if p["f"] and p["types"].split(",")[0] in ("f16", "s8", "bf16", "u8"):
            pts.append(p)
    plan_again(pts, a.build, a.caps)
    kept, dropped = [], 0
    for p in pts:
        if norm(p.get("replan")) != norm(p["plan"]):
            dropped += 1
            continue
        if p["f"]["sk"] > 1 and len(p["parts"]) == 1:  # the single-dispatch split-K of before (other code)
            dropped += 1
            continue
        if max(p["parts"]) < 30:  # a kernel the driver's cache held (a run-time class or a split's partials seen before)
            dropped += 1
            continue
        p["ms"] = measured(p)
        p["class"] = klass(p)
        kept.append(p)
    cols = ["src", "card", "date", "plan", "shape", "types", "layout", "spec", "measured_ms", "parts", "variant", "tile",
            "unroll", "edge", "shapes", "pack", "split_k", "cg", "class", "estimate_ms", "ratio"]
    with open(a.out, "w") as f:
        f.write("# tools/compile_fit.py: every recorded first compile of a GEMM plan (empty driver cache), the plan's "
                "features and the compile model's estimate for it (caps %s)\n" % os.path.relpath(a.caps, ROOT))
        f.write("\t".join(cols) + "\n")
        for p in kept:
            fe = p["f"]
            rt = "runtime" if (spec_prefix(p["spec"]) or p["spec"] == "rt") else "fixed"
            f.write("\t".join(str(x) for x in [
                p["src"], p["card"], p["date"], p["plan"], "%dx%dx%d" % (p["m"], p["n"], p["k"]), p["types"], p["layout"],
                p["spec"], "%.1f" % p["ms"], "+".join("%g" % x for x in p["parts"]), fe["variant"], "%dx%dx%d" % fe["tile"],
                fe["unroll"], fe["edge"] or "branch", rt, fe["pack"], fe["sk"], fe["cg"] or "-", p["class"], p["est"],
                "%.2f" % (p["ms"] / p["est"])]) + "\n")
    print("%d points harvested, %d kept (plan planned again to the same name), %d dropped" % (len(pts), len(kept), dropped),
          file=sys.stderr)
    if a.report:
        print(summarize(kept))


if __name__ == "__main__":
    main()
