#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Lists what `mpibench help` shows, for the build-time generators of the man pages and the
# bash completion (docs/adr/install-layout.md): one line per suite, "NAME<TAB>ORIGINAL<TAB>TITLE"
# (ORIGINAL "-" for the main job), then one line per tool, "NAME<TAB>-<TAB>TITLE" (a tab is
# white space to read: an empty field would vanish). Everything
# comes from the binary's own text, so the pages and the completion cannot disagree with --help.
#   help_pages.sh MPIBENCH
set -eu
"$1" help | awk '
    /^Suites:/ { part = "suite"; next }
    /^Without mpirun:/ { part = "tool"; next }
    /^$/ { if (part != "") seen[part] = 1; part = ""; next }
    part == "suite" {
        name = substr($0, 3, 16); orig = substr($0, 20, 10); title = substr($0, 31)
        gsub(/ /, "", name); gsub(/ /, "", orig)
        if (orig == "") orig = "-"
        printf "%s\t%s\t%s\n", name, orig, title
    }
    part == "tool" {
        name = $1; title = substr($0, 31)
        printf "%s\t-\t%s\n", name, title
    }'
