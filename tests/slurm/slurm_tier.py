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

Every daemon, job and process this tier started is ended, and its directories removed, on
every exit path: a janitor process of its own session (it ignores SIGINT/SIGTERM/SIGHUP)
ends each process whose environment carries this run's mark (the daemons, slurmstepd, the
jobs' ranks and launchers inherit it) and removes the directories once the tier's pipe to it
closes - a normal end, a failure, an interrupt or ctest's SIGKILL. Nothing in /etc, /var or
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
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
MARK = "MB_SLURM_TIER"  # environment variable naming this run's directory in every process
SBIN = os.pathsep.join(["/usr/sbin", "/sbin"])
TOOLS = ("munged", "munge", "unmunge", "slurmctld", "slurmd", "sbatch", "srun", "salloc",
         "scontrol", "sinfo", "squeue", "scancel")
PACKAGES = "slurmd slurmctld slurm-client munge"


class Failure(Exception):
    """Something a check expected did not happen."""


class Interrupted(Exception):
    pass


class Refused(Exception):
    """The tier cannot run here (a skip, not a failure)."""


def log(msg):
    print(msg, flush=True)


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


# ---- the janitor -----------------------------------------------------------------------

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


def end_marked(value, exclude=(), grace=5.0):
    """SIGTERM to every marked process, SIGKILL to what is left after grace seconds; returns
    the pids still there after that."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        pids = marked_pids(value, exclude)
        for p in pids:
            try:
                os.kill(p, sig)
            except OSError:
                pass
        end = time.monotonic() + wait
        while pids and time.monotonic() < end:
            time.sleep(0.1)
            pids = marked_pids(value, exclude)
        if not pids:
            return []
    return pids


class Janitor:
    """A process of its own session that, once the tier's pipe to it closes (however the tier
    ends), ends every marked process and removes the recorded directories, then reports."""

    def __init__(self, mark):
        rec_r, self._rec_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the forked process
            try:
                os.setsid()
                if os.fork() == 0:
                    os.close(self._rec_w)
                    os.close(done_r)
                    self._main(mark, rec_r, done_w)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        os.close(rec_r)
        os.close(done_w)
        self._done_r = done_r

    @staticmethod
    def _main(mark, rec_fd, done_fd):
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(s, signal.SIG_IGN)
        data = b""
        while True:
            try:
                chunk = os.read(rec_fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        problems = []
        left = end_marked(mark, exclude=(os.getpid(),))
        if left:
            problems.append(f"processes of this run still running: {left}")
        for tree in data.decode().splitlines():
            shutil.rmtree(tree, ignore_errors=True)
            if os.path.lexists(tree):
                problems.append(f"{tree} could not be removed")
        text = "".join(f"janitor: {p}\n" for p in problems) or "janitor: everything removed\n"
        try:
            os.write(done_fd, text.encode())
        except OSError:
            pass

    def record(self, tree):
        os.write(self._rec_w, f"{tree}\n".encode())

    def finish(self, timeout=60):
        if self._rec_w is not None:
            os.close(self._rec_w)
            self._rec_w = None
        out, end = b"", time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self._done_r], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self._done_r, 4096)
            if not chunk:
                break
            out += chunk
        return out.decode() or "janitor: no report (still working?)\n"


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
        self.janitor = Janitor(self.work)
        self.janitor.record(self.work)
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
        self.janitor.record(self.shm)
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
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for name, p in self.daemons:
                if p.poll() is not None:
                    raise Failure(f"{name} ended with status {p.returncode} while waiting for "
                                  f"{what}\n" + self.tails(*logs))
            if ready():
                return
            time.sleep(0.3)
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
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            st = self.job_state(job)
            if st.get("JobState") not in ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING"):
                return st
            time.sleep(0.5)
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

def check(cond, msg):
    if not cond:
        raise Failure(msg)


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
        # estimates; docs/output.md): N phases (7 today), every one ok.
        phases = re.findall(r"^# (\d+)/(\d+) .*?  +(\S+(?: \S+)?) +[-0-9.]+ +\d+$", text, re.M)
        n = int(phases[0][1]) if phases else 0
        check(n >= 7 and len(phases) == n and all(p[2] == "ok" for p in phases),
              f"summary.txt: phases {phases}, expected all {n} ok")
        recs = load_jsonl(os.path.join(out_dir, "results.jsonl"), schema)
        done = [r for r in recs if r.get("type") == "job_phase"]
        check(len(done) == n and all(r["exit_status"] == 0 and r["skipped"] is None
                                     for r in done),
              f"results.jsonl: job_phase records {[(r['phase'], r['exit_status']) for r in done]}")
        check(any(r.get("type") == "job_result" for r in recs), "results.jsonl: no job_result")
    else:
        with open(os.path.join(out_dir, "IMB-MPI1.txt")) as f:
            text = f.read()
        recs = load_jsonl(os.path.join(out_dir, "IMB-MPI1.jsonl"), schema)
        rows = [r for r in recs if r.get("type") == "result" and r["benchmark"] == "PingPong"]
        check(len(rows) == 12, f"IMB-MPI1.jsonl: {len(rows)} PingPong rows, expected 12")
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
    recs = load_jsonl(jfile, schema)
    check_provenance(f"salloc job {job}", recs, r.stdout, job, c.node, ntasks)
    return (f"salloc job {job}: {os.path.basename(opts.mpirun)} started {ntasks} ranks in the "
            "allocation; the header carries the job")


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

    def interrupt(sig, _frame):
        raise Interrupted(signal.Signals(sig).name)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, interrupt)
    t0 = time.monotonic()
    failed = []
    try:
        with Cluster(4 if opts.mpi == "openmpi" else 2) as c:
            log(f"cluster up in {time.monotonic() - t0:.1f} s")
            plugin = "pmix" if opts.mpi == "openmpi" else "pmi2"
            r = c.cmd("srun", "--mpi=list")
            if not re.search(rf"^\s*{plugin}\s*$", r.stdout + r.stderr, re.M):
                raise Refused(f"this Slurm has no {plugin} plugin (srun --mpi=list: "
                              f"{(r.stdout + r.stderr).strip()!r})")
            for name, fn in (("batch", check_batch), ("salloc", check_salloc)):
                t = time.monotonic()
                log(f"{name}:")
                try:
                    log(f"  ok: {fn(c, opts, schema)} ({time.monotonic() - t:.1f} s)")
                except (Failure, subprocess.TimeoutExpired) as e:
                    failed.append(name)
                    log(f"  FAILED: {e}")
            left = c.cmd("squeue", "-h", "-o", "%i %T").stdout.strip()
            if left:
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
            work = c.work
    except Refused as e:
        print(f"SKIPPED (Slurm tier): {e}")
        return SKIP
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    except Interrupted as e:
        print(f"interrupted by {e}")
        return 1
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
