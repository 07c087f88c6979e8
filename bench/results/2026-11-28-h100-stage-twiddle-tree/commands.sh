#!/bin/bash
# bench/results/2026-11-28-h100-stage-twiddle-tree: how the kernels were made and timed.
# Not meant to run as one script: each step ran once, on the H100 where it says so.
#
# Kernels. "base" is 4fe889e's generator. Steps 1, 2 and 4 used a scratch generator, 4fe889e with
# 1_variants/exp.patch (environment switches, not committed):
#   FFTGEN_EXP_SINGLE_TREE=1   inter-pass twiddles by a product tree from a single-level table too
#   FFTGEN_EXP_STAGE_TREE=R    stage twiddles of radix >= R by a product tree, every stage
#   FFTGEN_EXP_TREE_SPLIT=1    ... split in two levels (W^(hi k) * W^(lo k)) instead of a binary tree
#   FFTGEN_EXP_TREE_NP=1       ... only in stages whose twiddles are loaded where used (not measured)
# Variants: st = SINGLE_TREE; t16, t8 = SINGLE_TREE + STAGE_TREE=16 / 8; t2 = t8 + TREE_SPLIT.
# "new" (step 3, 5) is the committed generator; "new2" (step 4) was it plus split late twiddles.
G=build/generator/fftgen
$G bench/plans/perf_2d.json -o base -q                       # and st, t16, t8, t2, new, new2 likewise
$G 2_split_bloom_fp16/bloom_subset.plan.json -o bl_base -q    # the pairs blooms of bench/plans/bloom.json
$G 2_split_bloom_fp16/fp16_table.plan.json -o f16_base -q     # fp16.json plus an fp16 kernel with table twiddles
$G bench/plans/perf_1d.json -o p1b -q                         # step 5 (p1n: the committed generator)

# On the H100 (fftgen-vk built at 4fe889e; the runtime is unchanged), for each variant v, rounds
# interleaved (1, 2, 3: two rounds; 4: one):
V=runtime/fftgen-vk
$V bench $v c2c_2d__n256x256 --bytes 512KiB --calls 200 --trials 7 --passes   # small grids, µs a call
$V bench $v c2c_2d__n512x512 --bytes 2MiB --calls 200 --trials 7 --passes     # 512² x 1
$V bench $v c2c_2d__n512x512 --bytes 8MiB --calls 200 --trials 7 --passes     # 512² x 4
$V bench $v c2c_2d__n1024x1024 --bytes 8MiB --calls 200 --trials 7 --passes   # 1024² x 1
$V bench $v --bytes 512MiB --trials 7 --calls 20                              # every perf_2d kernel
$V bench bl_$v --trials 7 --calls 20 --passes                                 # blooms (2, 3, 4)
$V bench f16_$v c2c_1024__fp32 --bytes 512MiB --trials 7 --calls 20           # issue 10's fp16 row (2, 3)
$V bench f16_$v c2c_1024__fp16 c2c_1024t --bytes 256MiB --trials 7 --calls 20
$V verify $v KERNELS --batches 1,3                                            # verify.txt: the kernels it names
$V verify bl_$v; $V verify f16_$v --batches 1
# Step 5: 5_perf_1d/run.sh.
