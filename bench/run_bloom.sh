#!/usr/bin/env bash
# Issue 10's speed rows on a GPU machine in one command: the bloom convolutions of
# bench/plans/bloom.json (one RGBA frame, a filter as large as the frame) and the fp16 against
# fp32 2D C2C 1024^2 x 64 of bench/plans/fp16.json, each verified first, then timed.
#
# usage: bash bench/run_bloom.sh BUILD_DIR BLOOM_KERNELS FP16_KERNELS OUT_DIR
#   BUILD_DIR      has runtime/fftgen-vk
#   BLOOM_KERNELS  build/generator/fftgen bench/plans/bloom.json -o kernels/bloom
#   FP16_KERNELS   build/generator/fftgen bench/plans/fp16.json -o kernels/fp16
#   OUT_DIR        gets summary.md (the rows with their targets), log.txt, and the JSON of each step
# Environment: TRIALS=7 CALLS=20 (fftgen-vk bench), SKIP_VERIFY=1 to time only.
set -u
usage="usage: bash bench/run_bloom.sh BUILD_DIR BLOOM_KERNELS FP16_KERNELS OUT_DIR"
case "${1:-}" in -h|--help) sed -n '2,13p' "$0"; exit 0 ;; esac
[ $# -eq 4 ] || { echo "$usage" >&2; exit 1; }
vk="$(cd "$1" && pwd)/runtime/fftgen-vk"
[ -x "$vk" ] || { echo "run_bloom.sh: no $vk" >&2; exit 1; }
bloom=$(cd "$2" && pwd) && [ -f "$bloom/manifest.json" ] || { echo "run_bloom.sh: no manifest.json in '$2'" >&2; exit 1; }
fp16=$(cd "$3" && pwd) && [ -f "$fp16/manifest.json" ] || { echo "run_bloom.sh: no manifest.json in '$3'" >&2; exit 1; }
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 1
trials=${TRIALS:-7}
calls=${CALLS:-20}
log="$out/log.txt"
: > "$log"
failed=0
step() {  # step NAME COMMAND...: runs it, output to the log and the terminal
  echo "== $1: ${*:2}" | tee -a "$log"
  "${@:2}" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || { echo "== $1 failed ($rc)" | tee -a "$log"; failed=1; }
}
if [ "${SKIP_VERIFY:-0}" != 1 ]; then
  # Convolutions against a direct convolution (small) or FFTW in double (large); fp16 against its bound.
  step verify_bloom "$vk" verify "$bloom" --json "$out/verify_bloom.json"
  step verify_fp16 "$vk" verify "$fp16" --batches 1 --json "$out/verify_fp16.json"
fi
step bench_bloom "$vk" bench "$bloom" --trials "$trials" --calls "$calls" --json "$out/bench_bloom.json"
# cuFFT's unfused chain in the same session, where CuPy is installed (bench/cufft_bloom.py).
if python3 -c "import cupy" 2>/dev/null; then
  step cufft_bloom python3 "$(dirname "$0")/cufft_bloom.py" --trials "$trials" --calls "$calls" \
    --json "$out/cufft_bloom.json"
fi
# Batch 64 for both: 8 MiB per fp32 transform, 4 MiB per fp16 one.
step bench_fp32 "$vk" bench "$fp16" c2c_1024__fp32 --bytes 512MiB --trials "$trials" --calls "$calls" \
  --json "$out/bench_fp32.json"
step bench_fp16 "$vk" bench "$fp16" c2c_1024__fp16 --bytes 256MiB --trials "$trials" --calls "$calls" \
  --json "$out/bench_fp16.json"
python3 - "$out" "$bloom" <<'PY' | tee "$out/summary.md"
import json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None
bench = load("bench_bloom.json")
print("# Bloom and fp16 (issue 10)\n")
if bench:
    print("device: %s (driver %s)\n" % (bench.get("device"), bench.get("driver_version")))
    # cuFFT's chain as issue 10 measured it, and the targets (3x at 1024 and 4096, 2x at 256).
    cufft = {"bloom256": (0.075, 0.037), "bloom1024": (0.382, 0.127), "bloom4096": (6.20, 2.07)}
    measured = {r["case"]: r for r in (load("cufft_bloom.json") or {}).get("results", [])}
    # The planes' precision: issue 10's targets compare fp32 with cuFFT's fp32 chain; an fp16 kernel
    # (half-float planes) is shown beside them, not counted as meeting them.
    kernels = {k["name"]: k for k in json.load(open(os.path.join(sys.argv[2], "manifest.json")))["kernels"]}
    print("| bloom, RGBA, filter as large as the frame | planes | fftgen fused (ms) | cuFFT chain, this session (ms) | cuFFT chain, issue 10 (ms) | speed-up | target (ms) | met |")
    print("|---|---|---|---|---|---|---|---|")
    for k in bench["results"]:
        name, ms = k.get("kernel") or k.get("name"), k.get("median_ms")
        case = name.split("_")[0]  # bloom1024_smem48k: a variant of bloom1024 (__filter: not timed here)
        if case in cufft and "__" not in name and ms:
            ref, target = cufft[case]
            here = measured.get(case, {}).get("ms")
            planes = kernels.get(name, {}).get("options", {}).get("precision", "fp32")
            met = ("yes" if ms <= target else "no") if planes == "fp32" else "(fp16: not compared)"
            print("| %s | %s | %.3f | %s | %.3f | %.2fx | %.3f | %s |" % (
                name, planes, ms, "%.3f" % here if here else "not run", ref, (here or ref) / ms, target, met))
b32, b16 = load("bench_fp32.json"), load("bench_fp16.json")
def kernel_ms(b):
    ks = [k for k in b["results"] if (k.get("kernel") or k.get("name", "")).startswith("c2c_1024")]
    return ks[0]["median_ms"], ks[0]["batch"]
if b32 and b16:
    (m32, n32), (m16, n16) = kernel_ms(b32), kernel_ms(b16)
    print("\n| 2D C2C 1024^2 | batch | ms | fp16 / fp32 | target |")
    print("|---|---|---|---|---|")
    print("| fp32 | %d | %.3f | | |" % (n32, m32))
    print("| fp16 storage | %d | %.3f | %.3f | <= 0.55 (%s) |" % (n16, m16, m16 / m32 * n32 / n16, "met" if m16 / m32 * n32 / n16 <= 0.55 else "not met"))
v = load("verify_fp16.json")
if v:
    for k in v["kernels"]:
        print("\nverify %s: rel L2 fwd %s, bound %s, %s" % (k["kernel"], k["rel_l2_forward"], k.get("tolerance"), "PASS" if k["pass"] else "FAIL"))
PY
exit $failed
