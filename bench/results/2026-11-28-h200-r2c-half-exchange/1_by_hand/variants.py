"""Timing-only variants of an r2c forward kernel's GLSL (not transforms any user would want):
  nosplit  -- no separation: no partner exchange, Z[k] stored where X[k] goes (the C2C-like floor)
  stride512 -- the separation kept, transforms written 512 elements apart instead of 513 (aligned)"""
import re, sys
kind, src, dst = sys.argv[1:4]
lines = open(src).read().split('\n')
out = []
i = 0
while i < len(lines):
    l = lines[i]
    if kind == 'nosplit' and 'each value meets its mirror' in l:
        while 'uint kq = q;' not in lines[i]: i += 1
        out.append(lines[i])
    elif kind == 'nosplit' and re.match(r'\s+p\d+ = kq == 0u', l):
        pass
    elif kind == 'nosplit' and 'r2c_split(' in l and '=' in l:
        out.append(re.sub(r'r2c_split\((v\d+), p\d+, .*\);$', r'\1;', l))
    elif kind == 'stride512' and 'uint dst_base = b * params.dst_stride' in l:
        out.append(l.replace('params.dst_stride', '512u'))
    else:
        out.append(l)
    i += 1
open(dst, 'w').write('\n'.join(out))
