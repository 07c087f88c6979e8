#!/bin/bash
# Issue 9's rows with the separation by halves (perf_2d.json, H200 wisdom), cuFFT and VkFFT beside.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
mkdir -p $OUT/r
nvidia-smi > $OUT/r/smi.txt 2>&1
$V stats .device/k2d_new > $OUT/r/stats.txt 2>&1
TIME_BUDGET=330 bash bench/run_images.sh .device/b .device/k2d_new $OUT/r/images > $OUT/r/run_images.log 2>&1; echo "run_images rc $?" >> $OUT/r/run_images.log
tail -2 $OUT/r/run_images.log; sed -n '/Issue 9/,/Every other/p' $OUT/r/images/summary.md; grep "R2C" $OUT/r/images/summary.md | tail -8
cp $OUT/r/images/summary.md $OUT/summary.md
tar czf /tmp/results.tgz -C $OUT/r . && rm -rf $OUT/r && mv /tmp/results.tgz $OUT/
