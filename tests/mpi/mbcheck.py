# SPDX-License-Identifier: BSD-3-Clause
"""mbcheck: the frame shared by the MPI output checkers in tests/mpi/ (imb_check.py, ...).

A checker runs one program under mpiexec in a new temporary directory and checks what it did.
This module does everything that does not depend on the program; the checker adds its own
options and one function with its specific checks:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # run as a script
    import mbcheck
    from mbcheck import check, fail

    def check_run(run):                  # after the generic checks passed
        check(run.stdout.startswith("Hello"), "no greeting")
        records = run.records("r.jsonl")
        return f"{len(records)} records"  # shown as "ok: 3 records"

    if __name__ == "__main__":
        ap = mbcheck.parser(__doc__)
        ap.add_argument("--greeting", ...)  # the checker's own options
        sys.exit(mbcheck.main(check_run, ap))

parser(doc, *, fragments=False, files=True) -> argparse.ArgumentParser
    The common options (the checker adds its own to the parser it gets):
      --mpiexec CMD --np N --bin PATH   run  CMD -np N PATH [--prefix-args] ARGS [append_args]
      --schema FILE                     the JSON schema Run.records() validates against
      --timeout S (600)                 a run that takes longer is killed: a failure
      --status N (0)                    the expected exit status
      --stderr P                        stderr must contain P
      --stdout P                        stdout must contain P (repeatable: every P)
      -- ARGS                           the program's arguments (Run.args)
      --save-run DIR                    keep the run (command, exit status, stdout, stderr,
                                        the files it made) in DIR, for --from-run
      --from-run DIR                    check the run that another test kept in DIR, which
                                        must have the same command, instead of starting one
                                        (tests whose runs are identical start it once; main()
                                        honours both; the run is checked in a new directory,
                                        so only for runs whose output names no path in it)
    P is a regular expression searched for with re.M, or with fragments=True a plain string.
    With files=True also:
      --prefix-args 'A B'               arguments before ARGS (e.g. mpibench's subcommand)
      --file NAME=CONTENT               create this file first ("\\n" = newline; NAME/ = a
                                        directory; repeatable)
      --creates PATH                    the run must create PATH (repeatable)
      --size PATH=BYTES                 a file --creates names has exactly BYTES bytes
      --data-at PATH=OFFSET             the 8 bytes at OFFSET of a created file are not all
                                        zero (data written there, not a hole)
      --text-copy PATH                  a file the run creates that must equal stdout
    and then the run may leave no new file outside --creates' top directories and the paths
    given to Run.allow(). Without files=True the checker checks the files itself
    (Run.new_files()).

main(check_fn, ap, *, append_args=(), tmp_prefix="mb-check-") -> exit status for sys.exit
    Parses the options, creates the --file files, runs the command, checks the exit status,
    --stderr and --stdout, calls check_fn(run), then (files=True) checks --creates, --text-copy
    and stray files. Prints "ok: <what check_fn returned>" and returns 0; on a Failure prints
    the tail of the run's stdout and stderr, "FAILED: <reason>" and the command, returns 1.

Run: what check_fn gets.
    opts (the parsed options), args (the program's arguments), cwd, cmd, returncode, stdout,
    stderr, elapsed (seconds);
    path(name) -> absolute path in cwd;  read(name) -> a file's text;
    new_files() -> sorted paths the run created (the top of each new subtree);
    allow(path) -> one more output the stray-file check accepts (with its top directory);
    records(name) -> load_jsonl(path(name), opts.schema).

Failure, fail(msg), check(cond, msg)
    A failed expectation: raised, caught by main().
load_jsonl(path, schema=None) -> list of records
    One JSON object per non-empty line, each valid against the schema file (if given; needs
    python3-jsonschema) and the rules of schema_rules.py (one run id, the schema version and
    the header's suite on every record; the schema's field-name rule), a "header" record first
    and a "summary" record last.
file_spec(spec), create_files(cwd, specs), listing(cwd)
    A NAME=CONTENT spec as (NAME, CONTENT); create such specs in cwd; the set of every path below cwd (relative).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_rules  # noqa: E402  (beside this file)

__all__ = ["Failure", "fail", "check", "parser", "main", "Run", "load_jsonl", "file_spec",
           "create_files", "listing"]



# MPICH (UCX): when mpibench ends a job with MPI_Abort while another rank is inside a
# single-copy transfer from the aborting rank's memory, that rank's UCX stops it with SIGABRT
# ("process_vm_readv(pid=...) returned -1: No such process"), and hydra may report its status
# 6 instead of the abort's 1 (seen once in CI, imb.watchdog.np2). The job still ended at once
# with mpibench's message; only that signature is accepted in place of status 1.
UCX_PEER_GONE = re.compile(r"process_vm_readv\(pid=\d+ .*\) returned -1: No such process")


# MPICH's hydra: when the watchdog's rank 0 ends with status 1 ("EXIT CODE: 1" in hydra's
# report) and hydra kills the other ranks with SIGKILL, it has returned 9 for the whole job
# (seen once in CI, beffio.watchdog.np2): the job still ended at once with mpibench's message.
HYDRA_KILLED_PEER = re.compile(r"EXIT CODE: 1\b[\s\S]*Killed \(signal 9\)")


# Open MPI 4.1's mpiexec: after a rank's MPI_Abort the launcher itself may die of SIGSEGV in
# its PMIx server's finalize (seen once in a .ci/run, faults.stdout-full.imb_help: mpibench's
# message, Open MPI's "MPI_ABORT was invoked on rank 0 ... with errorcode 1", then mpiexec's
# backtrace through PMIx_server_finalize and orte_finalize; status -11). The abort's code is in
# Open MPI's report; the launcher's own crash is not the program's.
ORTE_ABORT = re.compile(r"MPI_ABORT was invoked on rank \d+ in communicator \S+\s+"
                        r"with errorcode (\d+)")
ORTE_FINALIZE_CRASH = re.compile(r"Segmentation fault[\s\S]*(PMIx_server_finalize|"
                                 r"pmix_server_finalize)[\s\S]*orte_finalize")


def launcher_crashed_after_abort(expected, returncode, stderr):
    """Whether mpiexec died of a signal in its own finalize after the job's MPI_Abort with
    the expected error code."""
    m = ORTE_ABORT.search(stderr)
    return (returncode < 0 and m is not None and int(m.group(1)) == expected
            and ORTE_FINALIZE_CRASH.search(stderr, m.end()) is not None)


def status_lost_by_launcher(expected, run):
    """Whether the job's status is the launcher's, not the program's: one of the signatures
    above, each with mpibench's abort behind it."""
    if launcher_crashed_after_abort(expected, run.returncode, run.stderr):
        return True
    if expected != 1 or "aborting the job" not in run.stderr:
        return False
    both = run.stdout + run.stderr
    return ((run.returncode == 6 and UCX_PEER_GONE.search(run.stderr) is not None)
            or (run.returncode == 9 and HYDRA_KILLED_PEER.search(both) is not None))

