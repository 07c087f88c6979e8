"""Experiment: the r2c separation with a half-traffic exchange. Invocation q separates the pairs
(k, M-k) for its values e < E/2 (k = q + e*T), storing X[k] and X[M-k]; its values e >= E/2 go to
its partner T - q through shared memory (half the values, one round)."""
import re, sys, math
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
lines = text.split('\n')
T = int(re.search(r'uint q = \(t & (\d+)u\);', text).group(1)) + 1
E = len(re.findall(r'^  vec2 v\d+ = vec2\(0.0\);', text, re.M))
H = E // 2
M = T * E
tw_off = int(re.search(r'vec2 w_kq = tw.data\[(\d+)u \+ kq\];', text).group(1))
decl = re.search(r'shared (vec2|float) sh\[(\d+)\];', text)
kind, size = decl.group(1), int(decl.group(2))
if kind == 'float':
    def write(S, v): return [f'  sh[(c << 13u) + {S}] = {v}.x;', f'  sh[(c << 13u) + {M//2}u + {S}] = {v}.y;']
    def read(S): return f'vec2(sh[(c << 13u) + {S}], sh[(c << 13u) + {M//2}u + {S}])'
elif size == M + M // 16:   # padded
    def slot(S): return f'c * {size}u + ({S}) + (({S}) >> 4u)'
    def write(S, v): return [f'  sh[{slot(S)}] = {v};']
    def read(S): return f'sh[{slot(S)}]'
else:                        # swizzled
    sh_bits = int(math.log2(size))
    def slot(S): return f'(c << {sh_bits}u) + (({S}) ^ ((({S}) >> 4u) & 15u))'
    def write(S, v): return [f'  sh[{slot(S)}] = {v};']
    def read(S): return f'sh[{slot(S)}]'
mirror = next(i for i, l in enumerate(lines) if 'each value meets its mirror' in l)
out = lines[:mirror]
out.append(f'  // half exchange: values {H}..{E-1} go to the partner T - q; pairs (k, M - k) of values 0..{H-1} stay')
out += ['  memoryBarrierShared();', '  barrier();']
for e in range(H, E):
    out += write(f'(q + {(e - H) * T}u)', f'v{e}')
out += ['  memoryBarrierShared();', '  barrier();', '  if (in_range) {',
        f'    uint dst_base = b * params.dst_stride + q;',
        f'    uint dst_mirror = b * params.dst_stride + {M}u - q;',
        f'    vec2 w_kq = tw.data[{tw_off}u + q];']
for e in range(H):
    S = f'(({T}u - q) & {T-1}u) + {(H - 1 - e) * T}u' if e == 0 else f'({T}u - q) + {(H - 1 - e) * T}u'
    out.append(f'    vec2 p{e} = {read(S)};')
    if e == 0: out.append('    p0 = q == 0u ? v0 : p0;')
    a = -2 * math.pi * e * T / (2 * M)
    out.append(f'    vec2 w{e} = cmul(w_kq, vec2({math.cos(a):.9f}, {math.sin(a):.9f}));')
    out.append(f'    dst.data[dst_base + {e * T}u] = r2c_split(v{e}, p{e}, w{e});')
    out.append(f'    dst.data[dst_mirror - {e * T}u] = r2c_split(p{e}, v{e}, vec2(-w{e}.x, w{e}.y));')
a = -2 * math.pi * (M // 2) / (2 * M)
out += ['    if (q == 0u) {  // X[M/2]: value E/2 of invocation 0 pairs with itself',
        f'      vec2 z = {read("0u")};',
        f'      dst.data[dst_base + {M // 2}u] = r2c_split(z, z, vec2({math.cos(a):.9f}, {math.sin(a):.9f}));',
        '    }', '  }', '}', '']
open(dst, 'w').write('\n'.join(out))
print(src, T, E, kind, size)
