#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s16/callS16-3/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-27-s16/
# First compiles: every `bench mlp` process starts with an empty driver and spvgen cache (its compile column is a first compile)
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process, the same networks and point counts), this call; main at 1a60f6a (build-gpu/main/spvgen) in the same call
# Call S16-3: what users get. The regenerated selection table and output_path staged by
# default (vec, 64-byte points and longer) against main, weights auto and row-major, with
# torch beside them; the MLP GPU tests on the new build.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s16-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS16-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
for t in test_mlp_output_staged_matches_cpu test_mlp_chosen_plans_matches_cpu test_mlp_vec_matches_cpu \
         test_mlp_vec_two_and_four_points_per_invocation_matches_cpu test_mlp_vec_bias_add_matches_cpu \
         test_mlp_mat_matches_cpu test_mlp_vec_structure_knobs_matches_cpu test_mlp_hash_grid_every_variant_matches_cpu; do
  timeout 100 $B/tests/gpu_test_gpu_mlp $t > "$O/test-$t.txt" 2>&1
  echo "$t rc=$? $(tail -1 "$O/test-$t.txt")"
done
timeout 120 $B/tests/gpu_test_gpu_mlp_bda > "$O/test-gpu_mlp_bda.txt" 2>&1
echo "gpu_test_gpu_mlp_bda rc=$? $(tail -1 "$O/test-gpu_mlp_bda.txt")"
echo "tests done $((SECONDS - T0)) s"
NETS=(
  "c-1-16x1-64	--in 1 --out 64 --hidden 16 --act tanh	8388608	auto row"
  "c-1-16x8-64	--in 1 --out 64 --hidden 16,16,16,16,16,16,16,16 --act sigmoid	8388608	auto"
  "c-64-16x1-64	--in 64 --out 64 --hidden 16 --act relu	4194304	auto row"
  "c-64-16x8-64	--in 64 --out 64 --hidden 16,16,16,16,16,16,16,16 --act silu	4194304	auto"
  "o-32-64x4-64	--in 32 --out 64 --hidden 64,64,64,64 --act relu	4194304	auto"
  "issue-64-64x5-64	--in 64 --out 64 --hidden 64,64,64,64,64 --act relu	2097152	auto"
  "k-64-128x4-64	--in 64 --out 64 --hidden 128,128,128,128 --act tanh	1048576	auto"
  "k-32-128x5-32	--in 32 --out 32 --hidden 128,128,128,128,128 --act relu	1048576	auto"
)
for line in "${NETS[@]}"; do
  IFS=$'\t' read -r name flags pts modes <<< "$line"
  for w in $modes; do
    for b in main new; do
      bin=$B/tools/spvgen; [ $b = main ] && bin=$B/main/spvgen
      wf=; [ $w = row ] && wf="--weights row"
      { echo "== $name $w $b: bench mlp $flags $wf --points $pts --variants auto"
        fresh timeout 50 $bin bench mlp $flags $wf --points $pts --variants auto --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
      cat "$O/cur.txt" >> "$O/rows.txt"
      printf '%-18s %-4s %-4s %s\n' $name $w $b "$(grep -E '^auto |rc=[^0]|rror' "$O/cur.txt" | cut -c1-150 | tr '\n' ' ')"
    done
  done
done
rm -f "$O/cur.txt"
echo "rows done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" | cut -f1-3 > "$O/nets.tsv"
timeout 200 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 190 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
echo "total $((SECONDS - T0)) s"
