#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V verify .device/k16n > $OUT/verify_new.txt 2>&1
for i in 1 2; do for k in k16o k16n; do
  echo "== $k round $i"
  $V bench .device/$k h64x1024 h128x512 --bytes 256MiB --trials 7 --calls 20 --passes
  $V bench .device/$k b4096 b4096t --trials 7 --calls 20 --passes
done; done > $OUT/bench.txt 2>&1
grep -E "PASS|FAIL" $OUT/verify_new.txt; grep -v "^device" $OUT/bench.txt | grep -v "^kernel\|copy"
