#!/usr/bin/env bash
# The runs of this folder. `generate` here (the GPU machine has no glslang), `rule`, `confirm`
# and `images` on the GPU machine with OUT set and .device/b/runtime/fftgen-vk built.
#   rule:    kernels of rule.plan.json by the generator of 088d425 (before the rule): `auto`
#            (rows not paired at NY = 1024) against `row_pass`
#   confirm: kernels of confirm.plan.json by this commit's generator: `auto` (paired) against
#            `column_pass`
#   images:  the issue 9 session beside cuFFT and VkFFT, kernels of bench/plans/perf_2d.json
set -u
here=$(cd "$(dirname "$0")" && pwd)
vk=.device/b/runtime/fftgen-vk

# rounds NAME KERNELS CASE...: verify, then two rounds of both directions; a CASE is
# "KERNEL_A KERNEL_B BYTES CALLS", and every kernel is also timed at 512 MiB with its passes.
rounds() {
  local name=$1 k=$2; shift 2
  local cases=("$@") c a b bytes calls
  $vk verify "$k" > "$OUT/${name}_verify.txt" 2>&1
  for round in 1 2; do
    echo "== round $round"
    for d in forward inverse; do
      for c in "${cases[@]}"; do
        read -r a b bytes calls <<< "$c"
        $vk bench "$k" "$a" "$b" --bytes "$bytes" --calls "$calls" --trials 7 --direction $d
      done
      $vk bench "$k" --bytes 512MiB --calls 20 --trials 7 --direction $d --passes
    done
  done >> "$OUT/${name}_bench.txt" 2>&1
}

case "${1:-}" in
  generate)
    fftgen_before=${FFTGEN_BEFORE:?the fftgen binary of 088d425}
    "$fftgen_before" "$here/rule.plan.json" -o .device/krp -q
    build/generator/fftgen "$here/confirm.plan.json" -o .device/krp2 -q
    build/generator/fftgen bench/plans/perf_2d.json -o .device/k2d -q ;;
  rule)
    rounds rule .device/krp "g1024__auto g1024__row_pass 8MiB 200" "g1024__auto g1024__row_pass 32MiB 200" \
      "g1024__auto g1024__row_pass 128MiB 50" "g1024x512__auto g1024x512__row_pass 4MiB 200" \
      "g1024x2048__auto g1024x2048__row_pass 16MiB 200" ;;
  confirm)
    rounds confirm .device/krp2 "g1024x256__auto g1024x256__column_pass 2MiB 200" \
      "g1024x256__auto g1024x256__column_pass 8MiB 200" "g1024__auto g1024__column_pass 8MiB 200" \
      "g1024x512__auto g1024x512__column_pass 4MiB 200" ;;
  images)
    TIME_BUDGET=400 bash bench/run_images.sh .device/b .device/k2d $OUT/images ;;
  *) echo "usage: bash $0 generate|rule|confirm|images" >&2; exit 1 ;;
esac
