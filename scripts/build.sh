#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds mpibench against one MPI library.
#   MB_MPI=openmpi|mpich    which MPI (default openmpi; Debian installs both side by side)
#   MB_BUILD_DIR=DIR        build directory (default build-$MB_MPI)
#   MB_WERROR=ON            warnings are errors (CI)
#   MB_SANITIZE=ON          AddressSanitizer + UndefinedBehaviorSanitizer
set -eu
cd "$(dirname "$0")/.."

MB_MPI=${MB_MPI:-openmpi}
BUILD=${MB_BUILD_DIR:-build-$MB_MPI}

# Debian names each library's wrappers with a suffix; elsewhere use what is on PATH.
cc=$(command -v "mpicc.$MB_MPI" || command -v mpicc || true)
run=$(command -v "mpiexec.$MB_MPI" || command -v mpiexec || true)
if [ -z "$cc" ] || [ -z "$run" ]; then
    echo "no MPI compiler wrapper or launcher found for MB_MPI=$MB_MPI (run scripts/deps.sh)" >&2
    exit 1
fi

cmake -S . -B "$BUILD" -DMPI_C_COMPILER="$cc" -DMPIEXEC_EXECUTABLE="$run" \
      -DMB_WERROR="${MB_WERROR:-OFF}" -DMB_SANITIZE="${MB_SANITIZE:-OFF}" >/dev/null
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)"
echo "built $BUILD/mpibench with $cc"
