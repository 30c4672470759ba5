/* SPDX-License-Identifier: BSD-3-Clause */
/* The statistics of compare over runs (results/runstats.h) against values from closed forms:
 * Student's t for 1 and 2 degrees of freedom (P(|T| >= t) = 1 - 2 atan(t) / pi and 1 - t /
 * sqrt(2 + t^2)), published critical values of t, the incomplete beta function of integer
 * parameters as a binomial sum, the Hodges-Lehmann interval of 5 against 5 by hand (Hollander
 * and Wolfe 4.3: k = 3 at alpha 0.05, coverage 1 - 8/252), Welch's test and the prediction
 * test of one run worked by hand. */
#include "results/mwu.h"
#include "results/runstats.h"
#include "unit.h"

#include <math.h>

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* I_x(a, b) for integers: P(Binomial(a + b - 1, x) >= a). */
static double beta_by_binomial(double x, int a, int b)
{
    const int n = a + b - 1;
    double p = 0;
    for (int j = a; j <= n; j++)
        p += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0)) * pow(x, j) *
             pow(1 - x, n - j);
    return p;
}

int main(void)
{
    const double pi = acos(-1.0);

    for (int a = 1; a <= 12; a++)
        for (int b = 1; b <= 12; b++)
            for (double x = 0.05; x < 1; x += 0.1)
                EXPECT(near(mb_incomplete_beta(x, a, b), beta_by_binomial(x, a, b), 1e-12));
    for (double t = 0; t < 50; t += 0.37) {
        EXPECT(near(mb_t_two_sided(t, 1), 1 - 2 * atan(t) / pi, 1e-12));
        EXPECT(near(mb_t_two_sided(t, 2), 1 - t / sqrt(2 + t * t), 1e-12));
    }
    /* Student's table, two-sided 0.05. */
    EXPECT(near(mb_t_critical(0.05, 1), 12.7062047, 1e-6));
    EXPECT(near(mb_t_critical(0.05, 2), 4.3026527, 1e-6));
    EXPECT(near(mb_t_critical(0.05, 4), 2.7764451, 1e-6));
    EXPECT(near(mb_t_critical(0.05, 10), 2.2281389, 1e-6));
    EXPECT(near(mb_t_critical(0.05, 30), 2.0422725, 1e-6));
    EXPECT(near(mb_t_critical(0.05, 1e7), 1.9599640, 1e-5));
    EXPECT(near(mb_t_two_sided(2.0, 5), 0.1019395, 1e-6));

    /* The interval's rank: 5 against 5, P(U <= 2) = 4/252 (k = 3), P(U <= 3) = 7/252 (too
     * much); 2 against 2 has no 95 % interval: the whole range, 1 - 2/6. */
    {
        double cov;
        EXPECT(mb_mwu_ci_rank(5, 5, 0.05, &cov) == 3 && near(cov, 1 - 8.0 / 252, 1e-12));
        EXPECT(mb_mwu_ci_rank(2, 2, 0.05, &cov) == 1 && near(cov, 1 - 2.0 / 6, 1e-12));
        EXPECT(mb_mwu_ci_rank(4, 4, 0.05, &cov) == 1 && near(cov, 1 - 2.0 / 70, 1e-12));
        /* Beyond the exact counts: near 1 - alpha. */
        EXPECT(mb_mwu_ci_rank(40, 40, 0.05, &cov) > 500 && cov > 0.949 && cov < 0.96);
    }

    /* Hodges-Lehmann: y = x + 10; the differences 10 + (j - i) run 6 (once) .. 14 (once), so
     * D(3) = 7 and D(23) = 13. */
    {
        const double x[] = {3, 1, 5, 2, 4}, y[] = {13, 11, 15, 12, 14};
        struct mb_across r = mb_across_runs(x, 5, y, 5, 0.05);
        EXPECT(r.test == MB_ACROSS_U && r.exact && near(r.shift, 10, 1e-12));
        EXPECT(r.lo == 7 && r.hi == 13 && near(r.coverage, 1 - 8.0 / 252, 1e-12));
        EXPECT(near(r.p, 2.0 / 252, 1e-12));
        r = mb_across_runs(y, 5, x, 5, 0.05);
        EXPECT(near(r.shift, -10, 1e-12) && r.lo == -13 && r.hi == -7);
    }
    /* Welch: x = {0, 1}, y = {2, 3}: se = sqrt(1/2), t = 2 sqrt 2, df = 2. */
    {
        const double x[] = {0, 1}, y[] = {2, 3};
        const struct mb_across r = mb_across_runs(x, 2, y, 2, 0.05);
        const double t = 2 * sqrt(2);
        EXPECT(r.test == MB_ACROSS_WELCH && near(r.shift, 2, 1e-12));
        EXPECT(near(r.p, 1 - t / sqrt(2 + t * t), 1e-9));
        EXPECT(near(r.hi - r.shift, 4.3026527 * sqrt(0.5), 1e-6) && near(r.coverage, 0.95, 0));
    }
    /* One run against three: mean 1, s = 1, se = sqrt(4/3), df = 2. */
    {
        const double x[] = {0, 1, 2}, y[] = {5};
        const double t = 4 / sqrt(4.0 / 3);
        struct mb_across r = mb_across_runs(x, 3, y, 1, 0.05);
        EXPECT(r.test == MB_ACROSS_PREDICT && near(r.shift, 4, 1e-12));
        EXPECT(near(r.p, 1 - t / sqrt(2 + t * t), 1e-9));
        r = mb_across_runs(y, 1, x, 3, 0.05);
        EXPECT(r.test == MB_ACROSS_PREDICT && near(r.shift, -4, 1e-12) && r.p < 0.1);
    }
    /* Every run alike: no change is p = 1, a change p = 0; one run a side: no test. */
    {
        const double x[] = {1, 1, 1}, y[] = {1, 1}, z[] = {2, 2};
        EXPECT(mb_across_runs(x, 3, y, 2, 0.05).p == 1);
        EXPECT(mb_across_runs(x, 3, z, 2, 0.05).p == 0);
        const struct mb_across r = mb_across_runs(x, 1, z, 1, 0.05);
        EXPECT(r.test == MB_ACROSS_NONE && r.shift == 1 && isnan(r.p) && isnan(r.lo));
    }
    return unit_report("test_runstats");
}
