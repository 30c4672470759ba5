#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-IO under mpiexec and check its text and JSON output and the user's files.

IMB-IO's rules, re-derived from the IMB 3.1 guide independently of the C code, on top of
imb_check.py's IMB machinery (process counts, Multi groups, -map, table layout, JSON = text):
the 37 benchmarks in the original's default order (writes, reads, Open_Close; 4.2.4, Table 1),
settings_io.h's constants (50 / 10 repetitions, 16 MB, lengths to 2^24, Pmin 1; 5.2.1), S_
benchmarks on exactly one process (4.2.1.1), every transfer reporting X/1.048576/t including
the collectives, blocking writes in an aggregate and a non-aggregate block, reads and the
non-blocking benchmarks in one "MODE: AGGREGATE" block (4.2.2.2, 4.2.5), the non-blocking
tables' t_ovrl, t_pure, t_CPU and overlap = 100 * clamp((t_pure + t_CPU - t_ovrl) /
min(t_pure, t_CPU)) (4.2.5.2), Open_Close as one row without #bytes (4.2.4.10) with IMB 3.1's
MSGS_NONAGGR repetitions (-open_close_reps guide: MSGSPERSAMPLE).

The user's files: every file the test created before the run (--file) must be there
afterwards with the same content (except those named by --consumed: --force takes them over),
and the run may leave no file behind (the frame's check; -keep runs name theirs with
--creates). The header must name the scratch directory and its file system and, when a
non-blocking benchmark runs, CPU_Exploit's Mflop/s; every non-blocking row shows the same
t_CPU (rank 0's calibration).

Usage: io_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-IO arguments
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imb_check  # noqa: E402  (the IMB rules and text/JSON checks, parameterised by family)
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402


def _io_family():
    bench, aggregate, aggr_only, overlap = {}, [], [], []
    kinds = {"S": ("single", True), "P": ("parallel", False), "C": ("collective", False)}
    positions = {"S": ["Indv", "Expl"], "P": ["Indv", "Shared", "Priv", "Expl"],
                 "C": ["Indv", "Shared", "Expl"]}
    for action in ("Write", "Read"):
        for k in ("S", "P", "C"):
            cls, single = kinds[k]
            for pos in positions[k]:
                for nb in ("", "I"):
                    name = f"{k}_{nb}{action}_{pos}"
                    bench[name] = (cls, 1, single, 1)
                    if nb:
                        overlap.append(name)
                        aggr_only.append(name)
                    elif action == "Write":
                        aggregate.append(name)
                    else:
                        aggr_only.append(name)
    bench["Open_Close"] = ("sync", 1, False, 0)
    return imb_check.Family("IMB-IO", bench, "MPI-IO part", msgs=50, nonaggr=10, vol_mb=16,
                            maxlog=24, npmin=1, aggregate=aggregate, aggregate_only=aggr_only,
                            nonaggr_only=("Open_Close",),
                            overlap=overlap, single_q=1, collective_bw=True)


IO = _io_family()


def check_header(run, inv):
    out = run.stdout
    if inv.lengths is not None:
        if "# IO lengths were user defined\n" not in out:
            fail("header lacks '# IO lengths were user defined'")
    elif ("# Minimum io portion in bytes:   0\n" not in out or
          "# Maximum io portion in bytes:   16777216\n" not in out):
        fail("header lacks the io portion lines (0 and 16777216)")
    args = run.args
    want_dir = args[args.index("--dir") + 1] if "--dir" in args else "."
    m = re.search(r"^# Scratch files in       : (.*) \(file system (\S+)", out, re.M)
    if not m or m.group(1) != want_dir:
        fail(f"header does not name the scratch directory {want_dir!r} and its file system")
    nonblocking = any(name in IO.overlap for name, _ in inv.selected)
    m = re.search(r"^# Function CPU_Exploit obtains an undisturbed\n"
                  r"# performance of +([0-9.]+) MFlops$", out, re.M)
    if nonblocking and (not m or float(m.group(1)) <= 0):
        fail("header lacks a positive CPU_Exploit Mflop/s rate")
    if not nonblocking and m:
        fail("CPU_Exploit line without a non-blocking benchmark")


def check_cpu_column(run):
    """t_CPU is one calibrated number: the same in every non-blocking row."""
    values = set()
    blocks, _ = imb_check.parse_text(run.stdout)
    for blk in blocks:
        if "t_CPU[usec]" not in blk["head"]:
            continue
        heads = blk["head"].split()
        k = heads.index("t_CPU[usec]")
        for row in blk["rows"]:
            if "out-of-mem." not in row:
                values.add(row.split()[k])
    if len(values) > 1:
        fail(f"t_CPU differs between rows: {sorted(values)}")


def check_cpu_range(run):
    """--t-cpu-ms LO,HI: t_CPU (one CPU_Exploit call, undisturbed) lies between LO and HI ms in
    every non-blocking row - loose bounds around -t_cpu (a loaded machine stretches it)."""
    lo, hi = (float(v) * 1000 for v in run.opts.t_cpu_ms.split(","))
    blocks, _ = imb_check.parse_text(run.stdout)
    seen = 0
    for blk in blocks:
        if "t_CPU[usec]" not in blk["head"]:
            continue
        k = blk["head"].split().index("t_CPU[usec]")
        for row in blk["rows"]:
            if "out-of-mem." in row:
                continue
            seen += 1
            t = float(row.split()[k])
            if not lo <= t <= hi:
                fail(f"t_CPU {t} usec outside {lo:g}..{hi:g} usec in {row.strip()!r}")
    if not seen:
        fail("--t-cpu-ms given, but no non-blocking row was printed")


def check_buffer_bytes(run):
    """--buffer-bytes FILE:BENCHMARK:BYTES=N: the JSON row of BENCHMARK at BYTES has
    buffer_bytes N - which buffers the process held there (docs/adr/program-imb-io-buffers.md)."""
    for spec in run.opts.buffer_bytes:
        where, _, want = spec.rpartition("=")
        name, bench, size = where.split(":")
        rows = [r for r in run.records(name) if r.get("type") == "result"
                and r.get("benchmark") == bench and r.get("bytes") == int(size)]
        if not rows:
            fail(f"--buffer-bytes {spec}: no JSON row of {bench} at {size} bytes")
        for r in rows:
            if r.get("buffer_bytes") != int(want):
                fail(f"{bench} at {size} bytes: buffer_bytes {r.get('buffer_bytes')}, "
                     f"expected {want}")


def check_files(run):
    opts = run.opts
    for spec in opts.file:
        name, content = mbcheck.file_spec(spec)
        if name.endswith("/"):
            continue
        path = run.path(name)
        if name in opts.consumed:
            if os.path.exists(path):
                fail(f"{name} was to be taken over (--force) and removed, but is still there")
            continue
        if not os.path.isfile(path):
            fail(f"the run removed {name}, a file it did not create")
        with open(path) as f:
            if f.read() != content:
                fail(f"the run changed {name}, a file it did not create")


def check_run(run):
    check_files(run)
    if not (run.opts.status in (0, 1) and imb_check.finished(run.stdout)):
        return f"exit status {run.returncode}, files as they were, {run.elapsed:.1f} s"
    inv = imb_check.Invocation(run.args, run.opts.np, run.cwd, run.opts.prefix_args.strip(), IO)
    check_header(run, inv)
    check_cpu_column(run)
    if run.opts.t_cpu_ms:
        check_cpu_range(run)
    check_buffer_bytes(run)
    return imb_check.check_run(run, IO)


def main():
    ap = imb_check.add_options(mbcheck.parser(__doc__))
    ap.add_argument("--consumed", action="append", default=[],
                    help="a --file the run takes over with --force and removes")
    ap.add_argument("--t-cpu-ms", help="LO,HI: every non-blocking row's t_CPU in LO..HI ms")
    ap.add_argument("--buffer-bytes", action="append", default=[],
                    help="FILE:BENCHMARK:BYTES=N: that JSON row's buffer_bytes is N")
    return mbcheck.main(check_run, ap, tmp_prefix="mb-io-")


if __name__ == "__main__":
    sys.exit(main())
