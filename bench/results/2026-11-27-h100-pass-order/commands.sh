#!/usr/bin/env bash
# How the numbers in this folder were made (README.md). Two steps: generate here (glslang is
# here), run on the GPU machine.
#   bash commands.sh generate OLD_FFTGEN NEW_FFTGEN   # OLD: the generator of 084752c
#   bash commands.sh run BUILD_DIR OUT                 # BUILD_DIR has runtime/fftgen-vk
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
  generate)
    old=$2; new=$3
    "$old" "$here/pass_order.plan.json" -o kernels/larger_first
    "$new" "$here/pass_order.plan.json" -o kernels/smaller_first
    # The sweep (h200_sweep/) used a scratch switch, not committed, that reversed the pass sizes of
    # every multi-pass split (layout.cpp's even_pass_sizes): kernels/ks. kernels/kb is 084752c's.
    ;;
  run)
    vk=$2/runtime/fftgen-vk; out=$3; mkdir -p "$out"
    "$vk" verify kernels/smaller_first --batches 1,3 > "$out/verify.txt"
    for round in 1 2; do for k in larger_first smaller_first; do
      echo "== $k round $round" >> "$out/bench.txt"
      "$vk" bench kernels/$k --bytes 512MiB --trials 7 --calls 20 --passes >> "$out/bench.txt"
    done; done
    # issue 9's session beside cuFFT and VkFFT, kernels of bench/plans/perf_2d.json from NEW_FFTGEN:
    # TIME_BUDGET=420 bash bench/run_images.sh BUILD_DIR kernels/perf_2d "$out/images"
    ;;
  *) sed -n 2,6p "$0"; exit 1 ;;
esac
