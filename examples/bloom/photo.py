"""Bloom on a photograph, as an engine composes it (Python standard library only): the photo is
expanded to linear HDR (sRGB -> linear, then an inverse Reinhard tonemap lifts the highlights far
above 1), a bright pass keeps what lies above a threshold, that part is convolved with a star
filter (by fftgen's kernels: bloom.py runs them), added back to the frame, and the sum tonemapped
(Reinhard, the inverse of the expansion: without bloom the output is the input photo) to sRGB.

The photographs are scikit-image's astronaut.png and coffee.png (Debian: apt-get install
python3-skimage), found in the skimage package of this Python or of the system's python3 and
decoded here; find_photo() returns None where there is neither.
"""
import importlib.util
import math
import os
import struct
import zlib

PHOTOS = ("astronaut", "coffee")
_SYSTEM_PACKAGES = ("/usr/lib/python3/dist-packages", "/usr/local/lib/python3/dist-packages")


def find_photo(name):
    """The path of skimage's data/<name>.png, or None when scikit-image is not installed."""
    folders = []
    spec = importlib.util.find_spec("skimage")
    if spec and spec.submodule_search_locations:
        folders += [os.path.join(p, "data") for p in spec.submodule_search_locations]
    folders += [os.path.join(p, "skimage", "data") for p in _SYSTEM_PACKAGES]
    for folder in folders:
        path = os.path.join(folder, name + ".png")
        if os.path.isfile(path):
            return path
    return None


def _unfilter(raw, height, stride, bpp):
    """The PNG scanlines of `raw` (each a filter byte, then `stride` bytes) without their filters."""
    out = bytearray(height * stride)
    prev = bytearray(stride)
    at = 0
    for y in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        elif kind != 0:
            raise ValueError("unknown PNG filter %d" % kind)
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return out


def read_png(path):
    """(values 0..1, height, width, channels) of an 8-bit, non-interlaced grey, RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG file" % path)
    at, idat, header = 8, [], None
    while at < len(data):
        length, tag = struct.unpack(">I4s", data[at:at + 8])
        if tag == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[at + 8:at + 21])
        elif tag == b"IDAT":
            idat.append(data[at + 8:at + 8 + length])
        at += 12 + length
    width, height, depth, kind, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4}.get(kind)
    if depth != 8 or channels is None or interlace:
        raise ValueError("%s: an 8-bit non-interlaced grey, RGB or RGBA PNG is read here" % path)
    pixels = _unfilter(zlib.decompress(b"".join(idat)), height, width * channels, channels)
    return [v / 255.0 for v in pixels], height, width, channels


def downscale(values, height, width, channels, size):
    """Box-averages by the smallest whole factor that brings both sides to `size` or less; keeps RGB."""
    f = max(1, -(-max(height, width) // size))
    h, w = height // f, width // f
    out = []
    for y in range(h):
        for x in range(w):
            for k in range(3):
                s = 0.0
                for yy in range(y * f, y * f + f):
                    row = yy * width
                    for xx in range(x * f, x * f + f):
                        s += values[(row + xx) * channels + min(k, channels - 1)]
                out.append(s / (f * f))
    return out, h, w


def srgb_to_linear(v):
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def linear_to_srgb(v):
    v = min(max(v, 0.0), 1.0)
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def luminance(r, g, b):
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _scale_by_luminance(rgb, curve):
    """Each pixel's RGB times curve(Y) / Y: a tone curve on luminance that keeps the hue."""
    out = []
    for i in range(0, len(rgb), 3):
        r, g, b = rgb[i:i + 3]
        y = luminance(r, g, b)
        s = curve(y) / y if y > 0 else 0.0
        out += (r * s, g * s, b * s)
    return out


def expand(rgb, peak):
    """Display-linear RGB (0..1) to scene HDR: inverse Reinhard Y / (1 - Y), at most `peak`."""
    return _scale_by_luminance(rgb, lambda y: min(y / (1.0 - y) if y < 1.0 else peak, peak))


def tonemap(rgb):
    """Scene HDR to display-linear RGB: Reinhard Y / (1 + Y) on luminance (the inverse of expand)."""
    return _scale_by_luminance(rgb, lambda y: y / (1.0 + y))


def bright_pass(rgb, threshold):
    """The part of each pixel above `threshold` in luminance (soft: RGB times (Y - t) / Y)."""
    return _scale_by_luminance(rgb, lambda y: max(y - threshold, 0.0))


def to_display(rgb):
    """Scene HDR to sRGB values 0..1, through tonemap()."""
    return [linear_to_srgb(v) for v in tonemap(rgb)]


def rows(values, height, width, channels=3):
    return [values[y * width * channels:(y + 1) * width * channels] for y in range(height)]


def star_preview(f):
    """A star filter to look at: its fourth root, scaled to its peak."""
    peak = max(max(row) for row in f) or 1.0
    return [[math.sqrt(math.sqrt(v / peak)) for v in row] for row in f]


def star(k, spikes=6, halo=0.35):
    """A star filter of k x k taps (k odd) for a bright pass, summing to 1: `spikes` thin streaks
    from the centre, fading to nothing at the border (1 - `halo` of the weight), and a soft halo
    around the centre (`halo`). No sharp core: the frame itself stays in the sum."""
    c = (k - 1) // 2
    glow = [[0.0] * k for _ in range(k)]
    streaks = [[0.0] * k for _ in range(k)]
    for y in range(k):
        for x in range(k):
            dy, dx = y - c, x - c
            r = math.hypot(dx, dy)
            glow[y][x] = 1.0 / (1.0 + (r / (0.04 * k + 0.5)) ** 2) ** 1.5
            for s in range(spikes // 2):
                angle = math.pi * (s / (spikes // 2) + 0.25 / spikes)
                along = abs(dx * math.cos(angle) + dy * math.sin(angle))
                across = abs(dx * math.sin(angle) - dy * math.cos(angle))
                streaks[y][x] += math.exp(-across / 0.6) * max(0.0, 1.0 - along / (c + 1)) ** 2
    g, s = sum(map(sum, glow)), sum(map(sum, streaks))
    return [[halo * a / g + (1.0 - halo) * b / s for a, b in zip(ga, sa)] for ga, sa in zip(glow, streaks)]
