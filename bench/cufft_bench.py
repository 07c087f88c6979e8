#!/usr/bin/env python3
"""cuFFT peer benchmark for fftgen, through CuPy's direct plan interface.

Measures exactly what PERF.md defines for every system: complex fp32, out of place, batched so
one buffer holds 2^26 elements (512 MiB), GPU time (CUDA events) around 20 back-to-back calls,
median of 7 such trials after a warm-up; GB/s = 2 * bytes of one buffer / time of one call.
The plan is called directly (Plan1d.fft(a, out, FORWARD)) because cupy.fft / torch.fft with an
`out=` add a copy and would halve the figure.

Accuracy: relative L2 error of the first transforms against numpy.fft in complex128 on the same
(complex64) input. Also measures the device-to-device copy floor with the same formula.

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


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default=",".join(str(n) for n in DEFAULT_SIZES),
                   help="comma-separated 1D lengths (default: the PERF.md cases)")
    p.add_argument("--sizes-2d", default=",".join(DEFAULT_SIZES_2D),
                   help="comma-separated 2D shapes HxW, empty for none (default: %(default)s)")
    p.add_argument("--elements", type=int, default=1 << 26,
                   help="complex64 elements per buffer; batch = elements // N (default 2^26 = 512 MiB)")
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--calls", type=int, default=20, help="back-to-back calls per trial")
    p.add_argument("--sample-rows", type=int, default=64, help="transforms checked against numpy")
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--json", help="write results to this file")
    return p.parse_args(argv)


def median(values):
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else 0.5 * (values[mid - 1] + values[mid])


def gbps(buffer_bytes, ms):
    return 2.0 * buffer_bytes / (ms * 1e6) if ms > 0 else 0.0


def time_calls(cp, call, trials, calls):
    """Per-call GPU time (ms) of each trial, after one untimed trial as warm-up."""
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(calls):
        call()
    cp.cuda.get_current_stream().synchronize()
    per_call = []
    for _ in range(trials):
        start.record()
        for _ in range(calls):
            call()
        end.record()
        end.synchronize()
        per_call.append(cp.cuda.get_elapsed_time(start, end) / calls)
    return per_call


def rel_l2(out_rows, in_rows, axes):
    ref = np.fft.fftn(in_rows.astype(np.complex128), axes=axes)
    diff = out_rows.astype(np.complex128) - ref
    norm = np.linalg.norm(ref)
    return float(np.linalg.norm(diff) / norm) if norm > 0 else float(np.linalg.norm(diff))


def run_case(cp, cufft, src, dst, shape, args):
    """One size; shape is (n,) for 1D or (h, w) for 2D. Returns a result row."""
    n = int(np.prod(shape))
    batch = args.elements // n
    row = {"system": "cuFFT", "n": n, "batch": batch}
    if len(shape) > 1:
        row["shape"] = list(shape)
    if batch < 1:
        row.update({"ms": None, "gbps": None, "rel_l2": None,
                    "error": f"{n} elements do not fit a buffer of {args.elements}"})
        return row
    a = src[: batch * n].reshape((batch,) + shape)
    out = dst[: batch * n].reshape((batch,) + shape)

    t0 = time.perf_counter()
    if len(shape) == 1:
        plan = cufft.Plan1d(n, cufft.CUFFT_C2C, batch)
    else:
        import cupyx.scipy.fft as cpx_fft
        plan = cpx_fft.get_fft_plan(a, axes=(-2, -1), value_type="C2C")
    cp.cuda.get_current_stream().synchronize()
    row["plan_ms"] = (time.perf_counter() - t0) * 1e3

    forward = cufft.CUFFT_FORWARD
    try:
        trial_ms = time_calls(cp, lambda: plan.fft(a, out, forward), args.trials, args.calls)
        ms = median(trial_ms)
        buffer_bytes = batch * n * 8
        rows = max(1, min(batch, args.sample_rows, MAX_SAMPLE_ELEMENTS // n))
        axes = tuple(range(1, len(shape) + 1))
        error = rel_l2(cp.asnumpy(out[:rows]), cp.asnumpy(a[:rows]), axes)
        row.update({"ms": ms, "gbps": gbps(buffer_bytes, ms),
                    "rel_l2": error if math.isfinite(error) else None,
                    "trial_ms": trial_ms, "sample_rows": rows})
    finally:
        del plan
    return row


def copy_floor(cp, src, dst, args):
    """cudaMemcpyAsync device to device of the whole buffer, and CuPy's elementwise copy."""
    nbytes = src.nbytes
    stream = cp.cuda.get_current_stream()
    memcpy_ms = median(time_calls(
        cp, lambda: dst.data.copy_from_device_async(src.data, nbytes, stream), args.trials, args.calls))
    kernel_ms = median(time_calls(cp, lambda: cp.copyto(dst, src), args.trials, args.calls))
    return [
        {"system": "copy", "n": None, "batch": None, "ms": memcpy_ms, "gbps": gbps(nbytes, memcpy_ms),
         "rel_l2": None, "kernel": "cudaMemcpyAsync D2D"},
        {"system": "copy", "n": None, "batch": None, "ms": kernel_ms, "gbps": gbps(nbytes, kernel_ms),
         "rel_l2": None, "kernel": "cupy.copyto"},
    ]


def print_row(row):
    label = "x".join(str(s) for s in row["shape"]) if "shape" in row else str(row["n"])
    if row.get("error"):
        print(f"{label:>10} {row.get('batch') or '':>9}   failed: {row['error']}", flush=True)
        return
    err = f"{row['rel_l2']:.2e}" if row.get("rel_l2") is not None else "-"
    print(f"{label:>10} {row['batch']:>9} {row.get('plan_ms', 0):>9.1f} {row['ms']:>11.5f} "
          f"{row['gbps']:>9.1f} {err:>9}", flush=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import cupy as cp
    from cupy.cuda import cufft

    sizes = [(int(s),) for s in args.sizes.split(",") if s.strip()]
    sizes += [tuple(int(d) for d in s.lower().split("x")) for s in args.sizes_2d.split(",") if s.strip()]

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

    # One pair of buffers for every case: each case uses a contiguous prefix (batch * N elements),
    # which keeps allocation out of the loop and every case on the same memory.
    rng = cp.random.RandomState(args.seed)
    src = rng.standard_normal(2 * args.elements, dtype=cp.float32).view(cp.complex64)
    dst = cp.zeros(args.elements, dtype=cp.complex64)

    print(f"cuFFT on {name} ({report['driver']}, cuFFT {report['versions']['cufft']})")
    try:
        floors = copy_floor(cp, src, dst, args)
        report["results"] += floors
        report["copy_floor_gbps"] = floors[0]["gbps"]
        for f in floors:
            print(f"copy floor ({f['kernel']}): {f['gbps']:.1f} GB/s")
    except Exception as e:  # the peers still mean something without the floor
        print(f"copy floor failed: {e}", file=sys.stderr)

    print(f"{'N':>10} {'batch':>9} {'plan ms':>9} {'ms/call':>11} {'GB/s':>9} {'rel L2':>9}")
    pool = cp.get_default_memory_pool()
    for shape in sizes:
        try:
            row = run_case(cp, cufft, src, dst, shape, args)
        except Exception as e:  # out of memory, a size cuFFT refuses: note it and go on
            n = int(np.prod(shape))
            row = {"system": "cuFFT", "n": n, "batch": args.elements // n, "ms": None, "gbps": None,
                   "rel_l2": None, "error": f"{type(e).__name__}: {e}"}
            if len(shape) > 1:
                row["shape"] = list(shape)
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
