#!/usr/bin/env python3
"""A wisdom table from a sweep measured elsewhere: which plan-field variant was fastest per kind of kernel.

`fftgen tune PLAN -o TABLE` is the way to make a wisdom table on a device: it picks the candidates,
times them through fftgen-vk, verifies the winners and resumes (docs/cli.md, "Tuning"). This script
turns a sweep already measured (`fftgen-vk bench --json` over the kernels of a plan whose fields are
lists, possibly on another machine) into the same format, choosing winners the same way.

usage: wisdom.py SWEEP.json PLAN.json KERNELS_DIR [--min-gain 0.003] [--fixed twiddles=table] [--fftgen PATH]
            > bench/wisdom/<device>.json
  SWEEP.json   `fftgen-vk bench --json` over the generated PLAN (e.g. bench/plans/sweep_1d.json)
  PLAN.json    the plan; its variants, their names, field values and wisdom keys come from
               `fftgen --list-variants PLAN --json` (fftgen's field registry)
  KERNELS_DIR  the plan's generated folder: variants whose SPIR-V is identical (a field that
               resolved to what `auto` picks anyway) are one kernel, and count as the default
Entries are per kind of kernel, as fftgen spells it (the variant's "wisdom_key": shape, transform,
io, precision, or convolution), each naming the table's one run (device and driver from the sweep,
the date of SWEEP.json, this command). A variant is recorded as the winner only if it beats the
defaults by --min-gain (0.3%: the widest spread seen between three processes timing the same kernel
on the H100 once every timer warmed up for 250 ms, 16384: 2731-2739 GB/s; most kernels spread
under 0.1%). --fixed keeps a field at a value whatever was faster: by default twiddles stay `auto`
(the table for the fp32 kernels measured), because `computed` (native sin/cos) misses the accuracy
target (error <= 0.6 x VkFFT's); a sweep plan lists "auto" among its twiddle sources."""
import argparse
import datetime
import hashlib
import os
import json
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def find_fftgen(given):
    """The fftgen executable: --fftgen, $FFTGEN, build/generator/fftgen of this checkout, or PATH."""
    for candidate in (given, os.environ.get("FFTGEN"), os.path.join(HERE, "..", "build", "generator", "fftgen")):
        if candidate and os.path.isfile(candidate):
            return candidate
    found = shutil.which("fftgen")
    if not found:
        sys.exit("wisdom.py: cannot find fftgen; give --fftgen PATH or set FFTGEN")
    return found


def list_variants(fftgen, plan):
    """`fftgen --list-variants PLAN --json`: fftgen's own expansion, names and field values (its
    field registry), so this script never re-implements them."""
    out = subprocess.run([fftgen, plan, "--list-variants", "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("sweep")
    p.add_argument("plan")
    p.add_argument("kernels")
    p.add_argument("--min-gain", type=float, default=0.003)
    p.add_argument("--fixed", action="append", default=None, help="FIELD=VALUE (repeatable)")
    p.add_argument("--fftgen", help="the fftgen executable (default: $FFTGEN, build/generator/fftgen, PATH)")
    a = p.parse_args(argv)
    fixed = dict(f.split("=", 1) for f in (a.fixed if a.fixed is not None else ["twiddles=auto"]))
    sweep = json.load(open(a.sweep))
    measured = {r["name"]: r["gb_per_s"] for r in sweep["results"] if r.get("n")}
    # Identical forward SPIR-V means one kernel: its figure is the best of its measurements.
    manifest = json.load(open(os.path.join(a.kernels, "manifest.json")))
    digest = {}
    for k in manifest["kernels"]:
        h = hashlib.sha256()
        for pass_ in k.get("forward", []):
            h.update(open(os.path.join(a.kernels, pass_["files"]["spirv"]), "rb").read())
        digest[k["name"]] = h.hexdigest()
    key = lambda name: digest.get(name, name)  # a kernel the manifest lacks is its own group
    same = {}
    for name, gbps in measured.items():
        same[key(name)] = max(same.get(key(name), 0), gbps)
    measured = {name: same[key(name)] for name in measured}
    listing = list_variants(find_fftgen(a.fftgen), a.plan)
    defaults = {f["name"]: f["default"] for f in listing["fields"] if f["wisdom_tunable"]}
    by_kind = {}  # wisdom key (JSON text, in plan order) -> [(name, field values, GB/s)]
    kinds = {}
    for variant in listing["variants"]:
        name, values, kind = variant["name"], variant["fields"], variant.get("wisdom_key")
        if kind and name in measured and all(str(values[f]) == v for f, v in fixed.items()):
            text = json.dumps(kind)
            kinds.setdefault(text, kind)
            by_kind.setdefault(text, []).append((name, values, measured[name]))
    if measured and not by_kind:
        sys.exit("wisdom.py: no measured variant has %s; list those values in the plan or give --fixed"
                 % ", ".join("%s=%s" % kv for kv in fixed.items()))
    is_default = lambda r: all(r[1][f] == d for f, d in defaults.items())
    table = []
    for text, rows in by_kind.items():
        default_digests = {digest.get(r[0]) for r in rows if is_default(r)}
        default = max((r for r in rows if is_default(r) or digest.get(r[0]) in default_digests),
                      key=lambda r: r[2], default=None)
        best = max(rows, key=lambda r: r[2])
        entry = dict(kinds[text])
        entry["run"] = 0
        entry["measured"] = {r[0]: round(r[2], 1) for r in rows}
        if default:
            entry["default_gbps"] = round(default[2], 1)
        if default and best[2] >= default[2] * (1 + a.min_gain):
            entry["winner"] = {f: v for f, v in best[1].items() if f in defaults and v != defaults[f]}
            entry["winner_gbps"] = round(best[2], 1)
        else:
            entry["winner"] = "defaults"
        table.append(entry)
    date = datetime.datetime.fromtimestamp(os.path.getmtime(a.sweep), datetime.timezone.utc)
    run = {"device": sweep.get("device") or "", "driver": sweep.get("driver_version") or "",
           "date": date.strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": " ".join(["bench/wisdom.py"] + [os.path.basename(x) if x in (a.sweep, a.plan) else x
                                                     for x in (argv if argv is not None else sys.argv[1:])])}
    json.dump({"runs": [run], "min_gain": a.min_gain, "fixed": fixed, "sizes": table}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
