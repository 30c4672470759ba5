#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run many cases of the bad-input table in one MPI job and write one verdict file per case.

Why: one mpiexec per case cost about a second of wall and CPU time each on a 2-core machine,
480 of them most of scripts/test.sh (docs/adr/fast-cli-tests.md). Here the driver cli_batch
(cli_batch.c) runs the cases one after another in one job of --np processes, each in a
directory of its own with its files, each rank's stdout and stderr captured per case. Each
case is then checked by the same function as a case run alone (run_cli_case.problems_of):
the expected exit status - here returned by EVERY rank, not only the launcher's one status -,
exactly one "<program>: error: ..." line in all ranks' stderr with the fragment, no benchmark
run, no file left behind, the test's files unchanged; and, in-process only, the scratch
registry empty again after the case.

Each case's verdict goes to RESULTS/<id>.np<N>.txt, its first line "ok: ..." or "FAILED: ...";
the ctest cli.<id>.np<N> prints that file and passes on "ok:" (tests/CMakeLists.txt). Files of
the cases given are removed first: a case the job never reached has no verdict and fails.

A job that dies or hangs (a case that aborts, runs a benchmark or blocks longer than --limit)
does not take the other cases with it: the case it was in is run again in its own launch of
the real program (run_cli_case.run_one) and that launch's verdict is the case's, with a note;
the job is started again for the cases after it. This program exits non-zero only when the
batch machinery itself failed (the job never started a case).
"""
import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from mbcheck import create_files, listing  # noqa: E402
from run_cli_case import expand, load_rows, problems_of, run_one, snapshot  # noqa: E402


def load_cases(table, ids):
    rows = load_rows(table)
    missing = [i for i in ids if i not in rows]
    if missing:
        raise SystemExit(f"{table}: no case {missing}")
    return [rows[i] for i in ids]


class Case:
    def __init__(self, index, fields, root):
        self.index = index
        self.fields = fields
        self.id, self.prog, args, files, self.fragment, self.status = fields
        self.cwd = os.path.join(root, f"case-{index}")
        os.mkdir(self.cwd)
        create_files(self.cwd, filter(None, expand(files).split(";")))
        self.before = listing(self.cwd)
        self.contents = snapshot(self.cwd, self.before)
        # argv[0] is the name the program is started under: it selects the suite and names
        # the messages, as a link in the build directory does.
        self.argv = [self.prog] + shlex.split(expand(args))


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except FileNotFoundError:
        return ""


def run_job(opts, cases, root, attempt):
    """One MPI job over cases; returns ({index: [(status, slots, seconds) per rank]},
    the index of the case it stopped in or None, why it stopped, outdir)."""
    outdir = os.path.join(root, f"out-{attempt}")
    os.mkdir(outdir)
    manifest = os.path.join(root, f"manifest-{attempt}")
    with open(manifest, "wb") as f:
        for c in cases:
            fields = [str(c.index), c.cwd, str(len(c.argv))] + c.argv
            f.write(b"".join(os.fsencode(x) + b"\0" for x in fields))
    cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.driver),
                                        manifest, outdir])
    progress = os.path.join(outdir, "progress")
    with open(os.path.join(outdir, "job.out"), "wb") as jout:
        proc = subprocess.Popen(cmd, cwd=root, stdout=jout, stderr=subprocess.STDOUT,
                                start_new_session=True)
        current, since, why = None, time.monotonic(), None
        while proc.poll() is None:
            time.sleep(0.05)
            started = read_text(progress).split()
            last = started[-1] if started else None
            if last != current:
                current, since = last, time.monotonic()
            # Until the first case starts the job is in its launch and MPI_Init, which a
            # loaded machine may slow down more than one case: four times the limit.
            if time.monotonic() - since > (opts.limit if current else 4 * opts.limit):
                why = f"no end within {opts.limit:g} s (hang?)"
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
    done = {}
    for rank in range(opts.np):
        for line in read_text(os.path.join(outdir, f"status.{rank}")).splitlines():
            index, status, slots, seconds = line.split()
            done.setdefault(int(index), {})[rank] = (int(status), int(slots), float(seconds))
    complete = {i: [r[k] for k in range(opts.np)] for i, r in done.items() if len(r) == opts.np}
    stopped = next((c.index for c in cases if c.index not in complete), None)
    if stopped is not None and why is None:
        why = (f"the job ended with status {proc.returncode}: "
               f"{read_text(os.path.join(outdir, 'job.out'))[-2000:]}")
    if stopped is not None and current is None:
        stopped = -1  # the job never started a case
    return complete, stopped, why, outdir


def verdict(opts, case, ranks, outdir):
    """The in-process run of a case against the same checks as a launch of its own."""
    try:
        out = "".join(read_text(os.path.join(outdir, f"{case.index}.out.{r}"))
                      for r in range(opts.np))
        err = "".join(read_text(os.path.join(outdir, f"{case.index}.err.{r}"))
                      for r in range(opts.np))
    except UnicodeDecodeError as e:
        return False, f"FAILED: {case.id}: output is not UTF-8: {e}"
    statuses = [s for s, _, _ in ranks]
    problems, error = problems_of(statuses, out, err, case.prog, case.fragment, case.status,
                                  case.cwd, case.before, case.contents)
    if len(set(statuses)) > 1:
        problems.append(f"the ranks returned different statuses {statuses}")
    slots = [n for _, n, _ in ranks]
    if any(slots):
        problems.append(f"scratch registry slots still in use after the case: {slots}")
    seconds = max(t for _, _, t in ranks)
    if problems:
        return False, (f"FAILED: {case.id} with {opts.np} processes (in one job with other "
                       f"cases): " + "; ".join(problems) +
                       f"\ncommand: {shlex.join(case.argv)} (in-process, directory {case.cwd})"
                       f"\n--- stdout (all ranks)\n{out[-3000:]}--- stderr (all ranks)\n"
                       f"{err[-3000:]}")
    return True, (f"ok: {case.id} ({opts.np} processes, in one job with other cases, "
                  f"{seconds:.3f} s): {error}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--mpiexec", required=True, help="launcher and its flags, one string")
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--driver", required=True, help="the cli_batch program")
    ap.add_argument("--bindir", required=True, help="mpibench and its links (lone launches)")
    ap.add_argument("--results", required=True, help="directory for the verdict files")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds one case may take")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    ap.add_argument("cases", nargs="+", help="the ids of the cases to run")
    opts = ap.parse_args()

    os.makedirs(opts.results, exist_ok=True)
    for cid in opts.cases:
        try:
            os.remove(os.path.join(opts.results, f"{cid}.np{opts.np}.txt"))
        except FileNotFoundError:
            pass
    root = tempfile.mkdtemp(prefix="mb-cli-batch-")
    start = time.monotonic()
    cases = [Case(i, f, root) for i, f in enumerate(load_cases(opts.table, opts.cases))]
    reports, jobs, status, alone = {}, 0, 0, []
    pending = cases
    while pending:
        jobs += 1
        complete, stopped, why, outdir = run_job(opts, pending, root, jobs)
        for c in pending:
            if c.index in complete:
                reports[c.id] = verdict(opts, c, complete[c.index], outdir)
        if stopped == -1:
            for c in pending:
                if c.index not in complete:
                    reports[c.id] = (False, f"FAILED: {c.id}: the batch job started no case: "
                                     f"{why}")
            status = 1
            break
        if stopped is None:
            break
        case = next(c for c in pending if c.index == stopped)
        alone.append(case.id)
        passed, report = run_one(case.fields, opts.mpiexec, opts.np, opts.bindir, opts.limit)
        reports[case.id] = (passed, f"{report}\n(run in a launch of its own: the batch job "
                                    f"stopped in this case: {why})")
        pending = [c for c in pending if c.index > stopped]
    failed = []
    for c in cases:
        passed, report = reports[c.id]
        if not passed:
            failed.append(c.id)
        with open(os.path.join(opts.results, f"{c.id}.np{opts.np}.txt"), "w") as f:
            f.write(report + "\n")
    print(f"{len(cases) - len(failed)} of {len(cases)} cases ok in {jobs} job(s), "
          f"{time.monotonic() - start:.1f} s; each case's verdict is its own test cli.<id>.np"
          f"{opts.np}")
    if alone:
        print("run in a launch of their own (the batch job stopped in them): " + " ".join(alone))
    if failed:
        print("FAILED: " + " ".join(failed))
    if opts.keep:
        print(f"kept {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
