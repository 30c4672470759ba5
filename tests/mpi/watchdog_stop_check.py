#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Stop a rank (SIGSTOP) in the middle of a run with --timeout; the job must still end.

Starts the program under mpiexec in a new temporary directory, waits for the first
"# Benchmarking" (or --ready) line on stdout, stops rank 0 and checks that the job ends
within --limit seconds with a non-zero status and timeout messages that ranks other than 0
reported (issue: "Watchdog only on rank 0": stopping rank 0 left the job running forever);
with --rank N (N > 0) the stopped rank is N and rank 0 itself must report first. The rank is
continued at the end in any case, so that nothing stays behind.

Usage: watchdog_stop_check.py --mpiexec CMD --np N --bin PATH [--ready TEXT] [--rank N] -- ARGS
"""
import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from io_signal_check import processes_in, rank_pid  # noqa: E402
from mbcheck import jsonl_cut_problems  # noqa: E402


def process_state(pid):
    """A process's state letter and where it waits in the kernel, for a failure's report."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        with open(f"/proc/{pid}/wchan") as f:
            return f"{state} {f.read().strip()}"
    except OSError:
        return "gone"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--ready", default="# Benchmarking", help="stop rank 0 after this line")
    ap.add_argument("--rank", type=int, default=0, help="the rank to stop")
    ap.add_argument("--limit", type=float, default=30, help="seconds the job may take to end")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory(prefix="mb-wd-stop-") as cwd:
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
               args + ["--json", "run.jsonl"])
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        err_lines = []
        reader = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
        reader.start()
        for line in proc.stdout:
            if line.startswith(opts.ready):
                break
        else:
            proc.wait()
            print(f"FAILED: no '{opts.ready}' line (exit {proc.returncode})\n{''.join(err_lines)}")
            return 1
        target = rank_pid(opts.bin, cwd, opts.rank)
        if target is None:
            proc.kill()
            print(f"FAILED: no process of rank {opts.rank} found")
            return 1
        os.kill(target, signal.SIGSTOP)
        sent = time.monotonic()
        threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()
        try:
            proc.wait(timeout=opts.limit)
        except subprocess.TimeoutExpired:
            # What was left, before anything is killed: which processes, in which state.
            left = [f"{pid} {comm} {process_state(pid)}" for pid, comm, _ in processes_in(cwd)]
            proc.kill()
            proc.wait()
            reader.join(timeout=5)
            print(f"FAILED: the job did not end within {opts.limit} s of stopping rank "
                  f"{opts.rank} (pid {target})\nprocesses left: {left}\n--- stderr\n"
                  + "".join(err_lines)[-3000:])
            return 1
        finally:
            try:
                os.kill(target, signal.SIGCONT)
            except ProcessLookupError:
                pass
        took = time.monotonic() - sent
        reader.join(timeout=5)
        msgs = [l for l in err_lines if ": timeout: " in l]
        problems = jsonl_cut_problems(os.path.join(cwd, "run.jsonl"))[0]
        if proc.returncode == 0:
            problems.append("exit status 0")
        # Rank 0's own message may follow: the launcher continues it (SIGCONT) before it
        # kills it, and its timer has long expired.
        if opts.rank == 0 and (not msgs or "rank 0 did not" not in msgs[0]):
            problems.append(f"expected a timeout message from a rank other than 0 first, got "
                            f"{msgs}")
        if opts.rank != 0 and (not msgs or "reported by rank" in msgs[0]):
            problems.append(f"expected rank 0's own timeout message first, got {msgs}")
        if problems:
            print("FAILED: " + "; ".join(problems) + "\n" + "".join(err_lines)[-3000:])
            return 1
        print(f"ok: the job ended {took:.1f} s after rank {opts.rank} stopped (status "
              f"{proc.returncode}): {msgs[0].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
