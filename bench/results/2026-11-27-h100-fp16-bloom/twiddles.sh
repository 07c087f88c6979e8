#!/bin/bash
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V verify .device/ktw > $OUT/verify.txt 2>&1
N=$(python3 -c "import json;m=json.load(open('.device/ktw/manifest.json'));print(' '.join(k['name'] for k in m['kernels'] if k['transform']=='convolution'))")
for i in 1 2; do $V bench .device/ktw $N --trials 7 --calls 20 --passes; done > $OUT/bench.txt 2>&1
grep -cE "PASS" $OUT/verify.txt; grep -E "FAIL" $OUT/verify.txt; grep -v "^device" $OUT/bench.txt | grep -v "^kernel\|copy"
