/* SPDX-License-Identifier: BSD-3-Clause */
/* One measurement across whole runs (docs/adr/compare-runs.md): each run gives one value (the
 * row's median within the run) and the runs of two groups are the samples compared. Samples
 * taken back to back inside one run share its regime - placement, page layout, what the
 * previous run left in the caches - so only whole runs measure the run-to-run noise (Hoefler
 * and Belli, "Scientific benchmarking of parallel computing systems", SC'15, rule 7: compare
 * nondeterministic data in a statistically sound way, over independent measurements;
 * ReproMPI repeats whole mpiruns; pyperf compares the values of separate worker processes).
 *
 * The values given are logarithms of the figure, oriented so that larger is worse (log time,
 * or -log bandwidth): a shift d of the new runs against the base runs is the ratio e^d, > 1
 * worse. */
#ifndef MB_RUNSTATS_H
#define MB_RUNSTATS_H

#include <stddef.h>

/* The test a shift was decided by, from the runs a side has:
 *  U:       4 or more a side: the exact Mann-Whitney U test over runs (normal approximation
 *           with ties or beyond 50 runs in all), the shift the Hodges-Lehmann estimate (the
 *           median of the pairwise differences) with its distribution-free interval from the
 *           same distribution of U (Hollander and Wolfe, "Nonparametric Statistical Methods",
 *           4.3);
 *  WELCH:   2 or 3 on a side (2 or more on both): Welch's t test on the log values, the shift
 *           the difference of their means (the ratio of geometric means) with its t interval;
 *  PREDICT: one run against 2 or more: is the one run a draw of the other side's runs? The
 *           t test of a new observation against a sample (the prediction interval: mean ± t
 *           s sqrt(1 + 1/n), n - 1 degrees of freedom);
 *  NONE:    one run a side: nothing measures the run-to-run noise (p NAN, no interval). */
enum mb_across_test { MB_ACROSS_NONE, MB_ACROSS_U, MB_ACROSS_WELCH, MB_ACROSS_PREDICT };

/* Fewest runs a side for the U test: 3 against 3 can never reach p < 0.1. */
enum { MB_ACROSS_U_MIN = 4 };

struct mb_across {
    enum mb_across_test test;
    double shift;    /* y against x: > 0 worse */
    double lo, hi;   /* the shift's interval, NAN for NONE */
    double coverage; /* of [lo, hi]: 1 - alpha, or the exact coverage of U's order statistics */
    double p;        /* two-sided p-value, NAN for NONE */
    int exact;       /* U: the exact distribution was used */
};

/* x[0..nx) the base runs' values, y[0..ny) the new runs' (nx, ny >= 1; finite). */
struct mb_across mb_across_runs(const double *x, size_t nx, const double *y, size_t ny,
                                double alpha);

/* The Hodges-Lehmann estimate of the shift of y against x and its interval [D(k), D(nx ny + 1
 * - k)] of the sorted differences y_j - x_i, k from mb_mwu_ci_rank. */
void mb_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny, double alpha,
                       double *shift, double *lo, double *hi, double *coverage);

/* Student's t distribution with df > 0 degrees of freedom (df need not be an integer: Welch's
 * are not): the two-sided tail P(|T| >= t), and the t with P(|T| >= t) = p (0 < p <= 1). */
double mb_t_two_sided(double t, double df);
double mb_t_critical(double p, double df);

/* The regularised incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1). */
double mb_incomplete_beta(double x, double a, double b);

#endif
