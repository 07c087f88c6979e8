#!/usr/bin/env python3
"""fftgen's WGSL kernels run by WebGPU in headless Chromium, against a double-precision reference.

Generates a plan with the "wgsl" target (1D and 2D c2c, multi-pass, r2c/c2r 1D and 2D, Bluestein and
mixed lengths, index_math/twiddle variants, a convolution of each packing; image kernels reading and
writing storage textures: c2c 1D and 2D in rg32float, rgba32float and rgba16float, r2c 1D and 2D, and
convolutions of 1 and 2 channels), serves the output, the
example module (examples/webgpu/fftgen-webgpu.js) and tests/webgpu/test.html on a free localhost port
(WebGPU needs a secure context: localhost is one), and has Chromium run every case; the page posts
what it read back, and this script compares it with a DFT in double computed here (relative L2 error
below 1e-5; 1e-3 where the shader computes its twiddles; 3 x the input's rounding error for rgba16float
textures). --only TEXT... runs the cases whose name contains one of those.

  run_webgpu.py --fftgen build/generator/fftgen --work /tmp/webgpu [--chromium chromium]

With --compile PLAN...: every kernel of those plans alone with the wgsl target instead: those fftgen
refuses for WebGPU are listed with fftgen's reason, every .wgsl of the others must compile and make a
pipeline (WebGPU's limits checked by Chromium).

Exits 0 when every case passes, 1 otherwise (each failure named), 2 when Chromium or WebGPU cannot run.
"""
import argparse
import cmath
import http.server
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

PLAN = {
    "targets": ["wgsl"],
    "kernels": [
        {"name": "c256", "shape": [256]},
        {"name": "c8192", "shape": [8192]},
        {"name": "c65536", "shape": [65536]},
        {"name": "c2d", "shape": [64, 128]},
        {"name": "r512", "shape": [512], "transform": "r2c"},
        {"name": "r2d", "shape": [32, 64], "transform": "r2c"},
        {"name": "yp", "shape": [64, 256], "first_y_stage": "row_pass"},
        {"name": "ryp", "shape": [128, 128], "transform": "r2c", "first_y_stage": "row_pass"},
        {"name": "b97", "shape": [97]},
        {"name": "m1000", "shape": [1000]},
        {"name": "v", "shape": [[256], [64, 128]], "index_math": "divmod", "twiddles": "computed"},
        {"name": "convr", "convolution": {"image": [24, 40], "filter": [5, 7], "channels": 2, "mode": "same",
                                          "packing": "r2c"}},
        {"name": "convp", "convolution": {"image": [24, 40], "filter": [5, 7], "channels": 3, "mode": "same",
                                          "packing": "pairs"}},
        # Image kernels: storage textures in and out.
        {"name": "ti", "shape": [32, 64], "io": "image", "image_format": ["rg32f", "rgba16f"]},
        {"name": "ti1", "shape": [256], "io": "image", "image_format": "rgba32f"},
        {"name": "ri1", "shape": [512], "transform": "r2c", "io": "image"},
        {"name": "ri2", "shape": [32, 64], "transform": "r2c", "io": "image"},
        {"name": "convi1", "io": "image", "convolution": {"image": [24, 40], "filter": [5, 7], "channels": 1}},
        {"name": "convi2", "io": "image", "convolution": {"image": [20, 30], "filter": [5, 7], "channels": 2}},
    ],
}

TEXEL_CHANNELS = {"r32float": 1, "rg32float": 2, "rgba32float": 4, "rgba16float": 4}


