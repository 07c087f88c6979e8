#!/bin/bash
# bench/results/2026-11-28-h200-r2c-half-exchange: how the kernels were made and timed. Each step's
# run.sh ran on the H200; .device/b holds runtime/fftgen-vk, bench/fftgen-bench and
# bench/fftgen-vkfft-check built from this checkout.
R=bench/results/2026-11-28-h200-r2c-half-exchange
OLD=/tmp/oldsrc/build/generator/fftgen   # 7cae6cf's generator (git worktree add /tmp/oldsrc 7cae6cf)
G=build/generator/fftgen                 # this commit's; steps 2-3 ran it with kHalfSeparationInvocations = 2 (every row of 2 invocations or more by halves)
W="--wisdom bench/wisdom/nvidia-h200.json"
# Step 1: variants by hand of 7cae6cf's R2C 1024/4096/16384 GLSL.
$OLD $R/1_by_hand/r2c.plan.json -o kg $W -q
for v in base shfl shfl2 lazy half; do cp -r kg $v; done   # base: unchanged
for n in 1024 4096 16384; do
  k=r2c_1d__n$n.fwd0
  python3 $R/1_by_hand/shfl.py kg/$k.comp shfl/$k.comp
  python3 $R/1_by_hand/shfl2.py kg/$k.comp shfl2/$k.comp
  python3 $R/1_by_hand/lazy.py kg/$k.comp lazy/$k.comp
  python3 $R/1_by_hand/half.py kg/$k.comp half/$k.comp
  for v in nosplit stride512; do mkdir -p $v; cp kg/* $v/ 2>/dev/null; python3 $R/1_by_hand/variants.py $v kg/$k.comp $v/$k.comp; done
  for v in base shfl shfl2 lazy half nosplit stride512; do
    glslangValidator -V --target-env vulkan1.1 -o x.spv $v/$k.comp && spirv-opt -O --target-env=vulkan1.1 x.spv -o $v/$k.spv
  done
done
# Device names: kb = base, ks = shfl (call 1) or shfl2 (calls 2-4), kl = lazy, kh = half,
# kn = nosplit, k5 = stride512.
bash $R/1_by_hand/call4/run.sh; bash $R/1_by_hand/call5/run.sh
# Step 2: perf_2d and bloom before and after (the rule then applied to every row).
for p in perf_2d bloom; do $OLD bench/plans/$p.json -o old/$p $W -q; $G bench/plans/$p.json -o new/$p $W -q; done
# (.device/k2d_old, k2d_new, kbl_old, kbl_new)
bash $R/2_generator/run.sh
# Step 3: rows of 4 to 256 invocations.
$OLD $R/3_small_rows/small.plan.json -o .device/ks_old $W -q
$G $R/3_small_rows/small.plan.json -o .device/ks_new $W -q
bash $R/3_small_rows/run.sh
# Step 4: issue 9's rows with the final generator (32 invocations a row or more).
$G bench/plans/perf_2d.json -o .device/k2d_new $W -q
bash $R/4_issue_rows/run.sh
# Forward against inverse of step 4's kernels.
bash $R/4_issue_rows/run_directions.sh
# Step 5: the c2r merge by halves by hand, on 7cae6cf's inverse kernels (kg above).
cp -r kg c2rh
for n in 1024 4096 16384; do
  k=r2c_1d__n$n.inv0
  python3 $R/1_by_hand/c2rhalf.py kg/$k.comp c2rh/$k.comp
  glslangValidator -V --target-env vulkan1.1 -o x.spv c2rh/$k.comp && spirv-opt -O --target-env=vulkan1.1 x.spv -o c2rh/$k.spv
done
# (.device/ki_old = kg, .device/ki_new = c2rh)
bash $R/5_c2r_by_hand/run.sh
# Step 6: perf_2d and bloom from b9e5e34 (.device/k2d_a, kbl_a) and this commit (k2d_b, kbl_b).
bash $R/6_c2r_generator/run.sh
