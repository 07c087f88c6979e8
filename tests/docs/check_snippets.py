#!/usr/bin/env python3
"""The code a document shows is code that is compiled and run.

Usage: check_snippets.py [REPO_ROOT]   (default: two folders above this script)

In every docs/*.md file, a line `<!-- snippet: PATH -->` must be followed by a fenced code block
whose lines are exactly those of PATH (relative to the root) between the lines `// [snippet]` and
`// [/snippet]`, with their common indentation removed. tests/runtime_snippets/*.cpp are such files:
test_gpu_snippets compiles and runs them. Also fails where a snippet file's code is shown nowhere.
Exits 1 and lists file:line: what differs.
"""
import os
import re
import sys

MARKER = re.compile(r"^<!-- snippet: (\S+) -->\s*$")


def snippet_of(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "// [snippet]")
        end = next(i for i, l in enumerate(lines) if l.strip() == "// [/snippet]")
    except StopIteration:
        return None
    body = lines[start + 1:end]
    indent = min((len(l) - len(l.lstrip(" ")) for l in body if l.strip()), default=0)
    return [l[indent:] for l in body]


def block_after(lines, i):
    """The lines of the fenced block that starts on the first line after i, or None."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or not lines[j].startswith("```"):
        return None, j
    k = j + 1
    while k < len(lines) and not lines[k].startswith("```"):
        k += 1
    return lines[j + 1:k], j


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    problems, shown = [], set()
    docs = os.path.join(root, "docs")
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        lines = open(os.path.join(docs, name), encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                continue
            where = f"docs/{name}:{i + 1}"
            path = os.path.join(root, m.group(1))
            if not os.path.isfile(path):
                problems.append(f"{where}: {m.group(1)} does not exist")
                continue
            shown.add(os.path.normpath(path))
            code = snippet_of(path)
            block, at = block_after(lines, i)
            if code is None:
                problems.append(f"{where}: {m.group(1)} has no // [snippet] ... // [/snippet] lines")
            elif block is None:
                problems.append(f"{where}: no code block follows the marker")
            elif block != code:
                first = next((n for n, (a, b) in enumerate(zip(block, code)) if a != b), min(len(block), len(code)))
                doc_line = block[first] if first < len(block) else "(end of block)"
                file_line = code[first] if first < len(code) else "(end of snippet)"
                problems.append(f"docs/{name}:{at + 2 + first}: differs from {m.group(1)}: "
                                f"{doc_line!r} where the file has {file_line!r}")
    folder = os.path.join(root, "tests", "runtime_snippets")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.normpath(os.path.join(folder, name))
        if name.endswith(".cpp") and path not in shown:
            problems.append(f"tests/runtime_snippets/{name}: shown in no document (<!-- snippet: ... -->)")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
