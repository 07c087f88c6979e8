for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
K="c2c_1d__n32768 c2c_1d__n65536 c2c_1d__n1048576 c2c_1d__n2097152 c2c_1d__n4194304 r2c_1d__n65536"
L="bloom4096_pairs bloom4096 bloom4096_pairs_fp16"
$B verify .device/k2dn $K > $OUT/verify_new.txt 2>&1
$B verify .device/kbloomn $L >> $OUT/verify_new.txt 2>&1
for r in 1 2; do for d in k2d k2dn; do echo "== round $r $d"; $B bench .device/$d $K --trials 7 --calls 20; done; for d in kbloom kbloomn; do echo "== round $r $d"; $B bench .device/$d $L --trials 7 --calls 20; done; done > $OUT/bench.txt 2>&1
cat $OUT/verify_new.txt; grep -v "^copy\|^device\|^kernel" $OUT/bench.txt
