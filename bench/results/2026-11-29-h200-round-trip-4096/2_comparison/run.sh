#!/bin/bash
# Padded-4096 round trips: HEAD (old), 16x16x16 on 512 with column_swizzled at 32 KB (plain), and the new rule (new: tile_swizzled at 32 KB, tile_padded at 48 KB).
B=.device/b/runtime/fftgen-vk
O=${1:-/tmp/r}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $O/bench.txt
for d in old plain new; do echo "== bench $d" >> $O/bench.txt; timeout 100 $B bench .device/rt/$d --passes --trials 7 --calls 20 >> $O/bench.txt 2>&1; done
timeout 150 $B verify .device/rt/new bloom2048_pairs bloom2048_smem48k bloom2048_pairs_fp16 > $O/verify.txt 2>&1
for d in old plain new; do echo "== stats $d" >> $O/stats.txt; timeout 30 $B stats .device/rt/$d 2>&1 | grep -v filter >> $O/stats.txt; done
timeout 90 python3 bench/cufft_bloom.py --sizes 2048 --trials 7 --calls 20 --json $O/cufft_bloom.json > $O/cufft_bloom.txt 2>&1
