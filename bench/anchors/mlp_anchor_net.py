#!/usr/bin/env python3
"""bench/anchors/mlp_anchor_net.py — torch references for any network spvgen's fused MLP
takes, in the style of shared/anchors/mlp_anchor.py (which knows fixed networks): what a
user would write instead, torch eager and torch.compile, on the same network and the same
number of points, timed with CUDA events (median of the timed runs after warm-up runs).

    python3 mlp_anchor_net.py [--points N] [--reps R] [--budget S] [--time-cap S] [--eager-first]
                              [--train] [--out FILE] (--net "FLAGS" | --nets FILE)

FLAGS are `spvgen mlp`'s network flags: --in N --hidden WxC|W,W,.. --out N --act A
--out-act A --leaky-slope F --no-bias --encoding freq:N|oneblob:N|hashgrid:L,F,T,N,S
--types f16,IO. A FILE line is "NAME<TAB>FLAGS[<TAB>POINTS]" (or FLAGS; # starts a
comment); POINTS overrides --points for that network (the grid benchmark writes the
file with its own point counts).

The network: the encoding in f32 (frequency: sin / cos(2^k pi x) per component in spvgen's
order; one-blob: exp(-(x B - i - 0.5)^2 / 2); the hash grid: tiny-cuda-nn's multiresolution
grid, the module below), then Linear layers with the activations in f16 (spvgen's weights
and activations are f16). Inference: under torch.no_grad. --train: one training step per
batch instead (forward, L2 loss, backward, Adam; f16 autocast with f32 master weights, as
spvgen keeps them), samples/s.

Each result is one line on stdout (and in --out FILE):
    anchor<TAB>NAME<TAB>MODE<TAB>POINTS<TAB>MS<TAB>G/S<TAB>TFLOP/S
MODE: eager, compile (inference, G points/s), train-eager, train-compile (G samples/s);
TFLOP/s counts 2 * sum(inputs * outputs) per point, as spvgen does (training: 3x that).
--budget S stops starting networks after S seconds (a line "skipped NAME" for each one
left), so that a GPU call's time limit is kept. --time-cap S is a hard limit on the whole
run: what runs at S seconds (a torch.compile, which can take minutes on the hash grid's
gathers, or the timed repetitions) is abandoned, and it and everything not yet run get a
line "skipped NAME MODE (time cap S s)"; the process exits by S + 10 s whatever happens.
--eager-first measures the eager mode of every network before any compiled one, so that a
capped run keeps the eager references.
"""
import argparse
import math
import os
import shlex
import signal
import sys
import threading
import time

import torch

torch.manual_seed(0)
dev = "cuda"


def parse_net(flags):
    ap = argparse.ArgumentParser(prog="net", add_help=False)
    ap.add_argument("--in", dest="inp", type=int, required=True)
    ap.add_argument("--out", type=int, required=True)
    ap.add_argument("--hidden", default="")
    ap.add_argument("--act", default="relu")
    ap.add_argument("--out-act", dest="out_act", default="none")
    ap.add_argument("--leaky-slope", dest="slope", type=float, default=0.01)
    ap.add_argument("--no-bias", dest="no_bias", action="store_true")
    ap.add_argument("--encoding", default="")
    ap.add_argument("--types", default="f16,f16")
    a, _ = ap.parse_known_args(shlex.split(flags))
    if "x" in a.hidden:
        w, c = map(int, a.hidden.split("x"))
        a.widths = [w] * c
    else:
        a.widths = [int(w) for w in a.hidden.split(",") if w]
    a.io = a.types.split(",")[1] if "," in a.types else "f16"
    return a


def activation(name, slope):
    return {"none": torch.nn.Identity(), "relu": torch.nn.ReLU(), "leaky_relu": torch.nn.LeakyReLU(slope),
            "sigmoid": torch.nn.Sigmoid(), "tanh": torch.nn.Tanh(), "silu": torch.nn.SiLU()}.get(name) or Exp()


class Exp(torch.nn.Module):
    def forward(self, x):
        return torch.exp(x)


class Frequency(torch.nn.Module):
    """sin(2^k pi x), cos(2^k pi x), k < octaves, per component (component c at c 2F + 2k)."""

    def __init__(self, octaves):
        super().__init__()
        self.register_buffer("f", (2.0 ** torch.arange(octaves)) * math.pi)

    def forward(self, x):
        a = x.float()[..., :, None] * self.f
        return torch.stack((torch.sin(a), torch.cos(a)), -1).flatten(1)


