#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The test command: installs what is missing (as root), builds, and runs every test with ctest.
# Same variables as scripts/build.sh (MB_MPI, MB_BUILD_DIR, MB_WERROR, MB_SANITIZE).
set -eu
cd "$(dirname "$0")/.."

scripts/deps.sh --tests
scripts/build.sh
cd "${MB_BUILD_DIR:-build-${MB_MPI:-openmpi}}"
# Four at a time: most tests wait on mpiexec; tests with many ranks run alone (RUN_SERIAL).
ctest --output-on-failure -j 4
