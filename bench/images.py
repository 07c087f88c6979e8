#!/usr/bin/env python3
"""The image-transform session of run_images.sh: what to run, and the summary of what ran.

  images.py cases MANIFEST_DIR --grids 256x256x1,512x512x4 --full-verify-points 1048576
      prints, one per line, what the script runs: the kernels verified with batches 1 and 3
      (at most that many points), the kernels verified with batch 1, the manifest's 1D C2C
      lengths, 2D C2C shapes, 1D R2C lengths and 2D R2C shapes (for cuFFT), and the grids as
      KERNEL:HxWxB (the manifest's c2c kernel of that shape; a grid without one is left out and
      named on stderr), and the bytes of the largest buffer of one transform (fftgen-vk bench's
      --bytes must hold one).
  images.py summary WORK_DIR
      reads what the steps wrote in WORK_DIR (missing files are steps that failed or were cut
      short: their cells say "not run") and prints summary.md: issue 9's rows (fftgen, cuFFT,
      VkFFT, target), the small grids in µs per call, every other case, the accuracy of each
      system and fftgen-vk verify's result per kernel.

Only the Python standard library is used, so the summary is written on any machine.
"""

import argparse
import glob
import json
import math
import os
import re
import sys

# Issue 9's speed table: (transform, shape, target GB/s, why). GB/s = (input + output bytes) /
# time per call, batched so the input holds 512 MiB (complex data, or reals for r2c).
ISSUE_ROWS = [
    ("c2c", (1024, 1024), 1450, "issue 9"),
    ("c2c", (4096, 4096), 1300, "issue 9"),
    ("r2c", (1024,), 2960, "issue 9"),
    ("r2c", (4096,), 2960, "issue 9"),
    ("r2c", (65536,), 1500, "issue 9"),
    ("r2c", (1024, 1024), 1400, "issue 9"),
    ("r2c", (4096, 4096), 1200, "issue 9"),
    # The column pass is the second pass of large 1D transforms: at least cuFFT's figures.
    ("c2c", (32768,), 1670, "cuFFT in PERF.md"),
    ("c2c", (2097152,), 1335, "cuFFT in PERF.md"),
    ("c2c", (4194304,), 1208, "cuFFT in PERF.md"),
]
# Small grids: no slower per call than cuFFT (PERF.md: 9.7, 10.4, 12.7, 14.0 µs on the H100).
GRID_PERF_US = {(256, 256, 1): 9.7, (512, 512, 1): 10.4, (512, 512, 4): 12.7, (1024, 1024, 1): 14.0}
ERROR_RATIO = 0.6  # fftgen's rel. L2 at most this times VkFFT's


def shape_text(shape):
    return "×".join(str(s) for s in shape)


def case_text(transform, shape):
    return f"{len(shape)}D {transform.upper()} {shape_text(shape)}"


def parse_grids(text):
    grids = []
    for item in (text or "").split(","):
        if item.strip():
            h, w, b = (int(x) for x in item.lower().split("x"))
            grids.append((h, w, b))
    return grids


