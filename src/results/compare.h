/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench compare BASE NEW: the same measurements of two runs side by side, as ratios,
 * worst first; a change beyond the threshold and beyond the runs' own spread is a
 * regression (exit status 1) - the check a centre runs after a system update. */
#ifndef MB_COMPARE_H
#define MB_COMPARE_H

#include "results/records.h"

#include <stdio.h>

/* Returns 0 (nothing regressed), 1 (something did), or 2 with msg (nothing to compare). */
int mb_compare(const struct mb_records *base, const struct mb_records *cur, double threshold_pct,
               FILE *out, char *msg, size_t len);

#endif
