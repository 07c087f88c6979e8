#!/usr/bin/env python3
"""cuFFT's Z2Z (double precision, through CuPy) on exactly the fp64 kernels and batches that
`fftgen-vk bench --json` timed: peers_cupy.py's timing (best of three medians of 7 trials of 20
calls) with CUFFT_Z2Z plans on complex128, which peers_cupy.py does not time.

usage: peers_z2z.py manifest.json bench.json      (on the GPU machine, CuPy installed)

Prints one row per kernel (fftgen's and cuFFT's time and GB/s, cuFFT time / fftgen time: above 1
means fftgen is faster) and a summary line (geometric mean, minimum).
"""
import json, sys, time, math
import cupy as cp
from cupy.cuda import cufft
man = json.load(open(sys.argv[1])); rows = {r["name"]: r for r in json.load(open(sys.argv[2]))["results"]}
def once(fn, reps=20, trials=7):
    t0 = time.time()
    while time.time() - t0 < 0.25: fn(); cp.cuda.Device().synchronize()
    ts = []
    for _ in range(trials):
        s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
        for _ in range(reps): fn()
        e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e) / reps)
    ts.sort(); return ts[len(ts) // 2]
ratios = []
for k in man["kernels"]:
    row = rows.get(k["name"])
    if row is None: continue
    shape = k["shape"]; b = row["batch"]; per = math.prod(shape)
    a = (cp.random.standard_normal((b, per)) + 1j * cp.random.standard_normal((b, per))).astype(cp.complex128)
    o = cp.empty_like(a)
    plan = cufft.Plan1d(shape[0], cufft.CUFFT_Z2Z, b) if len(shape) == 1 else \
        cufft.PlanNd(tuple(shape), None, 1, per, None, 1, per, cufft.CUFFT_Z2Z, b, 'C', -1, None)
    ms = min(once(lambda: plan.fft(a, o, cufft.CUFFT_FORWARD)) for _ in range(3))
    traffic = b * per * 32
    ratios.append(ms / row["median_ms"])
    print(f"{k['name']}\t{'x'.join(map(str, shape))}\tz2z\tbatch={b}\tfftgen {row['median_ms']:.4f} ms {traffic/(row['median_ms']*1e6):.0f} GB/s\tcufft {ms:.4f} ms {traffic/(ms*1e6):.0f} GB/s\tcufft/fftgen time={ms/row['median_ms']:.3f}", flush=True)
    del a, o, plan
print(f"summary\t{len(ratios)} rows\tgeomean cufft/fftgen {math.exp(sum(map(math.log, ratios))/len(ratios)):.3f}\tmin {min(ratios):.3f}")
