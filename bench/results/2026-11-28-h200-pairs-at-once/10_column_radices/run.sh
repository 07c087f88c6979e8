#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r10; rm -rf $o; mkdir -p $o
for r in 1 2; do for n in base y16 y8 y16c8; do
  echo "== round $r $n" >> $o/bench.txt
  $vk bench .device/y/$n g --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/y/$n g --bytes 32MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/y/$n g --bytes 512MiB --calls 20 --trials 7 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/y/$n g --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done; done
$vk stats .device/y/y16 > $o/stats_y16.txt 2>&1; $vk stats .device/y/base > $o/stats_base.txt 2>&1
tar czf /tmp/r10.tgz -C /tmp r10 && mv /tmp/r10.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$3" "$4; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-100
grep -h Register $o/stats_*.txt | cut -c1-100
