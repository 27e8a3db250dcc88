#!/usr/bin/env python3
"""tools/gen_mlp_select.py — the MLP's variant choice from grid measurements.

    gen_mlp_select.py GRID.tsv [GRID2.tsv ...] [--out emitters/mlp/select_table.c]
                      [--check] [--note "what the TSVs are"] [--quiet]

Reads the TSV of bench_mlp_grid (bench/mlp_grid.c: one row per plan run) and, per device:
  - for every network, each variant class's best correct plan (G points/s and knobs):
    the table select.c's nearest-neighbour choice reads. Classes: vec, vec-opt, mat, loop
    and layers (bench_mlp_grid --classes ...,layers: a GEMM per layer; no knobs of its
    own, so its cell's knobs are 0; select.c takes it only from a measured network);
  - a cost model per class, ns per point = max(a + b * work + c * acts + w * wide,
    bytes / bw) (wide: the FLOPs of the layers whose inputs and outputs both exceed
    MLP_SELECT_WIDE, the fused classes' register cliff; layers has no such term), fitted
    by least squares on the relative error (non-negative coefficients) over the rows
    whose time is not at the bandwidth floor; bw from the fastest I/O rates measured;
  - the driver's first compile per fused class, ms = a + b * p^q * (T + c * A)^e
    (emitters/mlp/plan_cost.c: T the tiles of the layers' products as the module holds
    them, A the activations, p the points per invocation), fitted on log(ms) by
    coordinate descent over the rows whose compile was a first one (compile_cold 1);
    layers has none (its compile is the sum of its GEMM kernels' estimates);
  - an audit: for each network, the class the selection would take (1) with the whole
    table (the measured best by construction), (2) leaving that network out of the table
    (the nearest other network within select.c's MAX_DISTANCE, else the model, layers
    included where its planner takes the network), and (3) the model alone, each as a
    fraction of the network's best; fractions under 0.5 are listed (the issue's rule:
    never under half the best).
--out writes the C file (entries sorted as in the TSV); --check exits 1 when (1) or (2)
has a fraction under 0.5. Pure Python, no numpy.
"""
import argparse
import collections
import contextlib
import io
import math
import re
import sys

CLASSES = ["vec", "vec-opt", "mat", "loop", "layers"]
FUSED = CLASSES[:4]  # the fused classes (one kernel); the model's wide term is theirs
MAX_DISTANCE = 2.0  # emitters/mlp/select.c
WIDE = 128  # emitters/mlp/select.h, MLP_SELECT_WIDE


def c_float(v):
    """v as a C float literal's digits (4 significant): "%.4g" gives "81" for 81.0, which
    the 'f' suffix makes an invalid integer literal."""
    t = "%.4g" % v
    return t if "." in t or "e" in t else t + ".0"


def lg(x):
    return math.log2(max(x, 1))


def pad16(x):
    return (x + 15) // 16 * 16


def parse_widths(flags):
    m = re.search(r"--hidden (\S+)", flags)
    hidden = [int(w) for w in m.group(1).split(",")] if m else []
    i = int(re.search(r"--in (\d+)", flags).group(1))
    o = int(re.search(r"--out (\d+)", flags).group(1))
    io = 4 if "f16,f32" in flags else 2
    return i, hidden, o, io


def read(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            line = f.readline()
            while line.startswith("#"):  # a record's comment lines (# Raw:, # References:)
                line = f.readline()
            header = line.rstrip("\n").split("\t")
            for line in f:
                v = line.rstrip("\n").split("\t")
                if len(v) != len(header):
                    continue
                r = dict(zip(header, v))
                # The mat variant's streamed form (mat_slab) has no field in the table's
                # knobs yet: its rows would be listed as a plain mat plan that the
                # library would then plan without the form.
                if int(r.get("mat_slab", 0) or 0):
                    continue
                rows.append(r)
    return rows


def short_name(name):
    for k in ("H100", "H200", "A100", "L40", "4090"):
        if k in name:
            return k.lower()
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:24]


