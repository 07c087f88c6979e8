#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
bash bench/run_bloom.sh .device/b .device/kbloom .device/kfp16 $OUT/bloom > $OUT/run_bloom.txt 2>&1
V=.device/b/runtime/fftgen-vk
for i in 1 2; do $V bench .device/kbloom bloom1024_pairs bloom1024_pairs_fp16 bloom4096_pairs bloom4096_pairs_fp16 --trials 7 --calls 20 --passes; done > $OUT/passes.txt 2>&1
cat $OUT/bloom/summary.md; grep -E "FAIL|error" $OUT/bloom/log.txt | head
