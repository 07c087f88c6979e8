#!/bin/bash
# The c2r merge by halves in the generator: perf_2d's and bloom's kernels before (a: b9e5e34) and
# after (b), inverse direction; verify of b's r2c and bloom kernels first.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
R2C="r2c_1d__n1024 r2c_1d__n4096 r2c_1d__n16384 r2c_1d__n32768 r2c_2d__n1024x1024 r2c_2d__n2048x2048 r2c_2d__n4096x4096"
BLOOM="bloom1024 bloom4096"
mkdir -p $OUT/r
$V verify .device/k2d_b $R2C --batches 1,3 > $OUT/r/verify_r2c.txt 2>&1; echo "rc $?" >> $OUT/r/verify_r2c.txt
$V verify .device/kbl_b $BLOOM > $OUT/r/verify_bloom.txt 2>&1; echo "rc $?" >> $OUT/r/verify_bloom.txt
for g in a b; do $V stats .device/k2d_$g $R2C > $OUT/r/stats_$g.txt 2>&1; done
for round in 1 2; do for g in a b; do echo "== round $round $g"; $V bench .device/k2d_$g $R2C --direction inverse --bytes 512MiB --trials 7 --calls 20; done; done > $OUT/r/bench_inverse.txt 2>&1
for round in 1 2; do for g in a b; do echo "== round $round $g"; $V bench .device/kbl_$g $BLOOM --trials 7 --calls 20; done; done > $OUT/r/bench_bloom.txt 2>&1
grep -c PASS $OUT/r/verify_r2c.txt $OUT/r/verify_bloom.txt; tail -qn1 $OUT/r/verify_r2c.txt $OUT/r/verify_bloom.txt
for g in a b; do echo $g $(grep "inv" $OUT/r/stats_$g.txt | grep -o "^[^ ]* inv[0-9]\|Register Count=[0-9]*" | paste -sd' '); done
grep "==\|inverse" $OUT/r/bench_inverse.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
grep "==\|bloom" $OUT/r/bench_bloom.txt | awk '{print $1, $2, $3, $4, $(NF-2), $(NF-1)}'
tar czf /tmp/results.tgz -C $OUT/r . && rm -rf $OUT/r && mv /tmp/results.tgz $OUT/
