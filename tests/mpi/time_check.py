#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-MPI1 or IMB-EXT with -time on a loaded node and check that the repetitions hold.

CPU hogs (--hogs of them, each ending by itself after --hog-seconds and killed when the check
ends on every path) compete with the ranks for the cores, so that samples get preempted. The
run is checked as imb_check.py / ext_check.py check it, and then, per block: every row has at
least the -time minimum (the -iter rule's count, at most 10; no "# !!" warning) unless its own
samples fill a quarter of the limit (they are that slow) or it is a shorter length's count
carried over, and with the
program's rule (-time_rule program, the default) the counts never grow with the length (IMB 3.1
IMB_mem_manager.c). A rule that divides the limit by one probe sample failed this: a preempted
probe left 3-9 repetitions, different from row to row.

Usage: time_check.py --mpiexec CMD --np N --bin PATH [--family ext] [--hogs N] -- ARGS
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ext_check  # noqa: E402
import imb_check  # noqa: E402
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402

HOG = "import time\nend = time.monotonic() + {secs}\nwhile time.monotonic() < end:\n    pass\n"


def start_hogs(n, secs):
    return [subprocess.Popen([sys.executable, "-c", HOG.format(secs=secs)]) for _ in range(n)]


def stop_hogs(hogs):
    for p in hogs:
        if p.poll() is None:
            p.kill()
    for p in hogs:
        p.wait()


def check_counts(run, fam):
    inv = imb_check.Invocation(run.args, run.opts.np, run.cwd, "", fam)
    check(inv.time_limit is not None, "the run has no -time")
    args = run.args
    program_rule = "-time_rule" not in args or args[args.index("-time_rule") + 1] == "program"
    blocks, _ = imb_check.parse_text(run.stdout)
    counts = []
    for blk in blocks:
        name = blk["title"].split()[2].replace("Multi-", "")
        mode = blk["mode"]
        lens = imb_check.lengths_for(fam, name, inv.lengths, inv.msglog, inv.zero)
        got = []
        for x, line in zip(lens, blk["rows"]):
            f = line.split()
            reps = int(f[0] if x is None else f[1])
            # The row's first time column (t, or t_min: the smallest it prints), in seconds.
            t_row = float(f[1] if x is None else f[2]) * 1e-6
            least = imb_check.time_min_reps(inv.reps(name, mode, x))
            # Fewer than the minimum is the rule's answer only where the samples really take
            # long (MPICH's passive-target Get, 10-40 ms a sample beside 3 busy loops on 2
            # cores; Open MPI's 16 KiB PingPong 31 ms): the row's samples then fill at least
            # a quarter of the limit (IMB 3.1's 1 + limit/t, with slack for samples that
            # vary); or, under the program's rule, a shorter length's count carried over
            # (counts never grow with the length). A count set by a preempted estimate beside
            # fast samples (the old rule: 3 repetitions of a 40 us transfer) fails.
            carried = got[-1] if program_rule and got else None
            if reps < least and reps * t_row < inv.time_limit / 4 and reps != carried:
                fail(f"{blk['title'].strip()}: {x} bytes with {reps} repetitions under -time "
                     f"{inv.time_limit:g}, fewer than {least} for {t_row * 1e6:.2f} us per "
                     f"sample: {line!r}")
            got.append(reps)
        if program_rule and any(b > a for a, b in zip(got, got[1:])):
            fail(f"{blk['title'].strip()}: repetitions {got} grow with the length "
                 f"(lengths {lens})")
        counts.append(f"{name}{'/' + mode if mode else ''} {got}")
    return counts


def check(cond, msg):
    if not cond:
        fail(msg)


def main():
    ap = imb_check.add_options(mbcheck.parser(__doc__))
    ap.add_argument("--family", choices=("mpi1", "ext"), default="mpi1")
    ap.add_argument("--hogs", type=int, default=os.cpu_count() or 2,
                    help="busy-looping processes during the run (default: one per core)")
    ap.add_argument("--hog-seconds", type=float, default=240,
                    help="each hog ends by itself after this long")
    opts = ap.parse_args()
    fam = ext_check.EXT if opts.family == "ext" else imb_check.MPI1

    def check_run(run):
        verdict = (ext_check.check_run if opts.family == "ext" else imb_check.check_run)(run)
        counts = check_counts(run, fam)
        return f"{verdict}; {opts.hogs} hogs; repetitions {'; '.join(counts)}"

    hogs = start_hogs(opts.hogs, opts.hog_seconds)
    try:
        return mbcheck.main(check_run, ap, tmp_prefix="mb-time-")
    finally:
        stop_hogs(hogs)


if __name__ == "__main__":
    sys.exit(main())
