#!/usr/bin/env python3
"""Manifest mutations through `fftgen-vk verify` (docs/fuzzing.md, "Manifest mutations").

Generates real manifests of every kernel kind (1D, 2D, r2c, Bluestein, r2c_pair, convolution, image,
fp16, pass_sync counters), then changes one field of one kernel at a time (numbers to 0, 1, their
neighbours, 2^31, 2^32 + 1, -1, a string, null; strings to "", another value of the manifest;
lists shortened, emptied; an object's key removed) and verifies that kernel. Allowed: exit 0 (the
change did not matter), 1 with a one-line `fftgen-vk: error:` (refused when read) or an error in
verify's row (refused when the kernel loads), 2 (verify FAILed). A
signal, another exit status, a sanitizer report, a multi-line error or a run past --timeout is a
finding; each is printed as a replayable JSON line and, with --save, saved into --corpus.

  python3 tests/fuzz/mutate_manifests.py --fftgen build/generator/fftgen \\
      --vk build-sanitize/runtime/fftgen-vk --work /tmp/mutate --seconds 600 \\
      --corpus tests/fuzz/corpus/mutate_manifests --save

The mutations saved in --corpus run first (CTest runs them, then a minute of others).
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys
import time

PLAN = {"targets": ["spirv"], "kernels": [
    {"name": "c64", "shape": [64]},
    {"name": "c4096", "shape": [4096]},
    {"name": "b17", "shape": [17]},
    {"name": "r16", "shape": [16], "transform": "r2c"},
    {"name": "r17", "shape": [17], "transform": "r2c"},
    {"name": "r2d", "shape": [16, 16], "transform": "r2c"},
    {"name": "r2d_odd", "shape": [8, 17], "transform": "r2c"},
    {"name": "c2d", "shape": [32, 64]},
    {"name": "c2d_tall", "shape": [1024, 4], "shared_memory_bytes": 2048},
    {"name": "pair", "shape": [256], "transform": "r2c_pair"},
    {"name": "h256", "shape": [256], "precision": "fp16"},
    {"name": "h_r64", "shape": [64], "transform": "r2c", "precision": "fp16"},
    {"name": "bloom", "convolution": {"image": [24, 20], "filter": [5, 5], "channels": 3, "mode": "same"}},
    {"name": "bloomr", "convolution": {"image": [16, 12], "filter": [3, 5], "channels": 2, "packing": "r2c"}},
    {"name": "tex", "shape": [16, 16], "io": "image"},
    {"name": "texr", "shape": [16, 32], "transform": "r2c", "io": "image"},
    {"name": "sync", "shape": [32768], "pass_sync": "counters"},
]}


def leaves(value, path=()):
    """Every field of a JSON value, containers included, as paths."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def replacements(value, strings):
    if isinstance(value, bool):
        return [not value, 0, None]
    if isinstance(value, int):
        out = [0, 1, value + 1, 2 * value + 2, 65535, 2 ** 31, 2 ** 32 + 1, -1, "x", None]
        if value > 0:
            out.insert(2, value - 1)
        return out
    if isinstance(value, float):
        return [0.0, -value, 1e300, "x", None]
    if isinstance(value, str):
        return ["", "x"] + [s for s in strings if s != value][:6]
    if isinstance(value, list):
        out = [[], None]
        if value:
            out.append(value[:-1])
            out.append(value + value[-1:])
        return out
    if isinstance(value, dict):
        return [{}, None]
    return ["x", 0]


def mutations(manifest):
    """(kernel index, path, op, value) for every field of every kernel: set it, or remove it."""
    strings = sorted({get(manifest, p) for p in leaves(manifest) if isinstance(get(manifest, p), str)})
    out = []
    for k, kernel in enumerate(manifest["kernels"]):
        for path in leaves(kernel):
            if not path:
                continue
            value = get(kernel, path)
            for r in replacements(value, strings):
                out.append((k, list(path), "set", r))
            if isinstance(path[-1], str):
                out.append((k, list(path), "remove", None))
    return out


