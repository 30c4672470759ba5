# SPDX-License-Identifier: BSD-3-Clause
"""oracles.py: mpibench's simulated measurements against the platform's analytic model.

Runs the SMPI build (scripts/scale.sh) through smpirun.sh on cluster.xml, whose numbers are
the model: between two hosts a message of s bytes crosses two links of 0.5 us and 12.5 GB/s,
so it takes 1 us + s / 12.5e9 s; inside a host it crosses the loopback, 0.1 us + s / 50e9 s
(smpirun.sh sets SMPI's bandwidth and latency factors to 1). Checks, each within 2 %:
  pingpong   IMB-MPI1 PingPong: t(0 bytes) = latency, and Mbytes/sec at 4 MiB =
             s / 2^20 / (latency + s / bandwidth) - between hosts and (--per-host 2) inside one
  com        Presta com's pair bandwidths at 1 MiB on 2 and 4 processes (every pair on its
             own hosts, no link shared): pairs x directions x s / (latency + s / bandwidth)
             in MB/s (10^6)
  bcast      IMB-MPI1 Bcast at 1 MiB with SMPI's binomial tree on 4, 16 and 64 processes:
             log2(P) x (latency + s / bandwidth), growing with log2(P)
  beff       b_eff on 16 processes (--memory 1, L_max 8 KiB): per ring and random pattern and
             length L the best method's bandwidth, Irecv+Isend to both neighbours at once:
             2P x L / (latency + 2L / bandwidth) (P x L / (latency + L / bandwidth) for rings of
             2, where one message per pair remains); from it each pattern's average over the 21
             lengths, the rings' geometric mean at L_max and b_eff = sqrt(rings x random)
Prints one line per check and "N passed, N failed"; exit status 1 if any failed.

usage: oracles.py --bin BUILD_SMPI_DIR [--only NAME]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH = os.path.join(HERE, "smpirun.sh")
# cluster.xml: per-link latency and bandwidth; a message between hosts crosses two links
# (latencies add, the bandwidth is one link's), inside a host the loopback once.
LINK_LAT, LINK_BW = 0.5e-6, 12.5e9
LOOP_LAT, LOOP_BW = 0.1e-6, 50e9
TOLERANCE = 0.02


def model_time(size, per_host):
    if per_host == 1:
        return 2 * LINK_LAT + size / LINK_BW
    return LOOP_LAT + size / LOOP_BW


def run(bindir, np, per_host, prog, args, cfg=""):
    with tempfile.TemporaryDirectory(prefix="mb-oracle-") as cwd:
        env = dict(os.environ, MB_SCALE_PER_HOST=str(per_host), MB_SCALE_CFG=cfg)
        cmd = [LAUNCH, "-np", str(np), os.path.join(bindir, prog)] + args + ["--json", "r.jsonl"]
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: status {p.returncode}\n{p.stderr[-2000:]}")
        with open(os.path.join(cwd, "r.jsonl")) as f:
            return [json.loads(l) for l in f if l.strip()]


def near(what, got, want, results):
    ok = abs(got - want) <= TOLERANCE * abs(want)
    results.append(ok)
    print(f"{'ok' if ok else 'FAILED'}: {what}: measured {got:.6g}, model {want:.6g} "
          f"({100 * (got - want) / want:+.3f} %)")


def pingpong(bindir, results):
    big = 4194304
    for per_host, where in ((1, "between hosts"), (2, "inside a host")):
        recs = run(bindir, 2, per_host, "IMB-MPI1", ["PingPong", "-iter", "20", "-msglog", "22"])
        rows = {r["bytes"]: r for r in recs
                if r.get("type") == "result" and r.get("benchmark") == "PingPong"}
        near(f"PingPong {where}, 0 bytes, t [usec]", rows[0]["t_avg_usec"],
             model_time(0, per_host) * 1e6, results)
        near(f"PingPong {where}, {big} bytes, Mbytes/sec", rows[big]["mib_per_sec"],
             big / 2**20 / model_time(big, per_host), results)


def com(bindir, results):
    size = 1048576
    recs = run(bindir, 4, 1, "com", ["-o", "10", "-b", str(size), "-e", str(size)])
    rows = [r for r in recs if r.get("type") == "presta_row" and r.get("bytes") == size]
    if len(rows) != 4:
        raise RuntimeError(f"expected 4 com rows at {size} bytes, got {len(rows)}")
    for r in rows:
        # Every pair on its own two hosts: the pairs' bandwidths add up; both directions of a
        # link are independent (SPLITDUPLEX), so a bidirectional pair moves twice as much.
        pairs = r["processes"] // 2
        ways = 2 if r["test"] == "Bidirectional" else 1
        near(f"com {r['test']} on {r['processes']} processes, {size} bytes, MB/s",
             r["bandwidth_mb_per_sec"], pairs * ways * size / model_time(size, 1) / 1e6, results)


def bcast(bindir, results):
    # SMPI's binomial tree (named over smpirun.sh's MPICH selector, which would take scatter
    # and allgather for a long message): a rendezvous-sized message leaves the root once per level, one after
    # the other, and the deepest process receives it after log2(P) sequential transfers, so
    # t = log2(P) x (latency + s / bandwidth) - logarithmic growth with P.
    size = 1048576
    for np in (4, 16, 64):
        recs = run(bindir, np, 1, "IMB-MPI1",
                   ["Bcast", "-npmin", str(np), "-iter", "10", "-msglog", "20:20"],
                   cfg="--cfg=smpi/bcast:binomial_tree")
        row = [r for r in recs if r.get("type") == "result" and r.get("benchmark") == "Bcast"
               and r.get("bytes") == size and r.get("processes") == np]
        if len(row) != 1:
            raise RuntimeError(f"no Bcast row at {size} bytes on {np} processes")
        levels = np.bit_length() - 1
        near(f"Bcast (binomial tree) on {np} processes, {size} bytes, t_avg [usec]",
             row[0]["t_avg_usec"], levels * model_time(size, 1) * 1e6, results)


def beff(bindir, results):
    # Every process on its own host, so a ring's messages never share a link: in an iteration
    # of Irecv+Isend every process sends L bytes to each neighbour at once over its one uplink
    # and receives two over its downlink, t = latency + 2L / bandwidth for 2P messages; the
    # Sendrecv method sends them one after the other (2 x (latency + L / bandwidth)), so the
    # best method (b_eff's max over methods) is Irecv+Isend. A ring of 2 keeps one message per
    # pair after b_eff's pong removal: t = latency + L / bandwidth for P messages. b_eff's
    # bandwidth of a pattern is L x messages per iteration / iteration time (b_eff paper §3).
    np = 16
    recs = run(bindir, np, 1, "b_eff", ["--memory", "1", "--random", "2", "--repetitions", "1",
                                        "--max-looplength", "2", "--seed", "1"])
    pats = {r["pattern"]: r for r in recs if r.get("type") == "beff_pattern"}
    res = [r for r in recs if r.get("type") == "beff_result"]
    if len(res) != 1 or res[0]["processes"] != np:
        raise RuntimeError("no b_eff result record on 16 processes")
    res = res[0]
    lens = res["bytes"]
    used = [p for p in sorted(pats) if pats[p]["role"] in ("ring", "random")]

    def model(p, size):
        if not pats[p]["label"].endswith("fix") and pats[p]["role"] == "ring":
            raise RuntimeError(f"b_eff pattern {pats[p]['label']} has rings of two sizes")
        msgs = pats[p]["messages_per_iteration"]
        if msgs == np:
            return msgs * size / model_time(size, 1) / 1e6
        if msgs != 2 * np:
            raise RuntimeError(f"b_eff pattern {pats[p]['label']}: {msgs} messages")
        return msgs * size / (2 * LINK_LAT + 2 * size / LINK_BW) / 1e6

    best = {}
    for r in recs:
        if r.get("type") == "beff_measurement" and r["pattern"] in used:
            key = (r["pattern"], r["bytes"])
            best[key] = max(best.get(key, 0.0), r["mb_per_sec"])
    if len(best) != len(used) * len(lens):
        raise RuntimeError(f"b_eff: {len(best)} ring and random measurements, "
                           f"expected {len(used) * len(lens)}")
    worst = max(best, key=lambda k: abs(best[k] / model(*k) - 1))
    near(f"b_eff on {np} processes, worst of {len(best)} ring and random (pattern, length), "
         f"{pats[worst[0]]['label']} at {worst[1]} bytes, MB/s", best[worst], model(*worst),
         results)
    avg = {p: sum(model(p, size) for size in lens) / len(lens) for p in used}
    for p in used:
        near(f"b_eff pattern {p} {pats[p]['label']}, average over the lengths, MB/s",
             res["pattern_avg_mb_per_sec"][p], avg[p], results)

    def geo(values):
        return math.exp(sum(math.log(v) for v in values) / len(values))

    rings = [p for p in used if pats[p]["role"] == "ring"]
    randoms = [p for p in used if pats[p]["role"] == "random"]
    near(f"b_eff on {np} processes, rings at L_max {lens[-1]} bytes, MB/s",
         res["rings_at_lmax_mb_per_sec"], geo([model(p, lens[-1]) for p in rings]), results)
    near(f"b_eff on {np} processes, MB/s", res["b_eff_mb_per_sec"],
         math.sqrt(geo([avg[p] for p in rings]) * geo([avg[p] for p in randoms])), results)


CHECKS = {"pingpong": pingpong, "com": com, "bcast": bcast, "beff": beff}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, type=os.path.abspath,
                    help="the SMPI build directory")
    ap.add_argument("--only", choices=sorted(CHECKS))
    opts = ap.parse_args()
    results = []
    for name, fn in CHECKS.items():
        if opts.only and name != opts.only:
            continue
        try:
            fn(opts.bin, results)
        except (RuntimeError, KeyError, subprocess.TimeoutExpired) as e:
            results.append(False)
            print(f"FAILED: {name}: {e}")
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
