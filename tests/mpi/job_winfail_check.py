#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The main job when the MPI library refuses a window: IMB-EXT fails, the job goes on.

Open MPI 4.1 forced onto TCP (`--mca pml ob1 --mca btl tcp,self`) cannot create a window with
its default one-sided component (osc/rdma: MPI_Win_create returns MPI_ERR_WIN). Runs
`mpiexec --mca pml ob1 --mca btl tcp,self -np N mpibench ARGS --output-dir res` and checks
the rule of docs/main-job.md ("A phase that fails"), which used to end here with MPI_Abort of
the whole job at IMB-EXT:

- the job's exit status is 1 ("a phase failed"), without MPI_Abort;
- summary.txt has IMB-EXT "FAILED (1)" with the window message under its row, index.html the
  same status with the message beside it, results.jsonl IMB-EXT's job_phase with exit status 1
  and the message as its error; the message is on stderr once (rank 0), not once per process;
- the phase after IMB-EXT ran (IMB-IO "ok", its text file there; ctest skips com, laten,
  IMB-MPI1, b_eff and b_eff_io with --skip to keep the run short), and no phase is left "not
  finished" or "pending";
- the scratch directory (res/io-scratch) is gone.

Skipped (status 77) with another launcher than Open MPI's (MPICH creates windows over any
transport), and when this Open MPI creates windows over TCP (IMB-EXT "ok": nothing to test).

Usage: job_winfail_check.py --mpiexec CMD --np N --bin PATH -- ARGS
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from html import unescape

SKIP = 77
TCP = ["--mca", "pml", "ob1", "--mca", "btl", "tcp,self"]
WINDOW = r"cannot create an MPI window \(MPI_Win_create of \d+ bytes on \d+ processes\): \S"
LATER = ("IMB-IO",)  # the phases after IMB-EXT that the test runs (the others: --skip)


def open_mpi(mpiexec):
    """Whether the launcher is Open MPI's (the TCP setting is its MCA parameters)."""
    try:
        ver = subprocess.run(shlex.split(mpiexec)[:1] + ["--version"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return re.search(r"Open MPI|OpenRTE", ver.stdout + ver.stderr) is not None


def check(status, err, res):
    problems = []
    try:
        with open(os.path.join(res, "summary.txt")) as f:
            summary = f.read()
        with open(os.path.join(res, "index.html")) as f:
            html = unescape(f.read())
        with open(os.path.join(res, "results.jsonl")) as f:
            records = [json.loads(l) for l in f.read().splitlines()]
    except (OSError, ValueError) as e:
        return [f"the job's files are missing or broken: {e}"], False
    phases = {r["program"]: r for r in records if r.get("type") == "job_phase"}
    ext = phases.get("IMB-EXT", {})
    if ext.get("exit_status") == 0:
        return [], True  # windows work over TCP here
    if status != 1:
        problems.append(f"exit status {status}, expected 1 (a phase failed, docs/main-job.md)")
    if "MPI_ABORT" in err.upper():
        problems.append("the job was aborted (MPI_Abort)")
    lines = summary.splitlines()
    row = next((i for i, l in enumerate(lines) if re.match(r"# \d+/\d+ IMB-EXT:", l)), None)
    if row is None or "FAILED (1)" not in lines[row]:
        problems.append("summary.txt: IMB-EXT is not 'FAILED (1)'")
    elif row + 1 >= len(lines) or not re.search(WINDOW, lines[row + 1]):
        problems.append("summary.txt: no window message under IMB-EXT's row")
    if not re.search(r"<tr><td>IMB-EXT:[^<]*</td><td>FAILED \(1\)<br><span class=\"why\">"
                     r"[^<]*" + WINDOW, html):
        problems.append("index.html: IMB-EXT is not 'FAILED (1)' with the window message")
    if ext.get("exit_status") != 1 or not re.search(WINDOW, ext.get("error", "")):
        problems.append(f"results.jsonl: IMB-EXT's job_phase lacks status 1 or the message: {ext}")
    said = len(re.findall(WINDOW, err))
    if said != 1:
        problems.append(f"the window message is on stderr {said} times, expected once")
    for prog in LATER:
        rec = phases.get(prog)
        if rec is None or rec.get("exit_status") != 0:
            problems.append(f"{prog} (after IMB-EXT) did not run to 'ok': {rec}")
        elif not os.path.exists(os.path.join(res, f"{prog}.txt")):
            problems.append(f"{prog}.txt is missing")
    for word in ("not finished", "pending"):
        if word in summary:
            problems.append(f"summary.txt: a phase is still '{word}' at the end")
    if not records or records[-1].get("type") != "summary" or \
            records[-1].get("exit_status") != 1:
        problems.append("results.jsonl does not end with the job's summary (status 1)")
    if os.path.exists(os.path.join(res, "io-scratch")):
        problems.append(f"the scratch directory is left: {os.listdir(os.path.join(res, 'io-scratch'))}")
    return problems, False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--timeout", type=float, default=280)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    if not open_mpi(opts.mpiexec):
        print("skipped: the TCP setting is Open MPI's (MPICH creates windows over any transport)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="mb-winfail-") as cwd:
        res = os.path.join(cwd, "res")
        cmd = (shlex.split(opts.mpiexec) + TCP + ["-np", str(opts.np), os.path.abspath(opts.bin)]
               + args + ["--output-dir", "res"])
        try:
            run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                 timeout=opts.timeout)
        except subprocess.TimeoutExpired as e:
            print(f"FAILED: no exit within {opts.timeout} s (a hang?)\ncommand: {shlex.join(cmd)}\n"
                  f"--- stderr\n{(e.stderr or b'')[-3000:]!r}")
            return 1
        problems, works = check(run.returncode, run.stderr, res)
        if works:
            print("skipped: this Open MPI creates windows over TCP (IMB-EXT ran): nothing to test")
            return SKIP
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{run.stdout[-3000:]}--- stderr\n{run.stderr[-3000:]}")
            return 1
        print("ok: " + " | ".join(l.strip()[:200] for l in run.stderr.splitlines()
                                  if "error:" in l))
    return 0


if __name__ == "__main__":
    sys.exit(main())
