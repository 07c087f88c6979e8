#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
V=.device/b/runtime/fftgen-vk; R=$OUT/r; mkdir -p $R
FFTGEN_BATCH_CHUNK=1 $V verify .device/kch --batches 3 > $R/verify_chunk1.txt 2>&1
FFTGEN_BATCH_CHUNK=2 $V verify .device/kch --batches 5 > $R/verify_chunk2.txt 2>&1
for i in 1 2; do for c in 0 1 2 4 8 16; do
  echo "== chunk $c round $i" >> $R/bench.txt
  FFTGEN_BATCH_CHUNK=$c $V bench .device/kch --trials 7 --calls 20 >> $R/bench.txt 2>&1
done; done
tar czf $OUT/chunk.tar.gz -C $OUT r && cp $R/*.txt $OUT/ && rm -rf $R
