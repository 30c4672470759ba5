#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check `mpibench plot BASE... -- NEW...` and `compare --html` of groups of runs
(docs/adr/plots-of-groups.md) on groups written here: 4 + 4 runs of IMB-MPI1 PingPong (measured
as samples: the median differs from t_avg), Allreduce and Bcast (single samples), the new runs'
PingPong 1.3 times slower, Allreduce 0.8 times, Bcast unchanged, one new run without one
PingPong size. Every expected number is worked out here from the files written.

  groups    the .dat files: per benchmark a base and a new series holding at each size the
            median of the runs' values (the row's median where it has samples, else t_avg),
            their min..max and how many runs measured it; plots.gp: error bars, a benchmark's
            two series in one colour (open marker and solid line for base, filled and dashed
            for new), benchmarks in distinct colours, the legend saying so; PNGs drawn when
            gnuplot is installed
  ratio     ratio_01.dat: one series per family with the Hodges-Lehmann ratio of the runs at
            each size (~1.3, ~0.8, ~1), inside its interval, regressed/improved marked, the
            size a run lacks left out; plots.gp: error bars, the line at 1 and at the
            threshold both ways, the title saying what > 1 means, the families side by side
  page      index.html: each file under its group, names escaped, every plot shown
  one_run   plot A -- B: the group plots without error bars (nothing measures the spread),
            the ratio plot still drawn
  compare   compare --html DIR BASE... -- NEW...: the same group and ratio plots with the
            comparison; one run a side keeps the runs drawn over each other
  bad       plot -- B, plot A --, plot A -- B -- C, a group whose runs differ in a setting, a
            file twice in a group: status 2, one message, no directory made
  runs      plot A B (no '--'): as before - one series per file, no ratio plot; --force over
            a directory of group plots leaves no stale ratio plot

Usage: plot_groups_check.py --case NAME --bindir DIR
"""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


SIZES = [0, 1, 1024, 65536, 1048576]
BASE_T = {0: 0.4, 1: 0.45, 1024: 1.0, 65536: 12.0, 1048576: 150.0}
# The new runs' factor per benchmark: PingPong regressed, Allreduce improved, Bcast unchanged.
SHIFT = {"PingPong": 1.3, "Allreduce": 0.8, "Bcast": 1.0}
BENCH_T = {"PingPong": 1.0, "Allreduce": 2.0, "Bcast": 1.5}
# Run-to-run noise: small against the shifts, so that every base run is apart from every new one.
NOISE = {"base": [1.00, 1.04, 0.97, 1.02], "new": [1.01, 0.98, 1.03, 0.99]}
MISSING = ("new", 3, "PingPong", 65536)  # the 4th new run lacks this row
PP = "IMB-MPI1 PingPong, 2 procs"
AR = "IMB-MPI1 Allreduce, 2 procs"
BC = "IMB-MPI1 Bcast, 2 procs"
NAMES = {"PingPong": PP, "Allreduce": AR, "Bcast": BC}


def value(group, k, bench, size):
    """The run's value of a row: PingPong's median, the others' t_avg."""
    wiggle = 1 + 0.01 * ((7 * k + 3 * SIZES.index(size)) % 5)
    shift = SHIFT[bench] if group == "new" else 1.0
    return BASE_T[size] * BENCH_T[bench] * shift * NOISE[group][k] * wiggle


def write_run(path, run_id, group, k, settings=None):
    """One results file: a header and the result rows of one run."""
    head = {"type": "header", "schema_version": 2, "run_id": run_id, "suite": "IMB-MPI1",
            "mpibench_version": "0.1.0", "date": f"fixture {run_id}", "processes": 2,
            "hosts": 1, "mpi_library": "fixture MPI",
            "settings": settings or {"-iter": "50,20", "-off_cache": "off"}}
    rows = [head]
    for bench in ("PingPong", "Allreduce", "Bcast"):
        for size in SIZES:
            if (group, k, bench, size) == MISSING:
                continue
            v = value(group, k, bench, size)
            row = {"type": "result", "schema_version": 2, "run_id": run_id, "suite": "IMB-MPI1",
                   "benchmark": bench, "multi": False,
                   "class": "single" if bench == "PingPong" else "collective", "processes": 2,
                   "group": None, "bytes": size, "status": "ok", "repetitions": 1000}
            if bench == "PingPong":
                # Measured as 5 samples: one slow sample moves the mean, not the median.
                t = v * 1.1
                row.update({"t_min_usec": t * 0.98, "t_max_usec": t * 1.02, "t_avg_usec": t,
                            "mib_per_sec": size / 1048576 / (t * 1e-6),
                            "sample_count": 5, "t_avg_usec_median": v,
                            "t_avg_usec_ci95_low": v * 0.97, "t_avg_usec_ci95_high": v * 1.03,
                            "ci95_coverage": 0.9375})
            else:
                row.update({"t_min_usec": v * 0.98, "t_max_usec": v * 1.02, "t_avg_usec": v,
                            "mib_per_sec": None})
            rows.append(row)
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


