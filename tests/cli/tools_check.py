#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check `mpibench plot` and `mpibench compare` on hostile or careless input.

The tools run without mpirun. Each case runs in an empty directory and asserts the exit
status, the message and what is left on disk:

  inputs         a FIFO, /dev/zero, a directory, a missing file, a line longer than the
                 limit, a (sparse) file larger than the limit - as either argument of either
                 tool: status 2 within seconds, one message naming the file, nothing created
  empty          an empty or blank results file: status 2 for plot as for compare, nothing
                 created
  outdir         plot -o an existing directory (also through a symbolic link, also the
                 default mpibench-plots), a file, a FIFO, /dev/null, a symbolic link to a
                 file: status 2 before any work, every file as it was
  force          plot --force into an existing directory replaces only plot's own files (a
                 user's other file stays, a stale image of an earlier plot goes) and refuses
                 a symbolic link or FIFO at one of plot's names
  escape         escape sequences in benchmark names and file names reach the terminal as
                 \\xNN, never raw (compare's table, plot's last line)
  help_write     --help of both tools with standard output on /dev/full or closed: status 1
                 and a message, as the suites
  speed_plot     plot of a large file (36 MiB) of collective rows made from a real run's
                 records takes at most SPEED_CPU s of CPU (it was quadratic: 265 s for 50 MB)
  speed_compare  compare of two large files (32 MiB each) of distinct measurements, likewise
                 (34 s for 20 MB)

Usage: tools_check.py --case NAME --bindir DIR --mpiexec CMD
"""

import argparse
import json
import os
import re
import shutil
import resource
import shlex
import subprocess
import sys
import tempfile
import time

LIMIT = 20.0  # seconds a refusal may take (it takes milliseconds)
# CPU seconds (user + system, so that a loaded machine does not count) plot or compare may
# take on the large files: about 2 here, against minutes before (quadratic); the wall-clock
# bound only catches a hang.
SPEED_CPU = 20.0
SPEED_WALL = 150.0


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def listing(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            rel = os.path.relpath(p, d)
            st = os.lstat(p)
            content = None
            if os.path.isfile(p) and not os.path.islink(p) and st.st_size < 1 << 20:
                with open(p, "rb") as f:
                    content = f.read()
            out[rel] = (st.st_mode, st.st_size, st.st_mtime_ns, content)
    return out


class Tools:
    def __init__(self, bindir, mpiexec, cwd, big=1.0):
        self.big = big  # share of the speed cases' file sizes (--big)
        self.bin = os.path.join(os.path.abspath(bindir), "mpibench")
        self.bindir = os.path.abspath(bindir)
        self.mpiexec = mpiexec
        self.cwd = cwd

    def run(self, *args, limit=LIMIT, **kw):
        cmd = [self.bin] + list(args)
        start = time.monotonic()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run(cmd, cwd=self.cwd, capture_output=True, timeout=limit, **kw)
        except subprocess.TimeoutExpired:
            raise Failed(f"{shlex.join(cmd)}: no exit within {limit} s (blocked or too slow)")
        p.elapsed = time.monotonic() - start
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        p.cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
        p.out = p.stdout.decode("utf-8", "replace")
        p.err = p.stderr.decode("utf-8", "replace")
        p.cmd = shlex.join(cmd)
        return p

    def refused(self, tool, args, fragment, status=2):
        """tool args must end with status and one error line holding fragment, and change
        nothing in the directory."""
        before = listing(self.cwd)
        p = self.run(tool, *args)
        errors = [l for l in p.err.splitlines() if l.startswith(f"mpibench {tool}: error: ")]
        check(p.returncode == status, f"{p.cmd}: status {p.returncode}, expected {status}\n{p.err}")
        check(len(errors) == 1, f"{p.cmd}: {len(errors)} error lines, expected 1:\n{p.err}")
        check(fragment in errors[0], f"{p.cmd}: message {errors[0]!r} lacks {fragment!r}")
        check(p.out == "", f"{p.cmd}: output on stdout: {p.out[:300]!r}")
        after = listing(self.cwd)
        check(after == before, f"{p.cmd}: the directory changed: "
              f"{sorted(set(after.items()) ^ set(before.items()), key=str)[:6]}")
        return p

    def real_records(self):
        """A real run's records: IMB-MPI1 on 2 processes, PingPong and three collectives."""
        with open(os.path.join(self.cwd, "L"), "w") as f:
            f.write("0\n1024\n65536\n")
        cmd = shlex.split(self.mpiexec) + ["-np", "2", os.path.join(self.bindir, "IMB-MPI1"),
                                           "-msglen", "L", "-iter", "10", "PingPong",
                                           "Allreduce", "Bcast", "Reduce", "--json", "real.jsonl"]
        p = subprocess.run(cmd, cwd=self.cwd, capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"{shlex.join(cmd)}: status {p.returncode}\n{p.stderr}")
        recs = [json.loads(l) for l in open(os.path.join(self.cwd, "real.jsonl"))]
        os.unlink(os.path.join(self.cwd, "real.jsonl"))
        os.unlink(os.path.join(self.cwd, "L"))
        return recs


