#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-P2P under mpiexec and check its text and JSON output.

The rules are re-derived here from Intel IMB 2021.11's sources (src_c/P2P/imb_p2p.c and the
imb_p2p_*.c of each benchmark), independently of the C code: which benchmarks run, in which
order, and on which process counts (PingPong, PingPing: an even P; the random patterns and
SendRecv_Replace: P >= 2; Stencil2D, Stencil3D: 2021.11's factorisation of P into sides >= 2),
the stencils' grid in the block title, the message lengths of -msglog/-msgsz/-msglen, the
repetitions round(numerator MiB / length) within 1 .. max, the five 12-character columns, the
figures' relations (Mbytes/sec = Msg/sec x bytes / 10^6; the messages of each pattern; the
slowest process's time bounding t), and that the JSON p2p_row records say what the text says.

Usage: p2p_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-P2P arguments
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402

ORDER = ["PingPong", "PingPing", "Unirandom", "Birandom", "Corandom", "Stencil2D", "Stencil3D",
         "SendRecv_Replace"]
VALUE_FLAGS = {"-iter", "-msglog", "-msgsz", "-msglen", "-msgrd", "-msgwr", "-pause", "--json",
               "--samples", "--timeout", "--output-dir", "--run-id", "--thread-level"}


def factor2(n):
    lx = ly = 2
    while lx * ly < n:
        lx += 1
        ly += 1
    if lx * ly > n:
        while ly > 1 and n % ly:
            ly -= 1
        lx = n // ly
    return (lx, ly) if lx >= 2 and ly >= 2 and lx * ly == n else None


def factor3(n):
    lx = ly = lz = 2
    while lx * ly * lz < n:
        lx, ly, lz = lx + 1, ly + 1, lz + 1
    while lx * ly * lz > n:
        lz -= 1
        while lz > 1 and n % lz:
            lz -= 1
        m = n // lz if lz else 0
        px = py = 2
        while px * py < m:
            px, py = px + 1, py + 1
        if px * py > m:
            while py > 1 and m % py:
                py -= 1
            px = m // py
        if py >= lz:
            lx, ly = px, py
    return (lx, ly, lz) if min(lx, ly, lz) >= 2 and lx * ly * lz == n else None


def layout(name, p):
    """None if the benchmark cannot run on p processes, else its grid (or ())."""
    if name in ("PingPong", "PingPing"):
        return () if p >= 2 and p % 2 == 0 else None
    if name == "Stencil2D":
        return factor2(p)
    if name == "Stencil3D":
        return factor3(p)
    return () if p >= 2 else None


def size_of(text):
    m = re.fullmatch(r"(\d+)([kKmMgG]?)", text)
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]


class Invocation:
    def __init__(self, args, cwd):
        self.iter_max, self.iter_mib = 100000, 800
        self.lengths = None
        self.names = []
        self.json = None
        self.check = False
        i = 0
        while i < len(args):
            a = args[i]
            if a in VALUE_FLAGS:
                v = args[i + 1]
                i += 2
                if a == "-iter":
                    parts = [int(x) for x in v.split(",")]
                    self.iter_max = parts[0]
                    if len(parts) > 1:
                        self.iter_mib = parts[1]
                elif a == "-msglog":
                    lo, _, hi = v.rpartition(":")
                    self.lengths = ([0] if not lo else []) + \
                        [1 << k for k in range(int(lo or 0), int(hi) + 1)]
                elif a == "-msgsz":
                    self.lengths = (self.lengths or []) + [size_of(v)]
                elif a == "-msglen":
                    with open(os.path.join(cwd, v)) as f:
                        self.lengths = [size_of(l.split("#")[0].strip()) for l in f
                                        if l.split("#")[0].strip()]
                elif a == "--json":
                    self.json = os.path.join(cwd, v)
                continue
            if a in ("--check", "-check", "--check-selftest"):
                self.check = True
            elif not a.startswith("-"):
                for n in a.split(","):
                    self.names.append(next(b for b in ORDER if b.lower() == n.lower()))
            i += 1
        if self.lengths is None:
            self.lengths = [0] + [1 << k for k in range(23)]
        self.names = self.names or list(ORDER)

    def reps(self, x):
        if x == 0:
            return self.iter_max
        return max(1, min(self.iter_max, int(math.floor(self.iter_mib * 1048576 / x + 0.5))))


def messages(name, p, n, grid):
    """The messages a row's figures count (the imb_p2p_*.c arithmetic)."""
    return {"Birandom": 2 * n * p, "Stencil2D": 4 * n * p, "Stencil3D": 6 * n * p}.get(name, n * p)


