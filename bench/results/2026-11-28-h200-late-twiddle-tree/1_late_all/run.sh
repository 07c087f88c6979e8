#!/bin/bash
# Late-stage twiddle trees (all) against HEAD (base) on the H200, plus registers.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk; X=.device/exp
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv > $OUT/smi.txt 2>&1
( $V verify $X/all r2c_2d__n1024x1024 c2c_2d__n1024x1024 c2c_2d__n2048x2048 c2c_1d__n1048576 c2c_1d__n4194304 r2c_1d__n16384 r2c_2d__n4096x4096 --batches 1,3
  $V verify $X/bl_all ) > $OUT/verify.txt 2>&1
for v in base all; do echo "== $v"; $V stats $X/bl_$v bloom4096_pairs bloom256_pairs; $V stats $X/$v r2c_1d__n16384 r2c_2d__n1024x1024 c2c_2d__n1024x1024; done > $OUT/stats.txt 2>&1
for round in 1 2; do for v in base all; do
  echo "== $v round $round small"
  $V bench $X/$v c2c_2d__n512x512 --bytes 8MiB --calls 200 --trials 7 --passes
  $V bench $X/$v c2c_2d__n1024x1024 --bytes 8MiB --calls 200 --trials 7 --passes
  $V bench $X/$v c2c_2d__n256x256 --bytes 512KiB --calls 200 --trials 7
  $V bench $X/$v c2c_2d__n512x512 --bytes 2MiB --calls 200 --trials 7
done; done > $OUT/small.txt 2>&1
for round in 1 2; do for v in base all; do
  echo "== $v round $round bloom"; $V bench $X/bl_$v bloom4096_pairs bloom1024_pairs bloom256_pairs --passes --trials 7 --calls 20
done; done > $OUT/bloom.txt 2>&1
for round in 1 2; do for v in base all; do
  echo "== $v round $round 512MiB"; $V bench $X/$v --bytes 512MiB --trials 7 --calls 20
done; done > $OUT/large.txt 2>&1
tail -3 $OUT/large.txt
