#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
V=.device/b/runtime/fftgen-vk
for pf in 15 7 0; do $V verify .device/kpf$pf --batches 1,3; done > $OUT/verify.txt 2>&1
for pf in 15 7 0; do echo "== kpf$pf"; $V stats .device/kpf$pf | sed -e 's/Local Memory Size=[0-9]* //' -e 's/Binary Size=[0-9]* //'; done > $OUT/stats.txt 2>&1
for i in 1 2; do for pf in 15 7 0; do
  echo "== kpf$pf round $i"
  $V bench .device/kpf$pf g256 --bytes 512KiB --trials 7 --calls 200
  $V bench .device/kpf$pf g512 g512x256 --bytes 2MiB --trials 7 --calls 200
  $V bench .device/kpf$pf g512 --bytes 8MiB --trials 7 --calls 200 --passes
  $V bench .device/kpf$pf g1024 --bytes 8MiB --trials 7 --calls 200 --passes
  $V bench .device/kpf$pf --trials 7 --calls 20
done; done > $OUT/bench.txt 2>&1
grep -c PASS $OUT/verify.txt; grep FAIL $OUT/verify.txt; cat $OUT/stats.txt | grep -v device
