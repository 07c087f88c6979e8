#!/bin/bash
# Step 0: where the time of padded heights of 4096 and 8192 goes, and fp16's passes (HEAD kernels).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
$B bench .device/feas circ4096x8192 bloom2048_pairs bloom4096_pairs --passes --trials 7 --calls 20
$B stats .device/feas
$B bench .device/kfp16 --passes --trials 7 --calls 20 --bytes 256MiB
$B stats .device/kfp16