class Net:
    def __init__(self, r):
        self.name = r["net"]
        self.flags = r["flags"]
        self.enc_w = int(r["encoded_width"])
        self.width = int(r["hidden_width"])
        self.depth = int(r["depth"])
        self.out = int(r["output_width"])
        self.act = int(r["act_class"])
        self.enc = int(r["encoding"])
        _, self.hidden, _, self.io = parse_widths(self.flags)
        self.inp = int(re.search(r"--in (\d+)", self.flags).group(1))
        self.best = {}  # class -> (gpts, wg, ppg, bias, acc16, plan)
        # whether the layers planner takes the network (emitters/mlp/layers.c: no
        # encoding, f16 points; every MLP activation is the GEMM epilogue's): where it
        # refuses, select.c plans the measured network's next class
        self.layers_ok = self.enc == 0 and not re.search(r"--types \w+,f32", self.flags)

    def dims(self):
        return [self.enc_w] + self.hidden + [self.out]

    def work(self, cls):
        d = self.dims()
        if cls == "loop":
            return sum(2 * d[k] * d[k + 1] for k in range(len(d) - 1))
        return sum(2 * pad16(d[k]) * pad16(d[k + 1]) for k in range(len(d) - 1))

    def wide(self, cls):
        """The FLOPs of the layers whose inputs and outputs both exceed WIDE (padded as in
        work); 0 for layers (select.c: its fit has no wide term)."""
        if cls not in FUSED:
            return 0
        d = self.dims()
        f = (lambda x: x) if cls == "loop" else pad16
        return sum(2 * f(d[k]) * f(d[k + 1]) for k in range(len(d) - 1) if min(d[k], d[k + 1]) > WIDE)

    def acts(self, cls):
        d = self.dims()[1:]
        return sum(d) if cls == "loop" else sum(pad16(x) for x in d)

    def bytes(self):
        return (self.inp + self.out) * self.io


ACT_WEIGHT = {"leaky_relu": 0.5, "tanh": 1.0, "exp": 1.0, "sigmoid": 2.0, "silu": 2.5}
# emitters/mlp/plan_cost.c's defaults (the first H100 grid run), for classes with too few
# first compiles to fit
COMPILE_DEFAULT = {"vec": [33.2, 1.01, 1.01, 1.22, 1.41], "vec-opt": [25.8, 2.02, 1.34, 1.33, 1.12],
                   "mat": [59.9, 5.85, 1.98, 1.0, 0.81], "loop": [0.0, 33.7, 0.0, 1.0, 1.52],
                   "layers": [0.0, 0.0, 0.0, 1.0, 1.0]}  # unused: layers sums its GEMMs' estimates


def cdiv(a, b):
    return (a + b - 1) // b


