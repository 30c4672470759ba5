#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-MPI1 under mpiexec and check its text and JSON output.

The expectations are derived here, independently of the C code, from the IMB 3.1 guide's
rules and the command line under test: which "# Benchmarking" blocks appear and in what order
(5.1.1, 5.1.2.2, 5.1.2.3), group listings and -map order (5.1.2.10), the message lengths
(5.2.4) and repetition counts (5.2.8), the table layout of chapter 6, throughput
X/1.048576/t, and that the JSON records say exactly what the text says.

The rules of one IMB family are a Family value (MPI1 below); ext_check.py checks IMB-EXT
with the same code and its own Family.

Usage: imb_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-MPI1 arguments
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import fail  # noqa: E402

COL = 13

# name: (class, element size, single transfer, throughput factor), in the IMB 3.1 program's
# order (IMB_bnames_mpi1.h), the order of a default run.
BENCH = {
    "PingPong": ("single", 1, True, 1),
    "PingPing": ("single", 1, True, 1),
    "Sendrecv": ("parallel", 1, False, 2),
    "Exchange": ("parallel", 1, False, 4),
    "Allreduce": ("collective", 4, False, 0),
    "Reduce": ("collective", 4, False, 0),
    "Reduce_scatter": ("collective", 4, False, 0),
    "Allgather": ("collective", 1, False, 0),
    "Allgatherv": ("collective", 1, False, 0),
    "Gather": ("collective", 1, False, 0),
    "Gatherv": ("collective", 1, False, 0),
    "Scatter": ("collective", 1, False, 0),
    "Scatterv": ("collective", 1, False, 0),
    "Alltoall": ("collective", 1, False, 0),
    "Alltoallv": ("collective", 1, False, 0),
    "Bcast": ("collective", 1, False, 0),
    "Barrier": ("sync", 1, False, 0),
}
# Intel IMB 2021.11's additions to IMB-MPI1, run only when named (never in a default run),
# their Mbytes/sec in 10^6 bytes/s as 2021.11 prints them (IMB_output.c, MEGA).
IMB2021 = {
    "PingPongSpecificSource": ("single", 1, True, 1),
    "PingPongAnySource": ("single", 1, True, 1),
    "PingPingSpecificSource": ("single", 1, True, 1),
    "PingPingAnySource": ("single", 1, True, 1),
    # Message rate of pairs r, r + Q/2 on an even Q (IMB_bandwidth.c); factor: scale_bw.
    "Uniband": ("msgrate", 1, False, 1),
    "Biband": ("msgrate", 1, False, 2),
}
# The guide's list 3.2: a default run's order with -order guide.
# Intel IMB 2021's benchmarks with a root (IMB_mem_manager.c has_root): -iter_policy auto.
ROOTED = {"Gather", "Gatherv", "Scatter", "Scatterv", "Bcast", "Reduce"}

GUIDE_ORDER = ["PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allgather", "Allgatherv",
               "Scatter", "Scatterv", "Gather", "Gatherv", "Alltoall", "Alltoallv", "Reduce",
               "Reduce_scatter", "Allreduce", "Barrier"]


class Family:
    """The rules of one IMB family: its benchmarks (name: (class, element size, single
    transfer, throughput factor)) in default order, the settings.h constants (guide 5.2.1),
    which benchmarks run in aggregate and non-aggregate mode and which use the non-aggregate
    repetition count alone (4.2.2.2, 5.2.8), and the header's title."""

    def __init__(self, name, bench, part, msgs=1000, nonaggr=100, vol_mb=40, maxlog=22,
                 npmin=2, aggregate=(), nonaggr_only=(), aggregate_only=(), overlap=(),
                 single_q=2, collective_bw=False, len_unit=1, named_only=None,
                 method="IMB 3.1", overlap_over=min, iter_policy=None, decimal=True,
                 capped=None):
        # named_only: benchmarks that run only when named, after the default ones in --help,
        # their Mbytes/sec in 10^6 bytes/s (Intel IMB 2021.11's additions to IMB-MPI1).
        self.name, self.order, self.part = name, list(bench), part
        self.bench = {**bench, **(named_only or {})}
        self.decimal = set(named_only or ()) if decimal else set()
        # The benchmarks with Intel IMB 2021.11's time limit per block (a "time-out." row);
        # by default the named-only ones (IMB-MPI1's 2021.11 additions).
        self.capped = set(named_only or ()) if capped is None else set(capped)
        # The methodology the header names; the overlap's denominator (IMB 3.1's guide
        # 4.2.5.2: min(t_pure, t_CPU); Intel IMB 2021.11's IMB-NBC: max); the repetition
        # policy without -iter_policy (2021.11: dynamic, a 10 s limit).
        self.method, self.overlap_over, self.iter_policy = method, overlap_over, iter_policy
        self.msgs, self.nonaggr, self.vol = msgs, nonaggr, vol_mb * 1048576
        self.maxlog, self.npmin = maxlog, npmin
        self.aggregate, self.nonaggr_only = set(aggregate), set(nonaggr_only)
        # IMB-IO: reads and non-blocking I/O have one block, "MODE: AGGREGATE" (4.2.2.2,
        # 4.2.5); non-blocking I/O shows the overlap columns (4.2.5.2); single transfers run
        # on one process (4.2.1.1); collectives report a throughput (4.2.4.7-9).
        self.aggregate_only, self.overlap = set(aggregate_only), set(overlap)
        self.single_q, self.collective_bw = single_q, collective_bw
        # IMB 3.1 counts every IMB-EXT length in floats (IMB.c: unit_size under EXT), so its
        # lengths are multiples of 4 whatever the element type (sample 6.4: 0, 4, 8, ...).
        self.len_unit = len_unit

    def modes(self, name):
        """The blocks per process count: [None], aggregate only, or aggregate then
        non-aggregate."""
        if name in self.aggregate:
            return ["aggregate", "non-aggregate"]
        return ["aggregate"] if name in self.aggregate_only else [None]


