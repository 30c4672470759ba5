/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions over a list of per-rank (or per-sample) values: min, max, mean, median, stddev,
 * and the spread of a row's K samples (median, quartiles, a nonparametric confidence interval
 * of the median; docs/adr/samples.md). */
#ifndef MB_STATS_H
#define MB_STATS_H

#include <stddef.h>

struct mb_stats {
    size_t n;
    double min, max, mean, stddev; /* stddev: population (divide by n) */
};

/* Summary of v[0..n-1]; with n == 0 everything is 0. */
struct mb_stats mb_stats_of(const double *v, size_t n);

/* Median of v[0..n-1] (mean of the two middle values for even n); sorts a copy. */
double mb_median(const double *v, size_t n);

/* The spread of n samples: the median, the quartiles (linear interpolation between order
 * statistics, position (n - 1) p from 0: R's and numpy's default, "type 7"), and the
 * confidence interval of the median from order statistics, distribution-free (Hoefler and
 * Belli, SC'15, §3.1.3; Le Boudec, "Performance Evaluation of Computer and Communication
 * Systems", Theorem 2.1 and Table A.1): [x(j), x(n + 1 - j)] with the largest j for which
 * P(j <= B <= n - j) >= 0.95, B binomial(n, 1/2). No such j exists for n <= 5 (even min..max
 * covers the median with probability 1 - 2^(1-n) only): the interval is then min..max and
 * coverage says how much it covers (0.9375 for n = 5). */
struct mb_spread {
    size_t n;
    double median, q1, q3;
    double ci_low, ci_high;
    double coverage; /* P(ci_low <= true median <= ci_high); >= 0.95 unless n <= 5 */
    size_t ci_rank;  /* j: ci_low is the j-th smallest sample (1-based), ci_high the j-th largest */
};

/* The spread of v[0..n-1] (sorts a copy); with n == 0 everything is 0. */
struct mb_spread mb_spread_of(const double *v, size_t n);

/* The rank j (1-based) of the lower bound of the 95 % interval of the median of n samples, and
 * its coverage; j = 1 with coverage below 0.95 when n <= 5 (and j = 0 for n = 0). */
size_t mb_median_ci_rank(size_t n, double *coverage);

#endif