def write_jsonl(path, recs):
    with open(path, "w") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def result_row(bench, np_, size, t=1.0, cls="collective"):
    return {"type": "result", "schema_version": 2, "run_id": "r1", "suite": "IMB-MPI1",
            "benchmark": bench, "multi": False,
            "class": cls, "processes": np_, "group": None, "bytes": size, "status": "ok",
            "t_min_usec": t, "t_max_usec": t, "t_avg_usec": t, "mib_per_sec": None}


def case_inputs(t):
    good = os.path.join(t.cwd, "good.jsonl")
    write_jsonl(good, [result_row("Allreduce", 2, 8)])
    os.mkfifo(os.path.join(t.cwd, "fifo"))
    os.mkdir(os.path.join(t.cwd, "adir"))
    os.makedirs(os.path.join(t.cwd, "rdir", "results.jsonl"))
    with open(os.path.join(t.cwd, "longline.jsonl"), "w") as f:
        f.write('{"type":"x","pad":"' + "x" * (17 << 20) + '"}\n')
    with open(os.path.join(t.cwd, "huge.jsonl"), "w") as f:
        f.truncate((1 << 30) + 1)  # sparse: no disk space used
    # The layout before schema version 2 (no schema_version; mbytes_per_sec in 2^20 B/s for
    # IMB but 10^6 B/s for b_eff): refused by name, never read as this version's fields.
    old = result_row("Allreduce", 2, 8)
    del old["schema_version"], old["run_id"], old["mib_per_sec"]
    old["mbytes_per_sec"] = None
    write_jsonl(os.path.join(t.cwd, "v1.jsonl"), [old])
    write_jsonl(os.path.join(t.cwd, "v3.jsonl"), [result_row("Allreduce", 2, 8),
                                                  dict(result_row("Bcast", 2, 8),
                                                       schema_version=3)])
    bad = [("fifo", "cannot read 'fifo': not a regular file (a FIFO)"),
           ("/dev/zero", "cannot read '/dev/zero': not a regular file (a device)"),
           ("adir", "'adir' is a directory without results.jsonl: give a results file, or a "
                    "directory of one run"),
           ("rdir", "cannot read 'rdir/results.jsonl': not a regular file (a directory)"),
           ("missing.jsonl", "cannot open 'missing.jsonl': No such file or directory"),
           ("longline.jsonl", "'longline.jsonl' line 1: longer than 16777216 bytes"),
           ("huge.jsonl", "cannot read 'huge.jsonl': 1073741825 bytes, more than the "
                          "1073741824 a results file may have"),
           ("v1.jsonl", "'v1.jsonl' line 1: schema version 1 (another mpibench's results); "
                        "this mpibench reads version 2"),
           ("v3.jsonl", "'v3.jsonl' line 2: schema version 3")]
    n = 0
    for path, fragment in bad:
        t.refused("plot", [path], fragment)
        t.refused("plot", ["-o", "p", "good.jsonl", path], fragment)
        t.refused("compare", [path, "good.jsonl"], fragment)
        t.refused("compare", ["good.jsonl", path], fragment)
        # In a group of runs, any one of them: a run of another schema version is never
        # compared with this version's.
        t.refused("compare", ["good.jsonl", path, "--", "good.jsonl"], fragment)
        n += 5
    return f"{n} refusals"


def case_empty(t):
    with open(os.path.join(t.cwd, "empty.jsonl"), "w"):
        pass
    with open(os.path.join(t.cwd, "blank.jsonl"), "w") as f:
        f.write("  \n\t\n\n")
    write_jsonl(os.path.join(t.cwd, "good.jsonl"), [result_row("Allreduce", 2, 8)])
    for name in ("empty.jsonl", "blank.jsonl"):
        t.refused("plot", [name], f"'{name}' holds no results to plot")
        t.refused("plot", ["-o", "p", "good.jsonl", name], f"'{name}' holds no results to plot")
        t.refused("compare", [name, "good.jsonl"], f"'{name}' holds no results to compare")
        t.refused("compare", ["good.jsonl", name], f"'{name}' holds no results to compare")
    return "8 refusals"


