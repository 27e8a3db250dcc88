#!/usr/bin/env python3
"""Training throughput of torch (autograd + Adam) on the networks of bench/mlp_train.c,
what a user would write instead of spvgen's two training kernels: the frequency encoding
in torch, Linear layers with ReLU, f16 autocast with f32 master weights (as spvgen:
f16 weights in the forward, f32 Adam state), L2 loss, one optimizer step per batch.
Prints samples/s for eager and torch.compile, median of the timed steps (CUDA events)
after warm-up steps. Run on the GPU machine next to build/bench/bench_mlp_train:

    python3 bench/mlp_train_torch.py [--points N] [--steps S] [--warmup W] [--net "IN WxC OUT ACT"]...

--net (repeatable) replaces the two default networks with any network of spvgen's flags
(`--in IN --hidden WxC --out OUT --act ACT`, the output layer linear; ACT relu, silu,
tanh, sigmoid, leaky_relu or none).
"""
import argparse
import math

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--points", type=int, default=65536)
ap.add_argument("--steps", type=int, default=50)
ap.add_argument("--warmup", type=int, default=20)
ap.add_argument("--net", action="append", default=[], help='"IN WxC OUT ACT", e.g. "64 256x3 64 relu"')
args = ap.parse_args()
dev = "cuda"
torch.manual_seed(0)


class Freq(torch.nn.Module):
    """sin(2^k pi x), cos(2^k pi x), k < octaves, per component (spvgen's order)."""

    def __init__(self, octaves):
        super().__init__()
        self.register_buffer("f", (2.0 ** torch.arange(octaves)) * math.pi)

    def forward(self, x):
        a = x[..., :, None] * self.f  # N x C x F
        return torch.stack((torch.sin(a), torch.cos(a)), -1).flatten(1)


ACTS = {"relu": torch.nn.ReLU, "silu": torch.nn.SiLU, "tanh": torch.nn.Tanh, "sigmoid": torch.nn.Sigmoid,
        "leaky_relu": torch.nn.LeakyReLU, "none": torch.nn.Identity}


def make(inp, width, count, out, octaves, act="relu"):
    layers, d = [], inp
    if octaves:
        layers.append(Freq(octaves))
        d = inp * 2 * octaves
    for _ in range(count):
        layers += [torch.nn.Linear(d, width), ACTS[act]()]
        d = width
    layers.append(torch.nn.Linear(d, out))
    return torch.nn.Sequential(*layers).to(dev)


def bench(net, x, y, compiled):
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = ((net(x).float() - y) ** 2).mean()
        loss.backward()
        opt.step()

    fn = torch.compile(step) if compiled else step
    for _ in range(args.warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(args.steps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / 1e3)
    ts.sort()
    return args.points / ts[len(ts) // 2]


print(f"device {torch.cuda.get_device_name()} torch {torch.__version__}, batch {args.points}, "
      f"median of {args.steps} steps after {args.warmup}")
print("| network | torch eager samples/s | torch.compile samples/s |\n|---|---|---|")
nets = {"2-freq:6-64x3-3 relu (mlp-fit-image)": (2, 64, 3, 3, 6, "relu"),
        "32-64x4-16 relu": (32, 64, 4, 16, 0, "relu")}
if args.net:
    nets = {}
    for spec in args.net:
        i, hidden, o, act = spec.split()
        w, c = map(int, hidden.split("x"))
        nets[f"{i}-{hidden}-{o} {act}"] = (int(i), w, c, int(o), 0, act)
for name, (i, w, c, o, f, act) in nets.items():
    x = torch.rand(args.points, i, device=dev)
    y = torch.rand(args.points, o, device=dev)
    eager = bench(make(i, w, c, o, f, act), x, y, False)
    try:
        comp = f"{bench(make(i, w, c, o, f, act), x, y, True):.4g}"
    except Exception as ex:  # torch.compile missing a backend on the machine
        comp = f"failed: {type(ex).__name__}"
    print(f"| {name} | {eager:.4g} | {comp} |")