class Failure(Exception):
    """An expectation the run did not meet; main() reports it as FAILED."""


def fail(msg):
    raise Failure(msg)


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# ---- files -----------------------------------------------------------------------------

def file_spec(spec):
    """(NAME, CONTENT) of a NAME=CONTENT spec, "\\n" in CONTENT turned into newlines."""
    name, _, content = spec.partition("=")
    return name, content.replace("\\n", "\n")


def create_files(cwd, specs):
    """Create each NAME=CONTENT spec in cwd ("\\n" in CONTENT = newline; NAME/ = a directory,
    NAME| = a FIFO, NAME@=TARGET = a symbolic link to TARGET)."""
    for spec in specs:
        name, content = file_spec(spec)
        path = os.path.join(cwd, name)
        if name.endswith("/"):
            os.makedirs(path)
        elif name.endswith("|"):
            os.mkfifo(path[:-1])
        elif name.endswith("@"):
            os.symlink(content, path[:-1])
        else:
            with open(path, "w") as f:
                f.write(content)


def listing(cwd):
    """Every file and directory below cwd, as paths relative to cwd."""
    out = set()
    for root, dirs, files in os.walk(cwd):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(root, n), cwd))
    return out


def _top(path):
    return os.path.normpath(path).split(os.sep)[0]


# ---- JSON Lines ------------------------------------------------------------------------

def load_jsonl(path, schema=None):
    """The records of a JSON Lines file, validated against the schema file if one is given."""
    check(os.path.isfile(path), f"{os.path.basename(path)} was not written")
    records = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except ValueError as e:
                    fail(f"{os.path.basename(path)}:{n}: not JSON: {e}")
    if schema:
        try:
            import jsonschema
        except ImportError:
            fail("python3-jsonschema is needed to validate the JSON output (apt-get install "
                 "python3-jsonschema)")
        with open(schema) as f:
            schema_doc = json.load(f)
        validator = jsonschema.validators.validator_for(schema_doc)(schema_doc)
        for rec in records:
            err = jsonschema.exceptions.best_match(validator.iter_errors(rec))
            if err is not None:
                fail(f"JSON record does not match the schema: {err.message}\n{rec}")
        # What JSON Schema cannot say (tests/mpi/schema_rules.py): the schema's field-name
        # rule, and every record self-contained - one run id, the schema version, the suite
        # of the header it follows.
        problems = schema_rules.rule_problems(schema_doc) + \
            schema_rules.record_problems(records, schema_doc)
        check(not problems, f"{os.path.basename(path)}: " + "; ".join(problems[:5]))
    check(records and records[0].get("type") == "header" and records[-1].get("type") == "summary",
          "JSON must start with a header and end with a summary record")
    return records


