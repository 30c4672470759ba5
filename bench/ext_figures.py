#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""IMB-EXT Unidir_Put against a minimal hand-written MPI_Put + MPI_Win_fence loop.

The speed requirement: Unidir_Put's 0 B latency and 4 MiB bandwidth within 5 % of the
hand-written loop bench/ref_put.c (mb_ref_put), median of alternating runs. For every build
directory given (Open MPI, and MPICH with --mpich), each round runs IMB-EXT Unidir_Put on one
message length (it reports both modes) and mb_ref_put on the same length and repetition count
in the aggregate and the non-aggregate mode; the order alternates between rounds (IMB first,
then the reference first) so that a drift of the machine's load favours neither. -iter is
chosen so that exactly the reference's repetition count runs, and the JSON says so (checked).

  0 B      latency    t_max_usec vs the reference's usec   (--lat-reps, default 100000)
  4 MiB    bandwidth  mib_per_sec vs the reference's MB/s (--bw-reps, default 100: both
           programs hold REPS disjoint 4 MiB sections in the window and the origin buffer,
           2 x 400 MB per process)

Optionally the original Intel MPI Benchmarks' IMB-EXT (built elsewhere; --intel-openmpi,
--intel-mpich) runs in the same rounds as a peer; its text table is parsed (2 decimals).

Prints, per case, the medians, the ratio of the medians (IMB / reference), the median and range
of the per-round ratios, and whether the ratio of medians is within 5 % of 1. Exits non-zero if
a run fails or runs a different repetition count.

On a shared machine, --idle-wait SECS makes every round wait (up to SECS) for a second in
which the CPUs are at least 90 % idle; the summary says how many rounds got one.

Usage: python3 bench/ext_figures.py [--openmpi DIR] [--mpich DIR] [--runs N]
           [--lat-reps N] [--bw-reps N] [--intel-openmpi EXE] [--intel-mpich EXE]
           [--idle-wait SECS]
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_figures import MB, launcher, run  # noqa: E402  (same launcher and runner)

GOAL = 0.05
MODES = ("aggregate", "non-aggregate")


