#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A killed run's temporary protocol files do not stop the next run, and stay untouched.

A run killed outright (SIGKILL to every process, janitor included, or a SimGrid simulation,
where getpid() is the same in every run) leaves PREFIX.EXT.tmp<pid>; a later run whose rank 0
gets that pid used to stop with status 2 ("scratch file ... already exists"). Each process is
started through `sh -c '...; exec BIN ARGS'`, so the shell's pid is the program's: the shell
first writes PREFIX.EXT.tmp<its pid> for every --ext, as a killed run would have left them.
The run must end with status 0, write every PREFIX.EXT, keep each stale file with its bytes,
and leave no other temporary file. --pid N (the SimGrid SMPI build, whose getpid() is the
simulated process's, 1 for rank 0 in every run): no shell; the stale files are PREFIX.EXT.tmpN.

Usage: stale_temp_check.py --mpiexec CMD --np N --bin PATH --prefix P --ext E ... [--pid N]
                           -- ARGS
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

STALE = "left by a killed run\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--ext", action="append", required=True)
    ap.add_argument("--pid", type=int)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = [x for x in a.args if x != "--"]
    touch = "; ".join(f"printf '{STALE.strip()}\\n' > {shlex.quote(a.prefix + e)}.tmp$$"
                      for e in a.ext)
    script = f"{touch}; exec {shlex.quote(a.bin)} " + " ".join(shlex.quote(x) for x in args)
    with tempfile.TemporaryDirectory() as d:
        cmd = shlex.split(a.mpiexec) + ["-np", str(a.np), "sh", "-c", script]
        stale_count = a.np * len(a.ext)
        if a.pid is not None:
            for e in a.ext:
                with open(os.path.join(d, f"{a.prefix}{e}.tmp{a.pid}"), "w") as f:
                    f.write(STALE)
            cmd = shlex.split(a.mpiexec) + ["-np", str(a.np), a.bin] + args
            stale_count = len(a.ext)
        p = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=240)
        names = sorted(os.listdir(d))
        stale = [n for n in names if ".tmp" in n]
        problems = []
        if p.returncode != 0:
            problems.append(f"status {p.returncode}, expected 0; stderr:\n{p.stderr[-2000:]}")
        for e in a.ext:
            if a.prefix + e not in names:
                problems.append(f"{a.prefix + e} was not written")
        if len(stale) != stale_count:
            problems.append(f"temporary files after the run: {stale}, expected only the "
                            f"{stale_count} stale ones")
        for n in stale:
            with open(os.path.join(d, n)) as f:
                if f.read() != STALE:
                    problems.append(f"the stale file {n} was changed")
        if problems:
            print("\n".join(problems) + f"\ndirectory: {names}")
            return 1
        print(f"status 0, {len(a.ext)} protocol files written, {len(stale)} stale files kept")
        return 0


if __name__ == "__main__":
    sys.exit(main())
