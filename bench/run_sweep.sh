#!/usr/bin/env bash
# The variant explorer on a GPU in one command: `fftgen sweep` over a plan whose fields are lists
# (default bench/plans/index_math.json: radix 4/8/16 x N = 1024..4096 x bitwise/divmod x table/
# computed twiddles), measured with fftgen-vk on one Vulkan device, everything in one folder.
#
# usage: bash bench/run_sweep.sh BUILD_DIR OUT_DIR [PLAN]
#        bash bench/run_sweep.sh --device-only BUILD_DIR OUT_DIR
#   BUILD_DIR  a build with generator/fftgen and runtime/fftgen-vk (--device-only: fftgen-vk alone)
#   --device-only  for a GPU machine without the generator: OUT_DIR/kernels was made elsewhere by
#              `fftgen sweep PLAN -o OUT_DIR`; this runs only fftgen-vk (verify.json, bench.json,
#              stats.json into OUT_DIR); then, where fftgen is, `fftgen sweep PLAN -o OUT_DIR
#              --results OUT_DIR` writes the report
#   DEVICE=N   Vulkan device index (default: fftgen-vk's choice, the first discrete GPU)
#   BYTES=512MiB TRIALS=7   fftgen-vk bench: one buffer's size, timed trials (median reported);
#              PERF.md's method: 2^26 complex elements, 20 calls per trial, median of 7
#
# Warm-up (PERF.md: clocks drop after host-side gaps): one untimed fftgen-vk bench of the first
# variant runs for a few seconds first, and fftgen-vk bench itself warms every kernel for 250 ms
# before timing it.
#
# OUT_DIR gets sweep.json, sweep.md, sweep.html (the report), verify.json, bench.json, stats.json
# (fftgen-vk's own output), fftgen-vk.log and run_sweep.log (the tools' output), devices.txt,
# nvidia-smi.txt (where there is one),
# commands.txt (each command and its exit status) and kernels/ (the generated kernels).
set -u
usage="usage: bash bench/run_sweep.sh [--device-only] BUILD_DIR OUT_DIR [PLAN]"
here=$(cd "$(dirname "$0")" && pwd)
device_only=0
if [ "${1:-}" = "--device-only" ]; then
  device_only=1
  shift
fi
build=${1:?$usage}
out=${2:?$usage}
plan=${3:-$here/plans/index_math.json}
build=$(cd "$build" && pwd) || { echo "no build folder $1" >&2; exit 1; }
fftgen=$build/generator/fftgen
vk=$build/runtime/fftgen-vk
tools=("$vk")
[ $device_only = 1 ] || tools+=("$fftgen")
for tool in "${tools[@]}"; do
  [ -x "$tool" ] || { echo "run_sweep.sh: $tool is missing; build the fftgen and fftgen-vk targets" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
device_args=()
[ -n "${DEVICE:-}" ] && device_args=(--device "$DEVICE")

step() {  # step NAME COMMAND...: runs it (output to run_sweep.log), logs the command and its exit status, goes on
  local name=$1
  shift
  "$@" >> "$out/run_sweep.log" 2>&1
  local rc=$?
  printf '%s (exit %d):' "$name" "$rc" >> "$out/commands.txt"
  printf ' %q' "$@" >> "$out/commands.txt"
  printf '\n' >> "$out/commands.txt"
  return 0
}

: > "$out/commands.txt"
: > "$out/run_sweep.log"
step devices sh -c "'$vk' devices > '$out/devices.txt' 2>&1"
command -v nvidia-smi > /dev/null && step nvidia-smi sh -c "nvidia-smi > '$out/nvidia-smi.txt' 2>&1"
bench_args=(--bytes "${BYTES:-512MiB}")
# Generate first (no device), then warm the GPU on one variant, then the measured sweep; the
# second sweep regenerates identical files (unchanged files are not rewritten).
if [ $device_only = 0 ]; then
  step generate "$fftgen" sweep "$plan" -o "$out" -q
elif [ ! -f "$out/kernels/manifest.json" ]; then
  echo "run_sweep.sh: --device-only needs $out/kernels (fftgen sweep PLAN -o $out, elsewhere)" >&2
  exit 1
fi
first=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$out/kernels/manifest.json" | head -1)
step warm-up "$vk" bench "$out/kernels" "$first" "${bench_args[@]}" --trials 20 "${device_args[@]}"
if [ $device_only = 0 ]; then
  step sweep "$fftgen" sweep "$plan" -o "$out" --vk "$vk" "${device_args[@]}" "${bench_args[@]}" \
    --trials "${TRIALS:-7}"
else
  step verify "$vk" verify "$out/kernels" --json "$out/verify.json" "${device_args[@]}"
  step bench "$vk" bench "$out/kernels" --json "$out/bench.json" "${bench_args[@]}" --trials "${TRIALS:-7}" \
    "${device_args[@]}"
  step stats "$vk" stats "$out/kernels" --json "$out/stats.json" "${device_args[@]}"
  echo "run_sweep.sh: now, where fftgen is: fftgen sweep PLAN -o $out --results $out"
fi
cat "$out/commands.txt"
echo "run_sweep.sh: report in $out/sweep.md and $out/sweep.html"
