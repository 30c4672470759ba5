#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Interrupt an I/O run (IMB-IO, b_eff_io) while its scratch files exist; check they are gone.

Starts the program under mpiexec in a new temporary directory that already holds a file of
the user's (which must survive untouched), waits until a scratch file appears there, sends
the signal - to mpiexec (as a user's Ctrl-C or a batch system's SIGTERM would) or straight
to rank 0 (--to rank0: SIGKILL there is the OOM killer or a node's kill, no handler runs) -
and then checks that the job ends within the time limit and the directory is exactly as it
was before the run (IMB-IO and b_eff_io issues: "every scratch file is gone ... after
SIGINT/SIGTERM to mpirun", "always removed"). Removal after a SIGKILL is the janitor's, a
child of each process that acts when its process is gone, a moment after mpiexec may have
returned: the directory gets --settle seconds, and no janitor may outlive them.

Also b_eff, whose temporary protocol files are the "scratch files" here and whose user's file
is an earlier run's protocol (--user-file b_eff.prot).

Also the main job (mpibench run --io-dir D): --watch-dir D is the directory that must be as it
was (the job's own results go elsewhere), --glob waits for files below it (its scratch
directory's files), --no-json leaves out the JSON check (the job writes results.jsonl itself).
--env K=V sets the environment of the run: OMPI_MCA_sharedfp=lockedfile makes Open MPI keep a
shared file pointer in a file of its own beside the scratch file ("NAME-<jobid>-<pid>.lock", as
on a file system shared by several nodes), which must go too.

Usage: io_signal_check.py --mpiexec CMD --np N --bin PATH --signal INT|TERM|KILL
                          [--to mpiexec|rank0] [--prefix P | --glob G] [--user-file F]
                          [--watch-dir D] [--no-json] [--env K=V ...] [--stderr REGEX ...]
                          [--interrupted NAME --interrupted-start TEXT] -- ARGS

--interrupted NAME (b_eff_io): a run that a SIGINT/SIGTERM handler ended leaves its protocol so
far as NAME (PREFIX.prot.interrupted), beginning with --interrupted-start, and says
"interrupted" on stderr; the user's file (an earlier PREFIX.prot) stays as it was. With the
signal straight to rank 0 the handler runs for sure and NAME must exist; through mpiexec the
launcher may kill rank 0 before its handler ran, so NAME may be missing; after SIGKILL nothing
can rename it and NAME must not exist.
"""
import glob
import re
import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mbcheck import jsonl_cut_problems, listing  # noqa: E402


def processes_in(cwd):
    """(pid, comm, environ) of every process whose working directory is cwd."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd") != cwd:
                continue
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
            # A janitor is named by its argv[0] from its exec on, but by its comm only once it
            # has set it: in between it would pass for a rank (same program, same environment).
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().split(b"\0")[0] == b"mpibench-clean":
                    comm = "mpibench-clean"
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue  # gone meanwhile, or not ours to read
        found.append((int(pid), comm, env))
    return found


def rank_pid(binary, cwd, rank):
    """The pid of a rank of the job running binary in cwd (Open MPI and MPICH name the rank in
    the environment), not its janitor."""
    name = os.path.basename(binary)[:15]
    for pid, comm, env in processes_in(cwd):
        if comm == name and (f"OMPI_COMM_WORLD_RANK={rank}".encode() in env or
                             f"PMI_RANK={rank}".encode() in env):
            return pid
    return None


def rank0(binary, cwd):
    return rank_pid(binary, cwd, 0)


def janitors(cwd):
    return [pid for pid, comm, _ in processes_in(cwd) if comm == "mpibench-clean"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--signal", choices=("INT", "TERM", "KILL"), required=True)
    ap.add_argument("--to", choices=("mpiexec", "rank0"), default="mpiexec",
                    help="whom to send the signal")
    ap.add_argument("--settle", type=float, default=5,
                    help="seconds the janitors get after the job ended")
    ap.add_argument("--prefix", default="IMB_out", help="scratch file names start with this")
    ap.add_argument("--user-file", action="append",
                    help="a user's file that must survive (b_eff: an earlier run's protocol); "
                    "repeatable (default notes.txt)")
    ap.add_argument("--files", type=int, default=1, help="wait until this many scratch files exist")
    ap.add_argument("--wait", type=float, default=60, help="seconds to wait for a scratch file")
    ap.add_argument("--limit", type=float, default=30, help="seconds the job may take to end")
    ap.add_argument("--glob", help="wait for files matching this pattern (relative to the run's "
                    "directory) instead of --prefix")
    ap.add_argument("--watch-dir", help="only this directory (made empty before the run) must be "
                    "as before; the user's file is checked too")
    ap.add_argument("--no-json", action="store_true", help="no --json file of the run")
    ap.add_argument("--env", action="append", default=[], help="K=V for the run's environment")
    ap.add_argument("--expect", nargs=2, action="append", default=[], metavar=("GLOB", "REGEX"),
                    help="after the run a file matching GLOB (relative to the run's directory) "
                    "must have a line matching REGEX")
    ap.add_argument("--stderr", action="append", default=[], metavar="REGEX",
                    help="the run's stderr must have a line matching REGEX (the main job's "
                    "message on an interrupt)")
    ap.add_argument("--interrupted", help="the partial protocol an interrupted run leaves")
    ap.add_argument("--interrupted-start", default="",
                    help="the text the partial protocol begins with")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory(prefix="mb-io-sig-") as cwd:
        user_files = opts.user_file or ["notes.txt"]
        for name in user_files:
            with open(os.path.join(cwd, name), "w") as f:
                f.write("the user's file\n")
        # The run's JSON (created empty first, so that it belongs to "before"): whole records
        # up to the cut.
        if not opts.no_json:
            open(os.path.join(cwd, "run.jsonl"), "w").close()
        watched = os.path.join(cwd, opts.watch_dir) if opts.watch_dir else cwd
        os.makedirs(watched, exist_ok=True)
        before = listing(watched)
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args + ([] if opts.no_json else ["--json", "run.jsonl"]))
        env = dict(os.environ)
        env.update(kv.split("=", 1) for kv in opts.env)
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
        deadline = time.monotonic() + opts.wait
        seen = []
        while time.monotonic() < deadline and proc.poll() is None:
            if opts.glob:
                seen = glob.glob(opts.glob, root_dir=cwd)
            else:
                seen = [n for n in os.listdir(cwd)
                        if n.startswith(opts.prefix) and n not in user_files]
            if len(seen) >= opts.files:
                break
            time.sleep(0.05)
        if len(seen) < opts.files:
            proc.kill()
            out, err = proc.communicate()
            print(f"FAILED: not {opts.files} scratch files {opts.glob or opts.prefix + '*'} "
                  f"within {opts.wait} s "
                  f"(exit {proc.returncode})\n{out[-3000:]}\n{err[-3000:]}")
            return 1
        time.sleep(0.3)  # let every process get into its I/O
        sent = time.monotonic()
        target = proc.pid if opts.to == "mpiexec" else rank0(opts.bin, cwd)
        if target is None:
            proc.kill()
            out, err = proc.communicate()
            print(f"FAILED: no process of rank 0 of {opts.bin} found\n{err[-3000:]}")
            return 1
        os.kill(target, getattr(signal, "SIG" + opts.signal))
        try:
            out, err = proc.communicate(timeout=opts.limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            print(f"FAILED: the job did not end within {opts.limit} s of SIG{opts.signal}\n"
                  f"{err[-3000:]}")
            return 1
        took = time.monotonic() - sent
        settle = time.monotonic() + opts.settle
        time.sleep(0.2)
        salvaged = None
        while True:
            after, left = listing(watched), janitors(cwd)
            if opts.interrupted and opts.interrupted in after:
                salvaged = opts.interrupted
                after = after - {opts.interrupted}
            if (after == before and not left) or time.monotonic() > settle:
                break
            time.sleep(0.1)
        problems = []
        if opts.interrupted:
            must = opts.to == "rank0" and opts.signal != "KILL"
            if salvaged:
                with open(os.path.join(cwd, salvaged)) as f:
                    text = f.read()
                if opts.signal == "KILL":
                    problems.append(f"{salvaged} left after SIGKILL (no handler can run)")
                if not text.startswith(opts.interrupted_start):
                    problems.append(f"{salvaged} begins {text[:80]!r}, expected "
                                    f"{opts.interrupted_start!r}")
                if "interrupted" not in err or salvaged not in err:
                    problems.append(f"stderr does not say 'interrupted' and name {salvaged}")
            elif must:
                problems.append(f"no {opts.interrupted} after SIG{opts.signal} to rank 0")
        if left:
            problems.append(f"janitor processes {left} still alive {opts.settle} s after the end")
        if after != before:
            problems.append(f"directory not as before: left {sorted(after - before)}, "
                            f"missing {sorted(before - after)}")
        for name in user_files:
            with open(os.path.join(cwd, name)) as f:
                if f.read() != "the user's file\n":
                    problems.append(f"the user's file {name} was changed")
        if not opts.no_json:
            problems += jsonl_cut_problems(os.path.join(cwd, "run.jsonl"))[0]
        for pattern, regex in opts.expect:
            files = glob.glob(pattern, root_dir=cwd)
            if not files:
                problems.append(f"no file {pattern} after the run")
                continue
            with open(os.path.join(cwd, files[0]), errors="replace") as f:
                if not any(re.search(regex, line) for line in f):
                    problems.append(f"{files[0]} has no line matching {regex!r}")
        for regex in opts.stderr:
            if not re.search(regex, err, re.M):
                problems.append(f"stderr has no line matching {regex!r}")
        # The launcher's exit status after a forwarded Ctrl-C is its own business (MPICH's
        # hydra returns 0); the run itself must not have finished. A killed rank fails the job.
        if opts.to == "rank0" and proc.returncode == 0:
            problems.append("mpiexec exited 0 although rank 0 was killed")
        if re.search(r"^# mpibench: \d+ rows", out, re.M):
            problems.append("the run finished although it was interrupted")
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{out[-3000:]}--- stderr\n{err[-3000:]}")
            return 1
        print(f"ok: {seen} existed; SIG{opts.signal} to {opts.to} ended the job in {took:.1f} s "
              f"(status {proc.returncode}); the directory is as it was"
              + (f" but for {salvaged}" if opts.interrupted and salvaged else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