def fft(x, sign):
    """DFT of x in double: sum x[n] exp(sign 2 pi i k n / N); radix 2 where N is even, direct otherwise."""
    n = len(x)
    if n == 1:
        return list(x)
    if n % 2 == 0:
        even, odd = fft(x[0::2], sign), fft(x[1::2], sign)
        out = [0j] * n
        for k in range(n // 2):
            t = cmath.exp(sign * 2j * math.pi * k / n) * odd[k]
            out[k], out[k + n // 2] = even[k] + t, even[k] - t
        return out
    return [sum(x[m] * cmath.exp(sign * 2j * math.pi * k * m / n) for m in range(n)) for k in range(n)]


def fft2(x, ny, nx, sign):
    rows = [fft(x[y * nx:(y + 1) * nx], sign) for y in range(ny)]
    out = [0j] * (ny * nx)
    for c in range(nx):
        col = fft([rows[y][c] for y in range(ny)], sign)
        for y in range(ny):
            out[y * nx + c] = col[y]
    return out


def interleave(values):
    out = []
    for v in values:
        out += [v.real, v.imag]
    return out


def complexes(floats):
    return [complex(floats[2 * i], floats[2 * i + 1]) for i in range(len(floats) // 2)]


def rel_error(got, want):
    num = sum((g - w) ** 2 for g, w in zip(got, want))
    den = sum(w * w for w in want) or 1.0
    return math.sqrt(num / den) if len(got) == len(want) else float("inf")


def texture_binding(kernel, direction, role):
    """The storage-texture binding of `role` among a kernel's `direction` passes (io image), or None."""
    for p in kernel[direction]:
        for b in p["bindings"]:
            if b["role"] == role and b.get("resource") == "storage_image":
                return b
    return None


def texels(values, fmt):
    """Values as every channel of their texels: a real in r (r32float), a complex in (r, g), zeros after."""
    channels = TEXEL_CHANNELS[fmt]
    out = []
    for v in values:
        out += [v.real] if channels == 1 else [v.real, v.imag] + [0.0] * (channels - 2)
    return out


def half_rounding(floats):
    """The relative L2 error of rounding `floats` to half floats (what an rgba16float texture holds)."""
    return rel_error([struct.unpack("<e", struct.pack("<e", v))[0] for v in floats], floats)


def make_cases(manifest, rng):
    kernels = {k["name"]: k for k in manifest["kernels"]}
    cases, expected, tolerance = [], {}, {}

    def add(name, kernel, direction, batch, data, floats_out, want, tol=1e-5, extra=None):
        k = kernels[kernel]
        b = k["buffers"][direction]
        size = lambda e: 8 if e["element"] == "complex64" else 4
        case = {
            "name": name,
            "buffers": {"in": {"bytes": batch * b["input"]["elements"] * size(b["input"]), "data": data},
                        "out": {"bytes": batch * b["output"]["elements"] * size(b["output"])}},
            "steps": [{"kernel": kernel, "direction": direction, "batch": batch, "bind": {"input": "in", "output": "out"}}],
            "read": "out", "read_floats": floats_out,
        }
        cases.append(case)
        expected[name], tolerance[name] = want, tol

    def add_image(name, kernel, direction, batch, values, want):
        """An image kernel's case: `values` (complex, or real for r32float) in its input texture, `want` out.
        rgba16float input is held to 3 x the error of rounding it to half floats, as fftgen-vk verify does."""
        k = kernels[kernel]
        fmt_in = texture_binding(k, direction, "input")["wgsl_format"]
        fmt_out = texture_binding(k, direction, "output")["wgsl_format"]
        data = texels(values, fmt_in)
        texture = {"kernel": kernel, "direction": direction, "batch": batch}
        cases.append({
            "name": name, "buffers": {},
            "textures": {"in": dict(texture, role="input", data=data), "out": dict(texture, role="output")},
            "steps": [{"kernel": kernel, "direction": direction, "batch": batch, "bind": {"input": "in", "output": "out"}}],
            "read": "out",
        })
        expected[name] = texels(want, fmt_out)
        tolerance[name] = 3 * half_rounding(data) if fmt_in == "rgba16float" else 1e-5

    def is_image(kernel):
        return kernels[kernel]["options"].get("io") == "image"

    def c2c(kernel, shape, batch, tol=1e-5):
        k = kernels[kernel]
        n = 1
        for s in shape:
            n *= s
        for direction, sign in (("forward", -1), ("inverse", 1)):
            x = [complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n * batch)]
            want = []
            for b in range(batch):
                part = x[b * n:(b + 1) * n]
                y = fft(part, sign) if len(shape) == 1 else fft2(part, shape[0], shape[1], sign)
                want += [v * k["scale"][direction] for v in y]
            if is_image(kernel):
                add_image(f"{kernel} {direction}", kernel, direction, batch, x, want)
            else:
                add(f"{kernel} {direction}", kernel, direction, batch, interleave(x), 2 * n * batch, interleave(want), tol)

    def r2c(kernel, shape, batch):
        k = kernels[kernel]
        ny, nx = (1, shape[0]) if len(shape) == 1 else shape
        half = nx // 2 + 1
        reals = [rng.uniform(-1, 1) for _ in range(ny * nx * batch)]
        spectra, halves = [], []
        for b in range(batch):
            part = [complex(r) for r in reals[b * ny * nx:(b + 1) * ny * nx]]
            full = fft(part, -1) if ny == 1 else fft2(part, ny, nx, -1)
            spectra.append(full)
            halves += [full[y * nx + x] for y in range(ny) for x in range(half)]
        forward = [v * k["scale"]["forward"] for v in halves]
        # c2r: the half spectrum of real signals in, the signals (times N and the scale) out.
        inverse = [r * ny * nx * k["scale"]["inverse"] for r in reals]
        if is_image(kernel):
            add_image(f"{kernel} forward", kernel, "forward", batch, reals, forward)
            add_image(f"{kernel} inverse", kernel, "inverse", batch, halves, inverse)
            return
        add(f"{kernel} forward", kernel, "forward", batch, reals, 2 * ny * half * batch, interleave(forward))
        add(f"{kernel} inverse", kernel, "inverse", batch, interleave(halves), ny * nx * batch, inverse)

    def convolution(name):
        apply, filt = kernels[name], kernels[name + "__filter"]
        c = apply["convolution"]
        h, w = c["image"]
        kh, kw = c["filter"]
        ch, fch = c["channels"], c["filter_channels"]
        cy, cx = c["centre"]
        image = [rng.uniform(-1, 1) for _ in range(h * w * ch)]
        flt = [rng.uniform(-1, 1) for _ in range(kh * kw * fch)]
        want = []
        for y in range(h):
            for x in range(w):
                for k in range(ch):
                    total = 0.0
                    for ky in range(kh):
                        for kx in range(kw):
                            sy, sx = y + cy - ky, x + cx - kx
                            if 0 <= sy < h and 0 <= sx < w:
                                total += flt[(ky * kw + kx) * fch + (0 if fch == 1 else k)] * image[(sy * w + sx) * ch + k]
                    want.append(total)
        planes = c["planes"]
        fb, ab = filt["buffers"]["forward"], apply["buffers"]["forward"]
        size = lambda e: 8 if e["element"] == "complex64" else 4
        frames = {"image": {"bytes": len(image) * 4, "data": image}, "out": {"bytes": len(image) * 4}}
        # io image: the frame in a texture of its pixels' channels (r32float, rg32float), the result in another.
        textures = {"image": {"kernel": name, "direction": "forward", "role": "input", "batch": planes, "data": image},
                    "out": {"kernel": name, "direction": "inverse", "role": "output", "batch": planes}}
        cases.append({
            "name": f"{name} convolution",
            "buffers": {"filter_in": {"bytes": len(flt) * 4, "data": flt},
                        "filter": {"bytes": fch * fb["output"]["elements"] * size(fb["output"])},
                        "spectrum": {"bytes": planes * ab["output"]["elements"] * size(ab["output"])},
                        **({} if is_image(name) else frames)},
            "textures": textures if is_image(name) else {},
            "steps": [
                {"kernel": name + "__filter", "direction": "forward", "batch": fch,
                 "bind": {"input": "filter_in", "output": "filter"}},
                {"kernel": name, "direction": "forward", "batch": planes,
                 "bind": {"input": "image", "output": "spectrum", "filter": "filter"}},
                {"kernel": name, "direction": "inverse", "batch": planes,
                 "bind": {"input": "spectrum", "output": "out", "filter": "filter"}},
            ],
            "read": "out", "read_floats": len(image),
        })
        expected[f"{name} convolution"], tolerance[f"{name} convolution"] = want, 1e-5

    c2c("c256", [256], 3)
    c2c("c8192", [8192], 2)
    c2c("c65536", [65536], 1)  # two passes at WebGPU's 16 KB
    c2c("c2d", [64, 128], 2)
    r2c("r512", [512], 3)
    r2c("r2d", [32, 64], 2)
    c2c("yp", [64, 256], 1)  # the row pass does the first Y stage (pairs of rows)
    r2c("ryp", [128, 128], 1)
    c2c("b97", [97], 3)
    c2c("m1000", [1000], 2)
    # Twiddles computed by the shader's sin/cos: SwiftShader's are good to about 1e-4 here (a table's
    # twiddles give 1e-7), so these get 1e-3; a wrong sign or index is still off by about 1.
    for k in kernels:
        if k.startswith("v__"):
            c2c(k, kernels[k]["shape"], 2, 1e-3)
    convolution("convr")
    convolution("convp")
    c2c("ti__rg32f", [32, 64], 2)
    c2c("ti__rgba16f", [32, 64], 1)
    c2c("ti1", [256], 3)
    r2c("ri1", [512], 2)
    r2c("ri2", [32, 64], 2)
    convolution("convi1")
    convolution("convi2")
    return cases, expected, tolerance


def serve(work, out_dir, cases):
    """A localhost server for the page, the module, the output and the cases; returns (server, result, done)."""
    result, done = {}, threading.Event()
    routes = {"/lib/": os.path.join(SOURCE, "examples", "webgpu"), "/out/": out_dir,
              "/example-out/": os.path.join(work, "example"), "/": HERE}
    cases_bytes = json.dumps(cases).encode()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            path = path.split("?")[0]
            for prefix, folder in routes.items():
                if path.startswith(prefix):
                    return os.path.join(folder, path[len(prefix):])
            return ""

        def do_GET(self):
            if self.path == "/cases.json":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(cases_bytes)))
                self.end_headers()
                self.wfile.write(cases_bytes)
                return
            super().do_GET()

        def do_POST(self):
            length = int(self.headers["Content-Length"])
            result["report"] = json.loads(self.rfile.read(length))
            self.send_response(200)
            self.end_headers()
            done.set()

        def end_headers(self):
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, *args):
            pass

    Handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                              ".wgsl": "text/plain", ".json": "application/json"}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, result, done


