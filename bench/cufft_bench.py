#!/usr/bin/env python3
"""cuFFT peer benchmark for fftgen, through CuPy's direct plan interface.

Measures exactly what PERF.md defines for every system: fp32, out of place, forward, batched so
the input buffer holds 2^26 complex64 values' worth of bytes (512 MiB: complex data, or reals for
R2C), GPU time (CUDA events) around 20 back-to-back calls, median of 7 such trials after a
warm-up of at least 250 ms; GB/s = (input bytes + output bytes) / time of one call (C2C: 2 * bytes
of one buffer; R2C: the reals in and the half spectrum out). The plans are called directly
(Plan1d / PlanNd .fft(a, out, FORWARD)) because cupy.fft / torch.fft with an `out=` add a copy
and would halve the figure.

Cases: 1D C2C (--sizes), 2D C2C (--sizes-2d), 1D R2C (--r2c, Plan1d CUFFT_R2C), 2D R2C
(--r2c-2d, cupyx.scipy.fft.get_fft_plan with value_type 'R2C'), and small 2D C2C grids of a fixed
batch (--grids HxWxB), whose time per call is also reported in microseconds.

Accuracy: relative L2 error of the first transforms against numpy.fft in double precision on the
same fp32 input. Also measures the device-to-device copy floor with the same formula.

Writes the bench JSON schema (see bench/README.md) with --json and prints a table.
"""

import argparse
import json
import math
import sys
import time
import traceback

import numpy as np

DEFAULT_SIZES = [2 ** k for k in range(6, 23)] + [1000, 1536, 4095, 4097]
DEFAULT_SIZES_2D = ["1024x1024", "4096x4096"]
MAX_SAMPLE_ELEMENTS = 1 << 22  # host-side reference cost stays small at every N
WARMUP_MS = 250  # clocks ramp up after host-side gaps (the rule of fftgen's vk::time_calls)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default=",".join(str(n) for n in DEFAULT_SIZES),
                   help="comma-separated 1D C2C lengths (default: the PERF.md cases)")
    p.add_argument("--sizes-2d", default=",".join(DEFAULT_SIZES_2D),
                   help="comma-separated 2D C2C shapes HxW, empty for none (default: %(default)s)")
    p.add_argument("--r2c", default="", help="comma-separated 1D R2C lengths (even), e.g. 1024,4096,65536")
    p.add_argument("--r2c-2d", default="", help="comma-separated 2D R2C shapes HxW (W even)")
    p.add_argument("--grids", default="",
                   help="comma-separated 2D C2C grids HxWxB with a fixed batch B, reported in µs "
                        "per call as well, e.g. 256x256x1,512x512x4 (use with --calls 200)")
    p.add_argument("--elements", type=int, default=1 << 26,
                   help="complex64 values' worth of input bytes; batch = max(1, elements * 8 // "
                        "input bytes of one transform) (C2C: elements // N; default 2^26 = 512 MiB)")
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--calls", type=int, default=20, help="back-to-back calls per trial")
    p.add_argument("--sample-rows", type=int, default=64, help="transforms checked against numpy")
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--json", help="write results to this file")
    return p.parse_args(argv)


def parse_shapes(text, dims):
    """"1024x1024,512x256" -> [(1024, 1024), (512, 256)]; each entry must have `dims` sides."""
    shapes = []
    for item in text.split(","):
        if not item.strip():
            continue
        shape = tuple(int(d) for d in item.lower().split("x"))
        if len(shape) != dims or min(shape) < 1:
            raise SystemExit(f"cufft_bench.py: error: '{item}' is not {'x'.join(['N'] * dims)}")
        shapes.append(shape)
    return shapes