def jsonl_cut_problems(path):
    """What is wrong with the JSON Lines file of a run that was cut short (killed, stopped,
    a full disk): it must hold the header and then only whole, valid records - every line
    complete and JSON (records are written at once, and cut back to the last whole one when
    a write fails). Returns (problems, number of records)."""
    name = os.path.basename(path)
    if not os.path.isfile(path):
        return [f"{name} is missing"], 0
    with open(path, "rb") as f:
        data = f.read()
    problems = []
    if data and not data.endswith(b"\n"):
        problems.append(f"{name} ends inside a record")
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        return [f"{name} is not UTF-8: {e}"], 0
    for n, line in enumerate(lines, 1):
        try:
            json.loads(line)
        except ValueError as e:
            problems.append(f"{name}:{n}: not JSON: {e}")
    if not lines or '"type":"header"' not in lines[0]:
        problems.append(f"{name} lacks its header record")
    return problems, len(lines)


# ---- the options -----------------------------------------------------------------------

def parser(doc, *, fragments=False, files=True):
    """The common options (see the module's docstring); doc's first line describes the checker."""
    ap = argparse.ArgumentParser(description=doc.strip().split("\n")[0])
    ap.set_defaults(mb_fragments=fragments)
    kind = "string" if fragments else "regular expression"
    ap.add_argument("--mpiexec", required=True, help="launcher and its flags, one string")
    ap.add_argument("--np", type=int, required=True, help="processes (mpiexec -np)")
    ap.add_argument("--bin", required=True, help="the program to run")
    ap.add_argument("--schema", help="validate the JSON Lines output against this schema")
    ap.add_argument("--timeout", type=float, default=600, help="seconds the run may take")
    ap.add_argument("--status", type=int, default=0, help="expected exit status")
    ap.add_argument("--stderr", help=f"{kind} stderr must contain")
    ap.add_argument("--stdout", action="append", default=[],
                    help=f"{kind} stdout must contain (repeatable)")
    if files:
        ap.add_argument("--prefix-args", default="", help="arguments before the program's "
                        "own (e.g. 'imb-mpi1' for mpibench)")
        ap.add_argument("--file", action="append", default=[],
                        help="NAME=CONTENT: create this file in the working directory first "
                             "(\\n for newlines; NAME/ for a directory)")
        ap.add_argument("--creates", action="append", default=[],
                        help="a file the run must create (relative to its directory; repeatable)")
        ap.add_argument("--text-copy", help="a created file that must equal stdout")
        ap.add_argument("--size", action="append", default=[],
                        help="PATH=BYTES: a created file's exact size (repeatable)")
        ap.add_argument("--data-at", action="append", default=[],
                        help="PATH=OFFSET: data (not 8 zero bytes) at OFFSET of a created file")
    ap.add_argument("--save-run", metavar="DIR",
                    help="keep the run in DIR for a test that checks the same run (--from-run)")
    ap.add_argument("--from-run", metavar="DIR",
                    help="check the run kept in DIR (--save-run, same command) instead of "
                         "starting one")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- the program's arguments")
    return ap


# ---- the run ---------------------------------------------------------------------------

def _text(data):
    if data is None:
        return ""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


