/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/stats.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mb_stats mb_stats_of(const double *v, size_t n)
{
    struct mb_stats s = {0};
    double sum = 0.0, sq = 0.0;

    if (n == 0)
        return s;
    s.n = n;
    s.min = s.max = v[0];
    for (size_t i = 0; i < n; i++) {
        if (v[i] < s.min)
            s.min = v[i];
        if (v[i] > s.max)
            s.max = v[i];
        sum += v[i];
    }
    s.mean = sum / (double)n;
    /* The rounding of the sum can put the mean of equal values an ulp outside them (three
     * times 0.1 averages above 0.1): the identical times of a simulated run (SimGrid SMPI,
     * docs/scale.md) showed t_avg > t_max. The mean of values lies between their extremes. */
    if (s.mean < s.min)
        s.mean = s.min;
    if (s.mean > s.max)
        s.mean = s.max;
    /* Two passes: the textbook one-pass formula loses everything to cancellation for
     * timings that differ in the last digits. */
    for (size_t i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    s.stddev = sqrt(sq / (double)n);
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mb_median(const double *v, size_t n)
{
    double *copy;
    double m;

    if (n == 0)
        return 0.0;
    copy = mb_xmalloc(n * sizeof *copy);
    memcpy(copy, v, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_double);
    m = (n % 2) ? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);
    free(copy);
    return m;
}

/* The interval's rank walks up the binomial(n, 1/2) distribution one term at a time: P(B = i)
 * from P(B = i - 1) by the factor (n - i + 1) / i, in log space (2^-n underflows a double
 * beyond n = 1074), and the running sum is P(B <= j). Linear in the rank reached (at most n / 2):
 * rows may carry up to 10^6 samples (--samples), where summing each P(B <= j) anew was quadratic
 * (47 s at n = 10^5). */
size_t mb_median_ci_rank(size_t n, double *coverage)
{
    size_t j = 1;
    double log_term, below, upto; /* log P(B = j), P(B <= j - 1), P(B <= j) */

    if (n == 0) {
        *coverage = 0.0;
        return 0;
    }
    log_term = -(double)n * log(2.0); /* P(B = 0) = 2^-n */
    below = exp(log_term);
    log_term += log((double)n); /* P(B = 1) = n 2^-n */
    upto = below + exp(log_term);
    /* [x(j), x(n+1-j)] misses the median when B <= j - 1 or B >= n + 1 - j: 2 P(B <= j - 1). */
    while (j < (n + 1) / 2 && 2.0 * upto <= 0.05) {
        j++;
        log_term += log((double)(n - j + 1)) - log((double)j);
        below = upto;
        upto += exp(log_term);
    }
    *coverage = 1.0 - 2.0 * below;
    if (*coverage > 1.0)
        *coverage = 1.0;
    return j;
}

/* Type-7 quantile of the sorted s[0..n-1]. */
static double quantile_sorted(const double *s, size_t n, double p)
{
    const double h = (double)(n - 1) * p;
    const size_t lo = (size_t)floor(h);

    if (lo + 1 >= n)
        return s[n - 1];
    return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

struct mb_spread mb_spread_of(const double *v, size_t n)
{
    struct mb_spread r = {0};
    double *s;

    if (n == 0)
        return r;
    s = mb_xmalloc(n * sizeof *s);
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    r.n = n;
    r.median = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    r.q1 = quantile_sorted(s, n, 0.25);
    r.q3 = quantile_sorted(s, n, 0.75);
    r.ci_rank = mb_median_ci_rank(n, &r.coverage);
    r.ci_low = s[r.ci_rank - 1];
    r.ci_high = s[n - r.ci_rank];
    free(s);
    return r;
}
