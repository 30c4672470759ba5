#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check `mpibench compare`'s verdicts and `mpibench plot` of several runs on hand-written
fixtures (tests/cli/compare/*.jsonl) and on groups of runs written here
(docs/adr/compare-runs.md, docs/adr/plots-of-several-runs.md):

  status     one run a side: exit status 0 for identical files (one sample, intervals, raw
             samples); rows decided by each rule (single sample beyond the noise band, disjoint
             intervals, Mann-Whitney U test - each only from 6 samples a side); the exit status
             from the families' geometric mean ratio against the threshold (a row 3 times slower
             among three sizes flags the row, not the family, at the default band); 2 on bad
             input (not JSON, nothing in common, bad option values)
  groups     several runs a side: the U test over runs with the Hodges-Lehmann ratio (4+ a
             side, exact p), Welch's t test (2-3), the t test of one run against a group, each
             worked out here independently; no change exits 0, a shift of the whole family 1;
             a row missing from one run is listed as not comparable; run directories
  badgroups  groups refused with status 2 and one message, nothing written: '--' without runs
             on a side or twice, runs of a group that differ in settings or process counts, a
             file given twice, the same run under two names, a directory without results
  only       measurements in one file only are listed (text and JSON), never dropped
  json       --json FILE and --json - against docs/compare.schema.json; counts agree with the
             rows and the exit status; every measurement of both files has a row; families,
             the overall and the summary
  html       compare --html DIR: index.html with the comparison and both runs' plots, the
             intervals as error bars; an existing DIR refused without --force
  plot_runs  plot A B: one series per run and benchmark named by the file, distinct colours
             and markers, the 0-byte point at the tic '0'; drawn by gnuplot when installed

Usage: compare_check.py --case NAME --bindir DIR --fixtures DIR --schema FILE
"""

import argparse
import json
import math
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
    if "\n# families:" in out:
        out = out[:out.index("\n# families:")]
    for line in out.splitlines():
        if line.startswith("#") or line.lstrip().startswith("ratio"):
            continue
        m = re.match(r"^ *(\S+) +(-|\[[^]]*\]) +(\S+) +(\S+) +(\S+) +"
                     r"(REGRESSED|improved|unchanged|uncertain|only in base|only in new|"
                     r"not comparable) +"
                     r"(.+?) {2,}(\S.*)$", line)
        check(m, f"row not in the table's layout: {line!r}")
        rows.append((m.group(6), m.group(8).strip(), m.group(7).strip()))
    return rows


def summary(out):
    m = re.search(r"^# (\d+) compared: (\d+) regressed, (\d+) improved, (\d+) unchanged, "
                  r"\d+ uncertain; (\d+) not comparable \((\d+) only in base, (\d+) only in new",
                  out, re.M)
    check(m, f"no summary line:\n{out}")
    return [int(x) for x in m.groups()]


PP1K = "IMB-MPI1 PingPong, 2 procs, 1024 bytes"
PP = "IMB-MPI1 PingPong, 2 procs"


def families(out):
    """The family table: {family: (ratio, verdict, test)} and the OVERALL line."""
    fams, over = {}, None
    part = out[out.index("# families:"):]
    for line in part.splitlines()[2:]:
        if line.startswith("#"):
            continue
        m = re.match(r"^ *(\S+) +(-|\[[^]]*\]) +(REGRESSED|improved|unchanged|uncertain|"
                     r"not comparable) +"
                     r"(.+?) +(\d+)  (\S.*)$", line)
        check(m, f"family line not in the layout: {line!r}")
        val = (float(m.group(1)) if m.group(1) != "-" else None, m.group(3), m.group(4).strip())
        if m.group(6).startswith("OVERALL"):
            over = val
        else:
            fams[m.group(6)] = val
    check(over is not None, f"no OVERALL line:\n{out}")
    return fams, over


def fewer_samples(e, src, dst, k):
    """src's rows cut to k samples (sample_count, raw samples, the interval's coverage)."""
    cov = {5: 0.9375, 6: 0.96875}[k]
    with open(os.path.join(e.cwd, src)) as f, open(os.path.join(e.cwd, dst), "w") as g:
        for line in f:
            r = json.loads(line)
            if r["type"] == "result":
                r["sample_count"] = k
                r["ci95_coverage"] = cov
                if "t_avg_usec_samples" in r:
                    r["t_avg_usec_samples"] = r["t_avg_usec_samples"][:k]
            g.write(json.dumps(r) + "\n")


def case_status(e):
    for kind in ("plain", "ci", "samples"):
        p = e.status(0, "compare", f"{kind}_base.jsonl", f"{kind}_base.jsonl")
        check(summary(p.stdout)[1] == 0 and table(p.stdout) == [],
              f"{p.cmd}: identical files show rows:\n{p.stdout}")
        check("one run a side: the run-to-run noise is not measured" in p.stdout,
              f"{p.cmd}: the single-run form does not say that noise is not measured")
    # One sample per row: the noise band decides (1 KiB 3x slower; 0 B and 64 KiB by 2.5 % and
    # 4 %, inside any band). The family's geometric mean, (1.025 x 3 x 1.0417)^(1/3) = 1.474,
    # is beyond --threshold 10 (status 1) and within --threshold 50 (status 0, the row still
    # flagged); the default band of one run a side, 400 %, flags neither.
    p = e.status(1, "compare", "--noise", "50", "--threshold", "10", "plain_base.jsonl",
                 "plain_slow.jsonl")
    rows = table(p.stdout)
    check(rows[0] == ("REGRESSED", PP1K, "1 sample") and
          sum(r[0] == "REGRESSED" for r in rows) == 1, f"{p.cmd}: {rows}")
    fams, over = families(p.stdout)
    check(abs(fams[PP][0] - 1.474) < 0.001 and fams[PP][1:] == ("REGRESSED", "band"),
          f"{p.cmd}: family {fams}")
    p = e.status(0, "compare", "--noise", "50", "--threshold", "50", "plain_base.jsonl",
                 "plain_slow.jsonl")
    check(table(p.stdout)[0] == ("REGRESSED", PP1K, "1 sample") and
          families(p.stdout)[0][PP][1] == "unchanged", f"{p.cmd}: row or family:\n{p.stdout}")
    p = e.status(0, "compare", "--noise", "50", "plain_base.jsonl", "plain_slow.jsonl")
    check(not any(r[0] == "REGRESSED" for r in table(p.stdout)) and
          "beyond the threshold of 400 %" in p.stdout, f"{p.cmd}: the default band:\n{p.stdout}")
    p = e.status(0, "compare", "--noise", "250", "--threshold", "50", "plain_base.jsonl",
                 "plain_slow.jsonl")
    check(table(p.stdout) == [r for r in table(p.stdout) if r[0].startswith("only")],
          f"{p.cmd}: a row beyond the band of 250 %: {table(p.stdout)}")
    # Intervals of the median: 1 KiB 1.5x slower, intervals apart; 64 KiB 3 % slower,
    # intervals overlap; the family 1.156.
    p = e.status(1, "compare", "--threshold", "10", "ci_base.jsonl", "ci_slow.jsonl")
    rows = table(p.stdout)
    check(rows == [("REGRESSED", PP1K, "CI apart")], f"{p.cmd}: {rows}")
    check(re.search(r"^ +1\.500 \[1\.4\d\d, 1\.5\d\d\] ", p.stdout, re.M),
          f"{p.cmd}: no ratio 1.500 with its interval:\n{p.stdout}")
    e.status(0, "compare", "--threshold", "20", "ci_base.jsonl", "ci_slow.jsonl")
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
    # Within one run, samples count only from 6 a side: 5 samples (no 95 % interval of the
    # median, a U test of 5 against 5) fall back to the noise band; 6 are tested.
    for k, test in ((5, "1 sample"), (6, "U p=0.0022")):
        fewer_samples(e, "samples_base.jsonl", f"b{k}.jsonl", k)
        fewer_samples(e, "samples_slow.jsonl", f"s{k}.jsonl", k)
        p = e.status(1, "compare", "--threshold", "10", "--noise", "20", f"b{k}.jsonl",
                     f"s{k}.jsonl")
        check(table(p.stdout)[0][:3] == ("REGRESSED", PP1K, test), f"{p.cmd}: {table(p.stdout)}")
    # File I/O (IMB-IO): the same 1.5x with intervals apart (the family 1.156) is within the
    # default file-I/O band (100 %), beyond --threshold 10 (which then holds for file I/O
    # too), within --threshold 10 --io-threshold 60, and beyond --io-threshold 15 alone.
    for args, want in (([], 0), (["--threshold", "10"], 1),
                       (["--threshold", "10", "--io-threshold", "60"], 0),
                       (["--io-threshold", "15"], 1)):
        p = e.status(want, "compare", *args, "io_base.jsonl", "io_slow.jsonl")
        check((families(p.stdout)[0]["IMB-IO S_Write_Indv aggregate, 2 procs"][1] ==
               "REGRESSED") == bool(want), f"{p.cmd}: {families(p.stdout)}")
    p = e.status(0, "compare", "--json", "-", "io_base.jsonl", "io_slow.jsonl")
    recs = [json.loads(x) for x in p.stdout.splitlines()]
    check(all(r["file_io"] for r in recs if r["type"] in ("compare_row", "compare_family")) and
          recs[-1]["io_threshold_percent"] == recs[-1]["threshold_percent"] == 400,
          f"{p.cmd}: file_io or the thresholds of one run a side wrong: {recs}")
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
                       "it is also a results file"),
                      (["plain_base.jsonl"], "expected 2 results files"),
                      (["a", "b", "c"], "expected 2 results files (BASE NEW), or groups")):
        p = e.status(2, "compare", *args)
        check(msg in p.stderr and p.stderr.count("\n") == 1 and p.stdout == "",
              f"{p.cmd}: {p.stderr!r} {p.stdout[:200]!r}")
    return "0 / 1 by each rule / 2"


# ---- groups of runs ------------------------------------------------------------------------

SIZES = (0, 1024, 65536)
BASE_US = {0: 0.4, 1024: 1.0, 65536: 12.0}
# Each run's own factor (its regime): fixed, so that every p-value is known.
NOISE_A = (1.00, 1.03, 0.97, 1.02, 0.99, 1.01)
NOISE_B = (1.005, 0.985, 1.015, 0.995, 1.025, 0.975)


BENCHMARKS = ("PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allreduce", "Reduce",
              "Reduce_scatter", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter",
              "Scatterv", "Alltoall", "Alltoallv")


def write_run(path, run_id, factor, settings=None, processes=2, drop=None, extra=None,
              others=None):
    """One IMB-MPI1 run: a header and PingPong rows whose values are BASE_US x factor (and the
    rows of the benchmarks others names, each x its factor), as a results.jsonl in the
    directory path (or the file path when it ends in .jsonl)."""
    if not path.endswith(".jsonl"):
        os.makedirs(path, exist_ok=True)
        path = os.path.join(path, "results.jsonl")
    head = {"type": "header", "schema_version": 2, "run_id": run_id, "suite": "IMB-MPI1",
            "mpibench_version": "0.1.0", "date": "fixture", "processes": processes,
            "settings": dict({"-iter": "50,20", "--json": path, "--run-id": run_id},
                             **(settings or {}))}
    with open(path, "w") as f:
        f.write(json.dumps(head) + "\n")
        for name, fac in [("PingPong", factor)] + sorted((others or {}).items()):
            for b in SIZES:
                if b == drop:
                    continue
                t = BASE_US[b] * fac
                f.write(json.dumps({"type": "result", "schema_version": 2, "run_id": run_id,
                                    "suite": "IMB-MPI1", "benchmark": name, "multi": False,
                                    "class": "single", "processes": processes, "group": None,
                                    "bytes": b, "status": "ok", "repetitions": 1000,
                                    "t_min_usec": t, "t_max_usec": t, "t_avg_usec": t,
                                    "mib_per_sec": b / t if b else 0}) + "\n")
        for r in extra or []:
            f.write(json.dumps(dict(r, run_id=run_id)) + "\n")


def group(e, name, n, shift, noise, families=0, run=None, **kw):
    """n runs of PingPong x shift; with families, as many other benchmarks, unchanged (each run
    its own factor: noise[i] for PingPong, noise[i + 1 + k] for the k-th other), and every
    benchmark of run i also x run[i] (a regime of the whole run)."""
    paths = []
    for i in range(n):
        d = os.path.join(e.cwd, f"{name}-{i + 1}")
        whole = run[i] if run else 1
        others = {BENCHMARKS[1 + k]: whole * noise[(i + 1 + k) % len(noise)]
                  for k in range(families)}
        write_run(d, f"{name}-{i + 1}", whole * shift * noise[i], others=others, **kw)
        paths.append(f"{name}-{i + 1}")
    return paths


def hodges_lehmann(x, y):
    d = sorted(math.log(b) - math.log(a) for a in x for b in y)
    n = len(d)
    return math.exp(d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2)


def welch(x, y):
    """Welch's t on logs: the ratio of geometric means and the t statistic's degrees."""
    lx, ly = [math.log(v) for v in x], [math.log(v) for v in y]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    vx = sum((v - mx) ** 2 for v in lx) / (len(lx) - 1)
    vy = sum((v - my) ** 2 for v in ly) / (len(ly) - 1)
    a, b = vx / len(lx), vy / len(ly)
    return math.exp(my - mx), (my - mx) / math.sqrt(a + b), (a + b) ** 2 / (
        a * a / (len(lx) - 1) + b * b / (len(ly) - 1))


def compare_json(e, want, *args):
    p = e.status(want, "compare", "--all", "--json", "-", *args)
    recs = [json.loads(l) for l in p.stdout.splitlines()]
    validate(e, recs)
    rows = {r["measurement"]: r for r in recs if r["type"] == "compare_row"}
    fams = {r["family"]: r for r in recs if r["type"] == "compare_family"}
    over = next(r for r in recs if r["type"] == "compare_overall")
    return rows, fams, over, recs[-1]


def case_groups(e):
    a = group(e, "A", 6, 1.0, NOISE_A)
    b = group(e, "B", 6, 1.0, NOISE_B)
    s = group(e, "S", 6, 1.5, NOISE_B)
    # 5 against 5, nothing changed: the runs interleave; exit 0, nothing flagged.
    rows, fams, over, summ = compare_json(e, 0, *a[:5], "--", *b[:5])
    check(summ["form"] == "runs" and summ["threshold_percent"] == 10 and
          summ["io_threshold_percent"] == 25 and summ["regressed"] == 0 and
          fams[PP]["verdict"] == "unchanged" and fams[PP]["test"] == "mann_whitney_u_runs",
          f"A/A: {summ} {fams}")
    # The whole family 1.5 times slower: every run of S above every run of A: exact U p =
    # 2/C(10,5) for every row, the family and the overall; the ratio is the Hodges-Lehmann
    # estimate, the median of the 25 pairwise ratios.
    rows, fams, over, summ = compare_json(e, 1, *a[:5], "--", *s[:5])
    want = hodges_lehmann(NOISE_A[:5], [1.5 * x for x in NOISE_B[:5]])
    for r in list(rows.values()) + [fams[PP], over]:
        check(r["verdict"] == "regressed" and r["exact"] is True and
              abs(r["p_value"] - 2 / 252) < 1e-12 and abs(r["ratio"] - want) < 1e-9 and
              r["ratio_low"] < want < r["ratio_high"] and
              abs(r["ratio_coverage"] - (1 - 8 / 252)) < 1e-12, f"5 vs 5 shifted: {r}")
    check(summ["exit_status"] == 1 and summ["families_regressed"] == 1 and
          summ["overall"] == "regressed" and summ["base_runs"] == [x + "/results.jsonl"
                                                                   for x in a[:5]],
          f"5 vs 5 shifted: {summ}")
    p = e.status(1, "compare", *a[:5], "--", *s[:5])
    check("runs as samples" in p.stdout and re.search(r"REGRESSED +U p=0\.0079 +3  " +
                                                       re.escape(PP), p.stdout),
          f"{p.cmd}: text:\n{p.stdout}")
    # Options anywhere: after the files, on both sides of '--'.
    e.status(0, "compare", *a[:5], "--threshold", "60", "--", *s[:5], "--all")
    # 3 against 3: Welch's t test on the logs, the ratio of geometric means.
    rows, fams, over, summ = compare_json(e, 1, *a[:3], "--", *s[:3])
    ratio, t, df = welch(NOISE_A[:3], [1.5 * x for x in NOISE_B[:3]])
    check(fams[PP]["test"] == "welch_t_runs" and abs(fams[PP]["ratio"] - ratio) < 1e-9 and
          fams[PP]["p_value"] < 0.05 and fams[PP]["verdict"] == "regressed",
          f"3 vs 3: {fams[PP]}, want ratio {ratio}, t {t}, df {df}")
    rows, fams, over, summ = compare_json(e, 0, *a[:3], "--", *b[:3])
    check(fams[PP]["test"] == "welch_t_runs" and fams[PP]["p_value"] > 0.05, f"3 vs 3: {fams}")
    # One run against four: the run against the group's spread (t, 3 degrees of freedom).
    rows, fams, over, summ = compare_json(e, 1, *a[:4], "--", s[0])
    check(fams[PP]["test"] == "prediction_t_runs" and fams[PP]["verdict"] == "regressed",
          f"4 vs 1: {fams[PP]}")
    rows, fams, over, summ = compare_json(e, 0, *a[:4], "--", b[0])
    check(fams[PP]["test"] == "prediction_t_runs" and fams[PP]["verdict"] == "unchanged",
          f"4 vs 1 unchanged: {fams[PP]}")
    # A row missing from one run: not comparable, with the reason; the rest compared.
    write_run(os.path.join(e.cwd, "A-7"), "A-7", 1.0, drop=1024)
    rows, fams, over, summ = compare_json(e, 1, *a[:4], "A-7", "--", *s[:5])
    r = rows[PP1K]
    check(r["verdict"] == "not_comparable" and r["why"] == "measured in 4 of 5 base and 5 of 5 "
          "new runs" and fams[PP]["rows"] == 2, f"a row missing from a run: {r} {fams[PP]}")
    p = e.status(1, "compare", *a[:4], "A-7", "--", *s[:5])
    check("(measured in 4 of 5 base and 5 of 5 new runs)" in p.stdout, p.stdout)
    # The exit status's procedure: OVERALL starts at 2/3 alpha, the families together at 1/3
    # alpha. PingPong alone 1.5 times slower among 3 families, 5 runs a side: its p (2/252)
    # is above its first level (0.05/3/3), but OVERALL (1.5^(1/3) = 1.145, p 2/252 < 0.033)
    # is rejected and passes its share on: PingPong then at 0.05/3 - REGRESSED, status 1.
    noise = (1.00, 1.03, 0.97, 1.02, 0.99, 1.01, 0.98, 1.015)
    fa = group(e, "FA", 5, 1.0, noise, families=2)
    fs = group(e, "FS", 5, 1.5, tuple(x * 1.004 for x in noise), families=2)
    rows, fams, over, summ = compare_json(e, 1, *fa, "--", *fs)
    check(over["verdict"] == "regressed" and abs(over["level"] - 0.05 * 2 / 3) < 1e-12 and
          fams[PP]["verdict"] == "regressed" and abs(fams[PP]["level"] - 0.05 / 3) < 1e-12 and
          all(f["verdict"] == "unchanged" for k, f in fams.items() if k != PP),
          f"one family of three: {over} {fams}")
    # Among 16 families PingPong's shift moves OVERALL 2.6 %, within the runs' own regimes
    # (+-6 %): 5 runs a side cannot set the status (the smallest p, 2/252, is above
    # 0.05/3/16, and compare says how many runs can); 7 runs a side can (2/3432 < 0.05/3/16).
    fa = group(e, "GA", 7, 1.0, noise, families=15, run=(1.00, 1.06, 0.94, 1.03, 0.97, 1.05,
                                                         0.95))
    fs = group(e, "GS", 7, 1.5, noise, families=15, run=(1.02, 0.96, 1.04, 0.98, 1.013, 0.993,
                                                         1.05))
    rows, fams, over, summ = compare_json(e, 0, *fa[:5], "--", *fs[:5])
    check(fams[PP]["verdict"] == "uncertain" and abs(fams[PP]["p_value"] - 2 / 252) < 1e-12 and
          abs(fams[PP]["level"] - 0.05 / 3 / 16) < 1e-12 and len(fams) == 16, f"5 of 16: {fams[PP]}")
    p = e.status(0, "compare", *fa[:5], "--", *fs[:5])
    check("a family alone cannot set the status, only OVERALL can; 7 runs a side can" in
          p.stdout, f"{p.cmd}: no word on the runs needed:\n{p.stdout[-3000:]}")
    rows, fams, over, summ = compare_json(e, 1, *fa, "--", *fs)
    check(fams[PP]["verdict"] == "regressed" and abs(fams[PP]["p_value"] - 2 / 3432) < 1e-12 and
          summ["families_regressed"] == 1 and over["verdict"] == "unchanged",
          f"7 of 16: {fams[PP]} {over}")
    # A figure of 0 (Barrier's time rounded to nothing) in every run: "all alike", unchanged;
    # a 0 in some runs only: no ratio, not comparable.
    def zero(t):
        return {"type": "result", "schema_version": 2, "suite": "IMB-MPI1", "benchmark":
                "Barrier", "multi": False, "class": "collective", "processes": 2, "group": None,
                "bytes": 0, "status": "ok", "repetitions": 1000, "t_min_usec": t,
                "t_max_usec": t, "t_avg_usec": t, "mib_per_sec": None}
    for i in range(4):
        write_run(os.path.join(e.cwd, f"Z-{i}"), f"Z-{i}", NOISE_A[i], extra=[zero(0.0)])
        write_run(os.path.join(e.cwd, f"W-{i}"), f"W-{i}", NOISE_B[i], extra=[zero(0.0)])
        write_run(os.path.join(e.cwd, f"Y-{i}"), f"Y-{i}", NOISE_B[i],
                  extra=[zero(0.0 if i else 0.5)])
    rows, fams, over, summ = compare_json(e, 0, *[f"Z-{i}" for i in range(4)], "--",
                                          *[f"W-{i}" for i in range(4)])
    z = rows["IMB-MPI1 Barrier, 2 procs, 0 bytes"]
    check(z["test"] == "all_alike" and z["verdict"] == "unchanged" and z["ratio"] == 1 and
          z["p_value"] is None, f"a 0 in every run: {z}")
    rows, fams, over, summ = compare_json(e, 0, *[f"Z-{i}" for i in range(4)], "--",
                                          *[f"Y-{i}" for i in range(4)])
    z = rows["IMB-MPI1 Barrier, 2 procs, 0 bytes"]
    check(z["verdict"] == "not_comparable" and z["why"] == "a figure of 0 or below in some runs",
          f"a 0 in some runs: {z}")
    # A run's results file named directly, or its directory: the same.
    e.status(1, "compare", *[x + "/results.jsonl" for x in a[:5]], "--", *s[:5])
    return "U / Welch / one run; HL ratio, p and coverage; missing rows"


def case_badgroups(e):
    a = group(e, "A", 4, 1.0, NOISE_A)
    b = group(e, "B", 4, 1.0, NOISE_B)
    write_run(os.path.join(e.cwd, "T"), "T", 1.0, settings={"-iter": "50,2"})
    write_run(os.path.join(e.cwd, "P"), "P", 1.0, processes=4)
    # A setting that may differ from run to run (where output goes) is no difference.
    write_run(os.path.join(e.cwd, "O"), "O", 1.0, settings={"--output-dir": "elsewhere"})
    e.status(0, "compare", *a, "O", "--", *b)
    shutil.copytree(os.path.join(e.cwd, "A-1"), os.path.join(e.cwd, "copy"))
    os.makedirs(os.path.join(e.cwd, "empty"))
    before = sorted(os.listdir(e.cwd))
    for args, msg in (
            ((*a, "--"), "no new run after '--'"),
            (("--", *b), "no base run before '--'"),
            ((*a, "--", *b, "--", "A-1"), "'--' is given twice"),
            ((*a, "T", "--", *b), "the base runs differ: 'A-1/results.jsonl' ran IMB-MPI1 "
             "with -iter '50,20', 'T/results.jsonl' with '50,2'"),
            ((*a, "--", "P", *b), "the new runs differ: 'P/results.jsonl' ran IMB-MPI1 on 4 "
             "processes, 'B-1/results.jsonl' on 2"),
            ((*a, "A-1", "--", *b), "'A-1/results.jsonl' is given twice among the base runs"),
            ((*a, "copy", "--", *b), "are the same run (run id A-1) among the base runs"),
            ((*a, "--", "empty"), "'empty' is a directory without results.jsonl"),
            (("--json", "out.jsonl", *a, "--", "empty"), "'empty' is a directory without"),
            (("--html", "page", *a, "--"), "no new run after '--'")):
        p = e.status(2, "compare", *args)
        check(msg in p.stderr and p.stderr.count("\n") == 1 and p.stdout == "",
              f"{p.cmd}: {p.stderr!r} {p.stdout[:200]!r}")
    check(sorted(os.listdir(e.cwd)) == before, "a refused comparison left files behind")
    return "10 refusals, nothing written"


def case_only(e):
    p = e.status(0, "compare", "--noise", "50", "--threshold", "50", "plain_base.jsonl",
                 "plain_slow.jsonl")
    rows = table(p.stdout)
    check(("only in base", "IMB-MPI1 Allreduce, 2 procs, 8 bytes", "-") in rows and
          ("only in new", "IMB-MPI1 Bcast, 2 procs, 8 bytes", "-") in rows,
          f"{p.cmd}: rows in one file not listed: {rows}")
    check(summary(p.stdout) == [3, 1, 0, 2, 2, 1, 1], f"{p.cmd}: {summary(p.stdout)}")
    p = e.status(0, "compare", "--noise", "50", "--threshold", "50", "--json", "-",
                 "plain_base.jsonl", "plain_slow.jsonl")
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
        p = e.status(status, "compare", "--noise", "50", "--threshold", "10", "--json", out,
                     f"{base}.jsonl", f"{new}.jsonl")
        check(p.stdout.startswith("# mpibench compare"), f"{p.cmd}: no text table on stdout")
        recs = [json.loads(l) for l in open(os.path.join(e.cwd, out))]
        validate(e, recs)
        kinds = [r["type"] for r in recs]
        nrows = kinds.count("compare_row")
        check(kinds == ["compare_row"] * nrows + ["compare_family"] * kinds.count(
            "compare_family") + ["compare_overall", "compare_summary"],
            f"{out}: not rows, families, the overall, the summary: {kinds}")
        rows, s = recs[:nrows], recs[-1]
        fams = [r for r in recs if r["type"] == "compare_family"]
        keys = set()
        for f in (base, new):
            for l in open(os.path.join(e.cwd, f + ".jsonl")):
                r = json.loads(l)
                if r["type"] == "result":
                    keys.add(f"IMB-MPI1 {r['benchmark']}, 2 procs, {r['bytes']} bytes")
        check({r["measurement"] for r in rows} == keys and len(rows) == len(keys),
              f"{out}: rows {sorted(r['measurement'] for r in rows)}, measurements {sorted(keys)}")
        count = {v: sum(r["verdict"] == v for r in rows) for v in
                 ("regressed", "improved", "unchanged", "uncertain", "only_in_base",
                  "only_in_new")}
        check(all(s[k] == v for k, v in count.items()) and s["exit_status"] == status and
              s["compared"] == count["regressed"] + count["improved"] + count["unchanged"] +
              count["uncertain"] and
              s["families"] == len(fams) and
              s["families_regressed"] == sum(f["verdict"] == "regressed" for f in fams) and
              s["form"] == "one_run_a_side" and s["base_runs"] == [f"{base}.jsonl"],
              f"{out}: summary {s} against rows {count} and families {fams}")
        check(all(f["rows"] == sum(r["family"] == f["family"] and r["verdict"] in
                                   ("regressed", "improved", "unchanged", "uncertain")
                                   for r in rows)
                  for f in fams), f"{out}: a family's rows are not its compared rows")
        if base == "samples_base" and new != base:
            r = next(r for r in rows if r["measurement"] == PP1K)
            check(r["test"] == "mann_whitney_u" and r["exact"] is True and
                  abs(r["p_value"] - 2 / 48620) < 1e-9 and r["base"]["raw_samples"] == 9 and
                  abs(r["ratio"] - 1.5) < 1e-9 and r["ratio_low"] < 1.5 < r["ratio_high"],
                  f"{out}: {r}")
        n += len(recs)
    p = e.status(1, "compare", "--json", "-", "--threshold", "10", "ci_base.jsonl",
                 "ci_slow.jsonl")
    recs = [json.loads(l) for l in p.stdout.splitlines()]  # nothing but JSON on stdout
    validate(e, recs)
    return f"{n + len(recs)} records valid"


def case_html(e):
    p = e.status(1, "compare", "--threshold", "10", "--html", "cmp", "samples_base.jsonl",
                 "samples_slow.jsonl")
    d = os.path.join(e.cwd, "cmp")
    page = open(os.path.join(d, "index.html")).read()
    check('<table id="comparison">' in page and PP1K in page and "REGRESSED" in page and
          '<table id="families">' in page and "OVERALL" in page,
          "index.html lacks the comparison")
    check("pt2pt_latency.svg" in page, "index.html lacks the latency plot")
    gp = open(os.path.join(d, "plots.gp")).read()
    lat = gp[gp.index("# IMB point-to-point: time"):]
    lat = lat[:lat.index("set output\n")]
    check(lat.count("with yerrorlines") == 2 and "samples_base.jsonl: IMB-MPI1 PingPong" in lat
          and "samples_slow.jsonl: IMB-MPI1 PingPong" in lat and "using ($1 == 0 ? " in lat,
          f"plots.gp: not both runs with error bars:\n{lat}")
    dat = open(os.path.join(d, "pt2pt_latency.dat")).read()
    pts = [l.split() for l in dat.splitlines() if l and not l.startswith("#")]
    # Both runs' points with their intervals, then the ratio of the second over the first.
    check(len(pts) == 9 and all(len(x) == 4 and float(x[2]) <= float(x[1]) <= float(x[3])
                                for x in pts[:6]) and
          all(len(r) == 2 and r[0] == a[0] and abs(float(r[1]) - float(b[1]) / float(a[1])) < 1e-9
              for a, b, r in zip(pts[:3], pts[3:6], pts[6:])), f"pt2pt_latency.dat: {pts}")
    # The same directory again: refused unless --force (plot -o's rules).
    p = e.status(2, "compare", "--html", "cmp", "samples_base.jsonl", "samples_slow.jsonl")
    check("it exists" in p.stderr, p.stderr)
    e.status(1, "compare", "--threshold", "10", "--html", "cmp", "--force",
             "samples_base.jsonl", "samples_slow.jsonl")
    return "page, error bars, refusal"


def case_plot_runs(e):
    p = e.run("plot", "-o", "p", "plain_base.jsonl", "plain_slow.jsonl")
    gnuplot = shutil.which("gnuplot")
    check(p.returncode == (0 if gnuplot else 1), f"{p.cmd}: status {p.returncode}\n{p.stderr}")
    d = os.path.join(e.cwd, "p")
    gp = open(os.path.join(d, "plots.gp")).read()
    lat = gp[gp.index("# IMB point-to-point: time"):]
    lat = lat[:lat.index("set output\n")]
    entries = re.findall(r"'pt2pt_latency\.dat' index (\d+) using \(\$1 == 0 \? ([0-9.e-]+) : "
                         r"\$1\):2 with linespoints lc rgb '(#[0-9a-f]{6})' pt (\d+)( dt \d+)? "
                         r"title '([^']*)'", lat)
    check([x[5] for x in entries] == ["plain_base.jsonl: IMB-MPI1 PingPong, 2 procs",
                                      "plain_slow.jsonl: IMB-MPI1 PingPong, 2 procs",
                                      "ratio plain_slow.jsonl / plain_base.jsonl: IMB-MPI1 "
                                      "PingPong, 2 procs"],
          f"legend entries: {entries}\n{lat}")
    # One benchmark: one colour and shape in both runs; the runs differ in dash type and fill.
    check(len({x[2] for x in entries}) == 1 and [x[3] for x in entries] == ["4", "5", "5"] and
          [x[4] for x in entries] == ["", " dt 2", " dt 2"], f"run styles: {entries}")
    zero = entries[0][1]
    check(re.search(r"^set xtics \('' " + re.escape(zero) + r", '' 1,", lat, re.M) and
          re.search(r"^set xtics \('0' " + re.escape(zero) + r", '1B' 1,", lat, re.M),
          f"no tic '0' at {zero} (unlabelled over the ratio panel, labelled under it):\n{lat}")
    dat = open(os.path.join(d, "pt2pt_latency.dat")).read()
    blocks = [b for b in dat.split("\n\n\n") if b.strip()]
    check(len(blocks) == 3 and all(re.search(r"^0 0\.4", b, re.M) for b in blocks[:2]) and
          re.search(r"^0 1\.", blocks[2], re.M),
          f"pt2pt_latency.dat: no 0-byte point per run and ratio:\n{dat}")
    # Many runs: the benchmark keeps its colour, every run has a dash type of its own
    # (gnuplot's own five repeat from the sixth).
    many = []
    for k in range(20):
        name = f"run{k:02d}.jsonl"
        with open(os.path.join(e.cwd, name), "w") as f:
            f.write(open(os.path.join(e.cwd, "plain_base.jsonl")).read())
        many.append(name)
    p = e.run("plot", "-o", "many", *many)
    gp = open(os.path.join(e.cwd, "many", "plots.gp")).read()
    lat = gp[gp.index("# IMB point-to-point: time"):]
    lat = lat[:lat.index("set output\n")]
    styles = re.findall(r"'pt2pt_latency\.dat' index \d+ using .+? with \w+ lc rgb '(#[0-9a-f]{6})' "
                        r"pt (\d+)( dt (?:\d+|\([0-9,]+\)))? title '(?!ratio)", lat)
    check(len(styles) == 20 and len({c for c, _, _ in styles}) == 1 and
          len({d for _, _, d in styles}) == 20, f"20 runs: styles {styles}")
    if gnuplot:
        for ext in ("png", "svg"):
            check(os.path.getsize(os.path.join(d, f"pt2pt_latency.{ext}")) > 1000,
                  f"pt2pt_latency.{ext} not drawn")
        svg = open(os.path.join(d, "pt2pt_latency.svg")).read()
        check("plain_slow.jsonl" in svg and ">0<" in svg and ">ratio<" in svg,
              "the SVG lacks the second run's legend, the tic '0' or the ratio panel")
    return ("2 series, a colour, two dash types, a ratio, 0 B shown" +
            (", drawn" if gnuplot else ", no gnuplot"))


CASES = {"status": case_status, "groups": case_groups, "badgroups": case_badgroups,
         "only": case_only, "json": case_json, "html": case_html, "plot_runs": case_plot_runs}


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
