# Timing experiment: the round trip's filter buffer declared with a qualifier (coherent / volatile)
# so that the compiler keeps its loads where they are written (after the forward stages).
import subprocess, sys
src, out, name, qual = sys.argv[1:5]
s = open(f"{src}/{name}.comp").read()
old = "layout(set = 0, binding = 4) readonly buffer Filter"
assert old in s
s = s.replace(old, f"layout(set = 0, binding = 4) {qual} readonly buffer Filter")
open(f"{out}/{name}.comp", "w").write(s)
spv = f"{out}/{name}.spv"
subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, f"{out}/{name}.comp"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["spirv-opt", "-O", spv, "-o", spv], check=True)
subprocess.run(["spirv-val", "--target-env", "vulkan1.1", spv], check=True)
