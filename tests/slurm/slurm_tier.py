#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Slurm tier: mpibench launched by a real Slurm (Debian's slurmctld, slurmd and munge).

Starts a one-node Slurm cluster of its own on this machine (as root): munged with a key, a
socket and a PRNG state file of its own, slurmctld and slurmd in the foreground with the
configuration tests/slurm/slurm.conf.in, filled in with this machine's name (`slurmd -C`),
its CPU count (at least the job's task count), two free TCP ports and a temporary directory
that holds every state, spool, log and pid file. Then, once the node is idle:

  batch   `sbatch` a script that runs `srun --mpi=pmix -n 4 mpibench run --quick` (Open MPI;
          srun starts the ranks directly through Slurm's PMIx plugin) or `srun --mpi=pmi2
          -n 2 mpibench imb-mpi1 PingPong` (MPICH, through Slurm's PMI-2 plugin; 2 ranks, as
          Debian's MPICH busy-polls); the job must complete with exit code 0, every phase
          of the main job must be ok (summary.txt and the job_phase records), every JSON
          record must validate, and every header (JSON and text) must carry the job id
          sbatch printed, the job's node list and the task count, with that many processes
          on that node;
  salloc  `salloc -n N mpirun ...` (Open MPI's mpirun reads the allocation and starts its
          daemons with srun; MPICH's mpiexec (hydra) does the same): IMB-MPI1 PingPong, its
          header carrying the id of salloc's "Granted job allocation".
  launcher  the launcher warning (docs/adr/measured-nothing.md): `sbatch -n 2` of a script
          that runs IMB-MPI1 itself as a singleton (as its child, then exec'd): no warning
          although the batch step's SLURM_NTASKS is 2; `srun --mpi=none -n 2 IMB-MPI1
          PingPong`: two singletons, each warning that SLURM_STEP_NUM_TASKS=2 but
          MPI_COMM_WORLD has 1, status 1 (MPICH; Open MPI 4.1 refuses in MPI_Init with its
          own message, also accepted); MPICH: `srun -n 2 sh -c "IMB-MPI1 ..."` (a shell in the
          step starts it, as in `srun --pty bash`): no warning. The batch and salloc jobs must
          print no warning.

Every daemon, job and process this tier started is ended, and its directories removed, on
every exit path: a janitor process of its own session (it ignores SIGINT/SIGTERM/SIGHUP)
ends each process whose environment carries this run's mark (the daemons, slurmstepd, the
jobs' ranks and launchers inherit it) and removes the directories once the tier's pipe to it
closes - a normal end, a failure, an interrupt or ctest's SIGKILL (tests/tierlib/janitor.py,
shared with the multi-host tier). Nothing in /etc, /var or
/run is used or changed; a Slurm or munged already running on the machine is not touched.

Needs root and Debian's slurmd, slurmctld, slurm-client and munge (scripts/deps.sh --tests
installs them); without them it prints why and exits with status 77 (ctest: skipped).

Usage: slurm_tier.py --bindir BUILD --mpi openmpi|mpich [--mpirun mpiexec.openmpi]
                     [--schema FILE] [--save DIR]
Exit status 0 when every check passed, 1 otherwise, 77 when the tier cannot run here.
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tierlib"))
from janitor import (SKIP, Failure, Janitor, Refused, check, end_pids, guarded,  # noqa: E402
                     log, remove_trees, run_checks, wait_until)

MARK = "MB_SLURM_TIER"  # environment variable naming this run's directory in every process
SBIN = os.pathsep.join(["/usr/sbin", "/sbin"])
TOOLS = ("munged", "munge", "unmunge", "slurmctld", "slurmd", "sbatch", "srun", "salloc",
         "scontrol", "sinfo", "squeue", "scancel")
PACKAGES = "slurmd slurmctld slurm-client munge"


def which(tool):
    return shutil.which(tool, path=os.environ.get("PATH", "") + os.pathsep + SBIN)


def run(cmd, env, timeout=30, check=True, **kw):
    if "input" not in kw:
        kw["stdin"] = subprocess.DEVNULL
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout, **kw)
    if check and r.returncode != 0:
        raise Failure(f"{' '.join(cmd)}: exit status {r.returncode}: {r.stderr.strip()}")
    return r


# ---- the janitor's part of this tier (tests/tierlib/janitor.py) -----------------------------

def marked_pids(value, exclude=()):
    """This run's processes: those whose initial environment holds MARK=value (the daemons,
    the jobs' launchers and ranks), and those with a file open in the directory value
    (slurmstepd overwrites its environment with its process title, but keeps the node
    daemon's log file open)."""
    want, inside = f"{MARK}={value}".encode(), value.rstrip("/") + "/"
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) in exclude:
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                mine = want in f.read().split(b"\0")
            if not mine:
                for fd in os.listdir(f"/proc/{d}/fd"):
                    try:
                        if os.readlink(f"/proc/{d}/fd/{fd}").startswith(inside):
                            mine = True
                            break
                    except OSError:
                        pass
        except OSError:
            continue
        if mine:
            pids.append(int(d))
    return pids


def undo(mark, records):
    """In the janitor: end every process marked with this run's directory (SIGTERM, SIGKILL
    5 s later), then remove the recorded directories."""
    me = (os.getpid(),)
    left = end_pids(lambda: marked_pids(mark, exclude=me))
    problems = [f"processes of this run still running: {left}"] if left else []
    return problems + remove_trees(records)


# ---- the cluster -------------------------------------------------------------------------

def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """munged, slurmctld and slurmd of this run; a context manager (started, then stopped)."""

    def __init__(self, ntasks):
        self.ntasks = ntasks
        self.janitor = None
        self.daemons = []  # (name, Popen) in start order

    def __enter__(self):
        self.work = tempfile.mkdtemp(prefix="mb-slurm-")
        work = self.work
        self.janitor = Janitor(lambda records: undo(work, records))
        self.janitor.record("tree", work)
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self):
        w = self.work
        # munged refuses a socket in a directory others cannot search (mkdtemp makes 0700).
        os.chmod(w, 0o755)
        self.shm = tempfile.mkdtemp(prefix="mb-slurm-", dir="/dev/shm")
        self.janitor.record("tree", self.shm)
        for d in ("munge", "ctld", "slurmd", "tmp", "runs"):
            os.mkdir(os.path.join(w, d))
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        env.update({
            MARK: w, "SLURM_CONF": os.path.join(w, "slurm.conf"),
            "PATH": env.get("PATH", "/usr/bin:/bin") + os.pathsep + SBIN,
            # Open MPI's session directories and shared-memory segments in this run's
            # directories: even a killed job leaves nothing in /tmp or /dev/shm.
            "TMPDIR": os.path.join(w, "tmp"), "OMPI_MCA_btl_vader_backing_directory": self.shm,
            "OMPI_MCA_osc_rdma_backing_directory": self.shm,
            "OMPI_MCA_osc_sm_backing_directory": self.shm,
            # More processes than cores: waiting processes yield.
            "OMPI_MCA_mpi_yield_when_idle": "1",
            # The tier runs as root (Open MPI's mpirun refuses root without these).
            "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        })
        self.env = env
        sock = os.path.join(w, "munge", "munge.socket")
        key = os.path.join(w, "munge", "munge.key")
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, os.urandom(128))
        os.close(fd)
        self._daemon("munged", [which("munged"), "--foreground", f"--socket={sock}",
                                f"--key-file={key}", f"--pid-file={w}/munge/munged.pid",
                                f"--log-file={w}/munge/munged.log",
                                f"--seed-file={w}/munge/munged.seed"])
        self._wait_for("munged to answer", lambda: self._munge_ok(sock), 15,
                       os.path.join(w, "munge", "munged.log"))

        r = run([which("slurmd"), "-C"], env)
        m = re.search(r"NodeName=(\S+) CPUs=(\d+)", r.stdout)
        if not m:
            raise Failure(f"slurmd -C: no NodeName/CPUs in {r.stdout!r}")
        self.node, hw_cpus = m.group(1), int(m.group(2))
        cpus = max(hw_cpus, self.ntasks)
        with open(os.path.join(HERE, "slurm.conf.in")) as f:
            conf = f.read()
        for k, v in (("NODE", self.node), ("CPUS", cpus), ("DIR", w),
                     ("CTLD_PORT", free_port()), ("SLURMD_PORT", free_port())):
            conf = conf.replace(f"@{k}@", str(v))
        with open(env["SLURM_CONF"], "w") as f:
            f.write(conf)
        open(os.path.join(w, "plugstack.conf"), "w").close()
        log(f"cluster: node {self.node}, {cpus} CPUs ({hw_cpus} in the hardware), "
            f"directory {w}")
        self._daemon("slurmctld", [which("slurmctld"), "-D", "-i"])
        self._daemon("slurmd", [which("slurmd"), "-D"])
        self._wait_for(f"node {self.node} to be idle", self._node_idle, 60,
                       os.path.join(w, "slurmctld.log"), os.path.join(w, "slurmd.log"))

    def _daemon(self, name, cmd):
        out = open(os.path.join(self.work, name + ".out"), "w")
        p = subprocess.Popen(cmd, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        self.daemons.append((name, p))

    def _munge_ok(self, sock):
        try:
            cred = run([which("munge"), "-n", "-S", sock], self.env, timeout=5, check=False)
            if cred.returncode != 0:
                return False
            return run([which("unmunge"), "-S", sock], self.env, timeout=5, check=False,
                       input=cred.stdout).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def _node_idle(self):
        r = run(["sinfo", "-h", "-n", self.node, "-o", "%T"], self.env, check=False, timeout=10)
        return r.returncode == 0 and r.stdout.strip() == "idle"

    def _wait_for(self, what, ready, timeout, *logs):
        def daemon_ended():
            for name, p in self.daemons:
                if p.poll() is not None:
                    raise Failure(f"{name} ended with status {p.returncode} while waiting for "
                                  f"{what}\n" + self.tails(*logs))
        if not wait_until(ready, timeout, 0.3, abort=daemon_ended):
            raise Failure(f"waited {timeout} s for {what}\n" + self.tails(*logs))

    def tails(self, *logs, n=15):
        logs = logs or [os.path.join(self.work, f) for f in ("slurmctld.log", "slurmd.log")]
        out = []
        for path in logs:
            try:
                with open(path, errors="replace") as f:
                    out.append(f"--- {path}:\n" + "".join(f.readlines()[-n:]))
            except OSError:
                pass
        return "".join(out)

    def cmd(self, *args, timeout=30, check=True):
        return run(list(args), self.env, timeout=timeout, check=check)

    def job_state(self, job):
        """scontrol's fields of a job ({} once it is gone)."""
        r = self.cmd("scontrol", "-o", "show", "job", job, check=False)
        return dict(re.findall(r"(\w+)=(\S*)", r.stdout)) if r.returncode == 0 else {}

    def wait_job(self, job, timeout):
        def ended():
            st = self.job_state(job)
            live = st.get("JobState") in ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING")
            return None if live else (st or {"JobState": "gone"})
        st = wait_until(ended, timeout, 0.5)
        if st is not None:
            return st
        self.cmd("scancel", job, check=False)
        raise Failure(f"job {job} did not end within {timeout} s (cancelled)\n" + self.tails())

    def stop(self):
        """Ends the daemons in reverse start order: SIGTERM, then SIGKILL after 10 s; returns
        the names of those that needed SIGKILL."""
        killed = []
        for name, p in reversed(self.daemons):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                    killed.append(name)
        self.daemons = []
        return killed

    def __exit__(self, *exc):
        self.stop()
        if self.janitor:
            report = self.janitor.finish()
            self.janitor = None
            log(report.rstrip())
            self.janitor_report = report
        return False


# ---- the checks ------------------------------------------------------------------------

def load_jsonl(path, schema):
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    if schema:
        import jsonschema
        validator = jsonschema.Draft7Validator(schema)  # the schema checked once, not per record
        for i, r in enumerate(recs):
            for e in validator.iter_errors(r):
                raise Failure(f"{path} line {i + 1} does not validate: {e.message}")
    return recs


def check_provenance(where, recs, text, job, node, ntasks):
    """Every JSON header and the text header name Slurm job `job` on `node` with ntasks tasks,
    and that many processes ran on that node."""
    headers = [r for r in recs if r.get("type") == "header"]
    check(headers, f"{where}: no header record")
    for h in headers:
        s = h.get("slurm")
        check(isinstance(s, dict), f"{where}: {h['suite']} header without a slurm object")
        got = (s.get("job_id"), s.get("job_nodelist"), s.get("ntasks"))
        check(got == (job, node, str(ntasks)),
              f"{where}: {h['suite']} header's Slurm job, nodes and tasks {got}, expected "
              f"{(job, node, str(ntasks))}")
        check(h["processes"] == ntasks and h["host_list"] == f"{node}:{ntasks}",
              f"{where}: {h['suite']} header: {h['processes']} processes on "
              f"{h['host_list']!r}, expected {ntasks} on {node}:{ntasks}")
    want = f"# Slurm job             : {job} ("
    lines = [ln for ln in text.splitlines() if ln.startswith("# Slurm job")]
    check(lines and all(ln.startswith(want) and f"nodes {node}, tasks {ntasks}" in ln
                        for ln in lines),
          f"{where}: text header's Slurm line {lines!r}, expected {want}... nodes {node}, "
          f"tasks {ntasks}")
    return len(headers)


def check_batch(c, opts, schema):
    """sbatch a script that srun-launches the job; its id from sbatch --parsable."""
    d = os.path.join(c.work, "runs", "batch")
    os.mkdir(d)
    out_dir = os.path.join(d, "results")
    mpibench = os.path.join(opts.bindir, "mpibench")
    if opts.mpi == "openmpi":
        ntasks, plugin = 4, "pmix"
        prog = [mpibench, "run", "--quick", "--output-dir", out_dir, "--timeout", "60"]
    else:
        ntasks, plugin = 2, "pmi2"
        prog = [mpibench, "imb-mpi1", "PingPong", "-msglog", "0:10", "--output-dir", out_dir,
                "--timeout", "60"]
    script = os.path.join(d, "job.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n" + "exec srun --mpi=" + plugin + f" -n {ntasks} " +
                " ".join(prog) + "\n")
    os.chmod(script, 0o755)
    r = c.cmd("sbatch", "--parsable", "-n", str(ntasks), "-t", "4", "-J", "mpibench-tier",
              "-D", d, "-o", os.path.join(d, "job.out"), script)
    job = r.stdout.strip().split(";")[0]
    check(job.isdigit(), f"sbatch --parsable printed {r.stdout!r}, not a job id")
    t0 = time.monotonic()
    st = c.wait_job(job, 200)
    with open(os.path.join(d, "job.out"), errors="replace") as f:
        job_out = f.read()
    check(st.get("JobState") == "COMPLETED" and st.get("ExitCode") == "0:0",
          f"job {job}: state {st.get('JobState')}, exit code {st.get('ExitCode')}\n"
          f"{job_out[-3000:]}")
    check(st.get("NodeList") == c.node and st.get("NumTasks") == str(ntasks),
          f"job {job}: scontrol says nodes {st.get('NodeList')}, tasks {st.get('NumTasks')}")
    if opts.mpi == "openmpi":
        with open(os.path.join(out_dir, "summary.txt")) as f:
            text = f.read()
        # "# i/N title   status   seconds   estimate" (the estimate column since the plan's
        # estimates; docs/output.md): N phases (10 today), every one ok but the map, which a
        # job on one node lists as skipped.
        phases = re.findall(r"^# (\d+)/(\d+) .*?  +(\S+(?: \S+)?) +[-0-9.]+ +\d+$", text, re.M)
        n = int(phases[0][1]) if phases else 0
        check(re.search(r"^# \d+/\d+ map: .* skipped", text, re.M),
              "summary.txt: the map phase is not listed as skipped on one node")
        check(n >= 7 and len(phases) == n - 1 and all(p[2] == "ok" for p in phases),
              f"summary.txt: phases {phases}, expected all {n} ok but the map")
        recs = load_jsonl(os.path.join(out_dir, "results.jsonl"), schema)
        done = [r for r in recs if r.get("type") == "job_phase"]
        check(len(done) == n and all(r["exit_status"] == 0 and r["skipped"] is None
                                     for r in done if r["program"] != "map") and
              [r["skipped"] for r in done if r["program"] == "map"] ==
              ["the job runs on one host (a map needs two)"],
              f"results.jsonl: job_phase records "
              f"{[(r['phase'], r['exit_status'], r['skipped']) for r in done]}")
        check(any(r.get("type") == "job_result" for r in recs), "results.jsonl: no job_result")
    else:
        with open(os.path.join(out_dir, "IMB-MPI1.txt")) as f:
            text = f.read()
        recs = load_jsonl(os.path.join(out_dir, "IMB-MPI1.jsonl"), schema)
        rows = [r for r in recs if r.get("type") == "result" and r["benchmark"] == "PingPong"]
        check(len(rows) == 12, f"IMB-MPI1.jsonl: {len(rows)} PingPong rows, expected 12")
    check(WARNING not in job_out, f"job {job}: a launcher warning although srun --mpi={plugin} "
          f"started the ranks\n{job_out[-3000:]}")
    n = check_provenance(f"job {job}", recs, text, job, c.node, ntasks)
    return (f"sbatch job {job} (srun --mpi={plugin} -n {ntasks} {' '.join(prog[1:3])}) "
            f"completed in {time.monotonic() - t0:.1f} s; {n} headers carry the job")


def check_salloc(c, opts, schema):
    """salloc -n N MPIRUN ...: the launcher reads the allocation; the id from salloc."""
    d = os.path.join(c.work, "runs", "salloc")
    os.mkdir(d)
    ntasks = 4 if opts.mpi == "openmpi" else 2
    jfile = os.path.join(d, "pingpong.jsonl")
    cmd = ["salloc", "-n", str(ntasks), "-t", "2", "-J", "mpibench-tier", opts.mpirun,
           os.path.join(opts.bindir, "mpibench"), "imb-mpi1", "PingPong", "-msglog", "0:4",
           "--json", jfile, "--timeout", "60"]
    r = subprocess.run(cmd, env=c.env, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    m = re.search(r"Granted job allocation (\d+)", r.stderr)
    check(r.returncode == 0 and m, f"{' '.join(cmd)}: exit status {r.returncode}\n"
          f"{r.stdout[-2000:]}\n--- stderr:\n{r.stderr[-2000:]}")
    job = m.group(1)
    check(WARNING not in r.stderr, f"salloc job {job}: a launcher warning although "
          f"{os.path.basename(opts.mpirun)} started the ranks\n{r.stderr[-2000:]}")
    recs = load_jsonl(jfile, schema)
    check_provenance(f"salloc job {job}", recs, r.stdout, job, c.node, ntasks)
    return (f"salloc job {job}: {os.path.basename(opts.mpirun)} started {ntasks} ranks in the "
            "allocation; the header carries the job")


WARNING = "warning: the launcher started"


def check_launcher(c, opts, schema):
    """The launcher warning (docs/adr/measured-nothing.md) under Slurm: srun without a PMI the
    MPI understands makes every task a singleton, which SLURM_STEP_NUM_TASKS reveals; a
    singleton that a batch script starts itself is legitimate although the batch step's
    SLURM_NTASKS is the allocation's."""
    d = os.path.join(c.work, "runs", "launcher")
    os.mkdir(d)
    imb = os.path.join(opts.bindir, "IMB-MPI1")
    # 1. sbatch -n 2: the batch script runs IMB-MPI1 as a singleton, once as its child and
    #    once exec'd (then its parent is slurmstepd): no warning, status 0 both times.
    script = os.path.join(d, "job.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                'echo "batch step: SLURM_NTASKS=$SLURM_NTASKS '
                'SLURM_STEP_NUM_TASKS=${SLURM_STEP_NUM_TASKS-unset}"\n'
                f"{imb} Sendrecv -msglog 0:2 || exit $?\n"
                f"exec {imb} Sendrecv -msglog 0:2\n")
    os.chmod(script, 0o755)
    r = c.cmd("sbatch", "--parsable", "-n", "2", "-t", "2", "-J", "mpibench-tier", "-D", d,
              "-o", os.path.join(d, "job.out"), script)
    job = r.stdout.strip().split(";")[0]
    check(job.isdigit(), f"sbatch --parsable printed {r.stdout!r}, not a job id")
    st = c.wait_job(job, 120)
    with open(os.path.join(d, "job.out"), errors="replace") as f:
        out = f.read()
    check(st.get("ExitCode") == "0:0" and out.count("# Benchmarking Sendrecv") == 2,
          f"batch singleton job {job}: exit code {st.get('ExitCode')}\n{out[-3000:]}")
    check("batch step: SLURM_NTASKS=2" in out,
          f"batch singleton job {job}: the batch step's SLURM_NTASKS is not 2 (nothing "
          f"tested)\n{out[:500]}")
    check(WARNING not in out, f"batch singleton job {job}: a launcher warning for a singleton "
          f"the batch script started\n{out[-3000:]}")
    # 2. srun --mpi=none -n 2: two singletons; each warns, naming SLURM_STEP_NUM_TASKS, and
    #    the pair benchmark measures nothing (status 1).
    cmd = ["srun", "--mpi=none", "-n", "2", "-t", "2", "-J", "mpibench-tier", imb, "PingPong",
           "-msglog", "0:2"]
    r = subprocess.run(cmd, env=c.env, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    want = ("IMB-MPI1: warning: the launcher started 2 processes (SLURM_STEP_NUM_TASKS=2) but "
            "MPI_COMM_WORLD has 1: each process is a job of its own")
    lines = [ln for ln in r.stderr.splitlines() if WARNING in ln]
    # Open MPI 4.1 does not start as a singleton under srun: MPI_Init aborts with its own
    # message (it was direct-launched by srun without a PMI it can use), never a silent run.
    refused = opts.mpi == "openmpi" and 'direct launched using "srun"' in r.stderr
    check(r.returncode != 0 and (refused or (
          len(lines) == 2 and all(ln.startswith(want) for ln in lines)
          and "srun --mpi=" in lines[0] and "each process a job of its own" in r.stderr)),
          f"{' '.join(cmd)}: exit status {r.returncode}, warnings {lines}, expected 2 lines "
          f"starting {want!r} and status 1\n--- stderr:\n{r.stderr[-2000:]}")
    if refused:
        lines = ["Open MPI's own refusal in MPI_Init"]
    if opts.mpi == "mpich":
        # 3. A shell in a 2-task step (as in `srun -n 2 --pty bash`) starts a singleton: it
        #    inherits SLURM_STEP_NUM_TASKS=2 but is no task of the step: no warning, status 0.
        cmd = ["srun", "--mpi=none", "-n", "2", "-t", "2", "-J", "mpibench-tier", "sh", "-c",
               f"{imb} Sendrecv -msglog 0:2; exit $?"]
        r3 = subprocess.run(cmd, env=c.env, cwd=d, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
        check(r3.returncode == 0 and WARNING not in r3.stderr
              and r3.stdout.count("# Benchmarking Sendrecv") == 2,
              f"{' '.join(cmd)}: exit status {r3.returncode}, a warning for a singleton a shell "
              f"in the step started?\n--- stderr:\n{r3.stderr[-2000:]}")
    step = re.search(r"SLURM_STEP_NUM_TASKS=(\S+)", out)
    return (f"batch singletons (SLURM_NTASKS=2, SLURM_STEP_NUM_TASKS="
            f"{step.group(1) if step else '?'}): no warning; srun --mpi=none -n 2: "
            f"{len(lines)} warning(s) ({lines[0][:60]}...), exit status {r.returncode}")


def skip_reason(opts):
    if os.geteuid() != 0:
        return "needs root (it starts munged, slurmctld and slurmd of its own)"
    missing = [t for t in TOOLS if not which(t)]
    if missing:
        return (f"{', '.join(missing)} not installed (Debian: apt-get install {PACKAGES}; "
                "scripts/deps.sh --tests does it as root)")
    if not shutil.which(opts.mpirun):
        return f"{opts.mpirun} not found"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", required=True, help="the build directory (mpibench)")
    ap.add_argument("--mpi", required=True, choices=("openmpi", "mpich"))
    ap.add_argument("--mpirun", help="the MPI's launcher for the salloc check "
                    "(default mpirun.openmpi or mpiexec.mpich)")
    ap.add_argument("--schema", help="docs/results.schema.json: validate every JSON record")
    ap.add_argument("--save", help="copy the jobs' output and the daemons' logs to this new "
                    "directory at the end")
    opts = ap.parse_args()
    opts.bindir = os.path.abspath(opts.bindir)
    opts.mpirun = opts.mpirun or ("mpirun.openmpi" if opts.mpi == "openmpi" else "mpiexec.mpich")
    if opts.save and os.path.lexists(opts.save):
        ap.error(f"--save: {opts.save} exists")
    reason = skip_reason(opts)
    if reason:
        print(f"SKIPPED (Slurm tier): {reason}")
        return SKIP
    opts.mpirun = shutil.which(opts.mpirun)
    schema = None
    if opts.schema:
        with open(opts.schema) as f:
            schema = json.load(f)

    t0 = time.monotonic()
    failed = []

    def session():
        with Cluster(4 if opts.mpi == "openmpi" else 2) as c:
            log(f"cluster up in {time.monotonic() - t0:.1f} s")
            plugin = "pmix" if opts.mpi == "openmpi" else "pmi2"
            r = c.cmd("srun", "--mpi=list")
            if not re.search(rf"^\s*{plugin}\s*$", r.stdout + r.stderr, re.M):
                raise Refused(f"this Slurm has no {plugin} plugin (srun --mpi=list: "
                              f"{(r.stdout + r.stderr).strip()!r})")
            run_checks([(name, lambda fn=fn: fn(c, opts, schema)) for name, fn in
                        (("batch", check_batch), ("salloc", check_salloc),
                         ("launcher", check_launcher))], failed)

            # A job srun ran itself may still be COMPLETING for a moment after srun returns.
            def queue_empty():
                return not c.cmd("squeue", "-h", "-o", "%i %T").stdout.strip()
            if not wait_until(queue_empty, 30, 0.5):
                left = c.cmd("squeue", "-h", "-o", "%i %T").stdout.strip()
                failed.append("jobs")
                log(f"FAILED: jobs still in the queue: {left}")
            if opts.save:
                shutil.copytree(os.path.join(c.work, "runs"), opts.save)
                for f in ("slurmctld.log", "slurmd.log", "slurm.conf"):
                    shutil.copy(os.path.join(c.work, f), opts.save)
            killed = c.stop()
            if killed:
                failed.append("stop")
                log(f"FAILED: {', '.join(killed)} did not end within 10 s of SIGTERM")
        return c
    status, c = guarded("Slurm tier", session)
    if status is not None:
        return status
    work = c.work
    # The janitor has run: nothing of this run may be left.
    if "everything removed" not in c.janitor_report:
        failed.append("cleanup")
    left = marked_pids(work)
    if left or os.path.lexists(work) or os.path.lexists(c.shm):
        failed.append("cleanup")
        log(f"FAILED: left behind: processes {left}, {work} exists: {os.path.lexists(work)}")
    log(f"Slurm tier: {time.monotonic() - t0:.1f} s, "
        + (f"FAILED: {', '.join(failed)}" if failed else "all checks passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
