for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/cb4
$B verify $D/p2_broad c2c_2d__n256x256 > $OUT/verify.txt 2>&1
$B verify $D/ps_broad c2c_2d__n256x256__counters c2c_2d_wg64__n1024x1024__counters c2c_2d_wg64__n1024x1024__dispatch c2c_2d_wg64__n256x256__counters c2c_2d_wg64__n256x256__dispatch c2c_2d_wg64__n512x512__counters c2c_2d_wg64__n512x512__dispatch >> $OUT/verify.txt 2>&1
$B verify $D/sw_broad r1m__r16x16x4x16x16x4 >> $OUT/verify.txt 2>&1
for r in 1 2; do for v in base broad; do
 echo "== $v round $r"
 $B bench $D/p2_$v c2c_2d__n256x256 --trials 7 --calls 20
 $B bench $D/p2_$v c2c_2d__n256x256 --bytes 524288 --calls 200
 $B bench $D/ps_$v c2c_2d__n256x256__counters c2c_2d_wg64__n256x256__counters c2c_2d_wg64__n256x256__dispatch --bytes 524288 --calls 200
 $B bench $D/ps_$v c2c_2d_wg64__n512x512__counters c2c_2d_wg64__n512x512__dispatch --bytes 2097152 --calls 200
 $B bench $D/ps_$v c2c_2d_wg64__n1024x1024__counters c2c_2d_wg64__n1024x1024__dispatch --bytes 8388608 --calls 200
 $B bench $D/ps_$v c2c_2d__n256x256__counters c2c_2d_wg64__n1024x1024__counters c2c_2d_wg64__n1024x1024__dispatch c2c_2d_wg64__n256x256__counters c2c_2d_wg64__n256x256__dispatch c2c_2d_wg64__n512x512__counters c2c_2d_wg64__n512x512__dispatch --trials 7 --calls 20
 $B bench $D/sw_$v r1m__r16x16x4x16x16x4 --trials 7 --calls 20
done; done > $OUT/bench.txt 2>&1
grep -h "PASS\|FAIL" $OUT/verify.txt; grep -v "^device\|^kernel\|copy" $OUT/bench.txt
