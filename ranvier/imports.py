#!/usr/bin/env python3
"""The import drawing of ranvier's modules: which file of `ranvier/src` uses which, and the cycles among them.

Each file is a module (`src/exposure/handle.rs` is `exposure::handle`, `src/lib.rs` is `crate`). A file uses a
module when its code (comments and `#[cfg(test)]` modules left out) names a path into it: `use crate::graph::NodeId`,
`super::journal::Journal`, `crate::trace::explain(..)`. A path through a re-export (`crate::Memo`, `pub use` in
`lib.rs` or a parent) counts for the module that defines the item, so a facade is not a knot. Declaring a child
(`mod handle;`) is not a use.

    python3 ranvier/imports.py            # every edge, `a -> b`, then the cycles
    python3 ranvier/imports.py exposure   # only the edges from or to modules under `exposure`
    python3 ranvier/imports.py --check    # prints the cycles and exits 1 when there is any
    python3 ranvier/imports.py --check exposure __private
                                          # exits 1 when a cycle joins two modules under those
    python3 ranvier/imports.py --check exposure __private --knots trace mcp
                                          # and when a knot (below) joins two modules under the names after
                                          # `--knots` (CI runs this)

A cycle is a set of files that reach one another through their uses (a strongly connected component). The
cycles are printed twice: all of them, then the ones left when the uses of a parent file's own items by its children
(`graph/runtime.rs` naming `graph::NodeId`, defined in `graph.rs`) are left out, i.e. the knots between siblings.
"""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")


USE = r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);"


def module_of(path):
    rel = os.path.relpath(path, SRC)[: -len(".rs")]
    if rel == "lib":
        return "crate"
    return "crate::" + rel.replace(os.sep, "::")


def strip(text):
    """The code of a file: comments and `#[cfg(test)]` modules removed."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    out, lines, skip, depth = [], text.split("\n"), False, 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if not skip and re.match(r"\s*#\[cfg\(test\)\]", line) and i + 1 < len(lines) and re.match(
            r"\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", lines[i + 1]
        ):
            skip, depth, i = True, 0, i + 1
            continue
        if skip:
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                skip = False
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def use_paths(tree):
    """The full paths of a use tree: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    paths = []

    def walk(prefix, rest):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(rest):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(rest[start:i])
                start = i + 1
        parts.append(rest[start:])
        for part in parts:
            if not part:
                continue
            if "{" in part:
                head, inner = part.split("{", 1)
                walk(prefix + head, inner[: inner.rindex("}")])
            else:
                paths.append(prefix + part)

    walk("", tree)
    return [p.rstrip(":") for p in paths]


def main():
    files = {}
    for root, _, names in os.walk(SRC):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                files[module_of(path)] = strip(open(path, encoding="utf-8").read())
    modules = set(files)

    def absolute(module, path):
        parts = path.split("::")
        if parts[0] == "crate":
            return parts
        base = module.split("::")
        if parts[0] in ("self", "super"):
            while parts and parts[0] in ("self", "super"):
                if parts[0] == "super":
                    base = base[:-1]
                parts = parts[1:]
            return base + parts
        # a path relative to this module (`use child::X` from a parent), when the first name is a child module
        if "::".join(base + parts[:1]) in modules:
            return base + parts
        return None

    # re-exports: module -> {name: absolute path}
    reexports = {}
    for module, code in files.items():
        table = {}
        for m in re.finditer(r"^\s*pub(?:\([^)]*\))?\s+use\s+([^;]+);", code, re.M):
            for path in use_paths(m.group(1)):
                parts = absolute(module, path)
                if parts and parts[-1] not in ("*", "self"):
                    table[parts[-1]] = parts
        reexports[module] = table

    def resolve(parts, seen=0):
        """The module that defines what `parts` names."""
        for n in range(len(parts), 0, -1):
            head = "::".join(parts[:n])
            if head in modules:
                rest = parts[n:]
                if rest and rest[0] in reexports[head] and seen < 8:
                    target = reexports[head][rest[0]]
                    if target[: len(parts[:n]) + 1] != parts[: n + 1]:
                        return resolve(target + rest[1:], seen + 1)
                return head
        return None

    edges = set()
    for module, code in files.items():
        found = []
        for m in re.finditer(USE, code, re.M):
            found += use_paths(m.group(1))
        code_wo_use = re.sub(USE, "", code, flags=re.M)
        found += re.findall(r"(?<![\w$])((?:crate|super|self)(?:::\w+)+)", code_wo_use)
        for path in found:
            parts = absolute(module, path)
            if not parts:
                continue
            target = resolve(parts)
            # a path into an ancestor resolves to it only when it names an item defined there
            if target and target != module:
                edges.add((module, target))

    # names before `--knots` filter the listing and the strict check; names after it, the check for knots
    argv = sys.argv[1:]
    cut = argv.index("--knots") if "--knots" in argv else len(argv)
    args = [a for a in argv[:cut] if not a.startswith("--")]
    knot_args = [a for a in argv[cut + 1 :] if not a.startswith("--")]
    show = lambda m: m[len("crate::"):] if m.startswith("crate::") else m
    for a, b in sorted(edges):
        if not args or any(show(x) == f or show(x).startswith(f + "::") for x in (a, b) for f in args):
            print(f"{show(a)} -> {show(b)}")

    def cycles(edges):
        """The strongly connected components of more than one module (Tarjan)."""
        graph = {m: sorted(b for a, b in edges if a == m) for m in modules}
        index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

        def connect(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in graph[v]:
                if w not in index:
                    connect(w)
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
                if len(comp) > 1:
                    comps.append(sorted(comp))

        for v in sorted(modules):
            if v not in index:
                connect(v)
        return sorted(comps)

    sys.setrecursionlimit(10000)
    every = cycles(edges)
    print(f"cycles: {len(every)}")
    for comp in every:
        print("  " + " ⇄ ".join(show(m) for m in comp))
    # A parent file that defines what its children share (`graph.rs` and its `NodeId`) and uses them closes a cycle
    # with each child that uses it: the same cycles without those uses leave the knots between siblings.
    downward = {(a, b) for a, b in edges if not a.startswith(b + "::")}
    knots = cycles(downward)
    print(f"cycles left without the uses of a parent's own items: {len(knots)}")
    for comp in knots:
        print("  " + " ⇄ ".join(show(m) for m in comp))
    if "--check" in sys.argv:
        # with names: only the cycles that join two of the modules under them fail
        under = lambda names: lambda m: any(show(m) == f or show(m).startswith(f + "::") for f in names)
        named = (lambda m: True) if not args else under(args)
        failing = [" ⇄ ".join(show(m) for m in c if named(m)) for c in every if sum(map(named, c)) >= 2]
        # after `--knots`: the knots between siblings that join two of the modules under those names fail
        knotted = under(knot_args)
        failing += [
            "knot " + " ⇄ ".join(show(m) for m in c if knotted(m)) for c in knots if sum(map(knotted, c)) >= 2
        ]
        if failing:
            print("check failed: " + "; ".join(failing), file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
