#!/usr/bin/env python3
"""Summary of a bench/run_workloads.sh folder: cuFFT time / fftgen time per row and system.

usage: workloads_summary.py OUT_DIR      (writes OUT_DIR/summary.md and OUT_DIR/summary.json)

Reads TAG.cufft.txt (peers_cupy.py's output: cuFFT's time per row, the faster of its two chains
for a convolution) and TAG.SYSTEM.bench.json (fftgen-vk bench --json) for every plan TAG.
Above 1 means fftgen is faster. Standard library only.
"""
import glob, json, math, os, sys


def cufft_times(path):
    times = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "cufft-chain":
            ms = float(f[3].split()[0])
            times[f[1]] = min(ms, times.get(f[1], ms))
        elif len(f) > 5 and f[5].startswith("cufft "):
            times[f[0]] = float(f[5].split()[1])
    return times


def stats(ratios):
    if not ratios:
        return {"rows": 0}
    values = [r for r, _ in ratios]
    worst = min(ratios)
    return {"rows": len(values), "geomean": math.exp(sum(map(math.log, values)) / len(values)),
            "min": worst[0], "min_row": worst[1], "below_0.95": sum(v < 0.95 for v in values),
            "below_0.90": sum(v < 0.90 for v in values)}


def main():
    out = sys.argv[1]
    tags = sorted(os.path.basename(p)[:-len(".cufft.txt")] for p in glob.glob(f"{out}/*.cufft.txt"))
    summary, md = {}, [f"# cuFFT time / fftgen time (above 1: fftgen faster)\n",
                       f"Command: `{open(f'{out}/command.txt').read().strip()}`\n"]
    for tag in tags:
        cufft = cufft_times(f"{out}/{tag}.cufft.txt")
        systems = sorted(p.split(".")[-3] for p in glob.glob(f"{out}/{tag}.*.bench.json"))
        fftgen = {s: {r["name"]: r["median_ms"] for r in json.load(open(f"{out}/{tag}.{s}.bench.json"))["results"]}
                  for s in systems}
        rows = [n for n in cufft if all(n in fftgen[s] for s in systems)]
        per = {s: [(cufft[n] / fftgen[s][n], n) for n in rows] for s in systems}
        summary[tag] = {"systems": {s: stats(per[s]) for s in systems},
                        "rows": {n: {"cufft_ms": cufft[n], **{f"{s}_ms": fftgen[s][n] for s in systems}} for n in rows}}
        md.append(f"## {tag}\n")
        md.append("| row | cuFFT ms | " + " | ".join(f"{s} ms | {s} ratio" for s in systems) + " |")
        md.append("|---|---:|" + "---:|---:|" * len(systems))
        for n in rows:
            cells = " | ".join(f"{fftgen[s][n]:.4f} | {cufft[n] / fftgen[s][n]:.2f}" for s in systems)
            md.append(f"| {n} | {cufft[n]:.4f} | {cells} |")
        md.append("")
        for s in systems:
            st = summary[tag]["systems"][s]
            if st["rows"]:
                md.append(f"- {s}: {st['rows']} rows, geometric mean {st['geomean']:.3f}, min {st['min']:.2f} "
                          f"({st['min_row']}), below 0.95: {st['below_0.95']}, below 0.90: {st['below_0.90']}")
        md.append("")
    json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
    open(f"{out}/summary.md", "w").write("\n".join(md) + "\n")
    for tag in tags:
        for s, st in summary[tag]["systems"].items():
            if st["rows"]:
                print(f"{tag}\t{s}\tgeomean {st['geomean']:.3f}\tmin {st['min']:.2f} ({st['min_row']})\t"
                      f"below 0.95: {st['below_0.95']}")


if __name__ == "__main__":
    main()
