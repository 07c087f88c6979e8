#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r3; rm -rf $o; mkdir -p $o
for r in 1 2 3; do for n in base r64 c8 c4 r64c8 r64c4; do
  echo "== round $r $n" >> $o/bench.txt
  $vk bench .device/gv/$n g --bytes 8MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/gv/$n g --bytes 32MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/gv/$n g --bytes 512MiB --trials 7 --calls 20 >> $o/bench.txt 2>&1
  [ $r = 1 ] && $vk bench .device/gv/$n g --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done; done
python3 bench/cufft_bench.py --sizes "" --sizes-2d "" --grids 1024x1024x1,1024x1024x4 --calls 200 --trials 7 > $o/cufft.txt 2>&1
tar czf /tmp/r3.tgz -C /tmp r3 && mv /tmp/r3.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$0; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-110
tail -8 $o/cufft.txt
