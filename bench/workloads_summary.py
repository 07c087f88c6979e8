#!/usr/bin/env python3
"""Summary of a bench/run_workloads.sh folder: cuFFT time / fftgen time per row and system.

usage: workloads_summary.py OUT_DIR      (writes OUT_DIR/summary.md and OUT_DIR/summary.json)

Reads TAG.cufft.txt (peers_cupy.py's output: cuFFT's time per row, the faster of its two chains
for a convolution) and TAG.SYSTEM.bench.json (fftgen-vk bench --json) for every plan TAG. Times
are per call at cuFFT's batch (fftgen_times: a system that ran another batch is scaled).
Above 1 means fftgen is faster. Also per workload family (the row name's prefix, as workloads.py
names rows) across all plans: summary.md's family table and families.svg, a bar chart of each
family's geometric mean per system. Standard library only.
"""
import glob, json, math, os, sys


def cufft_times(path):
    """cuFFT's time per row, and the batch it ran where the line names one (batch=B)."""
    times, batches = {}, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "cufft-chain":
            ms = float(f[3].split()[0])
            times[f[1]] = min(ms, times.get(f[1], ms))
        elif len(f) > 5 and f[5].startswith("cufft "):
            times[f[0]] = float(f[5].split()[1])
            if f[3].startswith("batch="):
                batches[f[0]] = int(f[3][len("batch="):])
    return times, batches


def fftgen_times(path, cufft_batches):
    """A system's time per row at cuFFT's batch: fftgen-vk bench sizes each row's batch to its
    buffers, so a build whose scratch is smaller runs more transforms a call than the build cuFFT's
    batches came from; its time is scaled by cuFFT's batch / its own (time per transform)."""
    times = {}
    for r in json.load(open(path))["results"]:
        scale = cufft_batches[r["name"]] / r["batch"] if r["name"] in cufft_batches and r.get("batch") else 1.0
        times[r["name"]] = r["median_ms"] * scale
    return times


def stats(ratios):
    if not ratios:
        return {"rows": 0}
    values = [r for r, _ in ratios]
    worst = min(ratios)
    return {"rows": len(values), "geomean": math.exp(sum(map(math.log, values)) / len(values)),
            "min": worst[0], "min_row": worst[1], "below_0.95": sum(v < 0.95 for v in values),
            "below_0.90": sum(v < 0.90 for v in values)}


FAMILIES = [("c1d", "1D C2C"), ("r1d", "1D R2C"), ("c2d", "2D C2C"), ("r2d", "2D R2C"), ("h2d", "2D C2C fp16"),
            ("conv", "convolution")]


def family(row):
    for prefix, label in FAMILIES:
        if row.startswith(prefix + "_"):
            if prefix == "c1d":
                n = int(row.split("_")[1])
                return label + (" 2^k" if n & (n - 1) == 0 else " other")
            return label
    return "other"


def family_table(summary, out):
    """Geometric mean per family and system over every plan's rows (each row once per plan)."""
    ratios = {}
    for tag, plan in summary.items():
        for row, r in plan["rows"].items():
            for key, ms in r.items():
                if key.endswith("_ms") and key != "cufft_ms":
                    ratios.setdefault(family(row), {}).setdefault(key[:-3], []).append((r["cufft_ms"] / ms, f"{tag}/{row}"))
    table = {f: {s: stats(v) for s, v in per.items()} for f, per in sorted(ratios.items())}
    systems = sorted({s for per in table.values() for s in per})
    md = ["## By family (every plan's rows)\n", "| family | " + " | ".join(f"{s}: rows, geomean, min" for s in systems) + " |",
          "|---|" + "---|" * len(systems)]
    for f, per in table.items():
        md.append(f"| {f} | " + " | ".join(
            f"{per[s]['rows']}, {per[s]['geomean']:.2f}, {per[s]['min']:.2f}" if s in per else "" for s in systems) + " |")
    write_svg(table, systems, f"{out}/families.svg")
    return table, md + ["", "![geometric mean per family](families.svg)", ""]


def write_svg(table, systems, path):
    """Horizontal bars: each family's geometric mean of cuFFT time / fftgen time per system; a line at 1."""
    colours = ["#9aa5b1", "#2b6cb0", "#c05621", "#2f855a"]
    families = list(table)
    bar, gap, left, width = 14, 10, 150, 420
    height = len(families) * (len(systems) * bar + gap) + 60
    top = max([2.0] + [st["geomean"] for per in table.values() for st in per.values() if st.get("rows")])
    x = lambda v: left + width * v / top
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<text x="{left}" y="16">cuFFT time / fftgen time, geometric mean (above 1: fftgen faster)</text>']
    y = 30
    for f in families:
        svg.append(f'<text x="{left - 6}" y="{y + bar * len(systems) / 2 + 4}" text-anchor="end">{f}</text>')
        for i, s in enumerate(systems):
            st = table[f].get(s)
            if st and st.get("rows"):
                svg.append(f'<rect x="{left}" y="{y}" width="{x(st["geomean"]) - left:.1f}" height="{bar - 2}" fill="{colours[i % len(colours)]}"/>')
                svg.append(f'<text x="{x(st["geomean"]) + 4:.1f}" y="{y + bar - 4}">{st["geomean"]:.2f}</text>')
            y += bar
        y += gap
    svg.append(f'<line x1="{x(1):.1f}" y1="24" x2="{x(1):.1f}" y2="{y}" stroke="black" stroke-dasharray="4 3"/>')
    for i, s in enumerate(systems):
        svg.append(f'<rect x="{left + 110 * i}" y="{y + 8}" width="10" height="10" fill="{colours[i % len(colours)]}"/>'
                   f'<text x="{left + 110 * i + 14}" y="{y + 17}">{s}</text>')
    svg.append("</svg>")
    open(path, "w").write("\n".join(svg) + "\n")


def main():
    out = sys.argv[1]
    tags = sorted(os.path.basename(p)[:-len(".cufft.txt")] for p in glob.glob(f"{out}/*.cufft.txt"))
    summary, md = {}, [f"# cuFFT time / fftgen time (above 1: fftgen faster)\n",
                       f"Command: `{open(f'{out}/command.txt').read().strip()}`\n"]
    for tag in tags:
        cufft, batches = cufft_times(f"{out}/{tag}.cufft.txt")
        systems = sorted(p.split(".")[-3] for p in glob.glob(f"{out}/{tag}.*.bench.json"))
        fftgen = {s: fftgen_times(f"{out}/{tag}.{s}.bench.json", batches) for s in systems}
        rows = [n for n in cufft if all(n in fftgen[s] for s in systems)]
        per = {s: [(cufft[n] / fftgen[s][n], n) for n in rows] for s in systems}
        summary[tag] = {"systems": {s: stats(per[s]) for s in systems},
                        "rows": {n: {"cufft_ms": cufft[n], **{f"{s}_ms": fftgen[s][n] for s in systems}} for n in rows}}
        md.append(f"## {tag}\n")
        md.append("Times in ms per call at cuFFT's batch (a system that ran another batch scaled to it).\n")
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
    families, family_md = family_table(summary, out)
    md[2:2] = family_md
    json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
    json.dump(families, open(f"{out}/families.json", "w"), indent=1)
    open(f"{out}/summary.md", "w").write("\n".join(md) + "\n")
    for tag in tags:
        for s, st in summary[tag]["systems"].items():
            if st["rows"]:
                print(f"{tag}\t{s}\tgeomean {st['geomean']:.3f}\tmin {st['min']:.2f} ({st['min_row']})\t"
                      f"below 0.95: {st['below_0.95']}")


if __name__ == "__main__":
    main()
