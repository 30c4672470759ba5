#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check scripts/runs.sh, the launcher-side maker of whole runs for `mpibench compare`.

Each case runs in an empty directory:

  real     3 runs of IMB-MPI1 PingPong on 2 processes into D/RUN-1..3: each directory holds
           the results.jsonl of its own run (its header's command line names it, run ids
           differ), one progress line per run in order, the compare command printed; and
           `mpibench compare D/RUN-1 D/RUN-2 -- D/RUN-3` reads them (status 0 or 1, its
           tables)
  ab       --ab 4 with real runs into a directory whose name needs shell quoting: A-1..4 and
           B-1..4 run in the order A B B A A B B A (each command appends its name to a log),
           each holds its own results, and the compare command the script prints runs as
           printed (A as base, B as new); the order for odd N (3: A B B A A B; 1: A B)
  bad      every kind of bad input: status 2, one message naming the argument, nothing
           created; --help; an existing non-empty run directory (the first, or one only
           reached later in the ABBA order) is refused before anything runs and is left as
           it was; an existing empty one is used
  failing  a run that exits 3 does not stop the others; the status is 1, its progress line
           shows the 3, the failed runs are listed and left out of the compare command; a
           run's seconds are measured

Usage: runs_check.py --case NAME --script scripts/runs.sh --bindir DIR --mpiexec CMD
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

RUN_LIMIT = 120  # seconds for runs.sh with real runs (3-8 runs of about 1 s each)


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def listing(d):
    """Every path under d, relative, sorted (directories end with '/')."""
    out = []
    for root, dirs, files in os.walk(d):
        rel = os.path.relpath(root, d)
        for name in dirs:
            out.append(os.path.normpath(os.path.join(rel, name)) + "/")
        for name in files:
            out.append(os.path.normpath(os.path.join(rel, name)))
    return sorted(out)


class Ctx:
    def __init__(self, opts, cwd):
        self.script = os.path.abspath(opts.script)
        self.mpibench = os.path.join(os.path.abspath(opts.bindir), "mpibench")
        self.mpiexec = shlex.split(opts.mpiexec)
        self.cwd = cwd

    def runs(self, *args, limit=RUN_LIMIT):
        p = subprocess.run([self.script, *args], cwd=self.cwd, capture_output=True, text=True,
                           timeout=limit)
        return p.returncode, p.stdout, p.stderr

    def pingpong(self, iters="50"):
        """The benchmark command, words, with {} for the run's directory."""
        return self.mpiexec + ["-np", "2", self.mpibench, "imb-mpi1", "PingPong", "-msglog",
                               "0:3", "-iter", iters, "--json", "{}/results.jsonl"]

    def path(self, *parts):
        return os.path.join(self.cwd, *parts)


def progress(err, total):
    """The progress lines: [(i, name, status, seconds)] in the order printed."""
    rows = []
    for line in err.splitlines():
        m = re.match(rf"^runs\.sh: run (\d+) of {total}: ([A-Z]+-\d+): (.*), ([0-9.]+) s$", line)
        if m:
            rows.append((int(m.group(1)), m.group(2), m.group(3), float(m.group(4))))
    return rows


def compare_line(err):
    lines = [l for l in err.splitlines() if l.startswith("  mpibench compare ")]
    check(len(lines) == 1, f"one compare command in the summary, got {lines!r}:\n{err}")
    return shlex.split(lines[0])


def header(ctx, run_dir):
    f = ctx.path(run_dir, "results.jsonl")
    check(os.path.isfile(f) and os.path.getsize(f) > 0, f"{run_dir}/results.jsonl written")
    with open(f, encoding="utf-8") as fh:
        recs = [json.loads(l) for l in fh if l.strip()]
    check(recs and recs[0].get("type") == "header", f"{f}: starts with a header")
    check(any(r.get("type") == "result" for r in recs), f"{f}: holds result records")
    h = recs[0]
    check(h.get("suite") == "IMB-MPI1" and h.get("processes") == 2,
          f"{f}: IMB-MPI1 on 2 processes, got {h.get('suite')} on {h.get('processes')}")
    # {} was replaced by this run's own directory: the command line the run saw names it.
    check(f"{run_dir}/results.jsonl" in h.get("command_line", ""),
          f"{f}: the run's command line names {run_dir}: {h.get('command_line')!r}")
    return h


