/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench compare BASE NEW: the same measurements of two runs, each decided significant or
 * not (a Mann-Whitney U test on the samples where both rows carry them, non-overlapping 95 %
 * intervals of the median where both carry those, the single-sample noise band otherwise) and
 * by how much (the ratio with its interval); a significant change worse than the threshold is
 * a regression (exit status 1) - the check a centre runs after a system update
 * (docs/adr/compare-significance.md). */
#ifndef MB_COMPARE_H
#define MB_COMPARE_H

#include "results/records.h"

#include <stdio.h>

/* The significance level of the U test (two-sided). */
#define MB_COMPARE_ALPHA 0.05
/* The defaults of --threshold, --io-threshold and --noise, in percent: the smallest that kept
 * the A/A pairs measured on the development machine at most 5 % flagged (docs/figures.md,
 * "Run-to-run noise"; docs/adr/compare-significance.md). */
#define MB_COMPARE_THRESHOLD_PCT    50.0
#define MB_COMPARE_IO_THRESHOLD_PCT 100.0
#define MB_COMPARE_NOISE_PCT        50.0

struct mb_compare_opts {
    double threshold_pct;    /* the smallest change that counts */
    double io_threshold_pct; /* the same for measurements of file I/O (IMB-IO, b_eff_io) */
    double noise_pct;        /* single-sample rows: the run-to-run noise band */
    int all;                 /* print every row, not only the changed ones */
};

struct mb_comparison;

/* Pairs the measurements of base and cur (linear in their number). NULL with msg when they
 * have nothing in common (bad input: status 2). */
struct mb_comparison *mb_compare_build(const struct mb_records *base, const struct mb_records *cur,
                                       const struct mb_compare_opts *opts, char *msg, size_t len);

/* 0 (nothing regressed) or 1 (something did). */
int mb_compare_status(const struct mb_comparison *c);

/* The table (changed rows worst first, or every row with opts->all; then the rows found in one
 * file only) and the summary line. */
void mb_compare_text(const struct mb_comparison *c, FILE *out);

/* JSON Lines (docs/compare.schema.json): one compare_row per measurement, every one of them,
 * then one compare_summary. */
void mb_compare_json(const struct mb_comparison *c, FILE *out);

/* The table as an HTML fragment for compare --html's index.html (malloc'd). */
char *mb_compare_html(const struct mb_comparison *c);

void mb_compare_free(struct mb_comparison *c);

#endif
