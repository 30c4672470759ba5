# SPDX-License-Identifier: BSD-3-Clause
"""Variants of one program run in alternating rounds, each run under chrt -f 1 on 2 processes:
what bench/imb_variants.py and bench/presta_variants.py share. A variant is NAME=BINARY[:ARGS];
the round k starts with variant k (mod n), so that no variant always runs first."""
import os
import subprocess
import sys


def parse(specs):
    """[(name, binary, [args])] of the NAME=BINARY[:ARGS] arguments."""
    variants = []
    for spec in specs:
        name, _, rest = spec.partition("=")
        binary, _, args = rest.partition(":")
        variants.append((name, binary, args.split()))
    return variants


def run(rounds, variants, args_of, parse_out):
    """Runs every variant in every round; parse_out(stdout) gives {key: value} of one run.
    Returns {key: {name: [values]}}, or None when a run failed (its command and stderr are
    printed). args_of(binary, args) is the command after the launcher and -np 2."""
    launcher = os.environ.get("MPIEXEC", "mpiexec --oversubscribe").split()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    res = {}
    for r in range(rounds):
        k = r % len(variants)
        for name, binary, args in variants[k:] + variants[:k]:
            cmd = ["chrt", "-f", "1"] + launcher + ["-np", "2"] + args_of(binary, args)
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
            if out.returncode != 0:
                print(f"exit {out.returncode}: {' '.join(cmd)}\n{out.stderr[-1500:]}",
                      file=sys.stderr)
                return None
            for key, value in parse_out(out.stdout).items():
                res.setdefault(key, {}).setdefault(name, []).append(value)
    return res
