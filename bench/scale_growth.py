# SPDX-License-Identifier: BSD-3-Clause
"""How a suite's host cost grows with the process count under SimGrid's SMPI (docs/scale.md,
"Growth with P and the estimate for 100 000").

For every suite and every P of --procs, runs the suite once on P simulated processes of
tests/scale/cluster.xml (tests/scale/smpirun.sh, the SMPI build of scripts/scale.sh) with the
smallest measurement it allows, and records:
  wall_s, cpu_s    host seconds (elapsed; user + system of the simulator)
  setup_s          host seconds from the start to the first table row on stdout: the
                   start-up, configuration, provenance and plan, before any measurement
                   (b_eff and globalop: to the line printed just before the first
                   measurement, SETUP_END)
  rss_MB, rss_kB_per_proc
                   the simulator's peak resident memory (/usr/bin/time's maximum resident
                   set), and that over P: what one simulated process costs, SMPI's own share
                   (a copy of the program's data per process, stacks, requests) included
  txt_B, json_B, json_rows
                   the bytes of the text and JSON output, and its JSON records that are
                   measurements (IMB's "result", Presta's rows)
The suites with the smallest settings (one process count, the fewest operations, one or two
lengths): imb-mpi1 (PingPong and Allreduce on all P), imb-ext (Unidir_Put), com, laten,
rma (one process count, -f), allred; globalop (Presta 1.2's fixed loops, no settings);
beff (b_eff's full definition, every free setting smallest, below); "version" runs
`mpibench --version`, which starts no MPI:
what SMPI costs for P processes before mpibench does anything.

  nice -n 19 python3 bench/scale_growth.py --procs 256,1024 --out scale-growth
  nice -n 19 python3 bench/scale_growth.py --procs 4096 --suites imb-mpi1 --out scale-growth
  python3 bench/scale_growth.py --procs 256 --suites beff,globalop --out scale-growth

(beff and globalop are not in the default --suites: 1 and 19 minutes of host CPU on 256
processes, 12 minutes for beff on 1 024, hours beyond; docs/scale.md.)

Each run's files stay in OUT/<suite>-P<P>/; one line per run is appended to OUT/growth.tsv.
Bcast, Allreduce and Reduce run MPICH's short-message algorithms without SMPI's SMP
detection (FLAT_COLLS below; --smp-colls keeps the selector's): at 256 processes that
detection was 6 of IMB-MPI1's 7 CPU seconds, and it grows as P^2 per communicator.
A run that does not end within --timeout host seconds is stopped and recorded as status
"timeout". Exits 0 when every run ended with status 0.

--stop-after-rows K stops each run when its K-th row after the setup is on stdout, and records
status "stopped@K": for the runs of hours (b_eff on 4 096, globalop on 1 024 and 4 096) the
setup, the peak memory and the CPU seconds per row, without the whole run. The peak is the
peak up to that row; docs/scale.md compares it, at the P where both ran, with the whole run's.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

# A measured row: not a header line ("#"), ending in a decimal figure (IMB's Mbytes/sec, Presta
# com's op time, laten's latency, allred's first sample). Its arrival on stdout ends the setup.
ROW = re.compile(r"^[^#].*\d\.\d{2,}\s*$")
# Suites whose first row comes only after a long first measurement end their setup at the
# line they print (and flush) just before measuring: b_eff's progress table head (its first row
# is the first of 21 lengths, every pattern and method), globalop's "Testing N=" (its first row
# is a whole section of 4096 iterations).
SETUP_END = {"beff": re.compile(r"^#rep "), "globalop": re.compile(r"^Testing N=")}
# JSON records that are measurements (the others: header, summary, footers).
MEASURED = ("result", "presta_row", "presta_allred", "presta_globalop", "beff_measurement")
# Collectives that do not start SMPI's SMP detection: SimGrid 3.32's MPICH selector runs
# Comm::init_smp on the first Bcast, Allreduce or Reduce of every new communicator (and the
# communicator's constructor itself broadcasts its id), a ring Allgather of P(P-1) messages
# plus an O(P x hosts) loop in every process; with one process per host it finds nothing to
# share. These are the algorithms MPICH's selector takes for short messages without it.
FLAT_COLLS = "--cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb --cfg=smpi/reduce:binomial"
HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH = os.path.join(HERE, "..", "tests", "scale", "smpirun.sh")


def suite_args(suite, p, d):
    """The program's arguments for the smallest measurement of suite on p processes."""
    if suite == "version":
        return ["--version"]
    counts = os.path.join(d, "counts")
    with open(counts, "w") as f:
        f.write(f"{p}\n")
    return {
        "imb-mpi1": ["imb-mpi1", "-npmin", str(p), "-iter", "1,1", "-msglog", "0:0",
                     "-time", "0.01", "PingPong", "Allreduce"],
        "imb-ext": ["imb-ext", "-npmin", str(p), "-iter", "1,1", "-msglog", "0:0",
                    "-time", "0.01", "Unidir_Put"],
        "com": ["presta-com", "-o", "1", "-b", "32", "-e", "32", "-f", counts],
        "laten": ["presta-laten", "-o", "1", "-f", counts],
        "rma": ["presta-rma", "-o", "1", "-c", "1", "-b", "32", "-e", "32", "-f", counts],
        "allred": ["presta-allred", "1", "1", "1"],
        # globalop has no settings (Presta 1.2's loops of 4096 operations, 3 repetitions):
        # scripts/scale.sh's run, as it is.
        "globalop": ["presta-globalop"],
        # b_eff as b_eff 3.6 defines it (21 lengths, the 6 rings and random rings, 3 methods,
        # the best of them), with what the definition leaves free set smallest: L_max from 1 MB
        # per process, one random ring (b_eff's log-average over random rings of one), one
        # repetition, one iteration per timed loop. scripts/scale.sh uses --random 2
        # --max-looplength 2.
        "beff": ["beff", "--memory", "1", "--random", "1", "--repetitions", "1",
                 "--max-looplength", "1", "--seed", "1"],
    }[suite]


