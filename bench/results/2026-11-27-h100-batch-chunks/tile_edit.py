# Hand edit of the 2^21 / 2^22 kernels (generated at 919cff0 from chunk.plan.json) for timing only:
# fwd0 stores its transposed rows in tiles of 8 columns (value k of row r at
# (k div 8) * 8R + 8r + (k mod 8)), fwd1 reads its 8-column tiles from there as contiguous runs.
# fwd1 still writes in place, so the results are wrong (other workgroups' tiles are overwritten):
# the traffic's shape is what is timed.
import re, subprocess, sys
src, out = sys.argv[1], sys.argv[2]   # folders of the generated .comp files and of the edited ones

def tile_fn(row_bits, rows_bits, c_bits=3):
    return f"""
uint tile(uint e) {{
  uint r = e >> {row_bits}u;
  uint k = e & {(1 << row_bits) - 1}u;
  return ((k >> {c_bits}u) << {rows_bits + c_bits}u) + (r << {c_bits}u) + (k & {(1 << c_bits) - 1}u);
}}
"""

def edit(name, row_bits, rows_bits, dst_rel, src_rel):
    for p in ("fwd0", "fwd1"):
        s = open(f"{src}/{name}.{p}.comp").read()
        s = s.replace("\nvoid main() {", tile_fn(row_bits, rows_bits) + "\nvoid main() {", 1)
        if p == "fwd0":
            s = re.sub(r"dst\.data\[dst_base \+ (.*)\] = (v\d+);",
                       lambda m: f"dst.data[b0 * params.dst_stride + tile({dst_rel} + {m[1]})] = {m[2]};", s)
        else:
            s = re.sub(r"src\.data\[src_base \+ (\d+u)\]",
                       lambda m: f"src.data[b * params.src_stride + tile({src_rel} + {m[1]})]", s)
        open(f"{out}/{name}.{p}.comp", "w").write(s)
        spv = f"{out}/{name}.{p}.spv"
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, f"{out}/{name}.{p}.comp"], check=True)
        subprocess.run(["spirv-opt", "-O", spv, "-o", spv], check=True)
        subprocess.run(["spirv-val", "--target-env", "vulkan1.1", spv], check=True)

edit("c2c_4m", 11, 11, "((g0 & 2047u) << 11u)", "j + (q << 11u)")
edit("c2c_2m", 10, 11, "((g0 & 2047u) << 10u)", "j + (q << 10u)")