def compile_features(r):
    """(T, A, p) of a TSV row, as emitters/mlp/plan_cost.c computes them."""
    flags = r["flags"]
    i, hidden, o, _ = parse_widths(flags)
    enc_w = int(r["encoded_width"])
    act = re.search(r"--act (\S+)", flags)
    oact = re.search(r"--out-act (\S+)", flags)
    acts = [act.group(1) if act else "relu"] * len(hidden) + [oact.group(1) if oact else "none"]
    dims = [enc_w] + hidden + [o]
    layers = [(dims[k], dims[k + 1], acts[k]) for k in range(len(dims) - 1)]
    cls = r["class"]
    T = A = 0.0
    if cls.startswith("vec"):
        rows_knob = int(r.get("vec_rows", 0) or 0)
        stage = int(r.get("vec_stage", 0) or 0)
        loop = int(r.get("layer_loop", 0) or 0) and len(hidden) >= 3
        for l, (k, m, a) in enumerate(layers):
            if loop and 1 < l < len(hidden):
                continue
            rows = m
            if loop and l == 1 and stage and rows_knob and rows_knob < m:
                rows = rows_knob + m % rows_knob
            T += cdiv(rows, 16) * cdiv(k, 16)
            A += rows * ACT_WEIGHT.get(a, 0.0) / 16
        return T, A, max(1, int(r["points_per_group"]))
    if cls == "mat":
        S = max(1, int(r["workgroup_size"]) // 32)
        R = int(r["points_per_group"]) // 16
        rows_arr = int(r.get("mat_rows", 0) or 0)
        for k, m, a in layers:
            nf, kf = cdiv(m, 16), cdiv(k, 16)
            T += max(1, R // S) * nf * kf if rows_arr else R * cdiv(nf, S) * kf
            A += m * ACT_WEIGHT.get(a, 0.0) / 16
        return T, A, 1
    for k, m, a in layers:
        A += m * ACT_WEIGHT.get(a, 0.0) / 16
    return float(len(layers)), A, 1


def compile_predict(par, f):
    a, b, c, q, e = par
    T, A, p = f
    return a + b * p ** q * (T + c * A) ** e


def fit_compile(points, default):
    """ms = a + b p^q (T + c A)^e on log(ms): coordinate descent from the default."""
    if len(points) < 6:
        return list(default), None

    def err(par):
        return sum((math.log(max(compile_predict(par, f), 1e-3)) - math.log(ms)) ** 2 for f, ms in points) / len(points)

    par = list(default)
    steps = [5.0, 0.2, 0.3, 0.1, 0.05]
    fixed_q = len({f[2] for f, _ in points}) < 2  # one point count per invocation: q stays
    for it in range(600):
        i = it % 5
        if i == 3 and fixed_q:
            continue
        for sgn in (1, -1):
            q = list(par)
            if i == 1:
                q[1] = q[1] * math.exp(sgn * steps[1])
            else:
                q[i] = max(0.0, q[i] + sgn * steps[i])
            if err(q) < err(par):
                par = q
        if it % 50 == 49:
            steps = [x * 0.7 for x in steps]
    return par, math.exp(math.sqrt(err(par)))


def distance(a, b):
    d = abs(lg(a.enc_w) - lg(b.enc_w)) + abs(lg(a.width) - lg(b.width)) + 0.5 * abs(a.depth - b.depth) + \
        abs(lg(a.out) - lg(b.out))
    if a.act != b.act:
        d += 0.5
    if a.enc != b.enc:
        d += 1.0
    return d


def solve(rows):
    """Least squares of sum (x . p - 1)^2 over rows x, p >= 0 (all subsets of the
    features)."""
    best = None
    K = len(rows[0])
    for mask in range(1, 1 << K):
        idx = [k for k in range(K) if mask >> k & 1]
        n = len(idx)
        A = [[sum(x[idx[i]] * x[idx[j]] for x in rows) for j in range(n)] for i in range(n)]
        y = [sum(x[idx[i]] for x in rows) for i in range(n)]
        # Gaussian elimination
        M = [A[i] + [y[i]] for i in range(n)]
        ok = True
        for c in range(n):
            p = max(range(c, n), key=lambda r: abs(M[r][c]))
            if abs(M[p][c]) < 1e-300:
                ok = False
                break
            M[c], M[p] = M[p], M[c]
            for r in range(n):
                if r != c:
                    f = M[r][c] / M[c][c]
                    M[r] = [M[r][k] - f * M[c][k] for k in range(n + 1)]
        if not ok:
            continue
        sol = [M[i][n] / M[i][i] for i in range(n)]
        if any(s < 0 for s in sol):
            continue
        p = [0.0] * K
        for i, k in enumerate(idx):
            p[k] = sol[i]
        err = sum((sum(x[k] * p[k] for k in range(K)) - 1) ** 2 for x in rows)
        if best is None or err < best[0]:
            best = (err, p)
    return best[1] if best else [0.01, 1e-5, 0.0] + [0.0] * (K - 3)


def fit(nets):
    obs = []  # (net, cls, ns per point)
    for n in nets:
        for c, b in n.best.items():
            obs.append((n, c, 1.0 / b[0]))
    rates = sorted(n.bytes() / t for n, c, t in obs)
    bw = rates[int(0.95 * (len(rates) - 1))] if rates else 3000.0
    model = {"bw": bw}
    for c in CLASSES:
        rows = []
        for n, c2, t in obs:
            if c2 != c or t < 1.3 * n.bytes() / bw:
                continue
            rows.append([1.0 / t, n.work(c) / t, n.acts(c) / t] + ([n.wide(c) / t] if c in FUSED else []))
        model[c] = solve(rows) if rows else None
        if model[c] is not None and c not in FUSED:
            model[c] = model[c] + [0.0]
    return model


def estimate(model, n, c):
    p = model.get(c)
    if p is None:
        return None
    t = p[0] + p[1] * n.work(c) + p[2] * n.acts(c) + p[3] * n.wide(c)
    return max(t, n.bytes() / model["bw"])


def choose(n, table, model, row_only):
    """The class select.c would take for network n: nearest entry of `table` within
    MAX_DISTANCE (its fastest allowed class), else the model's lowest estimate."""
    allowed = [c for c in CLASSES if not (row_only and c == "vec-opt") and (c != "layers" or n.layers_ok)]
    near = min(table, key=lambda e: distance(n, e), default=None)
    if near is not None and distance(n, near) <= MAX_DISTANCE:
        cands = [c for c in allowed if c in near.best]
        if cands:
            return max(cands, key=lambda c: near.best[c][0]), "measured " + near.name
    ests = [(estimate(model, n, c), c) for c in allowed
            if c in n.best and estimate(model, n, c)]
    if ests:
        return min(ests)[1], "model"
    return None, "none"


def audit(nets, model):
    bad = []
    lines = []
    for row_only in (True, False):
        for n in nets:
            allowed = [c for c in n.best if not (row_only and c == "vec-opt")]
            if not allowed:
                continue
            top = max(n.best[c][0] for c in allowed)
            res = []
            for label, table in (("table", nets), ("leave-one-out", [m for m in nets if m is not n]),
                                 ("model", [])):
                c, why = choose(n, table, model, row_only)
                frac = n.best[c][0] / top if c in n.best else 0
                res.append((label, c, frac, why))
                if frac < 0.5 and label != "model":
                    bad.append((n.name, "row" if row_only else "auto", label, c, frac))
            lines.append(f"{'row ' if row_only else 'auto'} {n.name:28s} best {top:8.3f} | " +
                         " | ".join(f"{lab} {c} {frac:.2f}" for lab, c, frac, _ in res))
    return lines, bad


def c_entry(n):
    cells = []
    for c in CLASSES:
        b = n.best.get(c)
        cells.append("{%sf, %d, %d, %d, %d, %d, %d, %d, %d}" % ((c_float(b[0]),) + tuple(b[1:9])) if b
                     else "{0, 0, 0, 0, 0, 0, 0, 0, 0}")
    return "    {%d, %d, %d, %d, %d, %d, {%s}}, /* %s */" % (n.enc_w, n.width, n.depth, n.out, n.act, n.enc,
                                                             ", ".join(cells), n.name)


def c_model(m):
    # a class without a fit: all zero (select.c: no estimate)
    a = ", ".join("%.6g" % (m[c][0] if m.get(c) else 0.0) for c in CLASSES)
    b = ", ".join("%.6g" % (m[c][1] if m.get(c) else 0.0) for c in CLASSES)
    c = ", ".join("%.6g" % (m[k][2] if m.get(k) else 0.0) for k in CLASSES)
    w = ", ".join("%.6g" % (m[k][3] if m.get(k) else 0.0) for k in CLASSES)
    return "{%.6g, {%s}, {%s}, {%s}, {%s}}" % (m["bw"], a, b, c, w)


def c_compile(cm):
    return "{" + ", ".join("{%.6g, %.6g, %.6g, %.6g, %.6g}" % tuple(cm[c]) for c in CLASSES) + "}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tsv", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--note", help="what the TSVs are, for the C file's header comment")
    ap.add_argument("--quiet", action="store_true", help="no fit or audit on stdout")
    a = ap.parse_args()
    if a.quiet:
        with contextlib.redirect_stdout(io.StringIO()):
            return run(a)
    return run(a)


def run(a):
    rows = read(a.tsv)
    devices = collections.OrderedDict()
    for r in rows:
        key = (int(r["vendor"]), int(r["device"]))
        dev = devices.setdefault(key, {"name": r["device_name"], "nets": collections.OrderedDict()})
        n = dev["nets"].get(r["net"]) or dev["nets"].setdefault(r["net"], Net(r))
        # a first compile: compile_cold 1; older TSVs (no such column): over 5 ms (a hit in
        # the driver's or spvgen's pipeline cache takes under 1 ms)
        cold = int(r["compile_cold"] or 0) if "compile_cold" in r else float(r.get("compile_ms", 0) or 0) >= 5
        if cold and float(r.get("compile_ms", 0) or 0) > 0 and r["class"] != "layers":
            dev.setdefault("compiles", collections.defaultdict(list))[r["class"]].append(
                (compile_features(r), float(r["compile_ms"])))
        if r["check"] != "ok" or float(r["gpts"]) <= 0:
            continue
        g = float(r["gpts"])
        c = r["class"]
        if c not in n.best or g > n.best[c][0]:
            if c == "layers":  # no knobs: its GEMMs choose their tiles
                n.best[c] = (g, 0, 0, 0, 0, 0, 0, 0, 0, r["plan"])
                continue
            n.best[c] = (g, int(r["workgroup_size"]), int(r["points_per_group"]), int(r["bias_add"]),
                         int(r["f16_acc"]), int(r.get("mat_rows", 0) or 0), int(r.get("vec_rows", 0) or 0),
                         int(r.get("vec_stage", 0) or 0), int(r.get("layer_loop", 0) or 0), r["plan"])
    out = ["/* emitters/mlp/select_table.c — the measurements behind the MLP's variant choice",
           " * (select.h). Written by tools/gen_mlp_select.py from " + ", ".join(a.tsv) +
           (" (" + a.note + ")" if a.note else "") + ": do not edit;",
           " * rerun the grid (scripts/gpu-mlp.sh) and the tool. */",
           '#include "select.h"', ""]
    defs = []
    first_model = None
    first_compile = None
    status = 0
    for (vendor, device), dev in devices.items():
        nets = [n for n in dev["nets"].values() if n.best]
        model = fit(nets)
        first_model = first_model or model
        sname = short_name(dev["name"])
        print(f"== {dev['name']} ({vendor:#x}:{device:#x}): {len(nets)} networks")
        print("model: bw %.3g bytes/ns; " % model["bw"] +
              "; ".join(f"{c}: a %.3g b %.3g c %.3g w %.3g" % tuple(model[c]) if model.get(c) else f"{c}: -"
                        for c in CLASSES))
        lines, bad = audit(nets, model)
        for line in lines:
            print(line)
        for b in bad:
            print("UNDER HALF: %s (%s, %s): %s at %.2f of the best" % b)
            status = 1
        cm = {}
        for c in CLASSES:
            cm[c], rms = fit_compile(dev.get("compiles", {}).get(c, []), COMPILE_DEFAULT[c])
            print(f"compile {c}: a %.3g b %.3g c %.3g q %.3g e %.3g" % tuple(cm[c]) +
                  (f" ({len(dev['compiles'][c])} first compiles, rms x{rms:.2f})" if rms else " (default)"))
        first_compile = first_compile or cm
        var = re.sub(r"[^a-z0-9]", "_", sname)
        out.append(f"static const mlp_select_entry {var}_entries[] = {{")
        out += [c_entry(n) for n in nets]
        out.append("};")
        out.append("")
        defs.append(f'    {{{vendor:#x}, {device:#x}, "{sname}", {c_model(model)}, {c_compile(cm)}, {var}_entries,\n'
                    f"     sizeof {var}_entries / sizeof {var}_entries[0]}},")
    out.append("const mlp_select_model mlp_select_default_model = %s;" % c_model(first_model) if first_model else
               "const mlp_select_model mlp_select_default_model = {3000.0, {0.01, 0.01, 0.02, 0.02, 0}, "
               "{1.0 / 120e3, 1.0 / 480e3, 1.0 / 77e3, 1.0 / 9e3, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};")
    out.append("const mlp_compile_model mlp_compile_default_model[MLP_CLASS_COUNT] = %s;" %
               c_compile(first_compile or COMPILE_DEFAULT))
    out.append("")
    out.append("const mlp_select_device mlp_select_devices[] = {")
    out += defs
    out.append("};")
    out.append("const uint32_t mlp_select_device_count = sizeof mlp_select_devices / sizeof mlp_select_devices[0];")
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(out) + "\n")
        print(f"wrote {a.out}")
    return status if a.check else 0


if __name__ == "__main__":
    sys.exit(main())
