# SPDX-License-Identifier: BSD-3-Clause
"""IMB-IO's write benchmarks leave the MPI library's read path unbound, as IMB 3.1's do.

IMB 3.1 reads nothing before its first read benchmark, whose first loop with data pays the
dynamic linker's first binding of the library's read path (MPICH's S_Read_Indv at 1 KiB: about
10 us, 0.2 us a repetition). mpibench checks after every write loop that the last bytes
arrived; that check must not read through MPI-IO, or the binding would move out of mpibench's
read loop (docs/figures.md, "S_Read_Indv at 1 KiB on MPICH"; src/imb/imb_io.c,
mb_imb_io_written). With the dynamic linker's LD_DEBUG=bindings:
  1. S_Write_Indv and S_IWrite_Indv (with their checks): no object of the MPI library (a
     shared object whose path has mpi, mpich or ompi in it: libmpich, Open MPI's
     mca_fbtl_posix, ...) binds pread/pread64/preadv;
  2. S_Read_Indv: one does (the detector sees the binding where the program reads).
Exits 77 (skipped) where the dynamic linker writes no LD_DEBUG output (not glibc, static).

Usage: io_read_binding_check.py --mpiexec CMD --bin PATH/IMB-IO
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

# A shared object of the MPI library (the program itself, whose own check may call pread, is no
# shared object, whatever its directory is called).
# The function comes from libc, or from the sanitizer's runtime that intercepts it (ASan).
LIB = re.compile(r"binding file (\S*(?:mpi|mpich|ompi)\S*\.so[.\d]*) \[\d+\] to \S+ "
                 r"\[\d+\]: normal symbol `(pread|pread64|preadv|preadv2)'", re.I)


def bindings(mpiexec, binary, names, work):
    out = os.path.join(work, "ld")
    for f in glob.glob(out + ".*"):
        os.unlink(f)
    with open(os.path.join(work, "L"), "w") as f:
        f.write("0\n1024\n")
    env = dict(os.environ, LD_DEBUG="bindings", LD_DEBUG_OUTPUT=out)
    cmd = shlex.split(mpiexec) + ["-np", "1", binary, "-msglen", "L", "--dir", "."] + names
    p = subprocess.run(cmd, cwd=work, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)} ended with status {p.returncode}: {p.stderr[-2000:]}")
    found, files = [], glob.glob(out + ".*")
    for path in files:
        with open(path, errors="replace") as f:
            found += [m.group(1) + " " + m.group(2) for m in map(LIB.search, f) if m]
    return files, found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--bin", required=True)
    opts = ap.parse_args()
    binary = os.path.abspath(opts.bin)
    with tempfile.TemporaryDirectory(prefix="io_read_binding.", dir=os.getcwd()) as work:
        files, writes = bindings(opts.mpiexec, binary, ["S_Write_Indv", "S_IWrite_Indv"], work)
        if not files:
            print("skipped: the dynamic linker wrote no LD_DEBUG output")
            return 77
        _, reads = bindings(opts.mpiexec, binary, ["S_Read_Indv"], work)
    problems = []
    if writes:
        problems.append("the write benchmarks bound the MPI library's read path: "
                        + "; ".join(sorted(set(writes))))
    if not reads:
        problems.append("S_Read_Indv bound no read function of the MPI library: the check "
                        "cannot see the binding on this system")
    for p in problems:
        print("FAILED:", p)
    if not problems:
        print(f"ok: no read binding in the write benchmarks; S_Read_Indv: {sorted(set(reads))[0]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
