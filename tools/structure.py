#!/usr/bin/env python3
"""The house as measured from a build: file sizes and call circles between source files.

    python3 tools/structure.py [BUILD_DIR]      (default ./build, after a build)

A file A "calls" file B when A's object file needs a symbol that B's object defines
(`nm`), so the graph is what the linker sees, macros and inline functions included.
Prints the largest files of src/, every circle (strongly connected set) of two or more
files, and the calls between modules that run against the order of CMakeLists.txt.
Exit 0; the output is for people.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build"))

objs = {}  # source path (relative to top) -> object file
for root, _, files in os.walk(os.path.join(build, "CMakeFiles")):
    m = re.search(r"/CMakeFiles/(pv_[a-z]+|pvox)\.dir/(src/.*)$", root)
    if not m:
        continue
    for f in files:
        if f.endswith(".c.o") and os.path.exists(os.path.join(top, m.group(2), f[:-2])):
            objs[os.path.join(m.group(2), f[:-2])] = os.path.join(root, f)
if not objs:
    sys.exit(f"structure.py: no object files under {build}/CMakeFiles: build pvox first")

defs, uses = {}, defaultdict(set)
for src, obj in objs.items():
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRC":
            defs[parts[2]] = src
        elif len(parts) == 2 and parts[0] == "U":
            uses[src].add(parts[1])

calls = defaultdict(set)
for src, names in uses.items():
    for n in names:
        d = defs.get(n)
        if d and d != src:
            calls[src].add(d)

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(calls[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(objs):
    if v not in index:
        visit(v)

sizes = []
for root, _, files in os.walk(os.path.join(top, "src")):
    for f in files:
        if f.endswith((".c", ".h")):
            p = os.path.join(root, f)
            with open(p, encoding="utf-8", errors="replace") as fh:
                sizes.append((sum(1 for _ in fh), os.path.relpath(p, top)))
sizes.sort(reverse=True)
print("largest files in src/ (lines):")
for n, p in sizes[:10]:
    print(f"  {n:6d}  {p}")
print(f"  files over 1000 lines: {sum(1 for n, _ in sizes if n > 1000)}")

print(f"\ncall circles between files ({len(sccs)}):")
for comp in sccs:
    print(f"  {len(comp)} files: " + ", ".join(comp))
    for a in comp:
        for b in sorted(calls[a] & set(comp)):
            names = sorted(n for n in uses[a] if defs.get(n) == b)
            print(f"    {a} -> {b}: {', '.join(names[:6])}{' ...' if len(names) > 6 else ''}")

order = re.findall(r"^pv_module\((\w+)", open(os.path.join(top, "CMakeLists.txt")).read(), re.M)
rank = {m: i for i, m in enumerate(order)}
mod = lambda p: p.split("/")[1]
back = sorted({(mod(a), mod(b)) for a in calls for b in calls[a]
               if mod(a) in rank and mod(b) in rank and rank[mod(b)] > rank[mod(a)]})
print(f"\ncalls from a module to one declared after it in CMakeLists.txt ({len(back)}):")
for a, b in back:
    print(f"  {a} -> {b}")
