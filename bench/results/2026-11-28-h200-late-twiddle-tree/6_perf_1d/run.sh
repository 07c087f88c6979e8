#!/bin/bash
# perf_1d: 77c5785 (p1b) against the late-tree commit (p1n), the changed kernels; 8192 as 32x16x16 both ways.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
K="fft4096 fft8192 fft16384 fft131072 fft262144 fft524288 fft1048576 fft2097152 fft4194304"
for v in p1b p1n rb rn; do echo "== $v"; $V stats .device/$v; done > $OUT/stats.txt 2>&1
$V verify .device/p1n fft8192 fft16384 fft131072 fft262144 fft524288 --batches 1,3 > $OUT/verify.txt 2>&1
$V verify .device/rn --batches 1,3 >> $OUT/verify.txt 2>&1
for round in 1 2; do for v in p1b p1n; do echo "== $v round $round"; $V bench .device/$v $K --bytes 512MiB --trials 7 --calls 20 --passes;
  $V bench .device/${v/p1/r} --bytes 512MiB --trials 7 --calls 20; done; done > $OUT/bench.txt 2>&1
tail -2 $OUT/bench.txt
