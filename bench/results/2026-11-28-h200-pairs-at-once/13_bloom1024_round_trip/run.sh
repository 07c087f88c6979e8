#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r13; rm -rf $o; mkdir -p $o
for n in rt8 rt4; do $vk verify .device/rt/$n bloom1024_pairs >> $o/verify.txt 2>&1; done
for r in 1 2; do for n in base rt8 rt4 rt8w256; do
  echo "== round $r $n" >> $o/bench.txt
  $vk bench .device/rt/$n bloom1024_pairs --passes --trials 7 --calls 20 >> $o/bench.txt 2>&1
done; done
for n in base rt8 rt4; do echo "== $n" >> $o/stats.txt; $vk stats .device/rt/$n bloom1024_pairs >> $o/stats.txt 2>&1; done
tar czf /tmp/r13.tgz -C /tmp r13 && mv /tmp/r13.tgz $OUT/
grep -h "PASS\|FAIL" $o/verify.txt
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$3" "$4; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-90
grep -o "^== .*\|fwd1 .*Register Count=[0-9]*" $o/stats.txt | sed 's/CS:.*Register/reg/'
