#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run one case of a bad-input table (bad_input.tsv) and check the error path.

A case passes when the program, started under mpiexec with --np processes in an empty
directory, exits with the expected status within --limit seconds, prints the expected
message fragment on stderr exactly once, as one "<program>: error: ..." line (so from one rank
only), runs no benchmark, and leaves no file behind.
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
from mbcheck import create_files, listing  # noqa: E402  (shared with the MPI checkers)


def expand(args):
    """{c*N} in the arguments and files stands for the character c N times (a path too long
    to write, a line too long to read), \\xNN for the byte NN (a control character)."""
    args = re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), args)
    return re.sub(r"\{(.)\*(\d+)\}", lambda m: m.group(1) * int(m.group(2)), args)


def load_rows(table):
    """Every case of the table: id -> its six fields."""
    rows = {}
    with open(table) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6:
                raise SystemExit(f"{table}: malformed line {line!r}")
            rows[fields[0]] = fields
    return rows


def load_case(table, case_id):
    rows = load_rows(table)
    if case_id not in rows:
        raise SystemExit(f"{table}: no case {case_id!r}")
    return rows[case_id]


def snapshot(cwd, paths):
    """The content of each regular file among paths (relative to cwd): bad input must not
    touch the user's files (IMB-IO's scratch names, b_eff_io's)."""
    out = {}
    for p in paths:
        full = os.path.join(cwd, p)
        if os.path.isfile(full) and not os.path.islink(full):
            with open(full, "rb") as f:
                out[p] = f.read()
    return out


def problems_of(statuses, stdout, stderr, prog, fragment, status, cwd, before, contents):
    """What is wrong with one run of a case: statuses holds the exit status of the launch (one
    number) or of every rank (run_cli_batch.py), stdout and stderr all the processes' text.
    Returns (problems, the one error line or None)."""
    problems = []
    for code in sorted(set(statuses)):
        if code != int(status):
            problems.append(f"exit status {code}, expected {status}")
    prefix = ("mpibench" if prog == "mpibench" or prog.startswith("mpibench ") else prog)
    errors = [l for l in stderr.splitlines() if l.startswith(f"{prefix}: error: ")]
    if len(errors) != 1:
        problems.append(f"{len(errors)} '{prefix}: error:' lines on stderr, expected 1")
    elif fragment not in errors[0]:
        problems.append(f"message {errors[0]!r} lacks {fragment!r}")
    if "# Benchmarking" in stdout:
        problems.append("a benchmark ran")
    left = listing(cwd) - before
    if left:
        problems.append(f"files left behind: {sorted(left)}")
    changed = [p for p, c in contents.items() if snapshot(cwd, [p]).get(p) != c]
    if changed:
        problems.append(f"files the test created were changed or removed: {sorted(changed)}")
    return problems, errors[0] if len(errors) == 1 else None


def run_one(fields, mpiexec, np, bindir, limit):
    """Runs one case in its own launch; returns (passed, report)."""
    case_id, prog, args, files, fragment, status = fields
    with tempfile.TemporaryDirectory(prefix="mb-cli-") as cwd:
        create_files(cwd, filter(None, expand(files).split(";")))
        before = listing(cwd)
        contents = snapshot(cwd, before)
        cmd = (shlex.split(mpiexec) + ["-np", str(np),
                                       os.path.join(os.path.abspath(bindir), prog)] +
               shlex.split(expand(args)))
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                  timeout=limit)
        except subprocess.TimeoutExpired:
            return False, f"FAILED: {case_id}: no exit within {limit} s (hang?)\n{shlex.join(cmd)}"
        elapsed = time.monotonic() - start
        problems, error = problems_of([proc.returncode], proc.stdout, proc.stderr, prog,
                                      fragment, status, cwd, before, contents)
        if problems:
            return False, (f"FAILED: {case_id} with {np} processes: " + "; ".join(problems) +
                           f"\ncommand: {shlex.join(cmd)}\n--- stdout\n{proc.stdout[-3000:]}"
                           f"--- stderr\n{proc.stderr[-3000:]}")
        return True, f"ok: {case_id} ({np} processes, {elapsed:.2f} s): {error}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--mpiexec", required=True, help="launcher and its flags, one string")
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bindir", required=True, help="directory holding mpibench and its links")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds the error may take")
    opts = ap.parse_args()

    passed, report = run_one(load_case(opts.table, opts.case), opts.mpiexec, opts.np,
                             opts.bindir, opts.limit)
    print(report)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
