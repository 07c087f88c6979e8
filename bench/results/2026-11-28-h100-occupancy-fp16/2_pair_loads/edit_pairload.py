"""Hand edit of a generated fp16 paired-rows-at-once row pass (first_y_stage: row_pass): each
invocation loads its position from both rows of its pair and forms the sum or difference at
load, so the exchange after stage 0 reads one slot per value instead of two."""
import re, sys
src = open(sys.argv[1]).read()
# loads: v_i = vec2(src.data[src_base + K]) -> sum/difference of the two rows
src = src.replace("  uint src_base = b * params.src_stride + q;\n",
  "  uint row_a = b - ((c - pair_c) << 9u);  // row y of the pair\n"
  "  uint src_a = row_a * params.src_stride + q;\n"
  "  uint src_b = (row_a + 512u) * params.src_stride + q;\n", 1)
src, n = re.subn(r"v(\d+) = vec2\(src\.data\[src_base \+ (\d+)u\]\);",
  lambda m: f"v{m[1]} = vec2(src.data[src_a + {m[2]}u]) + pair_sign * vec2(src.data[src_b + {m[2]}u]);", src)
assert n == 16, n
# exchange 0 -> 1 reads: (sh[pair_c*1088 + X] + pair_sign * sh[(pair_c+1)*1088 + X]) -> sh[c*1088 + X]
src, n = re.subn(r"\(sh\[pair_c \* 1088u \+ (.*?)\] \+ pair_sign \* sh\[\(pair_c \+ 1u\) \* 1088u \+ .*?\]\);",
  lambda m: f"sh[c * 1088u + {m[1]}];", src)
assert n == 16, n
open(sys.argv[2], "w").write(src)
