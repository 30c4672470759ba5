#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The verdicts of bench/side_by_side.py (its docstring, "ok", "noise", "digits", "OUT") on
made-up rounds, and --from-raw's reading of a --raw file back into the same cells.

Usage: side_by_side_rules.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import side_by_side as sbs  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


# "ok": within the original's A/A range or 0.90-1.10, whichever is wider.
check(sbs.verdict_of(1.05, [0.98, 1.02], [1.0]) == "ok", "1.05 is within +-10 %")
check(sbs.verdict_of(1.30, [0.95, 1.35], [1.0]) == "ok", "1.30 is within the original's A/A")
# "noise": only within 1/w..w of both programs' A/A, either way round.
check(sbs.verdict_of(0.60, [1.0, 1.8], [1.0]) == "noise", "0.60 is within 1/1.8")
check(sbs.verdict_of(1.50, [1.0], [0.6]) == "noise", "1.50 is within mpibench's 1/0.6")
check(sbs.verdict_of(0.50, [1.0, 1.8], [1.0]) == "OUT", "0.50 is beyond 1/1.8")
check(sbs.verdict_of(1.11, [0.93, 0.99], [0.96, 1.02]) == "OUT", "1.11 with narrow A/A")
# "digits": figures printed with two decimals one unit apart say nothing about a ratio.
check(sbs.printed_alike(0.04, 0.05), "0.04 and 0.05 are one printed unit apart")
check(not sbs.printed_alike(0.03, 0.05), "0.03 and 0.05 are two units apart")
check(not sbs.printed_alike(0.0412, 0.05), "a figure with more digits is not a printed one")
check(sbs.verdict_of(0.80, [1.0], [1.0], True) == "digits", "0.80 printed alike is digits")
check(sbs.verdict_of(0.60, [1.0, 1.8], [1.0], True) == "digits", "digits comes before noise")
check(sbs.verdict_of(1.05, [1.0], [1.0], True) == "ok", "ok comes before digits")


def run(o1, o2, m1, m2):
    key = ("Barrier", 2, 0, "t_avg")
    return {"O": [{key: (o1, "t", 0)}, {key: (o2, "t", 0)}],
            "M": [{key: (m1, "t", 0)}, {key: (m2, "t", 0)}]}


# Three rounds of one 0-byte cell: 0.04 against 0.05 us in each is "digits" (ratio 0.8).
rounds = [run(0.04, 0.04, 0.05, 0.05)] * 3
raw = [{"suite": "IMB-MPI1", "np": 2,
        "rounds": [{w: [list(map(list, r.items())) for r in rnd[w]] for w in "OM"}
                   for rnd in rounds]}]
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "raw.json")
    with open(path, "w") as f:
        json.dump(raw, f)
    lines, outside, noise, counts = sbs.table(sbs.from_raw(path))
    check(len(lines) == 3 and lines[2].endswith("| 0.80 | 0.80 | 1.00 | 1.00 | digits |"),
          f"the table from --raw: {lines[2:]}")
    check(counts == {("IMB-MPI1", 2): {"digits": 1}}, f"counts {counts}")
    # The same through the command line.
    p = subprocess.run([sys.executable, os.path.join(sys.argv[1], "bench", "side_by_side.py"),
                        "--from-raw", path], capture_output=True, text=True)
    check(p.returncode == 0 and "0 of 1 cells outside every band; 1 more" in p.stdout,
          f"--from-raw: status {p.returncode}, {p.stdout[-300:]} {p.stderr[-300:]}")
    # One round 0.03 against 0.05: no longer alike in every round, and 0.6 is OUT.
    rounds[1] = run(0.03, 0.03, 0.05, 0.05)
    raw[0]["rounds"] = [{w: [list(map(list, r.items())) for r in rnd[w]] for w in "OM"}
                        for rnd in rounds]
    with open(path, "w") as f:
        json.dump(raw, f)
    lines, outside, noise, counts = sbs.table(sbs.from_raw(path))
    check(lines[2].endswith("| OUT |"), f"0.03 against 0.05 in one round: {lines[2]}")
    # --relinked: the original's second build (R) prints what mpibench prints, 0.26 against
    # 0.23 for the build as released: that OUT cell becomes "build", and the table gains the
    # relinked column; a relinked build as far off as the released one leaves it OUT.
    for r_figure, verdict in ((0.23, "build"), (0.26, "OUT")):
        key = ("Allreduce_persist (t_CPU)", 2, 0, "t")
        rnds = [{"O": [[[list(key), [0.26, "t", 0]]]] * 2, "M": [[[list(key), [0.23, "t", 0]]]] * 2,
                 "R": [[[list(key), [r_figure, "t", 0]]]] * 2}] * 3
        with open(path, "w") as f:
            json.dump([{"suite": "IMB-MPI4", "np": 2, "rounds": rnds}], f)
        lines, outside, noise, counts = sbs.table(sbs.from_raw(path))
        check("relinked original" in lines[0] and lines[2].endswith(f"| {verdict} |"),
              f"relinked at {r_figure}: {lines[0]} / {lines[2]}")
        summ = "\n".join(sbs.summary(counts, outside, noise))
        check(("| build |" in summ) == (verdict == "build"), f"summary columns: {summ}")
check(sbs.verdict_of(1.13, [1.0], [1.0], False, 1.0, [1.0]) == "build", "1.13, relinked 1.0")
check(sbs.verdict_of(1.13, [1.0], [1.0], False, 1.13, [1.0]) == "OUT", "1.13, relinked 1.13")
check(sbs.verdict_of(1.13, [1.0], [1.0], False) == "OUT", "1.13 without a relinked build")
check(sbs.verdict_of(1.15, [1.0], [1.2], False, 1.0, [1.0]) == "noise", "noise comes before build")

for f in failures:
    print("FAIL:", f)
print("side_by_side_rules:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
