#!/usr/bin/env bash
# scripts/gpu-mlp.sh — issue 28's fused-MLP measurements in one GPU call (about 8 minutes
# on an H100 or H200), from binaries built elsewhere (scripts/gpu-check --build: build-gpu/
# with the gpu tests, bench/ and samples/), every output under $OUT:
#
#   1. the MLP GPU tests (gpu_test_gpu_mlp, gpu_test_gpu_mlp_train): the hash grid on every
#      variant, width 256, the plans spvgen_mlp_plan chooses, training of three grid
#      networks on vec / mat / loop and of the hash grid                  -> tests-*.txt
#   2. the grid of networks (bench_mlp_grid): torch eager / torch.compile for every network
#      first (bench/anchors/mlp_anchor_net.py, same networks and point counts), then every
#      variant class, the plan's choice audited, the ratio to torch.compile
#                                                     -> grid.txt, grid.md, grid.tsv, grid-anchor.tsv
#   3. the variant choice refitted from that grid (tools/gen_mlp_select.py: the table and
#      the cost model for emitters/mlp/select_table.c, with the leave-one-out audit)
#                                                     -> select_table.c, select-audit.txt
#   4. the hash grid: inference and training next to its torch implementation
#      (bench_mlp_hashgrid)                                               -> hashgrid.md
#   5. training of the three grid networks next to torch eager / compile
#      (bench_mlp_train --grid3)                                          -> train3.md
#   6. samples/mlp-fit-image: PSNR and time, frequency encoding vs hash grid -> fit-image.*
#
# Usage (on the GPU machine, from the repo root; carry .gl and build-gpu):
#   bash scripts/gpu-mlp.sh [--only tests,grid,hashgrid,train,sample] [--grid-budget S]
#                           [--anchor-budget S] [--quick]
# (--quick: a smoke run of the same steps at lavapipe sizes, torch steps skipped where
# there is no torch.) Split into two calls with --only if a call must be shorter; if the
# grid or its anchor list networks as skipped (their budgets: torch.compile compiles each
# network, a few seconds apiece), a second call with `--only grid --grid-budget 330
# --anchor-budget 200` measures all 51.
# A step's time limit keeps the whole within about 8 minutes; the grid and its anchor also
# stop starting networks at their budgets (the rest are listed as skipped). The driver's
# shader disk cache is off (__GL_SHADER_DISK_CACHE=0): compile times are first compiles.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

only="tests,grid,hashgrid,train,sample"
grid_budget=200
anchor_budget=150
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=${2:?}; shift ;;
    --grid-budget) grid_budget=${2:?}; shift ;;
    --anchor-budget) anchor_budget=${2:?}; shift ;;
    --quick) quick=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-mlp: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
want() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

OUT=${OUT:-/tmp/gpu-mlp}
mkdir -p "$OUT"
B=build-gpu
[ -d "$B" ] || B=build
log="$OUT/gpu-mlp.log"
: > "$log"
say() { echo "$@" | tee -a "$log"; }

if [ -d /usr/local/nvidia ]; then # the NVIDIA machine: the carried Vulkan loader (docs/gpu.md)
  for f in .gl/*.deb; do dpkg -x "$f" / || { say "gpu-mlp: dpkg -x $f failed"; exit 1; }; done
  ldconfig
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
fi
export __GL_SHADER_DISK_CACHE=0 SPVGEN_CLI="$PWD/$B/tools/spvgen" SPVGEN_SOURCE_DIR="$PWD"
anchor=bench/anchors/mlp_anchor_net.py
q=()
if [ $quick = 1 ]; then q=(--quick); fi
have_torch=0
python3 -c "import torch" > /dev/null 2>&1 && have_torch=1
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader 2>/dev/null | tee -a "$log"
python3 -c "import torch; print('torch', torch.__version__)" 2>&1 | tail -n 1 | tee -a "$log"
# the device as the runner sees it (tests/data/h100-devices.json must equal it on the H100:
# the preset gained shaderBufferFloat32AtomicAdd)
"$B/tools/spvgen" devices --json > "$OUT/devices.json" 2>> "$log"
grep -o '"shaderBufferFloat32AtomicAdd"' "$OUT/devices.json" | head -n 1 | sed 's/^/device reports /' | tee -a "$log"
rc_all=0
step() { # step NAME LIMIT CMD...: runs CMD with a time limit, output to $OUT/NAME.txt
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.txt" 2>&1
  local rc=$?
  say "== $name: exit $rc after $((SECONDS - t0)) s (at $((SECONDS - T0)) s)"
  [ $rc = 0 ] || rc_all=1
  return 0
}

if want tests; then
  step tests-gpu-mlp 120 "$B/tests/gpu_test_gpu_mlp"
  step tests-gpu-mlp-train 100 "$B/tests/gpu_test_gpu_mlp_train"
  grep -hE "^(FAIL|SKIP)|passed, [0-9]+ failed" "$OUT"/tests-*.txt | tee -a "$log"
fi

if want grid; then
  "$B/bench/bench_mlp_grid" "${q[@]}" --write-nets "$OUT/grid-nets.txt" >> "$log" 2>&1
  : > "$OUT/grid-anchor.tsv"
  [ $have_torch = 1 ] && step grid-anchor $((anchor_budget + 60)) python3 "$anchor" --nets "$OUT/grid-nets.txt" \
    --out "$OUT/grid-anchor.tsv" --reps 10 --budget "$anchor_budget"
  step grid $((grid_budget + 60)) "$B/bench/bench_mlp_grid" "${q[@]}" --anchor-results "$OUT/grid-anchor.tsv" \
    --tsv "$OUT/grid.tsv" --md "$OUT/grid.md" --budget "$grid_budget"
  tail -n 1 "$OUT/grid.txt" | tee -a "$log"
  python3 tools/gen_mlp_select.py "$OUT/grid.tsv" --out "$OUT/select_table.c" > "$OUT/select-audit.txt" 2>&1
  grep -E "^(==|model|UNDER)" "$OUT/select-audit.txt" | tee -a "$log"
fi

if want hashgrid; then
  a=(--anchor "$anchor")
  [ $have_torch = 1 ] || a=()
  step hashgrid 100 "$B/bench/bench_mlp_hashgrid" "${q[@]}" "${a[@]}"
  cp "$OUT/hashgrid.txt" "$OUT/hashgrid.md"
  grep -E "^\| ngp" "$OUT/hashgrid.md" | cut -c1-200 | tee -a "$log"
fi

if want train; then
  a=(--anchor "$anchor")
  [ $have_torch = 1 ] || a=()
  if [ $quick = 1 ]; then p=(--points 1000 --steps 2 --warmup 1); else p=(--points 262144 --steps 20 --warmup 5); fi
  step train3 90 "$B/bench/bench_mlp_train" --grid3 "${p[@]}" "${a[@]}"
  cp "$OUT/train3.txt" "$OUT/train3.md"
  grep -E "^\| (issue|a-)" "$OUT/train3.md" | cut -c1-200 | tee -a "$log"
fi

if want sample; then
  step fit-image 60 "$B/samples/mlp-fit-image" "$OUT"
  grep -E "^fit " "$OUT/fit-image.txt" | tee -a "$log"
fi
say "== gpu-mlp done in $((SECONDS - T0)) s, exit $rc_all"
exit $rc_all
