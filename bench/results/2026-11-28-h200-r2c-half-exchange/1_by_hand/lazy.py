"""Timing experiment: read each partner of the r2c separation's last exchange round just before its
value is separated and stored (inside in_range), so partners are not all live at once; invocation 0
reads its own mirrored values from shared memory (unmasked T - q) instead of keeping registers."""
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split('\n')
mirror = next(i for i, l in enumerate(lines) if 'each value meets its mirror' in l)
kq = next(i for i in range(mirror, len(lines)) if 'uint kq = q;' in lines[i])
last_barrier = max(i for i in range(mirror, kq) if lines[i].strip() == 'barrier();')
final_reads = {}
out = []
for i, l in enumerate(lines):
    m = re.match(r'\s+p(\d+)(\.[xy])? = sh\[', l)
    if mirror < i < kq and m:
        e = int(m.group(1))
        if e != 0:
            l = re.sub(r'\(\((\d+)u - q\) & \d+u\)', r'(\1u - q)', l)
        if i > last_barrier:
            final_reads.setdefault(e, []).append(l.strip())
            continue
    sm = re.match(r'\s+p(\d+) = kq == 0u \?', l)
    if sm:
        e = int(sm.group(1))
        if e == 0: final_reads.setdefault(0, []).append(l.strip())
        continue
    st = re.match(r'(\s+)dst\.data\[.*r2c_split\(v(\d+), p(\d+),', l)
    if st:
        for r in final_reads.get(int(st.group(3)), []): out.append(st.group(1) + r)
    out.append(l)
open(dst, 'w').write('\n'.join(out))
