#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""b_eff_io on a small file system: the refusal to start, a disk that fills during the run, and
a scratch directory removed during the run.

Mounts a tmpfs of --size MB (needs root and mount rights; otherwise the test is skipped with
status 77; --mode remove uses a plain directory) and runs b_eff_io with -p there:

--mode refuse: the scratch files cannot fit. Exit status 2 within seconds, one message from
    rank 0 naming the directory, the space needed and the space free; nothing written, neither
    in the tmpfs nor next to the protocol prefix.
--mode fill: the run starts (its files fit); after its space check and before its first
    scratch file the test stops its processes, fills the rest of the tmpfs with a file of its
    own, as another job would, and lets them go on. The run stops without MPI_Abort
    (docs/adr/io-space-check.md): exit status 1 with one run-time error from rank 0 naming
    the pass and pattern, a scratch file in the tmpfs and the full disk, no b_eff_io value;
    stdout and the protocol end with "# stopped by an I/O error: " and the same reason, the
    protocol so far is kept as PREFIX.prot.interrupted (no .prot, .sum, .plot or .gps);
    afterwards the tmpfs holds only the test's file, unchanged, and nothing else is new.
--mode remove: once the first scratch file exists the test stops the processes, removes the
    scratch directory with everything in it, as a careless user would, and lets them go on.
    The same clean stop (status 1, one error naming a scratch file in that directory and
    "No such file or directory", the interrupted protocol), and the directory is not made
    again.
--mode budget: the run fits, but -T would let the time-driven write loops fill far more than
    the tmpfs holds. The disk budget must keep room for every later pattern and split the
    rest by U (before: the first paced pattern took the whole budget, and a type-3 write
    then hit ENOSPC): exit status 0, no error, the result as stdout's last line, at least one
    pattern stopped by the budget and more than one pattern repeated, the tmpfs empty
    afterwards.

Usage: beffio_space_check.py --mpiexec CMD --np N --bin PATH --mode refuse|fill|budget|remove
                             --size MB
                             -- ARGS (without -p)
