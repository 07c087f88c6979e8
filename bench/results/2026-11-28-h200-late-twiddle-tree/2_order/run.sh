#!/bin/bash
# Late twiddle trees: registers of every pass (base/all/il/one), per-pass times of the changed kernels.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk; X=.device/exp
for v in base all il one; do echo "== $v"; $V stats $X/$v; $V stats $X/bl_$v bloom4096_pairs; done > $OUT/stats.txt 2>&1
$V verify $X/il r2c_2d__n1024x1024 c2c_2d__n1024x1024 c2c_2d__n4096x4096 r2c_1d__n16384 --batches 1,3 > $OUT/verify.txt 2>&1
$V verify $X/bl_il bloom4096_pairs >> $OUT/verify.txt 2>&1
K="c2c_2d__n2048x2048 c2c_2d__n4096x4096 r2c_2d__n1024x1024 r2c_2d__n2048x2048 r2c_2d__n4096x4096 r2c_1d__n16384 r2c_1d__n32768 c2c_1d__n1048576 c2c_1d__n4194304"
for round in 1 2; do for v in base all il one; do
  echo "== $v round $round 512MiB"; $V bench $X/$v $K --bytes 512MiB --trials 7 --calls 20 --passes
  echo "== $v round $round small"; $V bench $X/$v c2c_2d__n1024x1024 --bytes 8MiB --calls 200 --trials 7 --passes
  echo "== $v round $round bloom"; $V bench $X/bl_$v bloom4096_pairs --passes --trials 7 --calls 20
done; done > $OUT/bench.txt 2>&1
tail -3 $OUT/bench.txt
