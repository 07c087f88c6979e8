for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
D=.device/cb2
K="c2c_1d__n2097152 c2c_1d__n4194304 c2c_2d__n4096x4096 r2c_2d__n4096x4096"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
$B verify $D/p2_new $K > $OUT/verify_perf2d_new.txt 2>&1
$B verify $D/bloom_new bloom1024 bloom1024_pairs bloom1024_fp16 bloom1024_pairs_fp16 > $OUT/verify_bloom_new.txt 2>&1
$B stats $D/p2_new $K > $OUT/stats_new.txt 2>&1
for r in 1 2; do for m in old new; do echo "== $m round $r"; $B bench $D/p2_$m $K --trials 7 --calls 20 --passes; done; done > $OUT/bench.txt 2>&1
timeout 200 python3 bench/cufft_bench.py --sizes 2097152,4194304 --sizes-2d 4096x4096 --r2c-2d 4096x4096 --json $OUT/cufft.json > $OUT/cufft.txt 2>&1
cat $OUT/verify_*.txt $OUT/bench.txt $OUT/cufft.txt; grep -i "register" $OUT/stats_new.txt | head
