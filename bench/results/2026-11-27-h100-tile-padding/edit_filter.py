# Hand edit of a convolution round trip (timing experiment): the filter spectrum's loads issued
# early ("top": right after the data loads; "late": before the forward half's last exchange),
# the product then reads registers. Everything else is as generated.
import re, subprocess, sys
src, out, name, where = sys.argv[1:5]
s = open(f"{src}/{name}.comp").read()
lines = s.split("\n")
fb = [i for i, l in enumerate(lines) if l.strip().startswith("uint filter_base =")]
assert len(fb) == 1, fb
expr = lines[fb[0]].strip()[len("uint filter_base = "):-1]
prod = re.compile(r"^(\s*)(v\d+) = cmul\((v\d+), (vec2\()?filt\.data\[filter_base \+ (\d+u)\]\)?\);$")
loads = []
for i, l in enumerate(lines):
    m = prod.match(l)
    if m:
        e = len(loads)
        conv = m[4] is not None
        loads.append(f"      fp{e} = {'vec2(' if conv else ''}filt.data[pre_base + {m[5]}]{')' if conv else ''};")
        lines[i] = f"{m[1]}{m[2]} = cmul({m[3]}, fp{e});"
assert loads
block = [f"  vec2 fp{e} = vec2(0.0);" for e in range(len(loads))]
block += ["  if (in_range) {", f"    uint pre_base = {expr};"] + [l[2:] for l in loads] + ["  }"]
if where == "top":
    at = next(i for i, l in enumerate(lines) if l.startswith("  // stage 0:"))
else:
    at = max(i for i, l in enumerate(lines[:fb[0]]) if l.strip().startswith("// exchange"))
lines[at:at] = block
open(f"{out}/{name}.comp", "w").write("\n".join(lines))
spv = f"{out}/{name}.spv"
subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, f"{out}/{name}.comp"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["spirv-opt", "-O", spv, "-o", spv], check=True)
subprocess.run(["spirv-val", "--target-env", "vulkan1.1", spv], check=True)
