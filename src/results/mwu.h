/* SPDX-License-Identifier: BSD-3-Clause */
/* The Mann-Whitney U test (Wilcoxon rank-sum test) of two sets of samples, as mpibench compare
 * uses it where both runs carry a measurement's samples (docs/adr/compare-runs.md): the
 * test Google Benchmark's tools/gbench/report.py runs per benchmark, and the nonparametric test
 * Hoefler and Belli ("Scientific benchmarking of parallel computing systems", SC'15, rules 6 and 7:
 * do not assume normality, compare nondeterministic data in a statistically sound way)
 * recommend for timings, which are rarely normal. */
#ifndef MB_MWU_H
#define MB_MWU_H

#include <stddef.h>

/* Sample sizes up to which the exact distribution of U is used when there are no ties:
 * C(50, 25) ~ 1.3e14 arrangements is still counted exactly in a double (< 2^53). */
enum { MB_MWU_EXACT_MAX = 50 };

struct mb_mwu {
    double u;  /* U of the first sample: pairs (x, y) with x > y, ties counting 1/2 */
    double p;  /* two-sided p-value */
    int exact; /* 1: exact distribution of U; 0: normal approximation */
};

/* The two-sided test of x[0..nx) against y[0..ny) (both >= 1 value; NaN values must not be
 * given). Exact when there are no ties and nx + ny <= MB_MWU_EXACT_MAX (p = 2 P(U <= min(U,
 * nx ny - U)), capped at 1); otherwise the normal approximation with the tie correction of the
 * variance and a continuity correction of 1/2. All values equal: p = 1. */
struct mb_mwu mb_mwu_test(const double *x, size_t nx, const double *y, size_t ny);

/* The rank k (1-based) of the distribution-free interval of a shift between samples of m and n
 * values (Hollander and Wolfe, "Nonparametric Statistical Methods", 4.3): of the m n sorted
 * differences, [D(k), D(m n + 1 - k)] covers the shift with 1 - 2 P(U <= k - 1), the largest
 * k whose coverage is still at least 1 - alpha (exact for m + n <= MB_MWU_EXACT_MAX, else
 * from U's normal approximation); k = 1 with a smaller coverage when no such k exists (2
 * against 2: the whole range covers 4/6). *coverage: the interval's coverage. */
size_t mb_mwu_ci_rank(size_t m, size_t n, double alpha, double *coverage);

#endif
