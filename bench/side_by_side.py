#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpibench side by side with the original programs, in alternating rounds, with A/A runs.

Every suite runs against its original, built from the public sources outside this repository
by bench/originals/build.sh (OUTDIR/<original>-<mpi>/):

  IMB-MPI1  every benchmark, IMB 3.1's IMB-MPI1, 2 and 4 processes (MPICH: 2, see below)
  IMB-MPI1 2021  IMB-MPI1's benchmarks of Intel IMB 2021.11 (PingPongSpecificSource,
            PingPongAnySource, PingPingSpecificSource, PingPingAnySource, Uniband and Biband:
            their Msg/sec, a rate), named on both
            command lines, against 2021.11's IMB-MPI1 (suite imb-mpi1-2021; the process counts
            of IMB-MPI1)
  IMB-NBC   every benchmark of Intel IMB 2021.11's IMB-NBC (a default run: the 13 overlap
            benchmarks, t_ovrl, t_pure and t_CPU compared), against 2021.11's IMB-NBC, at
            IMB-MPI1's process counts (suite imb-nbc); and their 13 _pure variants, named on
            both command lines (suite imb-nbc-pure); IMB-MPI4 alike where the library has MPI-4's
            persistent collectives (MPICH: suites imb-mpi4, imb-mpi4-pure; the 12 default
            benchmarks, and Allgather_persist with the 13 _persist_pure variants)
  IMB-P2P   every benchmark of Intel IMB 2021.11's IMB-P2P at its defaults (-msglen: the
            lengths below), its t[usec] and Msg/sec, at IMB-MPI1's process counts (suite
            imb-p2p; Stencil3D needs 8 and is reported invalid by both)
  IMB-EXT   every benchmark, IMB 3.1's IMB-EXT, 2 processes
  IMB-IO    IMB 3.1's IMB-IO, 2 processes, a subset of benchmarks (--io-benchmarks all: every
            one); with --imb2021 also Intel IMB 2021.11's IMB-IO run with IMB-IO's own
            constants (`-iter 50,16,10 -iter_policy off`; its default takes IMB-MPI1's)
  b_eff     b_eff 3.6, compiled with MEMORY_PER_PROCESSOR = --beff-memory and its own -D TEST
            (short loops, 2 random rings), and mpibench with the same --memory (so the same
            L_max), --profile 3.6-test --random 2; --beff-full: 3.6's full rules against
            --profile 3.6 (minutes per run)
  b_eff_io  b_eff_io 2.1, same -MB, -MT, -T, partitions 1 and 2, scratch on --scratch
  Presta    Presta 1.2's com, laten, rma, allred, globalop, same flags

A round runs each program twice (original O and mpibench M) in the order O M O M, rotated by
one from round to round, so a drift of the machine's load favours neither. The two runs of the
same program in one round are its A/A pair: their ratio is what the machine alone does to a
figure, the noise band.

Ratio convention (one for every cell): ratio = original's time / mpibench's time, and for
bandwidths mpibench's / original's. Above 1, mpibench reports the better figure (less time,
more bandwidth); 1.0 = the same figure.

Per round and compared row (benchmark, mode, process count, message length) the ratio is
geomean(O1, O2) against geomean(M1, M2); a cell (suite, processes, benchmark, size class) takes
the geometric mean of its rows per round, and the table prints the median over rounds. Size
classes: 0 B, small (<= 1 KiB), medium (<= 64 KiB), large (> 64 KiB); "-" for figures without
a length. The A/A band of a cell is the range (min-max over rounds) of the original's O1/O2
ratio (computed like the cell); a cell is "ok" when its median lies within that band or within
0.90-1.10, whichever is wider. A cell outside that is "noise" when its median lies within the
symmetric band of both programs' A/A ratios: from 1/w to w, w the largest of every A/A ratio
of either program taken either way round (which of a pair ran first is the rotation's choice,
so an A/A ratio of 2 says 0.5 is as likely); the machine alone moved one program's figure that
far. "digits", before "noise": outside the first band, and in every round every run of either
program printed every row of the cell within one unit of the last printed place of the other's (IMB's times have
two decimals: 0.04 against 0.05 us is a ratio of 0.8 that the printed figures cannot resolve).
"OUT" otherwise. mpibench's own A/A range is printed too. --from-raw prints the table of
an earlier run again from its --raw file (e.g. after a change of these rules).

