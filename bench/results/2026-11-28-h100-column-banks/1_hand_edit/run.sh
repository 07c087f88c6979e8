set -x
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/cb
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
$B verify $D/split > $OUT/verify_split.txt 2>&1
$B verify $D/whole > $OUT/verify_whole.txt 2>&1
for m in base split whole; do $B stats $D/$m; done > $OUT/stats.txt 2>&1
for r in 1 2; do for m in base split whole; do echo "== $m round $r"; $B bench $D/$m --trials 7 --calls 20 --passes; done; done > $OUT/bench.txt 2>&1
tail -3 $OUT/verify_*.txt; cat $OUT/bench.txt; grep -i "regist\|fft" $OUT/stats.txt | head -40
