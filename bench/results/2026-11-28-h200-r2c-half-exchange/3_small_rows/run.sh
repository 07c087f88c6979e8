#!/bin/bash
# The r2c separation by halves on rows of 4 to 256 invocations: old (every value meets its partner)
# against new (half exchange), 1D R2C 128 ... 8192 and 2D R2C 128², 512², 256 x 1024.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
mkdir -p $OUT/r
$V verify .device/ks_new --batches 1,3 > $OUT/r/verify_new.txt 2>&1; echo "rc $?" >> $OUT/r/verify_new.txt
for g in old new; do $V stats .device/ks_$g > $OUT/r/stats_$g.txt 2>&1; done
for round in 1 2; do for g in old new; do echo "== round $round $g"; $V bench .device/ks_$g --bytes 512MiB --trials 7 --calls 20 --json $OUT/r/bench_${g}_$round.json; done; done > $OUT/r/bench.txt 2>&1
grep -c PASS $OUT/r/verify_new.txt; tail -1 $OUT/r/verify_new.txt
for g in old new; do echo $g $(grep -o "Register Count=[0-9]*" $OUT/r/stats_$g.txt | paste -sd' '); done
grep "==\|forward" $OUT/r/bench.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
cd $OUT && tar czf results.tgz r && rm -rf r
