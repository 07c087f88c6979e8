#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r7; rm -rf $o; mkdir -p $o
for r in 1 2 3; do for n in base r64 c8 c4 r64c8 r64c4; do
  echo "== round $r $n" >> $o/bench.txt
  $vk bench .device/g512/$n g --bytes 2MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/g512/$n g --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/g512/$n g --bytes 512MiB --calls 20 --trials 7 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/g512/$n g --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done; done
$vk stats .device/g512/base > $o/stats.txt 2>&1
tar czf /tmp/r7.tgz -C /tmp r7 && mv /tmp/r7.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$0; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-110