def read_tsv(path):
    """Rows of a tab-separated file the script appends to; [] if there is none."""
    try:
        with open(path) as f:
            return [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError:
        return []


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# --- cases -------------------------------------------------------------------------------------

def transform_bytes(kernel):
    """Bytes of the larger of a kernel's forward input and output, for one transform."""
    shape = kernel["shape"]
    points = math.prod(shape)
    transform = kernel.get("transform", "c2c")
    if transform == "r2c":
        return max(points * 4, points // shape[-1] * (shape[-1] // 2 + 1) * 8)
    if transform == "r2c_pair":
        return max(points * 8, 2 * (points // 2 + 1) * 8)
    return points * 8


def cmd_cases(args):
    manifest = load_json(os.path.join(args.manifest, "manifest.json"))
    if manifest is None:
        print(f"images.py: error: no readable manifest.json in {args.manifest}", file=sys.stderr)
        return 1
    kernels = manifest["kernels"]
    small, big = [], []
    for k in kernels:
        points = math.prod(k["shape"])
        (small if points <= args.full_verify_points else big).append(k["name"])
    sizes = {("c2c", 1): [], ("c2c", 2): [], ("r2c", 1): [], ("r2c", 2): []}
    by_case = {}
    for k in kernels:
        if "forward" not in k["directions"]:
            continue
        key = (k.get("transform", "c2c"), len(k["shape"]))
        label = "x".join(str(s) for s in k["shape"])
        if key in sizes and label not in sizes[key]:
            sizes[key].append(label)
        by_case.setdefault((k.get("transform", "c2c"), tuple(k["shape"])), k["name"])
    grids = []
    for h, w, b in parse_grids(args.grids):
        name = by_case.get(("c2c", (h, w)))
        if name:
            grids.append(f"{name}:{h}x{w}x{b}")
        else:
            print(f"images.py: no c2c kernel of shape {h}x{w} in the manifest: grid {h}x{w}x{b} left out",
                  file=sys.stderr)
    print(" ".join(small))
    print(" ".join(big))
    for key in (("c2c", 1), ("c2c", 2), ("r2c", 1), ("r2c", 2)):
        print(",".join(sizes[key]))
    print(" ".join(grids))
    print(max([transform_bytes(k) for k in kernels] + [0]))
    return 0


# --- summary -----------------------------------------------------------------------------------

def row_case(row, shapes_by_kernel=None):
    """(transform, shape) of a result row of any of the tools, or None."""
    if row.get("n") in (None, 0) and "shape" not in row:
        return None
    if shapes_by_kernel is not None:  # fftgen-vk bench: n is NX, the manifest knows the rest
        return shapes_by_kernel.get(row.get("name"))
    shape = tuple(row["shape"]) if row.get("shape") else (row["n"],)
    return (row.get("transform", "c2c"), shape)


def ok(row):
    return row is not None and not row.get("error") and row.get("gbps") is not None


class Session:
    """Every result of one run_images.sh session, keyed by case."""

    def __init__(self, work):
        self.work = work
        manifest = load_json(os.path.join(work, "manifest.json")) or {"kernels": []}
        self.kernel_case = {k["name"]: (k.get("transform", "c2c"), tuple(k["shape"])) for k in manifest["kernels"]}
        self.compare = {}   # case -> {"fftgen": row, "VkFFT": row}
        self.device = None
        self.copy_floor = None
        doc = load_json(os.path.join(work, "compare.json"))
        if doc:
            self.device = doc.get("device")
            self.copy_floor = doc.get("copy_floor_gbps")
            self._add_compare(doc, self.compare)
        self.bench = {}  # case -> fftgen-vk bench row (fastest kernel of the case)
        doc = load_json(os.path.join(work, "bench.json"))
        if doc:
            for r in doc.get("results", []):
                case = row_case(r, self.kernel_case)
                if case and not r.get("error"):
                    old = self.bench.get(case)
                    if old is None or r["gb_per_s"] > old["gb_per_s"]:
                        self.bench[case] = r
        self.cufft = {}
        self.cufft_floor = None
        for name in ("cufft.json", "cufft_grids.json"):
            doc = load_json(os.path.join(work, name))
            if not doc:
                continue
            for r in doc.get("results", []):
                if r.get("system") == "copy":
                    self.cufft_floor = self.cufft_floor or r.get("gbps")
                    continue
                case = row_case(r)
                if case:
                    self.cufft[(case, r.get("batch") if name == "cufft_grids.json" else None)] = r
        doc = load_json(os.path.join(work, "vkfft_r2c.json"))
        self.vkfft_extra = {}
        if doc:
            for r in doc.get("results", []):
                case = row_case(r)
                if case:
                    self.vkfft_extra[case] = r
        # Small grids: fftgen-vk bench and compare, one file per grid.
        self.grid_bench, self.grid_compare = {}, {}
        for path in glob.glob(os.path.join(work, "grid_fftgen_*.json")):
            grid = self._grid_of(path)
            doc = load_json(path)
            if grid and doc:
                rows = [r for r in doc.get("results", []) if r.get("name") != "copy (vec4)"]
                if rows:
                    self.grid_bench[grid] = rows[0]
        for path in glob.glob(os.path.join(work, "grid_compare_*.json")):
            grid = self._grid_of(path)
            doc = load_json(path)
            if grid and doc:
                found = {}
                self._add_compare(doc, found)
                if found:
                    self.grid_compare[grid] = next(iter(found.values()))

    @staticmethod
    def _grid_of(path):
        m = re.search(r"_(\d+)x(\d+)x(\d+)\.json$", path)
        return tuple(int(x) for x in m.groups()) if m else None

    @staticmethod
    def _add_compare(doc, into):
        for r in doc.get("results", []):
            if r.get("system") not in ("fftgen", "VkFFT"):
                continue
            case = row_case(r)
            slot = into.setdefault(case, {})
            old = slot.get(r["system"])
            # Several fftgen kernels of one case (variants): the fastest.
            if old is None or (ok(r) and (not ok(old) or r["gbps"] > old["gbps"])):
                slot[r["system"]] = r

    def fftgen(self, case):
        return self.compare.get(case, {}).get("fftgen")

    def vkfft(self, case):
        return self.compare.get(case, {}).get("VkFFT") or self.vkfft_extra.get(case)


def fmt_gbps(row, missing="not run"):
    if row is None:
        return missing
    if row.get("error"):
        return "failed"
    g = row.get("gbps", row.get("gb_per_s"))
    return "—" if g is None else (f"{g:.0f}" if g >= 100 else f"{g:.3g}")


def fmt_err(row):
    if not row or row.get("error") or row.get("rel_l2") is None:
        return "—"
    return f"{row['rel_l2']:.2e}"


def fmt_us(row, key="ms"):
    if row is None:
        return "not run"
    if row.get("error"):
        return "failed"
    ms = row.get(key, row.get("median_ms"))
    return "—" if ms is None else f"{ms * 1e3:.1f}"


def error_check(fg, vk):
    if not (ok(fg) and ok(vk)) or fg.get("rel_l2") is None or not vk.get("rel_l2"):
        return "—"
    return "yes" if fg["rel_l2"] <= ERROR_RATIO * vk["rel_l2"] else "no"


def speed_status(fg, target, peers):
    """✓ when fftgen reaches the target and every peer measured in this session."""
    if not ok(fg):
        return "—"
    g = fg["gbps"]
    misses = []
    if target is not None and g < target:
        misses.append("target")
    misses += [name for name, p in peers if ok(p) and p["gbps"] > g]
    return "✓" if not misses else "✗ below " + ", ".join(misses)


def summary(work):
    s = Session(work)
    out = ["# fftgen images session: 2D and real transforms against cuFFT and VkFFT", ""]
    for key, value in read_tsv(os.path.join(work, "session.tsv")):
        out.append(f"- {key}: {value}")
    if s.device:
        out.append(f"- Vulkan device (compare): {s.device}")
    floors = []
    if s.copy_floor:
        floors.append(f"fftgen's vec4 copy {s.copy_floor:.0f} GB/s")
    if s.cufft_floor:
        floors.append(f"cudaMemcpyAsync D2D {s.cufft_floor:.0f} GB/s")
    if floors:
        out.append("- copy floor: " + "; ".join(floors))
    out += ["", "GB/s = (input bytes + output bytes) / GPU time of one call (C2C: 2 × one buffer; R2C: the "
            "reals read and the half spectrum written), batched so the input holds ELEMENTS complex64 "
            "values' worth of bytes (512 MiB by default; small grids: their own batch), median of "
            "trials of back-to-back calls. fftgen and VkFFT from `fftgen-bench compare` (one process, same "
            "input, same timer); `fftgen-vk bench` beside it (its own batch: 512 MiB in the larger buffer); "
            "cuFFT from `cufft_bench.py` (CuPy's direct plans). rel. L2 against a double-precision "
            "reference (FFTW for fftgen and VkFFT, numpy for cuFFT).", ""]

    out += ["## Issue 9's cases", "",
            "| case | batch | fftgen | fftgen-vk bench | cuFFT | VkFFT | target | fftgen vs target and peers "
            "| fftgen rel. L2 | cuFFT rel. L2 | VkFFT rel. L2 | fftgen ≤ 0.6 × VkFFT error |",
            "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|:---:|"]
    issue_cases = set()
    for transform, shape, target, why in ISSUE_ROWS:
        case = (transform, shape)
        issue_cases.add(case)
        fg, vk, cu = s.fftgen(case), s.vkfft(case), s.cufft.get((case, None))
        bench = s.bench.get(case)
        in_manifest = case in s.kernel_case.values()
        fg_text = fmt_gbps(fg) if in_manifest else "no kernel"
        batch = next((r["batch"] for r in (fg, vk, cu) if r and r.get("batch")), None)
        out.append(f"| {case_text(*case)} | {batch or '—'} | {fg_text} | "
                   f"{fmt_gbps(bench) if in_manifest else '—'} | {fmt_gbps(cu)} | {fmt_gbps(vk)} | "
                   f"≥ {target} ({why}) | {speed_status(fg, target, [('cuFFT', cu), ('VkFFT', vk)])} | "
                   f"{fmt_err(fg)} | {fmt_err(cu)} | {fmt_err(vk)} | {error_check(fg, vk)} |")
    if any((t, sh) not in s.kernel_case.values() for t, sh, _, _ in ISSUE_ROWS):
        out += ["", "\"no kernel\": the plan has no fftgen kernel of that case (the peers still ran it)."]

    grids = sorted(set(s.grid_bench) | set(s.grid_compare) |
                   {(shape[0], shape[1], b) for ((_, shape), b) in s.cufft if b is not None})
    out += ["", "## Small grids: 2D C2C, GPU time per call (µs)", "",
            "| grid | fftgen (fftgen-vk bench) | fftgen (compare) | cuFFT | VkFFT | target | fftgen vs cuFFT "
            "| fftgen rel. L2 | cuFFT rel. L2 | VkFFT rel. L2 |",
            "|---|---:|---:|---:|---:|---|---|---:|---:|---:|"]
    for grid in grids:
        h, w, b = grid
        case = ("c2c", (h, w))
        bench = s.grid_bench.get(grid)
        cmp_rows = s.grid_compare.get(grid, {})
        fg, vk = cmp_rows.get("fftgen"), cmp_rows.get("VkFFT")
        have = case in s.kernel_case.values()
        cu = s.cufft.get((case, b))
        perf = GRID_PERF_US.get(grid)
        target = "≤ cuFFT" + (f" (PERF.md {perf} µs)" if perf else "")
        status = "—"
        fg_us = bench.get("median_ms") * 1e3 if bench and not bench.get("error") else None
        if fg_us is not None and ok(cu):
            status = "✓" if fg_us <= cu["ms"] * 1e3 else f"✗ {fg_us / (cu['ms'] * 1e3):.2f} × cuFFT"
        fg_bench = fmt_us(bench, "median_ms") if have else "no kernel"
        out.append(f"| {h}×{w} ×{b} | {fg_bench} | {fmt_us(fg) if have else '—'} | {fmt_us(cu)} | "
                   f"{fmt_us(vk)} | {target} | {status} | {fmt_err(fg)} | {fmt_err(cu)} | {fmt_err(vk)} |")
    if not grids:
        out.append("| (none ran) | | | | | | | | | |")

    others = sorted({c for c in set(s.compare) | {k[0] for k in s.cufft if k[1] is None}
                     if c and c not in issue_cases}, key=lambda c: (c[0], len(c[1]), c[1]))
    out += ["", "## Every other case", "",
            "| case | batch | fftgen | fftgen-vk bench | cuFFT | VkFFT | fftgen rel. L2 | cuFFT rel. L2 "
            "| VkFFT rel. L2 | fftgen ≤ 0.6 × VkFFT error |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    for case in others:
        fg, vk, cu = s.fftgen(case), s.vkfft(case), s.cufft.get((case, None))
        batch = next((r["batch"] for r in (fg, vk, cu) if r and r.get("batch")), None)
        out.append(f"| {case_text(*case)} | {batch or '—'} | {fmt_gbps(fg, '—')} | "
                   f"{fmt_gbps(s.bench.get(case), '—')} | {fmt_gbps(cu, '—')} | {fmt_gbps(vk, '—')} | "
                   f"{fmt_err(fg)} | {fmt_err(cu)} | {fmt_err(vk)} | {error_check(fg, vk)} |")

    out += ["", "## fftgen-vk verify (both directions against FFTW in double)", ""]
    verified = []
    for name, batches in (("verify_small.json", "1,3"), ("verify_big.json", "1")):
        doc = load_json(os.path.join(work, name))
        if doc:
            verified += [(k, ",".join(str(b) for b in doc.get("batches", [])) or batches)
                         for k in doc.get("kernels", [])]
    if verified:
        out += ["| kernel | shape | batches | fwd rel. L2 | inv rel. L2 | round trip | result |",
                "|---|---|---|---:|---:|---:|---|"]
        for k, batches in verified:
            e = lambda key: f"{k[key]:.2e}" if k.get(key) is not None else "—"
            result = "PASS" if k.get("pass") else ("FAIL: " + k["error"] if k.get("error") else "FAIL")
            out.append(f"| {k['kernel']} | {k.get('shape', '')} | {batches} | {e('rel_l2_forward')} | "
                       f"{e('rel_l2_inverse')} | {e('round_trip')} | {result} |")
        passed = sum(1 for k, _ in verified if k.get("pass"))
        out += ["", f"{passed} of {len(verified)} kernels pass."]
    else:
        out.append("not run (see log.txt)")
    steps = read_tsv(os.path.join(work, "steps.tsv"))
    if steps:
        out += ["", "## Steps (commands.txt has each command line)", "", "| step | exit | seconds |",
                "|---|---:|---:|"]
        for step, code, seconds in steps:
            note = " (timed out)" if code in ("124", "137") else ""
            out.append(f"| {step} | {code}{note} | {seconds} |")
    return "\n".join(out) + "\n"


def cmd_summary(args):
    text = summary(args.work)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cases", help="what run_images.sh runs, from a manifest")
    c.add_argument("manifest", help="folder holding manifest.json")
    c.add_argument("--grids", default="", help="HxWxB,... small 2D C2C grids")
    c.add_argument("--full-verify-points", type=int, default=1 << 20,
                   help="kernels of at most this many points are verified with batches 1 and 3")
    c.set_defaults(run=cmd_cases)
    m = sub.add_parser("summary", help="summary.md from a session's work folder")
    m.add_argument("work", help="the folder run_images.sh wrote its results to")
    m.add_argument("--out", help="write here instead of stdout")
    m.set_defaults(run=cmd_summary)
    args = p.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
