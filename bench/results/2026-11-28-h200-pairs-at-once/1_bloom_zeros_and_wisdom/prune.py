"""Hand experiment: values known zero at load (static) and outputs never stored, in a bloom pass.
usage: prune.py IN.comp OUT.comp MODE   MODE: static (drop loads/stores that are statically out)
or fold (static + first-stage butterflies specialised for their zero inputs)."""
import re, sys
src, dst, mode = sys.argv[1:4]
W = int(sys.argv[4]) if len(sys.argv) > 4 else 1024
text = open(src).read()
lines = text.split('\n')
zero = set()
out = []
for ln in lines:
    # column pass: 'if (src_at + K < Z) vE = src.data[...]' with K >= Z -> never loaded
    m = re.match(r'\s*if \(src_at \+ (\d+)u < (\d+)u\) (v\d+) = ', ln)
    if m and int(m.group(1)) >= int(m.group(2)):
        zero.add(m.group(3)); continue
    m = re.match(r'\s*if \(dst_at \+ (\d+)u < (\d+)u\) dst', ln)
    if m and int(m.group(1)) >= int(m.group(2)):
        continue
    # row pass from the image: columns >= 1024 (q < 128)
    m = re.match(r'\s*(v\d+) = load_image\(src_base \+ (\d+)u\);', ln)
    if m and int(m.group(2)) >= W:
        zero.add(m.group(1)); continue
    m = re.match(r'\s*store_image\(dst_base \+ (\d+)u, v\d+\);', ln)
    if m and int(m.group(1)) >= W:
        continue
    out.append(ln)
text = '\n'.join(out)
print(src, 'zero values:', sorted(zero, key=lambda s: int(s[1:])))

if mode == 'fold' and zero:
    funcs = {}
    for m in re.finditer(r'void (radix\d+_(?:fwd|inv))\(([^)]*)\) \{\n(.*?)\n\}', text, re.S):
        funcs[m.group(1)] = m.group(3).split('\n')
    # first call after the load block
    i = text.index('// stage 0')
    call_re = re.compile(r'  (radix\d+_(?:fwd|inv))\(([^)]*)\);')
    new_funcs = []
    pos = i
    stage1 = text.index('// stage 1', i)
    while True:
        m = call_re.search(text, pos, stage1)
        if not m: break
        fname, args = m.group(1), [a.strip() for a in m.group(2).split(',')]
        zmask = [a in zero for a in args]
        if not any(zmask):
            pos = m.end(); continue
        # constant-propagate zeros through the body
        val = {}
        for k, a in enumerate(args):
            for c in 'xy':
                val[f'x{k}.{c}'] = '0' if zmask[k] else f'i{k}.{c}'
        body = [f'  vec2 i{k} = x{k};' for k in range(len(args)) if not zmask[k]]
        def get(tok):
            tok = tok.strip()
            return val.get(tok, tok)
        def neg(e):
            if e == '0': return '0'
            return e[1:] if e.startswith('-') else '-' + e
        for ln in funcs[fname]:
            mm = re.match(r'\s*float (t\d+) = (.*);', ln)
            if mm:
                name, expr = mm.groups()
                m2 = re.match(r'(\S+) ([+-]) (\S+)$', expr)
                m3 = re.match(r'([0-9.e-]+) \* (\S+)$', expr)
                if m2:
                    a, op, b = get(m2.group(1)), m2.group(2), get(m2.group(3))
                    if op == '-': b = neg(b)
                    if a == '0': r = b
                    elif b == '0': r = a
                    else:
                        if b.startswith('-'): expr2 = f'{a} - {b[1:]}'
                        else: expr2 = f'{a} + {b}'
                        if a.startswith('-'):
                            # -a + b = b - a ; -a - b = -(a+b)
                            if b.startswith('-'): body.append(f'  float {name} = {a[1:]} + {b[1:]};'); val[name] = '-' + name; continue
                            expr2 = f'{b} - {a[1:]}'
                        body.append(f'  float {name} = {expr2};'); val[name] = name; continue
                    val[name] = r; continue
                if m3:
                    c, a = m3.group(1), get(m3.group(2))
                    if a == '0': val[name] = '0'; continue
                    if a.startswith('-'): body.append(f'  float {name} = {c} * {a[1:]};'); val[name] = '-' + name; continue
                    body.append(f'  float {name} = {c} * {a};'); val[name] = name; continue
                raise SystemExit('unparsed ' + ln)
            mm = re.match(r'\s*(x\d+) = vec2\((\S+), (\S+)\);', ln)
            if mm:
                def lit(e): return '0.0' if e == '0' else ('(' + e + ')' if e.startswith('-') else e)
                body.append(f'  {mm.group(1)} = vec2({lit(get(mm.group(2)))}, {lit(get(mm.group(3)))});')
                continue
            raise SystemExit('unparsed ' + ln)
        # outputs are assigned at the end; inputs read before: order in original keeps reads first
        tag = ''.join('z' if z else 'n' for z in zmask)
        nf = f'{fname}_{tag}'
        params = ', '.join(f'inout vec2 x{k}' for k in range(len(args)))
        if nf not in [f[0] for f in new_funcs]:
            new_funcs.append((nf, f'void {nf}({params}) {{\n' + '\n'.join(body) + '\n}\n'))
        text = text[:m.start()] + f'  {nf}({", ".join(args)});' + text[m.end():]
        stage1 = text.index('// stage 1', i)
        pos = m.start() + 1
    at = text.index('void main()')
    text = text[:at] + ''.join(f[1] for f in new_funcs) + '\n' + text[at:]
open(dst, 'w').write(text)