def make_cases(args):
    """Every case as a dict: transform, shape (the transform's axes), batch (None: from --elements)."""
    cases = [{"transform": "c2c", "shape": s, "batch": None} for s in parse_shapes(args.sizes, 1)]
    cases += [{"transform": "c2c", "shape": s, "batch": None} for s in parse_shapes(args.sizes_2d, 2)]
    for dims, text in ((1, args.r2c), (2, args.r2c_2d)):
        for s in parse_shapes(text, dims):  # any last side: cuFFT's R2C takes odd lengths too
            cases.append({"transform": "r2c", "shape": s, "batch": None})
    cases += [{"transform": "c2c", "shape": g[:2], "batch": g[2]} for g in parse_shapes(args.grids, 3)]
    for c in cases:
        n = int(np.prod(c["shape"]))
        real = c["transform"] == "r2c"
        c["n"] = n
        c["in_bytes"] = n * (4 if real else 8)  # of one transform
        c["out_shape"] = c["shape"][:-1] + (c["shape"][-1] // 2 + 1,) if real else c["shape"]
        c["out_bytes"] = int(np.prod(c["out_shape"])) * 8
        if c["batch"] is None:  # at least one transform, as fftgen-bench compare does
            c["batch"] = max(1, args.elements * 8 // c["in_bytes"])
    return cases


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else 0.5 * (values[mid - 1] + values[mid])


def gbps(traffic_bytes, ms):
    """GB/s of one call that reads and writes traffic_bytes in all."""
    return traffic_bytes / (ms * 1e6) if ms > 0 else 0.0


def time_calls(cp, call, trials, calls):
    """Per-call GPU time (ms) of each trial, after untimed trials for at least WARMUP_MS."""
    start, end = cp.cuda.Event(), cp.cuda.Event()
    warm_start = time.perf_counter()
    while True:
        for _ in range(calls):
            call()
        cp.cuda.get_current_stream().synchronize()
        if (time.perf_counter() - warm_start) * 1e3 >= WARMUP_MS:
            break
    per_call = []
    for _ in range(trials):
        start.record()
        for _ in range(calls):
            call()
        end.record()
        end.synchronize()
        per_call.append(cp.cuda.get_elapsed_time(start, end) / calls)
    return per_call


def rel_l2(out_rows, in_rows, axes, real):
    """Against numpy in double: fftn, or rfftn of real input (the half spectrum)."""
    if real:
        ref = np.fft.rfftn(in_rows.astype(np.float64), axes=axes)
    else:
        ref = np.fft.fftn(in_rows.astype(np.complex128), axes=axes)
    diff = out_rows.astype(np.complex128) - ref
    norm = np.linalg.norm(ref)
    return float(np.linalg.norm(diff) / norm) if norm > 0 else float(np.linalg.norm(diff))


def case_row(case):
    """The identifying fields of a case's result row."""
    row = {"system": "cuFFT", "n": case["n"], "batch": case["batch"], "transform": case["transform"]}
    if len(case["shape"]) > 1:
        row["shape"] = list(case["shape"])
    return row


def run_case(cp, cufft, src, dst, case, args):
    """One case (see make_cases). Returns a result row."""
    shape, batch, real = case["shape"], case["batch"], case["transform"] == "r2c"
    row = case_row(case)
    # Reals for R2C are the same random bytes read as float32.
    source = src.view(cp.float32) if real else src
    a = source[: batch * case["n"]].reshape((batch,) + shape)
    out_count = batch * case["out_bytes"] // 8
    out = dst[:out_count].reshape((batch,) + case["out_shape"])

    t0 = time.perf_counter()
    if len(shape) == 1:
        plan = cufft.Plan1d(shape[0], cufft.CUFFT_R2C if real else cufft.CUFFT_C2C, batch)
    else:
        import cupyx.scipy.fft as cpx_fft
        plan = cpx_fft.get_fft_plan(a, axes=(-2, -1), value_type="R2C" if real else "C2C")
    cp.cuda.get_current_stream().synchronize()
    row["plan_ms"] = (time.perf_counter() - t0) * 1e3

    forward = cufft.CUFFT_FORWARD
    try:
        trial_ms = time_calls(cp, lambda: plan.fft(a, out, forward), args.trials, args.calls)
        ms = median(trial_ms)
        traffic = batch * (case["in_bytes"] + case["out_bytes"])
        rows = max(1, min(batch, args.sample_rows, MAX_SAMPLE_ELEMENTS // case["n"]))
        axes = tuple(range(1, len(shape) + 1))
        error = rel_l2(cp.asnumpy(out[:rows]), cp.asnumpy(a[:rows]), axes, real)
        row.update({"ms": ms, "us": ms * 1e3, "gbps": gbps(traffic, ms), "traffic": traffic,
                    "rel_l2": error if math.isfinite(error) else None,
                    "trial_ms": trial_ms, "sample_rows": rows})
    finally:
        del plan
    return row


def copy_floor(cp, src, dst, args):
    """cudaMemcpyAsync device to device of the whole input buffer, and CuPy's elementwise copy."""
    nbytes = src.nbytes
    target = dst[: src.size]
    stream = cp.cuda.get_current_stream()
    memcpy_ms = median(time_calls(
        cp, lambda: target.data.copy_from_device_async(src.data, nbytes, stream), args.trials, args.calls))
    kernel_ms = median(time_calls(cp, lambda: cp.copyto(target, src), args.trials, args.calls))
    return [
        {"system": "copy", "n": None, "batch": None, "ms": memcpy_ms, "gbps": gbps(2 * nbytes, memcpy_ms),
         "rel_l2": None, "kernel": "cudaMemcpyAsync D2D"},
        {"system": "copy", "n": None, "batch": None, "ms": kernel_ms, "gbps": gbps(2 * nbytes, kernel_ms),
         "rel_l2": None, "kernel": "cupy.copyto"},
    ]


def print_row(row):
    label = "x".join(str(s) for s in row["shape"]) if "shape" in row else str(row["n"])
    label = f"{row.get('transform', 'c2c')} {label}"
    if row.get("error"):
        print(f"{label:>15} {row.get('batch') or '':>9}   failed: {row['error']}", flush=True)
        return
    err = f"{row['rel_l2']:.2e}" if row.get("rel_l2") is not None else "-"
    print(f"{label:>15} {row['batch']:>9} {row.get('plan_ms', 0):>9.1f} {row['ms'] * 1e3:>11.2f} "
          f"{row['gbps']:>9.1f} {err:>9}", flush=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import cupy as cp
    from cupy.cuda import cufft

    cases = make_cases(args)

    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    driver = cp.cuda.runtime.driverGetVersion()
    report = {
        "schema": "fftgen-bench/1",
        "system": "cuFFT",
        "device": name,
        "driver": f"CUDA driver {driver // 1000}.{(driver % 1000) // 10}",
        "versions": {"cupy": cp.__version__, "cufft": cufft.getVersion(),
                     "cuda_runtime": cp.cuda.runtime.runtimeGetVersion()},
        "command": " ".join([sys.executable] + sys.argv),
        "copy_floor_gbps": None,
        "results": [],
    }

    # One pair of buffers for every case: each case uses a contiguous prefix of each, which keeps
    # allocation out of the loop and every case on the same memory. The output buffer is larger
    # than the input where a half spectrum (N/2 + 1 values per N reals) needs it.
    in_values = max([args.elements] + [c["batch"] * c["in_bytes"] // 8 for c in cases])
    out_values = max([args.elements] + [c["batch"] * c["out_bytes"] // 8 for c in cases])
    rng = cp.random.RandomState(args.seed)
    src = rng.standard_normal(2 * in_values, dtype=cp.float32).view(cp.complex64)
    dst = cp.zeros(out_values, dtype=cp.complex64)

    print(f"cuFFT on {name} ({report['driver']}, cuFFT {report['versions']['cufft']})")
    try:
        floors = copy_floor(cp, src[: args.elements], dst, args)
        report["results"] += floors
        report["copy_floor_gbps"] = floors[0]["gbps"]
        for f in floors:
            print(f"copy floor ({f['kernel']}): {f['gbps']:.1f} GB/s")
    except Exception as e:  # the peers still mean something without the floor
        print(f"copy floor failed: {e}", file=sys.stderr)

    print("GB/s = (input + output bytes) / time per call (C2C: 2 x buffer bytes)")
    print(f"{'case':>15} {'batch':>9} {'plan ms':>9} {'us/call':>11} {'GB/s':>9} {'rel L2':>9}")
    pool = cp.get_default_memory_pool()
    for case in cases:
        try:
            row = run_case(cp, cufft, src, dst, case, args)
        except Exception as e:  # out of memory, a size cuFFT refuses: note it and go on
            row = case_row(case)
            row.update({"ms": None, "gbps": None, "rel_l2": None, "error": f"{type(e).__name__}: {e}"})
            traceback.print_exc(file=sys.stderr)
        report["results"].append(row)
        print_row(row)
        cp.cuda.get_current_stream().synchronize()
        pool.free_all_blocks()  # plan work areas differ per size

    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
