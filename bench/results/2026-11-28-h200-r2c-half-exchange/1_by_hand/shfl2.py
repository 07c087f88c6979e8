import re, sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
lines = text.split('\n')
m = re.search(r'uint q = \(t & (\d+)u\);', text)
T = int(m.group(1)) + 1
E = len(re.findall(r'^  vec2 v\d+ = vec2\(0.0\);', text, re.M))
last_stage = max(int(s) for s in re.findall(r'// stage (\d+):', text))
last_ex = max(i for i, l in enumerate(lines) if re.search(r'// exchange \d+ -> \d+', l))
mirror = next(i for i, l in enumerate(lines) if 'each value meets its mirror' in l)
qsub = lambda l: re.sub(r'\bq\b', 'qp', l)
out = []
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith('#version'):
        out += [l, '#extension GL_KHR_shader_subgroup_shuffle : require']
    elif 'uint q = (t &' in l:
        out.append(l)
        out.append(f'  uint qp = (q & 1u) == 0u ? (q >> 1u) : ((q >> 1u) == 0u ? {T//2}u : {T}u - (q >> 1u));  // last stage: partners in lanes 2m, 2m+1')
    elif re.match(rf'\s*uint j{last_stage}_\d+ = q\b', l):
        out.append(qsub(l))
    elif last_ex < i < mirror and re.match(r"\s+v\d+(\.[xy])? = sh\[", l):
        out.append(qsub(l))
    elif i == mirror:
        j = i
        while 'uint kq = q;' not in lines[j]: j += 1
        body = lines[i:j]
        assert all(('sh[' in b or 'barrier' in b.lower() or 'vec2 p' in b or '//' in b) for b in body), body
        out.append('  // partners: lanes 2m and 2m+1')
        for e in range(E):
            out.append(f'  vec2 p{e} = subgroupShuffleXor(v{E-1-e}, 1u);')
        out.append('  uint kq = qp;')
        out.append(f'  bool self_pair = qp == {T//2}u;')
        for e in range(E):
            out.append(f'  p{e} = self_pair ? v{E-1-e} : p{e};')
        i = j
    elif i > mirror:
        out.append(qsub(l))
    else:
        out.append(l)
    i += 1
open(dst, 'w').write('\n'.join(out))
print(src, 'T', T, 'E', E, 'last stage', last_stage)
