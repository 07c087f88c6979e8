#!/usr/bin/env python3
"""Fit the planner's cost model (generator/plan/cost_model.cpp) to one-pass 1D kernels timed on a GPU.

usage: fit_cost_model.py collect MANIFEST BENCH_JSON [TAG] [MANIFEST BENCH_JSON [TAG] ...] > layouts.json
       fit_cost_model.py fit layouts.json [--margin 0.06]

collect   reads what the cost model needs of each timed one-pass kernel from the manifest that
          `fftgen` wrote (its stages, workgroup, columns per workgroup, shared memory) and its
          time from `fftgen-vk bench --json` (ms per 512 MiB buffer); TAG (optional) is appended
          to the names, so that two builds' kernels of one plan stay apart.
fit       least squares on the log of the time, one constant per length (and transform and budget),
          so that only the differences between the layouts of one length count; prints the weights
          in the order of fftgen::CostModel, and, leaving each length out in turn, how fast the
          model's choice among that length's measured layouts ran against the search's (the kernel
          named `...rauto...`, or tagged `@base`) with the margin given.
The features are computed as pass_features() computes them; keep the two in step.
Needs numpy (Debian: python3-numpy).
"""
import json
import math
import sys

FEATURES = ["sector_waste", "uneven_store", "stages", "idle", "lane_waste", "shared"]


def features(size, stages, workgroup, columns, shared_bytes):
    t = workgroup // columns
    idle = sum(math.ceil((size // r) / t) * t / (size // r) - 1 for r in stages)
    uneven = t < 32 and (size // stages[-1]) % t != 0
    return {"sector_waste": max(0.0, 32 / (min(t, 32) * 8) - 1), "uneven_store": 4 / t if uneven else 0.0,
            "stages": len(stages), "idle": idle, "lane_waste": math.ceil(workgroup / 32) * 32 / workgroup - 1,
            "shared": shared_bytes / 32768}


def collect(args):
    rows = []
    while args:
        manifest, bench = args[0], args[1]
        tag = args[2] if len(args) > 2 and not args[2].endswith(".json") else ""
        args = args[3:] if tag else args[2:]
        times = {r["name"]: r["median_ms"] * 2**29 / r["bytes"] for r in json.load(open(bench))["results"] if "direction" in r}
        for k in json.load(open(manifest))["kernels"]:
            passes = k.get("forward") or []
            if k["name"] not in times or len(passes) != 1 or len(k["shape"]) != 1:
                continue
            p = passes[0]
            rows.append({"name": k["name"] + tag, "transform": k["transform"], "size": p["size"], "stages": p["stages"],
                         "workgroup": p["local_size"][0], "columns": p["dispatch"]["columns_per_workgroup"],
                         "shared_bytes": p.get("shared_memory_bytes", 0),
                         "budget": k["options"]["shared_memory_bytes"], "ms": times[k["name"]]})
    json.dump(rows, sys.stdout, indent=0)
    print()


def fit(path, margin):
    import numpy as np
    rows = json.load(open(path))
    groups = {}
    for r in rows:
        r["x"] = [features(r["size"], r["stages"], r["workgroup"], r["columns"], r["shared_bytes"])[f] for f in FEATURES]
        groups.setdefault((r["size"], r["transform"], r["budget"]), []).append(r)
    keys = [g for g in groups if len(groups[g]) > 1]

    def weights(use):
        x, y, d = [], [], []
        for i, g in enumerate(use):
            for r in groups[g]:
                x.append(r["x"]); y.append(math.log(r["ms"])); d.append(i)
        onehot = np.zeros((len(y), len(use))); onehot[np.arange(len(y)), d] = 1
        w, *_ = np.linalg.lstsq(np.hstack([np.array(x), onehot]), np.array(y), rcond=None)
        return w[:len(FEATURES)]

    w = weights(keys)
    print("weights (CostModel order):", ", ".join(f"{v:.3f}" for v in w))
    print(json.dumps(dict(zip(FEATURES, [round(float(v), 3) for v in w]))))
    speedups = []
    for g in keys:
        searched = [r for r in groups[g] if r["name"].endswith("@base") or
                    ("rauto" in r["name"] and ("wgauto" in r["name"] or "__wg" not in r["name"]))]
        if not searched:
            continue
        wo = weights([h for h in keys if h != g])
        cost = lambda r: float(np.dot(r["x"], wo))
        best = min(groups[g], key=cost)
        pick = best if cost(best) < cost(searched[0]) - margin else searched[0]
        speedups.append((searched[0]["ms"] / pick["ms"], g, pick["name"]))
    geo = math.exp(sum(math.log(s) for s, _, _ in speedups) / len(speedups))
    print(f"left-one-length-out, margin {margin}: {len(speedups)} lengths, the model's choice "
          f"{geo:.3f}x as fast as the search's (geometric mean); slowest {min(speedups)[0]:.3f}x ({min(speedups)[2]}), "
          f"fastest {max(speedups)[0]:.2f}x ({max(speedups)[2]})")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "collect":
        return collect(sys.argv[2:])
    if len(sys.argv) >= 3 and sys.argv[1] == "fit":
        margin = float(sys.argv[sys.argv.index("--margin") + 1]) if "--margin" in sys.argv else 0.06
        return fit(sys.argv[2], margin)
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
