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
