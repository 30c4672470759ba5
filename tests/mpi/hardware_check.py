#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run a suite with --json h.jsonl and check the header's hardware, placement, compiler and
MPI environment against what this machine says by other means than hwloc.

The run gets FI_LOG_LEVEL=warn and FI_MB_CHECK_TOKEN=... in its environment (libfabric
ignores a name it does not know): mpi_environment must hold the first with its value, the
second as "(masked)", and nothing the launcher sets for itself (OMPI_MCA_orte_*).

Without --hwloc-components: one hardware entry for this host whose CPU model is
/proc/cpuinfo's, whose hardware threads are the online CPUs, memory /proc/meminfo's
MemTotal, whose caches are those sysfs gives for cpu0 (data and unified, by level), whose
network devices exist in /sys/class/net or /sys/class/infiniband; no note. The placement lists
every rank on this host; with --bind (the launcher binds each rank to a core: Open MPI
--bind-to core, MPICH's Hydra -bind-to core) each has a core, different for each rank, a NUMA
node and a CPU within that core's. The compiler is --compiler (CMake's id and version); the
text header has the same lines.

--hwloc-components V runs with hwloc's HWLOC_COMPONENTS=V (hwloc's own variable: "stop" makes
every topology load fail, "-linux,-x86" leaves a bare one): the run must still succeed, and
the note must match --note (a regular expression), in the JSON and the text.

Usage: hardware_check.py --mpiexec CMD --np N --bin PATH --compiler 'GNU 12.2.0' [--bind]
           [--hwloc-components V --note RE] -- ARGS
"""
import glob
import os
import re
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbcheck  # noqa: E402  (the shared frame: options, run, generic checks, verdict)
from mbcheck import check  # noqa: E402

TOKEN = "FI_MB_CHECK_TOKEN"


def cpuinfo_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return None


def memtotal_bytes():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return None


def sysfs_caches():
    """{"L1d": bytes, "L2": ..., ...} of cpu0's data and unified caches."""
    out = {}
    for d in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
        try:
            kind = open(os.path.join(d, "type")).read().strip()
            level = int(open(os.path.join(d, "level")).read())
            size = open(os.path.join(d, "size")).read().strip()
        except OSError:
            continue
        if kind == "Instruction":
            continue
        mult = {"K": 1024, "M": 1024 * 1024, "G": 1024 ** 3}.get(size[-1], 1)
        out["L1d" if level == 1 else f"L{level}"] = int(size.rstrip("KMG")) * mult
    return out


def core_cpus(cpu):
    """The CPUs of cpu's core, from sysfs."""
    path = f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
    cpus = set()
    for part in open(path).read().strip().split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def check_header_text(run, h):
    for line in ("# Compiled with         : ", "# MPI environment       : ",
                 "# Hardware              : ", "# Placement             : "):
        check(line in run.stdout, f"the text header has no '{line.strip()}' line")
    check("FI_LOG_LEVEL=warn" in run.stdout and f"{TOKEN}=(masked)" in run.stdout,
          "the text header's MPI environment lacks FI_LOG_LEVEL=warn or the masked token")
    note = h["hardware"][0]["note"]
    if note:
        check(note in run.stdout, f"the text header does not say the note '{note}'")


