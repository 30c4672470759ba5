#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpibench against its peers, alternating, at every message length.

For each MPI build directory given (Open MPI with --openmpi, MPICH with --mpich) and each
round, the programs below run one after the other, in an order that rotates from round to
round, so that a drift of the machine's load favours none of them:

  p2p   2 processes, PingPong, PingPing, Sendrecv, Exchange at 0, 1, 2, 4 ... --max-bytes:
        mpibench IMB-MPI1 (its JSON); "loop", bench/ref_p2p.c (mb_ref_p2p), a minimal loop
        that shares nothing with mpibench; the original Intel IMB-MPI1 (--imb-*, optional);
        OSU's osu_latency for PingPong (--osu-*, optional; OSU has no PingPing, Sendrecv or
        Exchange, and its bandwidth tests stream a window of messages, a different quantity).
  coll  --nps processes (default 2 and 4), Allreduce, Bcast, Alltoall: mpibench, the
        minimal loop bench/ref_coll.c (mb_ref_coll) and the original IMB-MPI1. MPICH on more
        processes than CPUs is skipped: its ranks busy-poll, and one oversubscribed pass of
        mpibench took over 4 minutes on the 2-core VM.
  beff  4 processes: mpibench b_eff (the papers' loop lengths, its default, and
        --profile 3.6) against the original b_eff 3.6 (--beff-src, compiled here with the
        same memory per process, so the same L_max), --beff-runs rounds.

Every program runs IMB's standard repetition count at every length, n = min(1000, 40 MiB / X)
(guide 5.2.8): mpibench by default, the loops with "imb", Intel's IMB with
`-iter 1000,40 -iter_policy dynamic` (its table's count is checked) and `-root_shift 1` (its
default keeps Bcast's root at 0; IMB 3.1 moves it on every call) and `-sync 0` (its default
times every collective call alone between barriers, IMB 3.1 the loop of n calls),
osu_latency with -i n (one launch per distinct count). What differs is each program's warm-up, kept as it is:
the minimal loop sends 2 messages of each length before timing it, IMB 2021 max(n/10,
min(n, 10)) after an untimed run of the length, OSU its default -x; mpibench follows IMB 3.1
(2 messages of 4 bytes per benchmark, plus one untimed pass over its buffers at the largest
length). "loop-3.1" is the minimal loop under that same rule (buffers for the largest length
written once, 2 messages of the largest length, no warm-up per length): a control that shows
what the warm-up rule alone does, not a peer.

Times are compared per sample: PingPong's is half a round trip, PingPing's, Sendrecv's and
Exchange's t_max as IMB defines it, the collectives' t_avg. Bandwidth = X (PingPong,
PingPing), 2X (Sendrecv), 4X (Exchange) per sample in 2^20 bytes/s (IMB 3.1; IMB 2021 prints
10^6 and only two decimals of its times, which limits what it can resolve below 1 us).

Printed per benchmark and length: the median of each program, the ratio of mpibench's median
time to the best (lowest) peer median, the median of the per-round ratios to that peer, whether
mpibench is within the goal (time <= 1.03 x the best peer, i.e. bandwidth >= 0.97 x), and the
ratio to loop-3.1. Last, the goal applied to every program in turn against the others: how
often a peer meets it shows what the goal can resolve on the machine.

Usage: python3 bench/peer_figures.py --openmpi build-openmpi [--mpich build-mpich]
           [--imb-openmpi EXE] [--imb-mpich EXE] [--osu-openmpi DIR] [--osu-mpich DIR]
           [--beff-src b_eff.c] [--runs 7] [--beff-runs 3] [--idle-wait SECS]
           [--sections p2p,coll,beff] [--max-bytes N] [--nps 2,4] [--beff-memory MIB]
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_figures import MB, launcher  # noqa: E402
from ext_figures import library, loadavg, wait_idle  # noqa: E402

GOAL = 1.03
SAME = "loop-3.1"  # the minimal loop under IMB 3.1's warm-up rule: not a peer, a control
P2P = ("PingPong", "PingPing", "Sendrecv", "Exchange")
COLL = ("Allreduce", "Bcast", "Alltoall")


