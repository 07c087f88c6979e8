set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
vk=.device/b/runtime/fftgen-vk
for round in 1 2; do
  for k in ke0 ke1; do
    K=.device/$k
    echo "== round $round $k" >> $OUT/bench.txt
    $vk bench $K g512 --bytes 8MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
    $vk bench $K g512 --bytes 2MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
    $vk bench $K g256 --bytes 512KiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
    $vk bench $K g1024 --bytes 8MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
    $vk bench $K --bytes 512MiB --calls 20 --trials 5 >> $OUT/bench.txt 2>&1
  done
done
$vk stats .device/ke0 > $OUT/stats0.txt 2>&1
$vk stats .device/ke1 > $OUT/stats1.txt 2>&1
