#!/usr/bin/env bash
# The image-transform session on a GPU machine in one command: 2D C2C and 1D/2D R2C kernels
# (generated beforehand from bench/plans/perf_2d.json: the GPU machine has no glslang) verified,
# timed, and compared with VkFFT and cuFFT, with the small grids in µs per call.
#
# usage: bash bench/run_images.sh BUILD_DIR KERNELS_DIR OUT_DIR
#   BUILD_DIR    has runtime/fftgen-vk, bench/fftgen-bench, bench/fftgen-vkfft-check
#   KERNELS_DIR  e.g. build/generator/fftgen bench/plans/perf_2d.json -o kernels/perf_2d
#   OUT_DIR      gets summary.md, log.txt (every step's output, appended as it runs),
#                commands.txt and images.tar.gz (all of it, raw JSON included); rewritten after
#                every step, so a session cut short still leaves what it measured
# Environment (defaults are the H100 session's; small values make a CPU check):
#   ELEMENTS=67108864     complex64 values' worth of input bytes per case (512 MiB)
#   TRIALS=7 CALLS=20     timing of the bandwidth cases; GRID_CALLS=200 for the small grids
#   GRIDS=256x256x1,512x512x1,512x512x4,1024x1024x1   small 2D C2C grids (HxWxbatch)
#   PEER_R2C=65536        1D R2C lengths the peers run even where the plan has no kernel
#   FULL_VERIFY_POINTS=1048576   kernels up to this many points verified with batches 1,3;
#                                larger ones with batch 1 (FFTW in double is the slow part)
#   TIME_BUDGET=330       seconds for all steps; each step's `timeout` is the smaller of its
#                         own cap (T_VERIFY, T_BENCH, T_COMPARE, T_CUFFT, T_GRIDS) and what is left
#   PYTHON=python3        for cufft_bench.py (numpy, CuPy; skipped without CuPy)
#   WORK_DIR              where the raw results are kept (default: a fresh folder under /tmp)
set -u
usage="usage: bash bench/run_images.sh BUILD_DIR KERNELS_DIR OUT_DIR"
case "${1:-}" in -h|--help) sed -n '2,26p' "$0"; exit 0 ;; esac
[ $# -eq 3 ] || { echo "$usage" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
build=$(cd "$1" && pwd) || { echo "run_images.sh: no build folder '$1'" >&2; exit 1; }
kernels=$(cd "$2" && pwd) || { echo "run_images.sh: no kernels folder '$2'" >&2; exit 1; }
[ -f "$kernels/manifest.json" ] || { echo "run_images.sh: no manifest.json in $kernels" >&2; exit 1; }
mkdir -p "$3" && out=$(cd "$3" && pwd) || { echo "run_images.sh: cannot make '$3'" >&2; exit 1; }

elements=${ELEMENTS:-67108864}
trials=${TRIALS:-7}
calls=${CALLS:-20}
grid_calls=${GRID_CALLS:-200}
grids=${GRIDS:-256x256x1,512x512x1,512x512x4,1024x1024x1}
peer_r2c=${PEER_R2C:-65536}
full_verify_points=${FULL_VERIFY_POINTS:-1048576}
budget=${TIME_BUDGET:-330}
python=${PYTHON:-python3}
work=${WORK_DIR:-$(mktemp -d /tmp/fftgen-images.XXXXXX)}
mkdir -p "$work" && work=$(cd "$work" && pwd)
vk="$build/runtime/fftgen-vk"
bench="$build/bench/fftgen-bench"
vkfft_check="$build/bench/fftgen-vkfft-check"
export PYTHONUNBUFFERED=1
log="$work/log.txt"
cmds="$work/commands.txt"
: > "$log"; : > "$cmds"; : > "$work/steps.tsv"; : > "$work/session.tsv"
cp "$kernels/manifest.json" "$work/manifest.json"
deadline=$(( $(date +%s) + budget ))
failed=0

fact() {  # fact KEY VALUE: a line of the summary's header, and of commands.txt
  printf '%s\t%s\n' "$1" "$2" >> "$work/session.tsv"
  echo "$1: $2" | tee -a "$cmds" >> "$log"
}

# summary.md, log.txt, commands.txt and the archive in OUT_DIR, from what is there so far.
publish() {
  python3 "$here/images.py" summary "$work" --out "$work/summary.md" 2>> "$log" \
    || echo "(summary failed: see log.txt)" > "$work/summary.md"
  cp "$work/summary.md" "$log" "$cmds" "$out/"
  # One folder, images/, whatever WORK_DIR is called.
  tar -czf "$out/images.tar.gz.part" -C "$(dirname "$work")" --transform "s,^$(basename "$work"),images," \
    "$(basename "$work")" && mv "$out/images.tar.gz.part" "$out/images.tar.gz"
}

# step NAME CAP LOGFILE CMD...: runs CMD under `timeout` (CAP, or what is left of the budget),
# its output into LOGFILE and appended to log.txt as it comes, then records and publishes.
step() {
  local name=$1 cap=$2 logfile="$work/$3"; shift 3
  local left=$(( deadline - $(date +%s) ))
  if [ "$left" -lt 5 ]; then
    echo "=== $name: skipped, the time budget (${budget}s) is spent" | tee -a "$log"
    printf '%s\tskipped\t0\n' "$name" >> "$work/steps.tsv"
    failed=1
    return
  fi
  local t=$(( cap < left ? cap : left ))
  printf '$ timeout %s' "$t" >> "$cmds"; printf ' %q' "$@" >> "$cmds"; echo >> "$cmds"
  echo "=== $name (timeout ${t}s)" | tee -a "$log"
  local start=$(date +%s)
  : > "$logfile"
  # A pipeline, not `> >(tee ...)`: bash waits for tee, so the logs are complete when it returns.
  timeout -k 10 "$t" "$@" 2>&1 | tee -a "$logfile" "$log"
  local rc=${PIPESTATUS[0]}
  local seconds=$(( $(date +%s) - start ))
  echo "  -> exit $rc after ${seconds}s" | tee -a "$cmds" "$log"
  printf '%s\t%s\t%s\n' "$name" "$rc" "$seconds" >> "$work/steps.tsv"
  [ "$rc" -eq 0 ] || failed=1
  publish
}

# --- where, when, what ------------------------------------------------------------------------
fact date "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
fact commit "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown) ($(git -C "$repo" status --porcelain 2>/dev/null | wc -l) changed files)"
if command -v nvidia-smi > /dev/null 2>&1; then
  fact gpu "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null | head -1)"
  nvidia-smi > "$work/nvidia-smi.txt" 2>&1
fi
fact "Vulkan devices" "$("$vk" devices 2>&1 | tr '\n' ';')"
fact kernels "$kernels ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("generator", "?"))' "$kernels/manifest.json" 2>/dev/null))"
fact settings "ELEMENTS=$elements TRIALS=$trials CALLS=$calls GRID_CALLS=$grid_calls GRIDS=$grids TIME_BUDGET=$budget"

# What to run, from one read of the manifest (one line each).
{
  read -r verify_small; read -r verify_big; read -r c2c_1d; read -r c2c_2d; read -r r2c_1d
  read -r r2c_2d; read -r grid_kernels; read -r largest_transform
} < <(python3 "$here/images.py" cases "$kernels" --grids "$grids" \
        --full-verify-points "$full_verify_points" 2>> "$log")
# Peer-only R2C lengths: those of PEER_R2C the plan has no kernel of.
extra_r2c=$(python3 -c 'import sys; have = sys.argv[1].split(","); print(",".join(n for n in sys.argv[2].split(",") if n and n not in have))' "$r2c_1d" "$peer_r2c")
echo "sizes: c2c 1D [$c2c_1d] 2D [$c2c_2d]; r2c 1D [$r2c_1d] 2D [$r2c_2d]; peers only: r2c [$extra_r2c]" | tee -a "$log"
publish

# --- fftgen-vk verify: both directions of every kernel against FFTW in double -------------------
# shellcheck disable=SC2086 # kernel names are one word each
[ -n "$verify_small" ] && step "verify (batches 1,3)" "${T_VERIFY:-100}" verify_small.txt \
  "$vk" verify "$kernels" $verify_small --batches 1,3 --json "$work/verify_small.json"
# shellcheck disable=SC2086
[ -n "$verify_big" ] && step "verify (large: batch 1)" "${T_VERIFY:-100}" verify_big.txt \
  "$vk" verify "$kernels" $verify_big --batches 1 --json "$work/verify_big.json"

# --- fftgen-vk bench: every kernel, 512 MiB ---------------------------------------------------
# (The buffer holds at least one transform of each kernel, for small ELEMENTS.)
bench_bytes=$(( elements * 8 > ${largest_transform:-0} ? elements * 8 : largest_transform ))
step "fftgen-vk bench" "${T_BENCH:-60}" bench.txt \
  "$vk" bench "$kernels" --bytes "$bench_bytes" --trials "$trials" --calls "$calls" \
  --json "$work/bench.json"

# --- small grids: fftgen's time per call over GRID_CALLS back-to-back calls ---------------------
for entry in $grid_kernels; do
  kernel=${entry%%:*}; grid=${entry#*:}
  IFS=x read -r h w b <<< "$grid"
  step "grid $grid: fftgen-vk bench" "${T_GRIDS:-20}" "grid_fftgen_$grid.txt" \
    "$vk" bench "$kernels" "$kernel" --bytes "$(( h * w * b * 8 ))" --trials "$trials" \
    --calls "$grid_calls" --json "$work/grid_fftgen_$grid.json"
done

# --- fftgen, VkFFT and the copy floor in one process, same input -------------------------------
step "fftgen-bench compare" "${T_COMPARE:-120}" compare.txt \
  "$bench" compare "$kernels" --elements "$elements" --trials "$trials" --calls "$calls" \
  --json "$work/compare.json"
for entry in $grid_kernels; do
  kernel=${entry%%:*}; grid=${entry#*:}
  step "grid $grid: fftgen-bench compare" "${T_GRIDS:-20}" "grid_compare_$grid.txt" \
    "$bench" compare "$kernels" --kernels "$kernel" --batch "${grid##*x}" --trials "$trials" \
    --calls "$grid_calls" --json "$work/grid_compare_$grid.json"
done
[ -n "$extra_r2c" ] && step "VkFFT R2C $extra_r2c" "${T_GRIDS:-20}" vkfft_r2c.txt \
  "$vkfft_check" --r2c --sizes "$extra_r2c" --elements "$elements" --trials "$trials" \
  --calls "$calls" --max-error 0 --json "$work/vkfft_r2c.json"

# --- cuFFT: the same cases, and the grids -------------------------------------------------------
if "$python" -c "import cupy" > /dev/null 2>&1; then
  all_r2c=$(echo "$r2c_1d,$extra_r2c" | sed 's/^,//; s/,$//')
  step "cuFFT" "${T_CUFFT:-90}" cufft.txt \
    "$python" "$here/cufft_bench.py" --sizes "$c2c_1d" --sizes-2d "$c2c_2d" --r2c "$all_r2c" \
    --r2c-2d "$r2c_2d" --elements "$elements" --trials "$trials" --calls "$calls" \
    --json "$work/cufft.json"
  step "cuFFT grids" "${T_GRIDS:-20}" cufft_grids.txt \
    "$python" "$here/cufft_bench.py" --sizes "" --sizes-2d "" --grids "$grids" \
    --elements "$elements" --trials "$trials" --calls "$grid_calls" --json "$work/cufft_grids.json"
else
  echo "=== cuFFT: skipped ($python cannot import cupy)" | tee -a "$log"
  printf 'cuFFT\tskipped (no CuPy)\t0\n' >> "$work/steps.tsv"
fi

echo "summary: $out/summary.md; everything: $out/images.tar.gz" | tee -a "$log"
publish
exit "$failed"