def run(cmd, cwd=None):
    """Runs a command, once more if Open MPI's launcher lost a race for its session
    directory with another job on this shared machine; exits on any other failure."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for attempt in range(3):
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
        if proc.returncode == 0:
            return proc.stdout, time.monotonic() - start
        if "session_dir" not in proc.stdout + proc.stderr:
            break
        time.sleep(1)
    sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def imb_reps(x):
    """IMB's standard count (guide 5.2.8): MSGSPERSAMPLE = 1000, OVERALL_VOL = 40 MB."""
    return 1000 if x == 0 else max(1, min(1000, 40 * MB // x))


def lengths(max_bytes):
    out, x = [0], 1
    while x <= max_bytes:
        out.append(x)
        x *= 2
    return out


def mpirun(mpiexec, np, argv):
    return mpiexec + ["-np", str(np)] + argv


# ---- the programs: each returns {(benchmark, bytes): (time_usec, repetitions)} ----

def run_mpibench(mpiexec, build, tmp, np, benches, sizes, extra=()):
    lens = os.path.join(tmp, "lens")
    with open(lens, "w") as f:
        f.write("".join(f"{x}\n" for x in sizes))
    path = os.path.join(tmp, "mb.jsonl")
    run(mpirun(mpiexec, np, [os.path.join(build, "IMB-MPI1"), *benches, "-npmin", str(np),
                             "-msglen", lens, "--json", path, "--quiet", *extra]))
    got = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] != "result" or r["processes"] != np or r.get("status") != "ok":
                continue
            t = r["t_avg_usec"] if r["benchmark"] in COLL else r["t_max_usec"]
            got[(r["benchmark"], r["bytes"])] = (t, r["repetitions"])
    return got


def run_ref(mpiexec, build, program, column, np, benches, sizes, warmup):
    """A minimal loop (mb_ref_p2p or mb_ref_coll): one launch per benchmark, one line per
    length, "name bytes repetitions ...", the compared time in the given column."""
    got = {}
    for b in benches:
        out, _ = run(mpirun(mpiexec, np, [os.path.join(build, program), b.lower(), "imb",
                                          warmup, *map(str, sizes)]))
        for line in out.splitlines():
            f = line.split()
            got[(b, int(f[1]))] = (float(f[column]), int(f[2]))
    return got


def run_ref_p2p(mpiexec, build, np, benches, sizes, warmup):
    """mb_ref_p2p's lines: name, bytes, repetitions, t_max, bandwidth."""
    return run_ref(mpiexec, build, "mb_ref_p2p", 3, np, benches, sizes, warmup)


def run_ref_coll(mpiexec, build, np, benches, sizes, warmup):
    """mb_ref_coll's lines: name, bytes, repetitions, t_min, t_max, t_avg."""
    return run_ref(mpiexec, build, "mb_ref_coll", 5, np, benches, sizes, warmup)


ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+(?:\s+[0-9.]+)*)\s*$")


def run_intel(mpiexec, exe, tmp, np, benches, sizes):
    """The original IMB-MPI1's text tables: t (single transfers), t_max (parallel), t_avg."""
    lens = os.path.join(tmp, "lens_intel")
    with open(lens, "w") as f:
        f.write("".join(f"{x}\n" for x in sizes))
    need_gb = max(sizes) * max(np, 3) * 2 / 1e9 + 0.5
    out, _ = run(mpirun(mpiexec, np, [exe, *benches, "-npmin", str(np), "-msglen", lens,
                                      "-msglog", str(max(1, max(sizes).bit_length() - 1)),
                                      "-iter", "1000,40", "-iter_policy", "dynamic",
                                      "-root_shift", "1", "-sync", "0",
                                      "-mem", f"{need_gb:.1f}", "-time", "600"]))
    got, bench, procs = {}, None, None
    for line in out.splitlines():
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            bench = m.group(1)
            continue
        m = re.match(r"# #processes = (\d+)", line)
        if m:
            procs = int(m.group(1))
            continue
        m = ROW.match(line)
        if m and bench in benches and procs == np:
            vals = [float(v) for v in m.group(3).split()]
            if bench in ("PingPong", "PingPing"):
                t = vals[0]
            elif bench in COLL:
                t = vals[2]
            else:
                t = vals[1]
            got[(bench, int(m.group(1)))] = (t, int(m.group(2)))
    return got