def user_dir(path):
    os.mkdir(path)
    for name in ("index.html", "plots.gp", "collectives.png", "collectives.dat", "notes.txt"):
        with open(os.path.join(path, name), "w") as f:
            f.write(f"the user's own {name}\n")


def case_outdir(t):
    write_jsonl(os.path.join(t.cwd, "good.jsonl"), [result_row("Allreduce", 2, 8)])
    user_dir(os.path.join(t.cwd, "mine"))
    os.symlink("mine", os.path.join(t.cwd, "link-to-dir"))
    user_dir(os.path.join(t.cwd, "mpibench-plots"))
    with open(os.path.join(t.cwd, "afile"), "w") as f:
        f.write("keep\n")
    os.symlink("afile", os.path.join(t.cwd, "link-to-file"))
    os.mkfifo(os.path.join(t.cwd, "fifo"))
    exists = "it exists; mpibench plot writes into a new directory"
    t.refused("plot", ["-o", "mine", "good.jsonl"], f"cannot use -o 'mine': {exists}")
    t.refused("plot", ["--output", "link-to-dir", "good.jsonl"],
              f"cannot use -o 'link-to-dir': {exists}")
    t.refused("plot", ["good.jsonl"], f"cannot use -o 'mpibench-plots': {exists}")
    for path, kind in (("afile", "a regular file"), ("link-to-file", "a regular file"),
                       ("fifo", "a FIFO"), ("/dev/null", "a device")):
        for force in ([], ["--force"]):
            t.refused("plot", force + ["-o", path, "good.jsonl"],
                      f"cannot use -o '{path}': not a directory ({kind})")
    t.refused("plot", ["-o", "afile/sub", "good.jsonl"], "cannot use -o 'afile/sub': Not a directory")
    t.refused("plot", ["-o", "nowhere/sub", "good.jsonl"],
              "cannot create -o 'nowhere/sub': 'nowhere': No such file or directory")
    # The bad input comes first: a missing file after a good -o leaves no directory.
    t.refused("plot", ["-o", "new", "good.jsonl", "missing.jsonl"], "cannot open 'missing.jsonl'")
    # A new directory is made and written.
    p = t.run("plot", "-o", "new", "good.jsonl", limit=120)
    check(p.returncode in (0, 1) and os.path.isfile(os.path.join(t.cwd, "new", "index.html")),
          f"{p.cmd}: status {p.returncode}, no new/index.html\n{p.err}")
    return "16 refusals, a new directory written"


def case_force(t):
    write_jsonl(os.path.join(t.cwd, "good.jsonl"), [result_row("Allreduce", 2, 8),
                                                    result_row("Allreduce", 2, 1024)])
    d = os.path.join(t.cwd, "mine")
    user_dir(d)
    with open(os.path.join(d, "beff.png"), "w") as f:  # stale: no b_eff in these results
        f.write("an earlier plot's image\n")
    p = t.run("plot", "-o", "mine", "--force", "good.jsonl", limit=120)
    check(p.returncode in (0, 1), f"{p.cmd}: status {p.returncode}\n{p.err}")
    check(open(os.path.join(d, "notes.txt")).read() == "the user's own notes.txt\n",
          "--force changed a file that is not plot's")
    check("<!DOCTYPE html>" in open(os.path.join(d, "index.html")).read(),
          "--force did not write index.html")
    check("Allreduce" in open(os.path.join(d, "collectives.dat")).read(),
          "--force did not write collectives.dat")
    check(not os.path.exists(os.path.join(d, "beff.png")), "--force left a stale beff.png")
    # A symbolic link or a FIFO at one of plot's names: refused, nothing changed.
    with open(os.path.join(t.cwd, "precious"), "w") as f:
        f.write("precious\n")
    os.unlink(os.path.join(d, "plots.gp"))
    os.symlink("../precious", os.path.join(d, "plots.gp"))
    t.refused("plot", ["-o", "mine", "--force", "good.jsonl"],
              f"cannot use -o 'mine' with --force: 'mine/plots.gp' is a symbolic link")
    os.unlink(os.path.join(d, "plots.gp"))
    os.mkfifo(os.path.join(d, "index.html.tmp"))  # not plot's name: ignored
    os.unlink(os.path.join(d, "index.html"))
    os.mkfifo(os.path.join(d, "index.html"))
    t.refused("plot", ["-o", "mine", "--force", "good.jsonl"],
              f"cannot use -o 'mine' with --force: 'mine/index.html' is a FIFO")
    # Through a symbolic link to a directory, with --force: written.
    os.unlink(os.path.join(d, "index.html"))
    os.symlink("mine", os.path.join(t.cwd, "link"))
    p = t.run("plot", "-o", "link", "--force", "good.jsonl", limit=120)
    check(p.returncode in (0, 1) and os.path.isfile(os.path.join(d, "index.html")),
          f"{p.cmd}: status {p.returncode}\n{p.err}")
    return "replaced plot's files only; 2 refusals"


