#!/usr/bin/env python3
"""Peer comparison report for fftgen: a markdown table and a GB/s-vs-N plot from bench JSON.

Reads any number of result files, each either
  * the common bench schema (cufft_bench.py --json, fftgen-vkfft-check --json):
      {"schema": "fftgen-bench/1", "system": ..., "device": ..., "driver": ...,
       "copy_floor_gbps": x | null,
       "results": [{"system": "fftgen"|"cuFFT"|"VkFFT"|"copy", "n": N, "batch": b,
                    "ms": t, "gbps": x, "rel_l2": e | null, "shape": [h, w]?,
                    "transform": "c2c" | "r2c" | "r2c_pair"?, "error": str?}]}
  * a bare list of such result rows, or
  * fftgen-vk's bench JSON: {"device", "driver" | "driver_version", "copy_floor_gbps"?,
       "results": [{"kernel" | "name", "n", "batch", "ms" | "median_ms", "gbps" | "gb_per_s",
                    "rel_l2"?, "error"?}]}
    where a row named "copy..." is the copy floor and the other rows become system "fftgen"
    (or "fftgen:<variant>" with --by-kernel, the variant being the row's "variant" field or else
    its kernel name less the size: c2c_1024_divmod -> c2c_divmod).
Where a system has several rows for one case (variants, repeated runs) the fastest is shown.

Usage: plot.py RESULT.json [...] --out DIR   (writes DIR/table.md and DIR/gbps.png)
"""

import argparse
import json
import math
import os
import re
import sys

SYSTEM_ORDER = ["fftgen", "cuFFT", "VkFFT"]


def variant_name(row, kernel):
    """The row's "variant" if it has one, else its kernel name without the size token, so the
    same variant of every size shares a column (c2c_1024_divmod -> c2c_divmod)."""
    if row.get("variant"):
        return str(row["variant"])
    kernel = str(kernel)
    parts = re.split(r"([_\-.])", kernel)
    n = str(row.get("n"))
    kept = [p for p in parts if p != n]
    name = re.sub(r"([_\-.])(?:[_\-.])+", r"\1", "".join(kept)).strip("_-.")
    return name or kernel


def load_rows(path, by_kernel):
    """Returns (rows, floors, header) from one file, rows normalised to the common schema."""
    with open(path) as f:
        data = json.load(f)
    meta = {} if isinstance(data, list) else data
    raw = data if isinstance(data, list) else data.get("results", [])
    default_system = meta.get("system")
    source = os.path.basename(path)
    rows, floors = [], []
    for r in raw:
        # fftgen-vk writes name/median_ms/gb_per_s; the common schema kernel/ms/gbps.
        kernel = r.get("kernel", r.get("name"))
        ms = r.get("ms", r.get("median_ms"))
        gbps = r.get("gbps", r.get("gb_per_s"))
        system = r.get("system")
        if system is None:
            if kernel is not None and str(kernel).startswith("copy"):
                system = "copy"  # fftgen-vk's floor row, "copy (vec4)" with n = 0
            elif kernel is not None:
                system = f"fftgen:{variant_name(r, kernel)}" if by_kernel else "fftgen"
            else:
                system = default_system or "unknown"
        elif system == "fftgen" and by_kernel and kernel is not None:
            # fftgen-bench names the system on every row; --by-kernel still splits the variants.
            system = f"fftgen:{variant_name(r, kernel)}"
        if system == "copy":
            if gbps and not r.get("error"):
                floors.append({"gbps": gbps, "label": kernel or "copy", "source": source})
            continue
        rel_l2 = r.get("rel_l2", r.get("rel_l2_forward"))
        rows.append({
            "system": system,
            "n": r.get("n"),
            "shape": tuple(r["shape"]) if r.get("shape") else None,
            "transform": r.get("transform", "c2c"),
            "batch": r.get("batch"),
            "ms": ms,
            "gbps": gbps,
            "rel_l2": rel_l2,
            "error": r.get("error"),
            "kernel": kernel,
        })
    floor = meta.get("copy_floor_gbps")
    if floor and not any(math.isclose(floor, f["gbps"]) for f in floors):
        floors.append({"gbps": floor, "label": "copy", "source": source})
    if "driver" not in meta and meta.get("driver_version"):
        meta = dict(meta, driver=meta["driver_version"])
    header = {k: meta.get(k) for k in ("system", "device", "driver", "command") if meta.get(k)}
    header["file"] = source
    return rows, floors, header


def case_key(row):
    """Table order: 1D C2C powers of two, other 1D C2C lengths, 2D C2C, then R2C and R2C_PAIR in
    the same order. The plot draws groups 0 and 1 (1D C2C)."""
    n = row["n"] or 0
    transform = row.get("transform") or "c2c"
    offset = 3 * (["c2c", "r2c", "r2c_pair"].index(transform) if transform in ("c2c", "r2c", "r2c_pair") else 3)
    if row["shape"] and len(row["shape"]) > 1:
        return (offset + 2, n, row["shape"], transform)
    pow2 = n > 0 and (n & (n - 1)) == 0
    return (offset + (0 if pow2 else 1), n, (), transform)


def case_label(key):
    group, n, shape, transform = key
    prefix = "" if transform == "c2c" else transform.upper() + " "
    return prefix + ("2D " + "×".join(str(s) for s in shape) if group % 3 == 2 else f"1D {n}")


