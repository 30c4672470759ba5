#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The main job with --io-dir on a small file system: an I/O phase fails, the job goes on.

Mounts a tmpfs (needs root and mount rights; otherwise the test is skipped with status 77) and
runs `mpibench run ARGS --io-dir SMALL --output-dir res`:

--mode refuse (4 MB): neither b_eff_io's nor IMB-IO's scratch files fit. Both phases are
    refused by their space checks (status 2) and the job goes on: IMB-IO runs after the failed
    b_eff_io phase and is refused in its turn.
--mode fill (100 MB, which both fit): two faults in one job. Once b_eff_io's first scratch file
    exists the test stops the processes, removes b_eff_io's files from the job's scratch
    directory, as a careless user would, and lets them go on: the next open of a removed file
    fails, and b_eff_io ends with its agreed run-time error (status 1) naming the file, not with
    MPI_Abort of the job; its protocol so far is kept as b_eff_io.prot.interrupted ending with
    the reason. Then, once IMB-IO's text file exists (after its space check, before its first
    scratch file), the test stops the processes again, fills the tmpfs with a file of its own,
    as another job would, and lets them go on: IMB-IO, which ran after the failed phase, ends
    with its agreed run-time error (status 1) too.

Both: the job's exit status is 1 (a phase failed, docs/main-job.md), no MPI_Abort; summary.txt
has every phase with its final status (the earlier ones "ok", none "not finished" or
"pending"), the failed phases' reasons under them and the headline numbers; index.html lists
the phases with the same statuses and the failed ones' reasons; results.jsonl has a job_phase
record with the error for each failed phase, the job_result and the job's summary; the earlier
phases' text files are there;
the tmpfs holds nothing of the run (fill: only the test's file, unchanged).

Usage: job_diskfull_check.py --mpiexec CMD --np N --bin PATH --mode refuse|fill -- ARGS
"""
import argparse
import glob
import json
import os
import re
from html import unescape
import shlex
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from io_diskfull_check import (SKIP, filler_changed, finish, leftovers,  # noqa: E402
                               ranks, small_tmpfs, stop_and_fill)

SPACE = r"the scratch files need at least [0-9.]+ MB in '[^']*small/mpibench-io-[^']*' .*free"
FULL = r"'[^']*small/mpibench-io-[^']*/IMB_out[^']*'.*(file system full\?|[Nn]o space left)"
GONE = r"'[^']*small/mpibench-io-[^']*/b_eff_io_data_[^']*'.*[Nn]o such file or directory"


def expected(mode, skipped=()):
    """Phase program -> (status word in summary.txt, reason pattern or None); the phases the
    job's --skip names: ("skipped", None)."""
    want = {p: ("skipped" if p in skipped else "ok", None)
            for p in ("com", "laten", "IMB-MPI1", "IMB-EXT", "b_eff")}
    if mode == "refuse":
        want["b_eff_io"] = ("FAILED (2)", SPACE)
        want["IMB-IO"] = ("FAILED (2)", SPACE)
    else:
        want["b_eff_io"] = ("FAILED (1)", GONE)
        want["IMB-IO"] = ("FAILED (1)", FULL)
    return want


def check(mode, status, out, err, res, small, removed, filled, skipped=()):
    problems = []
    if status != 1:
        problems.append(f"exit status {status}, expected 1 (a phase failed)")
    if "MPI_ABORT" in err.upper():
        problems.append("the job was aborted (MPI_Abort)")
    want = expected(mode, skipped)
    try:
        with open(os.path.join(res, "summary.txt")) as f:
            summary = f.read()
        with open(os.path.join(res, "index.html")) as f:
            html = f.read()
        with open(os.path.join(res, "results.jsonl")) as f:
            records = [json.loads(l) for l in f.read().splitlines()]
    except (OSError, ValueError) as e:
        return problems + [f"the job's files are missing or broken: {e}"]
    lines = summary.splitlines()
    for word in ("not finished", "pending"):
        if word in summary or f"<td>{word}</td>" in html:
            problems.append(f"a phase is still '{word}' at the end")
    phases = {r["program"]: r for r in records if r.get("type") == "job_phase"}
    for prog, (word, reason) in want.items():
        rec = phases.get(prog)
        if rec is None:
            problems.append(f"no job_phase record for {prog}")
            continue
        title = {"com": "Presta com:", "laten": "Presta laten:"}.get(prog, prog + ":")
        row = next((i for i, l in enumerate(lines)
                    if re.match(rf"# \d+/\d+ {re.escape(title)}", l)), None)
        if row is None or word not in lines[row]:
            problems.append(f"summary.txt: {prog} is not '{word}'")
        html_row = re.search(rf"<tr><td>{re.escape(title)}[^<]*</td><td>([^<]*)"
                             r'(?:<br><span class="why">([^<]*)</span>)?</td>', html)
        if not html_row or html_row.group(1) != word:
            problems.append(f"index.html: {prog} is not '{word}'")
        elif reason is not None and not re.search(reason, unescape(html_row.group(2) or "")):
            problems.append(f"index.html: no reason beside {prog}'s status")
        if word == "skipped":
            if rec.get("skipped") != "--skip names it":
                problems.append(f"{prog} is not skipped by --skip: {rec}")
            continue
        if reason is None:
            if "error" in rec or rec.get("exit_status") != 0:
                problems.append(f"{prog} did not succeed: {rec}")
            if not os.path.exists(os.path.join(res, f"{prog}.txt")):
                problems.append(f"{prog}.txt is missing")
            continue
        if rec.get("exit_status") != int(word[-2]) or \
                not re.search(reason, rec.get("error", ""), re.S):
            problems.append(f"results.jsonl: {prog}'s job_phase lacks its status or reason: {rec}")
        if row is not None and (row + 1 >= len(lines) or not re.search(reason, lines[row + 1])):
            problems.append(f"summary.txt: no reason under {prog}'s row")
    if not any(r.get("type") == "job_result" for r in records):
        problems.append("results.jsonl has no job_result")
    if records[-1].get("type") != "summary" or records[-1].get("exit_status") != 1:
        problems.append(f"results.jsonl does not end with the job's summary (status 1): "
                        f"{records[-1]}")
    if "Headline numbers:" not in summary or \
            ("b_eff" not in skipped and not re.search(r"b_eff +[0-9.]+ MB/s", summary)):
        problems.append("summary.txt lacks the headline numbers")
    left = leftovers(small)
    if left:
        problems.append(f"left in the --io-dir: {left}")
    if mode == "fill":
        try:
            with open(os.path.join(res, "b_eff_io.prot.interrupted")) as f:
                tail = f.read().rstrip("\n").split("\n")[-1]
            if not re.match(r"# stopped by an I/O error: b_eff_io \w+ pass, .*" + GONE, tail):
                problems.append(f"b_eff_io's protocol does not end with the reason: {tail!r}")
        except OSError as e:
            problems.append(f"b_eff_io's protocol so far is not kept: {e}")
    if mode == "fill":
        changed = filler_changed(small, filled) if filled is not None else None
        if removed is None:
            problems.append("the b_eff_io phase never made its scratch files")
        if filled is None:
            problems.append("the IMB-IO phase never started")
        elif changed:
            problems.append(changed)
    return problems


def stop_and_remove_beffio(proc, binary, cwd, small, wait, nprocs):
    """Once b_eff_io's first scratch file is in the job's scratch directory: stop the job's
    processes, remove b_eff_io's files, let them go on. 0, or None when the job ended first."""
    deadline = time.monotonic() + wait
    stopped = []
    # The processes first (a scan of /proc is slow): the stop must follow the file at once.
    while time.monotonic() < deadline and proc.poll() is None and len(stopped) < nprocs:
        stopped = ranks(binary, cwd)
    while time.monotonic() < deadline and proc.poll() is None:
        files = glob.glob(os.path.join(small, "mpibench-io-*", "b_eff_io_data_*"))
        if files:
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)
            for f in glob.glob(os.path.join(small, "mpibench-io-*", "b_eff_io_data_*")):
                os.unlink(f)
            for pid in stopped:
                os.kill(pid, signal.SIGCONT)
            return 0
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--mode", choices=("refuse", "fill"), required=True)
    ap.add_argument("--timeout", type=float, default=280)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with small_tmpfs("mb-job-full-", "4m" if opts.mode == "refuse" else "100m") as where:
        if where is None:
            return SKIP
        cwd, small = where
        res = os.path.join(cwd, "res")
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args + ["--io-dir", "small", "--output-dir", "res"])
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        removed = filled = None
        if opts.mode == "fill":
            removed = stop_and_remove_beffio(proc, opts.bin, cwd, small, opts.timeout, opts.np)
            filled = stop_and_fill(proc, opts.bin, cwd, small, os.path.join(res, "IMB-IO.txt"),
                                   wait=opts.timeout, nprocs=opts.np)
        ended = finish(proc, cmd, opts.timeout)
        if ended is None:
            return 1
        out, err = ended
        skipped = ()
        if "--skip" in args[:-1]:
            skipped = tuple(args[args.index("--skip") + 1].split(","))
        problems = check(opts.mode, proc.returncode, out, err, res, small, removed, filled,
                         skipped)
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{out[-3000:]}--- stderr\n{err[-3000:]}")
            return 1
        print(f"ok ({opts.mode}): " + " | ".join(l.strip() for l in err.splitlines()
                                                  if "error:" in l))
    return 0


if __name__ == "__main__":
    sys.exit(main())
