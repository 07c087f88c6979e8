#!/usr/bin/env python3
"""Merges one GPU session's results into the committed markdown table: fftgen-vk bench JSON
(GB/s; fftgen*.json, one per process: the median over them is shown, with the range),
fftgen-vk verify's text table (fftgen's rel. L2), fftgen-vkfft-check JSON and cufft_bench.py
JSON, with the PERF.md targets beside them.

usage: results_table.py FOLDER  (reads fftgen1.json, fftgen2.json, …, verify.txt, vkfft.json, cufft.json there;
                                 writes summary.md and fftgen_median.json there)"""
import glob
import json
import os
import statistics
import sys

# PERF.md's bandwidth targets for fftgen, by N.
TARGETS = {n: 2900 for n in (64, 128, 256, 512, 1024, 2048, 4096)}
TARGETS.update({8192: 2700, 16384: 2600})
TARGETS.update({1 << e: 1400 for e in range(16, 23)})


def main(folder):
    load = lambda name: json.load(open(os.path.join(folder, name)))
    runs = [json.load(open(p))["results"] for p in sorted(glob.glob(os.path.join(folder, "fftgen[0-9]*.json")))]
    fftgen = {}
    for results in runs:
        for r in results:
            if r["n"] and not r.get("error"):
                fftgen.setdefault(r["n"], []).append(r["gb_per_s"])
    copies = [r["gb_per_s"] for results in runs for r in results if not r["n"]]
    errors = {}
    for line in open(os.path.join(folder, "verify.txt")):
        parts = line.split()
        if len(parts) >= 9 and parts[1].isdigit():
            errors[int(parts[1])] = (float(parts[4]), parts[-1])
    vkfft, cufft = load("vkfft.json"), load("cufft.json")  # cufft.json's copy rows are used below too
    peers = {}
    for results in (vkfft["results"], cufft["results"]):
        for r in results:
            if r.get("n") and r["system"] in ("VkFFT", "cuFFT") and not r.get("shape"):
                peers[(r["system"], r["n"])] = r
    medians = {n: statistics.median(v) for n, v in sorted(fftgen.items())}
    out = [f"| N | fftgen GB/s (median of {len(runs)} processes) | range | target | cuFFT GB/s | VkFFT GB/s | fftgen rel. L2 | VkFFT rel. L2 | ≤ 0.6 × VkFFT |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    for n, g in medians.items():
        spread = f"{min(fftgen[n]):.0f}–{max(fftgen[n]):.0f}"
        t = TARGETS.get(n)
        cu, vk = peers.get(("cuFFT", n)), peers.get(("VkFFT", n))
        err = errors.get(n, (None, "?"))[0]
        vk_err = vk["rel_l2"] if vk else None
        ok_err = "yes" if err is not None and vk_err and err <= 0.6 * vk_err else "no"
        mark = "" if t is None else (" ✓" if g >= t else " ✗")
        out.append(f"| {n} | {g:.0f}{mark} | {spread} | {t or ''} | {cu['gbps']:.0f} | {vk['gbps']:.0f} | {err:.2e} | {vk_err:.2e} | {ok_err} |")
    out.append("")
    out.append(f"Copy floor in the fftgen-vk processes (vec4 GLSL copy over the same 512 MiB): "
               f"{min(copies):.0f}–{max(copies):.0f} GB/s.")
    for r in cufft["results"]:
        if r["system"] == "copy":
            out.append(f"Copy floor in the cuFFT process ({r['kernel']}): {r['gbps']:.0f} GB/s.")
    # The medians in the common schema, for plot.py.
    median_rows = [{"system": "fftgen", "n": n, "gbps": g, "rel_l2": errors.get(n, (None,))[0]}
                   for n, g in medians.items()]
    median_rows.append({"system": "copy", "n": None, "gbps": statistics.median(copies), "kernel": "copy (vec4)"})
    with open(os.path.join(folder, "fftgen_median.json"), "w") as f:
        json.dump({"schema": "fftgen-bench/1", "system": "fftgen", "results": median_rows}, f, indent=1)
    with open(os.path.join(folder, "summary.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
