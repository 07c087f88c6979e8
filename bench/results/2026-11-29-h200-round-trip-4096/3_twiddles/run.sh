#!/bin/bash
# The 32 KB round trip of 4096-point columns (tile_swizzled) with its stage twiddles loaded early or
# not (FFTGEN_NO_EARLY) and formed by a product tree or not (FFTGEN_NO_TREE).
B=.device/b/runtime/fftgen-vk
O=${1:-/tmp/r}
for d in base noearly neither; do echo "== bench $d" >> $O/bench.txt; timeout 60 $B bench .device/tw/$d --passes --trials 7 --calls 20 >> $O/bench.txt 2>&1; done
for d in base noearly neither; do echo "== stats $d" >> $O/stats.txt; timeout 30 $B stats .device/tw/$d 2>&1 | grep -v filter >> $O/stats.txt; done
timeout 60 $B verify .device/tw/noearly bloom2048_pairs > $O/verify.txt 2>&1