def run_osu_latency(mpiexec, osu_dir, sizes):
    """osu_latency, one launch per distinct IMB repetition count (OSU's -i applies to every
    length of a launch); OSU's own warm-up (-x default)."""
    exe = os.path.join(osu_dir, "c", "mpi", "pt2pt", "standard", "osu_latency")
    groups = {}
    for x in sizes:
        groups.setdefault(imb_reps(x), []).append(x)
    got = {}
    for reps, xs in groups.items():
        out, _ = run(mpirun(mpiexec, 2, [exe, "-m", f"{min(xs)}:{max(xs)}", "-i", str(reps)]))
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0].isdigit() and int(f[0]) in xs:
                got[("PingPong", int(f[0]))] = (float(f[1]), reps)
    return got


# ---- rounds and summary ----

def rounds(name, programs, runs, idle_wait, label):
    """programs: [(key, callable)]; returns {key: [result dict per round]}, loads."""
    values = {k: [] for k, _ in programs}
    loads, quiet = [], 0
    for k in range(runs):
        if idle_wait > 0:
            quiet += wait_idle(idle_wait)
        loads.append(loadavg())
        order = programs[k % len(programs):] + programs[:k % len(programs)]
        for key, fn in order:
            values[key].append(fn())
        print(f"  [{name} {label} round {k + 1}/{runs}, load {loads[-1]:.1f}]", file=sys.stderr,
              flush=True)
    note = (f"load average {min(loads):.1f}..{max(loads):.1f} (median "
            f"{statistics.median(loads):.1f}) on {os.cpu_count()} CPUs")
    if idle_wait > 0:
        note += f"; {quiet} of {runs} rounds started after an idle second"
    return values, note


def summarise(name, label, values, benches, sizes, table):
    """Prints one line per (benchmark, length) and appends rows to table."""
    peers = [k for k in values if k != "mpibench"]
    for b in benches:
        for x in sizes:
            mb = [r.get((b, x)) for r in values["mpibench"]]
            if any(v is None for v in mb):
                continue
            med = {"mpibench": statistics.median(v[0] for v in mb)}
            reps = {mb[0][1]}
            for p in peers:
                vs = [r.get((b, x)) for r in values[p]]
                if vs and all(v is not None for v in vs):
                    med[p] = statistics.median(v[0] for v in vs)
                    reps |= {v[1] for v in vs}
            others = {p: v for p, v in med.items() if p not in ("mpibench", SAME) and v > 0}
            if not others:
                continue
            best = min(others, key=others.get)
            ratio = med["mpibench"] / others[best] if others[best] > 0 else float("nan")
            pair = statistics.median(a[0] / c[0] for a, c in
                                     zip(mb, (r[(b, x)] for r in values[best])) if c[0] > 0)
            ok = ratio <= GOAL
            same = med["mpibench"] / med[SAME] if med.get(SAME) else float("nan")
            cells = "  ".join(f"{p} {v:.4g}" for p, v in med.items())
            flag = "" if len(reps) == 1 else f"  REPETITIONS DIFFER {sorted(reps)}"
            print(f"  {b:<9} {x:>9} B  n={mb[0][1]:<5} t_usec: {cells}  ratio to {best} "
                  f"{ratio:.3f} (pairwise {pair:.3f})  {'ok' if ok else 'MISS'}; to {SAME} "
                  f"{same:.3f}{flag}")
            table.append((name, label, b, x, mb[0][1], med, best, ratio, pair, ok, same))


def bandwidth(bench, x, t):
    factor = {"Sendrecv": 2, "Exchange": 4}.get(bench, 1)
    return factor * x / 1.048576 / t if t > 0 else 0.0


