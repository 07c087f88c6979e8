#!/usr/bin/env python3
"""Fit the two-pass split model (fftgen/cost_model.hpp SplitModel) to a sweep of splits.

usage: fit_split_model.py [CANDIDATES_JSON]

CANDIDATES_JSON (default: results/2026-12-02-h200-two-pass-splits/sweep/candidates.json) holds,
for each kernel timed, its transform, length, the split it was forced to (null: the planner's
own), its passes (size, columns a workgroup, columns a transform) and GB/s. The model reads the
1D r2c kernels of two dispatches whose first pass's tiles divide its columns: the log of the time
is weight_first x short_runs(first pass) + weight_last x short_runs(last pass), up to a constant
of the length, where short_runs = min(0, log2(columns a workgroup x 8 / 128)). Least squares on
each length's logs less their mean (ridge 0.5), as measured.cpp's weights were fitted.

It prints the weights, then how they choose on lengths they were not fitted on: ten times, the
lengths split in halves at random, each half ranked by the weights fitted on the other; the
chosen split's speed over the planner's own split (geometric mean, minimum) and over the fastest
split measured.
"""
import json
import math
import os
import random
import sys
from collections import defaultdict

RIDGE = 0.5


def short_runs(p):
    return min(0.0, math.log2(p["columns_per_workgroup"] * 8 / 128))


def load(path):
    doc = json.load(open(path))
    splits, own = defaultdict(list), {}
    for c in doc["candidates"]:
        if c["transform"] != "r2c":
            continue
        key = c["n"]
        if c["split"] is None:
            own[key] = c["gb_per_s"]
            continue
        if len(c["passes"]) != 2:  # pass_sync counters: one dispatch
            continue
        first, last = c["passes"]
        if first["columns_per_transform"] % first["columns_per_workgroup"]:
            continue
        splits[key].append((c["gb_per_s"], (short_runs(first), short_runs(last))))
    return {k: v for k, v in splits.items() if len(v) >= 2 and k in own}, own


def fit(splits, keys):
    sxx = [[RIDGE, 0.0], [0.0, RIDGE]]
    sxy = [0.0, 0.0]
    for k in keys:
        rows = splits[k]
        mean_t = sum(-math.log(g) for g, _ in rows) / len(rows)
        mean_f = [sum(f[i] for _, f in rows) / len(rows) for i in range(2)]
        for g, f in rows:
            x = [f[0] - mean_f[0], f[1] - mean_f[1]]
            y = -math.log(g) - mean_t
            for i in range(2):
                sxy[i] += x[i] * y
                for j in range(2):
                    sxx[i][j] += x[i] * x[j]
    det = sxx[0][0] * sxx[1][1] - sxx[0][1] * sxx[1][0]
    return ((sxx[1][1] * sxy[0] - sxx[0][1] * sxy[1]) / det, (sxx[0][0] * sxy[1] - sxx[1][0] * sxy[0]) / det)


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "results", "2026-12-02-h200-two-pass-splits", "sweep", "candidates.json")
    splits, own = load(path)
    keys = sorted(splits)
    w = fit(splits, keys)
    print(f"{len(keys)} r2c lengths, {sum(len(v) for v in splits.values())} splits")
    print(f"weights: first_short_runs {w[0]:.3f}, last_short_runs {w[1]:.3f}")
    rng = random.Random(1)
    over_own, over_best = [], []
    for _ in range(10):
        shuffled = keys[:]
        rng.shuffle(shuffled)
        halves = (shuffled[: len(keys) // 2], shuffled[len(keys) // 2:])
        for train, test in (halves, halves[::-1]):
            wt = fit(splits, train)
            for k in test:
                g, _ = min(splits[k], key=lambda r: wt[0] * r[1][0] + wt[1] * r[1][1])
                over_own.append(g / own[k])
                over_best.append(g / max(own[k], max(x for x, _ in splits[k])))
    print(f"held out: chosen / own split {geomean(over_own):.3f} (min {min(over_own):.2f}), "
          f"chosen / fastest {geomean(over_best):.3f}")


if __name__ == "__main__":
    main()