def case_real(ctx):
    code, out, err = ctx.runs("-o", "D", "3", "--", *ctx.pingpong())
    check(code == 0, f"3 good runs: status 0, got {code}\n{err}")
    check(listing(ctx.path("D")) == ["RUN-1/", "RUN-1/results.jsonl", "RUN-2/",
                                     "RUN-2/results.jsonl", "RUN-3/", "RUN-3/results.jsonl"],
          f"D holds RUN-1..3 with a results.jsonl each, got {listing(ctx.path('D'))}")
    ids = [header(ctx, f"D/RUN-{i}")["run_id"] for i in (1, 2, 3)]
    check(len(set(ids)) == 3, f"three distinct runs, got run ids {ids}")
    rows = progress(err, 3)
    check([(r[0], r[1], r[2]) for r in rows] ==
          [(i, f"RUN-{i}", "exit status 0") for i in (1, 2, 3)],
          f"one progress line per run, in order, exit status 0:\n{err}")
    check(compare_line(err) == ["mpibench", "compare", "D/RUN-1", "D/RUN-2", "D/RUN-3", "--",
                                "NEW..."], f"the compare command names the 3 runs:\n{err}")
    p = subprocess.run([ctx.mpibench, "compare", "D/RUN-1", "D/RUN-2", "--", "D/RUN-3"],
                       cwd=ctx.cwd, capture_output=True, text=True, timeout=60)
    check(p.returncode in (0, 1), f"compare of the runs: status 0 or 1, got {p.returncode}\n"
          f"{p.stdout}{p.stderr}")
    for want in (r"^# mpibench compare: base 2 runs .*RUN-1/results\.jsonl.*RUN-2/results\.jsonl"
                 r".*new '?D/RUN-3/results\.jsonl",
                 r"^# 5 compared: ", r"IMB-MPI1 PingPong, 2 procs$", r"OVERALL"):
        check(re.search(want, p.stdout, re.M), f"compare prints /{want}/:\n{p.stdout}")
    return "3 runs into D/RUN-1..3, compare of 2 against 1 read them"


def abba(n):
    order = []
    for k in range(n):
        pair = [f"A-{k + 1}", f"B-{k + 1}"]
        order += pair if k % 2 == 0 else pair[::-1]
    return order


def case_ab(ctx):
    d = "ab runs"  # a space: the script must quote the directory it puts into the shell string
    # {} stays bare: the script inserts the directory already quoted for the shell.
    bench = " ".join(w if "{}" in w else shlex.quote(w) for w in ctx.pingpong())
    code, out, err = ctx.runs("-o", d, "--ab", "4", f"echo A-{{}} >> log && {bench}",
                              f"echo B-{{}} >> log && {bench}")
    check(code == 0, f"--ab 4 of good runs: status 0, got {code}\n{err}")
    want = ["A-1", "B-1", "B-2", "A-2", "A-3", "B-3", "B-4", "A-4"]
    check(abba(4) == want, "the test's own ABBA order")
    with open(ctx.path("log"), encoding="utf-8") as fh:
        log = fh.read().splitlines()
    check(log == [f"{n[0]}-{d}/{n}" for n in want],
          f"the runs ran in the order A B B A A B B A, got {log}")
    check([(r[0], r[1]) for r in progress(err, 8)] == list(enumerate(want, 1)),
          f"the progress lines in the same order:\n{err}")
    check(sorted(os.listdir(ctx.path(d))) == sorted(want), f"{d} holds A-1..4, B-1..4")
    ids = {header(ctx, f"{d}/{n}")["run_id"] for n in want}
    check(len(ids) == 8, f"eight distinct runs, got {len(ids)} run ids")
    argv = compare_line(err)
    check(argv == ["mpibench", "compare"] + [f"{d}/A-{i}" for i in range(1, 5)] + ["--"] +
          [f"{d}/B-{i}" for i in range(1, 5)], f"compare A-1..4 -- B-1..4, got {argv}")
    p = subprocess.run([ctx.mpibench] + argv[1:], cwd=ctx.cwd, capture_output=True, text=True,
                       timeout=60)
    check(p.returncode in (0, 1), f"the printed compare command: status 0 or 1, got "
          f"{p.returncode}\n{p.stdout}{p.stderr}")
    check(re.search(r"^# mpibench compare: base 4 runs .*new 4 runs", p.stdout, re.M),
          f"compare reads 4 runs a side:\n{p.stdout}")
    # Odd N cuts the last block; the order does not depend on what the command does.
    for n, order in ((3, ["A-1", "B-1", "B-2", "A-2", "A-3", "B-3"]), (1, ["A-1", "B-1"])):
        log = ctx.path(f"log{n}")
        code, out, err = ctx.runs("-o", f"odd{n}", "--ab", str(n),
                                  f"echo A {{}} >> {shlex.quote(log)}",
                                  f"echo B {{}} >> {shlex.quote(log)}")
        check(code == 0, f"--ab {n}: status 0, got {code}\n{err}")
        with open(log, encoding="utf-8") as fh:
            got = [l.split("/")[-1] for l in fh.read().splitlines()]
        check(got == order, f"--ab {n}: order {order}, got {got}")
    return "A B B A A B B A over 8 real runs, the printed compare command runs; odd N"


