#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every option row that `mpibench SUITE --help` prints under mpiexec (and each tool's --help)
must stand in that suite's generated man page, the option words followed by the whole
description, and every original name's ".so" page must lead to an existing page
(docs/adr/install-layout.md). The man source is read with its roff escapes and font changes
removed and white space joined, so that help2man's layout does not matter, only the words."""
import argparse
import os
import re
import shlex
import subprocess
import sys


def normalise(text):
    return " ".join(text.split())


def man_text(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(".") and not line.startswith(".."):
                # A request line: keep the words of .SS/.SH/.B/.I headings, drop the rest.
                m = re.match(r"\.(?:SS|SH|B|I|BR|IR)\s+(.*)", line)
                line = m.group(1) if m else ""
            lines.append(line)
    text = "".join(lines)
    text = re.sub(r"\\f[BIRP]|\\f\(..|\\[,/&]", "", text)
    text = text.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
    text = text.replace("\\e", "\\").replace('"', "")
    return normalise(text)


def option_rows(help_text, tool):
    """The option rows of a --help text: (words, description), continuation lines joined."""
    rows, on = [], tool
    for line in help_text.splitlines():
        if line.startswith("Options:"):
            on = True
            continue
        if not on:
            continue
        if re.match(r"^  +-", line):
            body = line.strip()
            words, _, desc = body.partition("   ")
            rows.append([words.strip(), desc.strip()])
        elif rows and re.match(r"^ {6,}\S", line):
            rows[-1][1] = (rows[-1][1] + " " + line.strip()).strip()
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--mandir", required=True)
    args = ap.parse_args()
    listing = subprocess.run([args.bin, "help"], capture_output=True, text=True, check=True).stdout
    suites = re.findall(r"^  (\S+)", listing.split("Suites:")[1].split("Without mpirun:")[0], re.M)
    tools = [t for t in re.findall(r"^  (\S+)", listing.split("Without mpirun:")[1], re.M)
             if t != "help"]
    failures, checked = [], 0
    for name in suites + tools:
        if name in tools:
            cmd = [args.bin, name, "--help"]
        else:
            cmd = shlex.split(args.mpiexec) + ["-np", "1", args.bin, name, "--help"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            failures.append(f"{' '.join(cmd)}: status {out.returncode}: {out.stderr}")
            continue
        page = os.path.join(args.mandir, "man1", f"mpibench-{name}.1")
        if not os.path.exists(page):
            failures.append(f"no man page {page}")
            continue
        text = man_text(page)
        rows = option_rows(out.stdout, name in tools)
        if not rows:
            failures.append(f"{name}: no option rows in --help")
        for words, desc in rows:
            checked += 1
            want = normalise(f"{words} {desc}")
            if want not in text:
                failures.append(f"{page}: missing the row '{want}'")
    for alias in sorted(os.listdir(os.path.join(args.mandir, "classic", "man1"))):
        with open(os.path.join(args.mandir, "classic", "man1", alias), encoding="utf-8") as f:
            m = re.fullmatch(r"\.so (man1/mpibench-[a-z0-9-]+\.1)\n", f.read())
        if not m or not os.path.exists(os.path.join(args.mandir, m.group(1))):
            failures.append(f"classic page {alias} does not lead to a generated page")
    for f in failures:
        print("FAIL:", f)
    print(f"{checked} option rows of {len(suites) + len(tools)} pages checked, "
          f"{len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