--relinked DIR (Intel IMB 2021.11's suites): every round also runs the original's second build,
from bench/originals/build.sh -a 64 (the same source and flags, every function on a 64-byte
boundary), twice: O M R O M R, rotated by one per round. Upstream builds IMB 2021.11 at -O0,
where a short loop's speed follows where the linker put it: 2021.11's one CPU-work product took
0.26 us in its IMB-MPI4 binary and 0.24 in its IMB-NBC, the same function. Its column is the
relinked original against mpibench, its A/A the pair R1/R2. "build", after "noise": a cell
outside the noise band that is "ok" by the first rule against the relinked build - two builds
of the original's one source differ by what separates it from mpibench.

IMB rows are matched by position in the length list both programs get (-msglen), not by the
printed length: IMB 3.1 rounds lengths up to whole floats where mpibench may not (then both
printed lengths are kept in the row). The figure compared is what IMB's table leads with: t
for single transfers, t_max for tables with Mbytes/sec (Sendrecv, Exchange, P_ and C_ I/O),
t_avg for the other collectives, and t_ovrl, t_pure and t_CPU for non-blocking I/O (t_CPU is
the CPU_Exploit time each program chose: a cell away from 1 there is a setting that differs,
not a measurement).

MPICH (Debian's, ch4) busy-polls in every blocking call: on more processes than cores each
process spins while the one it waits for is descheduled, and one 4-process IMB-MPI1 run took
minutes on a 2-core machine. MPICH therefore runs 2 processes only (--np overrides).

Usage: python3 bench/side_by_side.py --build BUILD_DIR [--originals DIR] [--rounds N]
           [--quick] [--suites imb-mpi1,imb-mpi1-2021,imb-nbc,imb-nbc-pure,imb-mpi4,imb-mpi4-pure,
                     imb-p2p,imb-ext,imb-io,b_eff,b_eff_io,presta]
           [--np 2,4]
           [--imb2021] [--io-benchmarks all] [--beff-memory MIB] [--beff-full] [--beffio-T S]
           [--scratch DIR] [--relinked DIR] [--out table.md] [--raw raw.json]

Python's standard library only; nothing here is shared with mpibench.
"""
import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
KIB = 1024
IMB_LENGTHS = [0, 1, 4, 64, 1024, 4096, 65536, 1048576, 4194304]
IMB_LENGTHS_QUICK = [0, 1, 64, 4096, 1048576]
# IMB-MPI1's benchmarks of Intel IMB 2021.11 (MPI1_benchmark.cpp), run only when named.
IMB2021_MPI1 = ["PingPongSpecificSource", "PingPongAnySource", "PingPingSpecificSource",
                "PingPingAnySource", "Uniband", "Biband"]
# Intel IMB 2021.11's IMB-NBC (NBC_benchmark.cpp): each default benchmark has a _pure variant
# that runs only when named.
MPI4 = ["Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall",
        "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce", "Barrier"]
NBC = ["Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter", "Iscatterv",
       "Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce", "Ibarrier"]
IO_LENGTHS = [0, 1024, 65536, 1048576]
IO_LENGTHS_QUICK = [0, 4096, 1048576]
IO_SUBSET = ["S_Write_indv", "S_IWrite_indv", "S_Read_indv", "P_Write_indv", "P_Read_shared",
             "P_IRead_priv", "C_Write_expl", "C_Read_indv", "Open_Close"]
IO_POINTERS = {"P": ("indv", "shared", "priv", "expl"), "C": ("indv", "shared", "expl")}
IO_ALL = (["S_Write_indv", "S_IWrite_indv", "S_Write_expl", "S_IWrite_expl"]
          + [f"{p}_{a}_{f}" for p in "PC" for a in ("Write", "IWrite") for f in IO_POINTERS[p]]
          + ["S_Read_indv", "S_IRead_indv", "S_Read_expl", "S_IRead_expl"]
          + [f"{p}_{a}_{f}" for p in "PC" for a in ("Read", "IRead") for f in IO_POINTERS[p]]
          + ["Open_Close"])
EXT_QUICK = ["Unidir_Put", "Unidir_Get", "Accumulate"]


class Failed(Exception):
    pass


def size_class(n):
    if n is None:
        return "-"
    if n == 0:
        return "0 B"
    if n <= KIB:
        return "small"
    if n <= 64 * KIB:
        return "medium"
    return "large"


def run(cmd, cwd, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failed(f"timed out after {timeout} s: {' '.join(cmd)}")
    if p.returncode != 0:
        raise Failed(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
    return p.stdout, time.monotonic() - start


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------- IMB text and JSON ----------

def imb_text(text, lengths):
    """{(benchmark [mode], Q, position): (figure, value, printed bytes)} from an IMB table."""
    out = {}
    name = mode = cols = None
    q, pos = 0, 0
    for line in text.splitlines():
        m = re.match(r"# Benchmarking (?:Multi-)?(\S+)", line)
        if m:
            name, mode, cols, pos = m.group(1), None, None, 0
            continue
        m = re.match(r"# #processes = (\d+)", line)
        if m:
            q = int(m.group(1))
            continue
        m = re.match(r"#\s+MODE: (NON-AGGREGATE|AGGREGATE)", line)
        if m:
            mode = m.group(1).lower()
            continue
        if name and re.match(r"\s*#(bytes|repetitions)", line):
            cols = line.split()
            continue
        if name and cols and re.match(r"\s*\d", line):
            vals = line.split()
            numeric = all(re.match(r"^[-0-9.]+$", v) for v in vals[:len(cols)])
            if len(vals) < len(cols) or not numeric:
                pos += 1  # an out-of-memory or overflow line keeps its place
                continue
            row = dict(zip(cols, map(float, vals)))
            label = name + (f" {mode}" if mode else "")
            nbytes = lengths[pos] if "#bytes" in row and pos < len(lengths) else None
            for fig, val in imb_figures(row):
                out[(label, q, pos, fig)] = (val, nbytes, row.get("#bytes"))
            pos += 1
    return out


def imb_figures(row):
    if "t_ovrl[usec]" in row:
        # t_CPU too: the CPU_Exploit time is a setting, and its row shows where the two
        # programs ran different ones.
        return [("t_ovrl", row["t_ovrl[usec]"]), ("t_pure", row["t_pure[usec]"]),
                ("t_CPU", row["t_CPU[usec]"])]
    if "Msg/sec" in row and "t[usec]" in row:
        return [("t", row["t[usec]"]), ("Msg/sec", row["Msg/sec"])]  # IMB-P2P
    if "Msg/sec" in row:
        return [("Msg/sec", row["Msg/sec"])]  # Uniband, Biband: no time column
    if "t[usec]" in row:
        return [("t", row["t[usec]"])]
    if "Mbytes/sec" in row:
        return [("t_max", row["t_max[usec]"])]
    return [("t_avg", row["t_avg[usec]"])]


def imb_json(path, lengths):
    out = {}
    pos = {}
    for r in read_jsonl(path):
        if r["type"] != "result":
            continue
        label = r["benchmark"] + (f" {r['mode']}" if r.get("mode") else "")
        key = (label, r["processes"])
        p = pos.get(key, 0)
        pos[key] = p + 1
        if r["status"] != "ok":
            continue
        layout = r["layout"]
        if layout in ("overlap", "sync_overlap"):
            figs = [("t_ovrl", r["t_ovrl_usec"]), ("t_pure", r["t_pure_usec"]),
                    ("t_CPU", r["t_cpu_usec"])]
        elif layout == "rate":
            figs = [("Msg/sec", float(round(r["messages_per_sec"])))]
        elif layout == "time_bw":
            figs = [("t", r["t_max_usec"])]
        elif layout == "range_bw":
            figs = [("t_max", r["t_max_usec"])]
        else:
            figs = [("t_avg", r["t_avg_usec"])]
        nbytes = lengths[p] if r["bytes"] is not None and p < len(lengths) else None
        for fig, val in figs:
            # The original prints %.2f microseconds: mpibench's value is rounded alike, so
            # that a 0.006 us 0-byte reduction meets IMB's 0.01 rather than a ratio of 1.7.
            out[(label, r["processes"], p, fig)] = (round(val, 2), nbytes, r["bytes"])
    return out


RATE_FIGURES = {"Msg/sec"}  # figures where more is better, whatever the suite's kind


def to_rows(parsed, kind="t"):
    """Parsed IMB rows -> {key: (value, kind, size for the class)}."""
    return {k: (v[0], "bw" if k[3] in RATE_FIGURES else kind, v[1]) for k, v in parsed.items()}


# ---------------------------------------------------------------- the suites -----------------

class Suite:
    """One comparison: a name, a process count, the two command lines and their parsers."""

    def __init__(self, name, np, note, orig, mine, timeout=900, relinked=None):
        self.name, self.np, self.note = name, np, note
        self.orig, self.mine, self.timeout = orig, mine, timeout
        self.relinked = relinked  # the original's other build (--relinked), or None


def mpirun(ctx, np, io=False):
    # --rt: never for the I/O suites, whose ranks would starve the kernel's writeback threads
    # (an IMB-IO run spun for 15 minutes so), nor for more processes than cores (FIFO ranks do
    # not share a core by time slices).
    rt = ctx["rt"] if not io and np <= (os.cpu_count() or 1) else []
    return rt + ctx["mpiexec"] + ["-np", str(np)]


def imb_suites(ctx, opts):
    out = []
    lens = IMB_LENGTHS_QUICK if opts.quick else IMB_LENGTHS
    lfile = os.path.join(ctx["work"], "imb_lengths")
    with open(lfile, "w") as f:
        f.write("".join(f"{n}\n" for n in lens))
    orig_dir = ctx["orig"]("imb31")

    def imb(family, np, benches, origexe, extra_orig=(), cwd_sub=None, io=False, lengths=lens,
            lengths_file=lfile):
        def orig(work):
            cwd = os.path.join(work, "o")
            os.makedirs(cwd, exist_ok=True)
            text, _ = run(mpirun(ctx, np, io) + [origexe, "-npmin", str(np), "-msglen", lengths_file]
                          + list(extra_orig) + benches, cwd, 1800)
            return to_rows(imb_text(text, lengths))

        def mine(work):
            cwd = os.path.join(work, "m")
            os.makedirs(cwd, exist_ok=True)
            js = os.path.join(work, "m.jsonl")
            if os.path.exists(js):
                os.unlink(js)
            cmd = mpirun(ctx, np, io) + [os.path.join(ctx["build"], family), "-npmin", str(np),
                                     "-msglen", lengths_file, "--json", js, "--quiet"]
            if io:
                cmd += ["--dir", cwd]
            run(cmd + benches, cwd, 1800)
            return to_rows(imb_json(js, lengths))
        return orig, mine

    def relinked(family, np, benches, d2021):
        """The same run of the original's other build (--relinked), or None."""
        d = ctx["relinked"]("imb2021")
        exe = os.path.join(d, family) if d else None
        if d and not os.path.exists(exe):
            ctx["skipped"].append(f"relinked {family}: {exe} is missing")
        return imb(family, np, benches, exe)[0] if d and os.path.exists(exe) else None

    def suite2021(name, family, np, benches, d2021):
        o, m = imb(family, np, benches, os.path.join(d2021, family))
        return Suite(name, np, "", o, m, relinked=relinked(family, np, benches, d2021))

    if "imb-mpi1" in opts.suites and orig_dir:
        for np in ctx["nps"]:
            o, m = imb("IMB-MPI1", np, [], os.path.join(orig_dir, "IMB-MPI1"))
            out.append(Suite("IMB-MPI1", np, "", o, m))
    d2021 = ctx["orig"]("imb2021") if "imb-mpi1-2021" in opts.suites else None
    for np in ctx["nps"] if d2021 else []:
        out.append(suite2021("IMB-MPI1 2021", "IMB-MPI1", np, list(IMB2021_MPI1), d2021))
    d2021 = ctx["orig"]("imb2021")
    for np in ctx["nps"] if d2021 and "imb-nbc" in opts.suites else []:
        out.append(suite2021("IMB-NBC", "IMB-NBC", np, [], d2021))
    for np in ctx["nps"] if d2021 and "imb-nbc-pure" in opts.suites else []:
        pure = [n + "_pure" for n in NBC]
        out.append(suite2021("IMB-NBC _pure", "IMB-NBC", np, pure, d2021))
    mpi4 = d2021 and os.path.exists(os.path.join(d2021, "IMB-MPI4"))
    if not mpi4 and ({"imb-mpi4", "imb-mpi4-pure"} & opts.suites):
        ctx["skipped"].append("IMB-MPI4: no 2021.11 IMB-MPI4 for this MPI (no MPI-4 persistent "
                              "collectives)")
    for np in ctx["nps"] if mpi4 and "imb-mpi4" in opts.suites else []:
        out.append(suite2021("IMB-MPI4", "IMB-MPI4", np, [], d2021))
    for np in ctx["nps"] if mpi4 and "imb-mpi4-pure" in opts.suites else []:
        named = ["Allgather_persist"] + [n + "_persist_pure" for n in MPI4]
        out.append(suite2021("IMB-MPI4 named", "IMB-MPI4", np, named, d2021))
    for np in ctx["nps"] if d2021 and "imb-p2p" in opts.suites else []:
        out.append(p2p_suite(ctx, np, os.path.join(d2021, "IMB-P2P"), lens, lfile))
    if "imb-ext" in opts.suites and orig_dir:
        benches, note = (EXT_QUICK if opts.quick else []), ""
        if ctx["mpi"] == "mpich" and not opts.quick:
            # IMB 3.1's Window aborts in MPI_Win_free on MPICH 4.0 ("Wrong synchronization of
            # RMA calls"), ending its whole IMB-EXT run: the other five run on their own.
            benches = ["Unidir_Put", "Unidir_Get", "Bidir_Get", "Bidir_Put", "Accumulate"]
            note = "no Window: IMB 3.1's Window aborts in MPI_Win_free on MPICH 4.0"
        o, m = imb("IMB-EXT", 2, benches, os.path.join(orig_dir, "IMB-EXT"))
        out.append(Suite("IMB-EXT", 2, note, o, m))
    if "imb-io" in opts.suites:
        io_lens = IO_LENGTHS_QUICK if opts.quick else IO_LENGTHS
        io_file = os.path.join(ctx["work"], "io_lengths")
        with open(io_file, "w") as f:
            f.write("".join(f"{n}\n" for n in io_lens))
        benches = IO_ALL if opts.io_benchmarks == "all" else (
            IO_SUBSET if not opts.io_benchmarks else opts.io_benchmarks.split(","))
        if opts.quick and not opts.io_benchmarks:
            benches = ["S_Write_indv", "S_IWrite_indv", "P_Read_indv", "Open_Close"]
        if orig_dir:
            o, m = imb("IMB-IO", 2, benches, os.path.join(orig_dir, "IMB-IO"), io=True,
                       lengths=io_lens, lengths_file=io_file)
            out.append(Suite("IMB-IO", 2, "", o, m))
        d2021 = ctx["orig"]("imb2021") if opts.imb2021 else None
        if d2021:
            o, m = imb("IMB-IO", 2, benches, os.path.join(d2021, "IMB-IO"), io=True,
                       lengths=io_lens, lengths_file=io_file,
                       extra_orig=["-iter", "50,16,10", "-iter_policy", "off"])
            out.append(Suite("IMB-IO vs 2021", 2, "2021 given -iter 50,16,10 -iter_policy off",
                             o, m))
    return out


def p2p_suite(ctx, np, origexe, lens, lfile):
    """IMB-P2P: both programs print 2021.11's table, read from the text (t and Msg/sec)."""
    def run_p2p(exe, work, sub):
        cwd = os.path.join(work, sub)
        os.makedirs(cwd, exist_ok=True)
        text, _ = run(mpirun(ctx, np) + [exe, "-msglen", lfile], cwd, 1800)
        return to_rows(imb_text(text, lens))
    d = ctx["relinked"]("imb2021")
    other = os.path.join(d, "IMB-P2P") if d else None
    return Suite("IMB-P2P", np, "", lambda w: run_p2p(origexe, w, "o"),
                 lambda w: run_p2p(os.path.join(ctx["build"], "IMB-P2P"), w, "m"),
                 relinked=(lambda w: run_p2p(other, w, "r")) if d else None)


def beff_suite(ctx, opts):
    d = ctx["orig"]("beff36")
    mem = opts.beff_memory or (128 if opts.quick else 1024)
    # 3.6's full rules take minutes per run (0.5 s per loop, 30 random rings): unless
    # --beff-full, the 3.6 binary built with its own -D TEST runs against mpibench's
    # --profile 3.6-test with 3.6 TEST's 2 random rings.
    test = not opts.beff_full
    exe = os.path.join(d, f"b_eff-M{mem}{'-test' if test else ''}") if d else None
    if not exe or not os.path.exists(exe):
        ctx["skipped"].append(f"b_eff: no {exe or 'beff36 build'} "
                              f"(bench/originals/build.sh -b {mem})")
        return []
    profile = ["--profile", "3.6-test", "--random", "2"] if test else ["--profile", "3.6"]

    def orig(work):
        run(mpirun(ctx, 2) + [exe, "-f", "orig"], work, 1800)
        text = ""
        for ext in (".sum", ".short", ".prot"):
            p = os.path.join(work, "orig" + ext)
            if os.path.exists(p):
                with open(p, errors="replace") as f:
                    text += f.read()
        # .short's sentence; the final line says "b_effTEST =" in a -D TEST build.
        m = re.search(r"effective bandwidth is b_eff =\s*([0-9.]+)", text) or \
            re.search(r"^\s*b_eff\w*\s*=\s*([0-9.]+)\s*MB/s", text, re.M)
        lmax = re.search(r"b_eff at Lmax:?\s*=?\s*([0-9.]+)\s*MByte/s", text)
        if not m:
            raise Failed("b_eff 3.6: no 'b_eff = ' line")
        rows = {("b_eff", 2, 0, "MB/s"): (float(m.group(1)), "bw", None)}
        if lmax:
            rows[("b_eff at L_max", 2, 0, "MB/s")] = (float(lmax.group(1)), "bw", None)
        return rows

    def mine(work):
        js = os.path.join(work, "m.jsonl")
        if os.path.exists(js):
            os.unlink(js)
        run(mpirun(ctx, 2) + [os.path.join(ctx["build"], "b_eff"), "--memory", str(mem)]
            + profile + ["-f", "mine", "--json", js, "--quiet"], work, 1800)
        for r in read_jsonl(js):
            if r["type"] == "beff_result":
                lmax = r["b_eff_at_lmax_mb_per_sec"]
                return {("b_eff", 2, 0, "MB/s"): (r["b_eff_mb_per_sec"], "bw", None),
                        ("b_eff at L_max", 2, 0, "MB/s"): (lmax, "bw", None)}
        raise Failed("mpibench b_eff: no beff_result")
    return [Suite("b_eff", 2, f"{mem} MiB per process (L_max {mem / 128:g} MiB), "
                  f"{os.path.basename(exe)} against mpibench {' '.join(profile)}", orig, mine)]


def beffio_suite(ctx, opts):
    d = ctx["orig"]("beffio21")
    if not d:
        return []
    T = opts.beffio_T or (10 if opts.quick else 20)
    mb = 64
    args = ["-MB", str(mb), "-MT", str(2 * mb), "-T", str(T), "-N", "1,2"]

    def orig(work):
        out, _ = run(mpirun(ctx, 2, True) + [os.path.join(d, "b_eff_io")] + args
                     + ["-p", work, "-f", "orig"], work, 20 * T + 300)
        with open(os.path.join(work, "orig.sum"), errors="replace") as f:
            s = f.read()
        rows = {}
        m = re.search(r"b_eff_io =\s+([0-9.]+) MB/s", out + s)
        if not m:
            raise Failed("b_eff_io 2.1: no result line")
        rows[("b_eff_io (headline)", 2, 0, "MB/s")] = (float(m.group(1)), "bw", None)
        # Per partition: the "weighted average bandwidth for <access>" lines, then "b_eff_io of
        # these measurements = X MB/s on N processes".
        acc = {}
        for line in s.splitlines():
            m = re.match(r"weighted average bandwidth for (\w+)\s*:\s*([0-9.]+) MB/s on (\d+)",
                         line)
            if m:
                acc[m.group(1)] = float(m.group(2))
                continue
            m = re.match(r"b_eff_io of these measurements =\s*([0-9.]+) MB/s on (\d+)", line)
            if m:
                n = int(m.group(2))
                rows[(f"partition {n} PE: b_eff_io", 2, 0, "MB/s")] = (
                    float(m.group(1)), "bw", None)
                for a, v in acc.items():
                    rows[(f"partition {n} PE: {a}", 2, 0, "MB/s")] = (v, "bw", None)
                acc = {}
        return rows

    def mine(work):
        js = os.path.join(work, "m.jsonl")
        if os.path.exists(js):
            os.unlink(js)
        run(mpirun(ctx, 2, True) + [os.path.join(ctx["build"], "b_eff_io")] + args
            + ["-p", work, "-f", "mine", "--json", js, "--quiet"], work, 20 * T + 300)
        rows = {}
        for r in read_jsonl(js):
            if r["type"] == "beffio_result":
                rows[("b_eff_io (headline)", 2, 0, "MB/s")] = (
                    r["b_eff_io_mb_per_sec"], "bw", None)
            if r["type"] == "beffio_partition":
                n = r["processes"]
                rows[(f"partition {n} PE: b_eff_io", 2, 0, "MB/s")] = (
                    r["b_eff_io_mb_per_sec"], "bw", None)
                if "release21_mb_per_sec" in r:
                    rows[(f"partition {n} PE: b_eff_io by 2.1's formula", 2, 0, "MB/s")] = (
                        r["release21_mb_per_sec"], "bw", None)
                for a, v in zip(("write", "rewrite", "read"), r["access_mb_per_sec"]):
                    rows[(f"partition {n} PE: {a}", 2, 0, "MB/s")] = (v, "bw", None)
        return rows

    def orig_with_21(work):
        rows = orig(work)
        # 2.1's own partition value is its formula: the mpibench row of that name compares to it.
        for k in list(rows):
            if k[0].endswith(": b_eff_io"):
                rows[(k[0] + " by 2.1's formula",) + k[1:]] = rows[k]
        return rows
    return [Suite("b_eff_io", 2, f"-MB {mb} -MT {2 * mb} -T {T} -N 1,2, scratch {ctx['scratch']}",
                  orig_with_21, mine, 20 * T + 300)]


def presta_suites(ctx, opts):
    d = ctx["orig"]("presta12")
    if not d:
        return []
    progs = {
        "com": ["-o", "100", "-e", "1048576"],
        "laten": ["-o", "1000"],
        "rma": ["-o", "32", "-c", "4", "-e", "1048576"],
        "allred": ["200", "50", "10"],
        "globalop": [],
    }
    if "presta" not in opts.suites:
        progs = {"globalop": []}
    if opts.quick and "com" in progs:
        progs["com"] = ["-o", "100", "-e", "65536"]
        progs["rma"] = ["-o", "16", "-c", "4", "-e", "65536"]
    if opts.quick and "globalop" not in opts.explicit and "globalop" in progs:
        del progs["globalop"]
        ctx["skipped"].append("Presta globalop: not in --quick (a fixed amount of work: 1-35 s "
                              "per run on a 2-core machine, by its load; --quick --suites "
                              "presta,globalop runs it)")
    # globalop prints two decimals of seconds; its five-decimal build (bench/originals/
    # build.sh), when present, runs in its place and mpibench's figures are then not rounded.
    digits = os.path.exists(os.path.join(d, "globalop-digits"))
    out = []
    for prog, args in progs.items():
        exe = "globalop-digits" if prog == "globalop" and digits else prog

        def orig(work, prog=prog, args=args, exe=exe):
            text, _ = run(mpirun(ctx, 2) + [os.path.join(d, exe)] + args, work, 900)
            return presta_text(prog, text)

        def mine(work, prog=prog, args=args):
            js = os.path.join(work, "m.jsonl")
            if os.path.exists(js):
                os.unlink(js)
            run(mpirun(ctx, 2) + [os.path.join(ctx["build"], prog)] + args + ["--json", js],
                work, 900)
            return presta_json(prog, read_jsonl(js), digits)
        note = " ".join(args + (["original printing five decimals (globalop-digits)"]
                                if exe != prog else []))
        out.append(Suite(f"Presta {prog}", 2, note, orig, mine))
    return out


def presta_text(prog, text):
    rows = {}
    if prog in ("com", "rma"):
        for line in text.splitlines():
            m = re.match(r"\s+(Unidirectional|Bidirectional|Unidir\. Put|Unidir\. Get|Bidir\. Put|"
                         r"Bidir\. Get)\s+(\d+)\s+(\d+)\s+(?:\d+\s+)?([0-9.]+)\s+([0-9.]+)\s*$", line)
            if m:
                n = int(m.group(3))
                rows[(m.group(1), int(m.group(2)), n, "op time")] = (float(m.group(5)), "t", n)
    elif prog == "laten":
        m = re.search(r"-{10,}\n\s+(\d+)\s+([0-9.]+)", text)
        if m:
            rows[("Max latency", int(m.group(1)), 0, "us")] = (float(m.group(2)), "t", None)
    elif prog == "allred":
        # A difference of two loop times: it can come out negative, like mpibench's JSON value
        # (both then drop out of the ratios alike).
        m = re.search(r"Op mean\s*:\s*(-?[0-9.]+) us", text)
        if m:
            rows[("Op mean", 2, 0, "us")] = (float(m.group(1)), "t", None)
    elif prog == "globalop":
        vals = {}
        for m in re.finditer(r"Average (.+?) time per task is\s+([0-9.]+)", text):
            vals.setdefault(m.group(1), []).append(float(m.group(2)))
        for sec, v in vals.items():
            rows[(sec, 2, 0, "avg")] = (statistics.median(v), "t", None)
    if not rows:
        raise Failed(f"Presta {prog}: nothing parsed")
    return rows


def presta_json(prog, recs, digits=False):
    rows = {}
    vals = {}
    for r in recs:
        if r["type"] == "presta_row":
            if prog == "laten":
                rows[("Max latency", r["processes"], 0, "us")] = (r["latency_usec"], "t", None)
            else:
                n = r["bytes"]
                rows[(r["test"], r["processes"], n, "op time")] = (r["op_time_usec"], "t", n)
        elif r["type"] == "presta_allred":
            rows[("Op mean", 2, 0, "us")] = (r["op_mean_usec"], "t", None)
        elif r["type"] == "presta_globalop":
            # globalop.c prints seconds per loop of 4096 operations with %7.2f (the work loop
            # %7.4f): MPICH's barrier loop, 2-6 ms, prints as 0.00 or 0.01. Against that
            # build mpibench's value is rounded alike, so that 0.002 s meets the original's
            # 0.00 (no ratio) rather than its 0.01 (a ratio of 5); against globalop-digits
            # (five decimals) it is not.
            places = 5 if digits else 4 if r["section"] == "work" else 2
            vals.setdefault(r["section"], []).append(round(r["avg_sec"], places))
    for sec, v in vals.items():
        rows[(sec, 2, 0, "avg")] = (statistics.median(v), "t", None)
    return rows


# ---------------------------------------------------------------- rounds and the table -------

def better_ratio(a, b, kind):
    """How much better b is than a: a/b for times, b/a for bandwidths."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None  # a figure printed as 0 (e.g. 0-byte reductions) has no ratio
    return a / b if kind == "t" else b / a


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def cell_of(key, n):
    label = key[0] if key[3] in ("t", "t_max", "t_avg", "MB/s", "op time", "us", "avg") \
        else f"{key[0]} ({key[3]})"
    return (label, key[1], size_class(n))


def cells_of(rows_a, rows_b):
    """{(benchmark figure, Q, class): [ratio per row]} for the rows both runs have; the ratio
    says how much better rows_b's figure is than rows_a's."""
    out = {}
    for key, (va, kind, n) in rows_a.items():
        if key in rows_b:
            out.setdefault(cell_of(key, n), []).append(better_ratio(va, rows_b[key][0], kind))
    return out


def printed_alike(a, b):
    """Whether two figures lie within one unit of the last printed place of each other, the
    original's figure a printed with 2 decimals (IMB's %.2f, Presta globalop's %7.2f): 0.04
    against 0.05 us, a ratio of 0.8, says no more than that both lie near 0.045."""
    return a is not None and b is not None and abs(a * 100 - round(a * 100)) < 1e-6 and \
        abs(a - b) <= 0.01 + 1e-9


def alike_cells(rows_a, rows_b):
    """The cells every row of which is printed_alike in one run of the original (rows_a) and
    one of mpibench (rows_b)."""
    alike = {}
    for key, (va, _kind, n) in rows_a.items():
        if key in rows_b:
            c = cell_of(key, n)
            alike[c] = alike.get(c, True) and printed_alike(va, rows_b[key][0])
    return {c for c, v in alike.items() if v}


def round_cells(res):
    """One round's cells from its four runs (res = {"O": [O1, O2], "M": [M1, M2]}, each
    {row key: (figure, kind, length)}; with --relinked also "R": [R1, R2]): the A/B ratios,
    the A/A ratios, the relinked original's ratios to mpibench and the runs themselves (for
    --raw); and the benchmarks only one program printed."""
    def both(x1, x2):
        return {k: (gmean([x1[k][0], x2[k][0]]),) + tuple(x1[k][1:]) for k in x1 if k in x2}
    o1, o2 = res["O"]
    m1, m2 = res["M"]
    both_o, both_m = both(o1, o2), both(m1, m2)
    missing = {k[0] for k in set(both_o) ^ set(both_m)}
    # A cell is alike in a round when every run of the original and of mpibench printed it
    # within one unit of the last place of each other.
    alike = set.intersection(*[alike_cells(o, m) for o in (o1, o2) for m in (m1, m2)])
    cells = {"ab": {c: gmean(v) for c, v in cells_of(both_o, both_m).items()},
             "alike": alike,
             "aa_o": {c: gmean(v) for c, v in cells_of(o2, o1).items()},
             "aa_m": {c: gmean(v) for c, v in cells_of(m2, m1).items()},
             "raw": {who: [list(map(list, x.items())) for x in res[who]] for who in res}}
    if res.get("R"):
        r1, r2 = res["R"]
        cells["ab_r"] = {c: gmean(v) for c, v in cells_of(both(r1, r2), both_m).items()}
        cells["aa_r"] = {c: gmean(v) for c, v in cells_of(r2, r1).items()}
    return cells, missing


def from_raw(path):
    """The results of an earlier run from its --raw file: [(suite, per_round, missing)]."""
    with open(path) as f:
        saved = json.load(f)
    results = []
    for s in saved:
        per_round, missing = [], set()
        for rnd in s["rounds"]:
            res = {who: [{tuple(k): tuple(v) for k, v in run} for run in rnd[who]]
                   for who in ("O", "M", "R") if who in rnd}
            cells, miss = round_cells(res)
            per_round.append(cells)
            missing |= miss
        results.append((Suite(s["suite"], s["np"], "", None, None), per_round, sorted(missing)))
    return results


def run_suite(suite, rounds, work, log):
    per_round = []
    missing = set()
    progs = {"O": (suite.orig, "original"), "M": (suite.mine, "mpibench"),
             "R": (suite.relinked, "original relinked")}
    for k in range(rounds):
        order = ["O", "M", "R"] * 2 if suite.relinked else ["O", "M"] * 2
        order = order[k % len(order):] + order[:k % len(order)]
        res = {who: [] for who in order}
        for who in order:
            d = tempfile.mkdtemp(dir=work)
            try:
                t0 = time.monotonic()
                rows = progs[who][0](d)
                res[who].append(rows)
                prog = progs[who][1]
                log(f"    {suite.name} np {suite.np} round {k + 1} {prog}: {len(rows)} figures, "
                    f"{time.monotonic() - t0:.1f} s, load {os.getloadavg()[0]:.1f}")
            finally:
                shutil.rmtree(d, ignore_errors=True)
        cells, miss = round_cells(res)
        missing |= miss
        per_round.append(cells)
    return per_round, sorted(missing)


def fmt_range(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    return f"{min(vals):.2f}" if len(vals) == 1 or min(vals) == max(vals) else \
        f"{min(vals):.2f}-{max(vals):.2f}"


CLASS_ORDER = {"-": 0, "0 B": 1, "small": 2, "medium": 3, "large": 4}


def verdict_of(med, aa_o, aa_m, alike=False, med_r=None, aa_r=()):
    """"ok": the median lies within the original's A/A range or 0.90-1.10, whichever is wider;
    "noise": it lies outside that but within the symmetric band of both programs' A/A ratios
    (the widest of them, either way round); "OUT": neither. A cell not "ok" whose figures were
    printed alike in every round (alike) is "digits", before "noise" or "OUT": its ratio
    says nothing. "build", after "noise": against the original's relinked build (med_r, its
    A/A aa_r) the cell is "ok" by the first rule: two builds of the original's one source
    differ by what separates it from mpibench."""
    if min(aa_o + [0.9]) <= med <= max(aa_o + [1.1]):
        return "ok"
    if alike:
        return "digits"
    wide = max([max(r, 1 / r) for r in aa_o + aa_m] + [1.1])
    if 1 / wide <= med <= wide:
        return "noise"
    if med_r is not None and min(list(aa_r) + [0.9]) <= med_r <= max(list(aa_r) + [1.1]):
        return "build"
    return "OUT"


def table(results):
    relinked = any("ab_r" in r for _s, per_round, _m in results for r in per_round)
    lines = ["| suite | np | benchmark | size class | ratio (median) | rounds | A/A original | "
             "A/A mpibench | " + ("relinked original (median) | " if relinked else "")
             + "within |", "|---|---|---|---|---|---|---|---|---|" + ("---|" if relinked else "")]
    outside, noise = [], []
    counts = {}
    for suite, per_round, _missing in results:
        # The original's order of benchmarks (rows are kept in the order it printed them).
        cells = list(dict.fromkeys(c for r in per_round for c in r["ab"]))
        seen = list(dict.fromkeys(c[0] for c in cells))
        cells.sort(key=lambda c: (seen.index(c[0]), CLASS_ORDER[c[2]]))
        for c in cells:
            ab = [r["ab"].get(c) for r in per_round if r["ab"].get(c)]
            aa_o = [r["aa_o"].get(c) for r in per_round if r["aa_o"].get(c)]
            aa_m = [r["aa_m"].get(c) for r in per_round if r["aa_m"].get(c)]
            if not ab:
                continue
            med = statistics.median(ab)
            ab_r = [r["ab_r"].get(c) for r in per_round if r.get("ab_r", {}).get(c)]
            aa_r = [r["aa_r"].get(c) for r in per_round if r.get("aa_r", {}).get(c)]
            med_r = statistics.median(ab_r) if ab_r else None
            verdict = verdict_of(med, aa_o, aa_m, all(c in r["alike"] for r in per_round),
                                 med_r, aa_r)
            ok = verdict != "OUT"
            label = c[0] if c[1] == suite.np else f"{c[0]} ({c[1]} active)"
            row = (f"| {suite.name} | {suite.np} | {label} | {c[2]} | {med:.2f} | {fmt_range(ab)} | "
                   f"{fmt_range(aa_o)} | {fmt_range(aa_m)} | "
                   + ((f"{med_r:.2f} | " if med_r else "- | ") if relinked else "")
                   + f"{verdict} |")
            lines.append(row)
            tally = counts.setdefault((suite.name, suite.np), {})
            tally[verdict] = tally.get(verdict, 0) + 1
            if not ok:
                outside.append(row)
            elif verdict != "ok":
                noise.append(row)
    return lines, outside, noise, counts


def summary(counts, outside, noise):
    """The cells per suite and verdict, and the closing line."""
    verdicts = ["ok", "noise", "digits"] + (
        ["build"] if any("build" in t for t in counts.values()) else []) + ["OUT"]
    out = ["", "| suite | np | cells | " + " | ".join(verdicts) + " |",
           "|---|---|---|" + "---|" * len(verdicts)]
    for (name, np), t in counts.items():
        out.append(f"| {name} | {np} | {sum(t.values())} | "
                   + " | ".join(str(t.get(v, 0)) for v in verdicts) + " |")
    out.append("")
    out.append(f"{len(outside)} of {sum(sum(t.values()) for t in counts.values())} cells outside "
               f"every band; {len(noise)} more only within both programs' A/A noise or the "
               "printed digits" + (" or the original's relinked build" if "build" in verdicts
                                   else ""))
    return out


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    osname = platform.platform()
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    osname = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {cpu}, {osname}, kernel {platform.release()}"


def mpi_of(build):
    exe = cc = None
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("MPIEXEC_EXECUTABLE:"):
                exe = line.split("=", 1)[1].strip()
            if line.startswith("MPI_C_COMPILER:"):
                cc = line.split("=", 1)[1].strip()
    if not exe:
        sys.exit(f"{build}: no MPIEXEC_EXECUTABLE in CMakeCache.txt")
    v = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    if "Open MPI" in v or "OpenRTE" in v:
        m = re.search(r"(\d+\.\d+\.\d+)", v)
        return "openmpi", [exe, "--oversubscribe"], f"Open MPI {m.group(1) if m else '?'}"
    m = re.search(r"Version:\s*(\S+)", v)
    return "mpich", [exe], f"MPICH {m.group(1) if m else '?'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--build", help="mpibench build directory (required unless --from-raw)")
    ap.add_argument("--from-raw", metavar="RAW",
                    help="run nothing: print the table of an earlier run from its --raw file")
    ap.add_argument("--originals", help="bench/originals/build.sh's OUTDIR (default "
                    "/work/peers/build/sbs, /work/peers/build or ~/mpibench-originals, the first "
                    "present)")
    ap.add_argument("--relinked", metavar="DIR",
                    help="also run Intel IMB 2021.11's other build from this OUTDIR of "
                    "bench/originals/build.sh -a 64 (its functions at other addresses) in every "
                    "round of the 2021.11 suites; a cell that is OUT against the original as "
                    "released but ok against this build is judged \"build\"")
    ap.add_argument("--rounds", type=int, help="alternating rounds (default 3; --quick 1)")
    ap.add_argument("--quick", action="store_true",
                    help="fewer lengths and benchmarks, one round, no globalop (~3-5 min)")
    ap.add_argument("--suites", help="any of imb-mpi1,imb-mpi1-2021,imb-nbc,imb-nbc-pure,imb-mpi4,"
                    "imb-mpi4-pure,imb-p2p,imb-ext,imb-io,b_eff,b_eff_io,presta (default all; 'globalop' adds Presta globalop "
                    "to --quick)")
    ap.add_argument("--np", help="IMB-MPI1 process counts (default 2,4 for Open MPI, 2 for MPICH)")
    ap.add_argument("--imb2021", action="store_true", help="also IMB-IO against Intel IMB 2021.11")
    ap.add_argument("--io-benchmarks", help="'all' or a comma list (default: a subset of 9)")
    ap.add_argument("--beff-memory", type=int,
                    help="MiB per process for b_eff (default 1024; quick 128)")
    ap.add_argument("--beff-full", action="store_true",
                    help="b_eff 3.6's full rules against --profile 3.6 (minutes per run); "
                    "default: 3.6 built with -D TEST against --profile 3.6-test --random 2")
    ap.add_argument("--beffio-T", type=int, help="b_eff_io -T (default 20; quick 10)")
    ap.add_argument("--scratch", default="/var/tmp", help="where scratch directories go (a disk)")
    ap.add_argument("--rt", action="store_true",
                    help="run the communication suites (original and mpibench alike; not IMB-IO and "
                    "b_eff_io, whose ranks would starve the kernel's I/O threads, and not with more "
                    "processes than cores) under chrt -f 1, "
                    "so that other load on the machine cannot preempt them (needs root or "
                    "CAP_SYS_NICE; the kernel still keeps 5 %% of each second for other tasks)")
    ap.add_argument("--out", help="also write the Markdown table to this file")
    ap.add_argument("--raw", help="write every run's parsed figures as JSON to this file")
    opts = ap.parse_args()
    if opts.from_raw:
        lines, outside, noise, counts = table(from_raw(opts.from_raw))
        print("\n".join(lines + summary(counts, outside, noise)))
        return 0
    if not opts.build:
        ap.error("--build is required (or --from-raw)")
    opts.suites_given = opts.suites is not None
    opts.suites = (opts.suites or
                   "imb-mpi1,imb-mpi1-2021,imb-nbc,imb-nbc-pure,imb-mpi4,imb-mpi4-pure,imb-p2p,"
                   "imb-ext,imb-io,b_eff,b_eff_io,presta")
    opts.explicit = set(opts.suites.split(",")) if opts.suites_given else set()
    opts.suites = set(opts.suites.split(","))
    build = os.path.abspath(opts.build)
    mpi, mpiexec, mpiver = mpi_of(build)
    rounds = opts.rounds or (1 if opts.quick else 3)
    originals = opts.originals or next(
        (d for d in ("/work/peers/build/sbs", "/work/peers/build",
                     os.path.expanduser("~/mpibench-originals")) if os.path.isdir(d)), None)
    skipped = []

    def orig(name):
        d = os.path.join(originals or "/nonexistent", f"{name}-{mpi}")
        if os.path.isdir(d):
            return d
        skipped.append(f"{name}: {d} is missing "
                       f"(run bench/originals/build.sh -o {originals or 'DIR'})")
        return None

    def relinked(name):
        d = os.path.join(opts.relinked, f"{name}-{mpi}") if opts.relinked else None
        if d and not os.path.isdir(d):
            sys.exit(f"--relinked {opts.relinked}: no {d} (bench/originals/build.sh -a 64 -o DIR)")
        return d

    nps = [int(x) for x in (opts.np or ("2,4" if mpi == "openmpi" else "2")).split(",")]
    work = tempfile.mkdtemp(prefix="side-by-side-", dir=opts.scratch)
    ctx = {"build": build, "mpi": mpi, "mpiexec": mpiexec, "nps": nps, "work": work, "orig": orig,
           "skipped": skipped, "scratch": opts.scratch, "relinked": relinked,
           "rt": ["chrt", "-f", "1"] if opts.rt else []}

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    started = time.time()
    version = subprocess.run([os.path.join(build, "mpibench"), "--version"], capture_output=True,
                             text=True).stdout.strip() or "mpibench (version unknown)"
    log(f"side_by_side: {build} ({mpiver}), originals in {originals}, {rounds} round(s)")
    results = []
    failures = []
    try:
        suites = imb_suites(ctx, opts)
        if "b_eff" in opts.suites:
            suites += beff_suite(ctx, opts)
        if "b_eff_io" in opts.suites:
            suites += beffio_suite(ctx, opts)
        if "presta" in opts.suites or "globalop" in opts.suites:
            suites += presta_suites(ctx, opts)
        for s in suites:
            log(f"  {s.name}, {s.np} processes{', ' + s.note if s.note else ''}")
            try:
                per_round, missing = run_suite(s, rounds, work, log)
                results.append((s, per_round, missing))
            except Failed as e:
                failures.append(f"{s.name} np {s.np}: {e}")
                log(f"  FAILED {s.name}: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines, outside, noise, counts = table(results)
    head = [f"`python3 bench/side_by_side.py {' '.join(sys.argv[1:])}`"
            f" - {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
            f"{(time.time() - started) / 60:.1f} min, {version}, {mpiver}; {machine()}; "
            f"load average at the end {os.getloadavg()[0]:.1f}", ""]
    notes = [""] + [f"- {s.name} ({s.np} processes): {s.note}" for s, _, _ in results if s.note]
    notes += [f"- {s.name}: rows only one program printed: {', '.join(m)}"
              for s, _, m in results if m]
    notes += [f"- skipped: {x}" for x in skipped]
    notes += [f"- FAILED: {x.splitlines()[0]}" for x in failures]
    text = "\n".join(head + lines + notes + summary(counts, outside, noise)) + "\n"
    print(text)
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(text)
    if opts.raw:
        with open(opts.raw, "w") as f:
            json.dump([{"suite": s.name, "np": s.np, "rounds": [r["raw"] for r in pr]}
                       for s, pr, _ in results], f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
