#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The scale tier's launcher, used like mpiexec:  smpirun.sh -np N PROGRAM [ARGS...]
# Runs PROGRAM (built with smpicc, scripts/scale.sh) on N simulated processes of the cluster
# in cluster.xml beside this script, MB_SCALE_PER_HOST (default 1) per host, with the
# simulation settings of docs/adr/smpi-build.md:
#   smpi/simulate-computation:no   simulated time is communication alone: the figures do not
#                                  depend on the host's load, and are the same every run
#   smpi/bw-factor, lat-factor 1   a message of s bytes takes latency + s / bandwidth of the
#                                  platform (no calibration factors), what the oracles expect
#   network/crosstraffic:0         no acknowledgement flows on the reverse links
#   smpi/coll-selector:mpich       collectives' algorithms chosen as MPICH chooses them (by
#                                  length and P); SMPI's own defaults are naive (Allgather on
#                                  64 processes cost 13 s of host time against 0.45 s)
#   smpi/shared-malloc-blocksize   1 GiB: a shared payload buffer folds into few mappings
#                                  (the default 1 MiB exceeds vm.max_map_count at 256 processes)
#   smpi/send-is-detached-thresh:0 no detached sends: SimGrid 3.32's cost per finished
#                                  detached send grows with the sends pending in the whole
#                                  simulation, which made 1 024 and 4 096 processes take hours
#                                  (docs/scale.md, "The main job with --sim")
# MB_SCALE_CFG='--cfg=...': more simulation settings (e.g. a collective's algorithm).
# MB_SCALE_RSS=FILE: write the simulator's peak anonymous memory in MB to FILE (sampled every
# second from /proc; the shared payload mappings are file-backed and not counted).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

[ "${1:-}" = "-np" ] && [ $# -ge 3 ] || {
    echo "usage: smpirun.sh -np N PROGRAM [ARGS...]" >&2
    exit 2
}
np=$2
shift 2
per_host=${MB_SCALE_PER_HOST:-1}

work=$(mktemp -d "${TMPDIR:-/tmp}/mb-smpi.XXXXXX")
pid=""
# Stopped (a test's timeout, scripts/scale.sh's): smpirun passes the signal on to the
# simulator it started, so nothing outlives this script.
trap 'rm -rf "$work"' EXIT
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait; rm -rf "$work"; exit 143' INT TERM
# node-0 .. node-(N/per_host): each host named per_host times in a row.
awk -v n="$np" -v k="$per_host" 'BEGIN { for (i = 0; i < n; i++) print "node-" int(i / k) }' \
    >"$work/hosts"

smpirun -np "$np" -platform "$here/cluster.xml" -hostfile "$work/hosts" \
    --cfg=smpi/tmpdir:"$work" \
    --log=root.thres:warning \
    --cfg=smpi/host-speed:1Gf \
    --cfg=smpi/simulate-computation:no \
    --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 \
    --cfg=network/crosstraffic:0 \
    --cfg=smpi/coll-selector:mpich \
    --cfg=smpi/shared-malloc-blocksize:1073741824 \
    --cfg=smpi/send-is-detached-thresh:0 \
    ${MB_SCALE_CFG:-} \
    "$@" &
pid=$!
if [ -n "${MB_SCALE_RSS:-}" ]; then
    peak=0
    while kill -0 "$pid" 2>/dev/null; do
        for child in $(pgrep -P "$pid" 2>/dev/null); do
            kb=$(awk '/^Anonymous:/ { print $2 }' "/proc/$child/smaps_rollup" 2>/dev/null || true)
            [ -n "$kb" ] && [ "$kb" -gt "$peak" ] && peak=$kb
        done
        sleep 1
    done
    echo "$peak" | awk '{ printf "%.1f\n", $1 / 1024 }' >"$MB_SCALE_RSS"
fi
rc=0
wait "$pid" || rc=$?
exit "$rc"