class Env:
    def __init__(self, opts, cwd):
        self.bin = os.path.join(os.path.abspath(opts.bindir), "mpibench")
        self.cwd = cwd
        self.gnuplot = shutil.which("gnuplot") is not None
        self.base, self.new = [], []
        for group, names in (("base", self.base), ("new", self.new)):
            for k in range(4):
                # One new run's name needs escaping on the page.
                name = f"{group}-{k + 1}.jsonl" if (group, k) != ("new", 2) else "new<3>&.jsonl"
                write_run(os.path.join(cwd, name), f"{group}-{k + 1}", group, k)
                names.append(name)

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

    def drawn(self, *args):
        """A run that draws: status 0, or 1 without gnuplot (scripts only)."""
        return self.status(0 if self.gnuplot else 1, *args)

    def path(self, *parts):
        return os.path.join(self.cwd, *parts)


def blocks(dat):
    """A .dat file's series: {title: (column note, [[numbers], ...])} - each a paragraph of
    comment lines (its title, then what its columns are) and points."""
    out = {}
    for para in dat.split("\n\n"):
        lines = [l for l in para.splitlines() if l]
        comments = [l[2:] for l in lines if l.startswith("# ")]
        pts = [[float(x) for x in l.split()] for l in lines if not l.startswith("#")]
        if pts:
            out[comments[0]] = (comments[1] if len(comments) > 1 else "", pts)
    return out


def panels_of(dat):
    """A .dat file's {series title: its panel} (the "# panel: " line of its paragraph)."""
    out = {}
    for para in dat.split("\n\n"):
        comments = [l[2:] for l in para.splitlines() if l.startswith("# ")]
        for c in comments[1:]:
            if c.startswith("panel: "):
                out[comments[0]] = c[len("panel: "):]
    return out


def section(gp, title):
    """One plot's part of plots.gp (up to its first image)."""
    s = gp[gp.index("# " + title):]
    return s[:s.index("set output\n")]


def entries(part, name):
    return re.findall(r"'" + re.escape(name) + r"\.dat' index (\d+) using (.+?) with "
                      r"(\w+) lc rgb '(#[0-9a-f]{6})' pt (\d+)( dt \d+)? title '([^']*)'", part)