def p2p(build, intel, osu, opts, tmp):
    mpiexec = launcher(build)
    name = library(mpiexec)
    sizes = lengths(opts.max_bytes)
    benches = opts.p2p
    if not benches:
        return []
    programs = [("mpibench", lambda: run_mpibench(mpiexec, build, tmp, 2, benches, sizes,
                                                  opts.mpibench_args)),
                ("loop", lambda: run_ref_p2p(mpiexec, build, 2, benches, sizes, "2")),
                (SAME, lambda: run_ref_p2p(mpiexec, build, 2, benches, sizes, "once2"))]
    if intel:
        programs.append(("IMB-2021", lambda: run_intel(mpiexec, intel, tmp, 2, benches, sizes)))
    if osu and "PingPong" in benches:
        programs.append(("OSU", lambda: run_osu_latency(mpiexec, osu, sizes)))
    print(f"== {name} ({build}): {' '.join(benches)}, 2 processes, "
          f"{opts.runs} rounds; peers: {', '.join(k for k, _ in programs[1:])}")
    values, note = rounds(name, programs, opts.runs, opts.idle_wait, "p2p")
    table = []
    summarise(name, "np 2", values, benches, sizes, table)
    print(f"  {note}")
    return table


def coll(build, intel, opts, tmp):
    mpiexec = launcher(build)
    name = library(mpiexec)
    sizes = lengths(opts.max_bytes)
    table = []
    benches = opts.coll
    for np in opts.nps if benches else []:
        if name == "MPICH" and np > os.cpu_count():
            print(f"note: MPICH collectives on {np} processes skipped (more processes than "
                  f"CPUs: MPICH's ranks busy-poll)")
            continue
        programs = [("mpibench",
                     lambda np=np: run_mpibench(mpiexec, build, tmp, np, benches, sizes,
                                                opts.mpibench_args)),
                    ("loop", lambda np=np: run_ref_coll(mpiexec, build, np, benches, sizes, "2")),
                    (SAME,
                     lambda np=np: run_ref_coll(mpiexec, build, np, benches, sizes, "once2"))]
        if intel:
            programs.append(("IMB-2021",
                             lambda np=np: run_intel(mpiexec, intel, tmp, np, benches, sizes)))
        print(f"== {name} ({build}): {' '.join(benches)}, {np} processes, {opts.runs} "
              f"rounds; peers: {', '.join(k for k, _ in programs[1:])}")
        values, note = rounds(name, programs, opts.runs, opts.idle_wait, f"coll np {np}")
        summarise(name, f"np {np}", values, benches, sizes, table)
        print(f"  {note}")
    return table


def build_beff36(src, mpiexec, build, memory, tmp):
    """Compiles the original b_eff 3.6 with the MPI of this build, MEMORY_PER_PROCESSOR =
    memory (its compile-time L_max = memory / 128), outside the repository."""
    cc = None
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("MPI_C_COMPILER:"):
                cc = line.split("=", 1)[1].strip()
    exe = os.path.join(tmp, f"b_eff36_{os.path.basename(cc)}_{memory}")
    if not os.path.exists(exe):
        subprocess.run([cc, "-O2", f"-DMEMORY_PER_PROCESSOR={memory}", "-o", exe, src, "-lm"],
                       check=True, capture_output=True)
    return exe


def beff_mpibench(mpiexec, build, tmp, memory, np, profile):
    path = os.path.join(tmp, "beff.jsonl")
    run(mpirun(mpiexec, np, [os.path.join(build, "b_eff"), "--memory", str(memory),
                             "--profile", profile, "-f", os.path.join(tmp, "mbbeff"),
                             "--json", path, "--quiet"]))
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] == "beff_result":
                return r["b_eff_mb_per_sec"], r["b_eff_at_lmax_mb_per_sec"]
    sys.exit(f"no beff_result in {path}")


