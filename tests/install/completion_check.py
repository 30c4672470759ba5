#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The generated bash completion, sourced into a bash as bash-completion would: `mpibench
imb-mpi1 -npm<TAB>` gives -npmin, the first word completes the suites and tools, `mpibench help
imb-<TAB>` the IMB suites, an original name (IMB-EXT) its suite's options, and for every suite
`-<TAB>` offers exactly the option spellings of `mpibench help SUITE` (docs/adr/install-layout.md)."""
import argparse
import re
import subprocess
import sys


def complete(script, words, cword):
    arr = " ".join("'" + w + "'" for w in words)
    prog = (f"source '{script}' && COMP_WORDS=({arr}) && COMP_CWORD={cword} && _mpibench && "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog], capture_output=True,
                         text=True, timeout=30)
    if out.returncode != 0:
        raise SystemExit(f"bash failed ({out.returncode}): {out.stderr}")
    return sorted(w for w in out.stdout.split("\n") if w)


def spellings(help_text):
    words, on = set(), False
    for line in help_text.splitlines():
        if line.startswith("Options:"):
            on = True
        elif on and re.match(r"^  +-", line):
            for sp in line.strip().split("   ")[0].split(", "):
                words.add(re.split(r"[ =]", sp)[0])
    return sorted(words)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--completion", required=True)
    args = ap.parse_args()
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got}, want {want}")

    expect("mpibench imb-mpi1 -npm", complete(args.completion, ["mpibench", "imb-mpi1", "-npm"], 2),
           ["-npmin"])
    expect("mpibench help imb-", complete(args.completion, ["mpibench", "help", "imb-"], 2),
           ["imb-ext", "imb-io", "imb-mpi1", "imb-mpi4", "imb-nbc", "imb-p2p"])
    expect("IMB-EXT -win_", complete(args.completion, ["IMB-EXT", "-win_"], 1),
           ["-win_disp", "-win_scope"])
    listing = subprocess.run([args.bin, "help"], capture_output=True, text=True, check=True).stdout
    suites = re.findall(r"^  (\S+)", listing.split("Suites:")[1].split("Without mpirun:")[0], re.M)
    tools = re.findall(r"^  (\S+)", listing.split("Without mpirun:")[1], re.M)
    expect("mpibench <TAB>", complete(args.completion, ["mpibench", ""], 1),
           sorted(suites + tools + ["--help", "--version"]))
    for s in suites:
        text = subprocess.run([args.bin, "help", s], capture_output=True, text=True,
                              check=True).stdout
        expect(f"mpibench {s} -", complete(args.completion, ["mpibench", s, "-"], 2),
               spellings(text))
    for f in failures:
        print("FAIL:", f)
    print(f"{len(suites)} suites' options and the subcommands checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
