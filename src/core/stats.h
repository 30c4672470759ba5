/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions over a list of per-rank (or per-sample) values: min, max, mean, median, stddev. */
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

#endif
