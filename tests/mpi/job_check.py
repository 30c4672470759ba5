#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check the main job, `mpibench run`, and the tools that read its results.

Runs `mpiexec -np N mpibench run ARGS --output-dir mpibench-results --progress 1` in a new
temporary directory, into an empty mpibench-results/ made beforehand (used as named), and
checks: a line per phase (phase i/9; the map skipped on one host; Presta's phases skipped on an odd number of processes,
IMB-EXT on one, said so) with the plan's estimates (all that is left = the sum of the phases' own); progress
lines on stderr during every phase that took longer than 2.5 s; summary.txt with each phase's
seconds and estimate;
mpibench-results/ with run.txt equal to stdout, results.jsonl valid against the schema (every
line of every phase's PROG.jsonl in it, one job_phase per phase, a job_result whose headline
numbers are those of the suites' own records and of summary.txt), each phase's text and JSON,
summary.txt ending with the five headline numbers, valid PNG and SVG plots, an index.html
(checked with Python's HTML parser and, when installed, tidy and a headless Chromium) whose
images all exist and that loads nothing from the network; the scratch directory removed,
nothing else in the working directory.

With --second also: --output-dir mpibench-results/ (now not empty) is refused with status 2
and changes nothing; a second run without --output-dir goes to a new
mpibench-results-<timestamp>/ and leaves the
first directory as it was; `mpibench compare` of the two runs (verdicts consistent with the
exit status: these machines are too noisy to expect no change), of a run with itself (exit 0,
every ratio 1), of the first run against a copy with one PingPong
latency doubled (exit 1, that row first and REGRESSED), of files with nothing in common and
of a file that is not JSON Lines (exit 2, named); `mpibench plot` on each phase's JSON file.
With --tools instead: the same checks of compare and plot on the one run.

Usage: job_check.py --mpiexec CMD --np N --bin MPIBENCH --schema FILE [--second|--tools] -- ARGS
"""
import argparse
import hashlib
import html.parser
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mbcheck import Failure, check, fail, load_jsonl  # noqa: E402

PHASES = ["com", "laten", "levels", "IMB-MPI1", "IMB-EXT", "IMB-NBC", "map", "b_eff", "b_eff_io",
          "IMB-IO"]
HEADLINES = ["b_eff", "b_eff_io", "PingPong latency", "PingPong bandwidth",
             "Allreduce 8 B latency", "Latency, one socket", "Bandwidth, one socket",
             "Latency, two sockets", "Bandwidth, two sockets", "Latency, two hosts",
             "Bandwidth, two hosts"]
LEVELS = {"socket": ("Latency, one socket", "Bandwidth, one socket"),
          "sockets": ("Latency, two sockets", "Bandwidth, two sockets"),
          "hosts": ("Latency, two hosts", "Bandwidth, two hosts")}
# Which plots `mpibench plot` draws from each suite's own JSON file.
PLOTS = {"com": {"presta_bandwidth"}, "laten": set(),
         "IMB-MPI1": {"pt2pt_latency", "pt2pt_bandwidth", "collectives", "collectives_no_data"},
         "IMB-EXT": {"pt2pt_latency", "pt2pt_bandwidth"}, "b_eff": {"beff"},
         "IMB-NBC": {"collectives", "nbc_overlap"},
         "b_eff_io": {"beffio_write", "beffio_rewrite", "beffio_read"},
         "IMB-IO": {"imb_io_bandwidth"}, "map": set(), "levels": set()}


def run_job(opts, cwd, extra=(), status=0):
    cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin), "run"] +
           opts.args + list(extra))
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    if proc.returncode != status:
        fail(f"exit status {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}\n"
             f"--- stderr\n{proc.stderr[-3000:]}\ncommand: {shlex.join(cmd)}")
    return proc


def check_png(path):
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR",
          f"{path} is not a PNG file")
    w, h = struct.unpack(">II", head[16:24])
    check(w > 100 and h > 100, f"{path}: image of {w}x{h} pixels")


def check_svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path} is not well-formed XML: {e}")
    check(root.tag.endswith("svg"), f"{path}: root element {root.tag}, not svg")
    check(len(list(root.iter())) > 20, f"{path}: an almost empty drawing")


class Page(html.parser.HTMLParser):
    """What the checks need of index.html: images, links, scripts, table cells by table id."""

    def __init__(self):
        super().__init__()
        self.images, self.links, self.scripts, self.tables = [], [], 0, {}
        self._table, self._row, self._cell = None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a.get("src", ""))
        elif tag in ("a", "link"):
            self.links.append(a.get("href", ""))
        elif tag == "script":
            self.scripts += 1
        elif tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._row = []
            self.tables[self._table].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def check_html(path, summary_numbers):
    text = open(path).read()
    page = Page()
    page.feed(text)
    check(text.startswith("<!DOCTYPE html>"), "index.html: no <!DOCTYPE html>")
    check(page.scripts == 0, "index.html has scripts")
    check(not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text),
          "index.html loads something from the network")
    base = os.path.dirname(path)
    check(page.images, "index.html shows no plot")
    for src in page.images + [h for h in page.links if h]:
        check(os.path.isfile(os.path.join(base, src)), f"index.html refers to missing '{src}'")
    rows = page.tables.get("headlines", [])[1:]
    check([r[0] for r in rows] == HEADLINES, f"index.html headline rows {rows}")
    for r in rows:
        want = summary_numbers.get(r[0])
        check((r[1] == "-") == (want is None) and (want is None or float(r[1]) == want),
              f"index.html says {r[0]} = {r[1]}, summary.txt {want}")
    check(len(page.tables.get("phases", [])) == len(PHASES) + 1, "index.html: phases table")
    tidy = shutil.which("tidy")
    if tidy:  # an HTML validator: errors (not warnings) fail
        t = subprocess.run([tidy, "-errors", "-quiet", path], capture_output=True, text=True)
        check(t.returncode < 2, f"tidy finds errors in index.html:\n{t.stderr}")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser:  # a real browser loads the page and renders its images
        b = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--dump-dom", "file://" + os.path.abspath(path)],
                           capture_output=True, text=True, timeout=120)
        check(b.returncode == 0 and "Headline numbers" in b.stdout,
              f"headless {browser} did not load index.html: {b.stderr[-500:]}")
    return " ".join(n for n, ok in (("parser", 1), ("tidy", tidy), ("chromium", browser)) if ok)


def check_beffio_axis(plots):
    """b_eff_io's plots use the paper's pseudo-logarithmic chunk axis (1k, +8, 32k, +8, 1M,
    +8, L_max at b_eff_io's plot positions), one point per place and pattern type."""
    script = open(os.path.join(plots, "plots.gp")).read()
    check(re.search(r"set xtics \('1k' 1, '\+8' 2, '32k' 4, '\+8' 5, '1M' 7, '\+8' 8, "
                    r"'[0-9.]+M' 10\)", script), "plots.gp: no pseudo-logarithmic chunk axis")
    for access in ("write", "rewrite", "read"):
        series = open(os.path.join(plots, f"beffio_{access}.dat")).read().split("\n\n\n")
        for block in filter(str.strip, series):
            xs = [float(l.split()[0]) for l in block.splitlines() if l and l[0] != "#"]
            check(xs and xs == sorted(set(xs)) and set(xs) <= {1, 2, 4, 5, 7, 8, 10},
                  f"beffio_{access}.dat: positions {xs}")


def summary_headlines(text):
    """The headline block at the end of summary.txt: label -> value (None: not measured)."""
    tail = text.split("Headline numbers:\n")
    check(len(tail) == 2, "summary.txt has no 'Headline numbers:' block")
    lines = tail[1].rstrip("\n").split("\n")
    check(len(lines) == len(HEADLINES), f"summary.txt ends with {len(lines)} headline lines")
    out = {}
    for label, line in zip(HEADLINES, lines):
        m = re.match(r"  (.{22}) +(\S+) ", line)
        check(m and m.group(1).strip() == label, f"summary.txt line {line!r}, expected {label}")
        out[label] = None if m.group(2) == "-" else float(m.group(2))
    return out


IO_PHASES = ("b_eff_io", "IMB-IO")


def ran_on(np, no_io=False):
    """The phases that run on np processes of one host: Presta's need pairs (an even count),
    IMB-EXT's Unidir two processes (on one it would measure nothing), the map two hosts (the
    multi-host tier runs it); no_io (the SimGrid SMPI build): not the MPI-IO phases."""
    return [p for p in PHASES if p != "map" and not (p in ("com", "laten") and np % 2 == 1) and
            not (p in ("IMB-EXT", "levels") and np == 1) and not (no_io and p in IO_PHASES)]


def seconds(clock):
    m, s = clock.split(":")
    return 60 * int(m) + int(s)


def check_run(opts, cwd, proc, outdir, progress=None):
    out = os.path.join(cwd, outdir)
    odd = opts.np % 2 == 1
    # One line per phase, in order, with the plan's estimates: the phase's own, and all that is
    # left - the sum of the estimates of the phases not yet run, never a projection of how fast
    # the earlier phases went. --no-io (the SimGrid SMPI build): the MPI-IO phases are listed as
    # skipped.
    estimates = {}
    for i, prog in enumerate(PHASES):
        m = re.search(rf"^\[{i + 1}/{len(PHASES)}\] (.*)$", proc.stdout, re.M)
        check(m, f"no progress line for phase {i + 1}/{len(PHASES)} ({prog})")
        no_io = opts.no_io and prog in IO_PHASES
        skipped = prog not in ran_on(opts.np, opts.no_io)
        one_host = prog == "map"
        check(("skipped, needs " in m.group(1)) == (skipped and not no_io and not one_host),
              f"phase {prog}: {m.group(1)}")
        check(("skipped, the job runs on one host (a map needs two)" in m.group(1)) == one_host,
              f"phase {prog}: {m.group(1)}")
        check(("skipped, MPI-IO is not simulated" in m.group(1)) == no_io,
              f"phase {prog}: {m.group(1)}")
        if not skipped:
            t = re.search(r"\(elapsed \d+:\d\d; this phase about (\d+:\d\d), all left about "
                          r"(\d+:\d\d)\)$", m.group(1))
            check(t, f"phase {prog}: no elapsed time and estimates: {m.group(1)}")
            estimates[prog] = (seconds(t.group(1)), seconds(t.group(2)))
    ran_est = list(estimates.values())
    for k, (_, left) in enumerate(ran_est):
        plan = sum(e for e, _ in ran_est[k:])
        check(abs(left - plan) <= len(ran_est) - k,
              f"{list(estimates)[k]}: 'all left about {left} s', the plan says {plan} s")
    check(open(os.path.join(out, "run.txt")).read() == proc.stdout, "run.txt differs from stdout")
    ran = ran_on(opts.np, opts.no_io)
    # summary.txt: each phase's seconds beside the plan's estimate.
    summary = open(os.path.join(out, "summary.txt")).read()
    for i, p in enumerate(PHASES):
        row = re.search(rf"^# {i + 1}/{len(PHASES)} .* (ok|skipped) +(\S+) +(\S+)$", summary, re.M)
        check(row and (row.group(3) == "-") == (p not in ran),
              f"summary.txt: phase {p} has no seconds and estimate: {row and row.group(0)}")
    for p in ran:
        for ext in ("txt", "jsonl"):
            f = os.path.join(out, f"{p}.{ext}")
            check(os.path.isfile(f) and os.path.getsize(f) > 0, f"{outdir}/{p}.{ext} missing")
    for p in set(PHASES) - set(ran):
        check(not os.path.exists(os.path.join(out, f"{p}.txt")), f"skipped {p} left a file")
    # One process, one MPI initialisation: every phase says the job's thread level (plain
    # MPI_Init by default), not the level its original program would have asked for.
    for p in ran:
        text = open(os.path.join(out, f"{p}.txt")).read()
        check(re.search(r"^#   --thread-level +: single \(MPI_Init\)$", text, re.M),
              f"{p}.txt does not say the job's thread level (single, MPI_Init)")
        check("MPI_THREAD_MULTIPLE" not in text, f"{p}.txt names MPI_THREAD_MULTIPLE")
    check(not os.path.exists(os.path.join(out, "io-scratch")), "io-scratch left behind")

    recs = load_jsonl(os.path.join(out, "results.jsonl"), opts.schema)
    lines = open(os.path.join(out, "results.jsonl")).read().splitlines()
    for p in ran:  # every record of every phase, unchanged
        mine = open(os.path.join(out, f"{p}.jsonl")).read().splitlines()
        start = lines.index(mine[0])
        check(lines[start:start + len(mine)] == mine, f"results.jsonl lacks {p}.jsonl's records")
    phases = [r for r in recs if r["type"] == "job_phase"]
    check([r["program"] for r in phases] == PHASES, f"job_phase records {phases}")
    if progress:
        # --progress N: a phase that ran longer than a few intervals wrote lines to stderr
        # naming it and what it was measuring.
        for i, r in enumerate(phases):
            if r["skipped"] is None and r["elapsed_sec"] >= 2.5 * progress:
                check(re.search(rf"^\[{i + 1}/{len(PHASES)}\] {re.escape(r['program'])}: \d+:\d\d in the "
                                r"phase, now: \S", proc.stderr, re.M),
                      f"no progress line on stderr during {r['program']} "
                      f"({r['elapsed_sec']:.1f} s, --progress {progress}):\n{proc.stderr[-2000:]}")
    for r in phases:
        check((r["skipped"] is None) == (r["program"] in ran) and
              (r["exit_status"] == 0 or r["skipped"]), f"job_phase {r}")
    result = [r for r in recs if r["type"] == "job_result"]
    check(len(result) == 1, "not one job_result record")
    result = result[0]

    # The headline numbers: summary.txt, job_result and the suites' own records agree.
    summary = open(os.path.join(out, "summary.txt")).read()
    nums = summary_headlines(summary)
    check(re.match(r"# Date +: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*\n# Run id +: (\S+)\n# mpibench ",
                   summary) and re.search(rf"^# Processes +: {opts.np} on \d+ hosts?", summary, re.M),
          "summary.txt: date, run id, provenance or process count missing")
    run_id = re.match(r"# Date.*\n# Run id +: (\S+)", summary).group(1)
    check(run_id == result["run_id"], f"summary.txt's run id {run_id}, the records' {result['run_id']}")
    beff = [r for r in recs if r["type"] == "beff_result"]
    bio = [r for r in recs if r["type"] == "beffio_result"]
    pp = [r for r in recs if r["type"] == "result" and r["suite"] == "IMB-MPI1" and
          r["benchmark"] == "PingPong" and r["status"] == "ok"]
    ar = [r for r in recs if r["type"] == "result" and r["suite"] == "IMB-MPI1" and
          r["benchmark"] == "Allreduce" and r["status"] == "ok" and r["bytes"] == 8]
    expect = {
        "b_eff": (beff[0]["b_eff_mb_per_sec"] if beff else None, "b_eff_mb_per_sec"),
        "b_eff_io": (bio[0]["b_eff_io_mb_per_sec"] if bio else None,
                     "b_eff_io_mb_per_sec"),
        "PingPong latency": (min(pp, key=lambda r: r["bytes"])["t_avg_usec"] if pp else None,
                             "pingpong_latency_usec"),
        "PingPong bandwidth": (max(r["mib_per_sec"] for r in pp) if pp else None,
                               "pingpong_mib_per_sec"),
        "Allreduce 8 B latency": (max(ar, key=lambda r: r["processes"])["t_avg_usec"]
                                  if ar else None, "allreduce_8_bytes_usec"),
    }
    # levels: one record per level; a level the job lacks (one host: sockets on this machine's
    # one package, hosts) has null figures and a null headline.
    lv = {r["level"]: r for r in recs if r["type"] == "level_pair"}
    check(sorted(lv) == (sorted(LEVELS) if opts.np > 1 else []), f"level_pair records {sorted(lv)}")
    for level, (lat, bw) in LEVELS.items():
        r = lv.get(level)
        key = "hosts" if level == "hosts" else level
        expect[lat] = (r["latency_usec"] if r else None, f"level_{key}_latency_usec")
        expect[bw] = (r["a_to_b_mib_per_sec"] if r else None, f"level_{key}_mib_per_sec")
        if r and not r["present"]:  # the headline says why, as the record does
            for label in (lat, bw):
                line = next(x for x in summary.splitlines() if x.startswith(f"  {label} "))
                check(line.endswith(f"(not present: {r['why']})"), f"summary.txt: {line!r}")
    if opts.np > 1:
        check(lv["hosts"]["present"] is False and lv["hosts"]["why"] == "the job runs on one host",
              f"levels across hosts on one host: {lv['hosts']}")
        check(lv["socket"]["present"] is (opts.np > 1), f"levels within a socket: {lv['socket']}")
    for label, (value, key) in expect.items():
        check(result[key] == value, f"job_result {key} = {result[key]}, the records say {value}")
        check((nums[label] is None) == (value is None) and
              (value is None or abs(nums[label] - value) <= 0.005 + 1e-9 * abs(value)),
              f"summary.txt {label} = {nums[label]}, the records say {value}")
        check(value is None or (value > 0 and value == value), f"{label} = {value}")
    check(nums["b_eff"] is not None, "b_eff missing")
    check((nums["b_eff_io"] is None) == opts.no_io, f"b_eff_io headline {nums['b_eff_io']}")
    check((nums["PingPong latency"] is None) == (opts.np == 1), "PingPong headline")
    # On one process b_eff's messages and Allreduce stay in the process: the headlines say so.
    for label, caveat in (("b_eff", "one process: messages to itself, no network"),
                          ("Allreduce 8 B latency", "one process: a local copy")):
        line = next(l for l in summary.splitlines() if l.startswith(f"  {label} "))
        check((caveat in line) == (opts.np == 1), f"summary.txt: {line!r}")

    plots = sorted(os.listdir(os.path.join(out, "plots")))
    drawn = {f[:-4] for f in plots if f.endswith(".svg")}
    want = {"pt2pt_latency", "pt2pt_bandwidth", "collectives", "collectives_no_data",
            "nbc_overlap", "beff",
            "beffio_write", "beffio_rewrite", "beffio_read", "imb_io_bandwidth"} | (
                set() if odd else {"presta_bandwidth"})
    if opts.np == 1:  # no pairs: PingPong and Unidir are skipped
        want -= {"pt2pt_latency", "pt2pt_bandwidth"}
    if opts.no_io:
        want -= {"beffio_write", "beffio_rewrite", "beffio_read", "imb_io_bandwidth"}
    check(want <= drawn, f"plots missing: {sorted(want - drawn)} (drawn: {sorted(drawn)})")
    check(result["plots"] == "drawn", f"job_result plots = {result['plots']}")
    for name in drawn:
        check_png(os.path.join(out, "plots", name + ".png"))
        check_svg(os.path.join(out, "plots", name + ".svg"))
    if not opts.no_io:
        check_beffio_axis(os.path.join(out, "plots"))
    how = check_html(os.path.join(out, "index.html"), nums)
    return recs, f"{len(recs)} records, {len(drawn)} plots, html checked {how}"


def tool(opts, cwd, *args):
    return subprocess.run([os.path.abspath(opts.bin)] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def tree_digest(path):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(path)):
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(p.encode() + open(p, "rb").read())
    return h.hexdigest()


def check_second(opts, cwd, first_recs):
    before = tree_digest(os.path.join(cwd, "mpibench-results"))
    # A --output-dir that holds anything is refused, never replaced by another name.
    proc = run_job(opts, cwd, ["--output-dir", "mpibench-results/"], status=2)
    check(sorted(os.listdir(cwd)) == ["mpibench-results"] and
          "invalid value 'mpibench-results/' for --output-dir: the directory exists and is not "
          "empty" in proc.stderr, f"a used --output-dir: {sorted(os.listdir(cwd))} {proc.stderr}")
    # Without --output-dir: a new directory beside the first.
    proc = run_job(opts, cwd)
    new = [d for d in os.listdir(cwd) if d != "mpibench-results"]
    check(len(new) == 1 and re.fullmatch(r"mpibench-results-\d{8}-\d{6}(-\d+)?", new[0]),
          f"second run's directory: {new}")
    check(tree_digest(os.path.join(cwd, "mpibench-results")) == before,
          "the second run changed the first run's directory")
    check_run(opts, cwd, proc, new[0])
    return check_tools(opts, cwd, "mpibench-results/results.jsonl", f"{new[0]}/results.jsonl")


def check_tools(opts, cwd, a, b):
    """compare and plot on the results a and b (b may be a itself)."""
    # Two real runs: timings on a shared 2-core machine can differ by 1000x, so the verdicts
    # are checked for consistency, not expected to be "no change": the exit status is 1 exactly
    # when a family or the overall is regressed, and only rows and families worse than the
    # threshold are.
    def rows_of(c):
        recs = [json.loads(l) for l in c.stdout.splitlines()]
        check(recs and recs[-1]["type"] == "compare_summary", f"compare --json -: {c.stdout[-300:]}")
        return ([r for r in recs if r["type"] == "compare_row"], recs[-1],
                [r for r in recs if r["type"] in ("compare_family", "compare_overall")])

    c = tool(opts, cwd, "compare", "--threshold", "50", "--json", "-", a, b)
    check(c.returncode in (0, 1), f"compare of two runs: status {c.returncode}\n{c.stderr}")
    rows, s, fams = rows_of(c)
    check(s["compared"] > 50 and s["form"] == "one_run_a_side" and s["families"] >= 10,
          f"compare of two runs: {s}")
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    check(ratios == sorted(ratios, reverse=True), "compare: rows not worst first")
    regressed = [r for r in rows + fams if r["verdict"] == "regressed"]
    check((c.returncode == 1) == any(r["type"] != "compare_row" for r in regressed) and
          all(r["ratio"] > 1.5 for r in regressed),
          f"compare of two runs: status {c.returncode}, regressed {regressed[:3]}")
    # A run against itself: every ratio 1, nothing regressed, status 0, no row shown.
    c = tool(opts, cwd, "compare", "--json", "-", a, a)
    rows, s2, fams = rows_of(c)
    check(c.returncode == 0 and s2["compared"] == len(rows) >= s["compared"] and
          all(r["ratio"] == 1 and r["verdict"] == "unchanged" for r in rows + fams),
          f"compare of a run with itself: status {c.returncode}\n{c.stdout[:800]}")
    c = tool(opts, cwd, "compare", a, a)
    shown_rows = c.stdout[:c.stdout.index("# families:")]
    check(c.returncode == 0 and [l for l in shown_rows.splitlines() if not l.startswith("#")][1:]
          == [], f"compare of a run with itself shows rows: {c.stdout[:800]}")

    # Presta rows show what the program prints: laten's latency and com's op time per
    # operation, not the time of a whole measurement (laten.txt: 1.658 us, not 331.6).
    shown = {r["measurement"]: r["base"]["value"] for r in rows
             if r["measurement"].startswith(("laten ", "com "))}
    want = {}
    for line in open(os.path.join(cwd, a)):
        r = json.loads(line)
        if r.get("type") == "presta_row":
            key = (f"{r['program']} {r['test']}, {r['processes']} procs, "
                   f"{r['bytes']} bytes")
            want.setdefault(key, r.get("latency_usec", r.get("op_time_usec")))
    wrong = [(k, v, shown.get(k)) for k, v in want.items()
             if k not in shown or abs(shown[k] - v) > 0.001 * v + 0.001]
    check(want and not wrong,
          f"compare: Presta rows are not the printed time per operation: {wrong[:3]}")

    # A doctored copy: every PingPong latency 6 times -> the family's geometric mean ratio is
    # 6, beyond the band of one run a side (400 %): exit 1, the family REGRESSED, and the rows
    # shown are PingPong rows, each 6.000 - most of them: a row of 10 samples (the main job's
    # default) whose interval is wide (one slow sample) keeps overlapping its copy's and stays
    # unchanged, as the rule within one run says; rows of fewer than 6 samples: 6x is beyond
    # --noise 50.
    doctored, done = [], 0
    for line in open(os.path.join(cwd, a)):
        r = json.loads(line)
        if (r.get("type") == "result" and r.get("suite") == "IMB-MPI1" and
                r.get("benchmark") == "PingPong" and r.get("status") == "ok"):
            for k, v in list(r.items()):
                if k.startswith("t_") and k.endswith(("_usec", "_median", "_q1", "_q3", "_low",
                                                      "_high")) and isinstance(v, (int, float)):
                    r[k] = v * 6
                elif k.startswith("t_") and k.endswith("_samples") and isinstance(v, list):
                    r[k] = [x * 6 for x in v]
            done += 1
            line = json.dumps(r) + "\n"
        doctored.append(line)
    check(done > 10, "no PingPong rows to doctor")
    with open(os.path.join(cwd, "doctored.jsonl"), "w") as f:
        f.writelines(doctored)
    c = tool(opts, cwd, "compare", "--noise", "50", a, "doctored.jsonl")
    shown_rows = c.stdout[:c.stdout.index("# families:")]
    rows = [l for l in shown_rows.splitlines() if l and not l.startswith("#")][1:]
    fam = [l for l in c.stdout[c.stdout.index("# families:"):].splitlines()
           if l.endswith("  IMB-MPI1 PingPong, 2 procs")]
    check(c.returncode == 1 and 2 * len(rows) >= done and
          all("REGRESSED" in r and "IMB-MPI1 PingPong, 2 procs, " in r and
              r.split()[0] == "6.000" for r in rows) and
          len(fam) == 1 and fam[0].split()[0] == "6.000" and "REGRESSED" in fam[0],
          f"compare with the doctored copy: status {c.returncode}\n{c.stdout[:3000]}")
    c = tool(opts, cwd, "compare", a, "--", a, "doctored.jsonl")
    check(c.returncode == 2 and "the new runs differ" not in c.stderr and
          "are the same run" in c.stderr, f"a copy of a run in its group: {c.stderr}")
    # Nothing in common; not JSON Lines.
    c = tool(opts, cwd, "compare", "mpibench-results/laten.jsonl", "mpibench-results/b_eff.jsonl")
    check(c.returncode == 2 and "no measurement of 'mpibench-results/laten.jsonl' matches" in
          c.stderr and c.stderr.count("\n") == 1, f"mismatched compare: {c.returncode} {c.stderr}")
    c = tool(opts, cwd, "compare", a, "mpibench-results/summary.txt")
    check(c.returncode == 2 and "'mpibench-results/summary.txt' line 1: not JSON" in c.stderr,
          f"compare with a text file: {c.returncode} {c.stderr}")
    c = tool(opts, cwd, "compare", a)
    check(c.returncode == 2 and "expected 2 results files" in c.stderr, f"compare, one file: {c.stderr}")
    c = tool(opts, cwd, "compare", "--threshold", "-5", a, b)
    check(c.returncode == 2 and "invalid value '-5' for --threshold" in c.stderr, c.stderr)

    # mpibench plot on each suite's own JSON file (of the phases that ran here).
    for p in ran_on(opts.np, opts.no_io):
        d = f"plot-{p}"
        c = tool(opts, cwd, "plot", "-o", d, f"mpibench-results/{p}.jsonl")
        check(c.returncode == 0, f"plot {p}.jsonl: status {c.returncode} {c.stderr}")
        got = {f[:-4] for f in os.listdir(os.path.join(cwd, d)) if f.endswith(".svg")}
        check(got == PLOTS[p], f"plot {p}.jsonl drew {sorted(got)}, expected {sorted(PLOTS[p])}")
        check(c.stdout == f"{len(got)} plot{'' if len(got) == 1 else 's'} in '{d}'; open "
              f"'{d}/index.html'\n", f"plot {p}: {c.stdout}")
        for name in got:
            check_png(os.path.join(cwd, d, name + ".png"))
            check_svg(os.path.join(cwd, d, name + ".svg"))
    c = tool(opts, cwd, "plot", "mpibench-results/run.txt")
    check(c.returncode == 2 and "not JSON" in c.stderr, f"plot of a text file: {c.stderr}")
    return ("second run, " if a != b else "") + "compare and plot checked"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--second", action="store_true")
    ap.add_argument("--tools", action="store_true",
                    help="compare and plot on the one run (--second: on two runs)")
    ap.add_argument("--no-io", action="store_true",
                    help="the MPI-IO phases are skipped (mpibench built for SimGrid SMPI)")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    opts.args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory(prefix="mb-job-") as cwd:
        try:
            # The first run into an empty directory named by --output-dir: used as it is.
            os.mkdir(os.path.join(cwd, "mpibench-results"))
            proc = run_job(opts, cwd, ["--output-dir", "mpibench-results", "--progress", "1"])
            check(sorted(os.listdir(cwd)) == ["mpibench-results"],
                  f"files outside mpibench-results/: {sorted(os.listdir(cwd))}")
            recs, what = check_run(opts, cwd, proc, "mpibench-results", progress=1)
            if opts.second:
                what += "; " + check_second(opts, cwd, recs)
            elif opts.tools:
                a = "mpibench-results/results.jsonl"
                what += "; " + check_tools(opts, cwd, a, a)
        except Failure as e:
            print(f"FAILED: {e}")
            return 1
        print(f"ok: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