BAD = [  # (arguments, a word the message must contain)
    (["-o", "D"], "N missing"),
    (["-o", "D", "x", "--", "touch", "{}/ran"], "'x'"),
    (["-o", "D", "0", "--", "touch", "{}/ran"], "'0'"),
    (["-o", "D", "-3", "--", "touch", "{}/ran"], "'-3'"),
    (["-o", "D", "2.5", "--", "touch", "{}/ran"], "'2.5'"),
    (["-o", "D", "123456", "--", "touch", "{}/ran"], "'123456'"),
    (["-o", "D", "--ab", "x", "touch {}/ran", "touch {}/ran"], "'x'"),
    (["-o", "D", "3", "touch", "{}/ran"], "'--'"),
    (["-o", "D", "3"], "'--'"),
    (["-o", "D", "3", "--"], "no command"),
    (["-o", "D", "--", "touch", "{}/ran"], "N missing"),
    (["-o", "D", "3", "--", "touch", "marker"], "{}"),
    (["-o", "D", "--ab", "3", "touch {}/ran"], "two commands"),
    (["-o", "D", "--ab", "3", "touch {}/ran", "touch {}/ran", "touch {}/x"], "two commands"),
    (["-o", "D", "--ab", "3", "touch {}/ran", "touch marker"], "COMMAND B has no '{}'"),
    (["-o", "D", "--ab", "3", "", "touch {}/ran"], "COMMAND A is empty"),
    (["-q", "-o", "D", "3", "--", "touch", "{}/ran"], "'-q'"),
    (["--output", "D", "3", "--", "touch", "{}/ran"], "'--output'"),
    (["-o"], "'-o'"),
    (["-o", "", "3", "--", "touch", "{}/ran"], "'-o'"),
]


def case_bad(ctx):
    for args, word in BAD:
        code, out, err = ctx.runs(*args, limit=20)
        lines = err.splitlines()
        check(code == 2, f"{args}: status 2, got {code}\n{err}")
        check(len(lines) == 1 and word in lines[0],
              f"{args}: one message naming {word}, got {lines}")
        check(out == "", f"{args}: nothing on standard output, got {out!r}")
        check(listing(ctx.cwd) == [], f"{args}: nothing created, got {listing(ctx.cwd)}")
    # The hint says where {} goes.
    code, out, err = ctx.runs("3", "--", "mpibench", "run", "--quick", limit=20)
    check("--output-dir {}" in err and "--json {}/results.jsonl" in err,
          f"the message for a command without {{}} shows where it goes: {err}")
    code, out, err = ctx.runs("--help", limit=20)
    check(code == 0 and out.startswith("Usage: ") and "--ab" in out and err == "",
          f"--help: status 0 and the usage on standard output, got {code} {out!r} {err!r}")
    check(listing(ctx.cwd) == [], "--help creates nothing")

    # An existing non-empty first run directory: refused before anything runs, left alone.
    keep = ctx.path("D", "RUN-1", "keep")
    os.makedirs(os.path.dirname(keep))
    with open(keep, "w", encoding="utf-8") as fh:
        fh.write("precious\n")
    os.utime(keep, (1000000000, 1000000000))
    code, out, err = ctx.runs("-o", "D", "3", "--", "touch", "{}/ran", limit=20)
    lines = err.splitlines()
    check(code == 2, f"non-empty D/RUN-1: status 2, got {code}\n{err}")
    check(len(lines) == 1 and "'D/RUN-1'" in lines[0] and "not empty" in lines[0],
          f"non-empty D/RUN-1: one message naming it, got {lines}")
    check(listing(ctx.path("D")) == ["RUN-1/", "RUN-1/keep"],
          f"non-empty D/RUN-1: nothing run or created, got {listing(ctx.path('D'))}")
    with open(keep, encoding="utf-8") as fh:
        check(fh.read() == "precious\n" and os.stat(keep).st_mtime == 1000000000,
              "non-empty D/RUN-1: its file untouched")

    # A non-empty directory reached only at the 6th run of --ab 3 (B-3): still refused first.
    os.makedirs(ctx.path("E", "B-3"))
    with open(ctx.path("E", "B-3", "keep"), "w", encoding="utf-8") as fh:
        fh.write("x")
    code, out, err = ctx.runs("-o", "E", "--ab", "3", "touch {}/ran", "touch {}/ran", limit=20)
    lines = err.splitlines()
    check(code == 2 and len(lines) == 1 and "'E/B-3'" in lines[0],
          f"non-empty E/B-3: status 2, one message naming it, got {code} {lines}")
    check(listing(ctx.path("E")) == ["B-3/", "B-3/keep"],
          f"non-empty E/B-3: no run before it, got {listing(ctx.path('E'))}")

    # A file where a run directory goes, and a file as -o: refused too.
    os.makedirs(ctx.path("F"))
    with open(ctx.path("F", "RUN-2"), "w", encoding="utf-8") as fh:
        fh.write("x")
    code, out, err = ctx.runs("-o", "F", "2", "--", "touch", "{}/ran", limit=20)
    check(code == 2 and "'F/RUN-2'" in err and listing(ctx.path("F")) == ["RUN-2"],
          f"a file at F/RUN-2: status 2 naming it, nothing run, got {code} {err!r}")
    code, out, err = ctx.runs("-o", "F/RUN-2", "2", "--", "touch", "{}/ran", limit=20)
    check(code == 2 and "'F/RUN-2'" in err and listing(ctx.path("F")) == ["RUN-2"],
          f"-o a file: status 2 naming it, got {code} {err!r}")

    # An existing empty run directory is used (mpibench run --output-dir accepts it too).
    os.makedirs(ctx.path("G", "RUN-1"))
    code, out, err = ctx.runs("-o", "G", "2", "--", "touch", "{}/ran", limit=20)
    check(code == 0 and listing(ctx.path("G")) == ["RUN-1/", "RUN-1/ran", "RUN-2/",
                                                   "RUN-2/ran"],
          f"an empty G/RUN-1 is used: got {code} {listing(ctx.path('G'))}\n{err}")
    return f"{len(BAD)} bad inputs, --help, non-empty and misplaced targets refused untouched"


