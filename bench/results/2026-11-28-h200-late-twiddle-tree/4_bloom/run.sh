#!/bin/bash
# Issue 10's rows on the H200 beside cuFFT's chain (same kernels as run3).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
mkdir -p $OUT/bloom
bash bench/run_bloom.sh .device/b .device/kbloom .device/kfp16 $OUT/bloom > $OUT/run.txt 2>&1
.device/b/runtime/fftgen-vk bench .device/kbloom bloom4096_pairs bloom1024_pairs bloom256_pairs --passes --trials 7 --calls 20 > $OUT/bloom/passes.txt 2>&1
tail -5 $OUT/run.txt