def beff_original(mpiexec, exe, tmp, np):
    """b_eff 3.6's b_eff and b_eff at L_max from its protocol files."""
    prefix = os.path.join(tmp, "orig")
    run(mpirun(mpiexec, np, [exe, "-f", prefix]), cwd=tmp)
    text = ""
    for ext in (".sum", ".short", ".prot"):
        if os.path.exists(prefix + ext):
            with open(prefix + ext) as f:
                text += f.read()
    m = re.search(r"^b_eff\s*=\s*([0-9.]+)\s*MB/s", text, re.M)
    lmax = re.search(r"b_eff at Lmax:\s*([0-9.]+)\s*MByte/s", text)
    if not m:
        sys.exit(f"no b_eff line in {prefix}.sum")
    return float(m.group(1)), float(lmax.group(1)) if lmax else float("nan")


def beff(build, opts, tmp):
    """mpibench b_eff with the papers' loop lengths (its default) and with --profile 3.6,
    and the original b_eff 3.6, alternating, all with the same memory per process."""
    mpiexec = launcher(build)
    name = library(mpiexec)
    np = 4
    memory = opts.beff_memory or int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
                                     / MB / np)
    exe = build_beff36(opts.beff_src, mpiexec, build, memory, tmp)
    print(f"== {name} ({build}): b_eff on {np} processes, --memory {memory} MiB "
          f"(L_max {memory / 128:.1f} MiB) for all, {opts.beff_runs} alternating rounds")
    progs = [("mpibench", lambda: beff_mpibench(mpiexec, build, tmp, memory, np, "paper")),
             ("mpibench --profile 3.6",
              lambda: beff_mpibench(mpiexec, build, tmp, memory, np, "3.6")),
             ("b_eff 3.6", lambda: beff_original(mpiexec, exe, tmp, np))]
    got = {k: [] for k, _ in progs}
    loads = []
    for k in range(opts.beff_runs):
        if opts.idle_wait > 0:
            wait_idle(opts.idle_wait)
        loads.append(loadavg())
        for key, fn in progs[k % 3:] + progs[:k % 3]:
            got[key].append(fn())
        print(f"  [{name} b_eff round {k + 1}/{opts.beff_runs}, load {loads[-1]:.1f}]",
              file=sys.stderr, flush=True)
    rows = []
    for key, vals in got.items():
        be = [v[0] for v in vals]
        at = [v[1] for v in vals]
        print(f"  {key:<23} b_eff MB/s {', '.join(f'{v:.0f}' for v in be)} (median "
              f"{statistics.median(be):.0f}); b_eff at L_max {', '.join(f'{v:.0f}' for v in at)}")
        rows.append((name, key, statistics.median(be), statistics.median(at)))
    print(f"  load average {min(loads):.1f}..{max(loads):.1f}")
    return rows


