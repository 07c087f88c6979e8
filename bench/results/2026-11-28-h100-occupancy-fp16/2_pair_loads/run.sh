set -x
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/f16
$B verify $D/edit f16p > $OUT/verify.txt 2>&1
$B verify $D/base f16p >> $OUT/verify.txt 2>&1
$B stats $D/edit f16p > $OUT/stats.txt 2>&1; $B stats $D/base f16 f16p >> $OUT/stats.txt 2>&1
for r in 1 2; do echo "== round $r"; $B bench $D/ref c2c_1024__fp32 c2c_1024__fp16 --trials 7 --calls 20 --passes; $B bench $D/base f16 f16p f16p48 f16_48 --trials 7 --calls 20 --passes; $B bench $D/edit f16p --trials 7 --calls 20 --passes; done > $OUT/bench.txt 2>&1
cat $OUT/verify.txt $OUT/bench.txt; grep -o "^[a-z0-9_]* [a-z0-9]* CS:.*Register Count=[0-9]*" $OUT/stats.txt
