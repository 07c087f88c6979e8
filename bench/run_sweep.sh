#!/usr/bin/env bash
# The variant explorer on a GPU in one command: `fftgen sweep` over a plan whose fields are lists
# (default bench/plans/index_math.json: radix 4/8/16 x N = 1024..4096 x bitwise/divmod x table/
# computed twiddles), measured with fftgen-vk on one Vulkan device, everything in one folder.
#
# usage: bash bench/run_sweep.sh BUILD_DIR OUT_DIR [PLAN]
#   BUILD_DIR  a build with generator/fftgen and runtime/fftgen-vk
#   DEVICE=N   Vulkan device index (default: fftgen-vk's choice, the first discrete GPU)
#   BYTES=512MiB TRIALS=7   fftgen-vk bench: one buffer's size, timed trials (median reported);
#              PERF.md's method: 2^26 complex elements, 20 calls per trial, median of 7
#
# Warm-up (PERF.md: clocks drop after host-side gaps): one untimed fftgen-vk bench of the first
# variant runs for a few seconds first, and fftgen-vk bench itself warms every kernel for 250 ms
# before timing it.
#
# OUT_DIR gets sweep.json, sweep.md, sweep.html (the report), verify.json, bench.json, stats.json
# (fftgen-vk's own output), fftgen-vk.log, devices.txt, nvidia-smi.txt (where there is one),
# commands.txt (each command and its exit status) and kernels/ (the generated kernels).
set -u
usage="usage: bash bench/run_sweep.sh BUILD_DIR OUT_DIR [PLAN]"
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?$usage}
out=${2:?$usage}
plan=${3:-$here/plans/index_math.json}
build=$(cd "$build" && pwd) || { echo "no build folder $1" >&2; exit 1; }
fftgen=$build/generator/fftgen
vk=$build/runtime/fftgen-vk
for tool in "$fftgen" "$vk"; do
  [ -x "$tool" ] || { echo "run_sweep.sh: $tool is missing; build the fftgen and fftgen-vk targets" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
device_args=()
[ -n "${DEVICE:-}" ] && device_args=(--device "$DEVICE")

step() {  # step NAME COMMAND...: runs it, logs the command and its exit status, goes on either way
  local name=$1
  shift
  "$@"
  local rc=$?
  printf '%s (exit %d):' "$name" "$rc" >> "$out/commands.txt"
  printf ' %q' "$@" >> "$out/commands.txt"
  printf '\n' >> "$out/commands.txt"
  return 0
}

: > "$out/commands.txt"
step devices sh -c "'$vk' devices > '$out/devices.txt' 2>&1"
command -v nvidia-smi > /dev/null && step nvidia-smi sh -c "nvidia-smi > '$out/nvidia-smi.txt' 2>&1"
# Generate first (no device), then warm the GPU on one variant, then the measured sweep; the
# second sweep regenerates identical files (unchanged files are not rewritten).
step generate "$fftgen" sweep "$plan" -o "$out" -q
first=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$out/kernels/manifest.json" | head -1)
step warm-up sh -c "'$vk' bench '$out/kernels' '$first' --bytes '${BYTES:-512MiB}' --trials 20 ${DEVICE:+--device $DEVICE} > /dev/null 2>&1"
step sweep "$fftgen" sweep "$plan" -o "$out" --vk "$vk" "${device_args[@]}" --bytes "${BYTES:-512MiB}" \
  --trials "${TRIALS:-7}"
cat "$out/commands.txt"
echo "run_sweep.sh: report in $out/sweep.md and $out/sweep.html"
