#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that `mpibench plot` draws everything a real run measured, and how it draws two runs.

Runs under MPIEXEC -np N (N >= 3): IMB-MPI1 PingPong PingPing Sendrecv Exchange Bcast Allreduce
Barrier (-npmin 2: several process counts), twice (runs A and B), and b_eff once with A. Then
`mpibench plot A` and `mpibench plot A B`, and checks the .dat files and plots.gp they write
(and the SVG where gnuplot drew it):

  every    every benchmark, mode and process count of an "ok" IMB row has a series: a
           point-to-point one on pt2pt_latency and pt2pt_bandwidth, a collective with sizes on
           collectives, Barrier (no size) on collectives_no_data with a point per process count;
  lines    collectives: a panel per benchmark, in it one series per process count it ran on,
           and a process count has one colour and marker in every panel;
  beff     b_eff: a panel for b_eff and the averages and one per additional pattern, each with
           one series and b_eff drawn in it as a thin line;
  caption  each image's caption: host count, MPI library, date and CPU model of the header
           (plots.gp, .dat, and the SVG's text);
  runs     plot A B: a series of A and its series of B share colour and marker shape, differ in
           dash type and fill; under each panel a ratio panel whose points are y_B / y_A.

Usage: plots_check.py --mpiexec CMD --np N --bin MPIBENCH
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mbcheck import Failure, check, fail  # noqa: E402

IMB = ["PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allreduce", "Barrier",
       "-npmin", "2", "-iter", "20", "-msglog", "0:12", "-time", "0.02"]
BEFF = ["--random", "2", "--repetitions", "1", "--memory", "2"]


def run(opts, cwd, args, json_file):
    cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] + args +
           ["--json", json_file])
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail(f"{shlex.join(cmd)}: status {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return [json.loads(l) for l in open(os.path.join(cwd, json_file)) if l.strip()]


def plot(opts, cwd, out, *files):
    p = subprocess.run([os.path.abspath(opts.bin), "plot", "-o", out] + list(files), cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    want = 0 if shutil.which("gnuplot") else 1
    check(p.returncode == want, f"plot {files}: status {p.returncode}\n{p.stderr}")
    return os.path.join(cwd, out)


def blocks(path):
    """A .dat file's series in index order: [(title, panel, [[x, y, ...], ...])]."""
    out = []
    for para in open(path).read().split("\n\n\n"):
        lines = [l for l in para.splitlines() if l]
        comments = [l[2:] for l in lines if l.startswith("# ")]
        pts = [[float(v) for v in l.split()] for l in lines if not l.startswith("#")]
        if not pts:
            continue
        # The series' comments come right before its points: its title, then what the columns
        # are ("x ...") and its panel; the file's own lines stand before the first series'.
        panel = next((c[len("panel: "):] for c in comments if c.startswith("panel: ")), "")
        title = [c for c in comments if not c.startswith(("x ", "panel: "))][-1]
        out.append((title, panel, pts))
    return out


def elements(gp, name):
    """plots.gp's plot elements of NAME (its PNG pass): [(index, how, colour, pt, dt, title)]."""
    part = gp[gp.index(f"set output '{name}.png'"):]
    part = part[:part.index("set output\n")]
    return [(int(i), how, c, int(pt) if pt else None, dt, t) for i, how, c, pt, dt, t in
            re.findall(r"'" + re.escape(name) + r"\.dat' index (\d+) using .+? with (\w+) "
                       r"lc rgb '(#[0-9a-f]{6})'(?: pt (\d+))?( dt (?:\d+|\([0-9,]+\)))? "
                       r"title '([^']*)'", part)]


def name_of(r):
    mode = f" {r['mode']}" if r.get("mode") else ""
    return f"{r['suite']} {r['benchmark']}{mode}"


def ok_rows(recs):
    return [r for r in recs if r.get("type") == "result" and r.get("status") == "ok" and
            not isinstance(r.get("group"), int)]


def case_every(opts, d, a):
    seen = {}
    for page in ("pt2pt_latency", "pt2pt_bandwidth", "collectives", "collectives_no_data"):
        seen[page] = {t: (pn, pts) for t, pn, pts in blocks(os.path.join(d, page + ".dat"))}
    benches = set()
    for r in ok_rows(a):
        benches.add(r["benchmark"])
        procs = f", {r['processes']} procs"
        if r["bytes"] is None:
            pts = seen["collectives_no_data"].get(name_of(r), (None, []))[1]
            check(any(p[0] == r["processes"] for p in pts),
                  f"{name_of(r)}{procs}: no point at {r['processes']} processes: {pts}")
            continue
        pages = (["pt2pt_latency", "pt2pt_bandwidth"] if r["class"] in ("single", "parallel")
                 else ["collectives"])
        for page in pages:
            check(name_of(r) + procs in seen[page],
                  f"{page}.dat has no series '{name_of(r)}{procs}': {sorted(seen[page])}")
            pts = seen[page][name_of(r) + procs][1]
            # A bandwidth of 0 (0 bytes) has no place on a logarithmic axis.
            check(any(p[0] == r["bytes"] for p in pts) or
                  (page == "pt2pt_bandwidth" and not r["mib_per_sec"]),
                  f"{page}.dat '{name_of(r)}{procs}' lacks {r['bytes']} bytes")
    check(benches == {"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allreduce",
                      "Barrier"}, f"the run measured {sorted(benches)}")
    return f"{len(ok_rows(a))} rows of {len(benches)} benchmarks each in a series"


def case_lines(opts, d, a):
    counts = {}
    for r in ok_rows(a):
        if r["class"] == "collective" and r["bytes"] is not None:
            counts.setdefault(name_of(r), set()).add(r["processes"])
    check(all(len(c) >= 2 for c in counts.values()), f"too few process counts ran: {counts}")
    got = {}
    for t, panel, _ in blocks(os.path.join(d, "collectives.dat")):
        m = re.fullmatch(r"(.+), (\d+) procs", t)
        check(m and m.group(1) == panel, f"collectives.dat: series '{t}' in panel '{panel}'")
        got.setdefault(panel, set()).add(int(m.group(2)))
    check(got == counts, f"collectives: panels and lines {got}, the run {counts}")
    gp = open(os.path.join(d, "plots.gp")).read()
    style = {}
    for i, how, c, pt, dt, t in elements(gp, "collectives"):
        key = t.rsplit(", ", 1)[1]
        check(style.setdefault(key, (c, pt)) == (c, pt) and dt == "",
              f"collectives: '{t}' not in the style of {key}: {(c, pt, dt)} vs {style[key]}")
    check(len({s for s in style.values()}) == len(style), f"two process counts alike: {style}")
    panels = re.findall(r"^# panel \d+: (.*)$", gp[gp.index("set output 'collectives.png'"):
                                                 gp.index("set output 'collectives.svg'")], re.M)
    check(sorted(panels) == sorted(counts), f"collectives: panels in plots.gp {panels}")
    return f"{len(counts)} panels, lines per process count {sorted(next(iter(got.values())))}"


def case_beff(opts, d, a):
    patterns = {r["pattern"]: r for r in a if r.get("type") == "beff_pattern"}
    info = {r["label"] for r in patterns.values() if r["role"] == "info"}
    series = blocks(os.path.join(d, "beff.dat"))
    panels = {}
    for t, panel, _ in series:
        panels.setdefault(panel, []).append(t)
    first = "b_eff and the ring and random averages"
    check(panels.get(first) == ["rings (average)", "random (average)", "b_eff"],
          f"beff: the averages' panel {panels.get(first)}")
    check(set(panels) - {first} == info and all(v == [k] for k, v in panels.items() if k != first),
          f"beff: pattern panels {sorted(panels)}, additional patterns {sorted(info)}")
    gp = open(os.path.join(d, "plots.gp")).read()
    ref = [e for e in elements(gp, "beff") if e[1] == "lines" and e[5] == "b_eff"]
    check(len(ref) == len(info), f"beff: b_eff drawn in {len(ref)} of {len(info)} pattern panels")
    return f"{len(panels)} panels of at most 3 series, b_eff in each"


def provenance(recs):
    h = next(r for r in recs if r.get("type") == "header")
    mpi = re.sub(r"\s+", " ", h["mpi_library"].splitlines()[0].split(",")[0]).strip()
    cpus = {x["cpu_model"] for x in h.get("hardware") or [] if x.get("cpu_model")}
    return [f"{h['hosts']} host{'s' if h['hosts'] != 1 else ''}", mpi, h["date"]] + sorted(cpus)


def svg_text(path):
    root = ET.parse(path).getroot()
    return " ".join("".join(t.itertext()) for t in root.iter() if t.tag.endswith("text"))


def case_caption(opts, d, a):
    want = provenance(a)
    gp = open(os.path.join(d, "plots.gp")).read()
    names = re.findall(r"^set output '(\w+)\.png'", gp, re.M)
    check(len(names) >= 4, f"plots.gp draws {names}")
    for name in names:
        part = gp[gp.index(f"set output '{name}.png'"):]
        part = part[:part.index("set output\n")]
        label = re.findall(r"^set label 1 '([^']*)' at screen", part, re.M)
        check(label and all(w in label[0] for w in want),
              f"{name}: caption {label}, wanted {want}")
        dat = open(os.path.join(d, name + ".dat")).read()
        check(f"# {label[0]}\n" in dat, f"{name}.dat lacks the caption")
        if shutil.which("gnuplot"):
            text = svg_text(os.path.join(d, name + ".svg"))
            check(all(w in text for w in want), f"{name}.svg: caption not in {text[-400:]!r}")
    return f"{len(names)} images say {', '.join(want)}"


def case_runs(opts, d2, a, b):
    total = 0
    gp = open(os.path.join(d2, "plots.gp")).read()
    for page in ("pt2pt_latency", "collectives", "collectives_no_data"):
        ser = blocks(os.path.join(d2, page + ".dat"))
        el = {e[0]: e for e in elements(gp, page)}
        by = {t: (i, pts) for i, (t, _, pts) in enumerate(ser)}
        pairs = 0
        for t, (i, pts) in by.items():
            if not t.startswith("A.jsonl: "):
                continue
            name = t[len("A.jsonl: "):]
            check("B.jsonl: " + name in by, f"{page}: '{name}' of A has no series of B")
            j, bpts = by["B.jsonl: " + name]
            ea, eb = el[i], el[j]
            check(ea[2] == eb[2] and ea[3] + 1 == eb[3] and ea[3] % 2 == 0 and ea[4] == "" and
                  eb[4] == " dt 2", f"{page} '{name}': A {ea}, B {eb}: not one colour and "
                  "shape, solid open against dashed filled")
            rt = f"ratio B.jsonl / A.jsonl: {name}"
            check(rt in by, f"{page}: no ratio series '{rt}'")
            k, rpts = by[rt]
            ya = {p[0]: p[1] for p in pts}
            yb = {p[0]: p[1] for p in bpts}
            check([p[0] for p in rpts] == sorted(set(ya) & set(yb)) and
                  all(abs(p[1] - yb[p[0]] / ya[p[0]]) <= 1e-9 * p[1] for p in rpts),
                  f"{page} '{rt}': {rpts} is not B over A")
            check(el[k][2] == ea[2] and el[k][4] == " dt 2", f"{page} '{rt}': style {el[k]}")
            pairs += 1
        check(pairs > 0, f"{page}: no series of both runs")
        total += pairs
        part = gp[gp.index(f"set output '{page}.png'"):gp.index(f"set output '{page}.svg'")]
        check(part.count("set ylabel 'ratio'") == part.count("# panel "),
              f"{page}: not a ratio panel under every panel")
        labels = re.findall(r"^set label \d+ '([^']*)'", part, re.M)
        check(len(labels) == 2 and labels[0].startswith("A.jsonl: ") and
              labels[1].startswith("B.jsonl: ") and
              all(w in labels[0] for w in provenance(a)) and
              all(w in labels[1] for w in provenance(b)), f"{page}: captions {labels}")
    return f"{total} series pairs share colours, differ in dash, ratios B/A"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mb-plots-") as cwd:
        try:
            a = run(opts, cwd, ["imb-mpi1"] + IMB, "imb-a.jsonl")
            a_beff = run(opts, cwd, ["beff"] + BEFF, "beff-a.jsonl")
            b = run(opts, cwd, ["imb-mpi1"] + IMB, "B.jsonl")
            with open(os.path.join(cwd, "A.jsonl"), "w") as f:
                for name in ("imb-a.jsonl", "beff-a.jsonl"):
                    f.write(open(os.path.join(cwd, name)).read())
            a += a_beff
            d = plot(opts, cwd, "one", "A.jsonl")
            d2 = plot(opts, cwd, "two", "A.jsonl", "B.jsonl")
            what = [case_every(opts, d, a), case_lines(opts, d, a), case_beff(opts, d, a),
                    case_caption(opts, d, a), case_runs(opts, d2, a, b)]
        except Failure as e:
            print(f"FAILED: {e}")
            return 1
        print("ok: " + "; ".join(what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