def compile_cases(fftgen, work, plans):
    """Each plan kernel alone with the wgsl target: (files to compile, refusals, failures)."""
    out_dir = os.path.join(work, "out")
    os.makedirs(out_dir)
    files, refused, failures = [], [], []
    for plan_path in plans:
        with open(plan_path) as f:
            plan = json.load(f)
        for kernel in plan["kernels"]:
            name = kernel.get("name", "?")
            folder = f"{os.path.basename(plan_path)[:-5]}-{name}"
            one = dict(plan, targets=["wgsl"], kernels=[kernel])
            one_path = os.path.join(work, folder + ".json")
            with open(one_path, "w") as f:
                json.dump(one, f)
            gen = subprocess.run([fftgen, one_path, "-q", "-o", os.path.join(out_dir, folder)], capture_output=True,
                                 text=True)
            if gen.returncode == 1 and ("WebGPU" in gen.stderr or "wgsl" in gen.stderr):
                refused.append(f"{folder}: {gen.stderr.strip()}")
            elif gen.returncode != 0:
                failures.append(f"{folder}: fftgen exited {gen.returncode}: {gen.stderr.strip()}")
            else:
                files += sorted(f"{folder}/{x}" for x in os.listdir(os.path.join(out_dir, folder)) if x.endswith(".wgsl"))
    return out_dir, files, refused, failures


