for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
$B verify .device/tw/tree n --batches 1,3 > $OUT/verify_tree.txt 2>&1
$B stats .device/tw/tree n > $OUT/stats.txt 2>&1; $B stats .device/st/k n >> $OUT/stats.txt 2>&1
for r in 1 2 3; do echo "== round $r"; for d in st/k tw/tree tw/none; do echo "-- $d"; $B bench .device/$d n g__n2048x1024 --trials 7 --calls 20 --passes; done; done > $OUT/bench.txt 2>&1
cat $OUT/verify_tree.txt; grep -v "^copy\|^device\|^kernel" $OUT/bench.txt; grep -o "^n [a-z0-9]* CS:.*Register Count=[0-9]*" $OUT/stats.txt