def iter_arg(size, reps):
    """-iter so that IMB runs exactly `reps` repetitions of `size` bytes in both modes:
    MSGSPERSAMPLE = MSGS_NONAGGR = reps, OVERALL_VOL (MB) >= size * reps (guide 5.2.8)."""
    vol_mb = max(1, -(-size * reps // MB))
    return f"{reps},{vol_mb},{reps}"


def lenfile(tmp, size):
    path = os.path.join(tmp, f"len{size}")
    with open(path, "w") as f:
        f.write(f"{size}\n")
    return path


def imb_ext(mpiexec, build, tmp, size, reps):
    """{mode: (t_max_usec, mib_per_sec)} of one IMB-EXT Unidir_Put run."""
    path = os.path.join(tmp, "ext.jsonl")
    # The reference writes disjoint sections (the guide's placement), so IMB-EXT runs with
    # -win_disp sections, not its default displacement 0 (IMB 3.1's program).
    run(mpiexec + ["-np", "2", os.path.join(build, "IMB-EXT"), "Unidir_Put", "-msglen",
                   lenfile(tmp, size), "-iter", iter_arg(size, reps), "-win_disp", "sections",
                   "--json", path, "--quiet"])
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] != "result" or r["benchmark"] != "Unidir_Put" or r["bytes"] != size:
                continue
            if r["repetitions"] != reps or r.get("status", "ok") != "ok":
                sys.exit(f"IMB-EXT ran {r['repetitions']} repetitions ({r.get('status')}) "
                         f"of {size} B in mode {r['mode']}, not {reps}: {line.strip()}")
            out[r["mode"]] = (r["t_max_usec"], r["mib_per_sec"])
    if set(out) != set(MODES):
        sys.exit(f"IMB-EXT Unidir_Put {size} B: rows for {sorted(out)}, expected {MODES}")
    return out


def ref_put(mpiexec, build, size, reps, mode):
    out, _ = run(mpiexec + ["-np", "2", os.path.join(build, "mb_ref_put"), str(size), str(reps),
                            "aggr" if mode == "aggregate" else "nonaggr"])
    nbytes, usec, mbps = out.split()
    if int(nbytes) != size:
        sys.exit(f"mb_ref_put printed {out!r} for {size} B")
    return float(usec), float(mbps)


ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s*$")


def intel_ext(mpiexec, exe, tmp, size, reps):
    """The original IMB-EXT's Unidir_Put table, same length and repetitions (its own
    iteration policy off, so that it does not cut the count)."""
    out, _ = run(mpiexec + ["-np", "2", exe, "Unidir_Put", "-msglen", lenfile(tmp, size),
                            "-iter", iter_arg(size, reps), "-iter_policy", "off"])
    rows, mode = {}, None
    for line in out.splitlines():
        if "MODE: NON-AGGREGATE" in line:
            mode = "non-aggregate"
        elif "MODE: AGGREGATE" in line:
            mode = "aggregate"
        m = ROW.match(line)
        if m and mode and int(m.group(1)) == size:
            if int(m.group(2)) != reps:
                sys.exit(f"Intel IMB-EXT ran {m.group(2)} repetitions of {size} B, not {reps}")
            rows[mode] = (float(m.group(3)), float(m.group(4)))
    if set(rows) != set(MODES):
        sys.exit(f"Intel IMB-EXT Unidir_Put {size} B: rows for {sorted(rows)}\n{out[-2000:]}")
    return rows


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def idle_fraction(secs=1.0):
    """Fraction of all CPUs' time idle during the next `secs` seconds (/proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:9]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    t0, i0 = sample()
    time.sleep(secs)
    t1, i1 = sample()
    return (i1 - i0) / max(1, t1 - t0)


def wait_idle(limit):
    """Waits up to `limit` seconds for a second in which the CPUs are at least 90 % idle
    (other jobs on a shared 2-core machine distort both programs alike, but not equally
    within one pair); returns whether it came."""
    deadline = time.monotonic() + limit
    while True:
        if idle_fraction() >= 0.9:
            return True
        if time.monotonic() >= deadline:
            return False


def fits(size, reps):
    """Both programs hold reps disjoint sections in the window and the origin buffer."""
    need = 2 * 2 * size * reps  # 2 processes x (window + origin)
    with open("/proc/meminfo") as f:
        avail = next(int(l.split()[1]) * 1024 for l in f if l.startswith("MemAvailable:"))
    if need > avail // 2:
        sys.exit(f"{reps} x {size} B needs {need / MB:.0f} MB for 2 processes, more than half "
                 f"of the available {avail / MB:.0f} MB: lower --bw-reps")


def library(mpiexec):
    """The MPI the launcher belongs to, so that a build directory is labelled by what it is."""
    text = run([mpiexec[0], "--version"])[0]
    return "Open MPI" if "Open MPI" in text or "OpenRTE" in text else (
        "MPICH" if "HYDRA" in text or "mpich" in text.lower() else os.path.basename(mpiexec[0]))


def compare(build, intel, runs, cases, tmp, idle_wait):
    mpiexec = launcher(build)
    name = library(mpiexec)
    print(f"== {name} ({build}): IMB-EXT Unidir_Put vs mb_ref_put, {runs} alternating rounds")
    # values[(size, mode)] = {"imb": [...], "ref": [...], "intel": [...]}
    values = {(size, mode): {"imb": [], "ref": [], "intel": []}
              for size, _ in cases for mode in MODES}
    loads, quiet = [], 0
    for size, reps in cases:
        for k in range(runs):
            if idle_wait > 0:
                quiet += wait_idle(idle_wait)
            loads.append(loadavg())
            steps = ["imb", "ref"] if k % 2 == 0 else ["ref", "imb"]
            if intel:
                steps.append("intel")
            for step in steps:
                if step == "imb":
                    got = imb_ext(mpiexec, build, tmp, size, reps)
                elif step == "intel":
                    got = intel_ext(mpiexec, intel, tmp, size, reps)
                else:
                    got = {mode: ref_put(mpiexec, build, size, reps, mode) for mode in MODES}
                for mode in MODES:
                    t, bw = got[mode]
                    values[(size, mode)][step].append(t if size == 0 else bw)
            print(f"  [{name} {size} B round {k + 1}/{runs}, load {loads[-1]:.1f}]",
                  file=sys.stderr, flush=True)
    rows = []
    for size, reps in cases:
        for mode in MODES:
            v = values[(size, mode)]
            what = "latency usec" if size == 0 else "bandwidth MB/s"
            mi, mr = statistics.median(v["imb"]), statistics.median(v["ref"])
            ratio = mi / mr
            pair = [a / b for a, b in zip(v["imb"], v["ref"])]
            ok = abs(ratio - 1) <= GOAL
            peer = f"  Intel IMB-EXT {statistics.median(v['intel']):.3f}" if v["intel"] else ""
            print(f"  {size:>8} B x {reps:>6} {mode:<13}: {what}: IMB-EXT {mi:.4f}  reference "
                  f"{mr:.4f}{peer}  ratio {ratio:.4f} (pairwise median "
                  f"{statistics.median(pair):.4f}, range {min(pair):.3f}..{max(pair):.3f})  "
                  f"within 5 %: {'yes' if ok else 'NO'}")
            rows.append((name, size, reps, mode, mi, mr, ratio, statistics.median(pair),
                         statistics.median(v["intel"]) if v["intel"] else None, ok))
    print(f"  1-minute load average at the start of the rounds: {min(loads):.1f}..{max(loads):.1f}"
          f" (median {statistics.median(loads):.1f}) on {os.cpu_count()} CPUs" +
          (f"; {quiet} of {len(loads)} rounds started after an idle second" if idle_wait > 0
           else ""))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openmpi", default="build-openmpi", help="Open MPI build directory")
    ap.add_argument("--mpich", help="MPICH build directory (optional)")
    ap.add_argument("--runs", type=int, default=11, help="alternating rounds per length")
    ap.add_argument("--lat-reps", type=int, default=100000, help="repetitions at 0 B")
    ap.add_argument("--bw-reps", type=int, default=100, help="repetitions at 4 MiB")
    ap.add_argument("--bw-bytes", type=int, default=4 * MB, help="the bandwidth length")
    ap.add_argument("--intel-openmpi", help="the original IMB-EXT built with Open MPI (optional)")
    ap.add_argument("--intel-mpich", help="the original IMB-EXT built with MPICH (optional)")
    ap.add_argument("--idle-wait", type=float, default=0, metavar="SECS",
                    help="before each round wait up to SECS for a second with the CPUs >= 90 %% "
                         "idle (default 0: do not wait)")
    opts = ap.parse_args()
    if opts.runs < 1 or opts.lat_reps < 1 or opts.bw_reps < 1:
        ap.error("--runs, --lat-reps and --bw-reps must be positive")
    fits(opts.bw_bytes, opts.bw_reps)
    cases = [(0, opts.lat_reps), (opts.bw_bytes, opts.bw_reps)]
    builds = [(opts.openmpi, opts.intel_openmpi)]
    if opts.mpich:
        builds.append((opts.mpich, opts.intel_mpich))
    table = []
    with tempfile.TemporaryDirectory(prefix="mb-ext-") as tmp:
        for build, intel in builds:
            table += compare(build, intel, opts.runs, cases, tmp, opts.idle_wait)
    print("\n| MPI | case | repetitions | IMB-EXT | reference | ratio (pairwise) | "
          "Intel IMB-EXT | within 5 % |")
    print("|---|---|---|---|---|---|---|---|")
    for name, size, reps, mode, mi, mr, ratio, pair, peer, ok in table:
        case = (f"{size} B {mode} latency (µs)" if size == 0
                else f"{size // MB} MiB {mode} bandwidth (MB/s)")
        fmt = "{:.4f}" if size == 0 else "{:.0f}"
        print(f"| {name} | {case} | {reps} | {fmt.format(mi)} | {fmt.format(mr)} | "
              f"{ratio:.3f} ({pair:.3f}) | {'' if peer is None else fmt.format(peer)} | "
              f"{'yes' if ok else 'no'} |")


if __name__ == "__main__":
    main()
