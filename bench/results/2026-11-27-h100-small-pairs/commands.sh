#!/bin/bash
# bench/results/2026-11-27-h100-small-pairs (README.md): fp32 2D C2C small grids with the generator
# before (OLD_FFTGEN: commit 9bc3b0a's) and after it (39d9593), in one device call, two rounds:
# batch 1 and 4 (200 back-to-back calls) and 512 MiB.
# Here:         OLD_FFTGEN=… bash commands.sh generate   -> k_before/ k_after/
# On the H100:  FFTGEN_VK=… bash commands.sh run         -> final/{verify,bench}.txt
set -e
D=$(dirname "$0")
case "$1" in
  generate)
    "$OLD_FFTGEN" "$D/small.plan.json" -o "$D/k_before" -q
    build/generator/fftgen "$D/small.plan.json" -o "$D/k_after" -q ;;
  run)
    V=${FFTGEN_VK:-build/runtime/fftgen-vk}; O=${OUT:-$D}/final; mkdir -p "$O"
    $V verify "$D/k_after" --batches 1,4 > "$O/verify.txt" 2>&1
    declare -A MIB=([g__n256x256]=0.5 [g__n512x512]=2 [g__n512x256]=1 [g__n256x512]=1 [g__n1024x1024]=8 [g__n512x1024]=4)
    for i in 1 2; do for k in before after; do
      echo "== $k round $i: 512 MiB" >> "$O/bench.txt"
      $V bench "$D/k_$k" --bytes 512MiB >> "$O/bench.txt" 2>&1
      for g in g__n256x256 g__n512x512 g__n512x256 g__n256x512 g__n1024x1024 g__n512x1024; do
        b1=$(python3 -c "print(int(${MIB[$g]} * 1048576))")
        echo "== $k round $i: $g batch 1 and 4" >> "$O/bench.txt"
        $V bench "$D/k_$k" $g --bytes $b1 --calls 200 --passes >> "$O/bench.txt" 2>&1
        $V bench "$D/k_$k" $g --bytes $((4 * b1)) --calls 200 --passes >> "$O/bench.txt" 2>&1
      done
    done; done ;;
  *) echo "usage: commands.sh generate|run" >&2; exit 2 ;;
esac
