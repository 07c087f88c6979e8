#!/bin/bash
# Issue 9's rows with 1024-row grids paired at once (k2d), then old vs new 1024^2 in one process, and fp16/fp32.
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r6; rm -rf $o; mkdir -p $o
TIME_BUDGET=330 bash bench/run_images.sh .device/b .device/k2d $o/images > $o/images_console.txt 2>&1
b() { echo "== $*" >> $o/bench.txt; $vk bench "$@" --trials 7 >> $o/bench.txt 2>&1; }
for r in 1 2; do for d in k2d_old k2d; do
  b .device/$d c2c_2d__n1024x1024 --bytes 8MiB --calls 200; b .device/$d c2c_2d__n1024x1024 --bytes 512MiB --calls 20
  b .device/$d c2c_2d__n1024x1024 --bytes 512MiB --calls 20 --direction inverse
done; done
b .device/kfp16 c2c_1024__fp32 --bytes 512MiB --calls 20; b .device/kfp16 c2c_1024__fp16 --bytes 256MiB --calls 20
b .device/kfp16 c2c_1024__fp32 --bytes 512MiB --calls 20; b .device/kfp16 c2c_1024__fp16 --bytes 256MiB --calls 20
tar czf /tmp/r6.tgz -C /tmp r6 && mv /tmp/r6.tgz $OUT/
cp $o/images/summary.md $OUT/ 2>/dev/null
cat $o/images/summary.md | head -60
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$2" "$3" "$5" "$6" "$9" "$10; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-140
