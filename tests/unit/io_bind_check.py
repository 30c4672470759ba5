#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""IMB-IO's blocking transfers are bound when the program loads, as in IMB 3.1.

IMB 3.1 calls MPI_File_read, MPI_File_write_all, ... through function pointers (IMB_read.c,
IMB_write.c), so its executable refers to them by address - a GLOB_DAT relocation, which the
dynamic linker resolves at load - and never through a lazily bound PLT slot, whose first call
pays the symbol lookup. mpibench does the same (src/imb/imb_io.c, struct io_calls); with plain
calls that lookup fell into the first timed loop of each function (docs/figures.md, "IMB-IO's
first calls"). This test reads the relocations of the built binary: every one of these
functions (and MPI_Get_count, which mpibench's kernels call) must have a GLOB_DAT relocation.

Usage: io_bind_check.py MPIBENCH. Exit 77 (skipped) without readelf, for a binary that is not
a position-independent ELF executable (there a taken address is the PLT slot), or for a static
build.
"""
import shutil
import subprocess
import sys

FUNCS = ["MPI_File_" + f for f in (
    "write", "write_at", "write_shared", "write_all", "write_at_all", "write_ordered",
    "read", "read_at", "read_shared", "read_all", "read_at_all", "read_ordered")] + ["MPI_Get_count"]


def main():
    exe = sys.argv[1]
    readelf = shutil.which("readelf")
    if not readelf:
        print("SKIP: no readelf")
        return 77
    header = subprocess.run([readelf, "-h", exe], capture_output=True, text=True)
    if header.returncode != 0 or "DYN" not in header.stdout:
        print("SKIP: not a position-independent ELF executable")
        return 77
    relocs = subprocess.run([readelf, "-rW", exe], capture_output=True, text=True, check=True).stdout
    kinds = {}
    for line in relocs.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[2].startswith("R_"):
            kinds.setdefault(parts[4].split("@")[0], set()).add(parts[2])
    if not any(f in kinds for f in FUNCS):
        print("SKIP: the MPI library is not linked dynamically")
        return 77
    bad = [f"{f}: {sorted(kinds.get(f, set())) or 'no relocation'}" for f in FUNCS
           if not any(k.endswith("GLOB_DAT") for k in kinds.get(f, set()))]
    if bad:
        print("not bound at load (no GLOB_DAT relocation):\n  " + "\n  ".join(bad))
        return 1
    print(f"ok: {len(FUNCS)} functions bound at load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
