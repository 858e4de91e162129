#!/usr/bin/env python3
"""Room sizes of Polydam: lines per crate, the largest files, and functions over a length.

Test code (the tests/ and benches/ folders, `#[cfg(test)]` modules) is counted apart. A function
may be long when its doc comment says why: such a comment contains "long:" and is listed apart.

    python3 tools/sizes.py                  # the summary
    python3 tools/sizes.py --fn-lines 100   # the functions over 100 lines
"""
import argparse
import os
import re

CRATES = [("tables", "tables/src"), ("engine", "engine/src"), ("protocol", "protocol/src"),
          ("polydam", "src"), ("tests", "tests"), ("benches", "benches")]


def rust_files(root):
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith(".rs"):
                yield os.path.join(dirpath, n)


def code_lines(text):
    """The file's lines with strings and comments blanked, so that braces can be counted."""
    out, i, n, mode = [], 0, len(text), None
    buf = []
    while i < n:
        c = text[i]
        if mode is None:
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                buf.append(" " * (j - i))
                i = j
                continue
            if text.startswith("/*", i):
                mode = "block"
                i += 2
                buf.append("  ")
                continue
            m = re.match(r'r(#*)"', text[i:i + 10])
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                close = '"' + m.group(1)
                j = text.find(close, i + len(m.group(0)))
                j = n if j < 0 else j + len(close)
                buf.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
                continue
            if c == '"':
                mode = "str"
                buf.append(" ")
                i += 1
                continue
            if c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
                m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12])
                if m:
                    buf.append(" " * len(m.group(0)))
                    i += len(m.group(0))
                    continue
            buf.append(c)
            i += 1
        elif mode == "block":
            if text.startswith("*/", i):
                mode = None
                buf.append("  ")
                i += 2
            else:
                buf.append(c if c == "\n" else " ")
                i += 1
        else:  # string
            if c == "\\":
                buf.append("  " if text[i + 1:i + 2] != "\n" else " \n")
                i += 2
            elif c == '"':
                mode = None
                buf.append(" ")
                i += 1
            else:
                buf.append(c if c == "\n" else " ")
                i += 1
    return "".join(buf).split("\n")


def functions(path):
    """(name, first line, length, in_test, says_long) of every fn with a body."""
    raw = open(path, encoding="utf-8").read()
    lines = code_lines(raw)
    rawlines = raw.split("\n")
    test_from = None
    for k, l in enumerate(rawlines):
        if re.match(r"\s*#\[cfg\(test\)\]", l) and k + 1 < len(rawlines) and re.match(r"\s*(pub\s+)?mod\s", rawlines[k + 1]):
            test_from = k
            break
    out = []
    for k, l in enumerate(lines):
        m = re.search(r"\bfn\s+(\w+)", l)
        if not m:
            continue
        depth, started, end = 0, False, None
        for j in range(k, len(lines)):
            seg = lines[j] if j != k else lines[j][m.start():]
            for ch in seg:
                if ch == "{":
                    depth += 1
                    started = True
                elif ch == "}":
                    depth -= 1
                elif ch == ";" and not started and depth == 0:
                    end = -1
                    break
                if started and depth == 0:
                    end = j
                    break
            if end is not None:
                break
        if end is None or end < 0:
            continue
        doc = []
        j = k - 1
        while j >= 0 and re.match(r"\s*(///|#\[)", rawlines[j]):
            doc.append(rawlines[j])
            j -= 1
        says_long = any("long:" in d for d in doc)
        in_test = test_from is not None and k > test_from
        out.append((m.group(1), k + 1, end - k + 1, in_test, says_long))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fn-lines", type=int, default=100, help="list functions longer than this")
    ap.add_argument("--file-lines", type=int, default=800, help="list files longer than this")
    ap.add_argument("--largest", type=int, default=10, help="how many of the largest files")
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    os.chdir(a.repo)
    sizes, long_fns = [], []
    for name, root in CRATES:
        total = 0
        for p in rust_files(root):
            n = sum(1 for _ in open(p, encoding="utf-8"))
            total += n
            sizes.append((n, p, name in ("tests", "benches")))
            for f, line, length, in_test, says in functions(p):
                if length > a.fn_lines:
                    long_fns.append((length, p, line, f, in_test or name in ("tests", "benches"), says))
        print(f"{name}: {total} lines")
    sizes.sort(reverse=True)
    print(f"largest {a.largest} files:")
    for n, p, _ in sizes[: a.largest]:
        print(f"  {n:6} {p}")
    big = [s for s in sizes if s[0] > a.file_lines and not s[2]]
    print(f"files over {a.file_lines} lines outside tests: {len(big)}")
    for n, p, _ in big:
        print(f"  {n:6} {p}")
    long_fns.sort(reverse=True)
    prod = [f for f in long_fns if not f[4]]
    print(f"functions over {a.fn_lines} lines outside tests: {len(prod)} "
          f"({sum(1 for f in prod if f[5])} with a doc comment saying why); in tests: {len(long_fns) - len(prod)}")
    for length, p, line, f, _, says in prod:
        print(f"  {length:5} {p}:{line} {f}{'  (says why)' if says else ''}")


if __name__ == "__main__":
    main()