def expected_group(group, bench, size):
    vals = [value(group, k, bench, size) for k in range(4)
            if (group, k, bench, size) != MISSING]
    return statistics.median(vals), min(vals), max(vals), len(vals)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def case_groups(e):
    e.drawn("plot", "-o", "d", *e.base, "--", *e.new)
    for page, benches in (("pt2pt_latency", ["PingPong"]),
                          ("collectives", ["Allreduce", "Bcast"])):
        series = blocks(open(e.path("d", page + ".dat")).read())
        want = [f"{g}: {NAMES[b]}" for g in ("base", "new") for b in benches]
        check(list(series) == want, f"{page}.dat: series {list(series)}, expected {want}")
        for title, (note, pts) in series.items():
            group, bench = title.split(": ")[0], next(b for b in benches if NAMES[b] in title)
            check(note.startswith("x y y_min y_max runs"), f"{page}.dat {title}: note {note!r}")
            check([p[0] for p in pts] == SIZES, f"{page}.dat {title}: sizes {pts}")
            for p in pts:
                m, lo, hi, n = expected_group(group, bench, int(p[0]))
                check(len(p) == 5 and close(p[1], m) and close(p[2], lo) and close(p[3], hi)
                      and p[4] == n, f"{page}.dat {title} at {p[0]}: {p}, expected "
                      f"{[m, lo, hi, n]}")
    # Bandwidth: the figure itself (no median field), 0 bytes left out (no place on a log axis).
    series = blocks(open(e.path("d", "pt2pt_bandwidth.dat")).read())
    for group in ("base", "new"):
        pts = series[f"{group}: {PP}"][1]
        check([p[0] for p in pts] == SIZES[1:], f"pt2pt_bandwidth.dat {group}: {pts}")
        for p in pts:
            size = int(p[0])
            vals = [size / 1048576 / (value(group, k, "PingPong", size) * 1.1e-6)
                    for k in range(4) if (group, k, "PingPong", size) != MISSING]
            check(close(p[1], statistics.median(vals)) and close(p[2], min(vals)) and
                  close(p[3], max(vals)), f"pt2pt_bandwidth.dat {group} at {size}: {p}")
    gp = open(e.path("d", "plots.gp")).read()
    col = section(gp, "IMB collectives")
    ent = entries(col, "collectives")
    check(len(ent) == 4, f"collectives: entries {ent}\n{col}")
    style = {t: (c, int(pt), dt.strip(), how) for _, _, how, c, pt, dt, t in ent}
    for b in (AR, BC):
        base, new = style[f"base: {b}"], style[f"new: {b}"]
        check(base[0] == new[0] and base[3] == new[3] == "yerrorlines",
              f"{b}: base and new differ in colour or lack error bars: {base} {new}")
        check(base[1] % 2 == 0 and new[1] == base[1] + 1 and base[2] == "" and new[2] == "dt 2",
              f"{b}: base not open/solid, new not filled/dashed: {base} {new}")
    # A panel per collective, a line per process count: Allreduce and Bcast on 2 processes
    # are each their panel's "2 procs", in that key's colour and shape.
    panels = panels_of(open(e.path("d", "collectives.dat")).read())
    check(style[f"base: {AR}"][:2] == style[f"base: {BC}"][:2] and
          len(set(panels.values())) == 2, f"Allreduce and Bcast: not one key in two panels: "
          f"{style} {panels}")
    check('set key title "base (4 runs): solid line, open markers; new (4 runs): dashed '
          'line, filled markers\\npoint: the median of a group\'s runs, bar: their min..max"'
          in col and "NaN with linespoints lc rgb '#000000' pt 6 title 'base (4 runs)'" in col
          and "NaN with linespoints lc rgb '#000000' pt 7 dt 2 title 'new (4 runs)'" in col,
          f"collectives: legend heading\n{col}")
    if e.gnuplot:
        for name in ("pt2pt_latency", "pt2pt_bandwidth", "collectives", "ratio_01"):
            for ext in ("png", "svg"):
                check(os.path.getsize(e.path("d", f"{name}.{ext}")) > 1000,
                      f"{name}.{ext} not drawn")
        svg = open(e.path("d", "collectives.svg")).read()
        check(">IMB-MPI1 Allreduce<" in svg and ">new (4 runs)<" in svg and
              "dashed line, filled markers" in svg,
              "collectives.svg lacks the Allreduce panel, the new group or the legend's heading")
    return "medians, min..max, styles" + (", drawn" if e.gnuplot else ", no gnuplot")


def hodges_lehmann(bench, size):
    x = [math.log(value("base", k, bench, size)) for k in range(4)]
    y = [math.log(value("new", k, bench, size)) for k in range(4)]
    return math.exp(statistics.median([b - a for a in x for b in y]))


