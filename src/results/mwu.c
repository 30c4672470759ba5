/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/mwu.h"

#include "results/records.h"

#include <math.h>
#include <stdlib.h>

struct tagged {
    double v;
    int first; /* 1: from x */
};

static int by_value(const void *a, const void *b)
{
    const struct tagged *p = a, *q = b;
    return (p->v > q->v) - (p->v < q->v);
}

/* P(U <= u) under the null hypothesis without ties: the number of arrangements of m x's and n
 * y's with U = k is the coefficient of q^k in the Gaussian binomial [m+n choose m]_q =
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i) (Mann and Whitney 1947; Andrews, "The Theory of
 * Partitions", 3.3), built here one factor at a time; every coefficient is an integer below
 * C(m+n, m). */
static double *arrangements(size_t m, size_t n)
{
    const size_t top = m * n;
    double *c = mb_rs_alloc(NULL, top + 1, sizeof *c);

    c[0] = 1;
    for (size_t k = 1; k <= top; k++)
        c[k] = 0;
    for (size_t i = 1; i <= m; i++) {
        /* times (1 - q^(n+i)): from the top down, so that c[k - (n+i)] is the old one */
        for (size_t k = top; k >= n + i; k--)
            c[k] -= c[k - (n + i)];
        /* divided by (1 - q^i): times 1 + q^i + q^2i + ..., from the bottom up */
        for (size_t k = i; k <= top; k++)
            c[k] += c[k - i];
    }
    return c;
}

static double exact_cdf(size_t m, size_t n, double u)
{
    double *c = arrangements(m, n), total = 0, below = 0;

    for (size_t k = 0; k <= m * n; k++) {
        total += c[k];
        if ((double)k <= u)
            below += c[k];
    }
    free(c);
    return below / total;
}

/* The standard normal z with P(Z >= z) = q (0 < q < 1), by bisection on erfc: the rank of the
 * interval needs it once per comparison, so a few dozen steps cost nothing. */
static double normal_upper(double q)
{
    double lo = -40, hi = 40;

    for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
        const double mid = (lo + hi) / 2;
        if (0.5 * erfc(mid / sqrt(2)) > q)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

size_t mb_mwu_ci_rank(size_t m, size_t n, double alpha, double *coverage)
{
    const size_t top = m * n;
    size_t k = 1;

    if (top == 0) {
        *coverage = 0;
        return 0;
    }
    if (m + n <= MB_MWU_EXACT_MAX) {
        double *c = arrangements(m, n), total = 0, below = 0, upto;
        for (size_t i = 0; i <= top; i++)
            total += c[i];
        /* below = P(U <= k - 1), upto = P(U <= k) */
        below = c[0] / total;
        upto = below + (top >= 1 ? c[1] / total : 0);
        while (k < (top + 1) / 2 && 2 * upto <= alpha) {
            k++;
            below = upto;
            upto += c[k] / total;
        }
        free(c);
        *coverage = 1 - 2 * below;
        return k;
    }
    {
        /* Beyond the exact counts: U's normal approximation, mean mn/2 and variance mn(m + n +
         * 1)/12, the rank rounded down (the interval a little wider than 1 - alpha). */
        const double mn = (double)top, sd = sqrt(mn * ((double)(m + n) + 1) / 12);
        const double kk = floor(mn / 2 - normal_upper(alpha / 2) * sd);
        k = kk >= 1 ? (size_t)kk : 1;
        *coverage = 1 - erfc(((mn / 2) - ((double)k - 0.5)) / sd / sqrt(2));
        return k;
    }
}

struct mb_mwu mb_mwu_test(const double *x, size_t nx, const double *y, size_t ny)
{
    const size_t n = nx + ny;
    struct tagged *a = mb_rs_alloc(NULL, n, sizeof *a);
    struct mb_mwu r = {0, 1, 0};
    double rank_x = 0, ties = 0;
    size_t i = 0;

    for (size_t k = 0; k < nx; k++)
        a[k] = (struct tagged){x[k], 1};
    for (size_t k = 0; k < ny; k++)
        a[nx + k] = (struct tagged){y[k], 0};
    qsort(a, n, sizeof *a, by_value);
    /* Mid-ranks: a run of t equal values at places i+1..i+t shares rank i + (t+1)/2. */
    while (i < n) {
        size_t j = i + 1, from_x = 0;
        while (j < n && a[j].v == a[i].v)
            j++;
        for (size_t k = i; k < j; k++)
            from_x += (size_t)a[k].first;
        rank_x += (double)from_x * ((double)i + (double)(j - i + 1) / 2);
        ties += pow((double)(j - i), 3) - (double)(j - i);
        i = j;
    }
    free(a);
    r.u = rank_x - (double)nx * (double)(nx + 1) / 2;
    {
        const double mn = (double)nx * (double)ny, low = fmin(r.u, mn - r.u);
        if (ties == 0 && n <= MB_MWU_EXACT_MAX) {
            r.exact = 1;
            r.p = fmin(1, 2 * exact_cdf(nx, ny, low));
        } else {
            const double var = mn / 12 * ((double)n + 1 - ties / ((double)n * ((double)n - 1)));
            const double z = var > 0 ? (mn / 2 - low - 0.5) / sqrt(var) : 0;
            r.p = var > 0 && z > 0 ? fmin(1, erfc(z / sqrt(2))) : 1;
        }
    }
    return r;
}
