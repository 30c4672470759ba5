/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/runstats.h"

#include "results/mwu.h"
#include "results/records.h"

#include <math.h>
#include <stdlib.h>

/* The continued fraction 1 / (1 + d1 / (1 + d2 / ...)) of I_x(a, b) (DLMF 8.17.22), evaluated
 * by the modified Lentz method (Lentz 1976; Thompson and Barnett 1986), whose leading term 0 is
 * replaced by a tiny number: it converges quickly for x < (a + 1) / (a + b + 2), and the caller
 * mirrors the other side. */
static double beta_fraction(double x, double a, double b)
{
    const double tiny = 1e-300;
    double f = tiny, c = f, d = 0;

    for (int j = 1; j < 1000; j++) {
        /* j = 1: the numerator 1; then d_{j-1}: d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)),
         * d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)). */
        double num = 1, delta;
        if (j > 1) {
            const int i = j - 1, m = i / 2;
            num = i % 2 == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                             : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        }
        d = 1 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        delta = c * d;
        f *= delta;
        if (fabs(delta - 1) < 1e-15)
            break;
    }
    return f;
}

double mb_incomplete_beta(double x, double a, double b)
{
    double front;

    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    if (x > (a + 1) / (a + b + 2))
        return 1 - mb_incomplete_beta(1 - x, b, a);
    front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b))) / a;
    /* I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) times 1 / (1 + d1 / (1 + d2 / ...)). */
    return front * beta_fraction(x, a, b);
}

double mb_t_two_sided(double t, double df)
{
    if (!isfinite(t))
        return isnan(t) ? NAN : 0;
    return mb_incomplete_beta(df / (df + t * t), df / 2, 0.5);
}

double mb_t_critical(double p, double df)
{
    double lo = 0, hi = 1;

    while (mb_t_two_sided(hi, df) > p && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        const double mid = (lo + hi) / 2;
        if (mb_t_two_sided(mid, df) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mb_hodges_lehmann(const double *x, size_t nx, const double *y, size_t ny, double alpha,
                       double *shift, double *lo, double *hi, double *coverage)
{
    const size_t n = nx * ny;
    double *d = mb_rs_alloc(NULL, n, sizeof *d);
    size_t k;

    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            d[i * ny + j] = y[j] - x[i];
    qsort(d, n, sizeof *d, by_double);
    *shift = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    k = mb_mwu_ci_rank(nx, ny, alpha, coverage);
    *lo = d[k - 1];
    *hi = d[n - k];
    free(d);
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
    double s = 0, q = 0;

    for (size_t i = 0; i < n; i++)
        s += v[i];
    *mean = s / (double)n;
    for (size_t i = 0; i < n; i++)
        q += (v[i] - *mean) * (v[i] - *mean);
    *var = n > 1 ? q / (double)(n - 1) : 0;
}

/* A t statistic's test and interval from the shift, its standard error and degrees of freedom;
 * a standard error of 0 (every run alike on both sides) leaves nothing random: a shift of 0 is
 * no change (p = 1), any other is certain (p = 0). */
static void t_decide(struct mb_across *r, double se, double df, double alpha)
{
    r->coverage = 1 - alpha;
    if (!(se > 0)) {
        r->p = r->shift == 0 ? 1 : 0;
        r->lo = r->hi = r->shift;
        return;
    }
    {
        const double half = mb_t_critical(alpha, df) * se;
        r->p = mb_t_two_sided(r->shift / se, df);
        r->lo = r->shift - half;
        r->hi = r->shift + half;
    }
}

struct mb_across mb_across_runs(const double *x, size_t nx, const double *y, size_t ny,
                                double alpha)
{
    struct mb_across r = {MB_ACROSS_NONE, 0, NAN, NAN, NAN, NAN, 0};
    double mx, vx, my, vy;

    mean_var(x, nx, &mx, &vx);
    mean_var(y, ny, &my, &vy);
    if (nx >= MB_ACROSS_U_MIN && ny >= MB_ACROSS_U_MIN) {
        const struct mb_mwu u = mb_mwu_test(x, nx, y, ny);
        r.test = MB_ACROSS_U;
        r.p = u.p;
        r.exact = u.exact;
        mb_hodges_lehmann(x, nx, y, ny, alpha, &r.shift, &r.lo, &r.hi, &r.coverage);
    } else if (nx >= 2 && ny >= 2) {
        /* Welch (1947): unequal variances; the Welch-Satterthwaite degrees of freedom. */
        const double a = vx / (double)nx, b = vy / (double)ny, se = sqrt(a + b);
        const double df =
            a + b > 0 ? (a + b) * (a + b) / (a * a / (double)(nx - 1) + b * b / (double)(ny - 1))
                      : 1;
        r.test = MB_ACROSS_WELCH;
        r.shift = my - mx;
        t_decide(&r, se, df, alpha);
    } else if (nx >= 2 || ny >= 2) {
        /* One run against a group: under no change it is one more draw of the group's
         * distribution, y - mean ~ s sqrt(1 + 1/n) t(n - 1). */
        const int many_base = nx >= 2;
        const size_t n = many_base ? nx : ny;
        const double s = sqrt(many_base ? vx : vy);
        r.test = MB_ACROSS_PREDICT;
        r.shift = my - mx;
        t_decide(&r, s * sqrt(1 + 1 / (double)n), (double)(n - 1), alpha);
    } else {
        r.shift = y[0] - x[0];
    }
    return r;
}
