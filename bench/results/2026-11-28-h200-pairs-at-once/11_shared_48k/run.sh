#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r11; rm -rf $o; mkdir -p $o
$vk verify .device/sm2 --batches 1,3 > $o/verify.txt 2>&1
for r in 1 2; do for s in 32768 49152; do
  echo "== round $r $s" >> $o/bench.txt
  $vk bench .device/sm2 g__smem$s --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm2 g__smem$s --bytes 32MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm2 g__smem$s h__smem$s --bytes 512MiB --calls 20 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm2 h__smem$s --bytes 2MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm2 h__smem$s --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/sm2 g__smem$s --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done; done
tar czf /tmp/r11.tgz -C /tmp r11 && mv /tmp/r11.tgz $OUT/
grep -c PASS $o/verify.txt; grep FAIL $o/verify.txt
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$3" "$4; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-100
