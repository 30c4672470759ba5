# SPDX-License-Identifier: BSD-3-Clause
"""netns_hosts: several MPI "hosts" on one Linux machine, made of network namespaces.

Each host is a network namespace with its own address on a private bridge, its own hostname
(a UTS namespace per process tree) and its own node-local directory; Open MPI starts its
daemons on them through an rsh agent, exactly as it would over ssh on a cluster. The kernel
gives every host its own TCP/IP stack, so messages between hosts really go through TCP over
a veth pair and the bridge, and MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups the
processes per namespace (Open MPI counts one node per daemon). Open MPI only: MPICH 4.0's
UCX transport over TCP hangs intermittently in MPI_Finalize (docs/adr/multihost-tier.md).

Nothing outside what this module creates is touched:
  - it refuses to start when a name it would create exists (namespace, link, /etc/netns/NAME);
  - everything it creates is recorded, as it is created, with a janitor: a process of its own
    (own session, ignores SIGINT/SIGTERM/SIGHUP) that undoes exactly the recorded things
    once the tier's pipe to it closes - whatever ends the tier: a normal end, an exception,
    SIGINT/SIGTERM or a SIGKILL (ctest's timeout). /etc/netns and /run/netns are removed only
    when this run made them and they are empty again.

Per host: namespace NAME; veth pair NAME-v (on the bridge) / eth0 (in NAME) with 10.77.0.i/24;
/etc/netns/NAME/hosts (bind-mounted over /etc/hosts by `ip netns exec`, ip-netns(8)) naming
every host; WORK/disk-NAME, which every process of that host sees at WORK/node-local (a
bind mount in the host's private mount namespace): a node-local directory, like /tmp on a
cluster node. WORK/shared is the same directory on every host (a shared file system).
Open MPI's session directories (TMPDIR) and shared-memory segments
(btl_vader_backing_directory) go into directories of this run, so that even an aborted job
leaves nothing in /tmp or /dev/shm.
"""
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tierlib"))
from janitor import (Failure, Janitor, Refused, end_pids, kill_pids,  # noqa: E402,F401
                     remove_trees, wait_until)

SUBNET = "10.77.0"


class SetupRefused(Refused):
    """The tier cannot run here (no root, no `ip`, namespaces not permitted): a skip."""


