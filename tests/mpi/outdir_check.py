#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run a program with --output-dir DIR (a directory that does not exist yet) and check that
the run succeeds, creates DIR with every --creates file non-empty, that DIR/<name>.txt equals
stdout, that the JSON file holds whole records from a header to a summary, and that nothing
else appears in the working directory.

Usage: outdir_check.py --mpiexec CMD --np N --bin PATH --name NAME [--creates F]... -- ARGS
(ARGS without --output-dir; DIR is "out")
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mbcheck import jsonl_cut_problems  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--name", required=True, help="the program's name: out/NAME.txt, .jsonl")
    ap.add_argument("--creates", action="append", default=[], help="a file below out/")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory(prefix="mb-outdir-") as cwd:
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args + ["--output-dir", "out"])
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=240)
        problems = []
        if proc.returncode != 0:
            problems.append(f"exit status {proc.returncode}")
        out = os.path.join(cwd, "out")
        for f in [f"{opts.name}.txt", f"{opts.name}.jsonl"] + opts.creates:
            p = os.path.join(out, f)
            if not os.path.isfile(p) or os.path.getsize(p) == 0:
                problems.append(f"out/{f} missing or empty")
        txt = os.path.join(out, f"{opts.name}.txt")
        if os.path.isfile(txt) and open(txt).read() != proc.stdout:
            problems.append(f"out/{opts.name}.txt differs from stdout")
        cut, n = jsonl_cut_problems(os.path.join(out, f"{opts.name}.jsonl"))
        problems += cut
        if n and '"type":"summary"' not in open(os.path.join(out, f"{opts.name}.jsonl")).read():
            problems.append("no summary record")
        if sorted(os.listdir(cwd)) != ["out"]:
            problems.append(f"files outside out/: {sorted(os.listdir(cwd))}")
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stderr\n{proc.stderr[-3000:]}")
            return 1
        print(f"ok: out/ holds {sorted(os.listdir(out))}; {n} JSON records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
