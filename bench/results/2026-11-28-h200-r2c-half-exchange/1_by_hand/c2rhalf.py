"""Experiment: the c2r merge by halves. Invocation q loads X[k] and X[M-k] for its values e < E/2
(k = q + e*T), forms Z[k] (its own value e) and Z[M-k] (value E-1-e of invocation T-q), and sends
the latter through shared memory: half the global loads, half an exchange."""
import re, sys, math
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
lines = text.split('\n')
T = int(re.search(r'uint q = \(t & (\d+)u\);', text).group(1)) + 1
E = len(re.findall(r'^  vec2 v\d+ = vec2\(0.0\);', text, re.M))
H, M = E // 2, T * E
tw_off = int(re.search(r'vec2 w_kq = tw.data\[(\d+)u \+ kq\];', text).group(1))
decl = re.search(r'shared (vec2|float) sh\[(\d+)\];', text)
kind, size = decl.group(1), int(decl.group(2))
if kind == 'float':
    def write(S, v): return [f'  sh[(c << 13u) + {S}] = {v}.x;', f'  sh[(c << 13u) + {M//2}u + {S}] = {v}.y;']
    def read(S): return f'vec2(sh[(c << 13u) + {S}], sh[(c << 13u) + {M//2}u + {S}])'
elif size == M + M // 16:
    def slot(S): return f'c * {size}u + ({S}) + (({S}) >> 4u)'
    def write(S, v): return [f'  sh[{slot(S)}] = {v};']
    def read(S): return f'sh[{slot(S)}]'
else:
    bits = int(math.log2(size))
    def slot(S): return f'(c << {bits}u) + (({S}) ^ ((({S}) >> 4u) & 15u))'
    def write(S, v): return [f'  sh[{slot(S)}] = {v};']
    def read(S): return f'sh[{slot(S)}]'
start = next(i for i, l in enumerate(lines) if l == '  if (in_range) {' and 'uint kq = q;' in lines[i + 1])
end = next(i for i in range(start, len(lines)) if lines[i] == '  }')
out = lines[:start]
for e in range(H): out.append(f'  vec2 m{e} = vec2(0.0);')
out.append('  vec2 z_mid = vec2(0.0);')
out += ['  if (in_range) {', '    uint kq = q;', '    uint src_row = src_base - kq;', f'    vec2 w_kq = tw.data[{tw_off}u + kq];']
for e in range(H):
    a = -2 * math.pi * e * T / (2 * M)
    out.append(f'    vec2 a{e} = src.data[src_base + {e*T}u];')
    out.append(f'    vec2 b{e} = src.data[src_row + ({M - e*T}u - kq)];')
    out.append(f'    vec2 wk{e} = cmul(w_kq, vec2({math.cos(a):.9f}, {math.sin(a):.9f}));')
    out.append(f'    v{e} = c2r_merge(a{e}, b{e}, wk{e});')
    out.append(f'    m{e} = c2r_merge(b{e}, a{e}, vec2(-wk{e}.x, wk{e}.y));')
a = -2 * math.pi * (M // 2) / (2 * M)
out += ['    if (q == 0u) {  // Z[M/2]: value E/2 of invocation 0, its own mirror',
        f'      vec2 x = src.data[src_base + {M//2}u];',
        f'      z_mid = c2r_merge(x, x, vec2({math.cos(a):.9f}, {math.sin(a):.9f}));', '    }', '  }']
out.append(f'  // values E/2.. come from the invocation T - q, which formed them as its mirrors')
for e in range(H): out += write(f'(q + {e*T}u)', f'm{e}')
out += ['  memoryBarrierShared();', '  barrier();']
for h in range(H):
    S = f'({T}u - q) + {(H - 1 - h) * T}u'
    out.append(f'  v{H + h} = {read(S)};')
out.append(f'  v{H} = q == 0u ? z_mid : v{H};')
out += ['  memoryBarrierShared();', '  barrier();']
out += lines[end + 1:]
open(dst, 'w').write('\n'.join(out))
print(src, T, E, kind, size)