def case_ratio(e):
    p = e.drawn("plot", "-o", "d", *e.base, "--", *e.new)
    check(not os.path.exists(e.path("d", "ratio_02.dat")), "3 families drawn on two pages")
    series = blocks(open(e.path("d", "ratio_01.dat")).read())
    check(list(series) == [PP, AR, BC], f"ratio_01.dat: series {list(series)}")
    for bench, name in NAMES.items():
        note, pts = series[name]
        check(note.startswith("x ratio ratio_low ratio_high changed"), f"{name}: note {note!r}")
        sizes = [s for s in SIZES if ("new", 3, bench, s) != MISSING]
        check([q[0] for q in pts] == sizes, f"ratio_01.dat {name}: sizes {[q[0] for q in pts]}"
              f", expected {sizes} (a row one run lacks is not comparable)")
        for q in pts:
            r = hodges_lehmann(bench, int(q[0]))
            check(close(q[1], r, 1e-6) and q[2] < q[1] < q[3], f"{name} at {q[0]}: {q}, "
                  f"expected ratio {r} inside its interval")
            check(abs(q[1] / SHIFT[bench] - 1) < 0.05, f"{name} at {q[0]}: ratio {q[1]} is not "
                  f"the shift {SHIFT[bench]}")
            if bench != "Bcast":
                check(q[4] == (1 if SHIFT[bench] > 1 else -1),
                      f"{name} at {q[0]}: changed {q[4]}")
    gp = open(e.path("d", "plots.gp")).read()
    part = section(gp, "IMB-MPI1: new/base ratio per size (> 1: new runs slower)")
    ent = entries(part, "ratio_01")
    check(len(ent) == 3 and all(x[2] == "yerrorlines" for x in ent) and
          len({x[3] for x in ent}) == 3, f"ratio_01: entries {ent}")
    dodge = [re.search(r"\*([0-9.]+)\):2:3:4$", x[1]) for x in ent]
    check(all(dodge) and len({d.group(1) for d in dodge}) == 3,
          f"ratio_01: the families are not drawn side by side: {[x[1] for x in ent]}")
    check(re.search(r"^set ylabel 'ratio \(> 1: new runs slower", part, re.M) and
          "     1 with lines lc rgb '#000000' lw 1.5 title 'no change (ratio 1)'" in part and
          "     1.1 with lines lc rgb '#777777' dt 2 title 'threshold 10 %: 1.1 and 1/1.1'"
          in part and "     0.909091 with lines" in part,
          f"ratio_01: no line at 1 or at the threshold\n{part}")
    check("4 plots of 4 base and 4 new runs in 'd'" in p.stdout,
          f"{p.cmd}: {p.stdout!r}")
    return "Hodges-Lehmann ratios, intervals, lines at 1 and the threshold"


def case_page(e):
    e.drawn("plot", "-o", "d", *e.base, "--", *e.new)
    page = open(e.path("d", "index.html")).read()
    rows = re.findall(r"<tr><td>(base|new)</td><td>([^<]*)</td>", page)
    def escaped(n):
        return n.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    want = [("base", escaped(n)) for n in e.base] + [("new", escaped(n)) for n in e.new]
    check(rows == want, f"index.html: groups {rows}, expected {want}")
    check("new<3>" not in page, "index.html: a file name not escaped")
    check('<table id="headlines">' in page and "base (median of 4 runs)" in page,
          "index.html: no headline numbers per group")
    for name in ("pt2pt_latency", "pt2pt_bandwidth", "collectives", "ratio_01"):
        check(f'<img src="{name}.svg"' in page, f"index.html does not show {name}")
    return "groups listed, escaped, plots shown"


def case_one_run(e):
    e.drawn("plot", "-o", "d", e.base[0], "--", e.new[0])
    gp = open(e.path("d", "plots.gp")).read()
    lat = section(gp, "IMB point-to-point: time")
    ent = entries(lat, "pt2pt_latency")
    check([x[6] for x in ent] == [f"base: {PP}", f"new: {PP}"] and
          all(x[2] == "linespoints" for x in ent), f"one run a side: {ent}")
    check("(1 run)" in lat and "(one run: none)" in lat, f"legend heading:\n{lat}")
    series = blocks(open(e.path("d", "pt2pt_latency.dat")).read())
    pts = series[f"base: {PP}"][1]
    check(all(close(q[1], value("base", 0, "PingPong", int(q[0]))) and q[2] == q[3] == q[1]
              and q[4] == 1 for q in pts), f"one run: {pts}")
    check(os.path.exists(e.path("d", "ratio_01.dat")), "one run a side: no ratio plot")
    return "no error bars, ratio plot"


