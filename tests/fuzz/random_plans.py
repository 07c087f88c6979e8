#!/usr/bin/env python3
"""Random plans through the fftgen CLI (docs/fuzzing.md).

Every plan fftgen accepts must generate (a shader that fails to compile from an accepted plan is a
defect, not an allowed outcome), and every plan it refuses must be refused the same way by
`--dry-run` and by a run, with a message that names what is wrong (a plan field, or the shared
memory a target allows). The plans come from a fixed seed, so every run checks the same set; the
plans of defects found this way come first.

usage: random_plans.py --fftgen PATH --work DIR [--count N] [--generate N] [--seed S]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys

# Plans that once failed, with what went wrong.
REGRESSIONS = [
    ("auto paired rows that mixed-radix rows cannot take: an internal make_layout error",
     {"name": "k", "shape": [2048, 500]}, ["spirv"]),
    ("the same for a grid whose rows pair at once",
     {"name": "k", "shape": [512, 300]}, ["spirv", "hlsl"]),
    ("a one-stage last pass of a multi-pass r2c exchanged through a shared array never declared",
     {"name": "k", "shape": [131072], "transform": "r2c", "shared_memory_bytes": 1024}, ["spirv", "msl"]),
    ("--dry-run listed the files of a plan a run refuses (HLSL over D3D12's 32 KB)",
     {"name": "k", "shape": [65536], "shared_memory_bytes": 49152, "pass_sync": "counters"}, ["spirv", "hlsl"]),
]

SIZES = [2, 3, 4, 5, 6, 7, 8, 12, 13, 16, 17, 30, 32, 60, 64, 100, 121, 127, 128, 243, 256, 300, 384, 500,
         512, 625, 640, 768, 1000, 1024, 1080, 1536, 2000, 2048, 4096, 4097, 8192, 16384, 65536, 131072,
         262144, 1048576]
SIDES = [2, 3, 4, 6, 8, 16, 17, 30, 32, 60, 64, 100, 128, 240, 256, 300, 500, 512, 640, 768, 1000, 1024,
         1080, 2048, 4096]
FIELDS = {
    "transform": ["c2c", "r2c", "r2c_pair"],
    "precision": ["fp32", "fp16"],
    "direction": ["both", "forward", "inverse"],
    "normalize": ["none", "inverse", "ortho"],
    "index_math": ["bitwise", "divmod"],
    "twiddles": ["auto", "table", "computed"],
    "workgroup_size": ["auto", 1, 16, 64, 128, 256, 512, 1024],
    "shared_memory_bytes": [1024, 2048, 16384, 32768, 49152],
    "first_y_stage": ["auto", "row_pass", "column_pass"],
    "intermediate_layout": ["auto", "rows", "column_tiles"],
    "pass_sync": ["auto", "dispatch", "counters"],
    "io": ["buffer", "image"],
    "image_format": ["auto", "rgba16f", "rgba32f", "rg32f", "r32f"],
}
TARGETS = [["spirv"], ["spirv", "msl"], ["spirv", "hlsl", "msl", "glsl"]]
# A refusal names a plan field, or the shared memory that D3D12 and Metal allow.
CLEAR_REFUSAL = re.compile(r"^fftgen: error: plan\.json: .*(field '|shared_memory_bytes=)", re.S)


def random_kernel(rng):
    if rng.random() < 0.15:
        kernel = {"name": "k", "convolution": {
            "image": [rng.choice([1, 3, 16, 31, 100, 256, 300]), rng.choice([1, 2, 7, 64, 200, 256])],
            "filter": [rng.choice([1, 2, 5, 17, 64, 256]), rng.choice([1, 3, 16, 100, 512])],
            "channels": rng.randint(1, 4), "mode": rng.choice(["same", "circular"])}}
    else:
        shape = [rng.choice(SIZES)] if rng.random() < 0.5 else [rng.choice(SIDES), rng.choice(SIDES)]
        kernel = {"name": "k", "shape": shape}
    for field, values in FIELDS.items():
        if rng.random() < 0.2:
            kernel[field] = rng.choice(values)
    return kernel


def points(kernel):
    if "convolution" in kernel:
        return 4 * kernel["convolution"]["image"][0] * kernel["convolution"]["image"][1]
    n = 1
    for side in kernel["shape"]:
        n *= side
    return n


def run(fftgen, plan_path, *args):
    p = subprocess.run([fftgen, plan_path, "-q", *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr.strip(), p.stdout


def check(fftgen, work, index, why, kernel, targets, generate):
    """Returns a description of what went wrong, or None."""
    plan_dir = os.path.join(work, f"plan{index}")
    os.makedirs(plan_dir, exist_ok=True)
    plan_path = os.path.join(plan_dir, "plan.json")
    with open(plan_path, "w") as f:
        json.dump({"targets": targets, "kernels": [kernel]}, f)
    what = f"plan {json.dumps({'targets': targets, 'kernels': [kernel]})}" + (f" ({why})" if why else "")
    rc, err, listed = run(fftgen, plan_path, "--dry-run")
    if rc not in (0, 1):
        return f"{what}: --dry-run exited {rc}: {err}"
    if rc == 1 and not CLEAR_REFUSAL.match(err):
        return f"{what}: refused without naming a field: {err}"
    if not generate:
        return None
    out = os.path.join(plan_dir, "out")
    run_rc, run_err, _ = run(fftgen, plan_path, "-o", out)
    if rc == 1:
        if run_rc != 1 or run_err != err:
            return f"{what}: --dry-run refused it ({err}) but a run gave exit {run_rc}: {run_err}"
    elif run_rc != 0:
        return f"{what}: accepted by --dry-run, but the run exited {run_rc}: {run_err[:2000]}"
    else:
        written = sorted(os.listdir(out))
        planned = sorted(os.path.basename(line) for line in listed.split())
        if written != planned:
            return f"{what}: --dry-run listed {planned}, the run wrote {written}"
    shutil.rmtree(plan_dir)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fftgen", required=True)
    parser.add_argument("--work", required=True, help="a folder for the plans and outputs (emptied first)")
    parser.add_argument("--count", type=int, default=400, help="random plans through --dry-run")
    parser.add_argument("--generate", type=int, default=40,
                        help="of those, how many (of at most 2^20 points) are also generated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    rng = random.Random(args.seed)
    cases = [(why, kernel, targets, True) for why, kernel, targets in REGRESSIONS]
    generated = 0
    for _ in range(args.count):
        kernel = random_kernel(rng)
        generate = generated < args.generate and points(kernel) <= (1 << 20)
        generated += generate
        cases.append(("", kernel, rng.choice(TARGETS), generate))
    failures = [f for i, case in enumerate(cases) if (f := check(args.fftgen, args.work, i, *case))]
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"random_plans: {len(cases)} plans ({len(REGRESSIONS)} regressions, seed {args.seed}), "
          f"{generated + len(REGRESSIONS)} generated in full, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
