#!/bin/bash
# perf_1d.json: 4fe889e (p1b) against the stage-twiddle product tree (p1n), two rounds.
V=.device/b/runtime/fftgen-vk
E=.device/exp
$V verify $E/p1n fft128 fft256 fft512 fft1024 fft2048 fft4096 fft32768 fft65536 fft131072 --batches 1,3 > $OUT/verify_1d.txt 2>&1
for i in 1 2; do for v in p1b p1n; do
  echo "== $v round $i 512MiB" >> $OUT/large_1d.txt
  $V bench $E/$v --bytes 512MiB --trials 7 --calls 20 >> $OUT/large_1d.txt 2>&1
done; done
