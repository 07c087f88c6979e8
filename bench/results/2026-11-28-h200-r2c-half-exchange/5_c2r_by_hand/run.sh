#!/bin/bash
# c2r inverse of R2C 1024/4096/16384: the merge reading X[k] and X[M-k] for every value (ki_old)
# against the merge by halves (ki_new: pairs merged by one invocation, half sent through shared memory).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
mkdir -p $OUT/r
$V verify .device/ki_new --batches 1,3 > $OUT/r/verify_new.txt 2>&1; echo "rc $?" >> $OUT/r/verify_new.txt
for g in old new; do $V stats .device/ki_$g > $OUT/r/stats_$g.txt 2>&1; done
for round in 1 2; do for g in old new; do echo "== round $round $g"; $V bench .device/ki_$g --direction inverse --bytes 512MiB --trials 7 --calls 20; done; done > $OUT/r/bench.txt 2>&1
grep -c PASS $OUT/r/verify_new.txt; tail -1 $OUT/r/verify_new.txt
for g in old new; do echo $g $(grep "inv0" $OUT/r/stats_$g.txt | grep -o "Register Count=[0-9]*" | paste -sd' '); done
grep "==\|inverse" $OUT/r/bench.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
tar czf /tmp/results.tgz -C $OUT/r . && rm -rf $OUT/r && mv /tmp/results.tgz $OUT/
