#!/bin/bash
# c2r inverse against r2c forward, perf_2d's r2c kernels (final generator, H200 wisdom).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
R2C="r2c_1d__n1024 r2c_1d__n4096 r2c_1d__n16384 r2c_1d__n32768 r2c_1d__n65536 r2c_2d__n256x256 r2c_2d__n1024x1024 r2c_2d__n2048x2048 r2c_2d__n4096x4096"
for d in forward inverse; do echo "== $d"; $V bench .device/k2d_new $R2C --direction $d --bytes 512MiB --trials 7 --calls 20; done > $OUT/bench_dirs.txt 2>&1
grep "==\|r2c" $OUT/bench_dirs.txt | awk '{print $1, $2, $(NF-1), $NF}'
