#!/usr/bin/env bash
# The full sweep of transform lengths: every N from 2 to 2048 whose prime factors are at most 61,
# then a sample of longer ones (prime powers, products of the largest primes, audio and video
# lengths), lengths with a prime factor above 61 (Bluestein: 2^k + 1, primes near 10^5 and 10^6),
# c2c and r2c (odd N too), each normalisation in turn, forward and inverse against FFTW in
# double, batches 1 and 3, on the local Vulkan device (lavapipe without a GPU). Writes
# <out>/verify.json and prints the worst relative L2 error per range of N (the table in
# docs/transforms.md). CI runs a sample of it (tests/test_gpu_anysize.cpp).
#
# usage: scripts/sweep_sizes.sh [out_dir]     (default: sweep_out; FFTGEN_BUILD_DIR: build)
#   TRANSFORMS="c2c r2c"   which transforms (r2c: the lengths up to 16384, 44100 and the Bluestein sample)
#   ALL_LENGTHS=0          1: every N from 2 to 2048, those with a prime factor above 61 through
#                          Bluestein too
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FFTGEN_BUILD_DIR:-build}"
out="${1:-sweep_out}"
mkdir -p "$out"

TRANSFORMS="${TRANSFORMS:-c2c r2c}" ALL_LENGTHS="${ALL_LENGTHS:-0}" python3 - "$out/sweep.json" <<'EOF'
import json, os, sys

def smooth(n):  # no prime factor above 61 (kMaxPrimeFactor): mixed radices
    for p in range(2, 62):
        while n % p == 0:
            n //= p
    return n == 1

all_lengths = os.environ["ALL_LENGTHS"] == "1"
transforms = os.environ["TRANSFORMS"].split()
dense = [n for n in range(2, 2049) if all_lengths or smooth(n)]
sample = [2187, 2197, 2401, 3375, 3721, 4095, 4096 * 3, 6561, 7203, 10000, 14641, 28561, 30030, 44100, 48000,
          59049, 65536 * 3, 1000000, 1037000, 1990656, 4826809, 12582912, 14348907]
sample = sorted(set(n for n in sample if smooth(n) and n <= 1 << 24))
# Bluestein beyond one dispatch (M > 16384): 2^13 + 17 (prime), 2^14 + 1, 2^16 + 1 (prime), the
# primes 100003 and 1000003.
bluestein = [8209, 16385, 65537, 100003, 1000003]
norms = ["none", "inverse", "ortho"]
kernels = []
for i, norm in enumerate(norms):
    lengths = [n for n in dense + sample if (dense + sample).index(n) % 3 == i]
    if "c2c" in transforms:
        kernels.append({"name": f"c2c_{norm}", "shape": [[n] for n in lengths], "normalize": norm})
    real = [n for n in lengths if n <= 16384 or n == 44100]
    if "r2c" in transforms:
        kernels.append({"name": f"r2c_{norm}", "shape": [[n] for n in real], "transform": "r2c", "normalize": norm})
kernels.append({"name": "bluestein", "shape": [[n] for n in bluestein], "transform": transforms})
kernels.append({"name": "grid", "shape": [[1080, 1920], [720, 1280], [1000, 1000]], "transform": transforms})
json.dump({"description": "scripts/sweep_sizes.sh: every N from 2 to 2048 with prime factors up to 61, and a sample beyond",
           "targets": ["spirv"], "kernels": kernels}, open(sys.argv[1], "w"))
EOF

"$build/generator/fftgen" "$out/sweep.json" -o "$out/kernels" > "$out/fftgen.log"
# A failed kernel still leaves its row in verify.json: the summary below names it.
"$build/runtime/fftgen-vk" verify "$out/kernels" --batches 1,3 --json "$out/verify.json" > "$out/verify.txt" || true

python3 - "$out/verify.json" <<'EOF'
import json, math, sys

results = json.load(open(sys.argv[1]))["kernels"]
ranges = [(2, 64), (65, 512), (513, 2048), (2049, 65536), (65537, 1 << 24)]
print("| N | kernels | worst rel L2 (c2c) | worst rel L2 (r2c) | worst / log2 N |")
print("|---|---|---|---|---|")
for lo, hi in ranges:
    rows = [r for r in results if lo <= r["n"] <= hi and "x" not in r["shape"]]
    if not rows:
        continue
    worst = lambda rs: max([max(r.get("rel_l2_forward") or 0, r.get("rel_l2_inverse") or 0) for r in rs] or [0])
    c2c = [r for r in rows if "r2c" not in r["shape"]]
    r2c = [r for r in rows if "r2c" in r["shape"]]
    per_log = max(max(r.get("rel_l2_forward") or 0, r.get("rel_l2_inverse") or 0) / math.log2(r["n"]) for r in rows)
    r2c_text = f"{worst(r2c):.2e}" if r2c else "-"
    print(f"| {lo}–{hi} | {len(rows)} | {worst(c2c):.2e} | {r2c_text} | {per_log:.2e} |")
failed = [r["kernel"] for r in results if not r["pass"]]
print(f"\n{len(results)} kernels, {len(failed)} failed" + (": " + ", ".join(failed) if failed else ""))
sys.exit(1 if failed else 0)
EOF
