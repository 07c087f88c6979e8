set -u   # on the GPU machine, OUT set
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
vk=.device/b/runtime/fftgen-vk
# kernels: build/generator/fftgen poly.plan.json -o .device/kpoly, by a generator with polynomial.patch
K=${KERNELS:-.device/kpoly}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 150 $vk verify $K > $OUT/verify.txt 2>&1
for round in 1 2; do
  echo "== round $round" >> $OUT/bench.txt
  $vk bench $K g512__table g512__computed g512__polynomial --bytes 8MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
  $vk bench $K g512__table g512__computed g512__polynomial --bytes 2MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
  $vk bench $K g1024__table g1024__computed g1024__polynomial g1024rp__table g1024rp__computed g1024rp__polynomial --bytes 8MiB --calls 200 --trials 7 >> $OUT/bench.txt 2>&1
  $vk bench $K c4096__table c4096__polynomial g512__table g512__polynomial g1024__table g1024__polynomial r1024__table r1024__polynomial c2p21__table c2p21__polynomial --bytes 512MiB --trials 5 --calls 20 --passes >> $OUT/bench.txt 2>&1
done
