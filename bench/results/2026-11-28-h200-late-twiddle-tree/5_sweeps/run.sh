#!/bin/bash
# R2C 1D variants (workgroup size, shared memory, radices), C2C 512/2048 beside them; sweep_1d for an H200 wisdom table.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V stats .device/kr2c > $OUT/stats_r2c.txt 2>&1
$V verify .device/kr2c --batches 1,3 > $OUT/verify_r2c.txt 2>&1
for round in 1 2; do echo "== round $round"; $V bench .device/kr2c --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_r2c_$round.json; done > $OUT/bench_r2c.txt 2>&1
$V bench .device/ks1d --bytes 512MiB --trials 7 --calls 20 --json $OUT/sweep_1d.json > $OUT/sweep_1d.txt 2>&1
tail -3 $OUT/sweep_1d.txt
