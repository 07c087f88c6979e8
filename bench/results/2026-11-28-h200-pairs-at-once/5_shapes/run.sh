#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r5; rm -rf $o; mkdir -p $o
b() { echo "== $*" >> $o/bench.txt; $vk bench "$@" --trials 7 >> $o/bench.txt 2>&1; }
for r in 1 2; do for v in turn once; do
  d=.device/sh/$v
  b $d a1024x256 --bytes 2MiB --calls 200; b $d a1024x256 --bytes 8MiB --calls 200; b $d a1024x256 --bytes 512MiB --calls 20
  b $d a1024x512 --bytes 4MiB --calls 200; b $d a1024x512 --bytes 16MiB --calls 200; b $d a1024x512 --bytes 512MiB --calls 20
  b $d a1024x1024 --bytes 8MiB --calls 200; b $d a1024x1024 --bytes 32MiB --calls 200; b $d a1024x1024 --bytes 512MiB --calls 20
  [ $v = turn ] && { b $d h1024 h1024p --bytes 4MiB --calls 200; b $d h1024 h1024p --bytes 256MiB --calls 20; }
done; done
$vk stats .device/sh/turn > $o/stats_turn.txt 2>&1; $vk stats .device/sh/once > $o/stats_once.txt 2>&1
tar czf /tmp/r5.tgz -C /tmp r5 && mv /tmp/r5.tgz $OUT/
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$3" "$5" "$6; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-110
