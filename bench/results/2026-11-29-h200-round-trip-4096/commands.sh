#!/bin/bash
# bench/results/2026-11-29-h200-round-trip-4096: how the kernels were made and timed. Each step's
# run.sh ran on the H200 from the repository root; .device/b holds runtime/fftgen-vk built from
# 66790b7 (the runtime is unchanged by this work). Every call began with
# `for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig;` (libvulkan1 libegl1 libglvnd0
# libopengl0 libgl1 libglx0 libgles2).
R=bench/results/2026-11-29-h200-round-trip-4096
OLD=/tmp/x/build/generator/fftgen   # 66790b7's generator with exp.patch (FFTGEN_RT4096 unset: 66790b7 itself)
NEW=build/generator/fftgen          # this commit's
W="--wisdom bench/wisdom/nvidia-h200.json"

# Step 0: HEAD's kernels of padded heights 4096 and 8192, and fp16.json.
$OLD $R/0_baseline/plan.json -o .device/feas -q $W
$OLD bench/plans/fp16.json -o .device/kfp16 -q $W
bash $R/0_baseline/run.sh

# Step 1: six layouts of the 4096-point round trip (radices:workgroup_size:shared_memory_bytes).
i=0
for v in 16,16,16:512:32768 16,16,16:256:32768 16,16,16:512:49152 8,16,32:256:32768 32,4,32:256:49152 16,16,16:256:49152; do
  i=$((i + 1)); FFTGEN_RT4096=$v $OLD $R/1_variants/plan.json -o .device/rt/$i -q $W
  echo "$i $v" >> .device/rt/variants.txt
done
bash $R/1_variants/run.sh

# Step 2: 66790b7 (old), 16x16x16 on 512 invocations with 66790b7's map for two unpadded columns,
# column_swizzled (plain: its _smem48k kernels are laid out in 32 KB too), and this commit (new:
# tile_swizzled at 32 KB, tile_padded at 48 KB), one process each, one session; cuFFT's chain beside.
$OLD $R/2_comparison/plan.json -o .device/rt/old -q $W
FFTGEN_RT4096=16,16,16:512:32768 $OLD $R/2_comparison/plan.json -o .device/rt/plain -q $W
$NEW $R/2_comparison/plan.json -o .device/rt/new -q $W
bash $R/2_comparison/run.sh OUT

# Step 3: the 32 KB round trip's stage twiddles: loaded before their exchange or not, formed by a
# product tree or not (exp3.patch on 883f487: FFTGEN_NO_EARLY, FFTGEN_NO_TREE).
G3=/tmp/y/build/generator/fftgen   # 883f487 with exp3.patch
$G3 $R/3_twiddles/plan.json -o .device/tw/base -q $W
FFTGEN_NO_EARLY=1 $G3 $R/3_twiddles/plan.json -o .device/tw/noearly -q $W
FFTGEN_NO_EARLY=1 FFTGEN_NO_TREE=1 $G3 $R/3_twiddles/plan.json -o .device/tw/neither -q $W
bash $R/3_twiddles/run.sh OUT
