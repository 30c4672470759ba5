#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""No output of mpibench claims another vendor's product name (docs/adr/licence-and-names.md).

IMB 3.1's trademark licence allows "Intel(R) MPI Benchmarks" only for results of Intel's
unchanged source. This runs every suite briefly (IMB-MPI1, IMB-EXT, IMB-IO, b_eff, b_eff_io,
Presta com and laten) with its JSON file, and asks for the top-level and every suite's --help,
and fails when the vendor's product name appears in any text or JSON output. It also checks that
each run's first header line names mpibench and the methodology it follows.
Usage: vendor_names_check.py --mpiexec "CMD" --bin DIR [--np N]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

# The product name in the spellings IMB 3.1 prints it and its documents write it.
CLAIM = re.compile(r"Intel\s*\(R\)|Intel\s+MPI\s+Benchmarks", re.I)

L4 = "0\n1\n1024\n"
IO_ITER = ["-msglen", "L", "-iter", "4,1,2", "--cpu-secs", "0.001"]

# (program, arguments, the header line that names mpibench and the methodology)
RUNS = [
    ("IMB-MPI1", ["-msglen", "L", "-iter", "10", "PingPong", "Allreduce"],
     r"^#    mpibench \S+: IMB-MPI1 \(MPI-1 part\), following the IMB 3\.1 methodology$"),
    ("IMB-EXT", ["-msglen", "L", "-iter", "10", "Unidir_Put"],
     r"^#    mpibench \S+: IMB-EXT \(MPI-2 part\), following the IMB 3\.1 methodology$"),
    ("IMB-IO", IO_ITER + ["S_Write_Indv"],
     r"^#    mpibench \S+: IMB-IO \(MPI-IO part\), following the IMB 3\.1 methodology$"),
    ("b_eff", ["--memory", "1", "--random", "3", "--repetitions", "2", "--max-looplength", "20"],
     r"^mpibench \S+ b_eff, following the b_eff 3\.6 methodology, "),
    ("b_eff_io", ["-MB", "16", "-T", "2"],
     r"^b_eff_io \(mpibench \S+\), following the rules of b_eff_io release 2\.1$"),
    ("com", ["-o", "5", "-b", "32", "-e", "1024"],
     r"^# mpibench \S+: presta-com, following the Presta 1\.2 com methodology$"),
    ("laten", ["-o", "20"],
     r"^# mpibench \S+: presta-laten, following the Presta 1\.2 laten methodology$"),
]
HELP = ["mpibench", "IMB-MPI1", "IMB-EXT", "IMB-IO", "b_eff", "b_eff_io", "com", "laten", "rma",
        "allred", "globalop"]

failures = []


def claims(what, text):
    """Records a failure for every line of text that names the vendor's product."""
    for line in text.splitlines():
        if CLAIM.search(line):
            failures.append(f"{what}: {line.strip()!r}")


def run(opts, prog, args, cwd):
    cmd = shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.join(opts.bin, prog)] + args
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=opts.timeout)
    if p.returncode != 0:
        failures.append(f"{prog} {' '.join(args)}: exit status {p.returncode}\n{p.stderr[-2000:]}")
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=240)
    opts = ap.parse_args()
    # `mpibench help X` prints what `X --help` prints under mpirun, byte for byte
    # (cli.help_is_suite_help.*), without starting an MPI job per text.
    for prog in HELP:
        words = [] if prog == "mpibench" else [prog]
        p = subprocess.run([os.path.join(opts.bin, "mpibench"), "help"] + words,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=opts.timeout)
        if p.returncode != 0:
            failures.append(f"mpibench help {prog}: exit status {p.returncode}")
        claims(f"{prog} --help", p.stdout + p.stderr)
    for prog, args, first in RUNS:
        with tempfile.TemporaryDirectory() as cwd:
            with open(os.path.join(cwd, "L"), "w") as f:
                f.write(L4)
            p = run(opts, prog, args + ["--json", "out.jsonl"], cwd)
            claims(f"{prog} output", p.stdout + p.stderr)
            if not re.search(first, p.stdout, re.M):
                failures.append(f"{prog}: no header line matching {first!r}")
            # Every file the run wrote: the JSON records, b_eff's and b_eff_io's protocols.
            names = sorted(os.listdir(cwd))
            if "out.jsonl" not in names:
                failures.append(f"{prog}: out.jsonl was not written")
            for name in names:
                path = os.path.join(cwd, name)
                if os.path.isfile(path) and name != "L":
                    with open(path, errors="replace") as f:
                        claims(f"{prog} {name}", f.read())
            print(f"{prog}: {len(names)} files checked")
    if failures:
        print("FAIL:\n" + "\n".join(failures))
        return 1
    print(f"ok: no vendor product name in {len(HELP)} help texts and {len(RUNS)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