"""
import argparse
import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from io_diskfull_check import (FILLER, SKIP, filler_changed, fill, leftovers,  # noqa: E402
                               ranks, small_tmpfs)
from mbcheck import listing  # noqa: E402

@contextlib.contextmanager
def plain_dir():
    """A new temporary directory and its "small" (no file system of its own: nothing fills
    it), as small_tmpfs yields them."""
    with tempfile.TemporaryDirectory(prefix="mb-bio-remove-") as cwd:
        small = os.path.join(cwd, "small")
        os.mkdir(small)
        yield cwd, small


def run(opts, cwd, small, args):
    cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] + args +
           ["-p", small])
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    filled = None
    if opts.mode == "remove":
        # The processes first (a scan of /proc is slow): the stop must follow the file at once.
        deadline = time.monotonic() + 60
        stopped = []
        while time.monotonic() < deadline and proc.poll() is None and len(stopped) < opts.np:
            stopped = ranks(opts.bin, cwd)
        while time.monotonic() < deadline and proc.poll() is None:
            if any(n.startswith("b_eff_io_data_") for n in os.listdir(small)):
                for pid in stopped:
                    os.kill(pid, signal.SIGSTOP)
                shutil.rmtree(small)
                filled = 0
                for pid in stopped:
                    os.kill(pid, signal.SIGCONT)
                break
    elif opts.mode == "fill":
        # The protocol's temporary file appears after the space check and before the first
        # scratch file: the processes are stopped there while "another job" takes the space
        # (on a tmpfs the run would otherwise write everything before the filler starts).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if any(".prot.tmp" in n for n in os.listdir(cwd)):
                stopped = ranks(opts.bin, cwd)
                for pid in stopped:
                    os.kill(pid, signal.SIGSTOP)
                filled = fill(os.path.join(small, FILLER))
                for pid in stopped:
                    os.kill(pid, signal.SIGCONT)
                break
            time.sleep(0.001)
    try:
        out, err = proc.communicate(timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return cmd, None, out, err, filled
    # A rank's janitor may remove its files a moment after mpiexec returned.
    time.sleep(0.5)
    return cmd, proc.returncode, out, err, filled


def check(opts, cwd, small, cmd, status, out, err, filled, before):
    problems = []
    if status is None:
        return [f"no exit within {opts.timeout} s"]
    if opts.mode == "budget":
        lines = out.rstrip("\n").split("\n")
        if status != 0:
            problems.append(f"exit status {status}, expected 0")
        if "error" in err.lower():
            problems.append("an error on stderr")
        if not re.match(r" b_eff_io = +[\d.]+ MB/s on \d+ processes", lines[-1]):
            problems.append(f"the last line is not the result: {lines[-1]!r}")
        pats = [l for l in out.splitlines() if l.startswith("n=") and " a=0 " in l]
        stopped = [l for l in pats if l.endswith("(disk budget)")]
        repeated = [l for l in pats if int(re.search(r" r= *(\d+) ", l).group(1)) > 1]
        if not stopped:
            problems.append("no write loop stopped at the disk budget (the test's -T is too "
                            "short for its tmpfs)")
        if len(repeated) < 2:
            problems.append(f"only {len(repeated)} write patterns repeated: the budget went "
                            f"to one pattern")
        left = sorted(os.listdir(small))
    elif opts.mode == "refuse":
        want = re.compile(r"the scratch files need at least [0-9.]+ MB in '" + re.escape(small) +
                          r"' .*but it has [0-9.]+ MB free")
        if status != 2:
            problems.append(f"exit status {status}, expected 2")
        msgs = [l for l in err.splitlines() if "error:" in l]
        if len(msgs) != 1 or not want.search(msgs[0]):
            problems.append(f"expected one message about the space needed, got {msgs}")
        left = sorted(os.listdir(small))
    else:
        if filled is None:
            return ["the run never created its protocol files" if opts.mode == "fill" else
                    "the run never created its scratch files"]
        if status != 1:
            problems.append(f"exit status {status}, expected 1")
        if "MPI_ABORT" in err.upper():
            problems.append("the job was aborted (MPI_Abort)")
        reason = (r"(moved \d+ of \d+ doubles|file system full|[Nn]o space left on device|"
                  r"MPI_ERR_NO_SPACE)" if opts.mode == "fill" else
                  r"[Nn]o such file or directory")
        want = re.compile(r"'" + re.escape(small) + r"/b_eff_io_data_[^']*'.*" + reason)
        msgs = [l for l in err.splitlines() if "error:" in l]
        if len(msgs) != 1 or not re.match(r"b_eff_io: run-time error: b_eff_io (write|rewrite|"
                                          r"read) pass, partition of \d+ process(es)?, pattern "
                                          r"\d+ \(.*\): rank \d+: ", msgs[0]) \
                or not want.search(msgs[0]):
            problems.append(f"expected one run-time error naming the pattern, a scratch file and "
                            f"the reason, got {msgs}")
        cause = msgs[0].split("run-time error: ", 1)[1] if msgs else "?"
        if f"\n# stopped by an I/O error: {cause}\n" not in out:
            problems.append("stdout does not say where and why the run stopped")
        try:
            with open(os.path.join(cwd, "b_eff_io.prot.interrupted")) as f:
                prot = f.read()
            if not prot.endswith(f"\n# stopped by an I/O error: {cause}\n"):
                problems.append(f"the protocol does not end with the reason: {prot[-300:]!r}")
        except OSError as e:
            problems.append(f"no protocol so far: {e}")
        if "the protocol so far is in 'b_eff_io.prot.interrupted'" not in err:
            problems.append("stderr does not say where the protocol so far is")
        # No result from a full disk. (Pattern lines written before the filler stopped the
        # ranks are real measurements: on a loaded machine MPICH's ranks wrote two patterns
        # before the filler found them, so their lines cannot be excluded here.)
        result = [l for l in out.splitlines() if re.match(r" *b_eff_io = ", l)]
        if result:
            problems.append(f"a b_eff_io result on a full disk: {result}")
        if opts.mode == "remove":
            left = sorted(os.listdir(small)) if os.path.exists(small) else []
            if os.path.exists(small):
                problems.append("the removed scratch directory was made again")
        else:
            left = leftovers(small)
            changed = filler_changed(small, filled)
            if changed:
                problems.append(changed)
    if left:
        problems.append(f"left in {small}: {left}")
    done = {f"b_eff_io.{e}" for e in ("prot", "sum", "plot", "gps")} if opts.mode == "budget" \
        else {"b_eff_io.prot.interrupted"} if opts.mode in ("fill", "remove") else set()
    new = sorted(p for p in listing(cwd) - before if not p.startswith("small") and p not in done)
    if new:
        problems.append(f"new files next to the prefix: {new}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--mode", choices=("refuse", "fill", "budget", "remove"), required=True)
    ap.add_argument("--size", type=int, required=True, help="tmpfs size in MB")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with (plain_dir() if opts.mode == "remove" else
          small_tmpfs("mb-bio-space-", f"{opts.size}m")) as where:
        if where is None:
            return SKIP
        cwd, small = where
        before = listing(cwd)
        cmd, status, out, err, filled = run(opts, cwd, small, args)
        problems = check(opts, cwd, small, cmd, status, out, err, filled, before)
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{out[-3000:]}--- stderr\n{err[-3000:]}")
            return 1
        first = next((l for l in err.splitlines() if "error:" in l), "")
        print(f"ok ({opts.mode}): {first.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
