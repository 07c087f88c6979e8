#!/bin/bash
# R2C 16384 radix splits of 8 and 16 values an invocation (kernels: .device/k16k), C2C 8192 beside them.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V stats .device/k16k > $OUT/stats.txt 2>&1
$V verify .device/k16k --batches 1,3 > $OUT/verify.txt 2>&1; echo "verify rc $?" >> $OUT/verify.txt
for round in 1 2; do echo "== round $round"; $V bench .device/k16k --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_$round.json; done > $OUT/bench.txt 2>&1
tail -1 $OUT/verify.txt; grep -c PASS $OUT/verify.txt; grep -o "^[^ ]* fwd0\|Register Count=[0-9]*" $OUT/stats.txt | paste - -; grep forward $OUT/bench.txt | awk '{print $1, $(NF-1)}'
