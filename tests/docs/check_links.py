#!/usr/bin/env python3
"""Every relative link in the repository's Markdown files names a file or folder in the repository.

Usage: check_links.py [REPO_ROOT]   (default: two folders above this script)

Reads the tracked *.md files (git ls-files; every *.md under the root without git), takes each
inline link or image [text](target) and each reference definition [label]: target, skips
absolute URLs (scheme:), mail and in-page anchors (#...), drops a #fragment or ?query, and checks
that the target exists relative to the file (or to the root for a leading /). A link that leaves
the repository counts as dangling. Exits 1 and lists file:line: target for each that does not resolve.
"""
import os
import re
import subprocess
import sys

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "*.md"], check=True,
                             capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("build", "third_party")]
        found += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames if f.endswith(".md")]
    return found


def links(text):
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        # Inline code spans are not links.
        line = re.sub(r"`[^`]*`", "", line)
        for match in INLINE.finditer(line):
            yield number, match.group(1)
        match = REFDEF.match(line)
        if match:
            yield number, match.group(1)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    bad = []
    checked = 0
    for rel in sorted(markdown_files(root)):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        for number, target in links(text):
            if SCHEME.match(target) or target.startswith("#"):
                continue
            target = target.split("#", 1)[0].split("?", 1)[0]
            if not target:
                continue
            checked += 1
            base = root if target.startswith("/") else os.path.dirname(path)
            resolved = os.path.normpath(os.path.join(base, target.lstrip("/")))
            inside = os.path.commonpath([root, resolved]) == root
            if not inside or not os.path.exists(resolved):
                bad.append(f"{rel}:{number}: {target}" + ("" if inside else " (outside the repository)"))
    for line in bad:
        print(line)
    print(f"{checked} relative links checked, {len(bad)} dangling")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
