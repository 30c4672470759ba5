#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How often `mpibench map` names an outlier when nothing is wrong, and how often it names the
slowed host when one is: the default --outlier-factor judged on what a user sees.

On the multi-host test tier's hosts (network namespaces, tests/multihost/netns_hosts.py; root,
iproute2, Open MPI), alternately: a map with the links as they are ("plain") and a map with
the last host's link slowed by tc ("slowed": netns_hosts.Hosts.slow_link, netem's delay and
rate where the kernel has netem, else a tbf rate limit), --runs times each. Prints per kind the runs, those naming any
host or link, those naming exactly the slowed host and nothing else, and the spread and
threshold of the runs (docs/adr/node-map.md).

Usage: python3 bench/map_outliers.py --bindir BUILD [--hosts 3] [--runs 20]
           [--factor F] [--mpirun mpirun.openmpi]
Python's standard library only; nothing here is shared with mpibench.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "multihost"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "tierlib"))
import netns_hosts  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--hosts", type=int, default=3)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--factor", type=float, help="--outlier-factor (default: mpibench's)")
    ap.add_argument("--mpirun", default="mpirun.openmpi")
    opts = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("map_outliers: needs root (network namespaces)")
    args = ["map", "--json", "m.jsonl"] + (["--outlier-factor", str(opts.factor)]
                                            if opts.factor else [])
    stats = {"plain": [], "slowed": []}
    qdisc = None
    t0 = time.time()
    with netns_hosts.Hosts(opts.hosts, f"mbo{os.getpid() % 10000}", shutil.which(opts.mpirun),
                           os.path.abspath(opts.bindir), log=lambda *a: None) as hosts:
        spec = ",".join(f"{h}:1" for h in hosts.names)
        victim = hosts.names[-1]
        for k in range(opts.runs):
            for kind in ("plain", "slowed"):
                if kind == "slowed":
                    qdisc = hosts.slow_link(victim)
                try:
                    r = hosts.run(f"{kind}{k}", spec, opts.hosts, "mpibench", args, timeout=300)
                finally:
                    if kind == "slowed":
                        hosts.unslow_link(victim)
                with open(os.path.join(r.cwd, "m.jsonl")) as f:
                    res = [json.loads(x) for x in f if '"map_result"' in x][0]
                stats[kind].append((res["outlier_hosts"], res["outlier_links"],
                                    res["spread_percent"], res["threshold_percent"]))
    print(f"`python3 bench/map_outliers.py {' '.join(sys.argv[1:])}` - "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(t0))}, "
          f"{(time.time() - t0) / 60:.1f} min; {opts.hosts} namespace hosts, the last slowed "
          f"by {qdisc}\n")
    print("| maps | runs | naming any host or link | naming exactly the slowed host | "
          "spread (median, max) | threshold (median) |")
    print("|---|---|---|---|---|---|")
    for kind, rows in stats.items():
        anything = sum(1 for h, l, _, _ in rows if h or l)
        exact = sum(1 for h, l, _, _ in rows if h == [victim] and l == 0)
        spreads = [s for _, _, s, _ in rows]
        print(f"| {kind} | {len(rows)} | {anything} | {exact} | "
              f"{statistics.median(spreads):.1f} %, {max(spreads):.1f} % | "
              f"{statistics.median(t for *_, t in rows):.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
