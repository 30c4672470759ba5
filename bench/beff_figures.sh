#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# b_eff figures for the notes and docs/figures.md: run time and b_eff of full default
# runs (paper rules, 30 random rings, 3 repetitions, memory detected) for several process
# counts, and the spread of b_eff over consecutive runs with the same count.
# Usage: bench/beff_figures.sh [BUILD_DIR] [RUNS_AT_4]   (Open MPI's mpiexec, oversubscribed)
set -eu
bin=$(cd "${1:-build}" && pwd)/b_eff
runs=${2:-3}
launcher="mpiexec.openmpi --oversubscribe"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

one() { # np -> prints "np seconds b_eff"
    start=$(date +%s.%N)
    (cd "$work" && $launcher -np "$1" "$bin" --quiet --json r.jsonl >/dev/null)
    end=$(date +%s.%N)
    beff=$(sed -n 's/.*"b_eff_mb_per_sec":\([0-9.e+-]*\).*/\1/p' "$work/r.jsonl")
    awk -v np="$1" -v a="$start" -v b="$end" -v x="$beff" 'BEGIN { printf "%d %.1f %.1f\n", np, b - a, x }'
}

echo "# np  seconds  b_eff[MB/s]"
for np in 2 8; do one $np; done
i=0
while [ $i -lt "$runs" ]; do one 4; i=$((i + 1)); done | tee "$work/four"
# The spread of the runs with 4 processes: (max - min) / mean.
awk '{ v[NR] = $3; s += $3 } END { lo = hi = v[1]; for (i in v) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
       printf "# 4 processes, %d runs: mean %.1f MB/s, spread (max-min)/mean %.1f %%\n", NR, s / NR, 100 * (hi - lo) / (s / NR) }' "$work/four"
