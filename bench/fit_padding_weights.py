#!/usr/bin/env python3
"""Rank the padded planes of a sweep of "same" convolutions by padding.cpp's cost, for weights.

usage: fit_padding_weights.py [RESULTS_DIR]

RESULTS_DIR (default: results/2026-12-02-h200-padded-planes) holds planes/sweep.bench.json (each
convolution timed at its planner's plane, "NAME__own", and at planes named by "padded",
"NAME__pHxW") and planes/passes.json (each apply kernel's passes). The cost of a plane is
padding.cpp's: its values H x W times a factor per side (largest prime 2, 3, 5, 7: 1, 1.06, 1.06,
1.10), times the passes it counts: a row pass over the image's rows image_h / H; a column round
trip whose exchange takes the whole budget `full`; a round trip of a height that is not a power of
two whose exchange goes in parts `mixed`; any other pass 1. A pass "takes the whole budget" where
its height alone fills it at 8 bytes a value, and "goes in parts" where its tile (height x columns
x 8 bytes) exceeds its shared memory (the manifest does not say which exchange it took: a proxy).

For each (mixed, full) of a grid it prints how the plane it ranks first compares with the fastest
plane timed (geometric mean and minimum of fastest / chosen time) and with the planner's own plane
at the commit that timed them (own / chosen), then the same with the weights chosen on half the
convolutions and scored on the other half, ten times over.
"""
import json
import math
import os
import random
import sys
from collections import defaultdict

SIDE = {2: 1.0, 3: 1.06, 5: 1.06, 7: 1.10}


def largest_prime(n):
    p, last = 2, 1
    while n > 1:
        while n % p == 0:
            n //= p
            last = p
        p += 1
    return last


def pass_kinds(k):
    h, _ = k["shape"]
    kinds = []
    for p in k["passes"]:
        if p["axis"] == "x":
            kinds.append(("rows", k["image"][0] / h))
        elif not p["round_trip"]:
            kinds.append(("pass", 1.0))
        elif p["size"] * 8 >= k["shared_memory_bytes"]:
            kinds.append(("full", 1.0))
        elif p["size"] & (p["size"] - 1) and p["size"] * p["columns_per_workgroup"] * 8 > p["shared_memory_bytes"]:
            kinds.append(("mixed", 1.0))
        else:
            kinds.append(("pass", 1.0))
    return kinds


def load(folder):
    bench = json.load(open(os.path.join(folder, "planes", "sweep.bench.json")))
    kernels = {k["name"]: k for k in json.load(open(os.path.join(folder, "planes", "passes.json")))["kernels"]}
    convs = defaultdict(list)
    for r in bench["results"]:
        if r["name"] not in kernels:
            continue  # the copy
        k = kernels[r["name"]]
        h, w = k["shape"]
        values = h * w * SIDE[largest_prime(h)] * SIDE[largest_prime(w)]
        convs[r["name"].split("__")[0]].append((r["name"].endswith("__own"), r["median_ms"], values, pass_kinds(k)))
    return convs


def cost(row, weights):
    return row[2] * sum(share * weights.get(kind, 1.0) for kind, share in row[3])


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def score(convs, names, weights):
    over_best, over_own = [], []
    for name in names:
        rows = convs[name]
        planes = [r for r in rows if not r[0]]
        chosen = min(planes, key=lambda r: cost(r, weights))[1]
        over_best.append(min(r[1] for r in planes) / chosen)
        over_own.append(next(r[1] for r in rows if r[0]) / chosen)
    return geomean(over_best), min(over_best), geomean(over_own), min(over_own)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results", "2026-12-02-h200-padded-planes")
    convs = load(folder)
    names = sorted(convs)
    grid = [{"mixed": m, "full": f} for m in (1, 1.5, 2, 2.5, 3, 3.5, 4) for f in (1, 2, 3, 4, 5, 6)]
    print(f"{len(names)} convolutions, {sum(len(v) for v in convs.values())} planes")
    print("mixed full  fastest/chosen (min)  own/chosen (min)")
    for w in grid:
        b, bm, o, om = score(convs, names, w)
        print(f"{w['mixed']:5} {w['full']:4}  {b:.3f} ({bm:.2f})        {o:.3f} ({om:.2f})")
    rng = random.Random(1)
    held_best, held_own = [], []
    for _ in range(10):
        shuffled = names[:]
        rng.shuffle(shuffled)
        halves = (shuffled[: len(names) // 2], shuffled[len(names) // 2:])
        for train, test in (halves, halves[::-1]):
            w = max(grid, key=lambda w: score(convs, train, w)[:2])
            for name in test:
                b, _, o, _ = score(convs, [name], w)
                held_best.append(b)
                held_own.append(o)
    print(f"held out: fastest/chosen {geomean(held_best):.3f} (min {min(held_best):.2f}), "
          f"own/chosen {geomean(held_own):.3f} (min {min(held_own):.2f})")


if __name__ == "__main__":
    main()
