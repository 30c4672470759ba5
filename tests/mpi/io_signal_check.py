#!/usr/bin/env python3
"""Interrupt an IMB-IO run while its scratch files exist and check that they are gone.

Starts the program under mpiexec in a new temporary directory that already holds a file of
the user's (which must survive untouched), waits until a scratch file appears there, sends
the signal to mpiexec (as a user's Ctrl-C or a batch system's SIGTERM would), and then checks
that the job ends within the time limit and the directory is exactly as it was before the run
(IMB-IO issue: "every scratch file is gone ... after SIGINT/SIGTERM to mpirun").

Usage: io_signal_check.py --mpiexec CMD --np N --bin PATH --signal INT|TERM -- ARGS
"""
import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mbcheck import listing  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--signal", choices=("INT", "TERM"), required=True)
    ap.add_argument("--prefix", default="IMB_out", help="scratch file names start with this")
    ap.add_argument("--files", type=int, default=1, help="wait until this many scratch files exist")
    ap.add_argument("--wait", type=float, default=60, help="seconds to wait for a scratch file")
    ap.add_argument("--limit", type=float, default=30, help="seconds the job may take to end")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory(prefix="mb-io-sig-") as cwd:
        mine = os.path.join(cwd, "notes.txt")
        with open(mine, "w") as f:
            f.write("the user's file\n")
        before = listing(cwd)
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args)
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + opts.wait
        seen = []
        while time.monotonic() < deadline and proc.poll() is None:
            seen = [n for n in os.listdir(cwd) if n.startswith(opts.prefix)]
            if len(seen) >= opts.files:
                break
            time.sleep(0.05)
        if len(seen) < opts.files:
            proc.kill()
            out, err = proc.communicate()
            print(f"FAILED: not {opts.files} scratch files {opts.prefix}* within {opts.wait} s "
                  f"(exit {proc.returncode})\n{out[-3000:]}\n{err[-3000:]}")
            return 1
        time.sleep(0.3)  # let every process get into its I/O
        sent = time.monotonic()
        proc.send_signal(getattr(signal, "SIG" + opts.signal))
        try:
            out, err = proc.communicate(timeout=opts.limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            print(f"FAILED: the job did not end within {opts.limit} s of SIG{opts.signal}\n"
                  f"{err[-3000:]}")
            return 1
        took = time.monotonic() - sent
        time.sleep(0.2)
        after = listing(cwd)
        problems = []
        if after != before:
            problems.append(f"directory not as before: left {sorted(after - before)}, "
                            f"missing {sorted(before - after)}")
        with open(mine) as f:
            if f.read() != "the user's file\n":
                problems.append("the user's file was changed")
        # The launcher's exit status after a forwarded Ctrl-C is its own business (MPICH's
        # hydra returns 0); the run itself must not have finished.
        if "# All processes entering MPI_Finalize" in out:
            problems.append("the run finished although it was interrupted")
        if problems:
            print(f"FAILED: {'; '.join(problems)}\ncommand: {shlex.join(cmd)}\n"
                  f"--- stdout\n{out[-3000:]}--- stderr\n{err[-3000:]}")
            return 1
        print(f"ok: {seen} existed; SIG{opts.signal} ended the job in {took:.1f} s "
              f"(status {proc.returncode}); the directory is as it was")
    return 0


if __name__ == "__main__":
    sys.exit(main())
