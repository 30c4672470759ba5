#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check `mpibench compare`'s verdicts and `mpibench plot` of several runs on hand-written
fixtures (tests/cli/compare/*.jsonl; docs/adr/compare-significance.md,
docs/adr/plots-of-several-runs.md):

  status     exit status 0 for identical files (one sample, intervals, raw samples), 1 for a
             constructed regression decided by each rule (single sample beyond the noise band,
             disjoint intervals, Mann-Whitney U test), 0 when the threshold is above it, 2 on
             bad input (not JSON, nothing in common, bad option values)
  only       measurements in one file only are listed (text and JSON), never dropped
  json       --json FILE and --json - against docs/compare.schema.json; counts agree with the
             rows and the exit status; every measurement of both files has a row
  html       compare --html DIR: index.html with the comparison and both runs' plots, the
             intervals as error bars; an existing DIR refused without --force
  plot_runs  plot A B: one series per run and benchmark named by the file, distinct colours
             and markers, the 0-byte point at the tic '0'; drawn by gnuplot when installed

Usage: compare_check.py --case NAME --bindir DIR --fixtures DIR --schema FILE
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


class Env:
    def __init__(self, opts, cwd):
        self.bin = os.path.join(os.path.abspath(opts.bindir), "mpibench")
        self.cwd = cwd
        self.schema = opts.schema
        for f in os.listdir(opts.fixtures):
            if f.endswith(".jsonl"):
                shutil.copy(os.path.join(opts.fixtures, f), cwd)

    def run(self, *args):
        p = subprocess.run([self.bin] + list(args), cwd=self.cwd, capture_output=True,
                           text=True, timeout=120)
        p.cmd = "mpibench " + " ".join(args)
        return p

    def status(self, want, *args):
        p = self.run(*args)
        check(p.returncode == want, f"{p.cmd}: status {p.returncode}, expected {want}\n"
              f"{p.stdout[-2000:]}\n{p.stderr}")
        return p


def table(out):
    """The text table's rows: (verdict, measurement) by the column layout."""
    rows = []
    for line in out.splitlines():
        if line.startswith("#") or line.lstrip().startswith("ratio"):
            continue
        m = re.match(r"^ *(\S+) +(-|\[[^]]*\]) +(\S+) +(\S+) +(\S+) +"
                     r"(REGRESSED|improved|unchanged|only in base|only in new|not comparable) +"
                     r"(.+?) {2,}(\S.*)$", line)
        check(m, f"row not in the table's layout: {line!r}")
        rows.append((m.group(6), m.group(8).strip(), m.group(7).strip()))
    return rows


def summary(out):
    m = re.search(r"^# (\d+) compared: (\d+) regressed, (\d+) improved, (\d+) unchanged; (\d+) "
                  r"not comparable \((\d+) only in base, (\d+) only in new", out, re.M)
    check(m, f"no summary line:\n{out}")
    return [int(x) for x in m.groups()]


PP1K = "IMB-MPI1 PingPong, 2 procs, 1024 bytes"


def case_status(e):
    for kind in ("plain", "ci", "samples"):
        p = e.status(0, "compare", f"{kind}_base.jsonl", f"{kind}_base.jsonl")
        check(summary(p.stdout)[1] == 0 and table(p.stdout) == [],
              f"{p.cmd}: identical files show rows:\n{p.stdout}")
    # One sample per row: the noise band decides (1 KiB 3x slower; 0 B and 64 KiB by 2.5 % and
    # 4 %, inside any band).
    p = e.status(1, "compare", "--noise", "50", "--threshold", "10", "plain_base.jsonl",
                 "plain_slow.jsonl")
    rows = table(p.stdout)
    check(rows[0] == ("REGRESSED", PP1K, "1 sample") and
          sum(r[0] == "REGRESSED" for r in rows) == 1, f"{p.cmd}: {rows}")
    e.status(0, "compare", "--noise", "250", "plain_base.jsonl", "plain_slow.jsonl")
    # Intervals of the median: 1 KiB 1.5x slower, intervals apart; 64 KiB 3 % slower,
    # intervals overlap.
    p = e.status(1, "compare", "--threshold", "10", "ci_base.jsonl", "ci_slow.jsonl")
    rows = table(p.stdout)
    check(rows == [("REGRESSED", PP1K, "CI apart")], f"{p.cmd}: {rows}")
    check(re.search(r"^ +1\.500 \[1\.4\d\d, 1\.5\d\d\] ", p.stdout, re.M),
          f"{p.cmd}: no ratio 1.500 with its interval:\n{p.stdout}")
    # Raw samples: the U test (9 against 9 without ties: exact, p = 2/C(18,9)).
    p = e.status(1, "compare", "--threshold", "10", "samples_base.jsonl", "samples_slow.jsonl")
    rows = table(p.stdout)
    check(rows[0][:2] == ("REGRESSED", PP1K) and rows[0][2] == "U p=4.1e-05" and
          sum(r[0] == "REGRESSED" for r in rows) == 1, f"{p.cmd}: {rows}")
    p = e.status(1, "compare", "--threshold", "10", "--all", "samples_base.jsonl",
                 "samples_slow.jsonl")
    rows = dict((r[1], r) for r in table(p.stdout))
    check(rows["IMB-MPI1 PingPong, 2 procs, 0 bytes"][0] == "unchanged" and
          rows["IMB-MPI1 PingPong, 2 procs, 0 bytes"][2].startswith("U p=") and
          float(rows["IMB-MPI1 PingPong, 2 procs, 0 bytes"][2][4:]) > 0.05,
          f"{p.cmd}: interleaved samples called significant: {rows}")
    e.status(0, "compare", "--threshold", "60", "samples_base.jsonl", "samples_slow.jsonl")
    # File I/O (IMB-IO): the same 1.5x with intervals apart is within the default file-I/O
    # threshold (100 %), beyond --threshold 10 (which then holds for file I/O too), within
    # --threshold 10 --io-threshold 60, and beyond --io-threshold 40 alone.
    for args, want in (([], 0), (["--threshold", "10"], 1),
                       (["--threshold", "10", "--io-threshold", "60"], 0),
                       (["--io-threshold", "40"], 1)):
        p = e.status(want, "compare", *args, "io_base.jsonl", "io_slow.jsonl")
        check(summary(p.stdout)[1] == want, f"{p.cmd}: {summary(p.stdout)}")
    p = e.status(0, "compare", "--json", "-", "io_base.jsonl", "io_slow.jsonl")
    recs = [json.loads(x) for x in p.stdout.splitlines()]
    check(all(r["file_io"] for r in recs if r["type"] == "compare_row") and
          recs[-1]["io_threshold_percent"] > recs[-1]["threshold_percent"],
          f"{p.cmd}: file_io or io_threshold_percent wrong: {recs}")
    p = e.status(1, "compare", "--json", "-", "--threshold", "10", "ci_base.jsonl", "ci_slow.jsonl")
    recs = [json.loads(x) for x in p.stdout.splitlines()]
    check(not any(r["file_io"] for r in recs if r["type"] == "compare_row") and
          recs[-1]["io_threshold_percent"] == 10, f"{p.cmd}: {recs}")
    # Bad input: status 2, one message, nothing on stdout.
    with open(os.path.join(e.cwd, "text.jsonl"), "w") as f:
        f.write("IMB-MPI1 PingPong\n")
    with open(os.path.join(e.cwd, "other.jsonl"), "w") as f:
        f.write(json.dumps({"type": "result", "schema_version": 2, "run_id": "other",
                            "suite": "IMB-MPI1", "benchmark": "Barrier",
                            "processes": 7, "status": "ok", "t_avg_usec": 1.0}) + "\n")
    for args, msg in ((["plain_base.jsonl", "text.jsonl"], "'text.jsonl' line 1: not JSON"),
                      (["plain_base.jsonl", "other.jsonl"], "no measurement of"),
                      (["--threshold", "x", "a", "b"], "invalid value 'x' for --threshold"),
                      (["--noise", "-1", "a", "b"], "invalid value '-1' for --noise"),
                      (["--io-threshold", "1e9", "a", "b"], "invalid value '1e9' for --io-threshold"),
                      (["--json", "", "a", "b"], "invalid value '' for --json"),
                      (["--force", "a", "b"], "--force needs --html DIR"),
                      (["--json", "plain_base.jsonl", "plain_base.jsonl", "plain_slow.jsonl"],
                       "it is also the base results file"),
                      (["plain_base.jsonl"], "expected 2 results files")):
        p = e.status(2, "compare", *args)
        check(msg in p.stderr and p.stderr.count("\n") == 1 and p.stdout == "",
              f"{p.cmd}: {p.stderr!r} {p.stdout[:200]!r}")
    return "0 / 1 by each rule / 2"


def case_only(e):
    p = e.status(1, "compare", "--noise", "50", "plain_base.jsonl", "plain_slow.jsonl")
    rows = table(p.stdout)
    check(("only in base", "IMB-MPI1 Allreduce, 2 procs, 8 bytes", "-") in rows and
          ("only in new", "IMB-MPI1 Bcast, 2 procs, 8 bytes", "-") in rows,
          f"{p.cmd}: rows in one file not listed: {rows}")
    check(summary(p.stdout) == [3, 1, 0, 2, 2, 1, 1], f"{p.cmd}: {summary(p.stdout)}")
    p = e.status(1, "compare", "--noise", "50", "--json", "-", "plain_base.jsonl",
                 "plain_slow.jsonl")
    recs = [json.loads(l) for l in p.stdout.splitlines()]
    only = {(r["verdict"], r["measurement"]) for r in recs if r["type"] == "compare_row"
            and r["verdict"].startswith("only")}
    check(only == {("only_in_base", "IMB-MPI1 Allreduce, 2 procs, 8 bytes"),
                   ("only_in_new", "IMB-MPI1 Bcast, 2 procs, 8 bytes")}, f"{p.cmd}: {only}")
    return "listed in text and JSON"


def validate(e, recs):
    import jsonschema
    schema = json.load(open(e.schema))
    v = jsonschema.Draft7Validator(schema)
    for r in recs:
        errs = list(v.iter_errors(r))
        check(not errs, f"record {json.dumps(r)[:300]} does not fit the schema: "
              f"{[x.message[:200] for x in errs[:2]]}")


def case_json(e):
    n = 0
    for base, new, status in (("plain_base", "plain_slow", 1), ("ci_base", "ci_slow", 1),
                              ("samples_base", "samples_slow", 1),
                              ("samples_base", "samples_base", 0)):
        out = f"{base}-{new}.out.jsonl"
        p = e.status(status, "compare", "--noise", "50", "--json", out, f"{base}.jsonl",
                     f"{new}.jsonl")
        check(p.stdout.startswith("# mpibench compare"), f"{p.cmd}: no text table on stdout")
        recs = [json.loads(l) for l in open(os.path.join(e.cwd, out))]
        validate(e, recs)
        rows, s = recs[:-1], recs[-1]
        check(s["type"] == "compare_summary" and all(r["type"] == "compare_row" for r in rows),
              f"{out}: not rows then one summary")
        keys = set()
        for f in (base, new):
            for l in open(os.path.join(e.cwd, f + ".jsonl")):
                r = json.loads(l)
                if r["type"] == "result":
                    keys.add(f"IMB-MPI1 {r['benchmark']}, 2 procs, {r['bytes']} bytes")
        check({r["measurement"] for r in rows} == keys and len(rows) == len(keys),
              f"{out}: rows {sorted(r['measurement'] for r in rows)}, measurements {sorted(keys)}")
        count = {v: sum(r["verdict"] == v for r in rows) for v in
                 ("regressed", "improved", "unchanged", "only_in_base", "only_in_new")}
        check(all(s[k] == v for k, v in count.items()) and s["exit_status"] == status and
              s["compared"] == count["regressed"] + count["improved"] + count["unchanged"],
              f"{out}: summary {s} against rows {count}")
        if base == "samples_base" and new != base:
            r = next(r for r in rows if r["measurement"] == PP1K)
            check(r["test"] == "mann_whitney_u" and r["exact"] is True and
                  abs(r["p_value"] - 2 / 48620) < 1e-9 and r["base"]["raw_samples"] == 9 and
                  abs(r["ratio"] - 1.5) < 1e-9 and r["ratio_low"] < 1.5 < r["ratio_high"],
                  f"{out}: {r}")
        n += len(recs)
    p = e.status(1, "compare", "--json", "-", "ci_base.jsonl", "ci_slow.jsonl")
    recs = [json.loads(l) for l in p.stdout.splitlines()]  # nothing but JSON on stdout
    validate(e, recs)
    return f"{n + len(recs)} records valid"


def case_html(e):
    p = e.status(1, "compare", "--html", "cmp", "samples_base.jsonl", "samples_slow.jsonl")
    d = os.path.join(e.cwd, "cmp")
    page = open(os.path.join(d, "index.html")).read()
    check('<table id="comparison">' in page and PP1K in page and "REGRESSED" in page,
          "index.html lacks the comparison")
    check("pt2pt_latency.svg" in page, "index.html lacks the latency plot")
    gp = open(os.path.join(d, "plots.gp")).read()
    lat = gp[gp.index("# Point-to-point latency"):]
    lat = lat[:lat.index("set output\n")]
    check(lat.count("with yerrorlines") == 2 and "samples_base.jsonl: IMB-MPI1 PingPong" in lat
          and "samples_slow.jsonl: IMB-MPI1 PingPong" in lat and "using ($1 == 0 ? " in lat,
          f"plots.gp: not both runs with error bars:\n{lat}")
    dat = open(os.path.join(d, "pt2pt_latency.dat")).read()
    pts = [l.split() for l in dat.splitlines() if l and not l.startswith("#")]
    check(len(pts) == 6 and all(len(x) == 4 and float(x[2]) <= float(x[1]) <= float(x[3])
                                for x in pts), f"pt2pt_latency.dat: {pts}")
    # The same directory again: refused unless --force (plot -o's rules).
    p = e.status(2, "compare", "--html", "cmp", "samples_base.jsonl", "samples_slow.jsonl")
    check("it exists" in p.stderr, p.stderr)
    e.status(1, "compare", "--html", "cmp", "--force", "samples_base.jsonl", "samples_slow.jsonl")
    return "page, error bars, refusal"


def case_plot_runs(e):
    p = e.run("plot", "-o", "p", "plain_base.jsonl", "plain_slow.jsonl")
    gnuplot = shutil.which("gnuplot")
    check(p.returncode == (0 if gnuplot else 1), f"{p.cmd}: status {p.returncode}\n{p.stderr}")
    d = os.path.join(e.cwd, "p")
    gp = open(os.path.join(d, "plots.gp")).read()
    lat = gp[gp.index("# Point-to-point latency"):]
    lat = lat[:lat.index("set output\n")]
    entries = re.findall(r"'pt2pt_latency\.dat' index (\d+) using \(\$1 == 0 \? ([0-9.e-]+) : "
                         r"\$1\):2 with linespoints lc rgb '(#[0-9a-f]{6})' pt (\d+) title '([^']*)'",
                         lat)
    check([x[4] for x in entries] == ["plain_base.jsonl: IMB-MPI1 PingPong, 2 procs",
                                      "plain_slow.jsonl: IMB-MPI1 PingPong, 2 procs"],
          f"legend entries: {entries}\n{lat}")
    check(len({x[2] for x in entries}) == 2 and len({x[3] for x in entries}) == 2,
          f"colours or markers repeat: {entries}")
    zero = entries[0][1]
    check(re.search(r"^set xtics \('0' " + re.escape(zero) + r", '1B' 1,", lat, re.M),
          f"no tic '0' at {zero}:\n{lat}")
    dat = open(os.path.join(d, "pt2pt_latency.dat")).read()
    blocks = [b for b in dat.split("\n\n\n") if b.strip()]
    check(len(blocks) == 2 and all(re.search(r"^0 0\.4", b, re.M) for b in blocks),
          f"pt2pt_latency.dat: no 0-byte point per run:\n{dat}")
    # Many series: no colour twice (gnuplot's own eight repeat from the ninth).
    many = []
    for k in range(20):
        name = f"run{k:02d}.jsonl"
        with open(os.path.join(e.cwd, name), "w") as f:
            f.write(open(os.path.join(e.cwd, "plain_base.jsonl")).read())
        many.append(name)
    p = e.run("plot", "-o", "many", *many)
    gp = open(os.path.join(e.cwd, "many", "plots.gp")).read()
    lat = gp[gp.index("# Point-to-point latency"):]
    lat = lat[:lat.index("set output\n")]
    colours = re.findall(r"lc rgb '(#[0-9a-f]{6})' pt (\d+)", lat)
    check(len(colours) == 20 and len({c for c, _ in colours}) == 20 and
          len(set(colours)) == 20, f"20 runs: colours {colours}")
    if gnuplot:
        for ext in ("png", "svg"):
            check(os.path.getsize(os.path.join(d, f"pt2pt_latency.{ext}")) > 1000,
                  f"pt2pt_latency.{ext} not drawn")
        svg = open(os.path.join(d, "pt2pt_latency.svg")).read()
        check("plain_slow.jsonl: IMB-MPI1 PingPong" in svg and ">0<" in svg,
              "the SVG lacks the second run's legend or the tic '0'")
    return "2 series, distinct styles, 0 B shown" + (", drawn" if gnuplot else ", no gnuplot")


CASES = {"status": case_status, "only": case_only, "json": case_json, "html": case_html,
         "plot_runs": case_plot_runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--schema", required=True)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mb-compare-") as cwd:
        try:
            what = CASES[opts.case](Env(opts, cwd))
        except Failed as e:
            print(f"FAILED: compare.{opts.case}: {e}")
            return 1
    print(f"ok: compare.{opts.case}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
