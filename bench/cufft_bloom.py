#!/usr/bin/env python3
"""cuFFT's unfused bloom chain, the peer of fftgen's fused convolution (issue 10's speed rows).

One RGBA frame [H, W, 4] (float32, channels interleaved as fftgen's `convolve` takes them) is
convolved with one real filter [KH, KW] as large as the frame, "same" output, through CuPy's cuFFT
plans, in five steps per frame:
  1. pad:      the four channels into planes [4, PH, PW] (PH >= H + KH - 1, a power of two; the
               padding is zeroed once, outside the timing: no step writes it, so the pad step
               writes only the image's window, the cheapest correct chain);
  2. R2C 2D:   one plan, batch 4, into half spectra [4, PH, PW/2 + 1];
  3. multiply: by the filter's half spectrum, made once (untimed), scaled by 1 / (PH PW);
  4. C2R 2D:   one plan, batch 4, into planes of its own [4, PH, PW];
  5. crop:     the "same" window (scipy.signal.fftconvolve's: offset (KH - 1) // 2) into [H, W, 4].
GPU time per frame (CUDA events around 20 back-to-back frames, median of 7 trials after a warm-up
of at least 250 ms, as cufft_bench.py). The result is checked against numpy's FFTs in double.

usage: python3 bench/cufft_bloom.py [--sizes 256,1024,4096] [--json OUT.json]
"""

import argparse
import json
import sys
import time

import numpy as np

from cufft_bench import median, time_calls  # the same timing rule as the other cuFFT rows


def padded_size(n):
    p = 1
    while p < n:
        p *= 2
    return p


def reference(image, filt, ph, pw):
    """The same chain in double on the host (numpy): rfft2 of the padded planes, product, irfft2, crop."""
    h, w, c = image.shape
    kh, kw = filt.shape
    planes = np.zeros((c, ph, pw))
    planes[:, :h, :w] = image.transpose(2, 0, 1)
    spectrum = np.fft.rfft2(planes) * np.fft.rfft2(filt.astype(np.float64), s=(ph, pw))
    full = np.fft.irfft2(spectrum, s=(ph, pw))
    oy, ox = (kh - 1) // 2, (kw - 1) // 2
    return full[:, oy:oy + h, ox:ox + w].transpose(1, 2, 0)


def run_size(cp, cufft, cpx_fft, size, args):
    h = w = size
    kh, kw = h, w
    ph, pw = padded_size(h + kh - 1), padded_size(w + kw - 1)
    rng = np.random.default_rng(size)
    image_host = rng.random((h, w, 4), dtype=np.float32)
    filt_host = rng.random((kh, kw), dtype=np.float32) / (kh * kw)

    image = cp.asarray(image_host)
    planes = cp.zeros((4, ph, pw), dtype=cp.float32)
    back = cp.zeros((4, ph, pw), dtype=cp.float32)
    spectrum = cp.zeros((4, ph, pw // 2 + 1), dtype=cp.complex64)
    output = cp.zeros((h, w, 4), dtype=cp.float32)
    filt_planes = cp.zeros((1, ph, pw), dtype=cp.float32)
    filt_planes[0, :kh, :kw] = cp.asarray(filt_host)
    filt_spectrum = cp.zeros((1, ph, pw // 2 + 1), dtype=cp.complex64)

    t0 = time.perf_counter()
    forward = cpx_fft.get_fft_plan(planes, axes=(-2, -1), value_type="R2C")
    inverse = cpx_fft.get_fft_plan(spectrum, shape=(ph, pw), axes=(-2, -1), value_type="C2R")
    filter_plan = cpx_fft.get_fft_plan(filt_planes, axes=(-2, -1), value_type="R2C")
    cp.cuda.get_current_stream().synchronize()
    plan_ms = (time.perf_counter() - t0) * 1e3
    filter_plan.fft(filt_planes, filt_spectrum, cufft.CUFFT_FORWARD)
    filt_spectrum *= np.float32(1.0 / (ph * pw))  # cuFFT's inverse does not normalise

    oy, ox = (kh - 1) // 2, (kw - 1) // 2
    planes_window = planes[:, :h, :w]
    crop_window = back[:, oy:oy + h, ox:ox + w].transpose(1, 2, 0)

    def frame():
        cp.copyto(planes_window, image.transpose(2, 0, 1))       # 1. pad (padding stays zero)
        forward.fft(planes, spectrum, cufft.CUFFT_FORWARD)        # 2. R2C x4
        cp.multiply(spectrum, filt_spectrum, out=spectrum)        # 3. product
        inverse.fft(spectrum, back, cufft.CUFFT_INVERSE)          # 4. C2R x4
        cp.copyto(output, crop_window)                            # 5. crop

    frame()
    cp.cuda.get_current_stream().synchronize()
    got = cp.asnumpy(output).astype(np.float64)
    want = reference(image_host.astype(np.float64), filt_host, ph, pw)
    rel_l2 = float(np.linalg.norm(got - want) / np.linalg.norm(want))

    trial_ms = time_calls(cp, frame, args.trials, args.calls)
    return {"system": "cuFFT", "case": f"bloom{size}", "image": [h, w, 4], "filter": [kh, kw],
            "padded": [ph, pw], "ms": median(trial_ms), "trial_ms": trial_ms, "plan_ms": plan_ms,
            "rel_l2": rel_l2,
            "steps": "pad (image window), R2C 2D x4, multiply, C2R 2D x4, crop"}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="256,1024,4096", help="frame sides (square frames, RGBA)")
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--json", help="write the results here")
    args = p.parse_args(argv)
    try:
        import cupy as cp
        import cupyx.scipy.fft as cpx_fft
        from cupy.cuda import cufft
    except ImportError as e:
        print(f"cufft_bloom.py: CuPy is needed ({e})", file=sys.stderr)
        return 1
    device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rows = []
    print(f"device: {device}")
    print(f"{'case':>10} {'padded':>10} {'ms/frame':>9} {'rel L2':>9}")
    for size in [int(s) for s in args.sizes.split(",") if s]:
        row = run_size(cp, cufft, cpx_fft, size, args)
        rows.append(row)
        print(f"{row['case']:>10} {row['padded'][0]:>9}² {row['ms']:>9.3f} {row['rel_l2']:>9.2e}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "results": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
