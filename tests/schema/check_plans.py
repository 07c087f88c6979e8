"""Checks docs/plan.schema.json: it is a valid JSON Schema (draft 2020-12), every plan in the
repository conforms to it, and every bad plan in tests/plans/bad fails it, except the ones whose
fault a schema cannot express (listed below with the reason; each of those must pass the schema,
so the list stays true). Run by CTest as plan_schema; needs python3-jsonschema (scripts/deps.sh).

usage: check_plans.py SOURCE_DIR
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("plan_schema: python3-jsonschema is missing (bash scripts/deps.sh installs it)")

# Faults only fftgen's parser sees: uniqueness across array elements, arithmetic and rules between
# fields, and duplicate object keys (Python's json keeps the last one, as most JSON readers do).
BEYOND_SCHEMA = {
    "14_duplicate_names.json": "names unique across kernels",
    "15_duplicate_after_expansion.json": "variant names unique after expansion",
    "20_r2c_odd_nx_fp16.json": "fp16 only where every row runs the half-length r2c",
    "21_pair_4098.json": "r2c_pair without a prime factor above 61",
    "28_radices_product.json": "radices multiply to N",
    "54_duplicate_key.json": "a key twice in one object",
    "63_radices_product_in_variant.json": "radices multiply to N in every variant",
    "64_name_case_clash.json": "names unique ignoring case",
    "77_radices_2d.json": "explicit radices only for a 1D shape",
    "78_pair_2d.json": "r2c_pair only for a 1D shape",
    "79_r2c_radices_product.json": "radices multiply to N/2 for r2c",
    "80_pair_too_large.json": "the largest r2c_pair N (one pass)",
    "81_column_tiles_1d.json": "column_tiles only for a 2D shape",
    "82_column_tiles_image.json": "column_tiles only for buffers (io buffer)",
    "84_pass_sync_metal.json": "counters not with the msl target (a top-level field)",
    "85_pass_sync_image.json": "counters only for buffers (io buffer)",
    "86_pass_sync_one_pass.json": "counters only for kernels of several passes (the layout decides)",
    "87_counter_lag_dispatch.json": "counter_lag not beside pass_sync dispatch",
    "90_first_y_stage_1d.json": "row_pass only for a 2D shape",
    "91_first_y_stage_short_rows.json": "row_pass only where the passes can take pairs of rows (the layout decides)",
    "93_first_y_stage_workgroup_size.json": "row_pass only with workgroup_size auto",
    "95_placement_pair.json": "in_place not for r2c_pair",
    "96_placement_bluestein.json": "in_place not for lengths through Bluestein's algorithm (the layout decides)",
    "97_fp64_msl.json": "fp64 not with the msl target (a top-level field)",
    "98_fp64_wgsl.json": "fp64 not with the wgsl target (a top-level field)",
    "99_fp64_computed_twiddles.json": "fp64 only with table twiddles",
    "100_fp64_convolution.json": "fp64 not for convolutions",
    "101_volume_image.json": "io image only for a 1D or 2D shape",
    "102_volume_bluestein_in_place.json": "in_place not for sides through Bluestein's algorithm (the layout decides)",
    "103_volume_r2c_odd_nx_in_place.json": "in_place not for an r2c of odd NX (the layout decides)",
}


def load(path):
    """The parsed JSON, or None for a file that is not JSON (bad plans 01, 02, 03, 69, 71)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (ValueError, UnicodeDecodeError):
        return None


def main():
    source = sys.argv[1]
    with open(os.path.join(source, "docs", "plan.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    plans = [os.path.join(source, "generated", "default.json")]
    for pattern in ("bench/plans/*.json", "tests/plans/*.json", "examples/**/*.json"):
        plans += sorted(glob.glob(os.path.join(source, pattern), recursive=True))
    for path in plans:
        doc = load(path)
        errors = ["not JSON"] if doc is None else [
            f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(doc)]
        if errors:
            failures.append(f"{os.path.relpath(path, source)} fails the schema: " + "; ".join(errors[:3]))
    print(f"{len(plans)} plans checked against the schema")

    bad = sorted(glob.glob(os.path.join(source, "tests", "plans", "bad", "*.json")))
    rejected = 0
    for path in bad:
        name = os.path.basename(path)
        doc = load(path)
        accepted = doc is not None and validator.is_valid(doc)
        if name in BEYOND_SCHEMA and not accepted:
            failures.append(f"bad plan {name} fails the schema now: remove it from BEYOND_SCHEMA")
        elif name not in BEYOND_SCHEMA and accepted:
            failures.append(f"bad plan {name} passes the schema")
        rejected += not accepted
    missing = set(BEYOND_SCHEMA) - {os.path.basename(p) for p in bad}
    failures += [f"BEYOND_SCHEMA names {name}, which tests/plans/bad lacks" for name in sorted(missing)]
    print(f"{rejected} of {len(bad)} bad plans fail the schema; {len(BEYOND_SCHEMA)} are beyond it")
    if len(plans) < 4 or len(bad) < 50:
        failures.append(f"too few plans found under {source}: {len(plans)} plans, {len(bad)} bad plans")

    for failure in failures:
        print("plan_schema: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
