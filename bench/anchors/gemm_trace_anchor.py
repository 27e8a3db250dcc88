# The trace anchor: the GEMM calls of a `spvgen bench trace` file, in order, through
# torch.matmul (cuBLAS) on the GPU machine, the way a framework runs them: weights made
# once per shape (N x K, as a linear layer stores them), activations per call, first-call
# costs included (the cuBLAS handle, its heuristics for each new shape). Pass 1 is cold
# (a fresh process); pass 2 repeats the trace warm. Prints each call and, per pass, total
# wall ms (host, call to synchronize) and total GPU ms (CUDA events).
# Usage: python3 gemm_trace_anchor.py TRACE_FILE        (bench/trace.sh runs it)
# TYPES AB,ACC[,OUT]: f16 or bf16 inputs accumulate in f32 in cuBLAS; the result is in the
# input type (torch.matmul has no f16 -> f32 output), so f16,f32 rows write half the bytes
# spvgen's f32 D does. s8 rows go through torch._int_mm (s32 out).
import sys, time, torch

def parse(path):
    calls = []
    for line in open(path):
        line = line.split('#')[0].split()
        if not line: continue
        m, n, k, types, layout = int(line[0]), int(line[1]), int(line[2]), line[3], line[4]
        calls.append((m, n, k, types.split(',')[0], layout))
    return calls

dt = {'f16': torch.float16, 'bf16': torch.bfloat16, 'f32': torch.float32, 's8': torch.int8}

def run(calls, weights, acts, label):
    rows, wall, gpu = [], 0.0, 0.0
    for i, (m, n, k, t, layout) in enumerate(calls):
        w, x = weights[(n, k, t, layout)], acts[i]
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        s.record()
        if t == 's8': y = torch._int_mm(x, w.t() if layout[1] == 't' else w)
        else: y = torch.matmul(x, w.t() if layout[1] == 't' else w)
        e.record(); torch.cuda.synchronize()
        ms_wall = (time.perf_counter() - t0) * 1e3; ms_gpu = s.elapsed_time(e)
        wall += ms_wall; gpu += ms_gpu
        rows.append((i + 1, m, n, k, ms_wall, ms_gpu, 2.0 * m * n * k / (ms_gpu * 1e9) if ms_gpu > 0 else 0))
    print(f"\n{label}")
    print("|   # |     M |     N |     K |  wall ms |   GPU ms | TFLOP/s |")
    print("|-----|-------|-------|-------|----------|----------|---------|")
    for r in rows: print("| %3d | %5d | %5d | %5d | %8.3f | %8.3f | %7.1f |" % r)
    print(f"total wall ms: {wall:.1f}  total GPU ms: {gpu:.3f}")
    return wall, gpu

calls = parse(sys.argv[1] if len(sys.argv) > 1 else 'bench/traces/qwen2-7b-prefill.txt')
t0 = time.perf_counter(); torch.cuda.init(); torch.zeros(1, device='cuda'); torch.cuda.synchronize()
print(f"device {torch.cuda.get_device_name()} torch {torch.__version__} cuda {torch.version.cuda}; "
      f"CUDA context {1e3 * (time.perf_counter() - t0):.1f} ms (not in the totals)")
torch.manual_seed(0)
weights, acts = {}, []
for m, n, k, t, layout in calls:
    key = (n, k, t, layout)
    if key not in weights:
        shape = (n, k) if layout[1] == 't' else (k, n)
        weights[key] = (torch.randint(-8, 8, shape, device='cuda', dtype=torch.int8) if t == 's8'
                        else torch.randn(shape, device='cuda', dtype=dt[t]))
    acts.append(torch.randint(-8, 8, (m, k), device='cuda', dtype=torch.int8) if t == 's8'
                else torch.randn(m, k, device='cuda', dtype=dt[t]))
torch.cuda.synchronize()
w1, g1 = run(calls, weights, acts, "pass 1 (cold: first calls of this process, cuBLAS handle and heuristics included)")
w2, g2 = run(calls, weights, acts, "pass 2 (warm)")
print(f"\nsummary calls={len(calls)} cold_wall_ms={w1:.1f} cold_gpu_ms={g1:.3f} warm_wall_ms={w2:.1f} warm_gpu_ms={g2:.3f}")
