#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r12; rm -rf $o; mkdir -p $o
$vk verify .device/bl bloom1024_pairs_smem48k > $o/verify.txt 2>&1
for r in 1 2; do
  $vk bench .device/bl bloom1024_pairs bloom1024_pairs_smem48k bloom1024_pairs_wg256_smem48k bloom1024_pairs_wg128_smem48k --passes --trials 7 --calls 20 >> $o/bench.txt 2>&1
done
$vk stats .device/bl > $o/stats.txt 2>&1
tar czf /tmp/r12.tgz -C /tmp r12 && mv /tmp/r12.tgz $OUT/
cat $o/verify.txt | tail -2; grep -v "^device\|^kernel" $o/bench.txt; grep -v filter $o/stats.txt | grep -o "^[a-z0-9_]* [a-z0-9]* .*Register Count=[0-9]*" | sed 's/CS:.*Register/reg/'