def case_escape(t):
    evil = "Evil\x1b]0;pwned\x07\x1b[31m"
    write_jsonl(os.path.join(t.cwd, "a.jsonl"), [result_row(evil, 2, 8, 1.0)])
    write_jsonl(os.path.join(t.cwd, "b\x1b[2Jb.jsonl"), [result_row(evil, 2, 8, 2.0)])
    p = t.run("compare", "--noise", "50", "--threshold", "50", "a.jsonl", "b\x1b[2Jb.jsonl")
    check(p.returncode == 1, f"{p.cmd}: status {p.returncode}\n{p.err}")
    check(b"\x1b" not in p.stdout and b"\x07" not in p.stdout,
          f"{p.cmd}: raw control characters on stdout: {p.stdout[:400]!r}")
    check("Evil\\x1b]0;pwned\\x07\\x1b[31m" in p.out, f"{p.cmd}: name not escaped: {p.out!r}")
    check("b\\x1b[2Jb.jsonl" in p.out, f"{p.cmd}: file name not escaped: {p.out!r}")
    p = t.run("plot", "-o", "p\x1b[2Jq", "a.jsonl", limit=120)
    check(p.returncode in (0, 1), f"{p.cmd}: status {p.returncode}\n{p.err}")
    check(b"\x1b" not in p.stdout and "p\\x1b[2Jq" in p.out, f"{p.cmd}: {p.stdout!r}")
    return "escaped"


def case_help_write(t):
    for tool in ("plot", "compare"):
        with open("/dev/full", "wb") as full:
            q = subprocess.run([t.bin, tool, "--help"], cwd=t.cwd, stdout=full,
                               stderr=subprocess.PIPE, timeout=LIMIT)
        err = q.stderr.decode()
        check(q.returncode == 1 and f"mpibench {tool}: run-time error: cannot write standard "
              "output: No space left on device" in err,
              f"{tool} --help >/dev/full: status {q.returncode}, {err!r}")
        q = subprocess.run(f"exec {shlex.quote(t.bin)} {tool} --help >&-", shell=True,
                           cwd=t.cwd, stderr=subprocess.PIPE, timeout=LIMIT)
        err = q.stderr.decode()
        check(q.returncode == 1 and f"mpibench {tool}: run-time error: cannot write standard "
              "output: Bad file descriptor" in err,
              f"{tool} --help >&-: status {q.returncode}, {err!r}")
        q = subprocess.run([t.bin, tool, "--help"], cwd=t.cwd, capture_output=True, text=True,
                           timeout=LIMIT)
        check(q.returncode == 0 and q.stdout.startswith(f"Usage: mpibench {tool}"),
              f"{tool} --help: status {q.returncode}")
    return "4 failed writes, status 1"


def big_file(path, rows, target):
    """Rows (a real run's records, changed in processes and size) until target bytes."""
    size = 0
    k = 0
    with open(path, "w") as f:
        while size < target:
            r = rows(k)
            line = json.dumps(r, separators=(",", ":")) + "\n"
            f.write(line)
            size += len(line)
            k += 1
    return k, size


