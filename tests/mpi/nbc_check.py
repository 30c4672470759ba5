#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-NBC or IMB-MPI4 under mpiexec and check its text and JSON output.

IMB-NBC's rules, re-derived from Intel IMB 2021.11's sources (src_cpp/NBC/NBC_benchmark.cpp,
NBC_suite.cpp, src_c/IMB_output.c) independently of the C code, on top of imb_check.py's IMB
machinery (process counts, Multi groups, -map, lengths, table layout, JSON = text): the 13
non-blocking collectives in 2021.11's order of registration (a default run), their _pure
variants only when named; the overlap table #bytes #repetitions t_ovrl t_pure t_CPU overlap[%]
(Ibarrier without #bytes) whose overlap is 100 x clamp((t_pure + t_CPU - t_ovrl) / max(t_pure,
t_CPU)) of the printed times; the _pure tables as the blocking collectives'; reductions in whole
floats; repetitions under 2021.11's default policy (dynamic: within the -iter rule, cut to a 10 s
limit). Beyond imb_check.py it checks what 2021.11 implies per row and per run: t_ovrl, t_pure
and t_CPU come from one process, whose t_ovrl contains its t_CPU; the JSON's t_ovrl is the row's
t_max (t_min/t_max/t_avg of t_ovrl); the run called MPI_Init (MPI_THREAD_SINGLE); the effective
settings show 2021.11's -sync, -root_shift and -iter_policy unless given.

IMB-MPI4 (src_cpp/MPI4/MPI4_benchmark.cpp) is the same measurement over MPI-4's persistent
collectives: Bcast_persist ... Barrier_persist and their _persist_pure variants, Allgather_persist
not in the default run; the program is chosen by the binary's name (IMB-MPI4, or --prefix-args
imb-mpi4).

Usage: nbc_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-NBC|IMB-MPI4 arguments
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imb_check  # noqa: E402  (the IMB rules and text/JSON checks, parameterised by family)
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402

# name: (class, element size, single transfer, throughput factor)
NAMES = [("Ibcast", 1), ("Iallgather", 1), ("Iallgatherv", 1), ("Igather", 1), ("Igatherv", 1),
         ("Iscatter", 1), ("Iscatterv", 1), ("Ialltoall", 1), ("Ialltoallv", 1), ("Ireduce", 4),
         ("Ireduce_scatter", 4), ("Iallreduce", 4)]
DEFAULT = {n: ("collective", u, False, 0) for n, u in NAMES}
DEFAULT["Ibarrier"] = ("sync", 1, False, 0)
PURE = {n + "_pure": v for n, v in DEFAULT.items()}

NBC = imb_check.Family("IMB-NBC", DEFAULT, "MPI-NBC part", named_only=PURE, overlap=DEFAULT,
                       method="Intel IMB 2021.11", overlap_over=max, iter_policy="dynamic",
                       decimal=False, capped={**DEFAULT, **PURE})

# IMB-MPI4: the persistent forms, Allgather_persist and every _pure variant only when named.
P_NAMES = ["Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv",
           "Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce", "Barrier"]
P_ALL = {n + "_persist": (("sync" if n == "Barrier" else "collective"),
                          4 if n in ("Reduce", "Reduce_scatter", "Allreduce") else 1, False, 0)
         for n in P_NAMES}
P_DEFAULT = {n: v for n, v in P_ALL.items() if n != "Allgather_persist"}
P_NAMED = {"Allgather_persist": P_ALL["Allgather_persist"],
           **{n + "_pure": v for n, v in P_ALL.items()}}

MPI4 = imb_check.Family("IMB-MPI4", P_DEFAULT, "MPI-4 part", named_only=P_NAMED, overlap=P_ALL,
                        method="Intel IMB 2021.11", overlap_over=max, iter_policy="dynamic",
                        decimal=False, capped={**P_ALL, **P_NAMED})

SETTINGS = {"-sync": r"on \(a barrier after every repetition", "-root_shift": r"off \(the root",
            "-iter_policy": r"dynamic", "-buf_scope": r"length \(",
            "-alloc": r"libc: .*\(default, as Intel IMB 2021\.11\)"}


def family_of(run):
    prog = run.opts.prefix_args.split()[:1] or [os.path.basename(run.opts.bin)]
    return MPI4 if prog[0] in ("IMB-MPI4", "imb-mpi4") else NBC


def check_run(run):
    fam = family_of(run)
    what = imb_check.check_run(run, fam)
    out = run.stdout
    if not imb_check.finished(out):
        return what
    if "# MPI Thread Environment: MPI_THREAD_SINGLE" not in out:
        fail(f"{fam.name} did not run under MPI_Init (MPI_THREAD_SINGLE), as Intel IMB 2021.11 "
             "does")
    for opt, want in SETTINGS.items():
        if opt in run.args:
            continue
        m = re.search(rf"^#   {re.escape(opt)} +: (.*)$", out, re.M)
        if not m or not re.match(want, m.group(1)):
            fail(f"effective setting {opt}: {m.group(1) if m else 'missing'!r}, expected {want}")
    blocks, _ = imb_check.parse_text(out)
    for blk in blocks:
        if "t_ovrl[usec]" not in blk["head"]:
            continue
        at = blk["head"].split().index("t_ovrl[usec]")
        for line in blk["rows"]:
            if "time-out." in line:
                continue
            t_ovrl, _, t_cpu = (float(v) for v in line.split()[at:at + 3])
            # One process's figures: its t_CPU is timed inside its t_ovrl.
            if t_cpu > t_ovrl + 0.01:
                fail(f"{blk['title']}: t_CPU {t_cpu} above t_ovrl {t_ovrl} in {line!r}")
    inv = imb_check.Invocation(run.args, run.opts.np, run.cwd, run.opts.prefix_args.strip(), fam)
    if inv.json:
        for r in mbcheck.load_jsonl(inv.json):
            if r["type"] == "result" and r["status"] == "ok" and "t_ovrl_usec" in r:
                if r["t_ovrl_usec"] != r["t_max_usec"]:
                    fail(f"JSON t_ovrl_usec {r['t_ovrl_usec']} is not the row's t_max_usec: {r}")
            if r["type"] == "header" and r["thread_level"] != "MPI_THREAD_SINGLE":
                fail(f"JSON header thread_level {r['thread_level']}, expected MPI_THREAD_SINGLE")
    return what


def main():
    ap = imb_check.add_options(mbcheck.parser(__doc__))
    return mbcheck.main(check_run, ap, tmp_prefix="mb-nbc-")


if __name__ == "__main__":
    sys.exit(main())
