# SPDX-License-Identifier: BSD-3-Clause
"""The pandas recipe of docs/output.md ("Reading results with pandas"), run as the page shows it.

Runs IMB-MPI1 PingPong on 2 processes into results.jsonl in a new temporary directory, takes
the page's first python block after the heading and runs it there, then checks what it made:
PingPong rows with their run id and a bandwidth in MiB/s, and the header's date read as a
timestamp with its zone. Exits 77 (skipped) with a message when pandas is not installed
(scripts/deps.sh --tests installs python3-pandas).

Usage: pandas_recipe_check.py --doc docs/output.md --mpiexec CMD --bin MPIBENCH
"""
import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile

HEADING = "### Reading results with pandas"


def recipe(doc):
    text = open(doc).read()
    at = text.find(HEADING)
    if at < 0:
        sys.exit(f"FAILED: {doc} has no '{HEADING}' section")
    m = re.search(r"```python\n(.*?)```", text[at:], re.S)
    if not m:
        sys.exit(f"FAILED: no python block under '{HEADING}' in {doc}")
    return m.group(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--bin", required=True)
    opts = ap.parse_args()
    code = recipe(opts.doc)
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("skipped: python3-pandas is not installed (scripts/deps.sh --tests)")
        return 77
    with tempfile.TemporaryDirectory(prefix="mb-pandas-") as cwd:
        cmd = shlex.split(opts.mpiexec) + ["-np", "2", opts.bin, "imb-mpi1", "PingPong",
                                           "-msglog", "4", "-iter", "10", "--quiet",
                                           "--json", "results.jsonl"]
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            print(p.stderr[-2000:])
            print(f"FAILED: {shlex.join(cmd)}: status {p.returncode}")
            return 1
        env = {}
        out = io.StringIO()
        old = os.getcwd()
        os.chdir(cwd)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"{opts.doc} (pandas recipe)", "exec"), env)
        except Exception as e:  # the recipe is what a user copies: any error fails
            print(out.getvalue()[-2000:])
            print(f"FAILED: the recipe raised {type(e).__name__}: {e}")
            return 1
        finally:
            os.chdir(old)
    pp, when = env.get("pingpong"), env.get("when")
    problems = []
    if pp is None or len(pp) != 6:  # 0, 1, 2, 4, 8, 16 bytes
        problems.append(f"pingpong has {0 if pp is None else len(pp)} rows, expected 6")
    elif pp.run_id.nunique() != 1 or not (pp.mib_per_sec >= 0).all():
        problems.append("pingpong rows lack one run id or a bandwidth")
    if when is None or getattr(when, "tzinfo", None) is None:
        problems.append(f"the header's date {when!r} is not a timestamp with a zone")
    if "MB/s at best" not in out.getvalue():
        problems.append("the recipe printed no 'MB/s at best' line")
    if problems:
        print(out.getvalue()[-2000:])
        print("FAILED: " + "; ".join(problems))
        return 1
    print(f"ok: the recipe read {len(pp)} PingPong rows of run {pp.run_id.iloc[0]}, "
          f"started {when.isoformat()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
