#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r4; rm -rf $o; mkdir -p $o
for r in 1 2 3; do for n in base once once_c8 r64 r64c8; do
  echo "== round $r $n" >> $o/bench.txt
  $vk bench .device/gv/$n g --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/gv/$n g --bytes 32MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/gv/$n g --bytes 512MiB --trials 7 --calls 20 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/gv/$n g --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done; done
tar czf /tmp/r4.tgz -C /tmp r4 && mv /tmp/r4.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$0; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-110
