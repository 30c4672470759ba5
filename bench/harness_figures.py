#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Harness overhead, memory and scale figures, measured in one run on this machine.

1. Harness overhead: IMB-MPI1 PingPong (0 B latency, 4 MiB bandwidth) against the
   hand-written loop bench/ref_pingpong.c, same repetitions and the same warm-up rule (no
   warm-up at the length), runs alternating, median of --runs each. This isolates the
   harness's own cost; what the machine delivers compared with IMB 2021, OSU and a minimal
   loop that warms up every length is bench/peer_figures.py's job (docs/figures.md).
2. Memory: message-buffer bytes per process of every benchmark at the standard settings
   (from the JSON "buffer_bytes") against the IMB guide's Table 20, and the peak resident
   memory per process next to that of the reference program (the MPI library's own share).
3. Scale: `IMB-MPI1 Barrier Allreduce -msglen <small>` on --np-large processes (Open MPI,
   oversubscribed) completes; its wall time is printed next to the same run on np/4.

Usage: python3 bench/harness_figures.py [--build DIR] [--runs N] [--np-large 64]
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

MB = 1048576


def launcher(build):
    exe = None
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("MPIEXEC_EXECUTABLE:"):
                exe = line.split("=", 1)[1].strip()
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    flags = ["--oversubscribe"] if "Open MPI" in version or "OpenRTE" in version else []
    return [exe] + flags


def run(cmd, cwd=None):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    if proc.returncode != 0:
        sys.exit(f"failed: {shlex.join(cmd)}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout, time.monotonic() - start


def imb_pingpong(mpiexec, build, tmp, size, reps):
    # -iter reps,vol so that exactly `reps` repetitions run at this size (guide 5.2.8).
    vol_mb = max(1, size * reps // MB)
    out, _ = run(mpiexec + ["-np", "2", os.path.join(build, "IMB-MPI1"), "PingPong",
                            "-msglen", os.path.join(tmp, f"len{size}"),
                            "-iter", f"{reps},{vol_mb}", "--json", os.path.join(tmp, "pp.jsonl")])
    with open(os.path.join(tmp, "pp.jsonl")) as f:
        rows = [json.loads(l) for l in f if '"result"' in l]
    assert rows[0]["repetitions"] == reps, rows[0]
    return rows[0]["t_max_usec"], rows[0]["mib_per_sec"]


def ref_pingpong(mpiexec, build, size, reps):
    out, _ = run(mpiexec + ["-np", "2", os.path.join(build, "mb_ref_pingpong"), str(size),
                            str(reps)])
    _, usec, mbps = out.split()
    return float(usec), float(mbps)


def overhead(mpiexec, build, tmp, runs):
    print("== 1. Harness overhead: IMB-MPI1 PingPong vs a hand-written ping-pong "
          f"(median of {runs} alternating runs)")
    for size, reps, what in ((0, 100000, "latency usec"), (4 * MB, 1000, "bandwidth MB/s")):
        with open(os.path.join(tmp, f"len{size}"), "w") as f:
            f.write(f"{size}\n")
        imb, ref = [], []
        for _ in range(runs):
            t, bw = imb_pingpong(mpiexec, build, tmp, size, reps)
            imb.append(t if size == 0 else bw)
            t, bw = ref_pingpong(mpiexec, build, size, reps)
            ref.append(t if size == 0 else bw)
        mi, mr = statistics.median(imb), statistics.median(ref)
        ratios = [a / b for a, b in zip(imb, ref)]
        print(f"  {size:>8} B x {reps:>6}: {what}: IMB-MPI1 {mi:.3f}  reference {mr:.3f}  "
              f"ratio {mi / mr:.4f} (pairwise median {statistics.median(ratios):.4f}, "
              f"range {min(ratios):.3f}..{max(ratios):.3f})")


TABLE20 = {  # guide 7.1, standard mode, per process, Q active processes (X = 4 MB)
    "Alltoall": lambda q: q * 8 * MB, "Alltoallv": lambda q: q * 8 * MB,
    "Allgather": lambda q: (q + 1) * 4 * MB, "Allgatherv": lambda q: (q + 1) * 4 * MB,
    "Exchange": lambda q: 12 * MB,
}


def memory(mpiexec, build, tmp, np):
    print(f"== 2. Memory per process at the standard settings, {np} processes")
    path = os.path.join(tmp, "all.jsonl")
    _, secs = run(mpiexec + ["-np", str(np), os.path.join(build, "IMB-MPI1"), "--json", path])
    worst = {}
    peak = None
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] == "result":
                key = (r["benchmark"], r["processes"])
                worst[key] = max(worst.get(key, 0), r["buffer_bytes"])
            elif r["type"] == "summary":
                peak = r["peak_rss_bytes"]
    ok = True
    for (name, q), got in sorted(worst.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        # Scatter(v)/Gather(v) are not in Table 20 (new in 3.1): the root needs (Q+1)*X.
        limit = TABLE20.get(name, lambda q: 8 * MB)(q)
        if name in ("Scatter", "Scatterv", "Gather", "Gatherv"):
            limit = (q + 1) * 4 * MB
        flag = "ok" if got <= limit else "OVER"
        ok &= got <= limit
        print(f"  {name:<15} Q={q:<3} buffers {got / MB:8.2f} MB   Table 20 {limit / MB:8.2f} MB  {flag}")
    # The same run with no message buffers (Barrier only) shows what MPI itself occupies.
    base_path = os.path.join(tmp, "barrier.jsonl")
    run(mpiexec + ["-np", str(np), os.path.join(build, "IMB-MPI1"), "Barrier", "-iter", "10",
                   "--json", base_path])
    with open(base_path) as f:
        base = [json.loads(l) for l in f][-1]["peak_rss_bytes"]
    most = max(worst.values())
    print(f"  peak resident memory per process, whole run ({secs:.1f} s): {peak / MB:.1f} MB = "
          f"{base / MB:.1f} MB without message buffers (Barrier only) + "
          f"{(peak - base) / MB:.1f} MB (largest block's buffers: {most / MB:.1f} MB)")
    print(f"  all message buffers within Table 20: {'yes' if ok else 'NO'}")
    return ok


def scale(mpiexec, build, tmp, np_large):
    print(f"== 3. Setup cost: Barrier Allreduce on {np_large // 4} and {np_large} processes "
          "(oversubscribed)")
    with open(os.path.join(tmp, "small"), "w") as f:
        f.write("0\n4\n1024\n")
    times = {}
    for np in (np_large // 4, np_large):
        _, secs = run(mpiexec + ["-np", str(np), os.path.join(build, "IMB-MPI1"), "Barrier",
                                 "Allreduce", "-msglen", os.path.join(tmp, "small"), "-iter", "100"])
        _, hello = run(mpiexec + ["-np", str(np), os.path.join(build, "IMB-MPI1"), "--version"])
        times[np] = (secs, hello)
        print(f"  np {np:>4}: {secs:6.1f} s wall, of which {hello:5.1f} s are launching and "
              f"MPI_Init/Finalize (a --version run)")
    (s1, h1), (s2, h2) = times[np_large // 4], times[np_large]
    print(f"  work beyond start-up grows {((s2 - h2) / max(s1 - h1, 1e-3)):.1f}x for 4x the "
          "processes (each Q block adds a Barrier/Allreduce run on more ranks than cores)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-openmpi")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--np-large", type=int, default=64)
    ap.add_argument("--skip", default="", help="comma list of sections to skip: 1,2,3")
    opts = ap.parse_args()
    mpiexec = launcher(opts.build)
    skip = set(opts.skip.split(","))
    with tempfile.TemporaryDirectory(prefix="mb-bench-") as tmp:
        if "1" not in skip:
            overhead(mpiexec, opts.build, tmp, opts.runs)
        if "2" not in skip:
            memory(mpiexec, opts.build, tmp, 4)
        if "3" not in skip:
            scale(mpiexec, opts.build, tmp, opts.np_large)


if __name__ == "__main__":
    main()
