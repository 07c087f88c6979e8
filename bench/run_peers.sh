#!/usr/bin/env bash
# Runs the peer benchmarks (VkFFT in-process on Vulkan, cuFFT via CuPy) at the PERF.md figure
# (2^26 complex fp32 per buffer, 20 calls per trial, median of 7) and writes raw JSON, the
# console tables and the exact commands to OUT_DIR. Any extra JSON files given (e.g. fftgen-vk's
# bench output) are merged into the report.
#
# usage: bench/run_peers.sh BUILD_DIR OUT_DIR [extra.json ...]
# ELEMENTS=... and SIZES=N,N,... override the buffer size and the cases (for a quick CPU check).
# Either peer is skipped with a note when its tool is missing (no VkFFT build, no CuPy).
set -u
build=${1:?usage: run_peers.sh BUILD_DIR OUT_DIR [extra.json ...]}
out=${2:?usage: run_peers.sh BUILD_DIR OUT_DIR [extra.json ...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
elements=${ELEMENTS:-67108864}  # per buffer; smaller only for a quick check on a CPU device
sizes=${SIZES:-64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,1000,1536,4095,4097}
mkdir -p "$out"
jsons=("$@")

run() {  # run NAME CMD...: log the command, keep stdout+stderr, go on after a failure
  local name=$1; shift
  echo "$*" >> "$out/commands.txt"
  # A pipeline, not `> >(tee ...)`: bash waits for tee, so the log is complete before the next step.
  "$@" 2>&1 | tee "$out/$name.txt"
  echo "$name: exit ${PIPESTATUS[0]}" | tee -a "$out/commands.txt"
}

command -v nvidia-smi > /dev/null && nvidia-smi > "$out/nvidia-smi.txt" 2>&1

if [ -x "$build/bench/fftgen-vkfft-check" ]; then
  run vkfft "$build/bench/fftgen-vkfft-check" --elements "$elements" --sizes "$sizes" \
      --max-error 0 --json "$out/vkfft.json"
  [ -s "$out/vkfft.json" ] && jsons+=("$out/vkfft.json")
else
  echo "no $build/bench/fftgen-vkfft-check: VkFFT skipped" | tee -a "$out/commands.txt"
fi

if "$python" -c "import cupy" 2> /dev/null; then
  run cufft "$python" "$here/cufft_bench.py" --sizes "$sizes" --elements "$elements" --json "$out/cufft.json"
  [ -s "$out/cufft.json" ] && jsons+=("$out/cufft.json")
else
  echo "no CuPy: cuFFT skipped" | tee -a "$out/commands.txt"
fi

if [ ${#jsons[@]} -gt 0 ]; then
  plot_flags=()
  "$python" -c "import matplotlib" 2> /dev/null || plot_flags+=(--no-plot)
  "$python" "$here/plot.py" "${jsons[@]}" --out "$out" "${plot_flags[@]}"
fi
