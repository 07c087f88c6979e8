#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
V=.device/b/runtime/fftgen-vk
for i in 1 2; do for k in kch ktile; do
  echo "== $k round $i"
  $V bench .device/$k c2c_2m c2c_4m --trials 7 --calls 20 --passes 2>&1
done; done > $OUT/tile.txt
cat $OUT/tile.txt | grep -v "^device"
