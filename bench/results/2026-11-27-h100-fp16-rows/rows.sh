#!/bin/bash
V=.device/b/runtime/fftgen-vk; R=$OUT/r; mkdir -p $R
for d in E F; do $V verify .device/k$d --batches 1,3 > $R/verify_$d.txt 2>&1; done
for i in 1 2; do for d in E F; do
  echo "== k$d round $i" >> $R/bench.txt
  $V bench .device/k$d --bytes 256MiB >> $R/bench.txt 2>&1
done; done
for d in E F; do echo "== k$d batch 1 (200 calls)" >> $R/bench.txt
  $V bench .device/k$d c2__n256x256 --bytes 256KiB --calls 200 >> $R/bench.txt 2>&1
  $V bench .device/k$d c2__n512x512 --bytes 1MiB --calls 200 >> $R/bench.txt 2>&1
  $V bench .device/k$d c2__n1024x1024 --bytes 4MiB --calls 200 >> $R/bench.txt 2>&1; done
tar czf $OUT/rows.tar.gz -C $OUT r && rm -rf $R
