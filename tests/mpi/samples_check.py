#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run a suite with --samples K (or without) and check the samples' JSON fields.

Every record of the types given (--types) must carry "sample_count" = min(K, its repetitions);
with a count above 1 each figure F of the record (the schema's properties F_median name them)
must have F_median, F_q1, F_q3, F_ci95_low and F_ci95_high with q1 <= median <= q3 and
ci95_low <= median <= ci95_high, "ci95_coverage" the exact binomial coverage of the interval for
that count, and with --raw F_samples: K numbers whose median, quartiles (type 7) and order
statistics are the ones given. With a count of 1 no spread field may be there. With --spread-text
the text rows (IMB, Presta com/laten/rma) must end in the median and interval of the JSON; with
--spread-line each record's text (allred, globalop, b_eff) must have a line "..., 95 % interval
LOW .. HIGH" with the JSON's median and interval, in the records' order.

Usage: samples_check.py --mpiexec CMD --np N --bin PATH [--k K] [--raw] --types T,... -- ARGS
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import check, fail  # noqa: E402

SPREAD = ("_median", "_q1", "_q3", "_ci95_low", "_ci95_high")


def figures_of(schema, rtype):
    """The figure fields F of a record type: those the schema gives an F_median."""
    props = schema["definitions"][rtype]["properties"]
    return [k[: -len("_median")] for k in props if k.endswith("_median")]


def ci_rank(n):
    """Le Boudec's rule, independently: the largest j with 2 P(B <= j - 1) <= 0.05."""
    cdf = lambda j: sum(math.comb(n, i) for i in range(j + 1)) / 2.0**n  # noqa: E731
    j = 1
    while j < (n + 1) // 2 and 2 * cdf(j) <= 0.05:
        j += 1
    return j, 1 - 2 * cdf(j - 1)


def quantile(s, p):
    h = (len(s) - 1) * p
    lo = math.floor(h)
    return s[-1] if lo + 1 >= len(s) else s[lo] + (h - lo) * (s[lo + 1] - s[lo])


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def check_record(r, figs, k, raw):
    where = f"{r['type']} record {json.dumps(r)[:160]}"
    reps = r.get("repetitions") if r["type"] == "result" else None
    want = min(k, reps) if reps else k
    check(r.get("sample_count") == want, f"sample_count {r.get('sample_count')}, not {want}: {where}")
    n = r["sample_count"]
    present = [f for f in figs if isinstance(r.get(f), (int, float))]
    if n == 1:
        extra = [key for key in r if any(key.endswith(s) for s in SPREAD + ("_samples",))
                 and key[: key.rfind("_")] in figs]
        check(not extra and "ci95_coverage" not in r, f"spread fields with 1 sample: {where}")
        return 0
    check(present, f"no figure field among {figs}: {where}")
    j, cov = ci_rank(n)
    check(close(r.get("ci95_coverage", -1), cov), f"ci95_coverage not {cov}: {where}")
    for f in present:
        v = {s: r.get(f + s) for s in SPREAD}
        check(all(isinstance(x, (int, float)) for x in v.values()), f"{f}: a spread field missing: {where}")
        check(v["_q1"] <= v["_median"] <= v["_q3"], f"{f}: q1 <= median <= q3 fails: {where}")
        check(v["_ci95_low"] <= v["_median"] <= v["_ci95_high"], f"{f}: ci95 misses the median: {where}")
        if not raw:
            check(f + "_samples" not in r, f"{f}_samples without --raw-samples: {where}")
            continue
        s = r.get(f + "_samples")
        check(isinstance(s, list) and len(s) == n, f"{f}_samples is not {n} numbers: {where}")
        s = sorted(s)
        med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
        check(close(v["_median"], med), f"{f}_median is not the samples' median: {where}")
        check(close(v["_q1"], quantile(s, 0.25)) and close(v["_q3"], quantile(s, 0.75)),
              f"{f}: quartiles not the samples' (type 7): {where}")
        check(v["_ci95_low"] == s[j - 1] and v["_ci95_high"] == s[n - j],
              f"{f}: ci95 bounds are not order statistics {j} and {n + 1 - j}: {where}")
    return 1


def check_spread_text(run, records, types, schema):
    """--spread: every row of the tables ends in the median and the interval of its figure, the
    JSON's rounded as the table prints them (IMB 2 decimals, Presta 3), under a header that
    names the columns."""
    rows = [r for r in records if r["type"] in types and r.get("status", "ok") == "ok"]
    lines, on = [], False
    for line in run.stdout.splitlines():
        if "t_med[usec]" in line or "Median (us)" in line:
            on = True
            continue
        words = line.split()
        if on and not line.startswith("#") and len(words) > 3 and \
                all("." in w and w.replace(".", "", 1).isdigit() for w in words[-3:]):
            lines.append(words)
    check(len(lines) == len(rows), f"{len(lines)} text rows with spread columns, {len(rows)} JSON rows")
    for words, r in zip(lines, rows):
        f = next(f for f in figures_of(schema, r["type"]) if f + "_median" in r)
        got = [float(w) for w in words[-3:]]
        want = [r[f + s] for s in ("_median", "_ci95_low", "_ci95_high")]
        tol = 0.6 * 10.0 ** -len(words[-1].split(".")[1])
        check(all(abs(g - w) <= tol for g, w in zip(got, want)),
              f"text spread {got} is not the JSON's {want}")


def check_spread_line(run, records, types, schema):
    """--spread where a figure is a line, not a table row (allred's Op mean, globalop's average
    per section, b_eff's value): one "MEDIAN [unit], 95 % interval LOW .. HIGH" line per record
    that has a median, in the records' order, with the JSON's numbers as printed."""
    num = r"(-?\d+\.\d+)"  # allred's op time less its compute loop can be below 0
    pat = re.compile(num + r"(?: [A-Za-z/]+)?, 95 % interval " + num + r" \.\. " + num)
    lines = [m.groups() for m in map(pat.search, run.stdout.splitlines()) if m]
    rows = []
    for r in records:
        if r["type"] in types:
            f = next((f for f in figures_of(schema, r["type"]) if f + "_median" in r), None)
            if f:
                rows.append((r, f))
    check(rows and len(lines) == len(rows),
          f"{len(lines)} text lines with a median and interval, {len(rows)} JSON records with one")
    for words, (r, f) in zip(lines, rows):
        want = [r[f + s] for s in ("_median", "_ci95_low", "_ci95_high")]
        for w_text, w in zip(words, want):
            tol = 0.6 * 10.0 ** -len(w_text.split(".")[1])
            check(abs(float(w_text) - w) <= tol, f"text spread {words} is not the JSON's {want}")


def check_run(run):
    o = run.opts
    with open(o.schema) as f:
        schema = json.load(f)
    records = run.records(o.json_name)
    run.allow(o.json_name)
    # b_eff's and b_eff_io's protocol files (their own checkers check them).
    for path in run.new_files():
        if o.allow_prefix and os.path.basename(path).startswith(o.allow_prefix):
            run.allow(path)
    # The effective settings name the number of samples per row, whatever the suite calls them.
    shown = re.search(r"^#\s+--samples\s+:\s+(\d+)\b", run.stdout, re.M)
    check(shown and int(shown.group(1)) == o.k,
          f"the header's --samples line does not start with {o.k}: "
          f"{shown.group(0) if shown else 'no such line'}")
    types = o.types.split(",")
    ones = o.ones.split(",") if o.ones else []
    counted = {t: 0 for t in types + ones}
    spread = 0
    for r in records:
        if r["type"] in ones:
            counted[r["type"]] += 1
            check(r.get("sample_count") == 1, f"sample_count not 1: {json.dumps(r)[:160]}")
        elif r["type"] in counted:
            counted[r["type"]] += 1
            if r["type"] == "result" and r.get("status") != "ok":
                continue
            spread += check_record(r, figures_of(schema, r["type"]), o.k, o.raw)
    missing = [t for t, n in counted.items() if n == 0]
    if missing:
        fail(f"no record of type {', '.join(missing)}")
    if o.spread_text:
        check_spread_text(run, records, types, schema)
    if o.spread_line:
        check_spread_line(run, records, types, schema)
    return f"{sum(counted.values())} records carry their samples (K = {o.k}), {spread} with spread"


if __name__ == "__main__":
    ap = mbcheck.parser(__doc__)
    ap.add_argument("--k", type=int, default=1, help="samples asked for (1: the default)")
    ap.add_argument("--raw", action="store_true", help="the run has --raw-samples")
    ap.add_argument("--types", required=True, help="record types that must carry sample_count")
    ap.add_argument("--ones", help="record types that must carry sample_count 1 whatever K")
    ap.add_argument("--allow-prefix", help="files the run may leave: names starting so")
    ap.add_argument("--json-name", default="s.jsonl", help="the --json file of the run")
    ap.add_argument("--spread-text", action="store_true", help="check the --spread columns")
    ap.add_argument("--spread-line", action="store_true",
                    help="check the --spread lines (allred, globalop, b_eff)")
    sys.exit(mbcheck.main(check_run, ap))
