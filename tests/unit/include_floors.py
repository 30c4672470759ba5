#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include floors of src/ (docs/architecture.md, "Floors"), checked on every #include "...".

- src/core/ includes only src/core/ (and the generated mb_version.h, mb_build_info.h): core knows no suite and
  no tool;
- src/results/ includes core and itself, never a suite's folder;
- a suite's folder (imb, beff, beffio, presta, and any new one) includes core and itself;
- src/job/ (the main job, which runs the other suites) includes core, results, itself and a
  suite's methodology constants (its *_settings.h) only;
- src/main.c and src/program.c, the top, may include anything;
- no include circle: no header includes, directly or through others, a header that includes it.

Exit status 0, or 1 with one line per violation. Usage: include_floors.py SRC_DIR
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = {"mb_version.h", "mb_build_info.h"}
TOOLS = {"core", "results"}


def allowed(folder, target):
    """Whether a file of src/FOLDER may include the header TARGET ("dir/name.h")."""
    tdir = target.split("/")[0] if "/" in target else None
    if target in GENERATED or folder is None:
        return True
    if folder == "core":
        return tdir == "core"
    if folder == "results":
        return tdir in ("core", "results")
    if folder == "job":
        return tdir in ("core", "results", "job") or target.endswith("_settings.h")
    return tdir in ("core", folder)  # a suite


def main(src):
    problems, graph = [], {}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            folder = rel.split(os.sep)[0] if os.sep in rel else None
            with open(path, encoding="utf-8") as f:
                targets = INCLUDE.findall(f.read())
            graph[rel.replace(os.sep, "/")] = [t for t in targets if t not in GENERATED]
            for t in targets:
                if not allowed(folder, t):
                    problems.append(f"src/{rel} includes \"{t}\": not on its floor or below")
    # Include circles: a depth-first search over the headers.
    state = {}

    def visit(node, stack):
        state[node] = 1
        for t in graph.get(node, []):
            if state.get(t) == 1:
                circle = stack[stack.index(t):] + [t] if t in stack else [node, t]
                problems.append("include circle: " + " -> ".join(circle))
            elif t in graph and not state.get(t):
                visit(t, stack + [t])
        state[node] = 2

    for node in sorted(graph):
        if not state.get(node):
            visit(node, [node])
    for p in problems:
        print(p)
    print(f"{'FAILED' if problems else 'ok'}: {len(graph)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "src"))
