for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/st
K=$(python3 -c "import json;print(' '.join(k['name'] for k in json.load(open('$D/k/manifest.json'))['kernels']))")
$B verify $D/k $K --batches 1 > $OUT/verify.txt 2>&1
for r in 1 2; do echo "== round $r"; $B bench $D/k $K --trials 7 --calls 20 --passes; done > $OUT/bench.txt 2>&1
cat $OUT/verify.txt; grep -v "^copy\|^device\|^kernel" $OUT/bench.txt
