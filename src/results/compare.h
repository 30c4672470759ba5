/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench compare BASE... -- NEW...: the same measurements of two groups of runs. Each run
 * gives one value per measurement (its median within the run); with several runs a side the
 * runs are the samples (a Mann-Whitney U test over runs with the Hodges-Lehmann ratio for 4
 * or more a side, Welch's t test on log values for 2-3, a prediction test for one run against
 * several), with one run a side the row's own samples within each run (6 or more) or the
 * single-sample noise band. A change counts when it is significant and beyond the threshold.
 * Each family (suite, benchmark, mode, process count) is summarised by the geometric mean ratio
 * over its sizes, tested across runs the same way, and all families by one OVERALL line; the
 * exit status is 1 when a family or the overall regressed - the check a centre runs after a
 * system update, or a CI job after a change (docs/adr/compare-runs.md). */
#ifndef MB_COMPARE_H
#define MB_COMPARE_H

#include "results/records.h"

#include <stdio.h>

/* The significance level of every test (two-sided). */
#define MB_COMPARE_ALPHA 0.05
/* The defaults of --threshold and --io-threshold, in percent, with several runs on at least
 * one side: the smallest change that matters. The exit status's false alarms are held at
 * alpha by its procedure (compare_gate.c), not by the threshold: at these defaults at most
 * 5.3 % of the A/A group pairs of `mpibench run --quick` on the development VM ended with
 * status 1, on both MPI libraries (docs/figures.md, "compare over runs"). */
#define MB_COMPARE_THRESHOLD_PCT    10.0
#define MB_COMPARE_IO_THRESHOLD_PCT 25.0
/* With one run a side nothing measures the run-to-run noise and only the band decides: the
 * narrowest that kept single A/A pairs at most 5 % status 1 there - whole families of two
 * unchanged runs differed up to 5 times (latency regimes of the 2-core VM; MPICH, Open MPI
 * 300 %) - and the noise band of single-sample rows. */
#define MB_COMPARE_SINGLE_THRESHOLD_PCT    400.0
#define MB_COMPARE_SINGLE_IO_THRESHOLD_PCT 400.0
#define MB_COMPARE_NOISE_PCT               50.0

struct mb_compare_opts {
    double threshold_pct;    /* the smallest change that counts; < 0: the form's default */
    double io_threshold_pct; /* the same for file I/O (IMB-IO, b_eff_io); < 0: the default */
    double noise_pct;        /* single-sample rows: the run-to-run noise band */
    int all;                 /* print every row, not only the changed ones */
};

struct mb_comparison;

/* Compares the runs base[0..nbase) with cur[0..ncur) (each at least one file; linear in the
 * number of measurements times runs). NULL with msg when the files cannot be compared (bad
 * input: status 2): nothing in common, or the runs of one group differ in suite, process count
 * or settings, or one file is given twice in a group. */
struct mb_comparison *mb_compare_build(const struct mb_records *base, size_t nbase,
                                       const struct mb_records *cur, size_t ncur,
                                       const struct mb_compare_opts *opts, char *msg, size_t len);

/* 0 (no family and not the overall regressed) or 1. */
int mb_compare_status(const struct mb_comparison *c);

/* The table (changed rows worst first, or every row with opts->all; then the rows found in one
 * group only and those not comparable), the families, the OVERALL line and the summary. */
void mb_compare_text(const struct mb_comparison *c, FILE *out);

/* JSON Lines (docs/compare.schema.json): one compare_row per measurement, one compare_family
 * per family, the compare_overall and the compare_summary. */
void mb_compare_json(const struct mb_comparison *c, FILE *out);

/* The tables as an HTML fragment for compare --html's index.html (malloc'd). */
char *mb_compare_html(const struct mb_comparison *c);

/* The ratios of the compared rows that have a size, for plots of a family's ratio per size:
 * calls fn once per row in the families' order and the sizes' order of the first run. */
struct mb_compare_point {
    const char *family;
    int family_index;     /* 0, 1, ... in the order of mb_compare_text's families */
    double bytes;         /* the row's size */
    double ratio, lo, hi; /* > 1: worse; lo, hi: NAN without an interval */
    int changed;          /* -1 improved, 0 unchanged, 1 regressed */
};
void mb_compare_points(const struct mb_comparison *c,
                       void (*fn)(const struct mb_compare_point *p, void *arg), void *arg);

/* For the plots of two groups (mpibench plot BASE... -- NEW..., compare --html): the runs a
 * side, and the threshold in percent family family_index (mb_compare_point) was judged by -
 * the file-I/O one for a family of file I/O; NAN for an index that names no family. */
void mb_compare_group_sizes(const struct mb_comparison *c, size_t *nbase, size_t *nnew);
double mb_compare_family_threshold(const struct mb_comparison *c, int family_index);

void mb_compare_free(struct mb_comparison *c);

#endif
