#!/usr/bin/env bash
# Time from process start to a first checked result, fftgen against VkFFT: runs
# `fftgen-bench first-result` for each system RUNS times (alternating, as separate processes),
# times each whole process from outside as well (date +%s%N around it), and writes
# OUT_DIR/latency.md (medians and ratios) and OUT_DIR/latency.json (every run).
#
# usage: bench/latency.sh BUILD_DIR MANIFEST KERNEL OUT_DIR
#   RUNS=5            processes per system
#   DRIVER_CACHE=off  off: disable the drivers' on-disk pipeline caches (NVIDIA, Mesa), so every
#                     run compiles its pipelines as a first-ever run would; on: leave them as set
#   SYSTEMS="fftgen vkfft"
set -u
usage="usage: latency.sh BUILD_DIR MANIFEST KERNEL OUT_DIR"
build=${1:?$usage}
manifest=${2:?$usage}
kernel=${3:?$usage}
out=${4:?$usage}
runs=${RUNS:-5}
systems=${SYSTEMS:-fftgen vkfft}
python=${PYTHON:-python3}
bench="$build/bench/fftgen-bench"
mkdir -p "$out/runs"

if [ "${DRIVER_CACHE:-off}" = off ]; then
  export __GL_SHADER_DISK_CACHE=0 MESA_SHADER_CACHE_DISABLE=true MESA_DISK_CACHE_SINGLE_FILE=0
fi

: > "$out/runs/outside.tsv"
for i in $(seq 1 "$runs"); do
  for system in $systems; do
    tag="${system}_$i"
    t0=$(date +%s%N)
    "$bench" first-result "$manifest" "$kernel" --system "$system" \
        --json "$out/runs/$tag.json" > "$out/runs/$tag.txt" 2>&1
    rc=$?
    t1=$(date +%s%N)
    printf '%s\t%s\t%s\t%s\n' "$system" "$i" "$(( (t1 - t0) / 1000 ))" "$rc" >> "$out/runs/outside.tsv"
    echo "$system run $i: exit $rc, $(( (t1 - t0) / 1000000 )) ms (whole process)"
  done
done

"$python" - "$out" "$kernel" "${DRIVER_CACHE:-off}" "$bench first-result $manifest $kernel --system SYSTEM" <<'EOF'
import json, os, statistics, sys

out, kernel, cache, command = sys.argv[1:5]
runs = {}
with open(os.path.join(out, "runs", "outside.tsv")) as f:
    for line in f:
        system, i, us, rc = line.split()
        path = os.path.join(out, "runs", f"{system}_{i}.json")
        inner = json.load(open(path)) if os.path.exists(path) else {}
        runs.setdefault(system, []).append(dict(inner, run=int(i), exit=int(rc),
                                                 outside_ms=int(us) / 1000.0))

def med(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else None

def med_phase(rows, name):
    vals = [r["phases_ms"][name] for r in rows if name in r.get("phases_ms", {})]
    return statistics.median(vals) if vals else None

summary = {}
for system, rows in runs.items():
    ok = [r for r in rows if r["exit"] == 0]
    summary[system] = {
        "runs": len(rows), "ok": len(ok),
        "outside_ms": med(ok, "outside_ms"),
        "first_result_since_exec_ms": med(ok, "first_result_since_exec_ms"),
        "first_result_since_main_ms": med(ok, "first_result_since_main_ms"),
        "device_ms": med_phase(ok, "device"),
        "load_or_plan_ms": med_phase(ok, "load") if system == "fftgen" else med_phase(ok, "plan"),
        "run_ms": med_phase(ok, "run"),
        "rel_l2": med(ok, "rel_l2"),
        "device": next((r.get("device") for r in ok if r.get("device")), None),
    }

def fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"

names = {"fftgen": "fftgen (SPIR-V)", "vkfft": "VkFFT (run-time plan)"}
lines = [f"# First result latency, kernel `{kernel}`", ""]
device = next((s["device"] for s in summary.values() if s["device"]), "?")
lines.append(f"Device: {device}. Median of {max(s['runs'] for s in summary.values())} processes per "
             f"system; driver pipeline caches: {cache}. Command: `{command}`.")
lines.append("")
lines.append("| system | ok runs | whole process ms (outside) | exec → first result ms | "
             "main → first result ms | device ms | load / plan ms | run ms | rel. L2 |")
lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for system, s in summary.items():
    lines.append(f"| {names.get(system, system)} | {s['ok']}/{s['runs']} | {fmt(s['outside_ms'])} | "
                 f"{fmt(s['first_result_since_exec_ms'], 0)} | {fmt(s['first_result_since_main_ms'])} | "
                 f"{fmt(s['device_ms'])} | {fmt(s['load_or_plan_ms'])} | {fmt(s['run_ms'], 2)} | "
                 f"{'-' if s['rel_l2'] is None else format(s['rel_l2'], '.1e')} |")
ratios = {}
f, v = summary.get("fftgen"), summary.get("vkfft")
if f and v:
    def ratio(a, b):
        return a / b if a is not None and b else None
    ratios = {
        "whole_process_vkfft_over_fftgen": ratio(v["outside_ms"], f["outside_ms"]),
        "first_result_vkfft_over_fftgen": ratio(v["first_result_since_main_ms"],
                                                f["first_result_since_main_ms"]),
        # PERF.md's target: fftgen's whole path to a first result against VkFFT's plan alone.
        "vkfft_plan_over_fftgen_first_result": ratio(v["load_or_plan_ms"],
                                                     f["first_result_since_main_ms"]),
        "vkfft_plan_over_fftgen_load": ratio(v["load_or_plan_ms"], f["load_or_plan_ms"]),
    }
    lines.append("")
    lines.append(f"- whole process, VkFFT / fftgen: **{fmt(ratios['whole_process_vkfft_over_fftgen'], 2)}×**")
    lines.append(f"- main → first result, VkFFT / fftgen: {fmt(ratios['first_result_vkfft_over_fftgen'], 2)}×")
    lines.append(f"- VkFFT's plan alone / fftgen's main → first result (the PERF.md target, ≥ 10): "
                 f"**{fmt(ratios['vkfft_plan_over_fftgen_first_result'], 2)}×**")
    lines.append(f"- VkFFT's plan / fftgen's load (manifest, SPIR-V, twiddles, pipelines): "
                 f"{fmt(ratios['vkfft_plan_over_fftgen_load'], 2)}×")
lines.append("")
lines.append("exec → first result is read from /proc/self/stat (clock-tick resolution, usually 10 ms); "
             "main → first result from steady_clock at the top of main(); whole process from "
             "`date +%s%N` around it (includes teardown and the FFTW check).")
text = "\n".join(lines) + "\n"
with open(os.path.join(out, "latency.md"), "w") as fh:
    fh.write(text)
with open(os.path.join(out, "latency.json"), "w") as fh:
    json.dump({"kernel": kernel, "driver_cache": cache, "summary": summary, "ratios": ratios,
               "runs": runs}, fh, indent=2)
print(text, end="")
bad = [s for s, x in summary.items() if x["ok"] < x["runs"]]
sys.exit(1 if bad else 0)
EOF
