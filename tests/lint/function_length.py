#!/usr/bin/env python3
"""No function in generator/ or runtime/ is longer than 100 lines (issue 42: short enough to read at once).

usage: function_length.py REPO_ROOT

A function is a definition that starts at the first column of a .cpp file (a free function or a
member defined outside its class), its signature on at most five lines, up to the brace that closes
its body. The script first checks itself on a made-up function of 101 lines, so that a scanner that
finds nothing cannot pass.
"""
import pathlib
import re
import sys

LIMIT = 100
SIGNATURE_START = re.compile(r"^[A-Za-z_\[][^;]*$")
NOT_FUNCTIONS = ("namespace", "struct", "class", "enum", "union", "using", "typedef", "template", "extern", "static_assert")


def functions(text):
    """Yields (first line number, length in lines, first line) of each top-level function."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not SIGNATURE_START.match(line) or line.startswith(NOT_FUNCTIONS) or "(" not in line:
            i += 1
            continue
        j = i
        while j < len(lines) and j - i < 5 and not lines[j].rstrip().endswith("{"):
            if lines[j].rstrip().endswith(";"):
                break
            j += 1
        if j >= len(lines) or not lines[j].rstrip().endswith("{") or lines[j].rstrip().endswith("= {"):
            i += 1
            continue
        depth, k = 0, j
        while k < len(lines):
            depth += lines[k].count("{") - lines[k].count("}")
            k += 1
            if depth <= 0:
                break
        yield i + 1, k - i, line.strip()
        i = k


def self_check():
    body = "\n".join("  x += %d;" % n for n in range(LIMIT - 1))
    made_up = "int long_one(int x) {\n" + body + "\n}\n\nint short_one() {\n  return 1;\n}\n"
    found = list(functions(made_up))
    assert [(first, length) for first, length, _ in found] == [(1, LIMIT + 1), (LIMIT + 3, 3)], found


def main():
    self_check()
    root = pathlib.Path(sys.argv[1])
    too_long, count = [], 0
    for folder in ("generator", "runtime"):
        for path in sorted((root / folder).rglob("*.cpp")):
            for first, length, line in functions(path.read_text(encoding="utf-8")):
                count += 1
                if length > LIMIT:
                    too_long.append(f"{path.relative_to(root)}:{first}: {length} lines: {line}")
    if count < 500:
        sys.exit(f"function_length: found only {count} functions; the scanner is broken")
    if too_long:
        sys.exit("functions longer than %d lines (split them):\n  " % LIMIT + "\n  ".join(too_long))
    print(f"{count} functions, none longer than {LIMIT} lines")


if __name__ == "__main__":
    main()