def run_page(chromium, work, out_dir, cases, timeout, page="/test.html"):
    """Chromium on `page` until it posts its report; the report, or None (after saying why)."""
    server, result, done = serve(work, out_dir, cases)
    url = f"http://127.0.0.1:{server.server_address[1]}{page}"
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    with open(os.path.join(work, "chromium.log"), "w") as log:
        browser = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--enable-unsafe-webgpu", "--enable-features=Vulkan",
             "--use-angle=swiftshader", "--no-first-run", f"--user-data-dir={profile}", url],
            stdout=subprocess.DEVNULL, stderr=log)
        try:
            finished = done.wait(timeout)
        finally:
            browser.terminate()
            try:
                browser.wait(10)
            except subprocess.TimeoutExpired:
                browser.kill()
            server.shutdown()
    if not finished:
        print(f"run_webgpu: the page posted no result within {timeout} s (see {work}/chromium.log)", file=sys.stderr)
        return None
    report = result["report"]
    if report.get("error"):
        print(f"run_webgpu: the page failed: {report['error']}", file=sys.stderr)
        return None
    print(f"adapter: {report.get('adapter')}")
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fftgen", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--chromium", default=None)
    ap.add_argument("--timeout", type=float, default=600, help="seconds a page may take (ctest allows 900 in all)")
    ap.add_argument("--compile", nargs="+", metavar="PLAN", help="compile every kernel of these plans instead")
    ap.add_argument("--pipelines", action="store_true", help="with --compile: make a pipeline of each file too")
    ap.add_argument("--only", nargs="+", metavar="TEXT",
                    help="run only the cases whose name contains one of these (and not the example page)")
    args = ap.parse_args()

    chromium = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("run_webgpu: Debian's chromium is needed (scripts/deps.sh installs it)", file=sys.stderr)
        return 2
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    if args.compile:
        out_dir, files, refused, failures = compile_cases(args.fftgen, args.work, args.compile)
        for line in refused:
            print(f"refused {line}")
        # In pieces, each page compiling its files (WGSL to SwiftShader's Vulkan: slow for long kernels), and
        # making pipelines of its first ones (WebGPU's limits are checked there).
        report = {"cases": {}}
        for first in range(0, len(files), 120):
            piece = run_page(chromium, args.work, out_dir, {"compile": files[first:first + 120], "pipelines": args.pipelines},
                             args.timeout)
            if piece is None:
                return 2
            report["cases"].update(piece["cases"])
        for f in files:
            got = report["cases"].get(f, {"error": "not compiled"})
            if "error" in got:
                failures.append(f"{f}: {got['error']}")
        for line in failures:
            print(f"FAIL {line}")
        print(f"{len(files)} WGSL files, {len(files) - len(failures)} compiled; {len(refused)} kernels refused for wgsl")
        return 1 if failures else 0
    plan_path = os.path.join(args.work, "plan.json")
    with open(plan_path, "w") as f:
        json.dump(PLAN, f, indent=1)
    out_dir = os.path.join(args.work, "out")
    gen = subprocess.run([args.fftgen, plan_path, "-o", out_dir], capture_output=True, text=True)
    if gen.returncode != 0:
        print(f"run_webgpu: fftgen failed ({gen.returncode}):\n{gen.stderr}", file=sys.stderr)
        return 1
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    cases, expected, tolerance = make_cases(manifest, random.Random(44))
    if args.only:
        cases = [c for c in cases if any(t in c["name"] for t in args.only)]

    report = run_page(chromium, args.work, out_dir, cases, args.timeout)
    if report is None:
        return 2
    failed = 0
    for case in cases:
        name = case["name"]
        got = report["cases"].get(name, {"error": "not run"})
        if "error" in got:
            print(f"FAIL {name}: {got['error']}")
            failed += 1
            continue
        err = rel_error(got["values"], expected[name])
        ok = err < tolerance[name]
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: relative L2 error {err:.2e} (limit {tolerance[name]:.0e})")
    print(f"{len(cases) - failed} of {len(cases)} cases passed")
    if args.only:
        return 1 if failed else 0
    return 1 if failed or not check_example(args, chromium) else 0


