#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Prints each crate's module dependency edges and every import circle among
# its modules (issue 32: "no import circle anywhere").
#
# A module is a file under the crate's src/ (src/a.rs and src/a/mod.rs are
# `a`, src/a/b.rs is `a::b`; lib.rs or main.rs is the crate root, `crate`).
# An edge A -> B is a path in A's code that names B or an item of B:
# `crate::b::..`, `super::..`, `self::..`, or a `use` of a child module
# (`use supervise::Watch`), with `use` trees expanded. Comments and string
# literals are skipped; `mod b;` is a declaration, not an edge. A file's
# `#[cfg(test)] mod tests` block counts as the file itself, so its
# `use super::*` is no edge.
#
# Usage: ci/module-cycles.py [CRATE_DIR...]   (default: crates/*)
# Exits 1 when any crate has a circle.
import pathlib
import re
import sys


def module_of(src, path):
    rel = path.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts.pop()
    if parts in (["lib"], ["main"]):
        return ()
    return tuple(parts)


def strip(text):
    """The code without comments and string or char literals."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", text[i:]).group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand(tree):
    """`a::{b, c::{d, self}}` as [a::b, a::c::d, a::c]."""
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [tree]
    head, body = m.group(1), m.group(2)
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in filter(None, parts):
        for e in expand(p):
            out.append(head.rstrip(":") if e == "self" else head + e)
    return out


def resolve(segments, here, modules):
    """The module a path from module `here` names, or None (another crate's)."""
    first, rest = segments[0], segments[1:]
    if first == "crate":
        base = ()
    elif first in ("super", "self"):
        base = here
        while segments and segments[0] in ("super", "self"):
            if segments[0] == "super":
                base = base[:-1]
            segments = segments[1:]
        rest = segments
    elif here + (first,) in modules:
        base, rest = here, segments
    else:
        return None
    target = base
    for s in rest:
        if target + (s,) in modules:
            target = target + (s,)
        else:
            break
    return target


def edges_of(src):
    files = sorted(p for p in src.rglob("*.rs"))
    if (src / "lib.rs").exists():
        files = [f for f in files if f.name != "main.rs" and "bin" not in f.relative_to(src).parts]
    modules = {module_of(src, f): f for f in files}
    edges = set()
    for mod, f in modules.items():
        code = strip(f.read_text())
        cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+tests\s*\{", code)
        regions = [(code, mod)]
        if cut:
            # The tests block is `mod::tests`: its `super::` is `mod`.
            regions = [(code[: cut.start()], mod), (code[cut.end():], mod + ("tests",))]
        for text, here in regions:
            paths = []
            for m in re.finditer(r"\buse\s+([^;]+);", text):
                paths += expand(m.group(1))
            text = re.sub(r"\buse\s+[^;]+;", "", text)
            paths += re.findall(r"\b(?:crate|super|self)(?:::\w+)+", text)
            # A child module named bare (`index::page(..)` after `mod index;`).
            paths += [m for m in re.findall(r"(?<![:\w])\w+(?:::\w+)+", text) if here + (m.split("::")[0],) in modules]
            for p in paths:
                segs = [s for s in re.split(r"::", re.sub(r"\s+as\s+\w+$", "", p)) if s and s != "*"]
                if not segs:
                    continue
                target = resolve(segs, here, modules)
                if target is not None and target != mod:
                    edges.add((mod, target))
    return sorted(modules), sorted(edges)


def cycles(nodes, edges):
    """Every strongly connected set of two or more modules (Tarjan)."""
    graph = {n: [b for a, b in edges if a == n] for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    sys.setrecursionlimit(10000)
    for n in nodes:
        if n not in index:
            visit(n)
    return out


def name(mod):
    return "::".join(("crate",) + mod)


def main(args):
    root = pathlib.Path(__file__).resolve().parent.parent
    dirs = [pathlib.Path(a) for a in args] or sorted(p for p in (root / "crates").iterdir() if (p / "src").is_dir())
    circles = 0
    for d in dirs:
        nodes, edges = edges_of(d / "src")
        found = cycles(nodes, edges)
        circles += len(found)
        print(f"{d.name}: {len(nodes)} modules, {len(edges)} edges, {len(found)} cycles")
        for a, b in edges:
            print(f"  {name(a)} -> {name(b)}")
        for c in found:
            print(f"  CYCLE: {' <-> '.join(name(m) for m in c)}")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
