#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-IO on a file system that fills up and check the run-time error path.

Mounts a 256 kB tmpfs (needs root and mount rights; otherwise the test is skipped with status
77), runs the program with --dir there and lengths that do not fit, and checks: exit status 1,
a run-time error naming a scratch file in that directory and the full disk (a short write
or "No space left on device"; one per process that hit it), no row for the length that failed (never a bandwidth from a
short transfer), and the directory empty afterwards (the scratch files are removed on the
error path, mb_die).

Usage: io_diskfull_check.py --mpiexec CMD --np N --bin PATH -- ARGS (without --dir)
"""
import argparse
import contextlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

SKIP = 77


def unmount(path):
    """The aborted job's last processes may still hold files there for a moment: retry, then
    detach lazily so that nothing stays mounted."""
    for _ in range(20):
        if subprocess.run(["umount", path], capture_output=True).returncode == 0:
            return
        time.sleep(0.25)
    subprocess.run(["umount", "-l", path], capture_output=True)


@contextlib.contextmanager
def small_tmpfs(prefix, size):
    """A new temporary directory with a tmpfs of `size` (mount's "256k", "1m") mounted at
    its "small", unmounted on leaving: yields (directory, tmpfs path), or None after printing
    why it cannot be mounted here (the caller then returns SKIP)."""
    if os.geteuid() != 0:
        print("skipped: mounting a small tmpfs needs root")
        yield None
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as cwd:
        small = os.path.join(cwd, "small")
        os.mkdir(small)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", small],
                               capture_output=True, text=True)
        if mount.returncode != 0:
            print(f"skipped: cannot mount a tmpfs here: {mount.stderr.strip()}")
            yield None
            return
        try:
            yield cwd, small
        finally:
            unmount(small)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with small_tmpfs("mb-io-full-", "256k") as where:
        if where is None:
            return SKIP
        cwd, small = where
        with open(os.path.join(cwd, "L"), "w") as f:
            f.write("0\n4096\n1048576\n4194304\n")
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args + ["-msglen", "L", "--dir", small])
        try:
            proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                  timeout=opts.timeout)
        except subprocess.TimeoutExpired:
            print(f"FAILED: no exit within {opts.timeout} s\ncommand: {shlex.join(cmd)}")
            return 1
        left = os.listdir(small)
        problems = []
        if proc.returncode != 1:
            problems.append(f"exit status {proc.returncode}, expected 1")
        errors = [l for l in proc.stderr.splitlines() if "run-time error:" in l]
        want = re.compile(r"'" + re.escape(small) + r"/IMB_out[^']*'.*"
                          r"(is the file system full\?|[Nn]o space left on device)", re.S)
        # The MPI library's own text may continue on the next line (MPICH's error stack).
        tail = proc.stderr[proc.stderr.find("run-time error:"):][:1000]
        # Every process that hits the full disk reports it (mb_die on that rank).
        if not errors or len(errors) > opts.np or not want.search(tail):
            problems.append(f"expected a run-time error naming the file and the full disk "
                            f"(one per failing process), got {errors}")
        # Several processes fail at once: each message is one whole line of its own (they
        # used to be written in pieces that could interleave).
        prog = re.escape(os.path.basename(opts.bin))  # errors name the program started
        mixed = [l for l in errors if not re.match(rf"{prog} \(rank \d+\): run-time error: ", l)
                 or l.count("run-time error:") != 1]
        if mixed:
            problems.append(f"run-time error lines mixed with other text: {mixed}")
        rows = [l.split() for l in proc.stdout.splitlines() if re.match(r"^ +\d", l)]
        if any(r[0] in ("1048576", "4194304") for r in rows):
            problems.append("a row was printed for a length that did not fit")
        if left:
            problems.append(f"scratch files left in the full directory: {left}")
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{proc.stdout[-3000:]}--- stderr\n{proc.stderr[-3000:]}")
            return 1
        print(f"ok: {errors[0].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
