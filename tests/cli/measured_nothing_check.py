#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs that measure nothing do not report success (docs/adr/measured-nothing.md).

--case singleton: `MPIEXEC -np 1 IMB-MPI1 PingPong` (a pair benchmark on one process) ends with
status 1 and "nothing was measured (every benchmark was skipped...)", and its JSON summary says
so. --case launcher: the other MPI's launcher (--other, e.g. mpiexec.mpich for an Open MPI
build) starts 2 processes that each initialise MPI alone: every process warns that the launcher
started 2 processes but MPI_COMM_WORLD has 1, naming the variable, and a pair benchmark ends
with status 1 and "nothing was measured (each process a job of its own...)"; skipped (77)
when no other launcher is installed.

Usage: measured_nothing_check.py --case singleton|launcher --mpiexec CMD --bin IMB-MPI1
                                 [--other CMD]
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", choices=("singleton", "launcher"), required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--other", default="")
    opts = ap.parse_args()
    if opts.case == "launcher":
        other = shlex.split(opts.other)
        if not other or not shutil.which(other[0]):
            print(f"skipped: no other MPI's launcher ({opts.other!r}) on this machine")
            return 77
        cmd = other + ["-np", "2"]
    else:
        cmd = shlex.split(opts.mpiexec) + ["-np", "1"]
    cmd += [os.path.abspath(opts.bin), "PingPong", "--json", "r.jsonl"]
    problems = []
    with tempfile.TemporaryDirectory(prefix="mb-nothing-") as cwd:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
        if proc.returncode == 0:
            problems.append("exit status 0 although nothing was measured")
        if opts.case == "singleton":
            want = "IMB-MPI1: run-time error: nothing was measured (every benchmark was skipped"
            if want not in proc.stderr:
                problems.append(f"stderr lacks {want!r}")
            if "warning: the launcher" in proc.stderr:
                problems.append("a launcher warning although the launcher was right")
            try:
                with open(os.path.join(cwd, "r.jsonl")) as f:
                    last = json.loads(f.read().splitlines()[-1])
                if last.get("type") != "summary" or last.get("exit_status") != 1 or \
                        "nothing was measured" not in last.get("error", ""):
                    problems.append(f"JSON summary: {last}")
            except (OSError, ValueError, IndexError) as e:
                problems.append(f"r.jsonl: {e}")
        else:
            warn = [l for l in proc.stderr.splitlines()
                    if "IMB-MPI1: warning: the launcher started 2 processes (" in l and
                    "but MPI_COMM_WORLD has 1" in l]
            if len(warn) != 2:
                problems.append(f"{len(warn)} launcher warnings, expected one per process")
            if "nothing was measured (each process a job of its own" not in proc.stderr:
                problems.append("no 'nothing was measured' naming the launcher")
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stderr\n{proc.stderr[-3000:]}")
            return 1
    print(f"ok: status {proc.returncode}; {opts.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
