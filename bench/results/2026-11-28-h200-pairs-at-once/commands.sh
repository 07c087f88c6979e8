#!/bin/bash
# bench/results/2026-11-28-h200-pairs-at-once: how the kernels were made and timed. Each step's
# run.sh ran on the H200 from the repository root; .device/b holds runtime/fftgen-vk,
# bench/fftgen-bench and bench/fftgen-vkfft-check built from 78261b0. Every call began with
# `for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig;` (the Vulkan loader and
# libglvnd packages: libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2).
R=bench/results/2026-11-28-h200-pairs-at-once
G=build/generator/fftgen        # 78261b0's generator; steps 2-5 with exp.patch applied (scratch switches)
W="--wisdom bench/wisdom/nvidia-h200.json"
comp() { glslangValidator -V --target-env vulkan1.1 -o x.spv $1.comp && spirv-opt -O --target-env=vulkan1.1 x.spv -o $1.spv; }

# Step 1: the bloom's statically known zeros dropped by hand (A: as generated, S: loads and stores
# that are statically out dropped, F: S with the first stage's butterflies specialised for their
# zero inputs), and the R2C part of the H200 wisdom sweep again.
jq '.kernels |= map(select(.name == "bloom1024_pairs" or .name == "bloom4096_pairs")) | .targets = ["spirv", "glsl"]' \
  bench/plans/bloom.json > plan.json
$G plan.json -o out -q
for v in A S F; do cp -r out $v; done
for n in 1024 4096; do for p in $(cd out && ls bloom${n}_pairs.[fi]*.comp | sed 's/.comp//'); do
  python3 $R/1_bloom_zeros_and_wisdom/prune.py out/$p.comp S/$p.comp static $n
  python3 $R/1_bloom_zeros_and_wisdom/prune.py out/$p.comp F/$p.comp fold $n
  for v in A S F; do comp $v/$p; done    # A's SPIR-V equals the generator's (cmp)
done; done
$G $R/1_bloom_zeros_and_wisdom/rsweep.json -o .device/rs -q   # sweep_1d.json's real1024 and real4096
bash $R/1_bloom_zeros_and_wisdom/run.sh

# Step 2: 1024² x 1 and 512² x 1 grids by plan fields (first_y_stage, workgroup_size, shared memory, counters).
$G $R/2_grid_variants/grid.json -o .device/grid -q
bash $R/2_grid_variants/run.sh

# Steps 3-4: 1024² with exp.patch's switches: EXP_ROW_INV (a row pass's auto invocations),
# EXP_MAXCOL (column tiles of at most this many columns), EXP_AT_ONCE (pairs of rows at once).
for v in base:: r64:64: c8::8 c4::4 r64c8:64:8 r64c4:64:4; do
  IFS=: read n r c <<< "$v"
  env ${r:+EXP_ROW_INV=$r} ${c:+EXP_MAXCOL=$c} $G $R/3_grid_tiles/g1.plan.json -o .device/gv/$n -q
done
bash $R/3_grid_tiles/run.sh
EXP_AT_ONCE=1 $G $R/3_grid_tiles/g1.plan.json -o .device/gv/once -q
EXP_AT_ONCE=1 EXP_MAXCOL=8 $G $R/3_grid_tiles/g1.plan.json -o .device/gv/once_c8 -q
bash $R/4_at_once/run.sh

# Step 5: NY = 1024 grids and fp16 1024², in turn against at once.
$G $R/5_shapes/shapes.plan.json -o .device/sh/turn -q
EXP_AT_ONCE=1 $G $R/5_shapes/shapes.plan.json -o .device/sh/once -q
bash $R/5_shapes/run.sh

# Step 6: the committed rule (this folder's commit): issue 9's rows, beside cuFFT and VkFFT; old
# against new 1024² in one process; fp16 against fp32 1024² x 64.
OLD=/tmp/oldsrc/build/generator/fftgen   # 78261b0's generator (git worktree add /tmp/oldsrc 78261b0)
$OLD bench/plans/perf_2d.json -o .device/k2d_old $W -q
NEW=build/generator/fftgen               # this folder's commit
$NEW bench/plans/perf_2d.json -o .device/k2d $W -q
$NEW bench/plans/fp16.json -o .device/kfp16 -q
bash $R/6_issue_rows/run.sh

# Step 7: 512² with exp.patch's switches (pairs at once already there).
for v in base:: r64:64: c8::8 c4::4 r64c8:64:8 r64c4:64:4; do
  IFS=: read n r c <<< "$v"
  env ${r:+EXP_ROW_INV=$r} ${c:+EXP_MAXCOL=$c} $G $R/7_grid512_tiles/g512.plan.json -o .device/g512/$n -q
done
bash $R/7_grid512_tiles/run.sh

# Step 8: every grid that pairs at once, aiming at 256 (base) or 64 (r64) invocations.
EXP_AT_ONCE=1 $G $R/8_at_once_64/small.plan.json -o .device/sm/base -q
EXP_AT_ONCE=1 EXP_ROW_INV=64 $G $R/8_at_once_64/small.plan.json -o .device/sm/r64 -q
bash $R/8_at_once_64/run.sh

# Step 9: this folder's commit (both rules): issue 9's rows, old against new, fp16 against fp32.
$NEW bench/plans/perf_2d.json -o .device/k2d $W -q
$NEW bench/plans/fp16.json -o .device/kfp16 -q
bash $R/9_final_rows/run.sh

# Step 10: the 512-point Y pass of 1024² split smaller (exp10.patch: exp.patch plus EXP_YRAD, EXP_YRAD8).
for v in base: y16:EXP_YRAD y8:EXP_YRAD8; do
  IFS=: read n e <<< "$v"
  env EXP_AT_ONCE=1 EXP_ROW_INV=64 ${e:+$e=1} $G $R/3_grid_tiles/g1.plan.json -o .device/y/$n -q
done
EXP_AT_ONCE=1 EXP_ROW_INV=64 EXP_YRAD=1 EXP_MAXCOL=8 $G $R/3_grid_tiles/g1.plan.json -o .device/y/y16c8 -q
bash $R/10_column_radices/run.sh

# Step 11: 32 KB against 48 and 64 KB of shared memory at the committed rules.
build/generator/fftgen $R/11_shared_48k/smem.plan.json -o .device/sm2 -q
bash $R/11_shared_48k/run.sh

# Step 12: the 1024² bloom's passes by shared budget and workgroup size (bloom.json's variants and one more).
build/generator/fftgen $R/12_bloom1024_shared/bl.plan.json -o .device/bl -q
bash $R/12_bloom1024_shared/run.sh

# Step 13: the 1024² bloom's round trip on 512 invocations of 8 values (exp13.patch: EXP_RT8, EXP_RT4, EXP_RT8W).
for v in base: rt8:EXP_RT8=1 rt8w256:EXP_RT8W=256 rt4:EXP_RT4=1; do
  IFS=: read n e <<< "$v"
  env $e $G $R/13_bloom1024_round_trip/b1.plan.json -o .device/rt/$n -q
done
bash $R/13_bloom1024_round_trip/run.sh
