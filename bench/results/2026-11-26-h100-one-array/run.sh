#!/usr/bin/env bash
# Eighth session: issue 9's session (run_images.sh on perf_2d.json, 2D 512^2 now counters) and the
# pass_sync pairs (bench/plans/pass_sync.json) at 512 MiB and as small grids (200 calls).
O=${OUT:-/tmp/out}; mkdir -p $O/images $O/ps
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/ps/gpu.txt 2>&1
K=.device/kdisp; VK=.device/b/runtime/fftgen-vk
timeout 150 $VK verify $K --batches 1,3,61 > $O/ps/verify.txt 2>&1
for r in 1 2; do timeout 100 $VK bench $K --bytes 536870912 --trials 7 --calls 20 --json $O/ps/bench$r.json > $O/ps/bench$r.txt 2>&1; done
for k in $(python3 -c 'import json;[print(k["name"]+":"+"x".join(map(str,k["shape"]))) for k in json.load(open(".device/kdisp/manifest.json"))["kernels"] if len(k["shape"])==2]'); do
  n=${k%%:*}; s=${k#*:}; IFS=x read -r h w <<< "$s"
  for b in 1 4; do
    [ $h -eq 1024 ] && [ $b -eq 4 ] && continue
    for r in 1 2; do timeout 20 $VK bench $K $n --bytes $((h*w*b*8)) --trials 7 --calls 200 --json $O/ps/grid_${n}_b${b}_$r.json > $O/ps/grid_${n}_b${b}_$r.txt 2>&1; done
  done
done
cd $O/ps && tar czf ../pass_sync.tar.gz . && cd - > /dev/null
grep -h "" $O/ps/gpu.txt; grep -v "^device" $O/ps/verify.txt | awk '{print $1, $NF}'
for r in 1 2; do grep -v "^device" $O/ps/bench$r.txt | head -40; done
for f in $O/ps/grid_*.txt; do echo "$(basename $f .txt) $(grep -v '^device\|^kernel' $f | head -3 | tr -s ' ' | tr '\n' '|')"; done
rm -rf $O/ps
[ "${IMAGES:-1}" = 1 ] && TIME_BUDGET=420 bash bench/run_images.sh .device/b .device/k2d $O/images > $O/run_images.out 2>&1 && tail -45 $O/images/summary.md