def simulator_usage(binary):
    """(CPU seconds, peak resident kB) of the running simulator of binary (SimGrid's smpimain,
    binary its first argument), from /proc: what /usr/bin/time would report at its end, read
    before a stopped run ends it."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu, peak = 0.0, 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            if len(argv) < 2 or os.fsdecode(argv[1]) != binary:
                continue
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            with open(f"/proc/{pid}/status") as f:
                peak = max([peak] + [int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:")])
        except (OSError, IndexError, ValueError):
            pass
    return cpu, peak


def run_one(binary, suite, p, out, timeout, stop_after=0):
    d = os.path.join(out, f"{suite}-P{p}")
    os.makedirs(d, exist_ok=True)
    args = suite_args(suite, p, d)
    json_path = os.path.join(d, "out.jsonl")
    if suite != "version":
        args += ["--json", json_path]
    timef = os.path.join(d, "time.txt")
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", timef, LAUNCH, "-np", str(p),
           binary] + args
    start = time.monotonic()
    first_row = [None]
    rows_seen = [0]
    at_stop = [None]
    txt = open(os.path.join(d, "out.txt"), "w")
    err = open(os.path.join(d, "out.err"), "w")
    proc = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=err, text=True,
                            start_new_session=True)

    def read():
        for line in proc.stdout:
            txt.write(line)
            txt.flush()  # a long run's progress can be read while it runs
            if first_row[0] is None:
                if SETUP_END.get(suite, ROW).match(line):
                    first_row[0] = time.monotonic() - start
                    rows_seen[0] = suite not in SETUP_END  # that line was a row
            elif ROW.match(line):
                rows_seen[0] += 1
            if stop_after and rows_seen[0] == stop_after:
                rows_seen[0] += 1  # once
                at_stop[0] = (time.monotonic() - start,) + simulator_usage(binary)
                os.killpg(proc.pid, 15)

    reader = threading.Thread(target=read)
    reader.start()
    status = None
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 15)
        proc.wait()
        status = "timeout"
    reader.join()
    if stop_after and rows_seen[0] > stop_after:
        status = f"stopped@{stop_after}"
    txt.close()
    err.close()
    wall = cpu = rss_kb = None
    try:
        with open(timef) as f:
            last = f.read().split("\n")
        nums = [ln for ln in last if re.match(r"^[\d.]+ [\d.]+ [\d.]+ \d+$", ln)][-1].split()
        wall, cpu, rss_kb = float(nums[0]), float(nums[1]) + float(nums[2]), int(nums[3])
    except (OSError, IndexError, ValueError):
        wall = time.monotonic() - start
    if at_stop[0] is not None:
        wall, cpu, rss_kb = at_stop[0]
    rows = 0
    if os.path.exists(json_path):
        with open(json_path) as f:
            for line in f:
                try:
                    rows += json.loads(line).get("type") in MEASURED
                except ValueError:
                    pass
    return {
        "suite": suite, "P": p, "status": status,
        "colls": "smp" if "smpi/bcast" not in os.environ.get("MB_SCALE_CFG", "") else "flat",
        "wall_s": round(wall, 1) if wall is not None else "",
        "cpu_s": round(cpu, 1) if cpu is not None else "",
        "setup_s": round(first_row[0], 1) if first_row[0] is not None else "",
        "rss_MB": round(rss_kb / 1024, 1) if rss_kb else "",
        "rss_kB_per_proc": round(rss_kb / p, 1) if rss_kb else "",
        "txt_B": os.path.getsize(os.path.join(d, "out.txt")),
        "json_B": os.path.getsize(json_path) if os.path.exists(json_path) else 0,
        "json_rows": rows,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build-smpi/mpibench", help="the SMPI build's mpibench")
    ap.add_argument("--procs", default="256,1024,4096", help="process counts, comma-separated")
    ap.add_argument("--suites", default="imb-mpi1,imb-ext,com,laten,rma,allred")
    ap.add_argument("--out", default="scale-growth", help="directory for the runs and growth.tsv")
    ap.add_argument("--timeout", type=float, default=3600, help="host seconds per run")
    ap.add_argument("--smp-colls", action="store_true",
                    help="keep SMPI's MPICH selector for Bcast/Allreduce/Reduce (its SMP "
                         "detection costs O(P^2) host time per communicator)")
    ap.add_argument("--stop-after-rows", type=int, default=0, metavar="K",
                    help="stop each run at its K-th row after the setup (status stopped@K)")
    a = ap.parse_args()
    if not a.smp_colls:
        os.environ["MB_SCALE_CFG"] = (os.environ.get("MB_SCALE_CFG", "") + " " + FLAT_COLLS).strip()
    binary = os.path.abspath(a.bin)
    os.makedirs(a.out, exist_ok=True)
    out = os.path.abspath(a.out)
    cols = ["suite", "P", "colls", "status", "wall_s", "cpu_s", "setup_s", "rss_MB", "rss_kB_per_proc",
            "txt_B", "json_B", "json_rows"]
    tsv = os.path.join(out, "growth.tsv")
    new = not os.path.exists(tsv)
    with open(tsv, "a") as f:
        if new:
            f.write("\t".join(cols) + "\n")
    ok = True
    for p in [int(x) for x in a.procs.split(",")]:
        for suite in a.suites.split(","):
            r = run_one(binary, suite, p, out, a.timeout, a.stop_after_rows)
            line = "\t".join(str(r[c]) for c in cols)
            print(line, flush=True)
            with open(tsv, "a") as f:
                f.write(line + "\n")
            ok = ok and r["status"] in (0, f"stopped@{a.stop_after_rows}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