def case_speed_plot(t):
    real = [r for r in t.real_records() if r.get("class") == "collective"]
    check(len(real) >= 6, "the real run wrote no collective rows")

    def row(k):
        r = dict(real[k % len(real)])
        r["processes"] = 2 + (k // len(real)) % 2000  # many process counts per benchmark
        r["bytes"] = r["bytes"] + (k // (len(real) * 2000)) * 4
        return r

    n, size = big_file(os.path.join(t.cwd, "big.jsonl"), row, int((36 << 20) * t.big))
    p = t.run("plot", "-o", "p", "big.jsonl", limit=SPEED_WALL)
    check(p.returncode in (0, 1), f"{p.cmd}: status {p.returncode}\n{p.err}")
    check(p.cpu < SPEED_CPU, f"{p.cmd}: {p.cpu:.1f} s of CPU, more than {SPEED_CPU:.0f}")
    # A line per process count: 2000 counts of each collective are more series than a plot
    # draws (512); those beyond are left out, and the .dat says how many.
    dat = open(os.path.join(t.cwd, "p", "collectives.dat")).read()
    series = len(re.findall(r"^# IMB-\S+ \S+, \d+ procs$", dat, re.M))
    counts = {(r["suite"], r["benchmark"], r["processes"])
              for r in (row(k) for k in range(min(n, len(real) * 2000)))}
    left = re.search(r"^# (\d+) series left out: a plot draws at most 512 series", dat, re.M)
    check(series == 512 and left and int(left.group(1)) == len(counts) - 512,
          f"collectives.dat: {series} series, {len(counts)} counts, note {left}: {dat[:300]}")
    return (f"{n} rows, {size >> 20} MiB: plot in {p.cpu:.1f} s of CPU (limit {SPEED_CPU:.0f}), "
            f"{p.elapsed:.1f} s")


def case_speed_compare(t):
    real = [r for r in t.real_records() if r.get("type") == "result"]
    check(len(real) >= 6, "the real run wrote no result rows")

    def rows(scale):
        def row(k):
            r = dict(real[k % len(real)])
            r["processes"] = 2 + k // len(real)  # every row a distinct measurement
            for f in ("t_min_usec", "t_max_usec", "t_avg_usec"):
                r[f] = r[f] * scale
            return r
        return row

    n, size = big_file(os.path.join(t.cwd, "base.jsonl"), rows(1.0), int((32 << 20) * t.big))
    big_file(os.path.join(t.cwd, "new.jsonl"), rows(1.01), int((32 << 20) * t.big))
    p = t.run("compare", "base.jsonl", "new.jsonl", limit=SPEED_WALL)
    check(p.returncode == 0, f"{p.cmd}: status {p.returncode}\n{p.err[:500]}")
    check(p.cpu < SPEED_CPU, f"{p.cmd}: {p.cpu:.1f} s of CPU, more than {SPEED_CPU:.0f}")
    m = re.search(r"^# ([0-9]+) compared: ", p.out, re.M)
    check(m and int(m.group(1)) > 0.9 * n, f"{p.cmd}: not the measurements of both: {p.out[:300]}")
    # Groups of runs: three a side of the same files' size, linear in rows times runs (three
    # copies under other names: files without a header carry no run id to tell them apart).
    for side in ("base", "new"):
        for k in (2, 3):
            shutil.copy(os.path.join(t.cwd, f"{side}.jsonl"), os.path.join(t.cwd, f"{side}{k}.jsonl"))
    g = t.run("compare", "base.jsonl", "base2.jsonl", "base3.jsonl", "--", "new.jsonl",
              "new2.jsonl", "new3.jsonl", limit=SPEED_WALL)
    check(g.returncode in (0, 1), f"{g.cmd}: status {g.returncode}\n{g.err[:500]}")
    check(g.cpu < 3 * SPEED_CPU, f"{g.cmd}: {g.cpu:.1f} s of CPU, more than {3 * SPEED_CPU:.0f}")
    m = re.search(r"^# ([0-9]+) compared: ", g.out, re.M)
    check(m and int(m.group(1)) > 0.9 * n, f"{g.cmd}: not the measurements: {g.out[:300]}")
    return (f"2 x {n} rows, {size >> 20} MiB each: compare in {p.cpu:.1f} s of CPU (limit "
            f"{SPEED_CPU:.0f}), {p.elapsed:.1f} s; 3 runs a side in {g.cpu:.1f} s")


CASES = {"inputs": case_inputs, "empty": case_empty, "outdir": case_outdir, "force": case_force,
         "escape": case_escape, "help_write": case_help_write, "speed_plot": case_speed_plot,
         "speed_compare": case_speed_compare}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--bindir", required=True, help="directory holding mpibench")
    ap.add_argument("--mpiexec", required=True, help="launcher and its flags, one string")
    ap.add_argument("--big", type=float, default=1.0,
                    help="the speed cases' file sizes as a share of theirs (under sanitizers "
                    "1/8: the same code paths; linear time is checked without them)")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mb-tools-") as cwd:
        try:
            what = CASES[opts.case](Tools(opts.bindir, opts.mpiexec, cwd, opts.big))
        except Failed as e:
            print(f"FAILED: tools.{opts.case}: {e}")
            return 1
    print(f"ok: tools.{opts.case}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
