# Timing experiment: the round trip's split exchange array, column c at c*CS and one pad slot
# every 16 values (slot c*CS + i + (i >> 4)), CS = 2048 + 128 + 16 (16 banks apart), in place of
# column_padded's c*2049 + i. Same values, other slots.
import re, subprocess, sys
src, out, name = sys.argv[1:4]
s = open(f"{src}/{name}.comp").read()
assert "shared float sh[4098];" in s
s = s.replace("shared float sh[4098];", "shared float sh[4384];")
key = "sh[c * 2049u + ("
res, pos, n = [], 0, 0
while True:
    k = s.find(key, pos)
    if k < 0: break
    res.append(s[pos:k]); i = k + len(key); depth = 1; j = i
    while depth:
        if s[j] == "(": depth += 1
        elif s[j] == ")": depth -= 1
        j += 1
    expr = s[i:j-1]; assert s[j] == "]", s[j:j+10]
    res.append(f"sh[c * 2192u + ({expr}) + (({expr}) >> 4u)]"); pos = j + 1; n += 1
res.append(s[pos:]); s = "".join(res)
assert "2049u" not in s, "other shared accesses"
open(f"{out}/{name}.comp", "w").write(s)
spv = f"{out}/{name}.spv"
subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, f"{out}/{name}.comp"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["spirv-opt", "-O", spv, "-o", spv], check=True)
subprocess.run(["spirv-val", "--target-env", "vulkan1.1", spv], check=True)
print(name, n, "accesses")
