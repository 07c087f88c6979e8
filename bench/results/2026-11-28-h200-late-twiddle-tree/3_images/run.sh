#!/bin/bash
# Issue 9's rows on the H200 beside cuFFT and VkFFT, kernels of the late-twiddle-tree commit.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv > $OUT/smi.txt 2>&1
python3 -c "import cupy; print('cupy', cupy.__version__)" >> $OUT/smi.txt 2>&1
mkdir -p $OUT/images
TIME_BUDGET=470 WORK_DIR=/tmp/images bash bench/run_images.sh .device/b .device/k2d $OUT/images > $OUT/run.txt 2>&1
tail -5 $OUT/run.txt
