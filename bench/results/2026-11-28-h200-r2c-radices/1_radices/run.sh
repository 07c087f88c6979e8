#!/bin/bash
# R2C 1024/4096 radix splits and twiddle sources (kernels: .device/kr2c, see ../commands.sh).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V stats .device/kr2c > $OUT/stats.txt 2>&1
$V verify .device/kr2c --batches 1,3 > $OUT/verify.txt 2>&1; echo "verify rc $?" >> $OUT/verify.txt
for round in 1 2; do echo "== round $round"; $V bench .device/kr2c --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_$round.json; done > $OUT/bench.txt 2>&1
tail -3 $OUT/verify.txt
