#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes the man pages at build time (docs/adr/install-layout.md): mpibench.1 from
# `mpibench help`, mpibench-SUITE.1 from `mpibench help SUITE` for every suite, and
# mpibench-plot.1 and mpibench-compare.1, all through help2man, so that a page holds exactly the
# option rows --help prints. Each original name (IMB-MPI1, com, ...) gets a one-line ".so" page
# in OUTDIR/classic/man1, installed only where the original names are (MB_INSTALL_CLASSIC_NAMES_IN_BIN).
#   gen_manpages.sh MPIBENCH HELP2MAN OUTDIR
set -eu
bin=$1 help2man=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out/man1" "$out/classic"
mkdir -p "$out/man1" "$out/classic/man1"
list=$("$here/help_pages.sh" "$bin")
tab=$(printf '\t')

see_also=""
while IFS="$tab" read -r name orig title; do
    [ "$name" = help ] && continue
    see_also="$see_also, mpibench-$name(1)"
done <<EOT
$list
EOT
include="$out/see-also.h2m"
printf '[SEE ALSO]\nmpibench(1)%s.\n.PP\nThe results schema and the design records are installed in the documentation directory\n(share/doc/mpibench).\n' \
    "$see_also" >"$include"

page() { # page NAME WHAT TITLE
    MB_BINARY=$bin MB_WHAT=$2 MB_PAGE=$1 "$help2man" --no-info --section=1 --name="$3" \
        --include="$include" --output="$out/man1/$1.1" "$here/help2man_wrapper.sh"
}
page mpibench "" "MPI benchmarks: IMB 3.1, b_eff, b_eff_io and Presta 1.2 in one program"
while IFS="$tab" read -r name orig title; do
    [ "$name" = help ] && continue
    page "mpibench-$name" "$name" "$title"
    if [ "$orig" != - ]; then
        printf '.so man1/mpibench-%s.1\n' "$name" >"$out/classic/man1/$orig.1"
    fi
done <<EOT
$list
EOT
