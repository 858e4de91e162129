#!/usr/bin/env python3
"""The import picture of Polydam's crates: which source files import which, grouped into rooms.

A room is a crate's top-level module (`engine::diagonal`, `engine::game`), or a subcommand's
module for the program (`polydam::cli::matches`). For each crate it prints the rooms that import
each other in a circle (strongly connected components of the room graph), the imports that run
against the floors (edges inside such a circle), and the floors of the rest (longest import
chain). Test modules (`#[cfg(test)]` to the end of the file) are left out.

    python3 tools/imports.py            # summary of every crate
    python3 tools/imports.py --edges    # also every file import inside a circle
"""
import argparse
import os
import re
import sys

CRATES = {"tables": "tables/src", "engine": "engine/src", "protocol": "protocol/src", "polydam": "src"}


def module_files(root):
    """Map module path tuples to files, walking the source tree."""
    mods = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            if not n.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, n), root)
            parts = rel[:-3].split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (["lib"], ["main"]):
                parts = []
            mods[tuple(parts)] = os.path.join(dirpath, n)
    return mods


def strip(text):
    cut = re.search(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return text


def expand(tree):
    """Expand a use tree `a::{b, c::{d, e}}` into paths."""
    tree = tree.replace(" ", "").replace("\n", "")
    depth, start, parts = 0, 0, []
    i = tree.find("{")
    if i < 0:
        return [tree]
    prefix, inner = tree[:i], tree[i + 1 : tree.rfind("}")]
    for j, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:j])
            start = j + 1
    parts.append(inner[start:])
    out = []
    for p in parts:
        if p:
            out += [prefix + q for q in expand(p)]
    return out


def paths_in(text, here):
    """Absolute module paths (tuples) that a file's code names."""
    found = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        for p in expand(m.group(1)):
            found.append(re.sub(r"as\w+$", "", p))
    found += re.findall(r"\b((?:crate|super)(?:::\w+)+)", text)
    out = []
    for p in found:
        segs = [s for s in p.split("::") if s]
        if not segs:
            continue
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        elif segs[0] in ("super", "self"):
            base = list(here)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super" and base:
                    base.pop()
                segs = segs[1:]
        else:
            continue
        out.append(tuple(base + segs))
    return out


def resolve(path, mods, here_file_mod):
    for n in range(len(path), -1, -1):
        if path[:n] in mods:
            return path[:n]
    return None


def room(mod, crate):
    if crate == "polydam" and len(mod) >= 2 and mod[0] == "cli":
        return "cli::" + mod[1]
    return mod[0] if mod else "(root)"


def sccs(nodes, edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def crate_picture(name, root, show_edges):
    mods = module_files(root)
    file_edges = set()
    for mod, path in mods.items():
        here = mod
        text = strip(open(path, encoding="utf-8").read())
        for p in paths_in(text, here):
            t = resolve(p, mods, mod)
            if t is not None and t != mod and t != ():
                file_edges.add((mod, t))
    rooms = sorted({room(m, name) for m in mods})
    redges = {}
    for a, b in file_edges:
        ra, rb = room(a, name), room(b, name)
        if ra != rb:
            redges.setdefault(ra, set()).add(rb)
    comps = sccs(rooms, redges)
    comp_of = {r: i for i, c in enumerate(comps) for r in c}
    circles = [sorted(c) for c in comps if len(c) > 1]
    inside = sorted(
        (a, b) for a, b in file_edges
        if room(a, name) != room(b, name) and comp_of[room(a, name)] == comp_of[room(b, name)]
        and len(comps[comp_of[room(a, name)]]) > 1
    )
    # Floors: longest chain in the graph of circles (each circle one node).
    floor = {}
    for i, c in enumerate(comps):  # Tarjan emits sinks first
        below = [floor[comp_of[w]] for r in c for w in redges.get(r, ()) if comp_of[w] != i]
        floor[i] = 1 + max(below, default=0)
    fcomps = sccs(sorted(mods), {a: {b for x, b in file_edges if x == a} for a in mods})
    big = sorted((len(c) for c in fcomps if len(c) > 1), reverse=True)
    lines = sum(sum(1 for _ in open(p, encoding="utf-8")) for p in mods.values())
    print(f"{name}: {len(mods)} files, {lines} lines, {len(rooms)} rooms, "
          f"{max(floor.values(), default=0)} floors")
    print(f"  room circles: {len(circles)}" + "".join(f"\n    {' <-> '.join(c)}" for c in circles))
    print(f"  file imports inside room circles: {len(inside)}")
    print(f"  file circles (sizes): {big if big else 'none'}")
    if show_edges:
        for c in fcomps:
            if len(c) > 1:
                print("    file circle: " + ", ".join("::".join(m) for m in sorted(c)))
        for a, b in inside:
            print(f"    {'::'.join(a)} -> {'::'.join(b)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edges", action="store_true", help="list the imports inside circles")
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()
    for name, rel in CRATES.items():
        crate_picture(name, os.path.join(args.repo, rel), args.edges)


if __name__ == "__main__":
    main()
