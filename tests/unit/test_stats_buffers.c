/* SPDX-License-Identifier: BSD-3-Clause */
/* Statistics over ranks, and the fill/check patterns used by --check. */
#include "core/buffers.h"
#include "core/stats.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

/* P(B <= j), B binomial(n, 1/2), each term from lgamma: the definition, for checking the
 * library's incremental walk. */
static double binom_cdf(size_t n, size_t j)
{
    double p = 0;
    for (size_t i = 0; i <= j && i <= n; i++)
        p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
    return p;
}

int main(void)
{
    const double v[] = {4.0, 1.0, 3.0, 2.0};
    struct mb_stats s = mb_stats_of(v, 4);

    EXPECT(s.n == 4 && s.min == 1.0 && s.max == 4.0 && s.mean == 2.5);
    EXPECT(fabs(s.stddev - sqrt(1.25)) < 1e-12);
    EXPECT(mb_median(v, 4) == 2.5);
    EXPECT(mb_median(v, 3) == 3.0);
    s = mb_stats_of(v, 0);
    EXPECT(s.n == 0 && s.min == 0 && s.max == 0);
    {
        /* Two-pass stddev keeps precision for values that differ in the last digits. */
        const double w[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
        EXPECT(fabs(mb_stats_of(w, 3).stddev - sqrt(2.0 / 3.0)) < 1e-6);
    }
    {
        /* Equal values average to themselves, not an ulp above (0.1 + 0.1 + 0.1 rounds up). */
        const double e[] = {0.1, 0.1, 0.1};
        s = mb_stats_of(e, 3);
        EXPECT(s.min <= s.mean && s.mean <= s.max);
    }

    /* The spread of K samples: quartiles by linear interpolation (R's and numpy's default),
     * and the median's 95 % interval from order statistics, against Le Boudec's Table A.1
     * (n = 6..8: x(1)..x(n); 9..11: x(2)..x(n-1); 12..14: x(3)..x(n-2); n = 100: x(40)..x(61))
     * and exact binomial coverages. */
    {
        const double five[] = {5, 3, 1, 4, 2}, four[] = {4, 1, 3, 2};
        double cov, hundred[100];
        struct mb_spread sp = mb_spread_of(five, 5);
        EXPECT(sp.n == 5 && sp.median == 3 && sp.q1 == 2 && sp.q3 == 4);
        /* n = 5: no 95 % interval exists; min..max covers 1 - 2/32. */
        EXPECT(sp.ci_rank == 1 && sp.ci_low == 1 && sp.ci_high == 5);
        EXPECT(fabs(sp.coverage - 0.9375) < 1e-12);
        sp = mb_spread_of(four, 4);
        EXPECT(sp.median == 2.5 && fabs(sp.q1 - 1.75) < 1e-12 && fabs(sp.q3 - 3.25) < 1e-12);
        EXPECT(mb_median_ci_rank(6, &cov) == 1 && fabs(cov - 0.96875) < 1e-12);
        EXPECT(mb_median_ci_rank(8, &cov) == 1 && cov >= 0.95);
        EXPECT(mb_median_ci_rank(9, &cov) == 2 && fabs(cov - (1 - 20.0 / 512)) < 1e-12);
        EXPECT(mb_median_ci_rank(11, &cov) == 2 && cov >= 0.95);
        EXPECT(mb_median_ci_rank(12, &cov) == 3 && fabs(cov - (1 - 2 * 79.0 / 4096)) < 1e-12);
        EXPECT(mb_median_ci_rank(14, &cov) == 3);
        EXPECT(mb_median_ci_rank(15, &cov) == 4);
        EXPECT(mb_median_ci_rank(1, &cov) == 1 && cov == 0.0);
        EXPECT(mb_median_ci_rank(0, &cov) == 0);
        /* Large n in log space: no underflow at 2^-2000. */
        EXPECT(mb_median_ci_rank(2000, &cov) > 900 && cov >= 0.95 && cov < 0.96);
        /* Against the definition, each term summed anew with lgamma (independent of the
         * incremental walk): the largest j whose interval still covers 95 %, for every n up to
         * 600 and a few large ones; and 10^6 samples (--samples' limit) in one linear walk. */
        for (size_t i = 0, big[] = {4099, 20001}; i < 595 + 2; i++) {
            const size_t n = i < 595 ? 6 + i : big[i - 595];
            const size_t j = mb_median_ci_rank(n, &cov);
            EXPECT(cov >= 0.95 && fabs(cov - (1 - 2 * binom_cdf(n, j - 1))) < 1e-9);
            EXPECT(j + 1 > (n + 1) / 2 || 1 - 2 * binom_cdf(n, j) < 0.95);
        }
        EXPECT(mb_median_ci_rank(1000000, &cov) == 499020 && cov >= 0.95 && cov < 0.9502);
        for (int i = 0; i < 100; i++)
            hundred[i] = 100 - i; /* 100 .. 1, so sorting matters */
        sp = mb_spread_of(hundred, 100);
        EXPECT(sp.ci_rank == 40 && sp.ci_low == 40 && sp.ci_high == 61);
        EXPECT(sp.median == 50.5 && fabs(sp.q1 - 25.75) < 1e-12 && fabs(sp.q3 - 75.25) < 1e-12);
        EXPECT(sp.q1 <= sp.median && sp.median <= sp.q3);
        EXPECT(sp.ci_low <= sp.median && sp.median <= sp.ci_high);
        sp = mb_spread_of(five, 0);
        EXPECT(sp.n == 0 && sp.median == 0);
    }

    /* Byte pattern: depends on rank and index; a fill checks clean, a flip is found. */
    {
        unsigned char buf[4096];
        int differs = 0;
        for (size_t i = 0; i < 64; i++)
            differs += mb_pattern_byte(0, i) != mb_pattern_byte(1, i);
        EXPECT(differs > 48);
        mb_fill_bytes(buf, sizeof buf, 7, 100);
        EXPECT_EQ_LL(mb_check_bytes(buf, sizeof buf, 7, 100), 0);
        EXPECT(mb_check_bytes(buf, sizeof buf, 8, 100) > 4000); /* wrong sender */
        EXPECT(mb_check_bytes(buf, sizeof buf, 7, 101) > 4000); /* wrong offset */
        buf[1234] ^= 0x10;
        EXPECT_EQ_LL(mb_check_bytes(buf, sizeof buf, 7, 100), 1);
    }
    /* Float sums: the 13-residue shortcut equals the brute-force sum for any rank count. */
    for (int nranks = 1; nranks <= 40; nranks++) {
        float sum[50];
        for (size_t i = 0; i < 50; i++) {
            double t = 0;
            for (int r = 0; r < nranks; r++)
                t += mb_pattern_float(r, 10 + i);
            sum[i] = (float)t;
        }
        EXPECT_EQ_LL(mb_check_float_sums(sum, 50, nranks, 10), 0);
        sum[3] += 1.0f;
        EXPECT_EQ_LL(mb_check_float_sums(sum, 50, nranks, 10), 1);
    }
    /* Exact for very many ranks: the largest sum stays below 2^24. */
    EXPECT(13.0 * 1000000 < 16777216.0);
    return unit_report("test_stats_buffers");
}
