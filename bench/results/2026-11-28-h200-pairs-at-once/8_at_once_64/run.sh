#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r8; rm -rf $o; mkdir -p $o
for r in 1 2; do for v in base r64; do for k in s512x256:1 s256x512:1 s512x512:2 s1024x256:2 s1024x512:4 s1024x1024:8; do
  IFS=: read n mb <<< "$k"
  echo "== round $r $v" >> $o/bench.txt
  $vk bench .device/sm/$v $n --bytes ${mb}MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm/$v $n --bytes $((mb*4))MiB --calls 200 --trials 7 >> $o/bench.txt 2>&1
  $vk bench .device/sm/$v $n --bytes 512MiB --calls 20 --trials 7 >> $o/bench.txt 2>&1
done; done; done
tar czf /tmp/r8.tgz -C /tmp r8 && mv /tmp/r8.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$3" "$4; next} {print h, $1, $3, $5*1000, $6}' | sort -k3,3 -k4,4n -k1,1 -s
