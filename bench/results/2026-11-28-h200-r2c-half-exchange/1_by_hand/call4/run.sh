#!/bin/bash
# R2C 1024/4096/16384 forward: the separation's partner exchange in shared memory (kb, the
# generator's kernels) against subgroup shuffles between lanes 2m, 2m+1 (ks), and two timing-only
# variants: no separation at all (kn) and transforms written 512 elements apart (k5).
# kl: the last round's partners read one at a time just before their value is separated and stored.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
for k in kb ks kl; do $V stats .device/$k > $OUT/stats_$k.txt 2>&1; $V verify .device/$k --batches 1,3 > $OUT/verify_$k.txt 2>&1 || true; done
for k in kn k5; do $V stats .device/$k > $OUT/stats_$k.txt 2>&1; done
for round in 1 2; do for k in kb ks kl kn; do echo "== round $round $k"; $V bench .device/$k --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_${k}_$round.json; done; done > $OUT/bench.txt 2>&1
nvidia-smi > $OUT/smi.txt 2>&1
grep -h "PASS\|FAIL" $OUT/verify_*.txt; for k in kb ks kl kn; do echo $k $(grep -o "Register Count=[0-9]*" $OUT/stats_$k.txt | paste -sd' '); done; grep "==\|forward" $OUT/bench.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
