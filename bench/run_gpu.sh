#!/usr/bin/env bash
# The whole GPU measurement in one command: generate (or take) the kernels of a plan, verify
# them, measure fftgen, VkFFT and the copy floor in one process (fftgen-bench compare), cuFFT for
# the same sizes (if CuPy is there), the first-result latency of N = 1024, and the report.
#
# usage: bash bench/run_gpu.sh BUILD_DIR OUT_DIR [PLAN] [--kernels DIR]
#   PLAN          plan to generate with BUILD_DIR/generator/fftgen (default bench/plans/sweep_1d.json)
#   --kernels DIR an already generated folder (manifest.json + .spv), e.g. generated on a build
#                 machine with glslang and carried to a GPU machine that has none; PLAN unused
#   ELEMENTS=...  complex elements per buffer (default 67108864 = 512 MiB; small for a CPU check)
#   TRIALS=7 CALLS=20 RUNS=5 (latency processes per system), LATENCY_N=1024
#
# OUT_DIR gets at most 8 files at its top, the ones worth fetching: table.md, gbps.png,
# compare.json, cufft.json, verify.txt, latency.md, commands.txt, details.tar.gz (logs, JSON of
# verify and latency, the per-kernel table, nvidia-smi). Everything else is under OUT_DIR/work/.
# Every step runs even when an earlier one failed; commands.txt has each exit code.
set -u
usage="usage: bash bench/run_gpu.sh BUILD_DIR OUT_DIR [PLAN] [--kernels DIR]"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
positional=()
kernels_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kernels) kernels_dir=${2:?--kernels needs a folder}; shift 2 ;;
    --kernels=*) kernels_dir=${1#--kernels=}; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) positional+=("$1"); shift ;;
  esac
done
build=${positional[0]:?$usage}
out=${positional[1]:?$usage}
plan=${positional[2]:-$repo/bench/plans/sweep_1d.json}
build=$(cd "$build" && pwd) || { echo "no build folder $build" >&2; exit 1; }
python=${PYTHON:-python3}
elements=${ELEMENTS:-67108864}
trials=${TRIALS:-7}
calls=${CALLS:-20}
latency_n=${LATENCY_N:-1024}
mkdir -p "$out/work/details"
out=$(cd "$out" && pwd)
work="$out/work"
details="$work/details"
cmds="$out/commands.txt"
: > "$cmds"

log() { echo "$*" | tee -a "$cmds"; }
run() {  # run LOGFILE CMD...: record the command, keep its output (also on screen), go on on failure
  local logfile=$1; shift
  printf '$' >> "$cmds"; printf ' %q' "$@" >> "$cmds"; echo >> "$cmds"
  # A pipeline, not `> >(tee ...)`: bash waits for tee, so the log is complete when this returns.
  "$@" 2>&1 | tee "$logfile"
  local rc=${PIPESTATUS[0]}
  echo "  -> exit $rc" >> "$cmds"
  return $rc
}

# --- where, when, what ------------------------------------------------------------------------
log "# fftgen GPU run"
log "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
log "host: $(hostname 2>/dev/null || echo '?')"
commit=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo "unknown (no git)")
dirty=$(git -C "$repo" status --porcelain 2>/dev/null | wc -l)
log "commit: $commit ($dirty changed files in the checkout)"
if command -v nvidia-smi > /dev/null 2>&1; then
  nvidia-smi > "$details/nvidia-smi.txt" 2>&1
  log "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
fi
"$build/runtime/fftgen-vk" devices > "$details/vulkan-devices.txt" 2>&1
log "vulkan devices: $(tr '\n' ';' < "$details/vulkan-devices.txt")"
log "build: $build ($(grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" 2>/dev/null || echo '?'))"
log "elements per buffer: $elements, trials $trials, calls per trial $calls"
log ""

