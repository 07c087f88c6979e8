"""Hand edit of the second pass of a two-pass 1D kernel (2^21: 2048-point columns, 32 values an
invocation at positions q + 64e): the inter-pass twiddle W^((q + 64e) k) is formed from five table
twiddles W^(64 k 2^j) and the base W^(q k) by a product tree (w_e = w_(e - 2^j) * W^(64 k 2^j), j the
highest bit of e), instead of two table loads and a product for every value.
mode 'tree': that; mode 'none': no inter-pass twiddle at all (wrong result, an upper bound for timing)."""
import re, sys
src = open(sys.argv[1]).read()
mode = sys.argv[3]
pat = re.compile(r"  uint m(\d+) = \(q \+ (\d+)u\) \* k;\n  v\1 = twiddle_mul\(v\1, cmul\(tw\.data\[3008u \+ \(m\1 & 2047u\)\], tw\.data\[5056u \+ \(m\1 >> 11u\)\]\)\);\n")
lines = list(pat.finditer(src))
assert len(lines) == 32, len(lines)
first, last = lines[0].start(), lines[-1].end()
assert all(int(m[2]) == 64 * int(m[1]) for m in lines)
if mode == "none":
    new = ""
else:
    def tw(expr): return f"cmul(tw.data[3008u + (({expr}) & 2047u)], tw.data[5056u + (({expr}) >> 11u)])"
    out = ["  vec2 w0 = " + tw("q * k") + ";\n"]
    for j in range(5):
        out.append(f"  vec2 p{1 << j} = " + tw(f"{64 << j}u * k") + ";\n")
    for e in range(1, 32):
        h = 1 << (e.bit_length() - 1)
        out.append(f"  vec2 w{e} = cmul(w{e - h}, p{h});\n")
    for e in range(32):
        out.append(f"  v{e} = twiddle_mul(v{e}, w{e});\n")
    new = "".join(out)
src = src[:first] + new + src[last:]
open(sys.argv[2], "w").write(src)
