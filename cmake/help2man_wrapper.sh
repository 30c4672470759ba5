#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# help2man runs a program with --help and --version; this one answers both from `mpibench help`
# (no mpirun, no MPI_Init) for the page named in MB_PAGE, of the suite or tool MB_WHAT (empty:
# `mpibench --help`'s text). The version line, "PAGE (mpibench) VERSION", is the one the suites'
# --help prints after their title, so every page carries the binary's version.
set -eu
case "${1:-}" in
--help)
    if [ -n "$MB_WHAT" ]; then exec "$MB_BINARY" help "$MB_WHAT"; fi
    exec "$MB_BINARY" help ;;
--version)
    v=$("$MB_BINARY" help imb-mpi1 | sed -n '2s/.*(mpibench \([^)]*\))$/\1/p')
    echo "$MB_PAGE (mpibench) $v" ;;
*) exit 2 ;;
esac
