# SPDX-License-Identifier: BSD-3-Clause
"""What the test tiers that need root share: the janitor, waiting, and interrupts.

A tier that changes the machine (network namespaces, a bridge, /etc/netns entries, daemons of
a Slurm of its own) must undo it on every exit path, including a SIGKILL from ctest's
timeout, which no `finally` survives. So every such tier records each thing it creates, as it
creates it, with a Janitor: a process of its own session (it ignores SIGINT, SIGTERM, SIGHUP
and SIGPIPE) that reads the records from a pipe and, once the pipe closes (however the tier
ends: the kernel closes it when the tier dies), undoes exactly what was recorded and reports.
What "undo" means is the tier's own: it passes a function from the records to a list of
problems; remove_trees() and end_pids() are the parts both tiers use. Besides: wait_until()
(every poll with a deadline), guarded() (a tier's session and its exit status: skip 77,
failure or interrupt 1) and run_checks() (named checks, a failed one does not stop the rest).

Used by tests/slurm/slurm_tier.py and tests/multihost/ (netns_hosts.py, multihost_check.py);
each puts this directory on sys.path.
"""
import os
import select
import shutil
import signal
import subprocess
import time

SKIP = 77  # the exit status that ctest's SKIP_RETURN_CODE of both tiers names


class Failure(Exception):
    """Something a check expected did not happen."""


class Refused(Exception):
    """The tier cannot run here (no root, a tool or plugin missing): a skip, not a failure."""


class Interrupted(Exception):
    """The tier got SIGINT, SIGTERM or SIGHUP (raised in the main thread, so that the context
    managers tear down before the tier exits)."""


def raise_on_signals():
    """SIGINT, SIGTERM and SIGHUP raise Interrupted in the tier."""
    def interrupt(sig, _frame):
        raise Interrupted(signal.Signals(sig).name)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, interrupt)


def log(msg=""):
    print(msg, flush=True)


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def guarded(title, body):
    """Run body() with SIGINT, SIGTERM and SIGHUP raising Interrupted (so that the context
    managers in it tear down). Returns (None, what body returned), or (status, None) when it
    ended early, with a line that says why: SKIP for Refused, 1 for a Failure or an interrupt."""
    raise_on_signals()
    try:
        return None, body()
    except Refused as e:
        print(f"SKIPPED ({title}): {e}")
        return SKIP, None
    except Failure as e:
        print(f"FAILED: {e}")
        return 1, None
    except Interrupted as e:
        print(f"interrupted by {e}")
        return 1, None


def run_checks(checks, failed, after_failure=None):
    """Run the (name, fn) checks in order, each logged with what fn() returns and its time. A
    Failure (or a command's timeout) fails that check only: its name goes to failed,
    after_failure() runs (e.g. ends the job left running) and the next check runs."""
    for name, fn in checks:
        t = time.monotonic()
        log(f"{name}:")
        try:
            log(f"  ok: {fn()} ({time.monotonic() - t:.1f} s)")
        except (Failure, subprocess.TimeoutExpired) as e:
            failed.append(name)
            log(f"  FAILED: {e}")
            if after_failure is not None:
                after_failure()


def wait_until(ready, timeout, interval=0.1, abort=None):
    """Poll ready() every interval seconds until it returns something true (returned) or
    timeout seconds pass (None returned). abort(), when given, is asked before each poll and
    ends the wait early by raising whatever it raises (a daemon that died, a job that ended)."""
    end = time.monotonic() + timeout
    while True:
        if abort is not None:
            abort()
        got = ready()
        if got or time.monotonic() >= end:
            return got or None
        time.sleep(interval)


def kill_pids(pids, sig):
    """Send sig to every pid that still exists (a pid that ended meanwhile is no error)."""
    for p in pids:
        try:
            os.kill(p, sig)
        except OSError:
            pass


def end_pids(find, grace=5.0, kill_wait=5.0, interval=0.1):
    """End the processes find() lists: SIGTERM (when grace > 0) and grace seconds to end, then
    SIGKILL, sent again at every poll (a process may start meanwhile, e.g. a daemon's child)
    for up to kill_wait seconds. Returns the pids still there then ([] when all ended)."""
    if grace > 0:
        kill_pids(find(), signal.SIGTERM)
        if wait_until(lambda: not find(), grace, interval):
            return []

    def killed():
        pids = find()
        kill_pids(pids, signal.SIGKILL)
        return not pids
    if wait_until(killed, kill_wait, interval):
        return []
    return find()


def remove_trees(records):
    """Remove every ("tree", path) record; returns the paths that could not be removed."""
    problems = []
    for kind, path in records:
        if kind == "tree":
            shutil.rmtree(path, ignore_errors=True)
            if os.path.lexists(path):
                problems.append(f"{path} could not be removed")
    return problems


class Janitor:
    """The process that undoes the recorded set-up when the tier ends, however it ends.

    undo(records) runs in the janitor once the record pipe closes; records is the list of
    (kind, value) pairs recorded, in order; it returns a list of problems (what could not be
    undone), reported by finish()."""

    def __init__(self, undo):
        rec_r, self._rec_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the forked process
            try:
                # A session of its own (ctest's kill of the tier's process group misses it),
                # and a second fork so that it is not the tier's child (no zombie, no wait).
                os.setsid()
                if os.fork() == 0:
                    os.close(self._rec_w)
                    os.close(done_r)
                    self._main(undo, rec_r, done_w)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        os.close(rec_r)
        os.close(done_w)
        self._done_r = done_r

    @staticmethod
    def _main(undo, rec_fd, done_fd):
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
        records = [tuple(line.split("\t", 1)) for line in data.decode().splitlines()
                   if "\t" in line]
        try:
            problems = undo(records)
        except Exception as e:  # noqa: BLE001 - reported, never lost with the process
            problems = [f"undo failed: {type(e).__name__}: {e}"]
        text = "".join(f"janitor: {p}\n" for p in problems) or "janitor: everything removed\n"
        try:
            os.write(done_fd, text.encode())
        except OSError:
            pass

    def record(self, kind, value):
        """Record something just created; kind is the tier's word ("tree" for a directory
        remove_trees() removes)."""
        os.write(self._rec_w, f"{kind}\t{value}\n".encode())

    def finish(self, timeout=90):
        """Close the record pipe (the janitor starts) and wait for its report."""
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
