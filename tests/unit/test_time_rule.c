/* SPDX-License-Identifier: BSD-3-Clause */
/* The repetition policy under -time (imb_time_rule.h): IMB 3.1's rule from IMB_mem_manager.c
 * and the guide's reading of 5.1.2.6, on made-up times. */
#include "imb/imb_time_rule.h"
#include "unit.h"

int main(void)
{
    /* The preparatory run: 1000 below 1 ms, else about 1 s worth (rounded), within 1..n_rule. */
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 2e-6), 1000);
    EXPECT_EQ_LL(mb_imb_time_prep_reps(10, 2e-6), 10);
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 0.004), 250);
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 0.003), 333);
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 0.0015), 667); /* 666.7 rounded */
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 2.5), 1);
    EXPECT_EQ_LL(mb_imb_time_prep_reps(1000, 0.0), 1000);

    /* The program's rule, one length: 1 + limit/t, truncated, within 1..n_rule. */
    {
        const long long lens[] = {0, 1, 1024, 4096, 4194304};
        long counts[5] = {0};
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 2e-6, lens, counts, 0), 1000);
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 0.001, lens, counts, 0), 101);
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 1.0, lens, counts, 0), 1);
        /* No measurable time: the rule's count (IMB 3.1 keeps selected_n_sample). */
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 0.0, lens, counts, 0), 1000);

        /* Never more than a shorter length: a length that ran 101 caps the next ones, even
         * when they measured faster. */
        counts[0] = 1000;
        counts[1] = 101;
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 2e-6, lens, counts, 2), 101);
        counts[2] = 101;
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 0.01, lens, counts, 3), 11);
        counts[3] = 11;
        /* ... and never more than the -iter rule (10 at 4 MB). */
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 10, 0.1, 1e-4, lens, counts, 4), 10);
        /* A length that was skipped (count 0) constrains nothing. */
        counts[1] = 0;
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 2e-6, lens, counts, 2), 1000);
    }
    /* -msglen out of order: at most the counts of shorter lengths, at least those of longer or
     * equal ones (IMB 3.1 numiters[]). */
    {
        const long long lens[] = {65536, 16, 1024, 1024};
        long counts[4] = {40, 0, 0, 0};
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 0.01, lens, counts, 1), 40);
        counts[1] = 40;
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 1e-6, lens, counts, 2), 40);
        counts[2] = 40;
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_PROGRAM, 1000, 0.1, 0.05, lens, counts, 3), 40);
    }
    /* The guide's reading: the most repetitions within the limit, each length on its own. */
    {
        const long long lens[] = {0, 1};
        const long counts[] = {3, 0};
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_GUIDE, 1000, 0.1, 2e-6, lens, counts, 1), 1000);
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_GUIDE, 1000, 0.1, 0.001, lens, counts, 1), 100);
        EXPECT_EQ_LL(mb_imb_time_reps(MB_IMB_TIME_GUIDE, 1000, 0.1, 1.0, lens, counts, 1), 1);
        EXPECT_EQ_LL(mb_imb_reps_for_time(1000, 1.5, 0.01), 150);
        EXPECT_EQ_LL(mb_imb_reps_for_time(20, 1.5, 0.1), 15);
    }
    /* The warning threshold: the rule's count, at most 10. */
    EXPECT_EQ_LL(mb_imb_time_min_reps(1000), 10);
    EXPECT_EQ_LL(mb_imb_time_min_reps(10), 10);
    EXPECT_EQ_LL(mb_imb_time_min_reps(2), 2);
    return unit_report("test_time_rule");
}
