#!/bin/bash
# Call S7-5 (session 7), as run (build-gpu/call5.sh): the grid's layers class (callS7-G.sh), then the
# two GPU tests the S7-3 limit cut short, with longer limits. Run from the repo root with
# build-gpu/ and .gl carried; $OUT collects the outputs.
# References: callS7-G.sh states its own; the tests check every element against float64.
OUT=$OUT/G timeout 230 bash bench/results/raw/calls/callS7-G.sh > $OUT/G.log 2>&1; echo "G rc=$?"
mkdir -p $OUT/T; B=build-gpu; . scripts/gpu-env.sh; gpu_env_vulkan call5 >/dev/null 2>&1
for t in "gpu_test_gpu_gemm test_gemm_khr_splitk_matches_cpu 170" "gpu_test_gpu_gemm test_gemm_long_k_matches_cpu 290"; do
  set -- $t; s=$SECONDS
  timeout $3 "$B/tests/$1" "$2" > "$OUT/T/$2.txt" 2>&1
  echo "$1 $2 exit $? $((SECONDS - s)) s: $(tail -1 "$OUT/T/$2.txt")" | tee -a "$OUT/T.log"
done
cd $OUT && tar czf all.tgz --exclude=all.tgz . && find . -mindepth 1 ! -name all.tgz ! -name "*.log" -exec rm -rf {} + ; ls $OUT
