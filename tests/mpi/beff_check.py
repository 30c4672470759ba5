#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run b_eff under mpiexec and check its stdout, protocol files and JSON records.

The expectations are re-derived here from the b_eff paper §3 and the b_eff 3.6 source,
independently of the C code: the ring partition labels, the pattern count (with the Cartesian
patterns), which pattern x method x size x repetition must be measured,
b = L * messages * looplength / t, and the whole aggregation to b_eff, which must agree with the
JSON result, the final line on stdout, the .short and .sum summaries, the BY-MSGLNG table, the
LOOPLNGS loop lengths and the .plot data.

Usage: beff_check.py --mpiexec CMD --np N --bin PATH/b_eff [options] -- b_eff arguments
"""
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import check  # noqa: E402

METHODS = ["Sndrcv", "Alltoal", "non-blk"]
SECTIONS_PROT = ["HEAD", "LOOP", "LOOPLNGS", "VALUES"]
SECTIONS_SHORT = ["HEAD", "ELAPSED", "PATTERN", "BY-METHODS", "BY-REPETITIONS",
                  "BY-MTHD-MSGLNG", "BY-MSGLNG", "BY-PATTERN-MSGLNG", "BEFF"]
FINAL = re.compile(r"^b_eff = +([0-9.]+) MB/s = +([0-9.]+) \* +(\d+) PEs with +(\d+) MB/PE on \S")


def close(a, b, rel=1e-9, absolute=0.0):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), absolute)


# ---- the rules, re-derived -------------------------------------------------------------

def ring_label(n, s):
    rings = max(1, min(int(n / s + 0.4), n // 2))
    lo = n // rings
    c_hi = n - lo * rings
    c_lo = rings - c_hi
    if lo % 2 == 1 and c_hi > 0:
        first, second, count2 = lo + 1, lo, c_lo
    else:
        first, second, count2 = lo, lo + 1, c_hi
    suffix = "fix" if count2 == 0 else ("&+1" if second > first else "&-1")
    return f"ring-{rings}*{first}{suffix}"


def ring_labels(n):
    std = [2, 4, 8, max(16, n // 4), max(32, n // 2), n]
    return [ring_label(n, min(s, n)) for s in std]


def pattern_count(n, nrandom):
    # The Cartesian patterns (dims of a typical MPI_Dims_create), plus the random count.
    base = 6 + nrandom + 4  # rings, random, worst cycle, 2 bi-sections, ping-pong pair
    if n == 1:
        return base + 4      # acyclic-2/3dim-all, cyclic-2/3dim-all, no directions
    if n <= 3:
        return base + 6
    if n <= 7:
        return base + 8
    return base + 9


def logavg(values):
    check(all(v > 0 for v in values), f"non-positive value in a geometric mean: {values}")
    return math.exp(sum(math.log(v) for v in values) / len(values))


# ---- parsing ---------------------------------------------------------------------------

def sections(text, name):
    """Names of SECTION-X-BEGIN/END markers in order, checking they pair up."""
    order, open_ = [], None
    for line in text.splitlines():
        m = re.fullmatch(r"SECTION-([A-Z-]+)-(BEGIN|END)", line)
        if not m:
            continue
        if m.group(2) == "BEGIN":
            check(open_ is None, f"{name}: {m.group(1)} begins inside {open_}")
            open_ = m.group(1)
            order.append(open_)
        else:
            if open_ is None and name.endswith(".sum") and m.group(1) == "BEFF":
                order.append("BEFF")  # .sum has the end of BEFF only (as in 3.6)
                continue
            check(open_ == m.group(1), f"{name}: END of {m.group(1)} inside {open_}")
            open_ = None
    check(open_ is None, f"{name}: section {open_} not closed")
    return order


def section_body(text, name):
    m = re.search(rf"SECTION-{name}-BEGIN\n(.*?)\nSECTION-{name}-END", text, re.S)
    check(m, f"section {name} missing")
    return m.group(1)


def final_line(text, where):
    lines = [l for l in text.splitlines() if l.startswith("b_eff =")]
    check(len(lines) == 1, f"{where}: {len(lines)} final 'b_eff = ...' lines")
    m = FINAL.match(lines[0])
    check(m, f"{where}: final line has not the original form: {lines[0]!r}")
    check(text.rstrip("\n").splitlines()[-1] == lines[0], f"{where}: final line is not the last")
    return lines[0], float(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4))


# ---- the checks ------------------------------------------------------------------------

def check_json(records, np_, opts):
    """records: loaded by mbcheck (schema-valid, header first, summary last)."""
    check(records[-1]["exit_status"] == 0, "JSON summary: exit status")
    pats = [r for r in records if r["type"] == "beff_pattern"]
    meas = [r for r in records if r["type"] == "beff_measurement"]
    res = [r for r in records if r["type"] == "beff_result"]
    check(len(res) == 1, "JSON: one beff_result")
    res = res[0]
    nrandom, nrep = res["random_patterns"], res["repetitions"]
    check(nrandom == opts.random and nrep == opts.reps, "JSON: random/repetitions settings")
    check(len(pats) == pattern_count(np_, nrandom),
          f"JSON: {len(pats)} patterns, expected {pattern_count(np_, nrandom)}")
    check([p["label"] for p in pats[:6]] == ring_labels(np_),
          f"ring labels {[p['label'] for p in pats[:6]]} != {ring_labels(np_)}")
    check(all(p["role"] == "random" and p["label"] == "random-cyc-1dim"
              for p in pats[6:6 + nrandom]), "random patterns")
    check(all(p["role"] == "info" for p in pats[6 + nrandom:]), "info patterns")
    check(records[-1]["rows"] == len(meas), "JSON summary rows = measurements")
    sizes = res["bytes"]
    check(len(sizes) == 21 and sizes[:13] == [2 ** k for k in range(13)], "the 21 sizes")
    check(sizes[20] == res["lmax_bytes"] == min(res["memory_per_process_mib"], 16384) * 8192,
          "L_max = min(M, 16384) MiB / 128")
    check(all(b > a for a, b in zip(sizes, sizes[1:])), "sizes increase")

    # Every pattern x method x size x repetition that can be measured appears exactly once.
    seen = {}
    for m in meas:
        key = (m["repetition"], m["pattern"], m["size_index"], m["method"])
        check(key not in seen, f"measurement {key} twice")
        seen[key] = m
        p = pats[m["pattern"]]
        check(m["label"] == p["label"] and m["bytes"] == sizes[m["size_index"]],
              f"measurement {key}: label/bytes")
        b = m["bytes"] * p["messages_per_iteration"] * m["looplength"] / m["time_max_sec"] / 1e6
        check(close(b, m["mb_per_sec"]), f"measurement {key}: b != L*msgs*loops/t")
        check(m["per_process_min_mb_per_sec"] <= m["per_process_avg_mb_per_sec"] * (1 + 1e-12)
              and m["per_process_avg_mb_per_sec"] <= m["per_process_max_mb_per_sec"] * (1 + 1e-12),
              f"measurement {key}: per-process min <= avg <= max")
        check(m["looplength"] <= opts.max_loop, f"measurement {key}: loop length above the maximum")
    short = res["shortened_3_6"]
    check(short == (opts.shortened == "yes") or opts.shortened == "any",
          f"3.6 shortening of the two largest sizes: {short}")
    for rep in range(nrep):
        # The 3.6 rule is decided per repetition: pattern 0 shows whether it fired.
        rep_short = short and sum((rep, 0, 19, m) in seen for m in METHODS) == 1
        for pi, p in enumerate(pats):
            for k in range(21):
                can = [p["messages_per_iteration"] > 0 and (not p["sendrecv_only"] or mi == 0)
                       for mi in range(3)]
                got = [(rep, pi, k, meth) in seen for meth in METHODS]
                if rep_short and k >= 19:
                    # 3.6's 60 s rule: one (best) method; the largest size only in 2 repetitions.
                    n_want = 0 if (k == 20 and rep >= 2) or not any(can) else 1
                    check(sum(got) == n_want and all(c or not g for c, g in zip(can, got)),
                          f"shortened rep {rep} p{pi:02d} size {k}: measured {got}")
                    continue
                check(got == can, f"measurement rep {rep} p{pi:02d} {p['label']} size {k}: "
                                  f"measured {got}, expected {can}")
    # Loop lengths: one per (rep, size, method), and 2.5-5 ms loops or loop length 1 / max.
    loops = {}
    for (rep, pi, k, meth), m in seen.items():
        loops.setdefault((rep, k, meth), set()).add(m["looplength"])
    check(all(len(v) == 1 for v in loops.values()), "one loop length per repetition/size/method")

    # The aggregation (b_eff paper §3), recomputed.
    def B(pi, k, meth=None, rep=None):
        vals = [m["mb_per_sec"] for (r, p, kk, mm), m in seen.items()
                if p == pi and kk == k and (meth is None or mm == meth) and (rep is None or r == rep)]
        return max(vals) if vals else 0.0
    table = {(pi, k): B(pi, k) for pi in range(6 + nrandom) for k in range(21)}
    avg = {pi: sum(table[(pi, k)] for k in range(21)) / 21 for pi in range(6 + nrandom)}
    ring = logavg([avg[pi] for pi in range(6)])
    rnd = logavg([avg[pi] for pi in range(6, 6 + nrandom)])
    beff = math.sqrt(ring * rnd)
    check(close(beff, res["b_eff_mb_per_sec"]), f"b_eff {res['b_eff_mb_per_sec']} != {beff}")
    check(math.isfinite(beff) and beff > 0, "b_eff positive and finite")
    check(beff <= max(m["mb_per_sec"] for m in meas) * (1 + 1e-12),
          "b_eff <= the largest pattern bandwidth")
    ring20 = logavg([table[(pi, 20)] for pi in range(6)])
    rnd20 = logavg([table[(pi, 20)] for pi in range(6, 6 + nrandom)])
    check(close(ring20, res["rings_at_lmax_mb_per_sec"]), "rings at L_max")
    check(close(math.sqrt(ring20 * rnd20), res["b_eff_at_lmax_mb_per_sec"]), "b_eff at L_max")
    check(close(res["b_eff_per_process_mb_per_sec"] * np_, beff), "b_eff per process")
    ring0 = logavg([table[(pi, 0)] for pi in range(6)])
    rnd0 = logavg([table[(pi, 0)] for pi in range(6, 6 + nrandom)])
    check(close(res["latency_usec"], np_ / math.sqrt(ring0 * rnd0)), "latency = N / b(1 byte)")
    check(close(res["latency_rings_usec"], np_ / ring0), "ring latency")
    for k in range(21):
        fk = math.sqrt(logavg([table[(pi, k)] for pi in range(6)]) *
                       logavg([table[(pi, k)] for pi in range(6, 6 + nrandom)]))
        check(close(fk, res["b_eff_by_size_mb_per_sec"][k]), f"b_eff at size {k}")
    pp = [i for i, p in enumerate(pats) if p["label"] == "one PingPong Pair"]
    check(len(pp) == 1, "one ping-pong pattern")
    if np_ >= 2:
        check(close(res["pingpong_bandwidth_mb_per_sec"], B(pp[0], 20, "Sndrcv")), "ping-pong bw")
        check(close(res["pingpong_latency_usec"], 1 / B(pp[0], 0, "Sndrcv")), "ping-pong latency")
    else:
        check(res["pingpong_latency_usec"] is None, "no ping-pong with 1 process")
    return pats, seen, res


def check_text(stdout, files, pats, seen, res, np_, opts):
    final, beff_txt, pp_txt, n_txt, mem_txt = final_line(stdout, "stdout")
    check(n_txt == np_ and mem_txt == res["memory_per_process_mib"], "final line: PEs and MB/PE")
    check(abs(beff_txt - res["b_eff_mb_per_sec"]) <= 0.0005 + 1e-9, "final line b_eff = JSON")
    check(f"seed {res['seed']}" in stdout, "the seed is printed")
    if np_ == 1:
        check("with 1 process every ring is the process itself" in stdout, "N = 1 note")
    prot, short, summ, plot, gps = (files[e] for e in ("prot", "short", "sum", "plot", "gps"))
    check(sections(prot, "b_eff.prot") == SECTIONS_PROT, f"prot sections {sections(prot, 'b_eff.prot')}")
    check(sections(short, "b_eff.short") == SECTIONS_SHORT, f"short sections {sections(short, 'b_eff.short')}")
    check(sections(summ, "b_eff.sum") == ["HEAD", "BEFF"], "sum sections")
    for name, text in (("prot", prot), ("short", short), ("sum", summ)):
        check(final_line(text, name)[0] == final, f"{name}: final line differs from stdout")
    # HEAD: the sizes and the patterns.
    head = section_body(short, "HEAD")
    msg = re.search(r"^msglng=(.*)$", head, re.M)
    check(msg and [int(x) for x in msg.group(1).split()] == res["bytes"], "HEAD msglng")
    listed = re.findall(r" *(\d+)=(\S+(?: bi-section| PingPong Pair)?)", head.split("Used patterns:")[1])
    check(len(listed) == len(pats), f"HEAD lists {len(listed)} patterns")
    # The BEFF summary in .short and .sum: the accumulated row agrees with the JSON.
    for name, text in (("short", short), ("sum", summ), ("stdout", stdout)):
        row = re.search(r"^accumulated \|\s+(\d+)\s+(\d+)\s+\S+ [kM]B\s+(\d+)\s+(\d+)\s+([0-9.]+)\s+"
                        r"([0-9.]+)\s+([0-9.]+)\s+(\d+)", text, re.M)
        check(row, f"{name}: summary table row")
        check(int(row.group(1)) == np_, f"{name}: processes column")
        for col, key in ((2, "b_eff_mb_per_sec"), (3, "b_eff_at_lmax_mb_per_sec"),
                         (4, "rings_at_lmax_mb_per_sec")):
            check(abs(int(row.group(col)) - res[key]) <= 0.5 + 1e-6, f"{name}: {key} column")
        check(abs(float(row.group(5)) - res["latency_usec"]) <= 0.0005 + 1e-9, f"{name}: latency")
    m = re.search(r"The effective bandwidth is b_eff = +([0-9.]+) MByte/s on (\d+) processes", short)
    check(m and abs(float(m.group(1)) - res["b_eff_mb_per_sec"]) <= 0.0005 + 1e-9,
          ".short: b_eff text line")
    # BY-MSGLNG: 21 rows, accumulated effective bandwidth per size.
    rows = [l.split() for l in section_body(short, "BY-MSGLNG").splitlines()
            if re.match(r"^ +\d+ ", l)]
    check(len(rows) == 21, f"BY-MSGLNG has {len(rows)} rows")
    for k, r in enumerate(rows):
        check(int(r[0]) == res["bytes"][k], "BY-MSGLNG size")
        check(abs(float(r[1]) - res["b_eff_by_size_mb_per_sec"][k]) <= 0.0005 + 1e-9,
              f"BY-MSGLNG size {k}")
    # PATTERN: one row per pattern, messages per iteration as in the JSON.
    prow = re.findall(r"^ p(\d+) (.{17}) +(\d+) +(\d+) ", section_body(short, "PATTERN"), re.M)
    check(len(prow) == len(pats), f"PATTERN has {len(prow)} rows")
    for (i, label, steps, msgs), p in zip(prow, pats):
        check(label.rstrip() == p["label"] and int(msgs) == p["messages_per_iteration"]
              and int(steps) == p["steps_rank0"], f"PATTERN row p{i}")
    # The host structure: messages within a host per pattern, text = JSON; on one host (these
    # tests) every message stays within it (tests/multihost checks several hosts).
    m = re.search(r"^# Messages within a host per pattern \(of all messages of one iteration\), "
                  r"(\d+) hosts?:\n((?:#  .*\n)+)", stdout, re.M)
    check(m, "no '# Messages within a host per pattern' block")
    listed = re.findall(r"p(\d\d) +(\d+)/(\d+)", m.group(2))
    check([(int(i), int(w), int(a)) for i, w, a in listed] ==
          [(p["pattern"], p["messages_within_host"], p["messages_per_iteration"]) for p in pats],
          f"host structure block {listed} differs from the JSON")
    hosts = re.search(r"^# Processes +: \d+ on (\d+) hosts? ", stdout, re.M)
    check(hosts and int(hosts.group(1)) == int(m.group(1)), "host structure: number of hosts")
    if int(m.group(1)) == 1:
        check(all(p["messages_within_host"] == p["messages_per_iteration"] for p in pats),
              "one host: every message stays within it")
    # LOOPLNGS: 21 rows per method; the loop lengths are those of the measurements.
    body = section_body(prot, "LOOPLNGS")
    blocks = re.split(r"^method=(\d)", body, flags=re.M)[1:]
    check(len(blocks) == 6, "LOOPLNGS: three method blocks")
    for mi in range(3):
        lines = [l for l in blocks[2 * mi + 1].splitlines() if re.match(r"^ +\d+ +\d+ ", l)]
        check(len(lines) == 21, f"LOOPLNGS method {mi}: {len(lines)} rows")
        for k, l in enumerate(lines):
            check(int(l[:11]) == res["bytes"][k], f"LOOPLNGS size {k}")
            for rep in range(res["repetitions"]):
                # Fixed columns: " %9d " then " %4d %7.1e %7.1e %7.1e %c" per repetition.
                chunk = l[11 + 31 * rep:11 + 31 * (rep + 1)]
                check(len(chunk) >= 30, f"LOOPLNGS method {mi} size {k}: short row {l!r}")
                lng = int(chunk[1:5])
                mark = chunk[30:31].strip()
                if res["shortened_3_6"] and k >= 19 and \
                        sum((rep, 0, 19, m) in seen for m in METHODS) == 1:
                    check(mark in ("M", "R"), f"LOOPLNGS: mark at size {k}: {l!r}")
                used = {m["looplength"] for (r, p, kk, mm), m in seen.items()
                        if r == rep and kk == k and mm == METHODS[mi]}
                check(used <= {lng}, f"LOOPLNGS method {mi} size {k} rep {rep}: {lng} vs {used}")
    # VALUES: three lines per size x method x pattern.
    vals = section_body(prot, "VALUES")
    check(vals.count(" min=") == 21 * 3 * len(pats) and vals.count("avg=") == 21 * 3 * len(pats),
          "VALUES: min/avg/max lines for every size, method and pattern")
    # .plot: 10 blocks; the last is per size: ring min/avg/max, random min/avg/max, final / N.
    blocks = [b for b in re.split(r"\n\n\n", plot) if b.strip() and not b.startswith("# b_eff")]
    check(len(blocks) == 10, f".plot has {len(blocks)} blocks")
    last = [l.split() for l in blocks[-1].splitlines() if not l.startswith("#")]
    check(len(last) == 21, ".plot last block rows")
    for k, r in enumerate(last):
        check(abs(float(r[7]) - res["b_eff_by_size_mb_per_sec"][k] / np_) <= 0.0005 + 1e-9,
              f".plot final column size {k}")
    check("set output" in gps and "b_eff.plot" in gps, ".gps refers to the plot file")


def check_run(run):
    opts = run.opts
    if opts.status != 0:  # an error path: the expected message (checked by mbcheck), no more
        check(opts.stderr, "--status without --stderr: give the fragment expected on stderr")
        return f"exit status {opts.status} with {opts.stderr!r}"
    check("error" not in run.stderr.lower(), f"stderr: {run.stderr[-2000:]}")
    names = run.new_files()
    want = sorted(["r.jsonl"] + [f"b_eff.{e}" for e in ("prot", "short", "sum", "plot", "gps")])
    check(names == want, f"files {names}, expected {want}")
    files = {e: run.read(f"b_eff.{e}") for e in ("prot", "short", "sum", "plot", "gps")}
    pats, seen, res = check_json(run.records("r.jsonl"), opts.np, opts)
    check_text(run.stdout, files, pats, seen, res, opts.np, opts)
    if opts.gnuplot:
        g = subprocess.run([opts.gnuplot, "b_eff.gps"], cwd=run.cwd, capture_output=True,
                           text=True, timeout=120)
        check(g.returncode == 0, f"gnuplot failed: {g.stderr[-2000:]}")
        svgs = [n for n in os.listdir(run.cwd) if n.endswith(".svg")]
        check(len(svgs) == 10, f"gnuplot wrote {len(svgs)} figures")
    return (f"{len(seen)} measurements, b_eff {res['b_eff_mb_per_sec']:.3f} MB/s "
            f"on {opts.np} processes")


def main():
    ap = mbcheck.parser(__doc__, fragments=True, files=False)
    ap.add_argument("--random", type=int, default=30, help="random patterns the run uses")
    ap.add_argument("--reps", type=int, default=3, help="repetitions the run uses")
    ap.add_argument("--max-loop", type=int, default=300)
    ap.add_argument("--shortened", choices=["yes", "no", "any"], default="no",
                    help="whether the 3.6 rule must have shortened the two largest sizes")
    ap.add_argument("--gnuplot", help="run this gnuplot on the .gps script")
    return mbcheck.main(check_run, ap, append_args=["--json", "r.jsonl"], tmp_prefix="beff-")


if __name__ == "__main__":
    sys.exit(main())
