#!/bin/bash
# The committed rules (pairs at once at NY = 1024, pairs at once on 64 invocations): issue 9's rows, then old vs new.
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r9; rm -rf $o; mkdir -p $o
TIME_BUDGET=330 bash bench/run_images.sh .device/b .device/k2d $o/images > $o/images_console.txt 2>&1
b() { echo "== $*" >> $o/bench.txt; $vk bench "$@" --trials 7 >> $o/bench.txt 2>&1; }
for r in 1 2; do for d in k2d_old k2d; do
  b .device/$d c2c_2d__n512x512 --bytes 2MiB --calls 200; b .device/$d c2c_2d__n512x512 --bytes 8MiB --calls 200
  b .device/$d c2c_2d__n512x512 c2c_2d__n1024x1024 --bytes 512MiB --calls 20
  b .device/$d c2c_2d__n1024x1024 --bytes 8MiB --calls 200
done; done
b .device/kfp16 c2c_1024__fp32 --bytes 512MiB --calls 20; b .device/kfp16 c2c_1024__fp16 --bytes 256MiB --calls 20
tar czf /tmp/r9.tgz -C /tmp r9 && mv /tmp/r9.tgz $OUT/
cp $o/images/summary.md $OUT/
sed -n '/Issue 9/,/Every other/p' $o/images/summary.md | cut -c1-150
grep -v "^device\|^kernel\|copy" $o/bench.txt | awk '/==/{h=$2" "$5" "$6; next} {print h, $0}' | sed 's/  */ /g' | cut -c1-140
