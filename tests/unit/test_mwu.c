/* SPDX-License-Identifier: BSD-3-Clause */
/* The Mann-Whitney U test of mpibench compare (results/mwu.h) against values computed by hand:
 * the exact distribution of U from its counts of arrangements (Mann and Whitney 1947: P(U <= 2)
 * = 4/252 for 5 against 5), and the normal approximation with the tie correction and the
 * continuity correction, as R's wilcox.test(correct = TRUE) computes it. */
#include "results/mwu.h"
#include "unit.h"

#include <math.h>

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

int main(void)
{
    /* Complete separation, 4 against 4: p = 2 / C(8, 4); U = 0 either way round. */
    const double a4[] = {1, 2, 3, 4}, b4[] = {5, 6, 7, 8};
    struct mb_mwu r = mb_mwu_test(a4, 4, b4, 4);
    EXPECT(r.exact && r.u == 0 && near(r.p, 2.0 / 70, 1e-12));
    r = mb_mwu_test(b4, 4, a4, 4);
    EXPECT(r.exact && r.u == 16 && near(r.p, 2.0 / 70, 1e-12));

    /* 3 against 3 can never reach p < 0.1: compare needs at least 4 samples a side. */
    r = mb_mwu_test(a4, 3, b4, 3);
    EXPECT(r.exact && near(r.p, 0.1, 1e-12));

    /* 5 against 5 with U = 2: P(U <= 2) = (1 + 1 + 2) / 252, two-sided twice that. */
    {
        const double x[] = {1, 2, 3, 4.5, 4.6}, y[] = {4, 5, 7, 8, 10};
        r = mb_mwu_test(x, 5, y, 5);
        EXPECT(r.exact && r.u == 2 && near(r.p, 8.0 / 252, 1e-12));
    }

    /* 9 against 9 apart (compare's test fixture): 2 / C(18, 9). */
    {
        double x[9], y[9];
        for (int i = 0; i < 9; i++) {
            x[i] = 1 + 0.01 * i;
            y[i] = 2 + 0.01 * i;
        }
        r = mb_mwu_test(x, 9, y, 9);
        EXPECT(r.exact && near(r.p, 2.0 / 48620, 1e-15));
    }

    /* Ties: mid-ranks, the variance's tie correction and the continuity correction. x =
     * {1,2,2,3,4}, y = {2,3,5,6,7}: R_x = 19.5, U = 4.5, var = 25/12 (11 - 30/90), z = 7.5 / sd,
     * p = erfc(z / sqrt 2) = 0.11161... */
    {
        const double x[] = {1, 2, 2, 3, 4}, y[] = {2, 3, 5, 6, 7};
        r = mb_mwu_test(x, 5, y, 5);
        EXPECT(!r.exact && r.u == 4.5 && near(r.p, 0.11161176829829222, 1e-12));
    }

    /* All equal: nothing to tell apart, p = 1. */
    {
        const double x[] = {3, 3, 3}, y[] = {3, 3};
        r = mb_mwu_test(x, 3, y, 2);
        EXPECT(!r.exact && r.p == 1);
    }

    /* Large samples without ties: the normal approximation, shifted samples far apart. */
    {
        double x[40], y[40];
        for (int i = 0; i < 40; i++) {
            x[i] = i;
            y[i] = 100 + i;
        }
        r = mb_mwu_test(x, 40, y, 40);
        EXPECT(!r.exact && r.p < 1e-10);
        r = mb_mwu_test(x, 40, x, 40);
        EXPECT(r.p > 0.9);
    }
    return unit_report("test_mwu");
}
