/* SPDX-License-Identifier: BSD-3-Clause */
/* The circle method of round-robin tournaments: host m - 1 (m = h rounded up to even) stays,
 * the others turn by one place per round, so every pair meets once in m - 1 rounds and each
 * host is in one pair per round - no host's link is measured while it serves another pair,
 * which is mpiGraph's rule too (LLNL mpiGraph, mpiGraph.c). With h odd, host m - 1 is a
 * bye: its partner waits that round. */
#include "map/map.h"

int mb_map_rounds(int h)
{
    return h < 2 ? 0 : h % 2 ? h : h - 1;
}

void mb_map_pair(int h, int r, int i, int *a, int *b)
{
    const int m = h + h % 2, n = m - 1;
    int x, y;

    if (i == 0) {
        x = n;
        y = r % n;
    } else {
        x = (r + i) % n;
        y = (r - i + n) % n;
    }
    if (x >= h || y >= h) {
        *a = *b = -1;
        return;
    }
    *a = x < y ? x : y;
    *b = x < y ? y : x;
}
