#!/bin/bash
# The final rule (late trees in workgroups of >= 512 invocations): issue 9's rows beside cuFFT and
# VkFFT again, perf_1d against 77c5785 (p1b), and the blooms.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
mkdir -p $OUT/images
TIME_BUDGET=300 WORK_DIR=/tmp/images bash bench/run_images.sh .device/b .device/k2d $OUT/images > $OUT/run_images.txt 2>&1
$V verify .device/p1n fft16384 fft524288 --batches 1,3 > $OUT/verify.txt 2>&1
for round in 1 2; do for v in p1b p1n; do echo "== $v round $round"; $V bench .device/$v --bytes 512MiB --trials 7 --calls 20; done; done > $OUT/perf_1d.txt 2>&1
$V bench .device/kbloom bloom4096_pairs bloom1024_pairs bloom256_pairs --passes --trials 7 --calls 20 > $OUT/bloom.txt 2>&1
tail -3 $OUT/perf_1d.txt