def check_example(args, chromium):
    """examples/webgpu/index.html on its own plan, through buffers and through textures: each spectrum against
    direct sums at some frequencies, and the picture it draws saved as example-<kernel>.png."""
    plan = os.path.join(SOURCE, "examples", "webgpu", "plan.json")
    gen = subprocess.run([args.fftgen, plan, "-q", "-o", os.path.join(args.work, "example")], capture_output=True,
                         text=True)
    if gen.returncode != 0:
        print(f"FAIL example: fftgen {plan} exited {gen.returncode}: {gen.stderr.strip()}")
        return False
    return all([check_example_kernel(args, chromium, kernel) for kernel in ("spectrum", "spectrum_image")])


def check_example_kernel(args, chromium, kernel):
    report = run_page(chromium, args.work, os.path.join(args.work, "out"), [], args.timeout,
                      f"/lib/index.html?manifest=/example-out/manifest.json&kernel={kernel}&report=/result")
    if report is None or "error" in report:
        print(f"FAIL example {kernel}: {report and report['error']}")
        return False
    h, w = report["shape"]
    image, got = report["image"], complexes(report["spectrum"])
    rng = random.Random(7)
    worst = 0.0
    rms = math.sqrt(sum(v * v for v in image))  # the root mean square of |X| over all frequencies (Parseval)
    for ky, kx in [(0, 0), (0, 1), (1, 0), (h // 2, w // 2)] + [(rng.randrange(h), rng.randrange(w)) for _ in range(12)]:
        want = sum(image[y * w + x] * cmath.exp(-2j * math.pi * (ky * y / h + kx * x / w))
                   for y in range(h) for x in range(w) if image[y * w + x] != 0)
        worst = max(worst, abs(got[ky * w + kx] - want) / rms)
    png = report["png"].split(",", 1)[1]
    import base64
    picture = os.path.join(args.work, f"example-{kernel}.png")
    with open(picture, "wb") as f:
        f.write(base64.b64decode(png))
    ok = worst < 1e-4 and len(png) > 1000 and len(got) == h * w
    print(f"{'ok  ' if ok else 'FAIL'} example page, kernel {kernel}: {h} x {w} spectrum, error {worst:.2e} of the "
          f"spectrum's rms at 16 frequencies (limit 1e-4); its picture in {picture}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
