#!/usr/bin/env python3
"""Draws the bloom demo's inputs (Python standard library only): a night scene with bright lights
and a glare filter.

  make_images.py OUTDIR [--size N] [--filter K]

writes into OUTDIR:
  scene.npy   float32 [N, N, 3], linear RGB; the lights are brighter than 1 (high dynamic range)
  scene.png   the same clamped to 0..1, 8-bit (what a display shows without bloom)
  glare.npy   float32 [K, K]: a glare filter (a core, a halo and four streaks) that sums to 1
  glare.png   the filter for viewing: its square root, scaled to its peak, 8-bit grey
  plan.json   the fftgen plan: {"convolution": {"image": [N, N], "filter": [K, K], "channels": 3}}
"""
import argparse
import json
import math
import os
import random
import struct
import zlib


def write_png(path, rows, channels):
    """rows: list of rows of floats in 0..1 (channels interleaved)."""
    kind = {1: 0, 3: 2, 4: 6}[channels]
    raw = bytearray()
    for row in rows:
        raw.append(0)
        raw.extend(int(round(min(max(v, 0.0), 1.0) * 255)) for v in row)
    height, width = len(rows), len(rows[0]) // channels

    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, kind, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


def write_npy(path, values, shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % ", ".join(str(s) for s in shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def read_npy(path):
    """(values, shape) of a float32 C-ordered .npy."""
    import ast
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + length].decode("latin1"))
    assert header["descr"] == "<f4" and not header["fortran_order"], header
    count = 1
    for s in header["shape"]:
        count *= s
    return list(struct.unpack("<%df" % count, data[10 + length:10 + length + 4 * count])), header["shape"]


def scene(n, seed=7):
    """A dusk sky over a skyline with lit windows, street lamps and a moon; linear RGB."""
    rnd = random.Random(seed)
    img = [[0.0] * (3 * n) for _ in range(n)]
    for y in range(n):
        t = y / (n - 1)
        sky = (0.02 + 0.10 * t, 0.03 + 0.06 * t, 0.10 + 0.05 * t)
        for x in range(n):
            img[y][3 * x:3 * x + 3] = sky
    # Buildings: dark blocks from the ground up, windows lit at random.
    x = 0
    while x < n:
        w = rnd.randint(n // 12, n // 5)
        h = rnd.randint(n // 5, n * 3 // 5)
        for yy in range(n - h, n):
            for xx in range(x, min(n, x + w)):
                img[yy][3 * xx:3 * xx + 3] = (0.015, 0.015, 0.02)
        step = max(3, n // 40)
        for wy in range(n - h + step, n - step, step * 2):
            for wx in range(x + step // 2, min(n, x + w) - step // 2, step * 2):
                if rnd.random() < 0.35:
                    warm = (3.0, 2.0, 0.9) if rnd.random() < 0.7 else (1.3, 1.7, 3.0)
                    for yy in range(wy, min(n, wy + step)):
                        for xx in range(wx, min(n, wx + step)):
                            img[yy][3 * xx:3 * xx + 3] = warm
        x += w + rnd.randint(0, n // 30)
    # Lights far brighter than the display's white: lamps and a moon.
    def disc(cx, cy, r, rgb):
        for yy in range(max(0, int(cy - r) - 1), min(n, int(cy + r) + 2)):
            for xx in range(max(0, int(cx - r) - 1), min(n, int(cx + r) + 2)):
                if (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r:
                    img[yy][3 * xx:3 * xx + 3] = rgb
    disc(n * 0.78, n * 0.16, max(1.5, n * 0.045), (30.0, 30.0, 27.0))
    for i in range(5):
        disc(n * (0.1 + 0.2 * i), n * 0.86, max(1.0, n * 0.012), (400.0, 280.0, 120.0))
    disc(n * 0.33, n * 0.52, max(1.0, n * 0.01), (150.0, 40.0, 30.0))
    return img


def glare(k, core=0.6):
    """A glare filter of k x k taps (k odd): a sharp core (`core` on the centre tap), a soft halo and
    four streaks, summing to 1. core=0: a star filter for a bright pass, all halo and streaks."""
    c = (k - 1) // 2
    f = [[0.0] * k for _ in range(k)]
    for y in range(k):
        for x in range(k):
            dy, dx = y - c, x - c
            r2 = dx * dx + dy * dy
            v = 1.0 / (1.0 + r2 / (0.02 * k * k)) ** 1.5 * 0.02
            for ax, ay in ((1, 0), (0, 1), (1, 1), (1, -1)):
                along = abs(dx * ax + dy * ay) / math.hypot(ax, ay)
                across = abs(dx * ay - dy * ax) / math.hypot(ax, ay)
                v += 0.05 * math.exp(-across / 0.6) / (1.0 + along / (0.03 * k))
            f[y][x] = v
    total = sum(map(sum, f))
    f = [[v / total * (1.0 - core) for v in row] for row in f]
    f[c][c] += core  # the image itself stays sharp
    return f


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("outdir")
    p.add_argument("--size", type=int, default=256, help="scene side N (default 256)")
    p.add_argument("--filter", type=int, default=255, help="filter side K, odd (default 255)")
    a = p.parse_args()
    if a.filter % 2 == 0:
        p.error("--filter must be odd")
    os.makedirs(a.outdir, exist_ok=True)
    img = scene(a.size)
    write_npy(os.path.join(a.outdir, "scene.npy"), [v for row in img for v in row], (a.size, a.size, 3))
    write_png(os.path.join(a.outdir, "scene.png"), img, 3)
    f = glare(a.filter)
    write_npy(os.path.join(a.outdir, "glare.npy"), [v for row in f for v in row], (a.filter, a.filter))
    c = (a.filter - 1) // 2
    peak = max(v for row in f for v in row if v != f[c][c]) or 1.0
    write_png(os.path.join(a.outdir, "glare.png"), [[math.sqrt(min(v / peak, 1.0)) for v in row] for row in f], 1)
    write_plan(os.path.join(a.outdir, "plan.json"), a.size, a.size, a.filter)


def write_plan(path, height, width, k):
    """The fftgen plan of kernel "bloom": RGB images of height x width, a k x k filter."""
    plan = {"kernels": [{"name": "bloom", "convolution": {"image": [height, width], "filter": [k, k],
                                                          "channels": 3, "mode": "same"}}]}
    with open(path, "w") as out:
        json.dump(plan, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
