for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/f16
K=$(python3 -c "import json;print(' '.join(k['name'] for k in json.load(open('$D/sweep/manifest.json'))['kernels']))")
$B verify $D/sweep $K --batches 1 > $OUT/verify_sweep.txt 2>&1
for r in 1 2 3; do echo "== round $r"; $B bench $D/ref c2c_1024__fp32 --bytes 512MiB --trials 7 --calls 20; $B bench $D/ref c2c_1024__fp16 --bytes 256MiB --trials 7 --calls 20 --passes; $B bench $D/sweep $K --bytes 256MiB --trials 7 --calls 20 --passes; done > $OUT/bench_sweep.txt 2>&1
cat $OUT/verify_sweep.txt; grep -v "^copy\|^device\|^kernel" $OUT/bench_sweep.txt
