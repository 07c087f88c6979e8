#!/bin/bash
# bench/results/2026-11-28-h200-r2c-radices: how the kernels were made and timed (each step's
# run.sh ran once on the H200; .device/b holds runtime/fftgen-vk, bench/fftgen-bench and
# bench/fftgen-vkfft-check built from this checkout).
G=build/generator/fftgen
R=bench/results/2026-11-28-h200-r2c-radices
# Step 1: radix splits and twiddle sources of R2C 1024 and 4096.
$G $R/1_radices/radices.plan.json -o .device/kr2c -q
bash $R/1_radices/run.sh
# Step 2: the sweep (real1024 with three radix splits) and the wisdom table.
$G bench/plans/sweep_1d.json -o .device/ks1d -q
bash $R/2_wisdom/run.sh
python3 bench/wisdom.py $R/2_wisdom/sweep_1d.json bench/plans/sweep_1d.json .device/ks1d > bench/wisdom/nvidia-h200.json
# Step 3: issue 9's rows with the table.
$G bench/plans/perf_2d.json --wisdom bench/wisdom/nvidia-h200.json --targets spirv -o .device/k2dw -q
TIME_BUDGET=330 bash bench/run_images.sh .device/b .device/k2dw OUT/images
# Step 4: R2C 16384 splits of 8 and 16 values an invocation.
$G $R/4_r16384/r16384.plan.json -o .device/k16k -q
bash $R/4_r16384/run.sh