def case_compare(e):
    # 4 runs a side: PingPong 1.3 and Allreduce 0.8 times apart, but no family can pass the
    # exit status's share of alpha (2/C(8,4) = 0.029 against 0.05/3/3) and OVERALL moved 1.3 %:
    # status 0, the plots drawn all the same.
    p = e.status(0, "compare", "--html", "c", *e.base, "--", *e.new)
    page = open(e.path("c", "index.html")).read()
    check('<table id="groups">' in page and '<table id="comparison">' in page and
          '<img src="ratio_01.svg"' in page, "compare --html of groups: page")
    gp = open(e.path("c", "plots.gp")).read()
    check([x[6] for x in entries(section(gp, "IMB point-to-point: time"), "pt2pt_latency")] ==
          [f"base: {PP}", f"new: {PP}"], "compare --html: not the group plots")
    plot = open(e.path("c", "ratio_01.dat")).read()
    e.drawn("plot", "-o", "d", *e.base, "--", *e.new)
    check(plot == open(e.path("d", "ratio_01.dat")).read(),
          "compare --html and plot draw different ratios")
    check("4 plots of 4 base and 4 new runs in 'c'" in p.stderr, f"{p.cmd}: {p.stderr!r}")
    # One run a side: the runs over each other, as before.
    e.status(0, "compare", "--html", "one", e.base[0], e.new[0])
    gp = open(e.path("one", "plots.gp")).read()
    check([x[6] for x in entries(section(gp, "IMB point-to-point: time"), "pt2pt_latency")] ==
          [f"{e.base[0]}: {PP}", f"{e.new[0]}: {PP}",
           f"ratio {e.new[0]} / {e.base[0]}: {PP}"] and "ratio_01" not in gp and
          not os.path.exists(e.path("one", "ratio_01.dat")),
          "compare --html with one run a side changed")
    return "group plots with the comparison; one run a side as before"


def case_bad(e):
    write_run(e.path("other.jsonl"), "other", "base", 0,
              settings={"-iter": "50,2", "-off_cache": "off"})
    before = sorted(os.listdir(e.cwd))
    for args, msg in (
            (("--", e.new[0]), "no base run before '--'"),
            ((e.base[0], "--"), "no new run after '--'"),
            ((e.base[0], "--", e.new[0], "--", e.new[1]), "'--' is given twice"),
            (("--",), "no base run before '--'"),
            ((e.base[0], "other.jsonl", "--", *e.new),
             "the base runs differ: 'base-1.jsonl' ran IMB-MPI1 with -iter '50,20', "
             "'other.jsonl' with '50,2'"),
            ((*e.base, "--", e.new[0], e.new[0]), "'new-1.jsonl' is given twice among the new")):
        p = e.status(2, "plot", "-o", "d", *args)
        check(p.stderr.startswith("mpibench plot: error: ") and msg in p.stderr and
              p.stderr.count("\n") == 1 and p.stdout == "", f"{p.cmd}: {p.stderr!r}")
    check(sorted(os.listdir(e.cwd)) == before, "a refused plot left files behind")
    return "6 refusals, nothing written"


def case_runs(e):
    e.drawn("plot", "-o", "d", e.base[0], e.new[0])
    gp = open(e.path("d", "plots.gp")).read()
    ent = entries(section(gp, "IMB point-to-point: time"), "pt2pt_latency")
    # One benchmark: one colour and shape; the runs: solid and open, dashed and filled; the
    # ratio of the second run over the first under it (a ratio panel, not a ratio plot).
    check([x[6] for x in ent] == [f"{e.base[0]}: {PP}", f"{e.new[0]}: {PP}",
                                  f"ratio {e.new[0]} / {e.base[0]}: {PP}"] and
          [x[5] for x in ent] == ["", " dt 2", " dt 2"] and len({x[3] for x in ent}) == 1 and
          [int(x[4]) for x in ent][:2] == [4, 5], f"plot A B: entries {ent}")
    check("key title" not in gp and
          not any(f.startswith("ratio_") for f in os.listdir(e.path("d"))),
          "plot A B drew ratio plots or a group legend")
    series = blocks(open(e.path("d", "pt2pt_latency.dat")).read())
    check(all(len(q) == (2 if t.startswith("ratio ") else 4) for t, s in series.items()
              for q in s[1]), "plot A B: not x y low high (the within-run interval)")
    # A directory of group plots replaced with --force: no stale ratio plot stays.
    e.drawn("plot", "-o", "g", *e.base, "--", *e.new)
    e.drawn("plot", "-o", "g", "--force", e.base[0], e.new[0])
    left = [f for f in os.listdir(e.path("g")) if f.startswith("ratio_")]
    check(left == [], f"--force left {left}")
    return "runs over each other as before; --force replaces ratio plots"


CASES = {"groups": case_groups, "ratio": case_ratio, "page": case_page, "one_run": case_one_run,
         "compare": case_compare, "bad": case_bad, "runs": case_runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--bindir", required=True)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mb-plot-groups-") as cwd:
        try:
            what = CASES[opts.case](Env(opts, cwd))
        except Failed as e:
            print(f"FAILED: plot_groups.{opts.case}: {e}")
            return 1
    print(f"ok: plot_groups.{opts.case}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
