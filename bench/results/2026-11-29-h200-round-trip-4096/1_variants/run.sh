#!/bin/bash
# Step 1: the round trip of 4096-point columns in six layouts (exp.patch's FFTGEN_RT4096 =
# "radices:workgroup_size:shared_memory_bytes"; variants.txt lists them), each dir .device/rt/<i>.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
B=.device/b/runtime/fftgen-vk
cat .device/rt/variants.txt
for i in 1 2 3 4 5 6; do
  echo "== variant $i"
  $B verify .device/rt/$i bloom2048_pairs 2>&1 | tail -2
  $B bench .device/rt/$i --passes --trials 5 --calls 10 | grep -v '^device\|^copy\|^kernel'
  $B stats .device/rt/$i | grep -v filter | grep fwd1
done
