#!/bin/bash
# The final comparison of bench/results/2026-11-27-h100-fp16-pairs (README.md): fp16 2D kernels
# with first_y_stage auto (pairs of rows where the rule takes them) against column_pass (never),
# timed in one device call, two rounds, 256 MiB a buffer.
# Here (generator):  bash commands.sh generate   -> k_auto/ k_column/
# On the H100:       bash commands.sh run        -> final/{verify,bench}.txt (FFTGEN_VK: the runtime)
set -e
D=$(dirname "$0")
case "$1" in
  generate)
    for fys in auto column_pass; do
      sed "s/FYS/$fys/" "$D/final.plan.json" > "/tmp/fp16_pairs_$fys.json"
      build/generator/fftgen "/tmp/fp16_pairs_$fys.json" -o "$D/k_${fys%_pass}" -q
    done ;;
  run)
    V=${FFTGEN_VK:-build/runtime/fftgen-vk}; O=${OUT:-$D}/final; mkdir -p "$O"
    $V verify "$D/k_auto" --batches 1,2 > "$O/verify.txt" 2>&1
    for i in 1 2; do for k in column auto; do
      echo "== $k round $i" >> "$O/bench.txt"
      $V bench "$D/k_$k" --bytes 256MiB --trials 7 --calls 20 --passes --json "$O/${k}_$i.json" >> "$O/bench.txt" 2>&1
    done; done ;;
  *) echo "usage: commands.sh generate|run" >&2; exit 2 ;;
esac
