#!/bin/bash
set -u
vk=.device/b/runtime/fftgen-vk
o=/tmp/r2; rm -rf $o; mkdir -p $o
$vk verify .device/grid --batches 1 > $o/verify.txt 2>&1
g=$(python3 -c "import json;print(' '.join(k['name'] for k in json.load(open('.device/grid/manifest.json'))['kernels'] if k['name'].startswith('g')))")
h=$(python3 -c "import json;print(' '.join(k['name'] for k in json.load(open('.device/grid/manifest.json'))['kernels'] if k['name'].startswith('h')))")
for r in 1 2; do
  echo "== round $r 1024" >> $o/bench.txt; $vk bench .device/grid $g --bytes 8MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
  echo "== round $r 512" >> $o/bench.txt; $vk bench .device/grid $h --bytes 2MiB --calls 200 --trials 7 --passes >> $o/bench.txt 2>&1
done
$vk stats .device/grid > $o/stats.txt 2>&1
tar czf /tmp/r2.tgz -C /tmp r2 && mv /tmp/r2.tgz $OUT/
grep -c PASS $o/verify.txt; grep FAIL $o/verify.txt
grep -v "^device\|^kernel\|copy" $o/bench.txt