def case_failing(ctx):
    # Run 1 sleeps a second (its seconds are measured), run 2 exits 3, run 3 still runs.
    body = ('echo "$0" >> log; [ "$0" != D/RUN-1 ] || sleep 1; '
            '[ "$0" != D/RUN-2 ] || exit 3; touch "$0/ok"')
    code, out, err = ctx.runs("-o", "D", "3", "--", "sh", "-c", body, "{}", limit=60)
    check(code == 1, f"a failed run: status 1, got {code}\n{err}")
    with open(ctx.path("log"), encoding="utf-8") as fh:
        check(fh.read().splitlines() == ["D/RUN-1", "D/RUN-2", "D/RUN-3"],
              "every run ran, also the one after the failure")
    check(listing(ctx.path("D")) == ["RUN-1/", "RUN-1/ok", "RUN-2/", "RUN-3/", "RUN-3/ok"],
          f"runs 1 and 3 finished, got {listing(ctx.path('D'))}")
    rows = progress(err, 3)
    check([(r[0], r[1], r[2]) for r in rows] ==
          [(1, "RUN-1", "exit status 0"), (2, "RUN-2", "exit status 3"),
           (3, "RUN-3", "exit status 0")], f"progress lines with each exit status:\n{err}")
    check(rows[0][3] >= 0.9 and rows[1][3] < rows[0][3],
          f"seconds measured per run (run 1 slept 1 s): {rows}")
    check(re.search(r"^runs\.sh: 1 of 3 runs failed: RUN-2\b", err, re.M),
          f"the failed run listed:\n{err}")
    check(compare_line(err) == ["mpibench", "compare", "D/RUN-1", "D/RUN-3", "--", "NEW..."],
          f"the failed run left out of the compare command:\n{err}")
    # With --ab, a side whose runs all failed gives no compare command; the other runs ran.
    code, out, err = ctx.runs("-o", "X", "--ab", "2", "touch {}/ok", "exit 5; : {}", limit=60)
    check(code == 1 and re.search(r"^runs\.sh: 2 of 4 runs failed: B-1 B-2\b", err, re.M)
          and "every run of B failed" in err and "mpibench compare" not in err,
          f"--ab with every B failing: status 1, B-1 B-2 listed, no compare command:\n{err}")
    check(listing(ctx.path("X")) == ["A-1/", "A-1/ok", "A-2/", "A-2/ok", "B-1/", "B-2/"],
          f"--ab: the A runs ran, got {listing(ctx.path('X'))}")
    return "a failing run: the others ran, status 1, listed, left out of compare"


CASES = {"real": case_real, "ab": case_ab, "bad": case_bad, "failing": case_failing}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--script", required=True, help="scripts/runs.sh")
    ap.add_argument("--bindir", required=True, help="directory holding mpibench")
    ap.add_argument("--mpiexec", required=True, help="launcher and its flags, one string")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mb-runs-") as cwd:
        try:
            what = CASES[opts.case](Ctx(opts, cwd))
        except (Failed, subprocess.TimeoutExpired) as e:
            print(f"FAILED: runs.{opts.case}: {e}")
            return 1
    print(f"ok: runs.{opts.case}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