def best_rows(rows):
    """{(case key, system): row}, keeping the fastest successful row (else the first failure)."""
    best = {}
    for r in rows:
        k = (case_key(r), r["system"])
        old = best.get(k)
        ok = r["gbps"] is not None and not r["error"]
        if old is None or (ok and (old["gbps"] is None or old["error"] or r["gbps"] > old["gbps"])):
            best[k] = r
    return best


def ordered_systems(rows):
    """fftgen (and its variants) first, then cuFFT, VkFFT, then anything else by name."""
    def rank(name):
        base = name.split(":")[0]
        return (SYSTEM_ORDER.index(base) if base in SYSTEM_ORDER else len(SYSTEM_ORDER), name != base, name)
    return sorted({r["system"] for r in rows}, key=rank)


def fmt_rate(gbps):
    """Whole GB/s, or three significant digits below 100 (a CPU device's figures still read)."""
    return f"{gbps:.0f}" if gbps >= 100 else f"{gbps:.3g}"


def fmt_gbps(r):
    if r is None:
        return ""
    if r["error"] or r["gbps"] is None:
        return "failed"
    return fmt_rate(r["gbps"])


def fmt_err(r):
    if r is None or r["error"] or r["rel_l2"] is None:
        return ""
    return f"{r['rel_l2']:.1e}"


def markdown_table(rows, floors, headers):
    best = best_rows(rows)
    systems = ordered_systems(rows)
    cases = sorted({k for k, _ in best})
    lines = []
    for h in headers:
        what = ", ".join(f"{k}: {v}" for k, v in h.items() if k != "command")
        lines.append(f"- {what}")
        if h.get("command"):
            lines.append(f"  - command: `{h['command']}`")
    lines.append("")
    cols = ["case"] + [f"{s} GB/s" for s in systems] + [f"{s} rel. L2" for s in systems]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(cols) - 1)) + "|")
    for key in cases:
        cells = [case_label(key)]
        cells += [fmt_gbps(best.get((key, s))) for s in systems]
        cells += [fmt_err(best.get((key, s))) for s in systems]
        lines.append("| " + " | ".join(cells) + " |")
    if floors:
        lines.append("")
        for f in floors:
            lines.append(f"Copy floor ({f['label']}, {f['source']}): {fmt_rate(f['gbps'])} GB/s")
    failures = [r for r in best.values() if r["error"]]
    if failures:
        lines.append("")
        lines.append("Failures:")
        for r in sorted(failures, key=lambda r: (case_key(r), r["system"])):
            lines.append(f"- {r['system']} {case_label(case_key(r))}: {r['error']}")
    lines.append("")
    lines.append("GB/s = (input + output bytes) / time of one call (C2C: 2 × bytes of one buffer); "
                 "rel. L2 = ‖out − ref‖₂ / ‖ref‖₂ against a double-precision reference.")
    return "\n".join(lines) + "\n"


def plot(rows, floors, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best = best_rows(rows)
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for system in ordered_systems(rows):
        # Powers of two as a line; other lengths as unconnected markers of the same colour, so
        # 4095/4096/4097 read as three points rather than a zigzag.
        pow2 = sorted((key[1], r["gbps"]) for (key, s), r in best.items()
                      if s == system and key[0] == 0 and r["gbps"] and not r["error"])
        other = sorted((key[1], r["gbps"]) for (key, s), r in best.items()
                       if s == system and key[0] == 1 and r["gbps"] and not r["error"])
        color = None
        if pow2:
            (line,) = ax.plot(*zip(*pow2), marker="o", markersize=4, linewidth=1.5, label=system)
            color = line.get_color()
        if other:
            ax.plot(*zip(*other), linestyle="none", marker="D", markersize=5, color=color,
                    label=None if pow2 else system)
    styles = ["--", ":", "-.", (0, (5, 1))]
    for i, f in enumerate(floors):
        ax.axhline(f["gbps"], color="grey", linestyle=styles[i % len(styles)], linewidth=1,
                   label=f"copy floor ({f['label']}) {f['gbps']:.0f} GB/s")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N (1D complex fp32, batched to one buffer; ◆ = not a power of two)")
    ax.set_ylabel("GB/s  (2 × buffer bytes / time per call)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(title)
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("inputs", nargs="+", help="result JSON files")
    p.add_argument("--out", required=True, help="folder for table.md and gbps.png")
    p.add_argument("--title", help="plot title (default: the first device named in the inputs)")
    p.add_argument("--by-kernel", action="store_true",
                   help="one column per fftgen kernel instead of the fastest per size")
    p.add_argument("--no-plot", action="store_true", help="table only (no matplotlib needed)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)

    rows, floors, headers = [], [], []
    for path in args.inputs:
        r, f, h = load_rows(path, args.by_kernel)
        rows += r
        floors += f
        headers.append(h)
    if not rows:
        print("plot.py: error: no result rows in the inputs", file=sys.stderr)
        return 1

    os.makedirs(args.out, exist_ok=True)
    table = markdown_table(rows, floors, headers)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table)
    print(table, end="")
    if not args.no_plot:
        device = next((h["device"] for h in headers if h.get("device")), "")
        title = args.title or f"FFT throughput, complex fp32, out of place — {device}".rstrip(" —")
        plot(rows, floors, os.path.join(args.out, "gbps.png"), title)
        print(f"wrote {os.path.join(args.out, 'table.md')} and {os.path.join(args.out, 'gbps.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