def check_run(run):
    o = run.opts
    h = run.records("h.jsonl")[0]
    env = h["mpi_environment"]
    check(env.get("FI_LOG_LEVEL") == "warn", f"mpi_environment lacks FI_LOG_LEVEL=warn: {env}")
    check(env.get(TOKEN) == "(masked)", f"{TOKEN} not masked: {env.get(TOKEN)}")
    check(not any(k.startswith("OMPI_MCA_orte_") for k in env),
          f"launcher bookkeeping reported: {sorted(env)}")
    check(h["compiler"] == o.compiler, f"compiler {h['compiler']!r}, CMake says {o.compiler!r}")
    check("-std=c11" in h["compiler_flags"], f"compiler_flags {h['compiler_flags']!r}")
    lib = "Open MPI" if "Open MPI" in h["mpi_library"] else "MPICH"
    check(h["mpi_headers"].startswith(lib), f"headers {h['mpi_headers']}, library {lib}")
    hw = h["hardware"]
    check(len(hw) == 1 and hw[0]["hosts"] == [socket.gethostname()] and hw[0]["host_count"] == 1,
          f"one host expected: {[(k['hosts'], k['host_count']) for k in hw]}")
    k = hw[0]
    mem = memtotal_bytes()
    check(abs(k["memory_bytes"] - mem) <= mem // 100, f"memory {k['memory_bytes']}, MemTotal {mem}")
    places = h["placement"]
    check([p["rank"] for p in places] == list(range(o.np)) and h["placement_listed"] == o.np,
          f"placement ranks {[p['rank'] for p in places]}")
    check(all(p["host"] == socket.gethostname() for p in places), "a rank on another host")
    check(all(p["cpu"] is None or 0 <= p["cpu"] < os.cpu_count() for p in places),
          f"CPUs {[p['cpu'] for p in places]} beyond {os.cpu_count()}")
    check_header_text(run, h)
    if o.hwloc_components:
        check(k["note"] and re.search(o.note, k["note"]), f"note {k['note']!r} !~ {o.note!r}")
        return f"hwloc degraded ({o.hwloc_components}): {k['note']}"
    check(k["note"] is None, f"a note without hwloc trouble: {k['note']}")
    check(k["cpu_model"] == cpuinfo_model(), f"CPU {k['cpu_model']!r}, /proc/cpuinfo {cpuinfo_model()!r}")
    check(k["hardware_threads"] == os.cpu_count(), f"{k['hardware_threads']} threads, {os.cpu_count()} CPUs")
    check(1 <= k["cores"] <= k["hardware_threads"] and k["packages"] >= 1 and k["numa_nodes"] >= 1,
          f"cores {k['cores']}, packages {k['packages']}, NUMA nodes {k['numa_nodes']}")
    want = sysfs_caches()
    check(all(k["cache_bytes"].get(lvl) == b for lvl, b in want.items()),
          f"caches {k['cache_bytes']}, sysfs {want}")
    for d in k["network_devices"]:
        check(os.path.exists(f"/sys/class/net/{d['name']}") or
              os.path.exists(f"/sys/class/infiniband/{d['name']}"), f"no device {d['name']}")
    if o.bind:
        cores = [p["core"] for p in places]
        check(None not in cores and len(set(cores)) == len(cores),
              f"bound ranks should have one core each, all different: {cores}")
        check(all(p["numa_node"] is not None and p["hardware_threads"] >= 1 for p in places),
              f"bound ranks without a NUMA node: {places}")
        for p in places:
            check(p["cpu"] is None or p["hardware_threads"] == len(core_cpus(p["cpu"])),
                  f"rank {p['rank']} bound to {p['hardware_threads']} CPUs, its core has "
                  f"{sorted(core_cpus(p['cpu']))}")
    return (f"{k['cpu_model']}, {k['cores']} cores, caches {k['cache_bytes']}, "
            f"{len(k['network_devices'])} network device(s), cores {[p['core'] for p in places]}")


def launcher_is_open_mpi(cmd):
    out = subprocess.run([cmd, "--version"], capture_output=True, text=True).stdout
    return "Open MPI" in out or "OpenRTE" in out


if __name__ == "__main__":
    ap = mbcheck.parser(__doc__)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--bind", action="store_true")
    ap.add_argument("--hwloc-components")
    ap.add_argument("--note", default=".")
    opts, _ = ap.parse_known_args()
    os.environ["FI_LOG_LEVEL"] = "warn"
    os.environ[TOKEN] = "not-a-secret-but-named-like-one"
    if opts.hwloc_components:
        os.environ["HWLOC_COMPONENTS"] = opts.hwloc_components
    if opts.bind:
        # The launcher's own binding flag, after its name (and before -np).
        words = opts.mpiexec.split()
        flag = ["--bind-to", "core"] if launcher_is_open_mpi(words[0]) else ["-bind-to", "core"]
        i = sys.argv.index("--mpiexec") + 1
        sys.argv[i] = " ".join(words[:1] + flag + words[1:])
    sys.exit(mbcheck.main(check_run, ap))