class OneBlob(torch.nn.Module):
    def __init__(self, bins):
        super().__init__()
        self.register_buffer("c", torch.arange(bins, dtype=torch.float32) + 0.5)
        self.bins = bins

    def forward(self, x):
        t = x.float()[..., :, None] * self.bins - self.c
        return torch.exp(-0.5 * t * t).flatten(1)


class HashGrid(torch.nn.Module):
    """tiny-cuda-nn's multiresolution hash grid (spvgen/mlp.h states the same rules): per
    level a grid of scale_l = 2^(l log2 b) N - 1 (rounded to f32), resolution ceil + 1,
    min(resolution^D rounded up to 8, 2^T) entries of F values; position fma(scale, x, 0.5),
    D-linear interpolation of the 2^D corners, indexed densely or (grid larger than the
    table) by the coherent prime hash x ^ y 2654435761 ^ z 805459861, modulo the entries.
    The table starts uniform in +-1e-4, as tiny-cuda-nn's."""

    PRIMES = (1, 2654435761, 805459861)

    def __init__(self, dims, levels=16, features=2, log2_size=19, base=16, scale=2.0):
        super().__init__()
        self.dims, self.features = dims, features
        self.levels = []
        offset, size = 0, 1 << log2_size
        for lv in range(levels):
            s = float(torch.tensor(2.0 ** (lv * math.log2(scale)) * base - 1.0, dtype=torch.float32))
            res = int(math.ceil(s)) + 1
            dense = res ** dims
            hashed = dense > size
            entries = size if hashed else (dense + 7) // 8 * 8
            self.levels.append((s, res, entries, offset, hashed))
            offset += entries
        self.table = torch.nn.Parameter(torch.empty(offset, features, device=dev).uniform_(-1e-4, 1e-4))

    def forward(self, x):
        x = x.float()
        outs = []
        for s, res, entries, offset, hashed in self.levels:
            pos = torch.addcmul(torch.full_like(x, 0.5), x, torch.full_like(x, s))
            cell = torch.floor(pos)
            frac = pos - cell
            ci = cell.long()
            acc = 0
            for c in range(1 << self.dims):
                w, idx, stride = None, None, 1
                for k in range(self.dims):
                    up = (c >> k) & 1
                    ck = ci[:, k] + up
                    wk = frac[:, k] if up else 1 - frac[:, k]
                    w = wk if w is None else w * wk
                    if hashed:
                        hk = (ck * self.PRIMES[k]) & 0xFFFFFFFF
                        idx = hk if idx is None else torch.bitwise_xor(idx, hk)
                    else:
                        idx = ck if idx is None else idx + ck * stride
                        stride *= res
                idx = (idx & (entries - 1)) if hashed else torch.remainder(idx, entries)
                acc = acc + w[:, None] * self.table[offset + idx]
            outs.append(acc)
        return torch.cat(outs, 1)


def make(a):
    layers, d = [], a.inp
    enc = a.encoding
    if enc.startswith("freq:"):
        layers.append(Frequency(int(enc[5:])))
        d = a.inp * 2 * int(enc[5:])
    elif enc.startswith("oneblob:"):
        layers.append(OneBlob(int(enc[8:])))
        d = a.inp * int(enc[8:])
    elif enc.startswith("hashgrid"):
        p = [float(v) for v in enc[9:].split(",") if v] if ":" in enc else []
        dflt = [16, 2, 19, 16, 2.0]
        p = p + dflt[len(p):]
        layers.append(HashGrid(a.inp, int(p[0]), int(p[1]), int(p[2]), int(p[3]), p[4]))
        d = int(p[0]) * int(p[1])
    enc_mod = torch.nn.Sequential(*layers)
    mlp, flops = [], 0
    dims = [d] + a.widths + [a.out]
    for k in range(len(dims) - 1):
        mlp.append(torch.nn.Linear(dims[k], dims[k + 1], bias=not a.no_bias))
        flops += 2 * dims[k] * dims[k + 1]
        act = a.act if k + 2 < len(dims) else a.out_act
        if act != "none":
            mlp.append(activation(act, a.slope))
    return enc_mod.to(dev), torch.nn.Sequential(*mlp).to(dev), flops


def timed(fn, reps, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]


def emit(name, mode, n, ms, flops, out):
    rate = n / (ms * 1e-3)
    line = f"anchor\t{name}\t{mode}\t{n}\t{ms:.4f}\t{rate / 1e9:.4f}\t{rate * flops / 1e12:.3f}"
    print(line, flush=True)
    if out:
        out.write(line + "\n")
        out.flush()


