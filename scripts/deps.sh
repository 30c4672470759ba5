#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs what building and testing mpibench needs on a Debian-like system when run as root
# (apt-get), or prints exactly what to install otherwise. Both MPI libraries are installed:
# the tests run against each (MB_MPI=openmpi|mpich picks one).
set -eu

PACKAGES="cmake make gcc libc6-dev pkg-config openmpi-bin libopenmpi-dev mpich libmpich-dev python3 python3-jsonschema gnuplot-nox libjansson-dev libhwloc-dev help2man"
# With --tests (scripts/test.sh): what the tests use besides - an HTML validator, a
# headless browser that loads the main job's index.html, iproute2 (`ip`) for the
# multi-host tier's network namespaces (tests/multihost), pandas for the recipe in
# docs/output.md (doc.pandas_recipe), and Debian's Slurm and munge for the Slurm tier
# (tests/slurm), which starts daemons of its own: their packaged services are not started at
# installation (see below).
if [ "${1:-}" = "--tests" ]; then
    PACKAGES="$PACKAGES tidy chromium iproute2 python3-pandas slurmd slurmctld slurm-client munge"
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    for tool in cmake mpicc mpiexec python3; do
        command -v "$tool" >/dev/null 2>&1 || {
            echo "mpibench needs $tool: install CMake, pkg-config, jansson, hwloc, an MPI library (Open MPI or MPICH)," \
                 "Python 3 and its jsonschema module with your package manager (help2man too, for the" \
                 "man pages)." >&2
            exit 1
        }
    done
    exit 0
fi

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # No service starts at installation (munged, slurmctld, slurmd): a policy-rc.d that denies
    # every start while apt-get runs (invoke-rc.d(8)), when the machine has none of its own.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        trap 'rm -f "$policy"' EXIT
        printf '#!/bin/sh\n# scripts/deps.sh: no service starts while it installs packages\nexit 101\n' >"$policy"
        chmod 755 "$policy"
    fi
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
    [ -z "$policy" ] || rm -f "$policy"
else
    echo "mpibench needs these packages; install them first (as root):" >&2
    echo "  apt-get install$missing" >&2
    exit 1
fi
