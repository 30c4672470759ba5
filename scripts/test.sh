#!/bin/sh
# The test command: installs what is missing (as root), builds, and runs every test with ctest.
# Same variables as scripts/build.sh (MB_MPI, MB_BUILD_DIR, MB_WERROR, MB_SANITIZE).
set -eu
cd "$(dirname "$0")/.."

scripts/deps.sh --tests
scripts/build.sh
cd "${MB_BUILD_DIR:-build-${MB_MPI:-openmpi}}"
# Four at a time: most tests wait on mpiexec; tests with many ranks run alone (RUN_SERIAL).
# The multi-host tier (label multihost: network namespaces, root) runs on its own: `ctest -L
# multihost` in the build directory, or MB_MULTIHOST=1 here (after the other tests).
ctest --output-on-failure -j 4 -LE multihost
if [ "${MB_MULTIHOST:-0}" = 1 ]; then
    ctest --output-on-failure -L multihost
fi
