#!/usr/bin/env bash
# scripts/gpu-mlp.sh — issue 28's fused-MLP measurements in ONE GPU call of at most 10
# minutes (the steps' time limits add up to 9 minutes), from binaries built elsewhere
# (scripts/gpu-check --build: build-gpu/ with bench/ and samples/; carry .gl and
# build-gpu), everything under $OUT in at most 8 files:
#
#   1. the networks of the grid with their point counts (bench_mlp_grid --write-nets), and
#      torch eager / torch.compile on them (bench/anchors/mlp_anchor_net.py: same networks,
#      same point counts)                                   -> grid-nets.txt, grid-anchor.*
#   2. the grid (bench_mlp_grid): a compile phase on the cores less one (every plan's
#      pipeline, each thread with a Vulkan context of its own, into one pipeline cache),
#      then every network measured from that cache, the plan's choice audited, the ratio
#      to torch.compile                                     -> grid.txt, grid.md, grid.tsv
#   3. the variant choice and the compile-time model refitted from that grid
#      (tools/gen_mlp_select.py: emitters/mlp/select_table.c with the leave-one-out audit)
#                                                           -> select_table.c, select-audit.txt
#   4. training of three grid networks and 64-256x3-64 next to torch eager / compile
#      (bench_mlp_train --grid3)                            -> train3.txt
#   5. the hash grid: inference and training next to its torch implementation
#      (bench_mlp_hashgrid)                                 -> hashgrid.txt
#   6. samples/mlp-fit-image: PSNR and time, frequency encoding vs hash grid
#                                                           -> fit-image.txt, *.png
# Files in $OUT: gpu-mlp.log (the summary), grid.md, grid.tsv, select-audit.txt,
# select_table.c, and mlp-results.tar with everything (the files above, the device's
# caps, nvidia-smi's clocks).
#
# Usage (on the GPU machine, from the repo root):
#   bash scripts/gpu-mlp.sh [--only grid,train,hashgrid,sample,tests] [--wall S]
#                           [--grid-budget S] [--tests NAME] [--quick]
# --wall: the whole run's limit (default 560 s); each step's time limit is cut to what is
# left of it, so the call ends before the device's 10 minutes. --grid-budget: the grid's
# (default 270 s; its compile phase at most 100 s of it). --only tests runs the MLP GPU
# tests instead (each test its own process, 12 at a time, at most 330 s each: a call of
# its own; not in the default). --tests NAME[,NAME...]: only these test binaries of
# build-gpu/tests (e.g. gpu_test_gpu_mlp_train,mlp_test_mlp_run), each test at most 200 s.
# --quick: a smoke run of the same steps at lavapipe sizes (torch steps skipped where
# there is no torch). The driver's shader disk cache is off (__GL_SHADER_DISK_CACHE=0)
# and spvgen's pipeline cache is a fresh directory: compile times are first compiles.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

only="grid,train,hashgrid,sample"
wall=560
grid_budget=270
tests_bin=
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=${2:?}; shift ;;
    --wall) wall=${2:?}; shift ;;
    --grid-budget) grid_budget=${2:?}; shift ;;
    --tests) tests_bin=${2:?}; shift ;;
    --quick) quick=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-mlp: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
want() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

OUT=${OUT:-/tmp/gpu-mlp}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/gpu-mlp.XXXXXX) # everything, bundled into $OUT/mlp-results.tar at the end
B=build-gpu
[ -d "$B" ] || B=build
log="$W/gpu-mlp.log"
: > "$log"
say() { echo "$@" | tee -a "$log"; }

T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan gpu-mlp || { say "gpu-mlp: no Vulkan loader (above)"; exit 1; }
[ -d /usr/local/nvidia ] && export SPVGEN_GPU_REQUIRED=1
export __GL_SHADER_DISK_CACHE=0 SPVGEN_CLI="$PWD/$B/tools/spvgen" SPVGEN_SOURCE_DIR="$PWD"
SPVGEN_PIPELINE_CACHE=$(mktemp -d /tmp/spvgen-cache.XXXXXX) # a cold cache for every step
export SPVGEN_PIPELINE_CACHE
anchor=bench/anchors/mlp_anchor_net.py
q=()
if [ $quick = 1 ]; then q=(--quick); fi
have_torch=0
python3 -c "import torch; assert torch.cuda.is_available()" > /dev/null 2>&1 && have_torch=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader 2>/dev/null | tee -a "$log"
SMI=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,pstate,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 500 > "$W/smi.csv" 2>&1 &
  SMI=$!
fi
[ $have_torch = 1 ] && python3 -c "import torch; print('torch', torch.__version__)" 2>&1 | tail -n 1 | tee -a "$log"
"$B/tools/spvgen" devices --json > "$W/devices.json" 2>> "$log"
rc_all=0
left() { echo $((wall - (SECONDS - T0))); }
step() { # step NAME LIMIT CMD...: CMD with LIMIT seconds (cut to the wall), output to $W/NAME.txt
  local name=$1 limit=$2; shift 2
  local l; l=$(left)
  [ "$limit" -gt "$l" ] && limit=$l
  if [ "$limit" -lt 10 ]; then
    say "== $name: not run (${l} s of the wall left)"
    rc_all=1
    return 0
  fi
  local t0=$SECONDS
  timeout "$limit" "$@" > "$W/$name.txt" 2>&1
  local rc=$?
  say "== $name: exit $rc after $((SECONDS - t0)) s (limit $limit s, at $((SECONDS - T0)) s)"
  [ $rc = 0 ] || rc_all=1
  return 0
}