def apply(manifest, mutation):
    k, path, op, value = mutation
    doc = copy.deepcopy(manifest)
    parent = get(doc["kernels"][k], path[:-1])
    if op == "remove":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


def run_one(vk, folder, manifest, mutation, timeout):
    doc = apply(manifest, mutation)
    kernel = manifest["kernels"][mutation[0]]["name"]
    target = os.path.join(folder, "mutated.json")
    with open(target, "w") as f:
        json.dump(doc, f)
    # Added to the caller's options, not instead of them: the sanitizer suite's own (its
    # verify_asan_link_order=0 beside a preloaded lavapipe, scripts/test_sanitize.sh) must stay.
    asan = ":".join(o for o in (os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0:abort_on_error=0") if o)
    env = dict(os.environ, ASAN_OPTIONS=asan, UBSAN_OPTIONS="print_stacktrace=1")
    try:
        r = subprocess.run([vk, "verify", target, kernel, "--batches", "1", "-q"], capture_output=True, text=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout after %s s" % timeout
    err = r.stderr
    if "Sanitizer" in err or "runtime error:" in err:
        return "sanitizer report:\n" + err[-3000:]
    if r.returncode < 0:
        return "killed by signal %d\n%s" % (-r.returncode, err[-2000:])
    if r.returncode not in (0, 1, 2):
        return "exit %d\n%s" % (r.returncode, (r.stdout + err)[-2000:])
    if r.returncode == 1:
        # Refused when read (one line on stderr), or when the kernel loads (verify's row says error).
        lines = [l for l in err.splitlines() if l.strip()]
        row_error = not lines and "error: " in r.stdout
        if not row_error and (len(lines) != 1 or not lines[0].startswith("fftgen-vk: error: ")):
            return "exit 1 without a one-line error:\n" + (r.stdout + err)[-2000:]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fftgen", required=True)
    ap.add_argument("--vk", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--corpus", help="folder of saved findings (mutation JSON files), run first")
    ap.add_argument("--save", action="store_true", help="save new findings into --corpus")
    args = ap.parse_args()

    os.makedirs(args.work, exist_ok=True)
    plan = os.path.join(args.work, "plan.json")
    with open(plan, "w") as f:
        json.dump(PLAN, f)
    out = os.path.join(args.work, "kernels")
    subprocess.run([args.fftgen, plan, "-o", out, "-q"], check=True)
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    names = [k["name"] for k in manifest["kernels"]]

    todo = []
    if args.corpus and os.path.isdir(args.corpus):
        for name in sorted(os.listdir(args.corpus)):
            with open(os.path.join(args.corpus, name)) as f:
                saved = json.load(f)
            if saved["kernel"] in names:
                todo.append((names.index(saved["kernel"]), saved["path"], saved["op"], saved["value"]))
    replayed = len(todo)
    sample = mutations(manifest)
    random.Random(args.seed).shuffle(sample)
    todo += sample

    findings = 0
    start = time.monotonic()
    done = 0
    for i, m in enumerate(todo):
        if i >= replayed and time.monotonic() - start > args.seconds:
            break
        problem = run_one(args.vk, out, manifest, m, args.timeout)
        done += 1
        if problem:
            findings += 1
            record = {"kernel": names[m[0]], "path": m[1], "op": m[2], "value": m[3]}
            print("FINDING %s\n  %s" % (json.dumps(record), problem.replace("\n", "\n  ")), flush=True)
            if args.save and args.corpus and i >= replayed:
                os.makedirs(args.corpus, exist_ok=True)
                tag = "%s-%s-%s" % (record["kernel"], "-".join(str(p) for p in m[1]), m[2])
                with open(os.path.join(args.corpus, tag[:120] + ".json"), "w") as f:
                    json.dump(record, f)
    print("mutate_manifests: %d mutations run (%d replayed, of %d possible), %d findings, %.0f s"
          % (done, min(done, replayed), len(sample), findings, time.monotonic() - start))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
