#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run IMB-EXT under mpiexec and check its text and JSON output.

IMB-EXT's rules, re-derived from the IMB 3.1 guide independently of the C code, on top of
imb_check.py's IMB machinery (process counts, Multi groups, -map, table layout, JSON = text):
the six benchmarks in sample 6.4's order (Window, Unidir_Get, Unidir_Put, Bidir_Get,
Bidir_Put, Accumulate; 4.2.3), single transfers on exactly 2 processes with throughput
X/1.048576/t (Tables 3-6), Accumulate on floats without throughput (Table 7), Window with the
non-aggregate repetition count (sample 6.4: 100 ... 10), and every transfer benchmark as two
blocks per process count, "MODE: AGGREGATE" with MSGSPERSAMPLE and "MODE: NON-AGGREGATE"
with MSGS_NONAGGR repetitions (4.2.2.2, 5.2.8.2). With --info it checks that the effective
settings show the entries.

Where a sample's transfers go (-win_disp, docs/adr/program-ext-displacement.md): by default at
displacement 0 as IMB 3.1's program puts them, so a block holds one X-byte buffer per side
(2X, as IMB 3.1 allocates); with -win_disp sections one X-byte section per repetition
(Table 20's 2 max(X, OVERALL_VOL)). The effective settings name the placement, and the JSON
records' buffer_bytes must be that memory. Lengths are in floats for every IMB-EXT benchmark
(0, 4, 8, ...; -msglen entries rounded up to 4), as IMB 3.1 runs them.

Which window the one-sided rows use (-win_scope, docs/adr/program-ext-window-per-length.md): by
default each length has its own window over the bytes its placement uses (X, or its sections;
IMB 3.1 creates one per length), with -win_scope block one window over the block's largest
buffers serves every length. The effective settings name it, and every one-sided JSON row's
window_bytes (the size the MPI library reports) must be that window's; Window rows have none.

Usage: ext_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-EXT arguments
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imb_check  # noqa: E402  (the IMB rules and text/JSON checks, parameterised by family)
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402

# name: (class, element size, single transfer, throughput factor); dict order = sample 6.4.
EXT = imb_check.Family(
    "IMB-EXT",
    {
        "Window": ("other", 1, False, 0),
        "Unidir_Get": ("single", 1, True, 1),
        "Unidir_Put": ("single", 1, True, 1),
        "Bidir_Get": ("single", 1, True, 1),
        "Bidir_Put": ("single", 1, True, 1),
        "Accumulate": ("collective", 4, False, 0),
    },
    "MPI-2 part",
    aggregate=("Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"),
    nonaggr_only=("Window",), len_unit=4)

WARM_X, N_WARMUP = 4, 2  # guide 5.2.6: two samples of sizeof(float) bytes


def flag_value(args, flag, default=None):
    """The last value given to flag on the command line, or default."""
    v = default
    for i, a in enumerate(args[:-1]):
        if a == flag:
            v = args[i + 1]
    return v


def expected_buffer_bytes(inv, name, disp):
    """Message-buffer bytes per process of one block without -off_cache and -mem: both sides
    hold the largest length (zero, and Window always) or the largest length x repetitions
    (sections: one section per repetition of the larger of the two counts, guide 4.2.2.2),
    and at least the warm-up's two samples of 4 bytes."""
    lens = imb_check.lengths_for(EXT, name, inv.lengths, inv.msglog, inv.zero)
    if disp == "zero" or name == "Window":
        return 2 * max(lens + [WARM_X])

    def sections(x):
        return max(imb_check.reps_rule(x, inv.msgs, inv.vol),
                   imb_check.reps_rule(x, inv.nonaggr, inv.vol))
    warm = WARM_X * min(N_WARMUP, sections(WARM_X))
    return 2 * max([sections_bytes(inv, x) for x in lens] + [warm])


def sections_bytes(inv, x):
    """Bytes of one side at length x with -win_disp sections: one X-byte section per repetition
    of the larger of the two modes' counts."""
    return x * max(imb_check.reps_rule(x, inv.msgs, inv.vol),
                   imb_check.reps_rule(x, inv.nonaggr, inv.vol))


def check_windows(run, inv, records):
    scope = flag_value(run.args, "-win_scope", "length")
    disp = flag_value(run.args, "-win_disp", "zero")
    off_cache = flag_value(run.args, "-off_cache") is not None
    want = {"length": "length (a window over each length's buffers, created and freed for "
                      "every length)",
            "block": "block (one window over the block's largest buffers for every length)"}[scope]
    line = f"#   {'-win_scope':<18}: {want}"
    if line not in run.stdout.splitlines():
        fail(f"effective settings lack {line!r}")
    if records is None:
        return
    header = next(r for r in records if r["type"] == "header")
    if header["settings"].get("-win_scope") != want:
        fail(f"JSON header -win_scope {header['settings'].get('-win_scope')!r}, expected {want!r}")
    for r in records:
        if r["type"] != "result" or r["status"] != "ok":
            continue
        got = r.get("window_bytes")
        where = f"{r['benchmark']} ({r.get('mode')}, {r['bytes']} bytes)"
        if r["benchmark"] == "Window":
            if got is not None:
                fail(f"{where}: window_bytes {got}, but Window has no row window")
            continue
        if got is None:
            fail(f"{where}: no window_bytes")
        # Both sides of a one-sided block hold the same bytes (one buffer per side).
        side = r["buffer_bytes"] // 2
        if scope == "block":
            if got != side:
                fail(f"{where}: window_bytes {got}, expected the block's {side} with -win_scope block")
        elif off_cache:
            if not r["bytes"] <= got <= side:
                fail(f"{where}: window_bytes {got} outside [{r['bytes']}, {side}] (off-cache rotation)")
        else:
            x = r["bytes"]
            expect = x if disp == "zero" else sections_bytes(inv, x)
            if got != expect:
                fail(f"{where}: window_bytes {got}, expected the length's {expect} "
                     f"(-win_disp {disp}, -win_scope length)")


def check_placement(run, inv):
    disp = flag_value(run.args, "-win_disp", "zero")
    off_cache = flag_value(run.args, "-off_cache") is not None
    want = {"zero": "zero (displacement 0 for every repetition)",
            "sections": "sections (transfer i of a sample at section i: disjoint transfers)"}[disp]
    if disp == "zero" and off_cache:
        want = "zero (transfers rotate through the off-cache buffers)"
    line = f"#   {'-win_disp':<18}: {want}"
    if line not in run.stdout.splitlines():
        fail(f"effective settings lack {line!r}")
    records = mbcheck.load_jsonl(inv.json, run.opts.schema) if inv.json else None
    check_windows(run, inv, records)
    if records is None:
        return
    header = next(r for r in records if r["type"] == "header")
    if header["settings"].get("-win_disp") != want:
        fail(f"JSON header -win_disp {header['settings'].get('-win_disp')!r}, expected {want!r}")
    if off_cache or inv.mem is not None:
        return
    for r in records:
        if r["type"] != "result":
            continue
        b = expected_buffer_bytes(inv, r["benchmark"], disp)
        if r["buffer_bytes"] != b:
            fail(f"{r['benchmark']} ({r.get('mode')}, {r['bytes']} bytes): buffer_bytes "
                 f"{r['buffer_bytes']}, expected {b} with -win_disp {disp}")


def check_run(run):
    verdict = imb_check.check_run(run, EXT)
    args = run.args
    infos = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--info"]
    shown = [line for line in run.stdout.splitlines() if line.startswith("#   --info ")]
    if imb_check.finished(run.stdout) and run.opts.stopped is None:
        want = " ".join(infos) if infos else "MPI_INFO_NULL"
        if shown != [f"#   {'--info':<18}: {want}"]:
            fail(f"effective --info line {shown}, expected the value {want!r}")
        inv = imb_check.Invocation(args, run.opts.np, run.cwd, run.opts.prefix_args.strip(), EXT)
        check_placement(run, inv)
    return verdict


def main():
    ap = imb_check.add_options(mbcheck.parser(__doc__))
    return mbcheck.main(check_run, ap, tmp_prefix="mb-ext-")


if __name__ == "__main__":
    sys.exit(main())
