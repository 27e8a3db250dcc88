#!/bin/bash
# Call S11-5: shapes nobody tuned for (bench_gemm_shapes --set random: 21 FIXED shapes drawn at random,
# each default plan), the session's build beside main's
# (1f53321, bench/bench_gemm_shapes-main, the same bench source), each binary in its own
# process with an empty driver cache (compile column: first compiles).
# References: cuBLAS (gemm_anchor.py, "# anchor:" lines) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS11-5 > /dev/null || exit 1
O=${OUT:-/tmp/callS11-5}/s11-5; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
n=0
for bin in bench_gemm_shapes-main bench_gemm_shapes; do
  n=$((n + 1))
  anchor=(); [ $n = 2 ] && anchor=(--anchor "$B/anchors/gemm_anchor.py")
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  timeout 200 stdbuf -oL "$B/bench/$bin" --set random "${anchor[@]}" --deadline-s 180 > "$O/random-$n-$bin.txt" 2>&1
  echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/random-$n-$bin.txt"
done
cd "$O/.." && tar czf s11-5.tgz s11-5 && rm -rf s11-5
