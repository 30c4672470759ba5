#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Make one kind of result write fail and check that the run says so (issue: silent write
failures ended with status 0 and cut or empty files).

Cases:
  stdout-full    every rank's stdout is /dev/full
  stdout-closed  every rank starts with stdout closed
  json-full      --json on a small full tmpfs (root only; else skipped, status 77)
  textcopy-full  --output-dir on a small full tmpfs (root only)
  protocol-full  b_eff/b_eff_io -f on a small full tmpfs (root only)

A case passes when the job ends within --limit seconds with status 1 and exactly one
"run-time error: cannot write <what>: <reason>" line on stderr naming the stream; for the
tmpfs cases also: the JSON file holds only whole, valid records (cut back to the last one),
no temporary protocol file is left, and the file the test put next to them is unchanged.

Usage: write_fail_check.py --case CASE --mpiexec CMD --np N --bin PATH -- ARGS
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from io_diskfull_check import SKIP, small_tmpfs  # noqa: E402
from mbcheck import jsonl_cut_problems, launcher_crashed_after_abort  # noqa: E402

# What each case writes where, and how the message must name it.
EXPECT = {
    "stdout-full": (r"standard output", r"No space left on device"),
    "stdout-closed": (r"standard output", r"Bad file descriptor"),
    "json-full": (r"the --json file '[^']*/small/r\.jsonl'", r"No space left on device"),
    "textcopy-full": (r"the text copy '[^']*/small/out/[A-Za-z_0-9-]+\.txt'",
                      r"No space left on device|an earlier write failed"),
    "protocol-full": (r"the protocol file '[^']*/small/p\.[a-z]+'",
                      r"No space left on device|an earlier write failed"),
}


def run(cmd, cwd, limit):
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired as e:
        said = [x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
                for x in (e.stdout, e.stderr)]
        print(f"FAILED: no exit within {limit} s (hang?)\n{shlex.join(cmd)}\n"
              f"--- stdout\n{said[0][-3000:]}--- stderr\n{said[1][-3000:]}")
        sys.exit(1)
    return proc, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(EXPECT))
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--size", help="tmpfs size for the *-full cases (default 8k; json-full 16k: "
                    "the JSON header, with the hardware and MPICH's build report, may take two "
                    "pages)")
    ap.add_argument("--limit", type=float, default=60,
                    help="seconds; below ctest's TIMEOUT, so that a hang prints what the run said")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    launcher = shlex.split(opts.mpiexec) + ["-np", str(opts.np)]
    prog = os.path.abspath(opts.bin)
    what, reason = EXPECT[opts.case]
    problems = []

    if opts.case.startswith("stdout"):
        redirect = ">/dev/full" if opts.case == "stdout-full" else ">&-"
        with tempfile.TemporaryDirectory(prefix="mb-wfail-") as cwd:
            cmd = launcher + ["sh", "-c", f"exec {shlex.join([prog] + args)} {redirect}"]
            proc, elapsed = run(cmd, cwd, opts.limit)
            left = os.listdir(cwd)
            if left:
                problems.append(f"files left behind: {sorted(left)}")
    else:
        size = opts.size or ("16k" if opts.case == "json-full" else "8k")
        with small_tmpfs("mb-wfail-", size) as where:
            if where is None:
                return SKIP
            cwd, small = where
            # A file of the user's beside the outputs: never touched.
            keep = os.path.join(small, "keep.txt")
            with open(keep, "w") as f:
                f.write("the user's file\n")
            extra = {"json-full": ["--json", os.path.join(small, "r.jsonl")],
                     # The JSON elsewhere: the text copy alone fills the tmpfs (the JSON
                     # header, written first, could take its pages under MPICH).
                     "textcopy-full": ["--output-dir", os.path.join(small, "out"),
                                       "--json", os.path.join(cwd, "r.jsonl")],
                     "protocol-full": ["-f", os.path.join(small, "p")]}[opts.case]
            cmd = launcher + [prog] + args + extra
            proc, elapsed = run(cmd, cwd, opts.limit)
            if opts.case == "json-full":
                cut, n = jsonl_cut_problems(os.path.join(small, "r.jsonl"))
                problems += cut
                print(f"r.jsonl holds {n} whole records")
            names = os.listdir(small)
            temps = [n for n in names if ".tmp" in n]
            if temps:
                problems.append(f"temporary files left: {temps}")
            with open(keep) as f:
                if f.read() != "the user's file\n":
                    problems.append("keep.txt was changed")
    if proc.returncode != 1 and not launcher_crashed_after_abort(1, proc.returncode,
                                                                  proc.stderr):
        problems.append(f"exit status {proc.returncode}, expected 1")
    errors = [l for l in proc.stderr.splitlines() if "run-time error: " in l]
    pattern = re.compile(rf"run-time error: cannot write (?:{what}): (?:{reason})$")
    if len(errors) != 1:
        problems.append(f"{len(errors)} run-time error lines on stderr, expected 1")
    elif not pattern.search(errors[0]):
        problems.append(f"message {errors[0]!r} does not match {pattern.pattern!r}")
    if problems:
        print(f"FAILED: {opts.case}: " + "; ".join(problems))
        print(f"command: {shlex.join(cmd)}\n--- stdout\n{proc.stdout[-3000:]}"
              f"--- stderr\n{proc.stderr[-3000:]}")
        return 1
    print(f"ok: {opts.case} ({elapsed:.2f} s): {errors[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
