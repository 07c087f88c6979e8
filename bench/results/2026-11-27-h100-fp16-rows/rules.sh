#!/bin/bash
V=.device/b/runtime/fftgen-vk; R=$OUT/r; mkdir -p $R
for d in A B C D; do $V verify .device/k$d --batches 1,3 > $R/verify_$d.txt 2>&1; done
for i in 1 2; do for d in A B C D; do
  echo "== k$d round $i" >> $R/bench.txt
  $V bench .device/k$d --bytes 256MiB --passes >> $R/bench.txt 2>&1
done; done
# batch 1 small grids too (200 calls)
for d in A B D; do echo "== k$d 512x512 x1, 1024x1024 x1" >> $R/bench.txt
  $V bench .device/k$d h2__n512x512 --bytes 1MiB --calls 200 >> $R/bench.txt 2>&1
  $V bench .device/k$d h2__n1024x1024 --bytes 4MiB --calls 200 >> $R/bench.txt 2>&1; done
tar czf $OUT/rules.tar.gz -C $OUT r && rm -rf $R
