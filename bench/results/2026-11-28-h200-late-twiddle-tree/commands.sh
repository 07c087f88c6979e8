#!/bin/bash
# bench/results/2026-11-28-h200-late-twiddle-tree: how the kernels were made and timed.
# Not meant to run as one script: each step ran once, on the H200, as its run.sh says
# (.device/ is the ignored folder carried to the GPU machine; .device/b holds runtime/fftgen-vk,
# bench/fftgen-bench and bench/fftgen-vkfft-check built from this checkout).
#
# Steps 1 and 2: "base" is 77c5785's generator; the variants come from a scratch generator,
# 77c5785 with 2_order/exp.patch (environment switches, not committed):
#   FFTGEN_EXP_LATE_TREE=all   product trees in every late stage of radix >= 8 (table twiddles)
#   FFTGEN_EXP_LATE_TREE=one   ... only where the stage has one butterfly an invocation
#   FFTGEN_EXP_LATE_IL=1       each late twiddle formed just before its multiplication ("il")
B=bench/results/2026-11-28-h100-stage-twiddle-tree/2_split_bloom_fp16/bloom_subset.plan.json
G=build/generator/fftgen; X=/tmp/wt/build/generator/fftgen
$G bench/plans/perf_2d.json --targets spirv -o .device/exp/base -q
$G $B --targets spirv -o .device/exp/bl_base -q
FFTGEN_EXP_LATE_TREE=all $X bench/plans/perf_2d.json --targets spirv -o .device/exp/all -q     # and bl_all from $B
FFTGEN_EXP_LATE_TREE=one $X bench/plans/perf_2d.json --targets spirv -o .device/exp/one -q     # and bl_one
FFTGEN_EXP_LATE_TREE=all FFTGEN_EXP_LATE_IL=1 $X bench/plans/perf_2d.json --targets spirv -o .device/exp/il -q  # and bl_il
bash 1_late_all/run.sh; bash 2_order/run.sh      # on the H200

# Steps 3 and 4: the committed generator.
$G bench/plans/perf_2d.json --targets spirv -o .device/k2d -q
$G bench/plans/bloom.json --targets spirv -o .device/kbloom -q
$G bench/plans/fp16.json --targets spirv -o .device/kfp16 -q
bash 3_images/run.sh   # bench/run_images.sh with TIME_BUDGET=470
bash 4_bloom/run.sh    # bench/run_bloom.sh, then the 4096², 1024², 256² pairs blooms with --passes

# Step 5 (1eff733's generator): the R2C sweep and sweep_1d.
$G 5_sweeps/sweep_r2c.plan.json -o .device/kr2c -q
$G bench/plans/sweep_1d.json -o .device/ks1d -q
bash 5_sweeps/run.sh
python3 bench/wisdom.py 5_sweeps/sweep_1d.json bench/plans/sweep_1d.json .device/ks1d > 5_sweeps/wisdom_h200_sweep_1d.json

# Step 6: perf_1d at 77c5785 (the scratch generator with no switch set is 77c5785) and 1eff733.
$X bench/plans/perf_1d.json --targets spirv -o .device/p1b -q
$G bench/plans/perf_1d.json --targets spirv -o .device/p1n -q          # G at 1eff733
$X 6_perf_1d/radices.plan.json -o .device/rb -q; $G 6_perf_1d/radices.plan.json -o .device/rn -q
bash 6_perf_1d/run.sh

# Step 7: the final rule (G at this folder's last commit); p1b as in step 6.
$G bench/plans/perf_2d.json --targets spirv -o .device/k2d -q
$G bench/plans/perf_1d.json --targets spirv -o .device/p1n -q
$G bench/plans/bloom.json --targets spirv -o .device/kbloom -q
bash 7_final/run.sh

# Step 8: the H200 wisdom table (final generator, sweep_1d.json with its R2C kernels).
$G bench/plans/sweep_1d.json -o .device/ks1d -q
bash 8_wisdom/run.sh
python3 bench/wisdom.py 8_wisdom/sweep_1d.json bench/plans/sweep_1d.json .device/ks1d > bench/wisdom/nvidia-h200.json
