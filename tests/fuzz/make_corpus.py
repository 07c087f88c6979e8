#!/usr/bin/env python3
"""Writes the seed corpus of the libFuzzer harnesses (tests/fuzz/corpus/<harness>/): the
repository's plans and generated manifest, and hand-made edge cases. Run from anywhere; files
that fuzzing found (regression inputs, named crash-*, leak-*, timeout-* or oom-*) are kept."""
import json
import re
import shutil
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "corpus"


def reset(harness):
    d = CORPUS / harness
    d.mkdir(parents=True, exist_ok=True)
    for f in d.iterdir():
        if not re.match(r"(crash|leak|timeout|oom|slow-unit)-", f.name):
            f.unlink()
    return d


def plans():
    d = reset("fuzz_plan")
    sources = [ROOT / "generated" / "default.json", ROOT / "examples" / "consumer" / "plan.json",
               ROOT / "tests" / "plans" / "gpu_suite.json"]
    sources += sorted((ROOT / "bench" / "plans").glob("*.json"))
    sources += sorted((ROOT / "tests" / "plans" / "bad").glob("*.json"))
    for s in sources:
        shutil.copy(s, d / (s.parent.name + "_" + s.name))
    readme = (ROOT / "README.md").read_text()
    for i, block in enumerate(re.findall(r"```json\n(.*?)```", readme, re.S)):
        (d / f"readme_{i}.json").write_text(block)
    hand = {
        "2d_r2c.json": {"kernels": [{"name": "a", "shape": [64, 128], "transform": "r2c"}]},
        "pair.json": {"kernels": [{"name": "p", "shape": [256], "transform": "r2c_pair"}]},
        "lists.json": {"kernels": [{"name": "l", "shape": [[16], [32]], "radices": [[4, 4], "auto"],
                                     "index_math": ["bitwise", "divmod"], "twiddles": ["table", "computed"],
                                     "normalize": ["none", "ortho"], "direction": ["forward", "inverse"]}]},
        "small_smem.json": {"kernels": [{"name": "s", "shape": [4096], "shared_memory_bytes": 8192,
                                         "workgroup_size": 64}]},
        "cross.json": {"targets": ["spirv", "hlsl", "msl"], "hlsl_shader_model": 60,
                       "msl_version": "2.1", "kernels": [{"name": "c", "shape": [8]}]},
    }
    for name, doc in hand.items():
        (d / name).write_text(json.dumps(doc))


def manifests():
    d = reset("fuzz_manifest")
    gen = ROOT / "generated"
    shutil.copy(gen / "manifest.json", d / "generated_manifest.json")
    for spv in ["fft64.fwd0.spv", "fft64.inv0.spv"]:
        shutil.copy(gen / spv, d / spv)
    (d / "fft64_truncated.spv").write_bytes((gen / "fft64.fwd0.spv").read_bytes()[:4000])
    doc = json.loads((gen / "manifest.json").read_text())
    doc["kernels"] = doc["kernels"][:1]  # one kernel: small seeds mutate faster
    (d / "one_kernel.json").write_text(json.dumps(doc))
    k = doc["kernels"][0]
    edits = {
        "pc_offset_wrap.json": lambda k: k["forward"][0]["push_constants"][1].update(offset=4294967292),
        "binding_4e9.json": lambda k: k["forward"][0]["bindings"][0].update(binding=4000000000),
        "columns_2p31.json": lambda k: k["forward"][0]["dispatch"].update(columns_per_transform=2**31),
        "dotdot.json": lambda k: k["forward"][0]["files"].update(spirv="../x.spv"),
        "absolute.json": lambda k: k["forward"][0]["files"].update(spirv="/etc/passwd"),
        "no_passes.json": lambda k: k.update(forward=[]),
    }
    for name, edit in edits.items():
        doc = json.loads((gen / "manifest.json").read_text())
        doc["kernels"] = doc["kernels"][:1]
        edit(doc["kernels"][0])
        (d / name).write_text(json.dumps(doc))
    doc = json.loads((gen / "manifest.json").read_text())
    doc["format_version"] = 3
    doc["kernels"] = []
    (d / "version3.json").write_text(json.dumps(doc))


def npy_bytes(descr, shape, data, major=1, fortran=False, header=None):
    if header is None:
        dims = ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "")
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (descr, fortran, dims)
    pre = 10 if major == 1 else 12
    header += " " * ((64 - (pre + len(header) + 1) % 64) % 64) + "\n"
    size = struct.pack("<H", len(header)) if major == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([major, 0]) + size + header.encode("latin-1") + data


def npys():
    d = reset("fuzz_npy")
    c8 = lambda n: struct.pack("<%df" % (2 * n), *[float(i % 7) for i in range(2 * n)])
    f4 = lambda n: struct.pack("<%df" % n, *[float(i % 5) for i in range(n)])
    files = {
        "c8_16.npy": npy_bytes("<c8", [16], c8(16)),
        "c8_3x16.npy": npy_bytes("<c8", [3, 16], c8(48)),
        "f4_2x8.npy": npy_bytes("<f4", [2, 8], f4(16)),
        "v2_c8_4.npy": npy_bytes("<c8", [4], c8(4), major=2),
        "v3_f4_4.npy": npy_bytes("<f4", [4], f4(4), major=3),
        "fortran.npy": npy_bytes("<c8", [2, 2], c8(4), fortran=True),
        "negative.npy": npy_bytes("<c8", None, c8(4), header="{'descr': '<c8', 'fortran_order': False, 'shape': (-3, 4), }"),
        "overflow.npy": npy_bytes("<c8", None, c8(4), header="{'descr': '<c8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
        "f8.npy": npy_bytes("<f8", [2], c8(2)),
        "truncated.npy": npy_bytes("<c8", [16], c8(15)),
        "huge_header.npy": b"\x93NUMPY\x02\x00\xf0\xff\xff\xff" + b" " * 60,
    }
    for name, data in files.items():
        (d / name).write_bytes(data)


if __name__ == "__main__":
    plans()
    manifests()
    npys()
