#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run b_eff_io under mpiexec and check its JSON records, stdout, protocol files and scratch files.

Everything is re-derived here from the b_eff paper (§4-5, Table 2) and the b_eff_io 2.1 source,
independently of the C code: the partitions (-N, or 2.1's defaults), which of the 43 patterns
run in which pass (the rewrite pass runs type 0 only unless -rewrite), each pattern's chunk and
call size from the pattern table with L_max = 8192 x max(256, min(MB, 131072)), the repetitions
(one time-driven count per pattern of types 0-2 in the write pass, reused by the other passes;
types 3 and 4 from 2.1's segment rule, with the filler = Lseg - L3), the scheduled times
Tn / Usum x U (Usum 150, or 192 with -rewrite), bytes = n x L x r and bandwidth = bytes / t,
the type totals (open + patterns + close), the access values ((2 type 0 + types 1-4) / 6, the
rewrite alone without -rewrite), the partition value - release 2.1's sqrt(WR x RD) by default,
0.25 write + 0.25 rewrite + 0.5 read with --definition weighted, the other one beside it -, the
U-weighted means (wbw) of the passes and partitions, the maximum over the partitions and the
validity (Tn >= 1800 s, 900 s with --definition weighted, no errors, no -noshared/-adapt). The
text must agree with the JSON as printed, in b_eff_io 2.1's layout (its format strings: fields,
widths, blank lines, the .sum column headings): every pattern, type, access and partition line
on stdout and in PREFIX.prot, the failed criteria before the final line, the .sum tables, the
.plot data and the .gps script; and the scratch directory must hold no b_eff_io_data_* file
afterwards (with -keep exactly the run's files), no temporary protocol file may be left next to
the prefix.

The checker runs the program in a new temporary directory and adds "--json r.jsonl",
"-f b_eff_io_chk" and "-p scratch" (a fresh directory) unless the arguments have their own.
A run expected to fail (--status N != 0) needs --stderr; if it still completed (data errors:
--check-selftest) everything is checked with the errors accounted for, else only that it left
no scratch or protocol file behind.

--save DIR keeps a copy of the run (scratch files as empty placeholders) with its streams;
the same command with --recheck DIR checks that copy again without running anything (e.g.
after corrupting a value in DIR/r.jsonl, to see the checker fail).

Usage: beffio_check.py --mpiexec CMD --np N --bin PATH/b_eff_io [options] -- b_eff_io arguments
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import check, fail  # noqa: E402

JSON_NAME, PREFIX_NAME, SCRATCH_NAME = "r.jsonl", "b_eff_io_chk", "scratch"
META = ".beffio_check_run.json"
PROTOCOL_EXT = ("prot", "sum", "plot", "gps")

# ---- the rules, re-derived (b_eff paper, b_eff_io 2.1) ------------------------------------

KB, MIB = 1024, 1 << 20
LMAX, FILL = "Lmax", "fill"
ACCESSES = ["write", "rewrite", "read"]
TYPES = ["scatter", "shared", "separated", "segmented", "seg_coll"]

# The pattern table: (type, U, part, pos, l, L); part 0 opens the file, 2 closes it;
# pos 0 = not reported.
TABLE = [
    (0, 0, 0, 0, MIB, MIB), (0, 4, 1, 7, LMAX, LMAX), (0, 4, 1, 8, MIB, 2 * MIB),
    (0, 4, 1, 5, MIB, MIB), (0, 2, 1, 3, 32 * KB, MIB), (0, 2, 1, 1, KB, MIB),
    (0, 2, 1, 4, 32 * KB + 8, 32 * (32 * KB + 8)), (0, 2, 1, 2, KB + 8, 1024 * (KB + 8)),
    (0, 2, 2, 6, MIB + 8, MIB + 8),
]
for _t, _us in ((1, (4, 2, 1, 1, 1, 1, 2)), (2, (2, 2, 1, 1, 1, 1, 2)),
                (3, (2, 2, 1, 1, 1, 1, 2)), (4, (2, 2, 1, 1, 1, 1, 2))):
    TABLE.append((_t, 0, 0, 0, MIB, MIB))
    for _pos, _l, _u in zip((7, 5, 3, 1, 4, 2, 6),
                            (LMAX, MIB, 32 * KB, KB, 32 * KB + 8, KB + 8, MIB + 8), _us):
        TABLE.append((_t, _u, 1, _pos, _l, _l))
    if _t >= 3:
        TABLE.append((_t, 0, 2, 0, FILL, FILL))
    else:
        TABLE[-1] = TABLE[-1][:2] + (2,) + TABLE[-1][3:]  # the last pattern closes the file
assert len(TABLE) == 43 and [sum(r[1] for r in TABLE if r[0] == t) for t in range(5)] == \
    [22, 12, 10, 10, 10]
FIRST = [min(p for p, r in enumerate(TABLE) if r[0] == t) for t in range(5)]  # 0 9 17 25 34


def lmax_bytes(mb):
    return 8192 * max(256, min(mb, 131072))


def resolve(v, lmax, fill):
    return lmax if v == LMAX else fill if v == FILL else v


def pos_chunk(pos, lmax):
    """The chunk size of a report position (the type-0 pattern's l)."""
    return resolve(next(r[4] for r in TABLE if r[0] == 0 and r[3] == pos), lmax, 0)


def runs(p, a, rewrite):
    return a != 1 or rewrite or TABLE[p][0] == 0


def default_partitions(n):
    if n <= 1:
        return [1]
    if n == 2:
        return [1, 2]
    small = 2 ** int(0.5000001 + 0.35 * math.log2(n))
    medium = 2 ** int(0.5000001 + 0.70 * math.log2(n))
    if n == 3:
        small = 1
    if n == 4:
        medium = 3
    return [small, medium, n]


def segments(rep, lmax):
    """2.1's segment rule: {pattern: repetitions} of types 3 and 4, Lseg and the filler chunk,
    from the write pass's repetitions rep[p] of types 0-2 (per chunk position: type-0 chunks,
    10 x type 1, type 2; pattern 2, pos 8, has no partner)."""
    out, l3 = {FIRST[3]: 1, FIRST[4]: 1}, MIB
    for p3 in range(FIRST[3] + 1, FIRST[3] + 8):
        pos = TABLE[p3][3]
        p0, p1, p2 = (next(p for p, r in enumerate(TABLE) if r[0] == t and r[3] == pos)
                      for t in (0, 1, 2))
        per_call = resolve(TABLE[p0][5], lmax, 0) // resolve(TABLE[p0][4], lmax, 0)
        r = min(rep[p0] * per_call, 10 * rep[p1], rep[p2])
        out[p3] = out[p3 - FIRST[3] + FIRST[4]] = r
        l3 += r * resolve(TABLE[p3][4], lmax, 0)
    lseg = -(-l3 // MIB) * MIB
    out[FIRST[4] - 1] = out[42] = 1
    return out, lseg, lseg - l3


def access_value(bw, all_types):
    return (2 * bw[0] + bw[1] + bw[2] + bw[3] + bw[4]) / 6 if all_types else bw[0]


def close(a, b, rel=1e-9, absolute=1e-12):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), absolute)


def finite(x, positive=True):
    return isinstance(x, (int, float)) and math.isfinite(x) and (x > 0 if positive else x >= 0)


# ---- the run's settings, from its arguments ----------------------------------------------------

def _values(args, *names):
    """Values of an option in order (NAME VALUE, or --NAME=VALUE for the long options)."""
    out = []
    for k, a in enumerate(args):
        if a in names and k + 1 < len(args):
            out.append(args[k + 1])
        for n in names:
            if n.startswith("--") and a.startswith(n + "="):
                out.append(a[len(n) + 1:])
    return out


def effective_args(args):
    """The user's arguments plus what the checker adds."""
    add = []
    if not _values(args, "--json"):
        add += ["--json", JSON_NAME]
    if not _values(args, "-f"):
        add += ["-f", PREFIX_NAME]
    if not _values(args, "-p"):
        add += ["-p", SCRATCH_NAME]
    return list(args) + add


class Settings:
    def __init__(self, args, np_):
        self.args, self.np = args, np_
        last = lambda *n: (_values(args, *n) or [None])[-1]  # noqa: E731
        self.mb = int(last("-MB")) if last("-MB") else None
        self.T = int(last("-T")) if last("-T") else 1800
        self.partitions_given = bool(_values(args, "-N"))
        self.parts = ([int(x) for v in _values(args, "-N") for x in v.split(",")]
                      if self.partitions_given else default_partitions(np_))
        self.npart = len(self.parts)
        self.tn = self.T // self.npart
        flag = lambda *n: any(a in n for a in args)  # noqa: E731
        self.rewrite, self.keep = flag("-rewrite"), flag("-keep", "--keep")
        self.noshared, self.adapt = flag("-noshared"), flag("-adapt")
        self.selftest = flag("--check-selftest")
        self.weighted = (last("--definition") or "release21") == "weighted"
        self.t_valid = 900 if self.weighted else 1800
        self.quiet = flag("--quiet")
        self.no_run = flag("--help", "-help", "--version", "--dry-run")
        self.usum = 64 + (64 if self.rewrite else 22) + 64
        self.json = last("--json")
        self.prefix = last("-f")
        self.scratch = last("-p")
        self.output_dir = last("--output-dir")
        self.mt = int(last("-MT")) if last("-MT") else None


# ---- JSON ------------------------------------------------------------------------------

def load_records(path, schema, notes):
    """The records, each validated against its type's schema definition where there is one."""
    records = mbcheck.load_jsonl(path)  # JSON, header first, summary last; no schema yet
    if not schema:
        return records
    try:
        import jsonschema
    except ImportError:
        fail("python3-jsonschema is needed to validate the JSON output")
    with open(schema) as f:
        doc = json.load(f)
    defs = doc.get("definitions", {})
    missing = sorted({r.get("type") for r in records} - set(defs), key=str)
    validators = {}
    for rec in records:
        t = rec.get("type")
        if t not in defs:
            continue
        if t not in validators:
            sub = {k: v for k, v in doc.items() if k not in ("oneOf", "anyOf")}
            sub["$ref"] = f"#/definitions/{t}"
            validators[t] = jsonschema.validators.validator_for(doc)(sub)
        err = jsonschema.exceptions.best_match(validators[t].iter_errors(rec))
        if err is not None:
            fail(f"JSON {t} record does not match the schema: {err.message}\n{rec}")
    if missing:
        notes.append(f"the schema has no definition for {', '.join(map(str, missing))}: "
                     "not validated against it")
    else:  # every type known: the records must also match the schema as a whole (oneOf)
        whole = jsonschema.validators.validator_for(doc)(doc)
        for rec in records:
            err = jsonschema.exceptions.best_match(whole.iter_errors(rec))
            check(err is None, f"JSON record does not match the schema: "
                               f"{err.message if err else ''}\n{rec}")
    problems = mbcheck.schema_rules.rule_problems(doc) + \
        mbcheck.schema_rules.record_problems(records, doc)
    check(not problems, "; ".join(problems[:5]))
    return records


class Model:
    """The JSON records by key, with what was re-derived from them."""

    def __init__(self):
        self.pat, self.typ, self.part = {}, {}, {}
        self.result = self.header = self.summary = None
        self.rep = {}     # (i, p) -> write-pass repetitions
        self.lseg, self.fill = {}, {}
        self.errors_total = 0


def check_json(records, st, errors_allowed):
    m = Model()
    m.header, m.summary = records[0], records[-1]
    h = m.header
    check(h.get("suite") == "b_eff_io", f"header suite {h.get('suite')!r}")
    check(h.get("processes") == st.np, f"header: {h.get('processes')} processes, started {st.np}")
    sets = h.get("settings", {})
    want_n = ",".join(map(str, st.parts)) + ("" if st.partitions_given else " (default)")
    check(sets.get("-N") == want_n, f"header settings -N {sets.get('-N')!r}, expected {want_n!r}")
    check(sets.get("-T") == str(st.T), f"header settings -T {sets.get('-T')!r}, expected {st.T}")
    check(sets.get("-rewrite") == ("on" if st.rewrite else "off"), "header settings -rewrite")

    body = records[1:-1]
    res = [r for r in body if r.get("type") == "beffio_result"]
    check(len(res) == 1, f"JSON: {len(res)} beffio_result records")
    m.result = res[0]
    mb = m.result["memory_per_process_mib"]
    if st.mb is not None:
        check(mb == st.mb, f"beffio_result memory_per_process_mib {mb}, -MB {st.mb}")
    check(isinstance(mb, int) and mb >= 1, "memory per process")
    lmax = lmax_bytes(mb)
    check(m.result["lmax_bytes"] == lmax,
          f"lmax_bytes {m.result['lmax_bytes']}, expected 8192 x max(256, min({mb}, 131072)) "
          f"= {lmax}")

    # The sequence: per pass, per partition, the patterns that run, a type after its last
    # pattern; then one beffio_partition per partition and the beffio_result.
    want = []
    for a in range(3):
        for i in range(st.npart):
            for p in range(43):
                if runs(p, a, st.rewrite):
                    want.append(("beffio_pattern", i, a, p))
                    if TABLE[p][2] == 2:
                        want.append(("beffio_type", i, a, TABLE[p][0]))
    want += [("beffio_partition", i) for i in range(st.npart)] + [("beffio_result",)]

    def key(r):
        t = r.get("type")
        idx = lambda names, x: names.index(x) if x in names else x  # noqa: E731
        if t == "beffio_pattern":
            return (t, r["partition"], idx(ACCESSES, r["access"]), r["pattern"])
        if t == "beffio_type":
            return (t, r["partition"], idx(ACCESSES, r["access"]), idx(TYPES, r["pattern_type"]))
        if t == "beffio_partition":
            return (t, r["partition"])
        return (t,)
    got = [key(r) for r in body]
    if got != want:
        k = next((k for k, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        fail(f"JSON record {k + 2}: {got[k] if k < len(got) else 'end of records'}, expected "
             f"{want[k] if k < len(want) else 'no more records'} ({len(got)} records, expected "
             f"{len(want)})")
    for r in body:
        k = key(r)
        if k[0] == "beffio_pattern":
            m.pat[k[1:]] = r
        elif k[0] == "beffio_type":
            m.typ[k[1:]] = r
        elif k[0] == "beffio_partition":
            m.part[k[1]] = r

    for i, n in enumerate(st.parts):
        for p in range(FIRST[3]):
            m.rep[(i, p)] = m.pat[(i, 0, p)]["repetitions"]
        seg, m.lseg[i], m.fill[i] = segments({p: m.rep[(i, p)] for p in range(FIRST[3])}, lmax)
        check(0 <= m.fill[i] < MIB and m.lseg[i] % MIB == 0, f"partition {i}: Lseg {m.lseg[i]}")
        m.rep.update({(i, p): r for p, r in seg.items()})
        for a in range(3):
            for p in range(43):
                if runs(p, a, st.rewrite):
                    check_pattern(m, st, i, n, a, p, lmax)
            for t in range(5):
                if (i, a, t) in m.typ:
                    check_type(m, st, i, n, a, t)
        check_partition(m, st, i, n)

    # The result: the partition with the largest value (the first of equal ones), and each
    # definition's maximum with its partition.
    vals = [m.part[i]["b_eff_io_mb_per_sec"] for i in range(st.npart)]
    best = max(range(st.npart), key=lambda i: (vals[i], -i))
    r, bp = m.result, m.part[best]
    check(r["definition"] == ("weighted" if st.weighted else "release21"),
          f"beffio_result definition {r['definition']!r}")
    for d in ("release21", "weighted"):
        dv = [m.part[i][f"{d}_mb_per_sec"] for i in range(st.npart)]
        db = max(range(st.npart), key=lambda i: (dv[i], -i))
        check(r[f"{d}_partition"] == db and r[f"{d}_mb_per_sec"] == dv[db],
              f"beffio_result {d}: {r[f'{d}_mb_per_sec']} of partition "
              f"{r[f'{d}_partition']}, the maximum is partition {db}'s {dv[db]}")
    check(r["partition"] == best, f"beffio_result partition {r['partition']}, the largest value "
                                  f"is partition {best}'s: {vals}")
    check(r["b_eff_io_mb_per_sec"] == bp["b_eff_io_mb_per_sec"] and
          r["processes"] == st.parts[best] and r["scheduled_sec"] == st.tn and
          r["errors"] == bp["errors"] and r["valid"] == bp["valid"],
          "beffio_result: value, processes, scheduled time, errors or validity differ from "
          "its partition's")
    tt = r["total_time_sec"]
    check(finite(tt), "total_time_sec positive and finite")
    parts_t = sum(m.part[i]["time_sec"] for i in range(st.npart))
    check(parts_t <= tt * (1 + 1e-9), f"total time {tt} < sum of the partitions' {parts_t}")
    s = m.summary
    check(finite(s["elapsed_sec"]) and tt <= s["elapsed_sec"] * (1 + 1e-9),
          f"summary elapsed_sec {s['elapsed_sec']} < b_eff_io total time {tt}")
    check(s["rows"] == len(m.pat), f"summary rows {s['rows']}, {len(m.pat)} pattern records")
    m.errors_total = sum(p["errors"] for p in m.pat.values())
    check(s["defects"] == m.errors_total,
          f"summary defects {s['defects']}, the patterns' errors add up to {m.errors_total}")
    check(s["exit_status"] == (1 if m.errors_total else 0),
          f"summary exit_status {s['exit_status']}")
    if not errors_allowed:
        check(m.errors_total == 0, f"{m.errors_total} data errors")
    return m


def check_pattern(m, st, i, n, a, p, lmax):
    rec = m.pat[(i, a, p)]
    t, U, _part, pos, l, L = TABLE[p]
    what = f"beffio_pattern partition {i} {ACCESSES[a]} p{p}"
    check(rec["processes"] == n, f"{what}: processes {rec['processes']}, partition of {n}")
    check(rec["pattern_type"] == TYPES[t] and rec["position"] == pos and rec["time_units"] == U,
          f"{what}: type/position/time units {rec['pattern_type']}/{rec['position']}/"
          f"{rec['time_units']}, expected {TYPES[t]}/{pos}/{U}")
    l, L = resolve(l, lmax, m.fill[i]), resolve(L, lmax, m.fill[i])
    check(rec["chunk_bytes"] == l and rec["call_bytes"] == L,
          f"{what}: chunk/call bytes {rec['chunk_bytes']}/{rec['call_bytes']}, expected {l}/{L}")
    r = rec["repetitions"]
    timed = a == 0 and t <= 2
    if timed:
        check(isinstance(r, int) and r >= 1, f"{what}: repetitions {r}")
        if U == 0:
            check(r == 1, f"{what}: {r} repetitions of a part-0 pattern (Tp = 0: exactly 1)")
    else:
        check(r == m.rep[(i, p)], f"{what}: {r} repetitions, expected {m.rep[(i, p)]} "
              + ("(the write pass's)" if t <= 2 else "(the type 3/4 segment rule)"))
    # Tp = Tu x U on every pattern's line, as 2.1 prints it (only the write loop of types 0-2
    # is paced by it).
    tp = st.tn / st.usum * U
    if st.adapt and timed and U:
        check(0 < rec["scheduled_sec"] <= tp * (1 + 1e-12),
              f"{what}: -adapt scheduled_sec {rec['scheduled_sec']} not in (0, {tp}]")
    else:
        check(close(rec["scheduled_sec"], tp), f"{what}: scheduled_sec {rec['scheduled_sec']}, "
                                               f"expected Tn/Usum x U = {st.tn}/{st.usum} x {U}")
    check(rec["bytes"] == n * L * r, f"{what}: bytes {rec['bytes']}, expected {n} x {L} x {r}")
    tm = rec["time_sec"]
    check(finite(tm), f"{what}: time_sec {tm}")
    check(close(rec["mb_per_sec"], rec["bytes"] / tm / 1e6, 1e-6),
          f"{what}: mb_per_sec {rec['mb_per_sec']} != bytes / time / 1e6")
    check(finite(rec["barrier_sec"]) and finite(rec["last_call_sec"]),
          f"{what}: barrier/last call times not positive")
    check(finite(rec["bcast_sec"]) if timed else rec["bcast_sec"] == 0,
          f"{what}: bcast_sec {rec['bcast_sec']} (only the time-driven loop broadcasts)")
    check(finite(rec["sync_sec"]) if a != 2 else rec["sync_sec"] == 0,
          f"{what}: sync_sec {rec['sync_sec']} (writes sync, reads do not)")
    parts = rec["barrier_sec"] + rec["bcast_sec"] + rec["sync_sec"]
    check(parts <= tm * (1 + 1e-9), f"{what}: barrier + bcast + sync {parts} > time {tm}")
    check(rec["last_call_sec"] <= tm * (1 + 1e-9), f"{what}: last call longer than the pattern")
    check(isinstance(rec["errors"], int) and rec["errors"] >= 0, f"{what}: errors")
    check(rec["errors"] == 0 or a == 2, f"{what}: errors outside the read pass")
    stop = rec["disk_budget_stop"]
    check(stop is False or (stop is True and timed), f"{what}: disk_budget_stop {stop}")
    if timed and U and not stop:
        # 2.1's time-driven loop: it ended when elapsed x (r+1)/r > Tp, and the pattern's time
        # includes that elapsed time: t > Tp x r/(r+1).
        sched = rec["scheduled_sec"]
        check(tm >= sched * r / (r + 1) * (1 - 1e-9),
              f"{what}: {r} repetitions in {tm} s end before the time rule allows "
              f"(Tp = {sched}: t must exceed Tp x r/(r+1))")


def check_type(m, st, i, n, a, t):
    rec = m.typ[(i, a, t)]
    what = f"beffio_type partition {i} {ACCESSES[a]} {TYPES[t]}"
    pats = [m.pat[(i, a, p)] for p in range(43) if TABLE[p][0] == t]
    check(rec["processes"] == n, f"{what}: processes")
    check(rec["bytes"] == sum(p["bytes"] for p in pats),
          f"{what}: bytes {rec['bytes']} != the sum of its patterns' bytes")
    for k in ("open_sec", "close_sec", "time_sec"):
        check(finite(rec[k]), f"{what}: {k} {rec[k]}")
    tsum = rec["open_sec"] + rec["close_sec"]
    for p in pats:
        tsum += p["time_sec"]
    check(close(rec["time_sec"], tsum),
          f"{what}: time_sec {rec['time_sec']} != open + patterns + close = {tsum}")
    check(close(rec["mb_per_sec"], rec["bytes"] / rec["time_sec"] / 1e6, 1e-6),
          f"{what}: mb_per_sec {rec['mb_per_sec']} != bytes / time / 1e6")
    w = [(TABLE[p][1], m.pat[(i, a, p)]["mb_per_sec"]) for p in range(43)
         if TABLE[p][0] == t and TABLE[p][1] > 0]
    wbw = sum(u * b for u, b in w) / sum(u for u, _ in w)
    check(close(rec["weighted_mb_per_sec"], wbw, 1e-6),
          f"{what}: weighted_mb_per_sec {rec['weighted_mb_per_sec']}, U-weighted mean "
          f"{wbw}")
    if t >= 3:
        check(rec.get("segment_bytes") == m.lseg[i],
              f"{what}: segment_bytes {rec.get('segment_bytes')}, expected Lseg {m.lseg[i]}")
    else:
        check("segment_bytes" not in rec, f"{what}: segment_bytes for a type without segments")


def pass_wsum(m, i, a):
    """b_eff_io 2.1's wbw of one pass as its sums: U x bw over the patterns, and U."""
    w = [(TABLE[p][1], r["mb_per_sec"]) for (j, aa, p), r in m.pat.items()
         if j == i and aa == a and TABLE[p][1] > 0]
    return sum(u * b for u, b in w), sum(u for u, _ in w)


def check_partition(m, st, i, n):
    rec = m.part[i]
    what = f"beffio_partition {i}"
    check(rec["processes"] == n and rec["scheduled_sec"] == st.tn,
          f"{what}: processes {rec['processes']} / scheduled {rec['scheduled_sec']}, expected "
          f"{n} / T div partitions = {st.T} div {st.npart}")
    acc, bw = [], {}
    for a in range(3):
        bw[a] = [m.typ[(i, a, t)]["mb_per_sec"] if (i, a, t) in m.typ else 0 for t in range(5)]
        acc.append(access_value(bw[a], a != 1 or st.rewrite))
        check(close(rec["access_mb_per_sec"][a], acc[a]),
              f"{what}: {ACCESSES[a]} value {rec['access_mb_per_sec'][a]}, expected "
              f"{'(2 x type 0 + types 1-4) / 6' if a != 1 or st.rewrite else 'type 0'} = {acc[a]}")
        at = rec["access_time_sec"][a]
        tsum = sum(m.typ[(i, a, t)]["time_sec"] for t in range(5) if (i, a, t) in m.typ)
        check(finite(at) and at >= tsum * (1 - 1e-9),
              f"{what}: {ACCESSES[a]} pass time {at} < its types' times {tsum}")
    weighted = 0.25 * acc[0] + 0.25 * acc[1] + 0.5 * acc[2]
    check(close(rec["weighted_mb_per_sec"], weighted),
          f"{what}: weighted value {rec['weighted_mb_per_sec']}, expected 0.25 write + 0.25 "
          f"rewrite + 0.5 read = {weighted}")
    # b_eff_io 2.1: WR = the five write types and the type-0 rewrite, each once; RD = the read
    # access value (type 0 twice).
    wr = (sum(bw[0]) + bw[1][0]) / 6
    r21 = math.sqrt(wr * acc[2])
    check(close(rec["release21_mb_per_sec"], r21),
          f"{what}: release 2.1 value {rec['release21_mb_per_sec']}, expected sqrt(WR x RD) "
          f"= {r21}")
    value = weighted if st.weighted else r21
    check(close(rec["b_eff_io_mb_per_sec"], value),
          f"{what}: b_eff_io {rec['b_eff_io_mb_per_sec']}, expected the "
          f"{'weighted' if st.weighted else 'release 2.1'} value {value}")
    wsum = usum = 0
    for a in range(3):
        ws, us = pass_wsum(m, i, a)
        wsum, usum = wsum + ws, usum + us
    check(close(rec["wbw_mb_per_sec"], wsum / usum, 1e-6),
          f"{what}: wbw {rec['wbw_mb_per_sec']}, the U-weighted mean of its patterns' "
          f"bandwidths is {wsum / usum}")
    check(rec["bytes"] == sum(r["bytes"] for (j, _, _), r in m.typ.items() if j == i),
          f"{what}: bytes != the sum of its types' bytes")
    check(close(rec["time_sec"], sum(rec["access_time_sec"])), f"{what}: time_sec != sum of passes")
    errors = sum(r["errors"] for (j, _, _), r in m.pat.items() if j == i)
    check(rec["errors"] == errors, f"{what}: errors {rec['errors']}, its patterns' {errors}")
    valid = st.tn >= st.t_valid and errors == 0 and not st.noshared and not st.adapt
    check(rec["valid"] == valid, f"{what}: valid {rec['valid']}, expected {valid} (Tn {st.tn} s, "
                                 f"{errors} errors, -noshared {st.noshared}, -adapt {st.adapt})")


# ---- text --------------------------------------------------------------------------------

PATTERN_LINE = re.compile(
    r"n=(?P<n>\d+) +a=(?P<a>\d) type=(?P<type>\d) p=(?P<p> ?\d+) Tp=(?P<Tp> *[\d.]+) "
    r"l=(?P<l> *\d+) L=(?P<L> *\d+) (?P<file>\S+) +r=(?P<r> *\d+) S=(?P<S> *[\d.]+) MB "
    r"t=(?P<t> *[\d.]+) =(?P<io> *-?[\d.]+)\+(?P<bar> *[\d.]+)\+(?P<bc>[\d.]+)\+(?P<sy>[\d.]+) "
    r"(?P<last>[\d.]+) (?P<tail>[\d.]+) bw=(?P<bw> *[\d.]+) MB/s"
    r"(?P<err> \d+ ERRORS)?(?P<disk> \(disk budget\))?")


def file_label(i, n, t):
    return f"i{i:02d}_{n:03d}_{t}" + (".000" if t == 2 else "")


def pattern_line(rec, i, a, p):
    """The line as b_eff_io prints it, but for the 'last barr.+bcst' column (not in the
    JSON): a regular expression."""
    t = TABLE[p][0]
    io = rec["time_sec"] - rec["barrier_sec"] - rec["bcast_sec"] - rec["sync_sec"]
    head = (f"n={rec['processes']:<3d} a={a} type={t} p={p:2d} Tp={rec['scheduled_sec']:5.2f} "
            f"l={float(rec['chunk_bytes']):8.0f} L={float(rec['call_bytes']):8.0f} "
            f"{file_label(i, rec['processes'], t):<16s} r={rec['repetitions']:5d} "
            f"S={rec['bytes'] / 1e6:8.3f} MB t={rec['time_sec']:5.2f} ={io:6.3f}+"
            f"{rec['barrier_sec']:6.3f}+{rec['bcast_sec']:5.3f}+{rec['sync_sec']:5.3f} "
            f"{rec['last_call_sec']:5.3f} ")
    tail = f" bw={rec['mb_per_sec']:8.3f} MB/s"
    if rec["errors"]:
        tail += f" {rec['errors']} ERRORS"
    if rec["disk_budget_stop"]:
        tail += " (disk budget)"
    return re.escape(head) + r" *\d+\.\d{3}" + re.escape(tail)


def type_line(rec, a, t):
    line = (f" total pattern type:  S={rec['bytes'] / 1e6:7.3f} MB  t={rec['time_sec']:4.2f} "
            f"t_op={rec['open_sec']:4.2f} t_cl={rec['close_sec']:4.2f} "
            f"wbw={rec['weighted_mb_per_sec']:8.3f} MB/s "
            f"b_eff_io_{ACCESSES[a]}_{TYPES[t]}={rec['mb_per_sec']:8.3f} MB/s")
    if t >= 3:
        line += f" Lseg={rec['segment_bytes'] / 1048576.0:1.0f} MBytes"
    return line


def access_lines(m, st, i, a):
    part = m.part[i]
    b = 0.0
    for t in range(5):
        b += m.typ[(i, a, t)]["bytes"] if (i, a, t) in m.typ else 0
    at = part["access_time_sec"][a]
    errs = sum(r["errors"] for (j, aa, _), r in m.pat.items() if j == i and aa == a)
    wsum, usum = pass_wsum(m, i, a)
    # 2.1 puts its error mark in front of the total, on the same line.
    line = f" ----- with {errs} ERRORS --!--!--!--!--" if errs else ""
    line += (f" total access method: S={b / 1e6:7.3f} MB  t={at:4.2f} (Tn={st.tn}sec) "
             f"bw={b / at / 1e6:8.3f} MB/s, wbw={wsum / usum:8.3f} MB/s, b_eff_io_{ACCESSES[a]}="
             f"{part['access_mb_per_sec'][a]:8.3f} MB/s")
    return [line]


def final_line_re(m, st, sysinfo):
    r, p = m.result, m.part[m.result["partition"]]
    line = (f" b_eff_io = {r['b_eff_io_mb_per_sec']:8.3f} MB/s on {r['processes']:1d} "
            f"processes with {r['memory_per_process_mib']:3d} MByte/PE, "
            f"scheduled time={st.tn / 60:3.1f} Min, "
            f"on {sysinfo}")
    if not p["valid"]:
        line += ", NOT VALID (see above)"
    if p["errors"]:
        line += f", with {p['errors']} ERRORS --!--!--!--"
    return line


def sysinfo_of(prot):
    fields = {}
    for k in ("system name", "hostname", "OS release", "OS version", "machine"):
        mm = re.search(rf"^       {k} *: (.*)$", prot, re.M)
        check(mm, f".prot header lacks '{k}'")
        fields[k] = mm.group(1)
    return " ".join(fields.values())


def expected_body(m, st):
    """Every line b_eff_io prints after each pass's table head: (kind, text-or-regex)."""
    out = []
    for a in range(3):
        out.append(("head", None))
        for i in range(st.npart):
            for p in range(43):
                if not runs(p, a, st.rewrite):
                    continue
                out.append(("pattern", (pattern_line(m.pat[(i, a, p)], i, a, p), i, a, p)))
                if TABLE[p][2] == 2:
                    out.append(("line", type_line(m.typ[(i, a, TABLE[p][0])], a, TABLE[p][0])))
            out += [("line", x) for x in access_lines(m, st, i, a)]
    for i in range(st.npart):
        p = m.part[i]
        out.append(("line", f" total partition: n={p['processes']:<3d} S={p['bytes'] / 1e6:7.3f} MB"
                            f"  t={p['time_sec']:4.2f} bw={p['bytes'] / p['time_sec'] / 1e6:8.3f} "
                            f"MB/s, wbw={p['wbw_mb_per_sec']:8.3f} MB/s, "
                            f"b_eff_io={p['b_eff_io_mb_per_sec']:8.3f} MB/s"))
    total = m.result['total_time_sec']
    out.append(("line", f" total execution time is {total:7.2f} sec"))
    if abs(total - st.T) > 0.1 * st.T:  # MB_BIO_T_SLACK
        out.append(("line", f" (scheduled: {st.T} sec; only the write loops of types 0-2 follow "
                            f"it, the other passes repeat their counts)"))
    out.append(("line", ""))
    out.append(("line", f" b_eff_io := maximum over all bw_partition = "
                        f"{m.result['b_eff_io_mb_per_sec']:8.3f} MB/s"))
    other = "release21" if st.weighted else "weighted"
    formula = ("sqrt(WR x RD)" if st.weighted else
               "0.25 x write + 0.25 x rewrite + 0.5 x read")
    for i in range(st.npart):
        p = m.part[i]
        out.append(("line", f" other definition, n={p['processes']:<3d} b_eff_io_{other}="
                            f"{p[f'{other}_mb_per_sec']:8.3f} MB/s"))
    out.append(("line", f" b_eff_io_{other} := maximum over all partitions of {formula} = "
                        f"{m.result[f'{other}_mb_per_sec']:8.3f} MB/s"))
    out.append(("line", ""))
    # The criteria the best partition failed, right before the final line's "NOT VALID".
    out += [("line", c) for c in criteria_lines(m.part[m.result["partition"]], st, True)]
    return out


def criteria_lines(part, st, failed_only):
    """2.1's criteria, in its words; -adapt is mpibench's fourth."""
    tm = part["scheduled_sec"] / 60
    crit = [(part["scheduled_sec"] >= st.t_valid,
             f"  criterion 1: scheduled time {tm:3.1f} min >= {st.t_valid // 60:2d} min -- "),
            (not st.noshared,
             "  criterion 2: shared file pointers must be used for pattern type 1 -- "),
            (part["errors"] == 0, f"  criterion 3: error count ({part['errors']}) == 0 -- ")]
    out = [c + ("reached" if ok else "NOT reached") for ok, c in crit if not (failed_only and ok)]
    if st.adapt:
        out.append("  criterion 4: no -adapt -- NOT reached")
    return out


TABLE_HEAD = re.compile(r"^-----\+---\+")
# 2.1's table head, as it prints it (a blank line before the rule; the headings padded).
HEAD_RULE = ("-----+---+------+----+--------+----------+----------+----------------+-------+"
             "-------------+-------+-------+------+-----+-----+-----+-----+----------------")
HEAD_LINES = [
    "", HEAD_RULE,
    "num. acc-| pat- |pat-|scheduled     chunk|     chunk|filename        | repeat|  transferred|"
    "  meas-|=sum of|time of meas.calls|last |last | measured       ",
    "of   |ess| tern |tern|  time  |      size|      size|                | factor|   MB of this|"
    "  ured |   I/O |barr- |bcast|file-| I/O |barr.| bandwidth      ",
    "PEs  |   | type |    | [sec]  |   on disk| in memory|                |       |      pattern|"
    "  time |       | ier  |     | sync|call |+bcst| of this pattern",
    HEAD_RULE]


def check_protocol_text(text, name, m, st, sysinfo):
    """The lines from the first table head on: pattern lines (parsed and compared field by
    field), the totals, the final line."""
    lines = text.split("\n")
    k = next((k for k, l in enumerate(lines) if TABLE_HEAD.match(l)), None)
    check(k is not None, f"{name}: no pattern table")
    k -= 1  # the blank line before the head
    npat = 0
    for kind, what in expected_body(m, st):
        if kind == "head":
            check(lines[k:k + 6] == HEAD_LINES,
                  f"{name}:{k + 1}: the table head (blank line, rule, three headings, rule) "
                  f"expected as 2.1 prints it, got {lines[k:k + 6]}")
            k += 6
            continue
        check(k < len(lines), f"{name}: ends early, expected {what!r}")
        line = lines[k]
        if kind == "pattern":
            regex, i, a, p = what
            rec = m.pat[(i, a, p)]
            g = PATTERN_LINE.fullmatch(line)
            check(g, f"{name}:{k + 1}: not a pattern line (partition {i} {ACCESSES[a]} p{p}): "
                     f"{line!r}")
            fields = {"n": str(rec["processes"]), "a": str(a), "type": str(TABLE[p][0]),
                      "p": str(p), "l": str(rec["chunk_bytes"]), "L": str(rec["call_bytes"]),
                      "r": str(rec["repetitions"]), "S": f"{rec['bytes'] / 1e6:.3f}",
                      "bw": f"{rec['mb_per_sec']:.3f}", "Tp": f"{rec['scheduled_sec']:.2f}",
                      "t": f"{rec['time_sec']:.2f}", "file": file_label(i, rec["processes"],
                                                                        TABLE[p][0])}
            for f_, v in fields.items():
                check(g.group(f_).strip() == v, f"{name}:{k + 1}: {f_}={g.group(f_).strip()}, "
                                                f"the JSON says {v}: {line!r}")
            check(bool(g.group("err")) == bool(rec["errors"]) and
                  bool(g.group("disk")) == bool(rec["disk_budget_stop"]),
                  f"{name}:{k + 1}: ERRORS / disk budget marks disagree with the JSON: {line!r}")
            check(re.fullmatch(regex, line), f"{name}:{k + 1}: pattern line differs from the JSON "
                                             f"as printed:\n  {line!r}\n  expected /{regex}/")
            npat += 1
        else:
            check(line == what, f"{name}:{k + 1}: {line!r}\n  expected {what!r}")
        k += 1
    final = final_line_re(m, st, sysinfo)
    check(k < len(lines) and lines[k] == final,
          f"{name}:{k + 1}: final line {lines[k] if k < len(lines) else None!r}\n"
          f"  expected {final!r}")
    check(sum(1 for l in lines if l.startswith(" b_eff_io = ")) == 1, f"{name}: one final line")
    check(sum(1 for l in lines if l.startswith("n=")) == npat == len(m.pat),
          f"{name}: {sum(1 for l in lines if l.startswith('n='))} pattern lines, "
          f"{len(m.pat)} beffio_pattern records")
    return lines[k + 1:]


def check_header_text(text, name, m, st):
    mb, lmax = m.result["memory_per_process_mib"], m.result["lmax_bytes"]
    want = [f"MEMORY_PER_PROCESSOR = {mb:4d} MBytes  [1MBytes = 1024*1024 bytes, 1MB = 1e6 bytes]",
            f"Maximum chunk size   = {lmax / 1048576.0:8.3f} MBytes"]
    for w in want:
        check(w in text.split("\n"), f"{name}: header lacks {w!r}")
    # The first line says whose value b_eff_io is.
    rules = (r"following the rules of b_eff_io release 2\.1 except the value: b_eff_io = "
             r"0\.25 x write \+ 0\.25 x rewrite \+ 0\.5 x read per partition, valid from 15 min "
             r"per partition \(--definition weighted\)" if st.weighted
             else r"following the rules of b_eff_io release 2\.1")
    check(re.search(r"^b_eff_io \(mpibench [^)]*\), " + rules + "$", text, re.M),
          f"{name}: header line 'b_eff_io (mpibench ...), {rules}' missing")
    check(re.search(r"^Date of measurement: .*\n\n\n\n-----\+", text, re.M),
          f"{name}: the date line is not followed by three blank lines and the table (2.1)")
    mm = re.search(r"^-N ((?: |,)\d+)+ T=(\d+), MT=\d+ MBytes", text, re.M)
    check(mm, f"{name}: header lacks the '-N ... T=..., MT=...' line")
    nline = mm.group(0).split(" T=")[0][3:]
    check([int(x) for x in nline.strip().split(",")] == st.parts and int(mm.group(2)) == st.T,
          f"{name}: header {mm.group(0)!r}, partitions {st.parts} and T={st.T} expected")


# The .sum file's block as 2.1's format strings lay it out (b_eff_io.c): the lines that do not
# depend on the values, exactly, and the others as regular expressions of their fields.
SUM_HEAD = [
    "-----------------------------------------------------------------------------", "",
    " number pos chunk-   access   type=0   type=1   type=2   type=3   type=4",
    " of PEs     size (l) methode scatter  shared  separate segmened seg-coll",
    "            [bytes]  methode  [MB/s]   [MB/s]   [MB/s]   [MB/s]   [MB/s]",
    " -----------------------------------------------------------------------", ""]
SUM_COL = r"(?: +-?\d+\.\d{3}|        -)"  # " %8.3f", or 2.1's "        -"
SUM_ROW = re.compile(r"^[ \d]{3}\d PEs \d [ \d]{7}\d (?:write  |rewrite|read   )" +
                     f"(?P<v>{SUM_COL}{{5}})$")
SUM_TOTAL = re.compile(r"^[ \d]{3}\d PEs      total-(?:write  |rewrite|read   )" +
                       f"(?P<v>{SUM_COL}{{5}})$")


def sum_columns(line, name):
    """The five value columns of a .sum row, each at least 2.1's width (" %8.3f")."""
    cols = re.findall(SUM_COL, line[line.index(" PEs ") + 22:])
    check(len(cols) == 5 and all(len(c) >= 9 for c in cols),
          f"{name}: row {line!r}: not five columns of width 9")
    return [c.strip() for c in cols]


def check_sum(text, m, st, sysinfo):
    name = "PREFIX.sum"
    blocks = text.split("\nSummary of file I/O bandwidth accumulated on ")
    check(len(blocks) == st.npart + 1, f"{name}: {len(blocks) - 1} summary blocks, expected "
                                       f"{st.npart} (one per partition)")
    check(blocks[0].endswith("\n\n\n"), f"{name}: the header ends with the date and two blank "
                                         f"lines in 2.1's layout: {blocks[0][-60:]!r}")
    lmax = m.result["lmax_bytes"]
    other = "release21" if st.weighted else "weighted"
    for i, blk in enumerate(blocks[1:]):
        n, part = st.parts[i], m.part[i]
        mb = m.result["memory_per_process_mib"]
        lines = blk.split("\n")
        check(lines[0] == f"{n:3d} processes with {mb:4d} MByte/PE",
              f"{name}: block {i} heading {lines[0]!r}")
        check(lines[1:8] == SUM_HEAD, f"{name}: block {i}: the column headings differ from 2.1's: "
                                      f"{lines[1:8]}")
        k = 8
        for a in range(3):
            all_types = a != 1 or st.rewrite
            for pos in list(range(1, 8)) + ["total"]:
                line = lines[k]
                k += 1
                if pos == "total":
                    check(SUM_TOTAL.match(line) and line.startswith(f"{n:4d} PEs      total-"
                                                                    f"{ACCESSES[a]}"),
                          f"{name}: block {i}: total row {line!r}")
                else:
                    head = f"{n:4d} PEs {pos:1d} {pos_chunk(pos, lmax):8d} {ACCESSES[a]:<7s}"
                    check(SUM_ROW.match(line) and line.startswith(head),
                          f"{name}: block {i}: row {line!r}, expected {head!r} and five columns")
                vals = sum_columns(line, name)
                for t in range(5):
                    if not all_types and t > 0:
                        want = "-"
                    elif pos == "total":
                        want = f"{m.typ[(i, a, t)]['mb_per_sec']:.3f}"
                    else:
                        p = next(p for p in range(43) if TABLE[p][0] == t and TABLE[p][3] == pos)
                        rec = m.pat[(i, a, p)]
                        want = "-999.999" if rec["errors"] else f"{rec['mb_per_sec']:.3f}"
                    check(vals[t] == want, f"{name}: block {i} ({n} PEs) {ACCESSES[a]} pos {pos} "
                                           f"type {t}: {vals[t]}, the JSON says {want}")
            check(lines[k] == "", f"{name}: block {i}: no blank line after the {ACCESSES[a]} rows")
            k += 1
        pat2 = ", ".join(f"{m.pat[(i, a, 2)]['mb_per_sec']:8.3f} MB/s {ACCESSES[a]}"
                         for a in range(3))
        want = ["This table shows all results, except pattern 2 (scatter, l=1MBytes, L=2MBytes): ",
                f"  bw_pat2= {pat2}", "", "(For gnuplot:)"]
        check(lines[k:k + 4] == want, f"{name}: block {i}: {lines[k:k + 4]}, expected {want}")
        for a in range(3):
            w = (f"weighted average bandwidth for {ACCESSES[a]:<7s} : "
                 f"{part['access_mb_per_sec'][a]:8.3f} MB/s on {n} processes\n")
            check(w in blk, f"{name}: block {i}: lacks {w!r}")
        amount = sum(m.typ[(i, 2, t)]["bytes"] for t in range(5)) / 1048576.0
        pct = 100 * amount / (mb * st.np if st.mt is None else st.mt)
        w = (f"(type=0 is weighted double)\n\nTotal amount of data written/read with each access "
             f"method: {amount:8.3f} MBytes\n  = {pct:4.1f} percent of the total memory")
        check(w in blk, f"{name}: block {i}: amount lines, expected {w!r}")
        w = (f"\n\nb_eff_io of these measurements = {part['b_eff_io_mb_per_sec']:8.3f} MB/s on "
             f"{n} processes with {mb:3d} MByte/PE and scheduled time={st.tn / 60:3.1f} min"
             + (f", with {part['errors']} ERRORS --!--!--!--" if part["errors"] else "")
             + f"\n\n{'VALID' if part['valid'] else 'NOT VALID'} for comparison of different "
             f"systems\n")
        if not part["valid"]:
            w += "\n".join(criteria_lines(part, st, False)) + "\n"
        formula = ("sqrt(WR x RD)" if st.weighted else
                   "0.25 x write + 0.25 x rewrite + 0.5 x read")
        w += (f"\nb_eff_io_{other} of these measurements = "
              f"{part[f'{other}_mb_per_sec']:8.3f} MB/s ({formula})\n")
        check(w in blk, f"{name}: block {i}: lacks\n{w}")
    tail = ("\nMaximum over all number of PEs\n------------------------------\n\n\n"
            + final_line_re(m, st, sysinfo) + "\n")
    check(text.endswith(tail), f"{name}: ends {text[-300:]!r}\n  expected {tail!r}")


def check_plot(text, m, st):
    name = "PREFIX.plot"
    blocks = re.split(r"\n\n\n", text)
    check(blocks[0].startswith("# b_eff_io"), f"{name}: heading")
    check(len(blocks) == 1 + 3 * st.npart, f"{name}: {len(blocks) - 1} data blocks, expected "
                                           f"{3 * st.npart}")
    lmax = m.result["lmax_bytes"]
    k = 1
    for i in range(st.npart):
        for a in range(3):
            lines = blocks[k].strip("\n").split("\n")
            k += 1
            check(lines[0] == f"# partition {i} ({st.parts[i]} processes), {ACCESSES[a]}",
                  f"{name}: block {k - 1} heading {lines[0]!r}")
            rows = [l.split() for l in lines if not l.startswith("#")]
            check(len(rows) == 7, f"{name}: partition {i} {ACCESSES[a]}: {len(rows)} rows")
            for pos, row in zip(range(1, 8), rows):
                x = [1, 2, 4, 5, 7, 8, 10][pos - 1]
                check(row[:2] == [str(x), str(pos_chunk(pos, lmax))] and len(row) == 7,
                      f"{name}: partition {i} {ACCESSES[a]} pos {pos}: row {row}")
                for t in range(5):
                    p = next(p for p in range(43) if TABLE[p][0] == t and TABLE[p][3] == pos)
                    rec = m.pat.get((i, a, p))
                    bw = rec["mb_per_sec"] if rec and not rec["errors"] else -1
                    want = f"{bw:.6g}" if bw > 0 else "-"
                    check(row[2 + t] == want, f"{name}: partition {i} {ACCESSES[a]} pos {pos} "
                                              f"type {t}: {row[2 + t]}, expected {want}")


def svg_names(st):
    """PREFIX_<n>_<access>.svg; a partition size named again by -N: PREFIX_<n>-<k>_..."""
    names = []
    for i, n in enumerate(st.parts):
        k = st.parts[:i].count(n) + 1
        tag = f"{n}" if k == 1 else f"{n}-{k}"
        names += [f"{st.prefix}_{tag}_{ACCESSES[a]}.svg" for a in range(3)]
    return names


def check_gps(text, m, st):
    name = "PREFIX.gps"
    plot = f"{st.prefix}.plot"
    check(f"run 'gnuplot {st.prefix}.gps'" in text, f"{name}: heading does not say how to run it")
    outputs = re.findall(r"^set output '(.*)'$", text, re.M)
    check(outputs == svg_names(st), f"{name}: outputs {outputs}, expected {svg_names(st)}")
    plots = re.findall(r"^plot (.*)$", text, re.M)
    check(len(plots) == 3 * st.npart, f"{name}: {len(plots)} plot commands")
    for k, line in enumerate(plots):
        a = k % 3
        curves = re.findall(r"'([^']*)' index (\d+) using 1:(\d+) with linespoints", line)
        ntypes = 5 if a != 1 or st.rewrite else 1
        check(curves == [(plot, str(k), str(t + 3)) for t in range(ntypes)],
              f"{name}: plot {k}: {curves}")


# ---- files -------------------------------------------------------------------------------

def _abs(run, path):
    return path if os.path.isabs(path) else run.path(path)


def data_files(run, st):
    d = _abs(run, st.scratch)
    return sorted(n for n in os.listdir(d) if n.startswith("b_eff_io_data_")) \
        if os.path.isdir(d) else []


def kept_files(st):
    out = []
    for i, n in enumerate(st.parts):
        for t in (0, 1, 3, 4):
            out.append(f"b_eff_io_data_i{i:02d}_{n:03d}_{t}")
        out += [f"b_eff_io_data_i{i:02d}_{n:03d}_2.{r:03d}" for r in range(n)]
    return sorted(out)


def temp_files(run, st):
    d = os.path.dirname(_abs(run, st.prefix)) or run.cwd
    return sorted(n for n in os.listdir(d) if ".tmp" in n) if os.path.isdir(d) else []


def check_files(run, st, completed):
    """Scratch and temporary files; the protocol files; nothing else new in the directory."""
    left = data_files(run, st)
    if completed and st.keep:
        check(left == kept_files(st), f"-keep: scratch files {left}, expected {kept_files(st)}")
    else:
        check(not left, f"scratch files left in {st.scratch}: {left}")
    check(not temp_files(run, st), f"temporary files next to the prefix: {temp_files(run, st)}")
    if not completed:
        # The user's files (--file) survive a run that did not finish, protocol files included.
        for name, content in map(mbcheck.file_spec, run.opts.file):
            if not name.endswith("/"):
                with open(run.path(name)) as f:
                    check(f.read() == content, f"{name}, the user's file, was changed")
    prot = [f"{st.prefix}.{e}" for e in PROTOCOL_EXT]
    if completed:
        for p in prot:
            check(os.path.isfile(_abs(run, p)), f"{p} was not written")
    want = set()
    if st.json and os.path.isfile(_abs(run, st.json)):
        want.add(st.json)
    if completed:
        want |= set(prot)
        if st.keep:
            want |= {os.path.join(st.scratch, n) for n in kept_files(st)}
    if st.output_dir:
        want.add(os.path.join(st.output_dir, "b_eff_io.txt"))
    want = {os.path.normpath(p) for p in want if not os.path.isabs(p)}
    new = mbcheck.listing(run.cwd) - run._before
    new_files = {p for p in new if os.path.isfile(run.path(p))}
    extra = sorted(new_files - want)
    check(not extra, f"unexpected files after the run: {extra}")
    if completed:
        missing = sorted(p for p in want - new_files if p != os.path.normpath(st.output_dir or "."))
        check(not missing, f"files not written: {missing}")


def run_gnuplot(run, st, gnuplot):
    # The script names its files relative to the directory the run was started in (its first
    # line says to run 'gnuplot PREFIX.gps' there).
    g = subprocess.run([gnuplot, f"{st.prefix}.gps"], cwd=run.cwd, capture_output=True, text=True,
                       timeout=300)
    check(g.returncode == 0, f"gnuplot {st.prefix}.gps failed: {g.stderr[-2000:]}")
    missing = [s for s in svg_names(st) if not (os.path.isfile(_abs(run, s)) and
                                               os.path.getsize(_abs(run, s)) > 0)]
    check(not missing, f"gnuplot did not draw {missing}")
    return len(svg_names(st))


# ---- the check -----------------------------------------------------------------------------

def save_run(run, dest):
    """A copy of the run directory (scratch files empty) and its streams, for --recheck."""
    if os.path.exists(dest):
        check(os.path.isfile(os.path.join(dest, META)),
              f"--save {dest}: exists and is not an earlier --save copy")
        shutil.rmtree(dest)

    def copy(src, dst):
        if os.path.basename(src).startswith("b_eff_io_data_"):
            open(dst, "w").close()
        else:
            shutil.copy2(src, dst)
    shutil.copytree(run.cwd, dest, copy_function=copy)
    with open(os.path.join(dest, META), "w") as f:
        json.dump({"cmd": run.cmd, "returncode": run.returncode, "stdout": run.stdout,
                   "stderr": run.stderr, "elapsed": run.elapsed, "before": sorted(run._before)}, f)


def check_run(run):
    opts = run.opts
    st = Settings(effective_args(run.args), opts.np)
    if opts.save and not opts.recheck:
        save_run(run, opts.save)
    notes = []
    if st.no_run:
        check_files(run, st, completed=False)
        return f"exit status {run.returncode}, no files left behind"
    json_path = _abs(run, st.json)
    completed = os.path.isfile(json_path) and any(
        '"type":"beffio_result"' in line.replace(" ", "") for line in open(json_path))
    if opts.status != 0 and not completed:
        check(opts.stderr, "--status without --stderr: give the fragment expected on stderr")
        check_files(run, st, completed=False)
        return f"exit status {opts.status} with {opts.stderr!r}, no scratch or protocol file left"
    check(completed, "the JSON has no beffio_result record")
    if opts.status == 0:
        check("error" not in run.stderr.lower(), f"stderr: {run.stderr[-2000:]}")
    records = load_records(json_path, opts.schema, notes)
    m = check_json(records, st, errors_allowed=opts.status != 0)
    if opts.status != 0:
        check(m.errors_total > 0, f"exit status {opts.status} expected, but no data error counted")
    check(all(1 <= n <= st.np for n in st.parts), f"partitions {st.parts} with {st.np} processes")

    files = {e: open(_abs(run, f"{st.prefix}.{e}")).read() for e in PROTOCOL_EXT
             if os.path.isfile(_abs(run, f"{st.prefix}.{e}"))}
    check(len(files) == 4, f"protocol files missing: {[e for e in PROTOCOL_EXT if e not in files]}")
    sysinfo = sysinfo_of(files["prot"])
    texts = [("PREFIX.prot", files["prot"])]
    stdout = run.stdout
    if st.output_dir:
        copy = _abs(run, os.path.join(st.output_dir, "b_eff_io.txt"))
        check(os.path.isfile(copy), "--output-dir: b_eff_io.txt was not written")
        with open(copy) as f:
            text_copy = f.read()
        if not st.quiet:
            check(text_copy == stdout, "--output-dir: b_eff_io.txt differs from stdout")
        stdout = text_copy
    if st.quiet and not st.output_dir:
        check(run.stdout == "", "--quiet: text on stdout")
    else:
        texts.append(("stdout", stdout))
    for name, text in texts:
        check_header_text(text, name, m, st)
        rest = check_protocol_text(text, name, m, st, sysinfo)
        if name == "PREFIX.prot":
            check("".join(rest).strip() == "", f"{name}: text after the final line: {rest[:3]}")
        else:
            # The result is stdout's last line (as in 2.1); the protocol files are named
            # before the header.
            check("".join(rest).strip() == "", f"{name}: text after the final line: {rest[:3]}")
            check(re.search(r"^# protocol files: \S+\.\{prot,sum,plot,gps\}, written when the "
                            r"run ends; scratch files in .* \(" +
                            ("kept" if st.keep else "removed") + r" at the end\)\n\nb_eff_io ",
                            text, re.M),
                  f"{name}: no '# protocol files: ...' line before the b_eff_io header")
            check(files["prot"] in text, f"{name}: does not hold PREFIX.prot verbatim")
    check(files["sum"].startswith(files["prot"].split("\n-----+")[0].rstrip("\n")),
          "PREFIX.sum: its header differs from PREFIX.prot's")
    check_sum(files["sum"], m, st, sysinfo)
    check_plot(files["plot"], m, st)
    check_gps(files["gps"], m, st)
    check_files(run, st, completed=True)
    figures = run_gnuplot(run, st, opts.gnuplot) if opts.gnuplot else 0

    for n in notes:
        print(f"note: {n}")
    r = m.result
    print(f"total run time: {m.summary['elapsed_sec']:.2f} s (b_eff_io "
          f"{r['total_time_sec']:.2f} s, job {run.elapsed:.1f} s)")
    return (f"{len(m.pat)} patterns, {len(m.typ)} types, partitions {st.parts}, b_eff_io "
            f"{r['b_eff_io_mb_per_sec']:.3f} MB/s on {r['processes']} processes"
            f"{'' if r['valid'] else ' (not valid)'}, {m.errors_total} data errors"
            + (f", {figures} figures drawn" if figures else ""))


def recheck(ap):
    """--recheck DIR: the checks on a copy made with --save, without running anything."""
    opts = ap.parse_args()
    with open(os.path.join(opts.recheck, META)) as f:
        meta = json.load(f)
    run = mbcheck.Run(opts, os.path.abspath(opts.recheck))
    run.cmd, run.returncode, run.stdout, run.stderr, run.elapsed = (
        meta["cmd"], meta["returncode"], meta["stdout"], meta["stderr"], meta["elapsed"])
    run._before = set(meta["before"]) | {META}
    try:
        run.check_streams()
        detail = check_run(run)
    except mbcheck.Failure as e:
        print(f"FAILED: {e}\nrechecked: {opts.recheck} (command: {' '.join(run.cmd)})",
              file=sys.stderr)
        return 1
    print(f"ok: {detail}")
    return 0


def main():
    ap = mbcheck.parser(__doc__, fragments=True, files=False)
    ap.add_argument("--gnuplot", help="run this gnuplot on PREFIX.gps; every figure must appear")
    ap.add_argument("--save", metavar="DIR", help="keep a copy of the run in DIR for --recheck")
    ap.add_argument("--recheck", metavar="DIR",
                    help="check the run saved in DIR (with --save) again instead of running")
    # The default -p directory is made before the run; --file adds to it.
    ap.add_argument("--file", action="append", default=[SCRATCH_NAME + "/"], metavar="NAME=CONTENT",
                    help="a file of the user's made before the run (\\n for newlines); it must "
                         "survive a run that does not finish unchanged")
    opts = ap.parse_args()
    if opts.recheck:
        return recheck(ap)
    args = opts.args[1:] if opts.args[:1] == ["--"] else list(opts.args)
    return mbcheck.main(check_run, ap, append_args=effective_args(args)[len(args):],
                        tmp_prefix="beffio-")


if __name__ == "__main__":
    sys.exit(main())
