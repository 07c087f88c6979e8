import re, sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
lines = text.split('\n')
m = re.search(r'uint q = \(t & (\d+)u\);', text)
T = int(m.group(1)) + 1
E = len(re.findall(r'^  vec2 v\d+ = vec2\(0.0\);', text, re.M))
out = []
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith('#version'):
        out += [l, '#extension GL_KHR_shader_subgroup_shuffle : require']
    elif 'uint q = (t &' in l:
        out.append(f'  uint q_lane = (t & {T-1}u);')
        out.append(f'  uint q = (q_lane & 1u) == 0u ? (q_lane >> 1u) : ((q_lane >> 1u) == 0u ? {T//2}u : {T}u - (q_lane >> 1u));  // partners in lanes 2m, 2m+1')
    elif 'each value meets its mirror' in l:
        j = i
        while 'uint kq = q;' not in lines[j]: j += 1
        body = lines[i:j]
        assert all(('sh[' in b or 'barrier' in b.lower() or 'vec2 p' in b or '//' in b) for b in body), body
        out.append('  // partners: lanes 2m and 2m+1')
        for e in range(E):
            out.append(f'  vec2 p{e} = subgroupShuffleXor(v{E-1-e}, 1u);')
        out.append(lines[j])
        out.append(f'  bool self_pair = q == {T//2}u;')
        for e in range(E):
            out.append(f'  p{e} = self_pair ? v{E-1-e} : p{e};')
        i = j
    else:
        out.append(l)
    i += 1
open(dst, 'w').write('\n'.join(out))
print(src, 'T', T, 'E', E)
