#!/bin/bash
# The r2c separation by halves: perf_2d's and bloom's kernels from the generator before (k2d_old,
# kbl_old) and after (k2d_new, kbl_new), then issue 9's rows with the new kernels (run_images.sh).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
R2C="r2c_1d__n1024 r2c_1d__n4096 r2c_1d__n16384 r2c_1d__n32768 r2c_1d__n65536 r2c_2d__n256x256 r2c_2d__n1024x1024 r2c_2d__n2048x2048 r2c_2d__n4096x4096"
BLOOM="bloom256 bloom1024 bloom4096"
nvidia-smi > $OUT/smi.txt 2>&1
$V verify .device/k2d_new $R2C --batches 1,3 > $OUT/verify_r2c_new.txt 2>&1; echo "rc $?" >> $OUT/verify_r2c_new.txt
$V verify .device/kbl_new $BLOOM > $OUT/verify_bloom_new.txt 2>&1; echo "rc $?" >> $OUT/verify_bloom_new.txt
for g in old new; do $V stats .device/k2d_$g $R2C > $OUT/stats_$g.txt 2>&1; done
for round in 1 2; do for g in old new; do echo "== round $round $g"; $V bench .device/k2d_$g $R2C --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_r2c_${g}_$round.json; done; done > $OUT/bench_r2c.txt 2>&1
for round in 1 2; do for g in old new; do echo "== round $round $g"; $V bench .device/kbl_$g $BLOOM --trials 7 --calls 20 --json $OUT/bench_bloom_${g}_$round.json; done; done > $OUT/bench_bloom.txt 2>&1
TIME_BUDGET=330 bash bench/run_images.sh .device/b .device/k2d_new $OUT/images > $OUT/run_images.log 2>&1; echo "run_images rc $?" >> $OUT/run_images.log
tail -2 $OUT/verify_r2c_new.txt $OUT/verify_bloom_new.txt; grep -c PASS $OUT/verify_r2c_new.txt $OUT/verify_bloom_new.txt
grep "==\|forward" $OUT/bench_r2c.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
grep "==\|bloom" $OUT/bench_bloom.txt | awk '{print $1, $2, $3, $4, $(NF-2), $(NF-1)}'
tail -3 $OUT/run_images.log; cat $OUT/images/summary.md 2>/dev/null | head -60
cd $OUT && tar czf results.tgz --exclude=results.tgz . && find . -name "*.json" -delete
