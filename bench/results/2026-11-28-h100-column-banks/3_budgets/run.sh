for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/cb3
$B verify $D/sweep n4194304__smem49152 > $OUT/verify.txt 2>&1
$B verify $D/k21 n2097152__smem49152 >> $OUT/verify.txt 2>&1
for r in 1 2 3; do echo "== round $r"; $B bench $D/sweep n4194304__smem32768 n4194304__smem49152 --trials 7 --calls 20 --passes; $B bench $D/k21 --trials 7 --calls 20 --passes; done > $OUT/bench.txt 2>&1
$B stats $D/sweep n4194304__smem32768 n4194304__smem49152 > $OUT/stats.txt 2>&1; $B stats $D/k21 >> $OUT/stats.txt 2>&1
cat $OUT/verify.txt $OUT/bench.txt; grep -o "^.*Register Count=[0-9]*" $OUT/stats.txt
