#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The main job: installs what is missing (as root), builds, and runs `mpibench run` on this
# machine with MB_NP processes (default 4, more than the cores if need be). Extra arguments go
# to `mpibench run` (e.g. --quick, --full, --output-dir DIR, --io-dir DIR).
set -eu
cd "$(dirname "$0")/.."

scripts/deps.sh
scripts/build.sh
MB_MPI=${MB_MPI:-openmpi}
BUILD=${MB_BUILD_DIR:-build-$MB_MPI}
run=$(command -v "mpiexec.$MB_MPI" || command -v mpiexec)
if "$run" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
    set -- --oversubscribe -np "${MB_NP:-4}" "$BUILD/mpibench" run "$@"
    if [ "$(id -u)" = 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
else
    set -- -np "${MB_NP:-4}" "$BUILD/mpibench" run "$@"
fi
echo "+ $run $*"
exec "$run" "$@"
