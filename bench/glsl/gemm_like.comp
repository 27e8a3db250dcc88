// bench/glsl/gemm_like.comp — the kernel bench_emit builds with the builder (bench/emit.c),
// written in GLSL for the reference measurement of bench/emit_vs_glslang.sh: the same
// buffers, push constants, bounds check, K loop unrolled UNROLL times (1 or 4) with 4
// accumulators and fma, and the guarded epilogue with alpha. Not part of any spvgen path.
#version 450
layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) buffer C { float c[]; };
layout(push_constant) uniform Push { uint n; float alpha; } p;
#ifndef UNROLL
#define UNROLL 4
#endif
#define STEP(u)                                                   \
  {                                                               \
    uint ku = k + u;                                              \
    float av = a[row_base + ku];                                  \
    uint brow = ku * n;                                           \
    acc0 = fma(av, b[brow + col], acc0);                          \
    acc1 = fma(av, b[brow + col + 1u], acc1);                     \
    acc2 = fma(av, b[brow + col + 2u], acc2);                     \
    acc3 = fma(av, b[brow + col + 3u], acc3);                     \
  }
#define STORE(j, accj)                                            \
  if (col + j < n) {                                              \
    uint ci = row_base + col + j;                                 \
    if (unit) c[ci] = accj; else c[ci] = accj * alpha;            \
  }
void main() {
  uint col = gl_GlobalInvocationID.x * 4u;
  uint row = gl_GlobalInvocationID.y;
  uint n = p.n;
  if (row >= n || col >= n) return;
  uint row_base = row * n;
  float acc0 = 0.0, acc1 = 0.0, acc2 = 0.0, acc3 = 0.0;
  for (uint k = 0u; k < n; k += UNROLL) {
    STEP(0u)
#if UNROLL >= 4
    STEP(1u)
    STEP(2u)
    STEP(3u)
#endif
  }
  float alpha = p.alpha;
  bool unit = alpha == 1.0;
  STORE(0u, acc0)
  STORE(1u, acc1)
  STORE(2u, acc2)
  STORE(3u, acc3)
}
