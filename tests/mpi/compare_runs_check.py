#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""compare over real groups of runs (docs/adr/compare-runs.md): scripts/runs.sh --ab 5 makes
five runs of IMB-MPI1 PingPong and PingPing over the library's shared-memory path (A) and
five over TCP (B: Open MPI `--mca pml ob1 --mca btl tcp,self --mca osc pt2pt`; MPICH
MPIR_CVAR_NOLOCAL=1 with UCX over tcp), interleaved A B B A A B B A A B. TCP over loopback is
10-30 times slower for small messages here, far beyond any run-to-run noise, so:

  - compare A... -- B... exits 1: the U test over the runs, both families and OVERALL
    regressed, every ratio above 2, the group form in the summary; 5 runs a side, not 3:
    Welch's t test of 3 against 3 lost a run to an outlier once under the sanitizers and a
    loaded CI (one run far off its group), the U test of 5 keeps its verdict with one run out
    of order (p = 0.016); 3 against 3 is bench/compare_runs_check.py's check on main jobs;
  - compare B... -- A... exits 0 with both families improved;
  - plot A... -- B... draws the groups and a ratio plot;
  - A/A of real runs (A-1 A-2 -- A-3): a valid comparison (status 0 or 1; its JSON fits the
    schema) - no status is asserted, real runs may differ.

Each run is limited to 60 s (coreutils timeout): MPICH 4.0.2 over UCX tcp hangs now and then
in MPI_Finalize when the machine is loaded (2-8 % of runs under a parallel ctest, 0 of 150
alone; rank 0 in ucp_worker_progress, rank 1 in the PMI barrier, every result written). The
test runs alone (RUN_SERIAL) and a hung run fails it in a minute, naming the run, instead of
at ctest's timeout.

Usage: compare_runs_check.py --mpiexec 'LAUNCHER FLAGS' --bindir DIR --script runs.sh
           --schema compare.schema.json --mpi openmpi|mpich
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

SLOW = {
    "openmpi": "OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self OMPI_MCA_osc=pt2pt",
    "mpich": "MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self",
}
FAMILIES = ("IMB-MPI1 PingPong, 2 procs", "IMB-MPI1 PingPing, 2 procs")


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def compare(opts, cwd, want, *args):
    p = subprocess.run([os.path.join(opts.bindir, "mpibench"), "compare", "--json", "-", *args],
                       cwd=cwd, capture_output=True, text=True, timeout=120)
    check(p.returncode in want, f"compare {' '.join(args)}: status {p.returncode}, expected "
          f"{want}\n{p.stderr}{p.stdout[-1500:]}")
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    import jsonschema
    v = jsonschema.Draft7Validator(json.load(open(opts.schema)))
    for r in recs:
        errs = list(v.iter_errors(r))
        check(not errs, f"{json.dumps(r)[:300]}: {[e.message[:200] for e in errs[:2]]}")
    fams = {r["family"]: r for r in recs if r["type"] == "compare_family"}
    over = next(r for r in recs if r["type"] == "compare_overall")
    return fams, over, recs[-1]


def latencies(cwd, runs):
    """Each run's PingPong time at 0 bytes (what a failure message shows)."""
    out = {}
    for r in runs:
        for line in open(os.path.join(cwd, r, "results.jsonl")):
            x = json.loads(line)
            if x.get("type") == "result" and x.get("benchmark") == "PingPong" and \
                    x.get("bytes") == 0:
                out[r] = round(x["t_avg_usec"], 2)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--mpi", required=True, choices=sorted(SLOW))
    opts = ap.parse_args()
    opts.bindir = os.path.abspath(opts.bindir)
    run = (f"timeout -k 5 60 {opts.mpiexec} -np 2 {shlex.quote(os.path.join(opts.bindir, 'mpibench'))} "
           "imb-mpi1 PingPong PingPing -msglog 0:12 -iter 100 --json {}/results.jsonl")
    with tempfile.TemporaryDirectory(prefix="mb-compare-runs-") as cwd:
        try:
            p = subprocess.run([opts.script, "-o", "d", "--ab", "5", run,
                                f"env {SLOW[opts.mpi]} {run}"], cwd=cwd, capture_output=True,
                               text=True, timeout=600)
            check(p.returncode == 0, f"runs.sh: status {p.returncode}\n{p.stderr[-2000:]}")
            a = [f"d/A-{i}" for i in range(1, 6)]
            b = [f"d/B-{i}" for i in range(1, 6)]
            seen = latencies(cwd, a + b)
            fams, over, s = compare(opts, cwd, (1,), *a, "--", *b)
            check(s["form"] == "runs" and len(s["base_runs"]) == 5 and s["exit_status"] == 1,
                  f"A -- B: {s}; PingPong 0 B per run: {seen}")
            for name in FAMILIES:
                f = fams[name]
                check(f["test"] == "mann_whitney_u_runs" and f["verdict"] == "regressed" and
                      f["ratio"] > 2, f"A -- B, {name}: {f}; PingPong 0 B per run: {seen}")
            check(over["verdict"] == "regressed" and over["ratio"] > 2, f"A -- B: {over}")
            fams, over, s = compare(opts, cwd, (0,), *b, "--", *a)
            check(all(fams[n]["verdict"] == "improved" for n in FAMILIES) and
                  over["verdict"] == "improved", f"B -- A: {fams} {over}")
            compare(opts, cwd, (0, 1), a[0], a[1], "--", a[2])
            p = subprocess.run([os.path.join(opts.bindir, "mpibench"), "plot", "-o", "p", *a,
                                "--", *b], cwd=cwd, capture_output=True, text=True, timeout=120)
            check(p.returncode in (0, 1) and os.path.isfile(os.path.join(cwd, "p", "ratio_01.dat"))
                  and os.path.isfile(os.path.join(cwd, "p", "pt2pt_latency.dat")),
                  f"plot of the groups: status {p.returncode}\n{p.stderr}")
        except Failed as e:
            print(f"FAILED: compare.runs: {e}")
            return 1
    print(f"ok: compare.runs: 5 shared-memory runs against 5 over TCP ({opts.mpi}): status 1, "
          "both families and OVERALL regressed; the other way round improved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
