#!/bin/bash
# bench/plans/sweep_1d.json (real1024 with three radix splits) for the H200 wisdom table.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
V=.device/b/runtime/fftgen-vk
$V verify .device/ks1d $(python3 -c "import json;print(' '.join(k['name'] for k in json.load(open('.device/ks1d/manifest.json'))['kernels'] if k['name'].startswith('real')))") --batches 1,3 > $OUT/verify.txt 2>&1; echo "verify rc $?" >> $OUT/verify.txt
$V bench .device/ks1d --bytes 512MiB --trials 7 --calls 20 --json $OUT/sweep_1d.json > $OUT/sweep_1d.txt 2>&1
tail -2 $OUT/verify.txt; grep real1024 $OUT/sweep_1d.txt
