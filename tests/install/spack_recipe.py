#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Spack recipe (packaging/spack/packages/mpibench/package.py) without Spack: it parses as
Python, every CMake variable it sets is one the build defines (an option() or the help2man
cache entry), every variant it maps exists, and it depends on MPI, jansson and hwloc as the build
does (docs/adr/install-layout.md)."""
import ast
import re
import sys


def main():
    recipe, *cmake_files = sys.argv[1:]
    tree = ast.parse(open(recipe, encoding="utf-8").read(), recipe)
    cmake = "".join(open(f, encoding="utf-8").read() for f in cmake_files)
    known = set(re.findall(r"option\((\w+)", cmake)) | set(re.findall(r"find_program\((\w+)", cmake))
    known |= {"MPI_C_COMPILER"}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))]

    def name(c):
        return c.func.id if isinstance(c.func, ast.Name) else c.func.attr

    def strings(c):
        return [a.value for a in c.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]

    variants = {strings(c)[0] for c in calls if name(c) == "variant"}
    deps = {re.split(r"[@:+~ ]", strings(c)[0])[0] for c in calls if name(c) == "depends_on"}
    failures = []
    for c in calls:
        if name(c) in ("define", "define_from_variant") and strings(c):
            if strings(c)[0] not in known:
                failures.append(f"sets {strings(c)[0]}, which the CMake files do not define")
            if name(c) == "define_from_variant" and strings(c)[1] not in variants:
                failures.append(f"maps the undeclared variant {strings(c)[1]}")
    for d in ("mpi", "jansson", "hwloc", "cmake", "pkgconfig"):
        if d not in deps:
            failures.append(f"no depends_on('{d}')")
    if not any(isinstance(n, ast.ClassDef) and any(
            getattr(b, "id", "") == "CMakePackage" for b in n.bases) for n in ast.walk(tree)):
        failures.append("no CMakePackage class")
    for f in failures:
        print("FAIL:", f)
    print(f"variants {sorted(variants)}, depends on {sorted(deps)}: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