class TimeCap(BaseException):  # not an Exception: torch.compile's wrappers do not catch it
    pass


alarm_rang = False  # set even where a wrapper turned the exception into another


def on_alarm(signum, frame):
    global alarm_rang
    alarm_rang = True
    raise TimeCap()


def run_net(name, flags, points, args, out, modes):
    a = parse_net(flags)
    enc, mlp, flops = make(a)
    n = points or args.points
    io = torch.float32 if a.io == "f32" else torch.float16
    unit = a.encoding.startswith(("oneblob", "hashgrid"))
    x = (torch.rand(n, a.inp, device=dev) if unit else torch.rand(n, a.inp, device=dev) * 2 - 1).to(io)
    has_enc = len(enc) > 0
    if not args.train:
        mlp = mlp.half()  # the hash grid's table stays f32: its lookups are summed in f32, as spvgen's

        def fwd(e, m):
            return lambda: m(e(x).half() if has_enc else x.half()).to(io)

        with torch.no_grad():
            if "eager" in modes:
                emit(name, "eager", n, timed(fwd(enc, mlp), args.reps), flops, out)
            if "compile" in modes:
                ce, cm = torch.compile(enc), torch.compile(mlp)
                emit(name, "compile", n, timed(fwd(ce, cm), args.reps), flops, out)
        return
    y = torch.rand(n, a.out, device=dev)
    for mode in ("train-eager", "train-compile"):
        if mode not in modes:
            continue
        e2, m2, _ = make(a)
        params = list(e2.parameters()) + list(m2.parameters())
        opt = torch.optim.Adam(params, lr=1e-3)

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.float16):
                h = e2(x) if has_enc else x
                loss = ((m2(h).float() - y) ** 2).mean()
            loss.backward()
            opt.step()

        fn = torch.compile(step) if mode == "train-compile" else step
        emit(name, mode, n, timed(fn, args.reps, warm=5), 3 * flops, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", type=int, default=1 << 21)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--budget", type=float, default=0, help="seconds; 0: no limit")
    ap.add_argument("--time-cap", dest="time_cap", type=int, default=0, help="seconds, a hard limit; 0: none")
    ap.add_argument("--eager-first", dest="eager_first", action="store_true")
    ap.add_argument("--train", action="store_true")
    ap.add_argument("--no-compile", dest="no_compile", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--net", action="append", default=[])
    ap.add_argument("--nets")
    args = ap.parse_args()
    nets = [("net", f, 0) for f in args.net]
    if args.nets:
        for line in open(args.nets):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) == 1:
                parts = ["net"] + parts
            nets.append((parts[0], parts[1], int(parts[2]) if len(parts) > 2 else 0))
    out = open(args.out, "w") if args.out else None
    print(f"# device {torch.cuda.get_device_name()} torch {torch.__version__}, {args.points} points, "
          f"median of {args.reps}", flush=True)
    t0 = time.time()
    if args.time_cap > 0:
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(args.time_cap)

        def last_resort():  # the alarm could not interrupt what runs (a call that never returns)
            print(f"# time cap {args.time_cap} s: exiting after {time.time() - t0:.1f} s", flush=True)
            os._exit(0)

        watchdog = threading.Timer(args.time_cap + 10, last_resort)
        watchdog.daemon = True
        watchdog.start()
    modes = ["train-eager", "train-compile"] if args.train else ["eager", "compile"]
    if args.no_compile:
        modes = modes[:1]
    # one pass over the networks with every mode, or (--eager-first) one pass per mode
    passes = [[m] for m in modes] if args.eager_first else [modes]
    capped = False
    for ms in passes:
        for name, flags, points in nets:
            if capped:
                print(f"skipped {name} {','.join(ms)} (time cap {args.time_cap} s)", flush=True)
                continue
            if args.budget and time.time() - t0 > args.budget:
                print(f"skipped {name}", flush=True)
                continue
            try:
                run_net(name, flags, points, args, out, ms)
            except TimeCap:
                capped = True
                print(f"skipped {name} {','.join(ms)} (time cap {args.time_cap} s, reached after "
                      f"{time.time() - t0:.1f} s)", flush=True)
            except Exception as ex:  # a network torch cannot run here: say so, go on
                print(f"# {name}: {type(ex).__name__}: {str(ex)[:200]}", flush=True)
                capped = alarm_rang
    signal.alarm(0)
    print(f"# done in {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