if want tests; then # the MLP GPU tests, each test its own process, 12 at a time (not in the default run)
  # one process per test (the harness's --list), as scripts/gpu-gemm.sh --call does: a
  # binary run whole did not finish beside the others in one call (2026-11-26 call E)
  tl=330
  bins=("$B"/tests/gpu_test_gpu_mlp*)
  if [ -n "$tests_bin" ]; then
    bins=()
    for n in ${tests_bin//,/ }; do bins+=("$B/tests/$n"); done
    tl=200
  fi
  for bin in "${bins[@]}"; do
    for t in $("$bin" --list); do echo "$bin $t"; done
  done > "$W/test-list.txt"
  lim=$(left); [ "$lim" -gt $tl ] && lim=$tl
  xargs -P 12 -L 1 sh -c 'c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout '"$lim"' "$0" "$1" > "$0.$1.log" 2>&1; echo "$1 exit $?" >> "$0.$1.log"; rm -rf "$c"' < "$W/test-list.txt"
  for b in "${bins[@]}"; do
    for f in "$b".*.log; do
      [ -f "$f" ] || continue
      echo "=== $f"; grep -E "^(FAIL|SKIP)|passed, [0-9]+ failed| exit " "$f"
    done
  done > "$W/tests.txt"
  grep -c " exit 0$" "$W/tests.txt" | sed 's/$/ tests passed/' | tee -a "$log"
  grep -E " exit [1-9]|^FAIL" "$W/tests.txt" | tee -a "$log"
fi

if want grid; then
  "$B/bench/bench_mlp_grid" "${q[@]}" --write-nets "$W/grid-nets.txt" >> "$log" 2>&1
  : > "$W/grid-anchor.tsv"
  if [ $have_torch = 1 ]; then
    step grid-anchor 75 python3 "$anchor" --nets "$W/grid-nets.txt" --out "$W/grid-anchor.tsv" --reps 10 --budget 60
    grep -c "" "$W/grid-anchor.tsv" | sed 's/^/anchor rows: /' | tee -a "$log"
  fi
  gb=$grid_budget
  [ $((gb + 15)) -gt "$(left)" ] && gb=$(($(left) - 15))
  cb=$((gb * 37 / 100)) # the compile phase: at most 100 s of 270
  step grid $((gb + 10)) "$B/bench/bench_mlp_grid" "${q[@]}" --anchor-results "$W/grid-anchor.tsv" \
    --tsv "$W/grid.tsv" --md "$W/grid.md" --budget "$gb" --compile-budget "$cb"
  grep -E "^# (compile phase|[0-9]+ plans|[0-9]+ networks)" "$W/grid.txt" | tee -a "$log"
  python3 tools/gen_mlp_select.py "$W/grid.tsv" --out "$W/select_table.c" > "$W/select-audit.txt" 2>&1
  grep -E "^(==|model|compile|UNDER)" "$W/select-audit.txt" | tee -a "$log"
fi

a=(--anchor "$anchor")
[ $have_torch = 1 ] || a=()
if want train; then
  if [ $quick = 1 ]; then p=(--points 1000 --steps 2 --warmup 1); else p=(--points 262144 --steps 20 --warmup 5); fi
  # 120 s beside the grid; alone, the whole network set (about 150 s on the H100 for the
  # three narrower networks, the loop variant's slow rows included; 64-256x3-64's rows
  # and 16-128x3-3's chunks-of-16 row come on top) fits in 300 s
  tl=120
  want grid || tl=300
  step train3 $tl "$B/bench/bench_mlp_train" --grid3 "${p[@]}" "${a[@]}"
  grep -E "^\| (issue|a-|b-)" "$W/train3.txt" | cut -c1-220 | tee -a "$log"
fi

if want hashgrid; then
  # spvgen's rows (about 30 s on the H100 with one training row per variant; the f32 and
  # f16 table gradients double those), then the torch anchor under its --anchor-cap (40 s:
  # eager and compiled, inference and training) and the interpreter's start; the rows are
  # printed as measured ("# measured:"), so a cut-short step keeps them. 110 s beside the
  # grid; alone 160 s
  h=("${a[@]}")
  [ ${#a[@]} -gt 0 ] && h+=(--anchor-cap 40)
  hl=110
  want grid || hl=160
  step hashgrid $hl "$B/bench/bench_mlp_hashgrid" "${q[@]}" "${h[@]}"
  grep -E "^\| ngp|^# measured" "$W/hashgrid.txt" | cut -c1-300 | tee -a "$log"
fi

if want sample; then
  step fit-image 45 "$B/samples/mlp-fit-image" "$W"
  grep -E "^fit " "$W/fit-image.txt" | tee -a "$log"
fi
[ -n "$SMI" ] && kill "$SMI" 2> /dev/null
say "== gpu-mlp done in $((SECONDS - T0)) s, exit $rc_all"
# At most 8 files come back from the device: the summary, the grid's tables, the refit,
# and one tar of everything.
for f in grid.md grid.tsv select-audit.txt select_table.c; do [ -f "$W/$f" ] && cp "$W/$f" "$OUT/"; done
cp "$log" "$OUT/gpu-mlp.log"
tar -C "$W" -cf "$OUT/mlp-results.tar" . 2>> "$OUT/gpu-mlp.log"
rm -rf "$SPVGEN_PIPELINE_CACHE"
exit $rc_all
