#!/usr/bin/env python3
"""The bloom demo end to end: draws the scene and the glare filter (make_images.py), generates the
convolution kernels with fftgen, blooms the scene on Vulkan with `fftgen-vk convolve`, and with
--check compares the result with a direct convolution in double (Python, so keep --size small).

  bloom.py [--fftgen PATH] [--fftgen-vk PATH] [--size 256] [--filter 255] [--out DIR] [--check]

Writes DIR/scene.png, glare.png, bloomed.png (and the .npy files, plan.json, the kernels in kernels/).
"""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_images  # noqa: E402


def direct_convolution(image, shape, filt, fshape):
    """scipy.signal.fftconvolve(image, filter, mode="same") per channel, in double."""
    h, w, c = shape
    kh, kw = fshape
    cy, cx = (kh - 1) // 2, (kw - 1) // 2
    out = [0.0] * (h * w * c)
    for y in range(h):
        for x in range(w):
            for k in range(c):
                s = 0.0
                for ky in range(kh):
                    sy = y + cy - ky
                    if 0 <= sy < h:
                        for kx in range(kw):
                            sx = x + cx - kx
                            if 0 <= sx < w:
                                s += filt[ky * kw + kx] * image[(sy * w + sx) * c + k]
                out[(y * w + x) * c + k] = s
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fftgen", default="fftgen")
    p.add_argument("--fftgen-vk", default="fftgen-vk")
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--filter", type=int, default=255)
    p.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--check", action="store_true", help="compare with a direct convolution in double")
    a = p.parse_args()
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_images.py"), a.out,
                    "--size", str(a.size), "--filter", str(a.filter)], check=True)
    kernels = os.path.join(a.out, "kernels")
    subprocess.run([a.fftgen, os.path.join(a.out, "plan.json"), "-o", kernels, "-q"], check=True)
    for result in ("bloomed.png", "bloomed.npy"):
        subprocess.run([a.fftgen_vk, "convolve", kernels, "bloom", "--input", os.path.join(a.out, "scene.npy"),
                        "--filter", os.path.join(a.out, "glare.npy"), "--output", os.path.join(a.out, result)],
                       check=True)
    if not a.check:
        return 0
    image, shape = make_images.read_npy(os.path.join(a.out, "scene.npy"))
    filt, fshape = make_images.read_npy(os.path.join(a.out, "glare.npy"))
    got, got_shape = make_images.read_npy(os.path.join(a.out, "bloomed.npy"))
    if tuple(got_shape) != tuple(shape):
        print("bloomed.npy has shape %s, the scene %s" % (got_shape, shape))
        return 1
    want = direct_convolution(image, shape, filt, fshape)
    err = math.sqrt(sum((g - r) ** 2 for g, r in zip(got, want)) / sum(r * r for r in want))
    print("bloom %s with a %s filter: rel L2 against a direct convolution in double %.2e" % (shape, fshape, err))
    return 0 if err < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
