#!/bin/bash
# R2C 1024/4096/16384 forward: the generator's separation (kb: every value meets its partner through
# shared memory) against the half-traffic exchange (kh: values E/2..E-1 go to the partner, each
# invocation separates the pairs (k, M-k) of its values 0..E/2-1), and no separation at all (kn,
# timing only: the floor any separation could reach).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
for k in kb kh; do $V verify .device/$k --batches 1,3 > $OUT/verify_$k.txt 2>&1 || true; done
for k in kb kh kn; do $V stats .device/$k > $OUT/stats_$k.txt 2>&1; done
for round in 1 2; do for k in kb kh kn; do echo "== round $round $k"; $V bench .device/$k --bytes 512MiB --trials 7 --calls 20 --json $OUT/bench_${k}_$round.json; done; done > $OUT/bench.txt 2>&1
nvidia-smi > $OUT/smi.txt 2>&1
grep -h "PASS\|FAIL" $OUT/verify_*.txt; for k in kb kh kn; do echo $k $(grep -o "Register Count=[0-9]*" $OUT/stats_$k.txt | paste -sd' '); done; grep "==\|forward" $OUT/bench.txt | awk '{print $1, $2, $3, $4, $(NF-1)}'
cd $OUT && tar czf results.tgz *.txt *.json && rm -f *.json
