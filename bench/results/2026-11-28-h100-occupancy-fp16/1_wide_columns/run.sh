set -x
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/x21
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
$B verify $D/wt a c e a22 c22 > $OUT/verify.txt 2>&1
$B stats $D/wt a c e a22 c22 > $OUT/stats.txt 2>&1
$B stats $D/main base b22 >> $OUT/stats.txt 2>&1
for r in 1 2; do echo "== round $r"; $B bench $D/main base b22 --trials 7 --calls 20 --passes; $B bench $D/wt a c e a22 c22 --trials 7 --calls 20 --passes; done > $OUT/bench.txt 2>&1
cat $OUT/verify.txt $OUT/bench.txt; grep -o "^[a-z0-9_]* [a-z0-9]* CS:.*Register Count=[0-9]*" $OUT/stats.txt