MPI1 = Family("IMB-MPI1", BENCH, "MPI-1 part", named_only=IMB2021, capped=IMB2021)  # BENCH's order: a default run's

HEADS = {
    "time_bw": ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"],
    "range_bw": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]",
                 "Mbytes/sec"],
    "range": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
    "sync": ["#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
    "rate": ["#bytes", "#repetitions", "Mbytes/sec", "Msg/sec"],
    "overlap": ["#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]",
                "overlap[%]"],
    "sync_overlap": ["#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]",
                     "overlap[%]"],
}


# ---- the IMB rules, re-derived ---------------------------------------------------------

def q_list(nprocs, npmin):
    npmin = min(max(npmin, 1), nprocs)
    out, q = [], npmin
    while q < nprocs:
        out.append(q)
        q *= 2
    out.append(nprocs)
    return out


def reps_rule(x, msgs, vol):
    if x == 0:
        return msgs
    return max(1, min(msgs, vol // x))


def lengths_for(fam, name, user_lengths, msglog=None, zero=True):
    """msglog: (min, max) of -msglog; zero: False under -zero_size off (standard list only)."""
    cls, unit, _, _ = fam.bench[name]
    unit = max(unit, fam.len_unit)
    if cls == "sync":
        return [None]
    if user_lengths is not None:
        # IMB 3.1 (IMB.c) rounds every length up to whole units: 1 -> 4, 5 -> 8 for floats;
        # mpibench rounds down only where rounding up would pass INT_MAX.
        up = [-(-x // unit) * unit for x in user_lengths]
        return [u if u <= 2**31 - 1 else x // unit * unit for u, x in zip(up, user_lengths)]
    lo, hi = msglog if msglog else (0, fam.maxlog)
    return [0] * zero + [1 << i for i in range(lo, hi + 1) if (1 << i) >= unit]


def map_order(nprocs, rows, cols):
    if not rows:
        return list(range(nprocs))
    return [j * rows + i for i in range(rows) for j in range(cols)]


def read_list_file(path):
    entries = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                entries.append(line)
    return entries


# The words of Intel's on|off options that mean off (the tests give only valid words).
OFF_WORDS = ("off", "no", "false", "disable", "0")


class Invocation:
    """What the IMB-MPI1 command line under test asks for."""

    VALUE_FLAGS = {"-npmin", "-multi", "-off_cache", "-iter", "-time", "-mem", "-msglen",
                   "-map", "-input", "--json", "--output-dir", "--timeout", "--info",
                   "--dir", "--file", "--cpu-secs", "-t_cpu", "-t_cpu_rule", "-alloc", "-warm_up",
                   "-win_disp", "-win_scope", "-buf_scope", "-buf_fill", "-prime", "-time_rule",
                   "-order", "-thread_level", "-time_cap",
                   "--thread-level", "--samples", "-msglog", "-msgsize", "-include", "-exclude",
                   "-iter_policy", "-zero_size", "-window_size", "-sync", "-root_shift",
                   "-imb_barrier", "-data_type", "-red_data_type", "-contig_type", "-msg_pause",
                   "-aggregate_mode", "-open_close_reps", "-io_barriers"}

    def __init__(self, args, nprocs, cwd, suite="", fam=MPI1):
        self.fam = fam
        self.nprocs = nprocs
        self.npmin = fam.npmin
        self.multi = None
        self.msgs, self.vol, self.nonaggr = fam.msgs, fam.vol, fam.nonaggr
        self.time_limit = None
        self.time_given = None  # -time as given: 2021.11's block limit counts in its seconds
        self.time_cap = True    # -time_cap
        self.time_outs = []     # check_blocks: the limit of every block a time-out row ended
        self.mem = None
        self.lengths = None
        self.rows = self.cols = 0
        self.check = False
        self.selftest = False
        self.json = None
        self.output_dir = None
        self.guide_order = False
        self.msglog = None
        self.zero = True
        self.iter_policy = fam.iter_policy
        self.open_close_guide = False
        include, exclude = [], []
        names = []
        i = 0
        while i < len(args):
            a = args[i]
            if a in self.VALUE_FLAGS:
                v = args[i + 1]
                i += 2
                if a == "-npmin":
                    self.npmin = int(v)
                elif a == "-multi":
                    self.multi = int(v)
                elif a == "-iter":
                    parts = [int(p) for p in v.split(",")]
                    self.msgs = parts[0]
                    if len(parts) > 1:
                        self.vol = parts[1] * 1048576
                    if len(parts) > 2:
                        self.nonaggr = parts[2]
                elif a == "-time":
                    self.time_limit = self.time_given = float(v)
                elif a == "-time_cap":
                    self.time_cap = v not in OFF_WORDS
                elif a == "-mem":
                    self.mem = float(v)
                elif a == "-msglen":
                    self.lengths = [int(x) for x in read_list_file(os.path.join(cwd, v))]
                elif a == "-map":
                    self.rows, self.cols = (int(x) for x in v.lower().split("x"))
                elif a == "-input":
                    names += read_list_file(os.path.join(cwd, v))
                elif a == "--json":
                    self.json = os.path.join(cwd, v)
                elif a == "--output-dir":
                    self.output_dir = os.path.join(cwd, v)
                elif a == "-order":
                    self.guide_order = v == "guide"
                elif a == "-open_close_reps":
                    self.open_close_guide = v == "guide"
                elif a == "-msglog":
                    lo, _, hi = v.rpartition(":")
                    self.msglog = (int(lo or 0), int(hi))
                elif a == "-msgsize":
                    self.lengths = [int(x) for x in v.split(",")]
                elif a == "-include":
                    include = [n for n in v.split(",") if n]
                elif a == "-exclude":
                    exclude = [n.lower() for n in v.split(",") if n]
                elif a == "-iter_policy":
                    self.iter_policy = v
                elif a == "-zero_size":
                    self.zero = v not in OFF_WORDS
                continue
            if a in ("-check", "--check"):
                self.check = True
            elif a == "--check-selftest":
                self.check = self.selftest = True
            elif not a.startswith("-"):
                names += [n for n in a.split(",") if n]
            i += 1
        # Intel IMB 2019+'s -include and -exclude: the included names first, then the names given
        # (or every benchmark), without the excluded ones.
        if include or exclude:
            if not names:
                order = GUIDE_ORDER if self.guide_order and fam.name == "IMB-MPI1" else fam.order
                names = list(order)
            names = [n for n in include + names
                     if (n[6:] if n.lower().startswith("multi-") else n).lower() not in exclude]
        self.selected = []  # (canonical name, multi prefix)
        for n in names:
            multi = n.lower().startswith("multi-")
            base = n[6:] if multi else n
            canon = next(b for b in fam.bench if b.lower() == base.lower())
            if (canon, multi) not in self.selected:
                self.selected.append((canon, multi))
        if not self.selected:
            order = GUIDE_ORDER if self.guide_order and fam.name == "IMB-MPI1" else fam.order
            self.selected = [(b, False) for b in order]
        if self.iter_policy in ("off", "multiple_np"):
            self.time_limit = None  # Intel IMB: no time cut under these policies
        elif self.iter_policy in ("dynamic", "auto") and self.time_limit is None:
            self.time_limit = 10.0
        self.order = map_order(nprocs, self.rows, self.cols)
        jsonl = fam.name + ".jsonl"
        if suite == "run":
            # The main job's quick defaults where the flags say nothing (mpibench run --help).
            if "-iter" not in args:
                self.msgs, self.vol = 200, 8 * 1048576
            if "-time" not in args:
                self.time_limit = 0.1
            if not self.output_dir:
                self.output_dir = os.path.join(cwd, "mpibench-results")
            jsonl = "run.jsonl"
        if self.output_dir and not self.json:
            self.json = os.path.join(self.output_dir, jsonl)

    def cap(self, name):
        """Seconds a block of name may take before 2021.11 ends it with a time-out row
        (helper_time_check): -time's (10 without it) times max(the -msglen/-msgsize lengths,
        max - min of -msglog) - 1, at least 1; None where there is no such limit."""
        if name not in self.fam.capped or not self.time_cap:
            return None
        span = self.msglog[1] - self.msglog[0] if self.msglog else self.fam.maxlog
        n = len(self.lengths) if self.lengths else 0
        return max(max(n, span) - 1, 1) * (self.time_given or 10.0)

    def reps(self, name, mode, x, q=None):
        """Repetitions at length x (5.2.8): MSGS_NONAGGR replaces MSGSPERSAMPLE in
        non-aggregate mode and for the benchmarks that only have that count (Window; IMB-IO's
        Open_Close as IMB 3.1's program runs it, unless -open_close_reps guide)."""
        if self.iter_policy == "off":
            return self.msgs
        if self.iter_policy == "multiple_np" or (self.iter_policy == "auto" and name in ROOTED):
            # Intel IMB's hyperbola, a multiple of Q, at least Q (IMB_init_buffers_iter).
            top = 1 << (self.msglog[1] if self.msglog else self.fam.maxlog)
            n = int(self.msgs * top / (q * max(x or 0, 4) + top) + 0.5)
            return max(n - n % q, q)
        nonaggr = mode == "non-aggregate" or (
            name in self.fam.nonaggr_only and not (name == "Open_Close" and self.open_close_guide))
        return reps_rule(x or 0, self.nonaggr if nonaggr else self.msgs, self.vol)

    def blocks(self):
        """Expected (name, multi flag, Q, groups, idle, mode) per block, or ("skip", name)."""
        out = []
        for name, prefixed in self.selected:
            cls, _, single, _ = self.fam.bench[name]
            multi = self.multi if self.multi is not None else (0 if prefixed else None)
            if single:
                if self.nprocs < self.fam.single_q:
                    out.append(("skip", name))
                    continue
                qs = [self.fam.single_q]
            elif cls == "msgrate":
                # Intel IMB 2021.11 (IMB_2018.c): an even Q from -npmin rounded up to the
                # process count rounded down; none on one process.
                even = self.nprocs - self.nprocs % 2
                if even < 2:
                    out.append(("skip", name))
                    continue
                qs = q_list(even, self.npmin + self.npmin % 2)
            else:
                qs = q_list(self.nprocs, self.npmin)
            for q in qs:
                groups = self.nprocs // q if multi is not None else 1
                for mode in self.fam.modes(name):
                    out.append((name, multi, q, groups, self.nprocs - groups * q, mode))
        return out


# ---- the text ------------------------------------------------------------------------------

def layout_of(fam, name, multi):
    cls = fam.bench[name][0]
    if name in fam.overlap:
        return "sync_overlap" if cls == "sync" else "overlap"
    if cls == "single":
        return "range_bw" if multi == 0 else "time_bw"
    if cls == "msgrate":
        return "rate"
    if cls == "collective" and fam.collective_bw:
        return "range_bw"
    return {"parallel": "range_bw", "collective": "range", "other": "range", "sync": "sync"}[cls]


def split_fields(line, ncols):
    if len(line) != COL * ncols:
        fail(f"row is {len(line)} characters, expected {ncols} columns of {COL}: {line!r}")
    fields = [line[k * COL:(k + 1) * COL] for k in range(ncols)]
    for f in fields:
        if not f.startswith(" ") or f.strip() == "" or " " in f.strip():
            fail(f"field {f!r} is not right-aligned in {COL} characters: {line!r}")
    return [f.strip() for f in fields]


# A comment line under a row whose repetitions -time cut below the minimum.
WARNING = "# !! "
FEW_REPS = re.compile(r"^# !! (\d+) repetitions?: fewer than (\d+) under -time; this row's time is "
                      r"uncertain$")


def time_min_reps(want_reps):
    """The fewest repetitions a -time row should have: the rule's count, at most 10."""
    return min(want_reps, 10)


def parse_text(text):
    lines = text.split("\n")
    blocks, skips, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^# (\w+) skipped: it needs (\d+) processes", line)
        if m:
            skips.append(m.group(1))
        if line.startswith("# Benchmarking "):
            if not lines[i - 1].startswith("#---"):
                fail(f"no dash line above {line!r}")
            blk = {"title": line, "dash": lines[i - 1], "info": [], "rows": []}
            i += 1
            while not lines[i].startswith("#---"):
                blk["info"].append(lines[i])
                i += 1
            if lines[i] != blk["dash"]:
                fail(f"dash lines around {blk['title']!r} differ")
            i += 1
            blk["mode"] = None
            if lines[i] == "#":
                # IMB-EXT/IO: "#", "#    MODE: AGGREGATE ", "#" (guide 4.2.2.2, IMB 3.1).
                m = re.match(r"^#    MODE: (AGGREGATE|NON-AGGREGATE) $", lines[i + 1])
                if not m or lines[i + 2] != "#":
                    fail(f"{blk['title']!r}: malformed mode lines {lines[i:i + 3]!r}")
                blk["mode"] = m.group(1).lower()
                i += 3
            blk["head"] = lines[i]
            blk["warnings"] = {}  # row index -> the "# !!" line under it (-time, few repetitions)
            i += 1
            while i < len(lines) and (not lines[i].startswith("#") or
                                      (lines[i].startswith(WARNING) and blk["rows"])):
                if lines[i].startswith(WARNING):
                    blk["warnings"][len(blk["rows"]) - 1] = lines[i]
                elif lines[i].strip():
                    blk["rows"].append(lines[i])
                i += 1
            blocks.append(blk)
            continue
        i += 1
    return blocks, skips


def check_group_lines(info, members_per_group, blk_title):
    """The '# Group  g:' listing or the -map rank-order matrix: " %4d" per rank."""
    got = [l for l in info if l.startswith("# Group")]
    if len(got) != len(members_per_group):
        fail(f"{blk_title}: {len(got)} group lines, expected {len(members_per_group)}")
    for g, (line, members) in enumerate(zip(got, members_per_group)):
        want = f"# Group  {g}: " + "".join(f" {r:4d}" for r in members[:16])
        if line != want:
            fail(f"{blk_title}: group line {line!r}, expected {want!r}")


def tolerance_mbps(factor, x, t, mega=1.048576):
    # Text t has 2 decimals: the throughput recomputed from it is uncertain by the spread of
    # factor*X/mega/t over t +- 0.005, plus the rounding of the printed value itself.
    base = factor * x / mega
    lo, hi = max(t - 0.005, 1e-9), t + 0.005
    return base / lo - base / hi + 0.011


def check_overlap(shown, line, nums, over=min):
    """Guide 4.2.5.2 with IMB's clamp: overlap = 100 * clamp((t_pure + t_CPU - t_ovrl) /
    min(t_pure, t_CPU), 0, 1) (Intel IMB 2021.11's IMB-NBC: over max), recomputed from the
    printed times (2 decimals each)."""
    t_ovrl, t_pure, t_cpu, overlap = nums[:4]
    if not 0 <= overlap <= 100:
        fail(f"{shown}: overlap {overlap} outside 0..100 in {line!r}")
    if t_cpu <= 0:
        fail(f"{shown}: t_CPU {t_cpu} is not positive in {line!r}")
    lo = over(t_pure, t_cpu)
    if lo < 1:
        return  # a time of 0.00 leaves the ratio undetermined by the text
    want = 100 * min(1, max(0, (t_pure + t_cpu - t_ovrl) / lo))
    slack = 100 * 0.02 / lo + 0.011
    if abs(want - overlap) > slack:
        fail(f"{shown}: overlap {overlap} but the times give {want:.2f} in {line!r}")


def check_blocks(inv, blocks, skips, opts):
    expected = inv.blocks()
    exp_skips = [e[1] for e in expected if e[0] == "skip"]
    expected = [e for e in expected if e[0] != "skip"]
    if skips != exp_skips:
        fail(f"skip notes {skips}, expected {exp_skips}")
    if len(blocks) != len(expected):
        fail(f"{len(blocks)} '# Benchmarking' blocks, expected {len(expected)}: "
             f"{[b['title'] for b in blocks]} vs {expected}")
    rows_out = []
    fam = inv.fam
    for blk, (name, multi, q, groups, idle, mode) in zip(blocks, expected):
        shown = ("Multi-" if groups > 1 else "") + name
        if blk["title"] != f"# Benchmarking {shown} ":
            fail(f"block title {blk['title']!r}, expected '# Benchmarking {shown} '")
        if blk["mode"] != mode:
            fail(f"{shown} on {q}: mode line says {blk['mode']}, expected {mode}")
        layout = layout_of(fam, name, multi)
        heads = (["Group"] if multi == 1 else []) + HEADS[layout]
        check_col = inv.check and fam.bench[name][0] != "sync"
        if check_col:
            heads.append("defects")
        ncols = len(heads)
        if blk["dash"] != "#" + "-" * (COL * ncols - 1):
            fail(f"{shown}: dash line of {len(blk['dash'])} characters, expected {COL * ncols}")
        want_head = "".join(f"{h:>{COL}}" for h in heads)
        if blk["head"] != want_head:
            fail(f"{shown}: column header {blk['head']!r}, expected {want_head!r}")
        # Process listing (IMB_show_procids).
        info = blk["info"]
        if groups > 1:
            if info[0] != f"# ( {groups} groups of {q} processes each running simultaneous ) ":
                fail(f"{shown}: group header {info[0]!r}")
            check_group_lines(info, [inv.order[g * q:(g + 1) * q] for g in range(groups)], shown)
        elif inv.rows > 1 and inv.cols > 1:
            if info[0] != f"# #processes = {q}; rank order (rowwise): ":
                fail(f"{shown}: {info[0]!r}, expected the -map rank order header")
            matrix = [l for l in info[1:] if l.strip("# ")]
            active = inv.order[:q]
            want = [active[k:k + inv.cols] for k in range(0, q, inv.cols)]
            for line, ranks in zip(matrix, want):
                if line != "# " + "".join(f" {r:4d}" for r in ranks):
                    fail(f"{shown}: rank order line {line!r}, expected ranks {ranks}")
        elif info[0] != f"# #processes = {q} ":
            fail(f"{shown}: {info[0]!r}, expected '# #processes = {q} '")
        idle_lines = [l for l in info if "waiting in MPI_Barrier" in l]
        want_idle = ([] if idle == 0 else
                     [f"# ( {idle} additional process{'es' if idle > 1 else ''} waiting in MPI_Barrier)"])
        if idle_lines != want_idle:
            fail(f"{shown}: idle lines {idle_lines}, expected {want_idle}")

        # Rows: one per length (per group with -multi 1), lengths and repetitions by the rules.
        lens = lengths_for(fam, name, inv.lengths, inv.msglog, inv.zero)
        per_len = groups if multi == 1 else 1
        # 2021.11's time limit may end a block early: its last row (one per group) says
        # "time-out." and names the limit; nothing follows it.
        timed_out = bool(blk["rows"]) and "time-out." in blk["rows"][-1]
        if timed_out:
            cap = inv.cap(name)
            if cap is None:
                fail(f"{shown} on {q}: a time-out row, but {name} has no time limit here")
            n = len(blk["rows"])
            if n % per_len or n > len(lens) * per_len or \
                    any("time-out." not in l for l in blk["rows"][n - per_len:]) or \
                    any("time-out." in l for l in blk["rows"][:n - per_len]):
                fail(f"{shown} on {q}: time-out rows not the block's last row(s): {blk['rows']}")
            inv.time_outs.append(cap)
        elif len(blk["rows"]) != len(lens) * per_len:
            fail(f"{shown} on {q}: {len(blk['rows'])} rows, expected {len(lens) * per_len}")
        for k, line in enumerate(blk["rows"]):
            x = lens[k // per_len]
            rec = {"name": name, "shown": shown, "q": q, "groups": groups, "layout": layout,
                   "group": (k % per_len) if multi == 1 else None, "bytes": x, "line": line,
                   "mode": mode}
            if "time-out." in line:
                got_x = int(line[COL * (multi == 1):][:COL])
                want = (f" time-out.; the benchmark's time limit of {inv.cap(name):g} s is over; "
                        "use -time X to raise it")
                if got_x != x or line[COL * ((multi == 1) + 1):] != want:
                    fail(f"{shown}: time-out row {line!r}, expected {x} bytes and {want!r}")
                rec["status"] = "skipped-time"
                rec["limit"] = inv.cap(name)
                rows_out.append(rec)
                continue
            if "out-of-mem." in line or "int-overflow." in line:
                if not opts.allow_skips:
                    fail(f"{shown}: unexpected skipped row {line!r}")
                got_x = int(line[COL * (multi == 1):][:COL])
                if got_x != x:
                    fail(f"{shown}: skipped row for {got_x} bytes, expected {x}")
                rec["status"] = "skipped-memory" if "out-of-mem." in line else "skipped-int"
                rows_out.append(rec)
                continue
            f = split_fields(line, ncols)
            if multi == 1:
                if int(f[0]) != rec["group"]:
                    fail(f"{shown}: group column {f[0]}, expected {rec['group']}")
                f = f[1:]
            if layout not in ("sync", "sync_overlap"):
                if int(f[0]) != x:
                    fail(f"{shown}: row {k} has #bytes {f[0]}, expected {x}")
                f = f[1:]
            reps = int(f[0])
            want_reps = inv.reps(name, mode, x, q)
            if inv.time_limit is None and reps != want_reps:
                fail(f"{shown}: {x} bytes with {reps} repetitions, expected {want_reps}")
            if inv.time_limit is not None and not 1 <= reps <= want_reps:
                fail(f"{shown}: {reps} repetitions under -time, expected 1..{want_reps}")
            # The warning line under the row exactly when -time left too few repetitions.
            warning = blk["warnings"].get(k)
            few = inv.time_limit is not None and reps < time_min_reps(want_reps)
            if few:
                m = FEW_REPS.match(warning or "")
                if not m or (int(m.group(1)), int(m.group(2))) != (reps, time_min_reps(want_reps)):
                    fail(f"{shown}: {x} bytes with {reps} repetitions under -time: warning line "
                         f"{warning!r}, expected one naming {reps} and "
                         f"{time_min_reps(want_reps)}")
            elif warning is not None:
                fail(f"{shown}: unexpected warning {warning!r} under {line!r}")
            rec.update(status="ok", reps=reps, text=f, few=few,
                       reps_min=time_min_reps(want_reps) if few else None)
            nums = [float(v) for v in f[1:]]
            if any(not math.isfinite(v) or v < 0 for v in nums):
                fail(f"{shown}: non-finite or negative value in {line!r}")
            if layout == "rate":
                # No time column: Mbytes/sec (10^6 B/s) = Msg/sec x X / 10^6, Msg/sec printed
                # whole, Mbytes/sec to 2 decimals.
                mb, msgs = nums[0], nums[1]
                if abs(mb - msgs * x / 1e6) > 0.011 + 0.5 * x / 1e6 + 1e-9:
                    fail(f"{shown}: Mbytes/sec {mb} but Msg/sec {msgs} x {x} / 10^6 = "
                         f"{msgs * x / 1e6:.2f}")
                if msgs <= 0:
                    fail(f"{shown}: Msg/sec {msgs} in {line!r}")
                rec["rate_mbps_text"], rec["msgs_text"] = f[1], f[2]
            elif layout == "time_bw":
                rec["t_max_text"], rec["mbps_text"] = f[1], f[2]
            elif layout in ("overlap", "sync_overlap"):
                check_overlap(shown, line, nums, fam.overlap_over)
                (rec["t_ovrl_text"], rec["t_pure_text"], rec["t_cpu_text"],
                 rec["overlap_text"]) = f[1:5]
            else:
                tmin, tmax, tavg = nums[0], nums[1], nums[2]
                if not tmin <= tavg <= tmax:
                    fail(f"{shown}: not t_min <= t_avg <= t_max in {line!r}")
                rec["t_min_text"], rec["t_max_text"], rec["t_avg_text"] = f[1], f[2], f[3]
                if layout == "range_bw":
                    rec["mbps_text"] = f[4]
            factor = fam.bench[name][3]
            if "mbps_text" in rec:
                t = float(rec["t_max_text"])
                mb = float(rec["mbps_text"])
                mega = 1.0 if name in fam.decimal else 1.048576
                want = factor * x / mega / t if t > 0 else 0.0
                if abs(mb - want) > tolerance_mbps(factor, x, t, mega):
                    fail(f"{shown}: Mbytes/sec {mb} but {factor}*{x}/{mega}/{t} = {want:.2f}")
            if check_col:
                rec["defects"] = int(f[-1])
            rows_out.append(rec)
    return rows_out


def check_json(path, rows, status, schema_path, suite="IMB-MPI1"):
    records = mbcheck.load_jsonl(path, schema_path)
    results = [r for r in records if r["type"] == "result"]
    if len(results) != len(rows):
        fail(f"{len(results)} JSON result records for {len(rows)} text rows")
    for r, t in zip(results, rows):
        if (r["benchmark"], r["processes"], r["groups"], r["group"]) != \
                (t["name"], t["q"], t["groups"], t["group"]):
            fail(f"JSON record {r} does not match the text row {t['line']!r}")
        if r["bytes"] != t["bytes"] or r["layout"] != t["layout"] or r["status"] != t["status"]:
            fail(f"JSON record {r} does not match the text row {t['line']!r}")
        if r.get("mode") != t["mode"] or r["suite"] != suite:
            fail(f"JSON record {r} has mode {r.get('mode')} / suite {r['suite']}, "
                 f"expected {t['mode']} / {suite}")
        if t["status"] == "skipped-time" and r.get("time_limit_sec") != t["limit"]:
            fail(f"JSON time_limit_sec {r.get('time_limit_sec')}, expected {t['limit']}")
        if t["status"] != "ok":
            continue
        if r["repetitions"] != t["reps"]:
            fail(f"JSON repetitions {r['repetitions']} vs text {t['reps']}")
        if r.get("few_repetitions", False) != t["few"] or \
                r.get("repetitions_minimum") != t["reps_min"]:
            fail(f"JSON few_repetitions/repetitions_minimum {r.get('few_repetitions')}/"
                 f"{r.get('repetitions_minimum')} vs the text's warning: {t['line']!r}")
        if "msgs_text" in t:
            if f"{r['messages_per_sec']:.0f}" != t["msgs_text"] or \
                    f"{r['mib_per_sec'] * 1.048576:.2f}" != t["rate_mbps_text"]:
                fail(f"JSON messages_per_sec {r['messages_per_sec']}, mib_per_sec "
                     f"{r['mib_per_sec']} vs the text's {t['msgs_text']}, {t['rate_mbps_text']}")
        for key in ("t_min", "t_max", "t_avg", "mbps", "t_ovrl", "t_pure", "t_cpu", "overlap"):
            if key + "_text" not in t:
                continue
            jkey = {"mbps": "mib_per_sec", "overlap": "overlap_percent"}.get(key, key + "_usec")
            # JSON is 2^20 B/s for every row; the text of a 10^6-byte row says 1.048576 times as
            # much.
            value = r[jkey] * (1.048576 if key == "mbps" and r["benchmark"] in IMB2021 else 1)
            if f"{value:.2f}" != t[key + "_text"]:
                fail(f"JSON {jkey} {r[jkey]} prints as {value:.2f}, text says {t[key + '_text']}")
        if not 0 < r["t_min_usec"] <= r["t_avg_usec"] * (1 + 1e-12) <= r["t_max_usec"] * (1 + 1e-12):
            fail(f"JSON times not 0 < t_min <= t_avg <= t_max: {r}")
        if "defects" in t and r["defects"] != t["defects"]:
            fail(f"JSON defects {r['defects']} vs text {t['defects']}")
    summary = records[-1]
    if summary["rows"] != len(rows) or summary["exit_status"] != status:
        fail(f"JSON summary {summary} vs {len(rows)} rows, exit status {status}")


# The run reached its end: mpibench's footer line. IMB 3.1 prints nothing after its tables; the
# "# All processes entering MPI_Finalize" line is Intel IMB 2018's and must not appear.
FOOTER = re.compile(r"^# mpibench: \d+ rows", re.M)
IMB2018_TRAILER = "# All processes entering MPI_Finalize"


def finished(text):
    return FOOTER.search(text) is not None


def check_run(run, fam=MPI1):
    opts = run.opts
    inv = Invocation(run.args, opts.np, run.cwd, opts.prefix_args.strip(), fam)
    if inv.json:
        run.allow(inv.json)
    blocks, skips = parse_text(run.stdout)
    if IMB2018_TRAILER in run.stdout:
        fail(f"{IMB2018_TRAILER!r} printed: that line is Intel IMB 2018's, not IMB 3.1's")
    if not (opts.status in (0, 1) and finished(run.stdout)):
        return f"exit status {run.returncode}, {run.elapsed:.1f} s"
    for required in ("# Calling sequence was:", "# List of Benchmarks to run:",
                     "# mpibench ", "# MPI library ", "# Effective settings:"):
        if required not in run.stdout:
            fail(f"header line {required!r} missing")
    # mpibench's name and the methodology, never the vendor's product name (its trademark
    # licence; docs/adr/licence-and-names.md).
    title = (rf"^#    mpibench \S+: {re.escape(fam.name)} \({re.escape(fam.part)}\), "
             rf"following the {re.escape(fam.method)} methodology$")
    if not re.search(title, run.stdout, re.M):
        fail(f"header line {title!r} missing")
    if re.search(r"Intel\s*\(R\)|Intel MPI Benchmarks", run.stdout):
        fail("the output names the vendor's product")
    if opts.stopped is not None:
        # A run that stopped on an agreed failure (IMB-IO's I/O, IMB-EXT's refused window)
        # has no rows from the block that stopped on: the reason is what is checked.
        said = re.findall(r"^# stopped: (.*)$", run.stdout, re.M)
        if len(said) != 1 or not re.search(opts.stopped, said[0]):
            fail(f"expected one '# stopped: ' line matching {opts.stopped!r}, found {said}")
        return f"stopped: {said[0][:120]}, {run.elapsed:.1f} s"
    rows = check_blocks(inv, blocks, skips, opts)
    # A block ended by its time limit ran at least that long: the run too.
    if inv.time_outs and run.elapsed < max(inv.time_outs):
        fail(f"a time-out row after {max(inv.time_outs):g} s, but the run took {run.elapsed:.2f} s")
    if opts.require_time_outs and not inv.time_outs:
        fail("expected a time-out row, found none")
    defects = sum(r.get("defects", 0) for r in rows)
    if inv.check and opts.expect_defects and defects == 0:
        fail("--check-selftest: no defects reported")
    if inv.check and not opts.expect_defects and defects != 0:
        fail(f"{defects} defects reported")
    nskip = sum(r["status"] not in ("ok", "skipped-time") for r in rows)
    if opts.require_skips and nskip == 0:
        fail("expected out-of-mem rows, found none")
    if inv.json:
        if not opts.schema:
            fail("--json used but no --schema given")
        check_json(inv.json, rows, opts.status, opts.schema, fam.name)
    timed = f", {len(inv.time_outs)} timed out" if inv.time_outs else ""
    return f"{len(blocks)} blocks, {len(rows)} rows ({nskip} skipped{timed}), {run.elapsed:.1f} s"


def add_options(ap):
    """The options of the IMB checkers (imb_check.py, ext_check.py)."""
    ap.add_argument("--expect-defects", action="store_true",
                    help="some rows must report defects (--check-selftest)")
    ap.add_argument("--allow-skips", action="store_true", help="out-of-mem rows are expected")
    ap.add_argument("--require-skips", action="store_true", help="at least one out-of-mem row")
    ap.add_argument("--require-time-outs", action="store_true",
                    help="at least one block ended by Intel IMB 2021.11's time limit")
    ap.add_argument("--stopped", metavar="REGEX",
                    help="the run stops on an agreed failure: one '# stopped: ' line matching "
                         "REGEX, no row checks")
    return ap


def main():
    ap = add_options(mbcheck.parser(__doc__))
    return mbcheck.main(check_run, ap, tmp_prefix="mb-imb-")


if __name__ == "__main__":
    sys.exit(main())