def markdown(table):
    print("\n| MPI | np | benchmark | bytes | reps | mpibench | best peer | ratio (pairwise) | goal "
          f"| ratio to {SAME} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, label, b, x, reps, med, best, ratio, pair, ok, same in table:
        t = med["mpibench"]
        if b in COLL or x < 65536:
            cell, peer = f"{t:.3f} µs", f"{med[best]:.3f} µs ({best})"
        else:
            cell = f"{bandwidth(b, x, t):.0f} MB/s"
            peer = f"{bandwidth(b, x, med[best]):.0f} MB/s ({best})"
        print(f"| {name} | {label[3:]} | {b} | {x} | {reps} | {cell} | {peer} | {ratio:.3f} "
              f"({pair:.3f}) | {'ok' if ok else 'miss'} | {same:.3f} |")


def resolution(table):
    """The goal applied to every program in turn: in how many rows is its median time within
    GOAL x the best of the others' (loop-3.1, the control, left out)? Where the peers meet it
    no more often than mpibench does, the remaining misses are the measurement's spread, not a
    cost of mpibench's."""
    hits, seen = {}, {}
    for row in table:
        med = {p: v for p, v in row[5].items() if p != SAME and v > 0}
        for p, v in med.items():
            others = [w for q, w in med.items() if q != p]
            if others:
                seen[p] = seen.get(p, 0) + 1
                hits[p] = hits.get(p, 0) + (v <= GOAL * min(others))
    print(f"\nThe same goal for every program (time <= {GOAL} x the best of the others):")
    for p in seen:
        print(f"  {p:<9} {hits[p]} of {seen[p]} rows")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openmpi", default="build-openmpi", help="Open MPI build directory")
    ap.add_argument("--mpich", help="MPICH build directory (optional)")
    ap.add_argument("--imb-openmpi", help="the original IMB-MPI1 built with Open MPI")
    ap.add_argument("--imb-mpich", help="the original IMB-MPI1 built with MPICH")
    ap.add_argument("--osu-openmpi", help="OSU micro-benchmarks build tree (Open MPI)")
    ap.add_argument("--osu-mpich", help="OSU micro-benchmarks build tree (MPICH)")
    ap.add_argument("--beff-src", help="b_eff.c of b_eff 3.6 (compiled in a temporary dir)")
    ap.add_argument("--beff-memory", type=int, help="MiB per process for both b_eff programs "
                    "(default: node memory / 4, mpibench's own default on 4 processes)")
    ap.add_argument("--runs", type=int, default=7, help="alternating rounds (default 7)")
    ap.add_argument("--mpibench-args", default="", type=shlex.split,
                    help="more IMB-MPI1 arguments for mpibench, e.g. '-warm_up on' (every "
                         "length warmed up as the peers do)")
    ap.add_argument("--beff-runs", type=int, default=3, help="b_eff rounds (default 3)")
    ap.add_argument("--max-bytes", type=int, default=64 * MB, help="largest length (64 MiB)")
    ap.add_argument("--nps", default="2,4", help="process counts of the collectives")
    ap.add_argument("--sections", default="p2p,coll,beff", help="any of p2p,coll,beff")
    ap.add_argument("--benchmarks", help="only these of PingPong,PingPing,Sendrecv,Exchange,"
                    "Allreduce,Bcast,Alltoall (comma list; default all)")
    ap.add_argument("--idle-wait", type=float, default=0, metavar="SECS",
                    help="before each round wait up to SECS for a second with the CPUs >= 90 %% "
                         "idle (default 0: do not wait)")
    opts = ap.parse_args()
    opts.nps = [int(v) for v in opts.nps.split(",")]
    if opts.benchmarks:
        chosen = opts.benchmarks.split(",")
        unknown = [b for b in chosen if b not in P2P + COLL]
        if unknown:
            ap.error(f"--benchmarks: unknown {', '.join(unknown)}")
        opts.p2p = tuple(b for b in P2P if b in chosen)
        opts.coll = tuple(b for b in COLL if b in chosen)
    else:
        opts.p2p, opts.coll = P2P, COLL
    sections = set(opts.sections.split(","))
    builds = [(opts.openmpi, opts.imb_openmpi, opts.osu_openmpi)]
    if opts.mpich:
        builds.append((opts.mpich, opts.imb_mpich, opts.osu_mpich))
    for build, intel, osu in builds:
        for what, path in (("Intel IMB-MPI1", intel), ("OSU", osu)):
            if not path:
                print(f"note: no {what} for {build}: that peer is skipped")
    table, beffs = [], []
    with tempfile.TemporaryDirectory(prefix="mb-peer-") as tmp:
        for build, intel, osu in builds:
            if "p2p" in sections:
                table += p2p(build, intel, osu, opts, tmp)
            if "coll" in sections:
                table += coll(build, intel, opts, tmp)
            if "beff" in sections:
                if opts.beff_src:
                    beffs += beff(build, opts, tmp)
                else:
                    print("note: no --beff-src: the b_eff comparison is skipped")
    markdown(table)
    misses = [r for r in table if not r[9]]
    print(f"\n{len(table) - len(misses)} of {len(table)} rows within the goal "
          f"(time <= {GOAL} x the best peer)")
    if table:
        resolution(table)
    for name, key, be, at in beffs:
        print(f"b_eff {name}, {key}: {be:.0f} MB/s (at L_max {at:.0f} MB/s)")


if __name__ == "__main__":
    main()
