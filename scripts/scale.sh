#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The scale tier: every suite on P simulated processes (default 256) under SimGrid's SMPI
# (docs/scale.md, docs/adr/smpi-build.md).
#   scripts/scale.sh [P]
#   scripts/scale.sh --ctest     build, then `ctest -L scale` in the SMPI build (CI)
# Installs SimGrid (Debian libsimgrid-dev: smpicc, smpirun) as scripts/deps.sh installs the
# other packages, builds mpibench with smpicc into its own build directory (MB_SMPI=ON; the
# normal build is untouched), and runs IMB-MPI1, IMB-EXT, b_eff, the five Presta programs and
# `mpibench run --sim` (the main job's settings for a simulation, docs/adr/job-sim-mode.md) on
# the cluster of tests/scale/cluster.xml, one process per host (MB_SCALE_PER_HOST=4: four per
# host). IMB-IO and b_eff_io are not run: SMPI's MPI-IO needs
# simulated disks (docs/scale.md). Each suite runs in DIR (its protocol files land there); its
# text and JSON go to DIR/<suite>.txt/.jsonl,
# DIR = MB_SCALE_OUT (default scale-results/P<P>x<per host>), with a line per suite: exit
# status, host seconds, peak resident memory of the simulator.
#   MB_SCALE_BUILD_DIR=DIR    the SMPI build directory (default build-smpi)
#   MB_SCALE_SUITES='...'     which suites (default: imb-mpi1 imb-ext beff com laten rma allred
#                             globalop run; also: map, every pair of the P hosts)
#   MB_SCALE_SIZES=N          IMB's largest message 2^N bytes (default 12)
#   MB_SCALE_TIMEOUT=SEC      host seconds per suite before it is stopped (default 3600)
#   MB_SCALE_RUN_ARGS='...'   more arguments for the main job (e.g. '--skip b_eff')
#   MB_SCALE_CFG='--cfg=...'  more simulation settings (tests/scale/smpirun.sh)
#   MB_WERROR=ON              warnings are errors
# Exits 0 when every suite ended with status 0, 1 otherwise, 2 on bad arguments (--ctest:
# ctest's status).
set -eu
cd "$(dirname "$0")/.."

CTEST=0
if [ "${1:-}" = "--ctest" ]; then
    CTEST=1
    shift
fi
P=${1:-256}
case "$P" in
'' | *[!0-9]*)
    echo "scale.sh: P must be a process count, not '$P'" >&2
    exit 2
    ;;
esac
PER_HOST=${MB_SCALE_PER_HOST:-1}
case "$PER_HOST" in
1 | 2 | 3 | 4) ;;
*)
    echo "scale.sh: MB_SCALE_PER_HOST must be 1 to 4 (the platform's cores per host), not '$PER_HOST'" >&2
    exit 2
    ;;
esac
HOSTS=4096
if [ "$P" -lt 2 ] || [ "$P" -gt $((HOSTS * PER_HOST)) ]; then
    echo "scale.sh: P must be 2 to $((HOSTS * PER_HOST)) with $PER_HOST per host" >&2
    exit 2
fi
BUILD=${MB_SCALE_BUILD_DIR:-build-smpi}
OUT=${MB_SCALE_OUT:-scale-results/P${P}x${PER_HOST}}
SUITES=${MB_SCALE_SUITES:-imb-mpi1 imb-ext beff com laten rma allred globalop run}
SIZES=${MB_SCALE_SIZES:-12}
LIMIT=${MB_SCALE_TIMEOUT:-3600}

# SimGrid, the way scripts/deps.sh installs packages: apt-get as root, else the exact line.
if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing: libsimgrid-dev"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends libsimgrid-dev >/dev/null
    else
        echo "the scale tier needs SimGrid; install it first (as root):" >&2
        echo "  apt-get install libsimgrid-dev" >&2
        exit 1
    fi
fi
scripts/deps.sh

# The simulated build: smpicc is the C compiler (its binary is a library smpirun loads).
# Release without debug information: smpirun copies the binary once per simulated process.
cc=$(command -v smpicc)
cmake -S . -B "$BUILD" -DCMAKE_C_COMPILER="$cc" -DMPI_C_COMPILER="$cc" -DMB_SMPI=ON \
    -DCMAKE_BUILD_TYPE=Release -DMB_WERROR="${MB_WERROR:-OFF}" >/dev/null
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "built $BUILD/mpibench with $cc"
if [ "$CTEST" = 1 ]; then
    cd "$BUILD"
    exec ctest -L scale --output-on-failure
fi

# The simulator's command line: tests/scale/smpirun.sh (shared with the ctest label).
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BIN=$(cd "$BUILD" && pwd)/mpibench
launch="$(pwd)/tests/scale/smpirun.sh"

# Each suite's arguments: the small settings of the scale tier (docs/scale.md).
suite_args() {
    case "$1" in
    imb-mpi1) echo "imb-mpi1 -npmin $P -iter 20,2 -time 0.01 -msglog 0:$SIZES" ;;
    imb-ext) echo "imb-ext -npmin $P -iter 20,2 -time 0.01 -msglog 0:$SIZES" ;;
    beff) echo "beff --memory 1 --random 2 --repetitions 1 --max-looplength 2 --seed 1" ;;
    com) echo "presta-com -o 10 -e 65536" ;;
    laten) echo "presta-laten -o 10" ;;
    rma) echo "presta-rma -o 10 -c 2 -e 65536" ;;
    allred) echo "presta-allred 10 10 5" ;;
    globalop) echo "presta-globalop" ;;
    map) echo "map --repeats 2 --lat-iters 10 --bw-window 2 --bw-bytes 1048576" ;;
    run) echo "run --sim --timeout 1000000 ${MB_SCALE_RUN_ARGS:-} --output-dir $OUT/run" ;;
    *) return 1 ;;
    esac
}

status=0
rm -rf "$OUT/run"
printf '%-10s %6s %10s %12s\n' suite status host_s peak_MB | tee "$OUT/summary.txt"
for s in $SUITES; do
    args=$(suite_args "$s") || {
        echo "scale.sh: unknown suite '$s' in MB_SCALE_SUITES" >&2
        exit 2
    }
    json=""
    [ "$s" = run ] || json="--json $OUT/$s.jsonl"
    start=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086 # one word per argument
    (cd "$OUT" && MB_SCALE_PER_HOST=$PER_HOST MB_SCALE_RSS="$OUT/$s.rss" timeout "$LIMIT" \
        "$launch" -np "$P" "$BIN" $args $json >"$OUT/$s.txt" 2>"$OUT/$s.err") || rc=$?
    secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
    rss=$(cat "$OUT/$s.rss" 2>/dev/null || echo "?")
    printf '%-10s %6s %10s %12s\n' "$s" "$rc" "$secs" "$rss" | tee -a "$OUT/summary.txt"
    [ "$rc" -eq 0 ] || status=1
done
echo "results in $OUT"
exit "$status"
