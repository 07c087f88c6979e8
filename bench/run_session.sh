#!/usr/bin/env bash
# The measurement behind bench/results/2026-11-22-h100: fftgen (fftgen-vk), VkFFT
# (fftgen-vkfft-check) and cuFFT (cufft_bench.py) one after another in one session on one GPU,
# plus first-result latency with the drivers' pipeline caches off and on.
#
# usage: bash bench/run_session.sh BUILD_DIR KERNELS_DIR SWEEP_DIR OUT_DIR
#   BUILD_DIR   has runtime/fftgen-vk, bench/fftgen-bench, bench/fftgen-vkfft-check
#   KERNELS_DIR bench/plans/perf_1d.json generated: fftgen BUILD/.../perf_1d.json -o KERNELS_DIR
#   SWEEP_DIR   bench/plans/sweep_1d.json generated likewise (variants: budgets, radices, twiddles)
set -u
build=${1:?usage: run_session.sh BUILD_DIR KERNELS_DIR SWEEP_DIR OUT_DIR}
kernels=${2:?}; sweep=${3:?}; out=${4:?}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
sizes=64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; } > "$out/machine.txt"
"$build/runtime/fftgen-vk" verify "$kernels" --batches 1,13 > "$out/verify.txt" 2>&1
# Three processes, median and range in the table. (Before the bench warmed up for 250 ms, kernels
# timed after host-side gaps sometimes ran at 1080-1500 MHz: figures then swung by up to 1.6x.)
for run in 1 2 3; do
  "$build/runtime/fftgen-vk" bench "$kernels" --json "$out/fftgen$run.json" > "$out/fftgen$run.txt" 2>&1
done
"$build/runtime/fftgen-vk" bench "$sweep" --json "$out/sweep.json" > "$out/sweep.txt" 2>&1
"$build/bench/fftgen-vkfft-check" --elements 67108864 --sizes $sizes --max-error 0 --json "$out/vkfft.json" > "$out/vkfft.txt" 2>&1
python3 "$here/cufft_bench.py" --sizes $sizes --sizes-2d "" --elements 67108864 --json "$out/cufft.json" > "$out/cufft.txt" 2>&1
RUNS=5 DRIVER_CACHE=off bash "$here/latency.sh" "$build" "$kernels" fft1024 "$out/lat_cold" > /dev/null 2>&1
RUNS=5 DRIVER_CACHE=on bash "$here/latency.sh" "$build" "$kernels" fft1024 "$out/lat_warm" > /dev/null 2>&1
"$build/bench/fftgen-bench" compare "$kernels" --json "$out/compare.json" > "$out/compare.txt" 2>&1
python3 "$here/results_table.py" "$out" > /dev/null  # summary.md, fftgen_median.json
python3 "$here/plot.py" "$out/fftgen_median.json" "$out/vkfft.json" "$out/cufft.json" --out "$out" > "$out/plot.txt" 2>&1