# --- kernels ----------------------------------------------------------------------------------
if [ -n "$kernels_dir" ]; then
  kernels=$(cd "$kernels_dir" && pwd) || { log "no kernels folder $kernels_dir"; exit 1; }
  log "kernels: $kernels (generated elsewhere; generator: $("$python" -c \
      "import json,sys; print(json.load(open(sys.argv[1])).get('generator','?'))" "$kernels/manifest.json" 2>/dev/null))"
else
  kernels="$work/kernels"
  log "kernels: generated from $plan"
  run "$details/generate.txt" "$build/generator/fftgen" "$plan" -o "$kernels" \
    || { log "generation failed: nothing to measure"; exit 1; }
fi
[ -f "$kernels/manifest.json" ] || { log "no $kernels/manifest.json"; exit 1; }
# The distinct sizes of the manifest (for cuFFT) and the kernel the latency test runs, from one
# read of the manifest: one line each (empty when the manifest cannot be read).
{ read -r sizes; read -r latency_kernel; } < <("$python" -c "
import json, sys
forward = [k for k in json.load(open(sys.argv[1]))['kernels'] if 'forward' in k['directions']]
seen = []
for k in forward:
    if k['shape'][-1] not in seen: seen.append(k['shape'][-1])
print(','.join(map(str, seen)))
print(next((k['name'] for k in forward if k['shape'][-1] == int(sys.argv[2])), ''))" \
    "$kernels/manifest.json" "$latency_n")
log "sizes: $sizes"
log ""

# --- verify: every kernel, both directions, batches 1 and 13, against FFTW --------------------
run "$out/verify.txt" "$build/runtime/fftgen-vk" verify "$kernels" --batches 1,13 \
    --json "$details/verify.json"

# --- fftgen, VkFFT and the copy floor in one process ------------------------------------------
run "$details/compare.txt" "$build/bench/fftgen-bench" compare "$kernels" --elements "$elements" \
    --trials "$trials" --calls "$calls" --json "$out/compare.json"

# --- cuFFT, the same sizes --------------------------------------------------------------------
jsons=()
[ -s "$out/compare.json" ] && jsons+=("$out/compare.json")
if "$python" -c "import cupy" > /dev/null 2>&1; then
  run "$details/cufft.txt" "$python" "$here/cufft_bench.py" --sizes "$sizes" --sizes-2d "" \
      --elements "$elements" --trials "$trials" --calls "$calls" --json "$out/cufft.json"
  [ -s "$out/cufft.json" ] && jsons+=("$out/cufft.json")
else
  log "no CuPy: cuFFT skipped"
fi

# --- first-result latency ---------------------------------------------------------------------
if [ -n "$latency_kernel" ]; then
  run "$details/latency.txt" bash "$here/latency.sh" "$build" "$kernels" "$latency_kernel" \
      "$work/latency"
  cp "$work/latency/latency.md" "$out/latency.md" 2> /dev/null
  cp "$work/latency/latency.json" "$details/latency.json" 2> /dev/null
else
  log "no forward kernel of N = $latency_n: latency skipped"
fi

# --- report -----------------------------------------------------------------------------------
if [ ${#jsons[@]} -gt 0 ]; then
  plot_flags=()
  "$python" -c "import matplotlib" > /dev/null 2>&1 || { plot_flags+=(--no-plot); log "no matplotlib: no gbps.png"; }
  run "$details/plot.txt" "$python" "$here/plot.py" "${jsons[@]}" --out "$out" "${plot_flags[@]}"
  # Each fftgen variant in its own column, for the per-optimisation comparison.
  run "$details/plot-by-kernel.txt" "$python" "$here/plot.py" "${jsons[@]}" --by-kernel --no-plot \
      --out "$work/by-kernel"
  cp "$work/by-kernel/table.md" "$details/table-by-kernel.md" 2> /dev/null
fi

# Everything but the kernels (regenerated from the plan at the logged commit) in one archive.
cp -r "$work/latency/runs" "$details/latency-runs" 2> /dev/null
tar -czf "$out/details.tar.gz" -C "$work" details
log ""
log "top of $out: $(cd "$out" && ls -p | grep -v / | tr '\n' ' ')"
