#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The acceptance checks of `mpibench compare` over groups of runs, on real main jobs:

1. ten back-to-back `mpirun -np 2 mpibench run --quick` jobs (scripts/runs.sh), runs 1-5
   against 6-10: the exit status (0 wanted) and the share of rows flagged (at most 2 %);
2. the same with runs 6-10 scaled by 1.25 in every time (bandwidths / 1.25; a copy, as
   bench/compare_noise.py makes it): the share of communication rows flagged (80 % wanted)
   and the exit status (1 wanted);
3. three runs with the library's TCP transport (Open MPI `--mca pml ob1 --mca btl tcp,self
   --mca osc pt2pt`; MPICH MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self) against three normal ones,
   interleaved (scripts/runs.sh --ab): the exit status (1 wanted).

Prints a Markdown table for docs/figures.md. Runs go to WORKDIR (new or empty).

Usage: compare_runs_check.py --build BUILD_DIR --mpi openmpi|mpich --workdir DIR [--reuse]
(--reuse: compare the runs an earlier call made in WORKDIR again, without running).
"""

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_noise  # noqa: E402  (scaled copies)

LAUNCH = {"openmpi": "mpiexec.openmpi --oversubscribe", "mpich": "mpiexec.mpich"}
TCP = {"openmpi": "mpiexec.openmpi --oversubscribe --mca pml ob1 --mca btl tcp,self "
                  "--mca osc pt2pt",
       "mpich": "env MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self mpiexec.mpich"}


def runs_sh(args, cwd):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "runs.sh")
    p = subprocess.run([script] + args, cwd=cwd, capture_output=True, text=True, timeout=7200)
    if p.returncode != 0:
        sys.exit(f"runs.sh {shlex.join(args)}: status {p.returncode}\n{p.stderr[-3000:]}")


def compare(binary, base, new):
    p = subprocess.run([binary, "compare", "--all", "--json", "-"] + base + ["--"] + new,
                       capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        sys.exit(f"compare: status {p.returncode}\n{p.stderr}")
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    rows = [r for r in recs if r["type"] == "compare_row" and
            r["verdict"] in ("regressed", "improved", "unchanged", "uncertain")]
    comm = [r for r in rows if not r["file_io"]]
    flagged = sum(r["verdict"] in ("regressed", "improved") for r in rows)
    comm_reg = sum(r["verdict"] == "regressed" for r in comm)
    fams = [r for r in recs if r["type"] == "compare_family"]
    over = next(r for r in recs if r["type"] == "compare_overall")
    return {"status": p.returncode, "rows": len(rows), "flagged": flagged,
            "comm": len(comm), "comm_regressed": comm_reg,
            "families_regressed": sum(f["verdict"] == "regressed" for f in fams),
            "families": len(fams), "overall": over["verdict"], "overall_ratio": over["ratio"]}


def line(name, r, want):
    print(f"| {name} | {r['status']} | {r['flagged']} of {r['rows']} "
          f"({100 * r['flagged'] / r['rows']:.1f} %) | {r['comm_regressed']} of {r['comm']} "
          f"({100 * r['comm_regressed'] / r['comm']:.1f} %) | {r['families_regressed']} of "
          f"{r['families']} | {r['overall']} ({r['overall_ratio']:.3f}) | {want} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--mpi", required=True, choices=sorted(LAUNCH))
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--reuse", action="store_true", help="compare the runs in WORKDIR again")
    opts = ap.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    binary = os.path.join(os.path.abspath(opts.build), "mpibench")
    os.makedirs(opts.workdir, exist_ok=True)
    wd = os.path.abspath(opts.workdir)
    job = f"{shlex.quote(binary)} run --quick --output-dir {{}}"
    print(f"# bench/compare_runs_check.py {shlex.join(sys.argv[1:])}")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    if opts.reuse:
        print(f"# the runs in {wd} are reused (their dates are in their headers)")
    else:
        runs_sh(["-o", "seq", "10", "--"] + shlex.split(LAUNCH[opts.mpi]) +
                ["-np", "2", binary, "run", "--quick", "--output-dir", "{}"], wd)
        runs_sh(["-o", "tcp", "--ab", "3", f"{LAUNCH[opts.mpi]} -np 2 {job}",
                 f"{TCP[opts.mpi]} -np 2 {job}"], wd)
    seq = [os.path.join(wd, "seq", f"RUN-{i}") for i in range(1, 11)]
    print("\n| comparison | status | rows flagged | communication rows regressed | families "
          "regressed | OVERALL | wanted |")
    print("|---|---|---|---|---|---|---|")
    line("runs 1-5 against 6-10", compare(binary, seq[:5], seq[5:]),
         "status 0, at most 2 % of rows")
    with tempfile.TemporaryDirectory(prefix="compare-runs-check-") as tmp:
        scaled = [compare_noise.scaled_copy(r, 1.25, tmp) for r in seq[5:]]
        line("runs 1-5 against 6-10 x 1.25", compare(binary, seq[:5], scaled),
             "status 1, at least 80 % of communication rows")
    line("3 runs against 3 over TCP", compare(binary,
                                              [os.path.join(wd, "tcp", f"A-{i}") for i in (1, 2, 3)],
                                              [os.path.join(wd, "tcp", f"B-{i}") for i in (1, 2, 3)]),
         "status 1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