class Run:
    """One run of the program under test in its temporary directory (see the module doc)."""

    def __init__(self, opts, cwd, append_args=()):
        self.opts = opts
        self.args = opts.args[1:] if opts.args[:1] == ["--"] else list(opts.args)
        self.cwd = cwd
        self.cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), os.path.abspath(opts.bin)] +
                    shlex.split(getattr(opts, "prefix_args", "") or "") + self.args +
                    list(append_args))
        self.returncode, self.stdout, self.stderr, self.elapsed = None, "", "", 0.0
        self._allowed = set()
        self._before = set()

    def path(self, name):
        return os.path.join(self.cwd, name)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def records(self, name):
        return load_jsonl(self.path(name), self.opts.schema)

    def new_files(self):
        new = listing(self.cwd) - self._before
        return sorted(p for p in new if os.path.dirname(p) not in new)

    def allow(self, path):
        self._allowed.add(_top(os.path.relpath(self.path(path), self.cwd)))

    # -- the frame, called by main() --

    def execute(self):
        create_files(self.cwd, getattr(self.opts, "file", []))
        self._before = listing(self.cwd)
        start = time.monotonic()
        try:
            proc = subprocess.run(self.cmd, cwd=self.cwd, capture_output=True, text=True,
                                  timeout=self.opts.timeout)
        except subprocess.TimeoutExpired as e:
            self.stdout, self.stderr = _text(e.stdout), _text(e.stderr)
            self.elapsed = time.monotonic() - start
            fail(f"no exit within --timeout {self.opts.timeout:g} s (killed)")
        except OSError as e:
            fail(f"cannot start the command: {e}")
        self.elapsed = time.monotonic() - start
        self.returncode, self.stdout, self.stderr = proc.returncode, proc.stdout, proc.stderr

    def save(self, keep):
        """Keep the run in keep/ (run.json and the new files under files/) for --from-run."""
        files = os.path.join(keep, "files")
        os.makedirs(files)
        for p in self.new_files():
            src, dst = self.path(p), os.path.join(files, p)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst, follow_symlinks=False)
        saved = {"cmd": self.cmd, "returncode": self.returncode, "stdout": self.stdout,
                 "stderr": self.stderr, "elapsed": self.elapsed}
        # Written last: a kept directory without run.json is a run that did not finish.
        with open(os.path.join(keep, "run.json"), "w") as f:
            json.dump(saved, f)

    def load(self, keep):
        """The run another test kept in keep/ (--save-run) in place of execute()."""
        create_files(self.cwd, getattr(self.opts, "file", []))
        self._before = listing(self.cwd)
        try:
            with open(os.path.join(keep, "run.json")) as f:
                saved = json.load(f)
        except OSError as e:
            fail(f"no run kept in {keep} ({e.strerror}): the test that keeps it did not finish it")
        if saved["cmd"] != self.cmd:
            fail(f"the kept run's command {shlex.join(saved['cmd'])} is not this test's")
        shutil.copytree(os.path.join(keep, "files"), self.cwd, symlinks=True, dirs_exist_ok=True)
        self.returncode, self.stdout = saved["returncode"], saved["stdout"]
        self.stderr, self.elapsed = saved["stderr"], saved["elapsed"]

    def check_streams(self):
        opts = self.opts
        if self.returncode != opts.status and not status_lost_by_launcher(opts.status, self):
            fail(f"exit status {self.returncode}, expected {opts.status}")
        for stream, text, patterns in (("stderr", self.stderr, [opts.stderr] if opts.stderr else []),
                                       ("stdout", self.stdout, opts.stdout)):
            for p in patterns:
                if opts.mb_fragments:
                    check(p in text, f"{stream} lacks {p!r}")
                else:
                    check(re.search(p, text, re.M), f"{stream} does not match {p!r}")

    def check_outputs(self):
        opts = self.opts
        for path in opts.creates:
            check(os.path.isfile(self.path(path)), f"{path} was not created")
        for spec in opts.size:
            path, _, want = spec.rpartition("=")
            got = os.path.getsize(self.path(path)) if os.path.isfile(self.path(path)) else None
            check(got == int(want), f"{path} has {got} bytes, expected {want}")
        for spec in opts.data_at:
            path, _, offset = spec.rpartition("=")
            with open(self.path(path), "rb") as f:
                f.seek(int(offset))
                data = f.read(8)
            check(len(data) == 8 and any(data),
                  f"{path} holds {data.hex() or 'nothing'} at {offset}, expected written data")
        if opts.text_copy:
            check(os.path.isfile(self.path(opts.text_copy)), f"{opts.text_copy} was not created")
            check(self.read(opts.text_copy) == self.stdout, f"{opts.text_copy} differs from stdout")
        allowed = self._allowed | {_top(p) for p in opts.creates}
        left = [p for p in self.new_files() if _top(p) not in allowed]
        check(not left, f"files left behind: {left}")


def main(check_fn, ap, *, append_args=(), tmp_prefix="mb-check-"):
    """Run the command the options describe and check it; the exit status for sys.exit."""
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix=tmp_prefix) as cwd:
        run = Run(opts, cwd, append_args)
        try:
            if opts.from_run:
                run.load(opts.from_run)
            else:
                if opts.save_run:
                    shutil.rmtree(opts.save_run, ignore_errors=True)
                run.execute()
                if opts.save_run:
                    run.save(opts.save_run)
            run.check_streams()
            detail = check_fn(run)
            if hasattr(opts, "creates"):
                run.check_outputs()
        except Failure as e:
            sys.stdout.write(run.stdout[-20000:])
            sys.stdout.flush()
            sys.stderr.write(run.stderr[-5000:])
            print(f"FAILED: {e}\ncommand: {shlex.join(run.cmd)}", file=sys.stderr)
            return 1
    print(f"ok: {detail}")
    return 0