def _run(cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def netns_pids(name):
    """Processes in network namespace name (`ip netns pids`); [] when it is gone."""
    r = _run(["ip", "netns", "pids", name], check=False)
    return [int(p) for p in r.stdout.split()] if r.returncode == 0 else []


def link_exists(name):
    return _run(["ip", "link", "show", "dev", name], check=False).returncode == 0


def netns_exists(name):
    return os.path.exists(os.path.join("/run/netns", name))


def _is_mountpoint(path):
    return _run(["mountpoint", "-q", path], check=False).returncode == 0


# ---- the janitor's part of this tier (tests/tierlib/janitor.py) -----------------------------

def undo(records):
    """In the janitor: undo what records list (kind, value); returns what could not be
    undone."""
    problems = []
    namespaces = [v for k, v in records if k == "netns"]

    # 1. The processes of our hosts (a job the tier could not end): only they keep a
    #    namespace alive after `ip netns del`.
    def in_hosts():
        return [p for ns in namespaces for p in netns_pids(ns)]
    left = end_pids(in_hosts, grace=0, kill_wait=15, interval=0.2)
    if left:
        problems.append(f"processes still running in the namespaces: {left}")
    # 2. The namespaces (their veth ends go with them), then the links still there.
    for ns in namespaces:
        if netns_exists(ns):
            r = _run(["ip", "netns", "del", ns], check=False)
            if r.returncode != 0:
                problems.append(f"ip netns del {ns}: {r.stderr.strip()}")
    links = [v for k, v in records if k == "link"]
    for v in links:
        if link_exists(v):
            _run(["ip", "link", "del", v], check=False)
    # A namespace is freed asynchronously by the kernel: wait for its veth to go.
    wait_until(lambda: not any(link_exists(v) for v in links), 10)
    problems += [f"link {v} is still there" for v in links if link_exists(v)]
    # 3. Files and directories this run created.
    problems += remove_trees(records)
    # 4. The parents ip-netns uses, only if this run made them and nothing else is in them.
    for k, v in records:
        if k == "emptydir":
            try:
                if not os.listdir(v):
                    while _is_mountpoint(v):
                        if _run(["umount", v], check=False).returncode != 0:
                            break
                    os.rmdir(v)
            except OSError:
                pass
    return problems


# ---- the hosts -------------------------------------------------------------------------

AGENT = """#!/bin/sh
# Open MPI's rsh agent for the multi-host tier: "HOST COMMAND..." runs COMMAND in network
# namespace HOST with hostname HOST (a UTS namespace of its own) and HOST's node-local
# directory at {work}/node-local - what "ssh HOST COMMAND" does on a cluster. "$*" re-joins
# the words as ssh does (the remote shell parses them again).
h="$1"; shift
exec ip netns exec "$h" unshare --uts sh -c \\
  'hostname "$0" && mount --bind "$1/disk-$0" "$1/node-local" && exec sh -c "$2"' \\
  "$h" {work_q} "$*"
"""


class Result:
    def __init__(self, name, cmd, status, stdout, stderr, elapsed, cwd):
        self.name, self.cmd, self.status = name, cmd, status
        self.stdout, self.stderr, self.elapsed, self.cwd = stdout, stderr, elapsed, cwd

    def tail(self, n=25):
        out = self.stdout.splitlines()[-n:] + ["--- stderr:"] + self.stderr.splitlines()[-n:]
        return "\n".join(out)


class Hosts:
    """N hosts named PREFIX + A, B, C, ...; use as a context manager (set up, torn down)."""

    def __init__(self, n, prefix, mpirun, bindir, log=print):
        if n < 2 or n > 26:
            raise ValueError("2 to 26 hosts")
        self.names = [prefix + chr(ord("A") + i) for i in range(n)]
        self.bridge = prefix + "-br"
        self.mpirun_path, self.bindir, self.log = mpirun, bindir, log
        self.janitor = None
        self.work = None
        self.current = None  # the job running now (ended on an interrupt)
        self.deadline = None  # time.monotonic() by which every job must have ended

    # -- set up --------------------------------------------------------------------------
    def _refuse_existing(self):
        taken = [f"network namespace {h}" for h in self.names if netns_exists(h)]
        taken += [f"link {link}" for link in [self.bridge] + [h + "-v" for h in self.names]
                  if link_exists(link)]
        taken += [f"/etc/netns/{h}" for h in self.names if os.path.lexists(f"/etc/netns/{h}")]
        if taken:
            raise Failure("refusing to start: these names exist already and are not this "
                          "run's: " + ", ".join(taken) + " (another run of the tier, or "
                          "something else that uses them; choose another --prefix)")

    @staticmethod
    def _refused(cmd, text):
        """A failure that says this machine cannot make hosts (no privilege, no veth or
        bridge support): the tier is skipped, not failed."""
        if any(w in text for w in ("Operation not permitted", "Permission denied",
                                   "Operation not supported", "not supported")):
            return SetupRefused(f"{' '.join(cmd)}: {text} (namespaces, veth pairs or bridges "
                                "cannot be made here)")
        return None

    def _sh(self, *cmd):
        r = _run(list(cmd), check=False)
        if r.returncode != 0:
            text = r.stderr.strip()
            raise self._refused(cmd, text) or Failure(f"{' '.join(cmd)} failed: {text}")
        return r.stdout

    def __enter__(self):
        self._refuse_existing()
        self.janitor = Janitor(undo)
        try:
            self._set_up()
        except BaseException:
            self.__exit__(None, None, None)  # undone before the exception goes on
            raise
        return self

    def _set_up(self):
        rec = self.janitor.record
        self.work = tempfile.mkdtemp(prefix="mb-multihost-")
        rec("tree", self.work)
        self.shm = tempfile.mkdtemp(prefix="mb-multihost-", dir="/dev/shm")
        rec("tree", self.shm)
        for d in ("/etc/netns", "/run/netns"):
            if not os.path.exists(d):
                rec("emptydir", d)  # ip-netns makes /run/netns; this run makes /etc/netns
        if not os.path.exists("/etc/netns"):
            os.mkdir("/etc/netns")
        self._sh("ip", "link", "add", self.bridge, "type", "bridge")
        rec("link", self.bridge)
        self._sh("ip", "link", "set", self.bridge, "up")
        hosts_file = "127.0.0.1 localhost\n" + "".join(
            f"{SUBNET}.{i + 1} {h}\n" for i, h in enumerate(self.names))
        for i, h in enumerate(self.names):
            self._sh("ip", "netns", "add", h)
            rec("netns", h)
            self._sh("ip", "link", "add", h + "-v", "type", "veth", "peer", "name", "eth0",
                     "netns", h)
            rec("link", h + "-v")
            self._sh("ip", "link", "set", h + "-v", "master", self.bridge, "up")
            self._sh("ip", "-n", h, "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", "eth0")
            self._sh("ip", "-n", h, "link", "set", "lo", "up")
            self._sh("ip", "-n", h, "link", "set", "eth0", "up")
            os.mkdir(f"/etc/netns/{h}")
            rec("tree", f"/etc/netns/{h}")
            with open(f"/etc/netns/{h}/hosts", "w") as f:
                f.write(hosts_file)
            os.mkdir(os.path.join(self.work, "disk-" + h))
        for d in ("node-local", "shared", "tmp", "runs"):
            os.mkdir(os.path.join(self.work, d))
        self.agent = os.path.join(self.work, "agent.sh")
        with open(self.agent, "w") as f:
            f.write(AGENT.format(work=self.work, work_q=shlex.quote(self.work)))
        os.chmod(self.agent, 0o755)
        self.env = dict(os.environ)
        self.env.update({
            "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_plm_rsh_agent": self.agent,
            # TCP between hosts, shared memory inside one (ob1; UCX would pick its own paths).
            "OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,vader,tcp",
            "OMPI_MCA_btl_tcp_if_include": f"{SUBNET}.0/24",
            "OMPI_MCA_oob_tcp_if_include": f"{SUBNET}.0/24",
            # 6 processes on 2 cores: waiting processes yield, or timings become erratic.
            "OMPI_MCA_mpi_yield_when_idle": "1",
            "OMPI_MCA_btl_vader_backing_directory": self.shm,
            "TMPDIR": os.path.join(self.work, "tmp"),
        })
        for h in self.names:  # each host answers with its own name
            r = _run([self.agent, h, "hostname"], check=False)
            if r.stdout.strip() != h:
                cmd = [self.agent, h, "hostname"]
                raise self._refused(cmd, r.stderr) or Failure(
                    f"host {h} answers as {r.stdout.strip()!r}: {r.stderr.strip()}")

    def __exit__(self, *exc):
        self.stop_current()
        if self.janitor:
            report = self.janitor.finish()
            self.janitor = None
            self.log(report.rstrip())
        return False

    # -- paths -------------------------------------------------------------------------
    def disk(self, h):
        """Where host h's node-local directory lives (seen from outside the hosts)."""
        return os.path.join(self.work, "disk-" + h)

    @property
    def node_local(self):
        return os.path.join(self.work, "node-local")

    @property
    def shared(self):
        return os.path.join(self.work, "shared")

    # -- jobs --------------------------------------------------------------------------
    def layout(self, spec, np_, by_node=False):
        """The host of every rank for `--host spec -np np_` (Open MPI: by slot, or by node
        round-robin with --map-by node)."""
        slots = []
        for part in spec.split(","):
            h, _, n = part.partition(":")
            slots.append([h, int(n or 1)])
        hosts = []
        if by_node:
            while len(hosts) < np_:
                for s in slots:
                    if s[1] > 0 and len(hosts) < np_:
                        hosts.append(s[0])
                        s[1] -= 1
        else:
            for h, n in slots:
                hosts += [h] * n
        return hosts[:np_]

    def start(self, name, spec, np_, prog, args, by_node=False, extra=()):
        """Start `mpirun --host spec -np np_ PROG ARGS` on the first host of spec; returns the
        Popen (its pid is mpirun's: the agent and sh exec it)."""
        cwd = os.path.join(self.work, "runs", name)
        os.makedirs(cwd)
        cmd = ([self.mpirun_path, "--oversubscribe", "--host", spec, "-np", str(np_)] +
               (["--map-by", "node"] if by_node else []) + list(extra) +
               [os.path.join(self.bindir, prog)] + [str(a) for a in args])
        line = "exec " + " ".join(shlex.quote(c) for c in cmd)
        out = open(os.path.join(cwd, "stdout"), "w")
        err = open(os.path.join(cwd, "stderr"), "w")
        first = spec.split(",")[0].split(":")[0]
        p = subprocess.Popen([self.agent, first, line], cwd=cwd, env=self.env, stdout=out,
                             stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        err.close()
        p.mb_name, p.mb_cmd, p.mb_cwd, p.mb_t0 = name, " ".join(cmd), cwd, time.monotonic()
        self.current = p
        return p

    def wait(self, p, timeout):
        """Wait for a started job; a job that outlives timeout (or the deadline) is killed (a
        failure)."""
        if self.deadline is not None:
            timeout = max(1.0, min(timeout, self.deadline - time.monotonic()))
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop_current()
            raise Failure(f"{p.mb_name}: did not end within {timeout:.0f} s: {p.mb_cmd}")
        finally:
            self.current = None
        elapsed = time.monotonic() - p.mb_t0
        with open(os.path.join(p.mb_cwd, "stdout")) as f:
            stdout = f.read()
        with open(os.path.join(p.mb_cwd, "stderr")) as f:
            stderr = f.read()
        return Result(p.mb_name, p.mb_cmd, p.returncode, stdout, stderr, elapsed, p.mb_cwd)

    def run(self, name, spec, np_, prog, args, by_node=False, timeout=120, status=0, extra=()):
        r = self.wait(self.start(name, spec, np_, prog, args, by_node, extra), timeout)
        self.require_no_processes(name)
        if status is not None and r.status != status:
            raise Failure(f"{name}: exit status {r.status}, expected {status}\n{r.tail()}\n"
                          f"command: {r.cmd}")
        return r

    # Slowing one host's link (tests/multihost nodemap, bench/map_outliers.py): netem's delay
    # and rate where the kernel has netem, else tbf's rate alone (a kernel without
    # CONFIG_NET_SCH_NETEM, as the development VM's); both ends of its veth pair, so both ways.
    SLOW_QDISCS = (["netem", "delay", "2ms", "rate", "50mbit"],
                   ["tbf", "rate", "50mbit", "burst", "16kb", "latency", "100ms"])

    def slow_link(self, host):
        """Slow host's link both ways; returns the qdisc used ("tbf rate 50mbit ...")."""
        for qdisc in self.SLOW_QDISCS:
            r = _run(["tc", "qdisc", "add", "dev", host + "-v", "root"] + qdisc, check=False)
            if r.returncode != 0:
                self.log(f"  tc {qdisc[0]}: {r.stderr.strip()}")
                continue
            r = _run(["ip", "netns", "exec", host, "tc", "qdisc", "add", "dev", "eth0", "root"]
                     + qdisc, check=False)
            if r.returncode != 0:
                self.unslow_link(host)
                raise Failure(f"tc {qdisc[0]} in {host}: {r.stderr.strip()}")
            return " ".join(qdisc)
        raise Failure("neither netem nor tbf could slow a link (tc qdisc add failed)")

    def unslow_link(self, host):
        _run(["tc", "qdisc", "del", "dev", host + "-v", "root"], check=False)
        _run(["ip", "netns", "exec", host, "tc", "qdisc", "del", "dev", "eth0", "root"],
             check=False)

    def stop_current(self):
        """End the running job (an interrupt or a timeout): its process group, then anything
        left in the hosts."""
        p, self.current = self.current, None
        if p is not None and p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
        for h in self.names:
            kill_pids(netns_pids(h), signal.SIGKILL)

    def processes(self):
        """{host: [pids]} of processes still running in the hosts."""
        return {h: pids for h in self.names if (pids := netns_pids(h))}

    def require_no_processes(self, what, grace=10.0):
        """No process may stay in any host after a job (Open MPI's daemons included)."""
        wait_until(lambda: not self.processes(), grace)
        if left := self.processes():
            desc = {h: [_run(["ps", "-o", "pid=,args=", "-p", str(p)], check=False).stdout.strip()
                        for p in pids] for h, pids in left.items()}
            self.stop_current()
            raise Failure(f"{what}: processes left in the hosts {grace:.0f} s after the job: {desc}")
