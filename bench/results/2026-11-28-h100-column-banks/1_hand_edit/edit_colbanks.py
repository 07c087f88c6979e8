# Timing experiment: the 2048-point column passes of 2^21 and 2^22 (8 columns a workgroup, column c
# at c*257 + i, 257 = 1 mod 16 vec2 slots) with column c at c*274 + i + (i >> 5): one pad slot every
# 32 values and columns 2 slots (4 banks) apart, so the 16 invocations of a half-warp (8 columns x
# 2 positions) reach 16 distinct 8-byte bank pairs in every exchange. Same values, other slots.
# mode "whole": each access pads its own index; "split": base and constant padded apart,
# A + (A >> 5) + K + (K >> 5), equal to the whole pad where the low 5 bits do not carry (verify checks).
import re, subprocess, sys, json
src, out, mode = sys.argv[1:4]
names = sys.argv[4:]
for name in names:
    s = open(f"{src}/{name}.comp").read()
    assert "shared vec2 sh[2056];" in s
    s = s.replace("shared vec2 sh[2056];", "shared vec2 sh[2192];")
    # Every access is `sh[c * 257u + (A + Ku)]`: a variable part A and a constant K.
    def padded(m):
        A, K = m.group(1), int(m.group(2))
        if mode == "whole":
            return f"sh[c * 274u + ({A} + {K}u) + (({A} + {K}u) >> 5u)]"
        return f"sh[c * 274u + ({A}) + (({A}) >> 5u) + {K + (K >> 5)}u]"
    s, n = re.subn(r"sh\[c \* 257u \+ \((.*) \+ (\d+)u\)\]", padded, s)
    # the transposed store's reads: column (t + K) >> 8, position (t + K) & 255 (32 consecutive
    # positions a warp, one pad)
    s, nt = re.subn(r"sh\[(\(t >> 8u\)|\(\(t \+ \d+u\) >> 8u\)) \* 257u \+ (\([^\]]*\))\]",
                    lambda m: f"sh[{m.group(1)} * 274u + {m.group(2)} + ({m.group(2)} >> 5u)]", s)
    n += nt
    assert "257u" not in s, name
    comp, spv = f"{out}/{name}.comp", f"{out}/{name}.spv"
    open(comp, "w").write(s)
    # compiled as the generator compiles (an unedited shader gives byte-identical SPIR-V)
    for tool in (["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, comp],
                 ["spirv-opt", "-O", spv, "-o", spv], ["spirv-val", "--target-env", "vulkan1.1", spv]):
        subprocess.run(tool, check=True, stdout=subprocess.DEVNULL)
    print(name, n, "accesses")
m = json.load(open(f"{out}/manifest.json"))
for k in m["kernels"]:
    for d in ("forward", "inverse"):
        for p in k[d]:
            if f"{k['name']}.{p['name']}" in names: p["shared_memory_bytes"] = 2192 * 8
json.dump(m, open(f"{out}/manifest.json", "w"), indent=2)
