#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run a Presta program (com, laten, rma, allred, globalop) under mpiexec and check its output.

The expected output is re-derived here from the Presta 1.2 sources and README, independently
of the C code: the process-count list, partners, pair order, message sizes, and every line of
the text (the tables of com, laten, rma, allred and globalop, the footer and the Test
Parameters block), which must match line for line
(mpibench's '#' preamble and '*** ' check lines aside). Every number on a row must be the JSON
record's value printed with the original's format, and the JSON values must obey the formulas
(e.g. unidirectional BW = P*size/(4*OpTime)).

Usage: presta_check.py --mpiexec CMD --np N --bin PATH/<program> [options] -- arguments
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import check  # noqa: E402


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


# ---- the command line, re-parsed (Presta 1.2's letters; mpibench's long options) ---------

def parse_letters(args):
    o = dict(b=32, e=8388608, s=2, c=0, o=0, p="b", t=0, f=None, i=False, n=False, r=False,
             samples=1, sizes=None, node_map=False, check=False, selftest=False)
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("--samples", "--sizes", "--timeout", "--json", "--output-dir", "--thread-level",
                 "-thread_level", "--buffers"):
            if a == "--samples":
                o["samples"] = int(args[k + 1])
            elif a == "--sizes":
                o["sizes"] = args[k + 1]
            k += 2
            continue
        if a.startswith("--"):
            o["node_map"] |= a == "--node-map"
            o["check"] |= a in ("--check", "--check-selftest")
            o["selftest"] |= a == "--check-selftest"
            k += 1
            continue
        letter = a[1]
        if letter in "inr":
            o[letter] = True
            k += 1
            continue
        if len(a) > 2:
            value = a[2:]
        else:
            value = args[k + 1]
            k += 1
        o[letter] = value if letter in "fp" else int(value)
        k += 1
    o["p"] = o["p"][0]
    return o


def list_file(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(int(line))
    return out


def counts(w, o):
    if o["f"]:
        return [v for v in list_file(o["f"]) if v <= w]
    ppn = o["t"]
    if ppn > 0 and w > 2 * ppn and o["p"] == "c":
        nodes = w // ppn
        return list(range(nodes, w + 1, nodes))
    p = 2 * ppn if ppn > 0 and w > 2 * ppn else 2
    out = []
    while p <= w:
        out.append(p)
        p *= 2
    if out and p // 2 != w:
        out.append(w)
    return out


def cyclic(w, o):
    return o["p"] == "c" and o["t"] > 0 and w > 2 * o["t"]


def target(w, o, r):
    ppn = o["t"]
    if o["r"] and ppn > 0:
        return r - ppn if r % (2 * ppn) >= ppn else r + ppn
    return r + w // 2 if r < w // 2 else r - w // 2


def pair_first(w, o, idx):
    ppn = o["t"]
    if cyclic(w, o):
        if o["r"]:
            c = idx * 2 * ppn
            return c % w + c // w
        c = idx * ppn
        return c % (w // 2) + c // (w // 2)
    if o["r"] and ppn > 0:
        return idx + (idx // ppn) * ppn
    return idx


def sizes(o):
    if o["sizes"]:
        return list_file(o["sizes"])
    out, s = [], o["b"]
    while s <= o["e"]:
        out.append(s)
        s *= o["s"]
    return out


# ---- text matching -----------------------------------------------------------------------

def body_lines(stdout):
    """The original's output: mpibench's '#' lines and '*** ' check lines left out."""
    return [l for l in stdout.split("\n") if not l.startswith("#") and not l.startswith("*** ")]


def match_lines(got, want, what):
    """want: exact strings, or compiled regexes (full match)."""
    for k, w in enumerate(want):
        check(k < len(got), f"{what}: output ends at line {k}, expected {w!r}")
        ok = w.fullmatch(got[k]) if isinstance(w, re.Pattern) else got[k] == w
        check(ok, f"{what}: line {k}: {got[k]!r}, expected {w.pattern if isinstance(w, re.Pattern) else w!r}")
    rest = [l for l in got[len(want):] if l != ""]
    check(not rest, f"{what}: unexpected trailing lines {rest[:3]!r}")


def pairs_block(w, o, p):
    if not o["i"]:
        return []
    out = ["", f"Current pairs, {'cyclic' if cyclic(w, o) else 'block'} allocation"]
    for idx in range(p // 2):
        a = pair_first(w, o, idx)
        out.append("  %5d:%5d" % (a, target(w, o, a)))
    return out + [""]


def params_block(o):
    out = ["", "Test Parameters", "---------------", "Operations per measurement : %8d" % o["o"]]
    if o["f"]:
        out.append("Process count file : %s" % o["f"])
    if o["t"] > 0:
        out.append("Processes per SMP          : %8d" % o["t"])
    out.append("Process pair allocation    : %8s" % ("cyclic" if o["p"] == "c" else "block"))
    if o["samples"] > 1:
        out.append("Samples per measurement    : %8d (fastest reported)" % o["samples"])
    if o["sizes"]:
        out.append("Message size file : %s" % o["sizes"])
    if o["n"]:
        out += ["", "Barrier not included in measurement."]
    return out + [""]


def footer(w, o, foot, min_sample):
    host = r"(\S+)"
    out = [""] + [re.compile(r"Rank id %4d \(%s\) communicated with rank id %4d \(%s\)" %
                             (i, host, target(w, o, i), host)) for i in range(w)]
    check(foot["partners"] == [target(w, o, i) for i in range(w)], "footer JSON partners")
    check(close(foot["min_sample_sec"], min_sample), f"min sample {foot['min_sample_sec']} vs {min_sample}")
    check(close(foot["ticks_min_sample"], min_sample / foot["wtick_sec"]), "ticks = min/wtick")
    check(foot["wtime_overhead_sec"] > 0 and math.isfinite(foot["wtime_overhead_sec"]), "overhead > 0")
    return out + ["", "", "MPI_Wtick returns           %11.9f" % foot["wtick_sec"],
                  "MPI_Wtime overhead          %11.9f" % foot["wtime_overhead_sec"],
                  "Ticks for minimum sample    %11.0f" % (foot["min_sample_sec"] / foot["wtick_sec"]), ""]


def check_row_json(r, o, nsamples):
    check(len(r["samples_sec"]) == nsamples, f"{r['test']}: {len(r['samples_sec'])} samples")
    check(r["time_sec"] == min(r["samples_sec"]), "time is the fastest sample")
    check(r["time_sec"] > 0 and math.isfinite(r["time_sec"]), f"time {r['time_sec']}")
    check(r["ops"] == o["o"], "ops")
    if o["check"]:
        check("defects" in r, "defects field with --check")


# ---- the programs ------------------------------------------------------------------------

def check_com(w, o, text, rows, foot):
    L, S = counts(w, o), sizes(o)
    want = ["", "Unidirectional and Bidirectional Communication Test", "",
            "  %-14s  %9s  %20s  %15s  %12s" % ("Test", "Processes", "Message Size (bytes)",
                                                "Bandwidth (MB)", "Op time (us)"), "-" * 80]
    check(len(want[3]) == 80, "com column line is 80 characters")
    check(len(rows) == 2 * len(L) * len(S), f"{len(rows)} rows, expected {2 * len(L) * len(S)}")
    k, best = 0, [[0.0, 0], [0.0, 0]]
    for d, name in enumerate(["Unidirectional", "Bidirectional"]):
        for p in L:
            want += pairs_block(w, o, p)
            for s in S:
                r = rows[k]
                k += 1
                check((r["test"], r["processes"], r["bytes"]) == (name, p, s),
                      f"row {k}: {r['test']} {r['processes']} {r['bytes']}")
                check_row_json(r, o, o["samples"])
                streams = p if d else p // 2
                bw = o["o"] * streams * s / r["time_sec"] / 1e6
                op = r["time_sec"] / o["o"] * 1e6 / (1 if d else 2)
                check(close(r["bandwidth_mb_per_sec"], bw) and close(r["op_time_usec"], op), f"row {k} formulas")
                # com's invariants: uni BW = P*size/(4*op), bi BW = P*size/op.
                check(close(r["bandwidth_mb_per_sec"] * (1 if d else 4) * r["op_time_usec"], p * s, 1e-6),
                      f"row {k}: BW x op invariant")
                want.append("  %-14s  %9d  %20d  %15.3f  %12.3f" % (name, p, s, r["bandwidth_mb_per_sec"],
                                                                 r["op_time_usec"]))
                if r["bandwidth_mb_per_sec"] > best[d][0]:
                    best[d] = [r["bandwidth_mb_per_sec"], s]
            want.append("")
    want += ["Max Unidirectional Bandwith :  %13.2f for message size of %7d bytes" % tuple(best[0]),
             "Max  Bidirectional Bandwith :  %13.2f for message size of %7d bytes" % tuple(best[1])]
    want += params_block(o) + footer(w, o, foot, min(r["time_sec"] for r in rows))
    match_lines(text, want, "com")
    return len(rows)


def check_laten(w, o, text, rows, foot):
    L = counts(w, o)
    want = ["MPI Bidirectional latency test (Send/Recv)",
            "  %20s   %17s" % ("Processes", "Max Latency (us)"), "-" * 42]
    check(len(want[1]) == 42, "laten column line is 42 characters")
    check(len(rows) == len(L), f"{len(rows)} rows, expected {len(L)}")
    for p, r in zip(L, rows):
        want += pairs_block(w, o, p)
        check(r["processes"] == p and r["bytes"] == 0, f"row P={r['processes']}")
        check_row_json(r, o, o["samples"])
        check(close(r["latency_usec"], r["time_sec"] / o["o"] / 2 * 1e6), "latency = T/ops/2")
        want.append("  %20d   %17.3f" % (p, r["latency_usec"]))
    want += params_block(o) + footer(w, o, foot, min(r["time_sec"] for r in rows))
    match_lines(text, want, "laten")
    return len(rows)


def check_rma(w, o, text, rows, foot):
    L, S = counts(w, o), sizes(o)
    cols = "  %-12s   %9s   %12s   %10s  %15s   %12s" % ("Test", "Processes", "Message Size",
                                                          "Ops/Epoch", "Bandwidth (MB)", "Op time (us)")
    check(len(cols) == 86, "rma column line is 86 characters")
    want = ["", "Unidirectional and Bidirectional Communication Test", "", cols, "-" * 87]
    check(len(rows) == 4 * len(L) * len(S), f"{len(rows)} rows, expected {4 * len(L) * len(S)}")
    k, last = 0, []
    for name in ["Unidir. Put", "Unidir. Get", "Bidir. Put", "Bidir. Get"]:
        f = 1 if name.startswith("Bidir") else 0.5
        for p in L:
            want += pairs_block(w, o, p)
            for s in S:
                r = rows[k]
                k += 1
                check((r["test"], r["processes"], r["bytes"], r["epochs"]) == (name, p, s, o["c"]),
                      f"row {k}: {r['test']} {r['processes']} {r['bytes']}")
                check_row_json(r, o, o["samples"])
                n_ops = o["o"] * o["c"]
                check(close(r["bandwidth_mb_per_sec"], s * n_ops * f * p / r["time_sec"] / 1e6), f"row {k} BW")
                check(close(r["op_time_usec"], r["time_sec"] / n_ops * 1e6), f"row {k} op time")
                check(close(r["bandwidth_mb_per_sec"] * r["op_time_usec"], f * p * s, 1e-6), f"row {k}: BW x op = f x size")
                want.append("  %-12s   %9d   %12d   %10d  %15.3f   %12.3f" %
                            (name, p, s, o["o"], r["bandwidth_mb_per_sec"], r["op_time_usec"]))
            last.append(rows[k - 1]["time_sec"])  # quirk Q11: the last size's time only
            want.append("")
    want += footer(w, o, foot, min(last))
    match_lines(text, want, "rma")
    return len(rows)


def check_allred(w, args, text, recs):
    comp, inner, n = (int(a) for a in args if not a.startswith("-"))
    a = [r for r in recs if r["type"] == "presta_allred"]
    check(len(a) == 1, "one presta_allred record")
    a = a[0]
    loop, op = a["loop_samples_sec"], a["op_samples_sec"]
    check(len(loop) == n and len(op) == n, "samples per phase")
    check(all(x > 0 and math.isfinite(x) for x in loop + op), "sample times positive")
    want = [""] + [re.compile(r"Rank id %4d ran on \S+" % i) for i in range(w)] + [""]

    def section(title, xs):
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / n)
        return ["", title, ""] + ["  samples[%2d] : %19.10f" % (i, x) for i, x in enumerate(xs)] + \
            ["", "  mean        : %f" % mean, "  stddev      : %f" % sd, "  stddev/mean : %f" % (sd / mean)]
    want += section("Loop Base Samples", loop) + section("Loop Op Samples", op)
    lm, om, tick = sum(loop) / n, sum(op) / n, a["wtick_sec"]
    op_mean = (sum(op) - sum(loop)) / (n * inner)
    check(close(a["op_mean_usec"], op_mean * 1e6), "Op mean = (sum op - sum loop)/(samples x inner)")
    check(a["time_between_allreduce_usec"] > 0, "time between Allreduce > 0")
    if comp >= 1000:
        # allred.c times the compute phase in both loops; with 1000 or more compute iterations
        # the phase outweighs an Allreduce, so a compute-loop sample is most of an op-loop
        # sample (about 0.95 here). A GCC -O2 build of allred.c drops the multiplies from the
        # compute loop only (their result is unused there): 0.1 at 2000 iterations
        # (docs/adr/peer-presta-allred-build.md). The fastest sample of each loop: load only
        # lengthens samples (a busy-polling MPICH beside other jobs made most op-loop samples
        # 1000x longer, so that even the medians read 0.00), never shortens them.
        ratio = min(loop) / min(op)
        check(ratio > 0.5, f"fastest compute-loop sample / fastest op-loop sample = {ratio:.2f}"
              " > 0.5 (the compute loop runs the compute phase)")
    want += ["", "MPI Allreduce test", "  for %d MPI processes, message size 32 bytes, " % w,
             "  %d operations per sample, %d samples" % (inner, n), "",
             "  Wtick resolution           : %11.3f us" % (tick * 1e6),
             "  Time between Allreduce     : %11.3f us" % a["time_between_allreduce_usec"], "",
             "  Mean Compute Loop Time     : %11.3f us" % (lm * 1e6),
             "  Ticks per Compute Loop     : %11.0f" % (lm / tick),
             "  Mean Op Loop Time          : %11.3f us" % (om * 1e6),
             "  Ticks per Op Loop          : %11.0f" % (om / tick), "",
             "  Op mean                    : %11.3f us" % (op_mean * 1e6), ""]
    check(a["compute_iterations"] == comp and a["inner_iterations"] == inner, "allred arguments")
    match_lines(text, want, "allred")
    return 2 * n


GLOBALOP = [("work", 0, 4), ("barrier + work", 0, 2), ("barrier", 0, 2), ("reduce + work", 1, 2),
            ("reduce", 1, 2), ("bcast + work", 1, 2), ("bcast", 1, 2), ("allreduce + work", 1, 2),
            ("allreduce", 1, 2), ("reduce-bcast", 1, 2), ("reduce-work-bcast", 1, 2)]


def check_globalop(w, text, recs, selftest):
    g = [r for r in recs if r["type"] == "presta_globalop"]
    check(len(g) == 3 * len(GLOBALOP), f"{len(g)} globalop records")
    want, k = ["Testing N=4096, %d tasks" % w], 0
    for rep in range(3):
        for name, minmax, prec in GLOBALOP:
            r = g[k]
            k += 1
            check((r["repetition"], r["section"], r["n"]) == (rep, name, 4096), f"record {k}")
            check(r["avg_sec"] > 0 and math.isfinite(r["avg_sec"]), f"{name}: time > 0")
            if not selftest:
                check(r["wrong_results"] == 0, f"{name}: {r['wrong_results']} wrong results")
            want.append("Average %s time per task is %7.*f" % (name, prec, r["avg_sec"]))
            if minmax:
                check(r["min_sec"] <= r["avg_sec"] * (1 + 1e-12) <= r["max_sec"] * (1 + 2e-12),
                      f"{name}: min <= avg <= max")
                want += ["Minimum %s time was %7.*f" % (name, prec, r["min_sec"]),
                         "Maximum %s time was %7.*f" % (name, prec, r["max_sec"])]
        want.append("")
    want += [re.compile(r"Average elapsed run time was +\d+\.\d\d"), "All done"]
    match_lines(text, want, "globalop")
    if selftest:
        check(sum(r["wrong_results"] for r in g) > 0, "--check-selftest: wrong results found")
    return len(g)


def check_run(run):
    opts, w = run.opts, run.opts.np
    prog, args = os.path.basename(opts.bin), run.args
    if prog == "mpibench":  # mpibench presta-<name> ...
        prog, args = args[0][len("presta-"):], args[1:]
    if opts.status == 0:
        check("error" not in run.stderr.lower(), f"stderr: {run.stderr[-2000:]}")
    if opts.status == 2:  # refused input: nothing run, nothing written
        check(run.new_files() == [], f"files left: {run.new_files()}")
        check(run.stderr.count(opts.stderr or "error:") == 1, "one message")
        return f"{prog} refused with status 2: {opts.stderr!r}"
    check(run.new_files() == ["r.jsonl"], f"files left: {run.new_files()}")
    recs = run.records("r.jsonl")
    check(recs[-1]["exit_status"] == opts.status, "summary exit status")
    # The header says that the start-up has already exchanged messages between the ranks (the
    # original's first loop pays for a lazily built connection; docs/adr/startup-messages.md).
    check("# Before the first loop : the start-up's collectives (messages the original did not "
          "send)\n" in run.stdout, "the header's start-up line")
    text = body_lines(run.stdout)
    if prog in ("com", "laten", "rma"):
        o = parse_letters(args)
        rows = [r for r in recs if r["type"] == "presta_row"]
        foot = [r for r in recs if r["type"] == "presta_footer"]
        check(len(foot) == 1, "one presta_footer record")
        n = {"com": check_com, "laten": check_laten, "rma": check_rma}[prog](w, o, text, rows, foot[0])
        defects = sum(r.get("defects", 0) for r in rows)
        check(recs[-1]["defects"] == defects, "summary defects = sum of row defects")
        check((defects > 0) == o["selftest"], f"{defects} defects (selftest: {o['selftest']})")
        stars = [l for l in run.stdout.split("\n") if l.startswith("*** data check:")]
        check(len(stars) == sum(1 for r in rows if r.get("defects", 0) > 0), "one *** line per bad row")
        if o["check"]:
            check(f"# Data check (--check): {defects} defects" in run.stdout, "check verdict line")
        if o["node_map"]:
            check("# Ranks sharing a node (MPI_Comm_split_type):" in run.stdout, "node map")
            nodes = [r for r in recs if r["type"] == "presta_nodes"]
            check(len(nodes) == 1 and len(nodes[0]["node_of_rank"]) == w, "presta_nodes record")
    elif prog == "allred":
        n = check_allred(w, args, text, recs)
    else:
        n = check_globalop(w, text, recs, "--check-selftest" in args)
    check(recs[-1]["rows"] == n, f"summary rows {recs[-1]['rows']} vs {n}")
    return f"{prog} on {w} processes, {n} rows checked"


def main():
    ap = mbcheck.parser(__doc__, fragments=True, files=False)
    return mbcheck.main(check_run, ap, append_args=["--json", "r.jsonl"], tmp_prefix="presta-")


if __name__ == "__main__":
    sys.exit(main())
