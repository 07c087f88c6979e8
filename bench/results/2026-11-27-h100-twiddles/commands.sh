#!/bin/bash
# Twiddle table against computed twiddles (bench/results/2026-11-27-h100-twiddles).
V=.device/b/runtime/fftgen-vk; K=.device/ktw; F=.device/kfp16; R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/log.txt
$V verify $K --batches 1,3 --json $R/verify.json > $R/verify.txt 2>&1
$V verify $F --batches 1,7 --json $R/verify_fp16.json > $R/verify_fp16.txt 2>&1
for i in 1 2; do
  $V bench $K fp16__n512x512__table fp16__n512x512__computed fp16__n1024x1024__table fp16__n1024x1024__computed \
    fp16__n2048x2048__table fp16__n2048x2048__computed fp16__n4096x4096__table fp16__n4096x4096__computed \
    --bytes 256MiB --passes --json $R/fp16_$i.json >> $R/bench.txt 2>&1
  $V bench $K fp32__n1024x1024__table fp32__n1024x1024__computed r2c__table r2c__computed --bytes 512MiB --passes \
    --json $R/fp32_$i.json >> $R/bench.txt 2>&1
  $V bench $K fp32__n512x512__table fp32__n512x512__computed --bytes 2MiB --calls 200 --json $R/grid_$i.json >> $R/bench.txt 2>&1
  $V bench $K bloom1024__table bloom1024__computed bloom4096__table bloom4096__computed --passes \
    --json $R/bloom_$i.json >> $R/bench.txt 2>&1
  # issue 10's fp16 row as bench/run_bloom.sh times it (batch 64 both)
  $V bench $F c2c_1024__fp32 --bytes 512MiB --json $R/row_fp32_$i.json >> $R/bench.txt 2>&1
  $V bench $F c2c_1024__fp16 --bytes 256MiB --json $R/row_fp16_$i.json >> $R/bench.txt 2>&1
done
tar czf $OUT/twiddles.tar.gz -C $OUT r && rm -rf $R
