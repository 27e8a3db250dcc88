#!/usr/bin/env python3
"""bench/anchors/layer_anchor.py — torch references for one MLP layer as a GEMM: what the
`layers` variant's GEMM does, D = act(X W^T + b) with X points x K (f16), W N x K (a linear
layer's weights, f16), b N (f16), D f16, timed with CUDA events (mlp_anchor_net.timed: median of 20 after 3 warm-ups),
random data. Three forms per shape, each printed as one line:

    layer<TAB>MxNxK<TAB>ACT<TAB>FORM<TAB>MS<TAB>TFLOP/S

FORM: linear (F.linear alone: cuBLAS(Lt) with the bias), linear+act (torch eager, two
kernels, as a user would write the layer), compile (torch.compile of linear+act).
TFLOP/s counts 2 M N K.

    python3 layer_anchor.py [--act relu|none|sigmoid|tanh|silu|leaky_relu] M,N,K [M,N,K ...]
"""
import sys
import torch
import torch.nn.functional as F

from mlp_anchor_net import timed  # the networks' anchor's timer: CUDA events, median after warm-ups

torch.manual_seed(0)

ACTS = {"none": lambda y: y, "relu": F.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh,
        "silu": F.silu, "leaky_relu": lambda y: F.leaky_relu(y, 0.01)}
args = sys.argv[1:]
act = "relu"
if len(args) >= 2 and args[0] == "--act":
    act = args[1]
    args = args[2:]
if act not in ACTS:
    sys.exit(f"layer_anchor.py: unknown --act {act} (none, relu, sigmoid, tanh, silu, leaky_relu)")
fa = ACTS[act]
print(f"device {torch.cuda.get_device_name()} torch {torch.__version__}")
with torch.no_grad():
    for a in args or ["1048576,256,256"]:
        m, n, k = map(int, a.split(","))
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        w = torch.randn(n, k, device="cuda", dtype=torch.float16) / k ** 0.5
        b = torch.randn(n, device="cuda", dtype=torch.float16)
        fl = 2.0 * m * n * k
        cf = torch.compile(lambda x: fa(F.linear(x, w, b)))
        for form, fn in (("linear", lambda: F.linear(x, w, b)), ("linear+act", lambda: fa(F.linear(x, w, b))),
                         ("compile", lambda: cf(x))):
            ms = timed(fn, 20)
            print(f"layer\t{m}x{n}x{k}\t{act}\t{form}\t{ms:.4f}\t{fl / ms / 1e9:.1f}", flush=True)
