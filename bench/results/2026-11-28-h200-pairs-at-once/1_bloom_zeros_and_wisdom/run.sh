#!/bin/bash
# Call 1: bloom known-zero pruning by hand (A = generator, S = static loads/stores, F = S + folded first stage), R2C wisdom re-sweep.
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r1; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
for v in A S F; do $vk verify .device/$v bloom1024_pairs --json $o/verify_$v.json > $o/verify_$v.txt 2>&1; done
for r in 1 2; do for v in A S F; do
  echo "== round $r $v" >> $o/bloom.txt
  $vk bench .device/$v bloom1024_pairs bloom4096_pairs --passes --trials 7 --calls 20 >> $o/bloom.txt 2>&1
done; done
$vk verify .device/rs --batches 1,3 > $o/verify_rs.txt 2>&1
for r in 1 2; do echo "== round $r" >> $o/rs.txt; $vk bench .device/rs --bytes 512MiB --trials 7 --calls 20 --json $o/rs_$r.json >> $o/rs.txt 2>&1; done
$vk verify .device/F bloom4096_pairs > $o/verify_F4096.txt 2>&1
tar czf $OUT/r1.tgz -C /tmp r1
grep -h "PASS\|FAIL" $o/verify_*.txt | sed 's/  */ /g'
grep -v "^device\|^kernel" $o/bloom.txt
grep -v "^device\|^kernel" $o/rs.txt | sort -k1,1 -s | awk '{print $1, $6}'