def check_run(run):
    inv = Invocation(run.args, run.cwd)
    p = run.opts.np
    out = run.stdout
    if inv.json:
        run.allow(inv.json)
    if run.opts.status not in (0, 1) or not re.search(r"^# mpibench: \d+ rows", out, re.M):
        return f"exit status {run.returncode}"
    if not re.search(r"^#    mpibench \S+: IMB-P2P \(IMB-P2P part\), following the Intel IMB "
                     r"2021\.11 methodology$", out, re.M):
        fail("title line missing")
    if re.search(r"Intel\s*\(R\)|Intel MPI Benchmarks", out):
        fail("the output names the vendor's product")
    if "# MPI Thread Environment: MPI_THREAD_SINGLE" not in out:
        fail("IMB-P2P did not run under MPI_Init, as 2021.11 does")
    listed = re.search(r"^# List of Benchmarks to run:\n#\n((?:# \S+\n)+)#\n", out, re.M)
    if not listed or listed.group(1).split() != [w for n in inv.names for w in ("#", n)]:
        fail(f"benchmark list {listed and listed.group(1)!r}, expected {inv.names}")
    lo, hi = min(inv.lengths), max(inv.lengths)
    if f"# Minimum message length in bytes:   {lo}\n" not in out or \
            f"# Maximum message length in bytes:   {hi}\n" not in out:
        fail(f"minimum/maximum length lines, expected {lo} and {hi}")
    # Blocks and invalid notes, in the order named.
    pieces = re.findall(r"^(?:# Benchmarking (\S+)(?: \(([\d x]+)\))?|# !! Benchmark (\S+) is "
                        r"invalid for (\d+) processes !!)$", out, re.M)
    got = [(a or c, b) for a, b, c, _ in pieces]
    want = []
    for n in inv.names:
        g = layout(n, p)
        title = None if g is None else " x ".join(str(v) for v in reversed(g)) if g else ""
        want.append((n, title))
    if [(n, t if t is not None else "") for n, t in got] != \
            [(n, t if t else "") for n, t in want] or \
            [bool(a) for a, _, _, _ in pieces] != [t is not None for _, t in want]:
        fail(f"blocks {got}, expected {want}")
    rows = []
    heads = ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "Msg/sec"] + \
        (["defects"] if inv.check else [])
    for block in re.split(r"^#-{64}\n# Benchmarking ", out, flags=re.M)[1:]:
        name = block.split()[0]
        lines = block.split("\n")
        head = next(l for l in lines if l.strip().startswith("#bytes"))
        if head != "".join(f" {h:>12}" for h in heads):
            fail(f"{name}: column header {head!r}")
        body = lines[lines.index(head) + 1:]
        data = []
        for l in body:
            if not l.strip():
                break
            if len(l) != 13 * len(heads):
                fail(f"{name}: row {l!r} is not {len(heads)} columns of 13 characters")
            data.append(l.split())
        if [int(r[0]) for r in data] != inv.lengths:
            fail(f"{name}: lengths {[r[0] for r in data]}, expected {inv.lengths}")
        for r in data:
            x, n, t, mb, rate = int(r[0]), int(r[1]), float(r[2]), float(r[3]), float(r[4])
            if n != inv.reps(x):
                fail(f"{name}: {x} bytes with {n} repetitions, expected {inv.reps(x)}")
            if not (t > 0 and rate > 0 and mb >= 0):
                fail(f"{name}: non-positive figures in {r}")
            if abs(mb - rate * x / 1e6) > 0.011 + 0.5 * x / 1e6:
                fail(f"{name}: Mbytes/sec {mb} but Msg/sec {rate} x {x} / 10^6 = {rate * x / 1e6}")
            rows.append({"name": name, "bytes": x, "reps": n, "text": r,
                         "defects": int(r[5]) if inv.check else None})
    if inv.json:
        recs = [r for r in mbcheck.load_jsonl(inv.json, run.opts.schema) if r["type"] == "p2p_row"]
        if len(recs) != len(rows):
            fail(f"{len(recs)} p2p_row records for {len(rows)} text rows")
        for rec, row in zip(recs, rows):
            grid = layout(rec["benchmark"], p)
            if (rec["benchmark"], rec["bytes"], rec["repetitions"], rec["processes"]) != \
                    (row["name"], row["bytes"], row["reps"], p) or rec.get("grid", []) != list(grid):
                fail(f"JSON {rec} does not match the text row {row['text']}")
            for key, col, fmt in (("t_usec", 2, "{:.2f}"), ("mb_per_sec", 3, "{:.2f}"),
                                  ("messages_per_sec", 4, "{:.0f}")):
                if fmt.format(rec[key]) != row["text"][col]:
                    fail(f"JSON {key} {rec[key]} vs the text's {row['text'][col]}")
            m = messages(rec["benchmark"], p, rec["repetitions"], grid)
            if rec["messages"] != m:
                fail(f"JSON messages {rec['messages']}, expected {m} for {rec['benchmark']}")
            tmax = rec["time_max_sec"]
            if abs(rec["messages_per_sec"] - m / tmax) > 1e-6 * m / tmax:
                fail(f"JSON messages_per_sec {rec['messages_per_sec']} is not messages / "
                     f"time_max_sec")
            # t: the processes' summed time per message (PingPong: per half round trip), so
            # between the slowest process's alone and P times it.
            half = 2 if rec["benchmark"] == "PingPong" else 1
            one = 1e6 * tmax / (m * half)
            if not one * (1 - 1e-9) <= rec["t_usec"] <= p * one * (1 + 1e-9):
                fail(f"JSON t_usec {rec['t_usec']} outside [{one}, {p * one}]: {rec}")
            if rec["defects"] != row["defects"]:
                fail(f"JSON defects {rec['defects']} vs text {row['defects']}")
    defects = sum(r["defects"] or 0 for r in rows)
    if inv.check and not run.opts.expect_defects and defects:
        fail(f"{defects} defects")
    if inv.check and run.opts.expect_defects and not defects:
        fail("--check-selftest: no defects")
    return f"{len(got)} benchmarks, {len(rows)} rows, {run.elapsed:.1f} s"


def main():
    ap = mbcheck.parser(__doc__)
    ap.add_argument("--expect-defects", action="store_true",
                    help="some rows must report defects (--check-selftest)")
    return mbcheck.main(check_run, ap, tmp_prefix="mb-p2p-")


if __name__ == "__main__":
    sys.exit(main())
