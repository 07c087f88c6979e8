#!/usr/bin/env bash
# Speed on a distribution: fftgen beside cuFFT on plans of user workloads, on a GPU machine.
#
#   bash bench/run_workloads.sh OUT_DIR SYSTEM=BIN_DIR [SYSTEM=BIN_DIR ...] -- PLAN ...
#
# PLAN is a plan file, or seed:N for the sample that `$WORKLOADS_PY N` draws (40 workloads).
# Each SYSTEM's BIN_DIR holds an `fftgen` and an `fftgen-vk` (e.g. two builds: before and after a
# change); each generates every plan and times it with `fftgen-vk bench --json` (PERF.md's figure).
# cuFFT runs once per plan (`$PEERS_PY`, on the first system's manifest and batches), so every
# system's ratio comes from the same cuFFT times; a system that ran another batch (its scratch
# differs) is scaled to cuFFT's by workloads_summary.py.
# bench/workloads_summary.py then writes OUT_DIR/summary.md and summary.json: cuFFT time /
# fftgen time per row and system, the geometric mean, the minimum and the rows below 0.95.
# WORKLOADS_PY and PEERS_PY name the workload sampler and the cuFFT driver (peers_cupy.py).
set -euo pipefail
out=$1; shift
systems=()
while [ "$1" != "--" ]; do systems+=("$1"); shift; done
shift
mkdir -p "$out"
echo "bash bench/run_workloads.sh $out ${systems[*]} -- $*" >"$out/command.txt"
for plan in "$@"; do
  case $plan in
    seed:*) tag=seed${plan#seed:}; python3 "$WORKLOADS_PY" "${plan#seed:}" >"$out/$tag.plan.json" ;;
    *) tag=$(basename "$plan" .json); cp "$plan" "$out/$tag.plan.json" ;;
  esac
  first=""
  for s in "${systems[@]}"; do
    name=${s%%=*} bin=${s#*=}
    kernels=/tmp/fftgen-workloads/$name/$tag
    rm -rf "$kernels"
    "$bin/fftgen" "$out/$tag.plan.json" -q -o "$kernels"
    "$bin/fftgen-vk" bench "$kernels/manifest.json" --json "$out/$tag.$name.bench.json" >"$out/$tag.$name.bench.txt"
    [ -n "$first" ] || first=$name
  done
  python3 "$PEERS_PY" "/tmp/fftgen-workloads/$first/$tag/manifest.json" "$out/$tag.$first.bench.json" \
    >"$out/$tag.cufft.txt" 2>"$out/$tag.cufft.err" || echo "cuFFT failed on $tag (see $tag.cufft.err)"
  echo "$tag: $(tail -1 "$out/$tag.cufft.txt")"
done
python3 "$(dirname "$0")/workloads_summary.py" "$out"
