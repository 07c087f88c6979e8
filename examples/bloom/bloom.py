#!/usr/bin/env python3
"""The bloom demo end to end: draws the scene and the glare filter (make_images.py), generates the
convolution kernels with fftgen, blooms the scene on Vulkan with `fftgen-vk convolve`, and with
--check compares the result with a direct convolution in double (Python, so keep --size small).

  bloom.py [--fftgen PATH] [--fftgen-vk PATH] [--size 256] [--filter 255] [--out DIR] [--check]

Writes DIR/scene.png, glare.png, bloomed.png (and the .npy files, plan.json, the kernels in kernels/).

  bloom.py --photo astronaut|coffee [--threshold 2] [--strength 1] [--peak 64] [--require-photo] ...

blooms a photograph as an engine composes it (photo.py): linear HDR, bright pass, the bright part
convolved with a star filter by fftgen's kernels, added to the frame, tonemapped. Writes
DIR/<photo>_input.png, _bright.png, _bloom.png, _result.png and star.png (the .npy files,
<photo>_plan.json, the kernels in <photo>_kernels/); --check compares the bloom with a direct
convolution in double. Without scikit-image it says so and blooms the synthetic scene the same
way (scene_*.png); with --require-photo it exits 77 instead (CTest's SKIP_RETURN_CODE).
"""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_images  # noqa: E402
import photo  # noqa: E402

SKIP = 77  # --require-photo without the photograph: CTest's SKIP_RETURN_CODE


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


def convolve(a, plan, kernels, image, filt, results):
    """Generates `plan` into `kernels` and convolves `image` with `filt` into each of `results`."""
    subprocess.run([a.fftgen, plan, "-o", kernels, "-q"], check=True)
    for result in results:
        subprocess.run([a.fftgen_vk, "convolve", kernels, "bloom", "--input", image, "--filter", filt,
                        "--output", result], check=True)


def check(image_npy, filter_npy, result_npy, what):
    """0 when `result_npy` equals the direct convolution in double of the other two (rel L2 < 1e-5)."""
    image, shape = make_images.read_npy(image_npy)
    filt, fshape = make_images.read_npy(filter_npy)
    got, got_shape = make_images.read_npy(result_npy)
    if tuple(got_shape) != tuple(shape):
        print("%s has shape %s, the image %s" % (result_npy, got_shape, shape))
        return 1
    want = direct_convolution(image, shape, filt, fshape)
    err = math.sqrt(sum((g - r) ** 2 for g, r in zip(got, want)) / sum(r * r for r in want))
    print("%s %s with a %s filter: rel L2 against a direct convolution in double %.2e" % (what, shape, fshape, err))
    return 0 if err < 1e-5 else 1


def night_scene(a):
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_images.py"), a.out,
                    "--size", str(a.size), "--filter", str(a.filter)], check=True)
    out = lambda name: os.path.join(a.out, name)  # noqa: E731
    convolve(a, out("plan.json"), out("kernels"), out("scene.npy"), out("glare.npy"),
             [out("bloomed.png"), out("bloomed.npy")])
    return check(out("scene.npy"), out("glare.npy"), out("bloomed.npy"), "bloom") if a.check else 0


def photo_frame(a):
    """(name, scene HDR RGB, height, width, the input as shown): the photograph, downscaled to at most
    --size a side and expanded to HDR; without it, the synthetic night scene (already HDR)."""
    path = photo.find_photo(a.photo)
    if path:
        values, h, w, c = photo.read_png(path)
        shown, h, w = photo.downscale(values, h, w, c, a.size)
        return a.photo, photo.expand([photo.srgb_to_linear(v) for v in shown], a.peak), h, w, shown
    hdr = [v for row in make_images.scene(a.size) for v in row]
    return "scene", hdr, a.size, a.size, photo.to_display(hdr)


def bloom_photo(a):
    if not photo.find_photo(a.photo):
        print("bloom.py: scikit-image's %s.png was not found (apt-get install python3-skimage); %s"
              % (a.photo, "skipped (--require-photo)" if a.require_photo else "blooming the synthetic night scene instead"))
        if a.require_photo:
            return SKIP
    name, hdr, h, w, shown = photo_frame(a)
    out = lambda suffix: os.path.join(a.out, name + suffix)  # noqa: E731
    star = photo.star(a.filter)
    make_images.write_npy(out("_bright.npy"), photo.bright_pass(hdr, a.threshold), (h, w, 3))
    make_images.write_npy(os.path.join(a.out, "star.npy"), [v for row in star for v in row], (a.filter, a.filter))
    make_images.write_plan(out("_plan.json"), h, w, a.filter)
    convolve(a, out("_plan.json"), out("_kernels"), out("_bright.npy"), os.path.join(a.out, "star.npy"),
             [out("_bloom.npy")])
    bright = make_images.read_npy(out("_bright.npy"))[0]
    bloom = [a.strength * v for v in make_images.read_npy(out("_bloom.npy"))[0]]
    result = [v + b for v, b in zip(hdr, bloom)]
    for suffix, values in (("_input.png", shown), ("_bright.png", photo.to_display(bright)),
                           ("_bloom.png", photo.to_display(bloom)), ("_result.png", photo.to_display(result))):
        make_images.write_png(out(suffix), photo.rows(values, h, w), 3)
    make_images.write_png(os.path.join(a.out, "star.png"), photo.star_preview(star), 1)
    print("bloom.py: %s [%d, %d]: %s_input.png, _bright.png, _bloom.png, _result.png in %s" % (name, h, w, name, a.out))
    return check(out("_bright.npy"), os.path.join(a.out, "star.npy"), out("_bloom.npy"), "bright pass") if a.check else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fftgen", default="fftgen")
    p.add_argument("--fftgen-vk", default="fftgen-vk")
    p.add_argument("--size", type=int, default=256, help="the scene's side; a photo's longest side at most")
    p.add_argument("--filter", type=int, default=255)
    p.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--check", action="store_true", help="compare with a direct convolution in double")
    p.add_argument("--photo", choices=photo.PHOTOS, help="bloom this scikit-image photograph")
    p.add_argument("--threshold", type=float, default=3.0, help="bright pass: luminance kept above this (HDR)")
    p.add_argument("--strength", type=float, default=0.7, help="the bloom's weight in the sum")
    p.add_argument("--peak", type=float, default=64.0, help="the brightest HDR luminance of the expanded photo")
    p.add_argument("--require-photo", action="store_true", help="exit 77 (skip) when the photo is not installed")
    a = p.parse_args()
    if a.filter % 2 == 0 or a.filter < 1 or a.size < 1:
        p.error("--filter must be odd and positive, --size positive")
    os.makedirs(a.out, exist_ok=True)
    return bloom_photo(a) if a.photo else night_scene(a)


if __name__ == "__main__":
    sys.exit(main())
