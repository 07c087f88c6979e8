# Timing experiment: the round trip's split exchange array, column c at c*2192 and one pad slot
# every 16 values (slot c*2192 + i + (i >> 4); 2192 = 2048 + 128 + 16, 16 banks apart), in place
# of column_padded's c*2049 + i. Same values, other slots.
# mode "whole": each access pads its own index i (step 3a).
# mode "split": the pad of each access split into its variable part A and constant K,
#   A + (A >> 4) + K + (K >> 4), which equals the pad of A + K where the low 4 bits of A and K do
#   not carry (checked by verify), and lets the compiler share A's pad between accesses (step 3b).
import re, subprocess, sys
src, out, name, mode = sys.argv[1:5]
assert mode in ("whole", "split")
s = open(f"{src}/{name}.comp").read()
s = s.replace("shared float sh[4098];", "shared float sh[4384];")
key = "sh[c * 2049u + ("
def split_terms(e):
    terms, depth, cur = [], 0, ""
    for ch in e:
        if ch == "(": depth += 1
        if ch == ")": depth -= 1
        if ch == "+" and depth == 0: terms.append(cur.strip()); cur = ""
        else: cur += ch
    terms.append(cur.strip()); return terms
def strip_parens(e):
    e = e.strip()
    while e.startswith("(") and e.endswith(")"):
        depth = 0; ok = True
        for i, ch in enumerate(e):
            depth += ch == "("; depth -= ch == ")"
            if depth == 0 and i < len(e) - 1: ok = False; break
        if not ok: break
        e = e[1:-1].strip()
    return e
def flatten(e):
    out = []
    for t in split_terms(strip_parens(e)):
        t2 = strip_parens(t)
        if len(split_terms(t2)) > 1 and not re.search(r"<<|>>|&|\*", re.sub(r"\(.*\)", "", t2)): out += flatten(t2)
        else: out.append(t)
    return out
res, pos, n = [], 0, 0
while True:
    k = s.find(key, pos)
    if k < 0: break
    res.append(s[pos:k]); i = k + len(key); depth = 1; j = i
    while depth:
        depth += s[j] == "("; depth -= s[j] == ")"; j += 1
    expr = s[i:j-1]
    if mode == "whole":
        res.append(f"sh[c * 2192u + ({expr}) + (({expr}) >> 4u)]"); pos = j + 1; n += 1
        continue
    terms = flatten(expr)
    K = sum(int(t[:-1]) for t in terms if re.fullmatch(r"\d+u", t))
    A = " + ".join(t for t in terms if not re.fullmatch(r"\d+u", t))
    Kp = K + (K >> 4)
    slot = f"{Kp}u" if not A else f"({A}) + (({A}) >> 4u) + {Kp}u"
    res.append(f"sh[c * 2192u + {slot}]"); pos = j + 1; n += 1
res.append(s[pos:]); s = "".join(res)
assert "2049u" not in s
open(f"{out}/{name}.comp", "w").write(s)
spv = f"{out}/{name}.spv"
subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, f"{out}/{name}.comp"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["spirv-opt", "-O", spv, "-o", spv], check=True)
subprocess.run(["spirv-val", "--target-env", "vulkan1.1", spv], check=True)
print(name, n, "accesses")
