/* SPDX-License-Identifier: BSD-3-Clause */
/* Active process sets: Q lists (guide 5.1.1, 5.1.2.2), Multi groups (5.1.2.3), -map (5.1.2.10). */
#include "imb/imb_groups.h"
#include "unit.h"

static void expect_qlist(int p, int npmin, const int *want, size_t nwant)
{
    int got[64];
    size_t n = mb_q_list(p, npmin, got, 64);
    EXPECT_EQ_LL(n, nwant);
    for (size_t i = 0; i < n && i < nwant; i++)
        EXPECT_EQ_LL(got[i], want[i]);
}

#define Q(p, npmin, ...)                                                                           \
    do {                                                                                           \
        const int w_[] = {__VA_ARGS__};                                                            \
        expect_qlist(p, npmin, w_, sizeof w_ / sizeof w_[0]);                                      \
    } while (0)

int main(void)
{
    /* Default npmin 2, P = 1..17 (P = 1 is allowed: Q = 1). */
    Q(1, 2, 1);
    Q(2, 2, 2);
    Q(3, 2, 2, 3);
    Q(4, 2, 2, 4);
    Q(5, 2, 2, 4, 5);
    Q(6, 2, 2, 4, 6);
    Q(7, 2, 2, 4, 7);
    Q(8, 2, 2, 4, 8);
    Q(9, 2, 2, 4, 8, 9);
    Q(10, 2, 2, 4, 8, 10);
    Q(11, 2, 2, 4, 8, 11); /* the guide's example in 5.1.1 */
    Q(12, 2, 2, 4, 8, 12);
    Q(13, 2, 2, 4, 8, 13);
    Q(14, 2, 2, 4, 8, 14);
    Q(15, 2, 2, 4, 8, 15);
    Q(16, 2, 2, 4, 8, 16);
    Q(17, 2, 2, 4, 8, 16, 17);
    /* -npmin: may be 1; npmin > P counts as P. */
    Q(1, 1, 1);
    Q(11, 1, 1, 2, 4, 8, 11);
    Q(17, 1, 1, 2, 4, 8, 16, 17);
    Q(17, 3, 3, 6, 12, 17);
    Q(11, 5, 5, 10, 11);
    Q(10, 5, 5, 10);
    Q(14, 7, 7, 14);
    Q(4, 7, 4);
    Q(16, 16, 16);
    Q(512, 512, 512);
    Q(2, 1, 1, 2);

    /* Multi: floor(P/Q) groups; primary: one group. */
    EXPECT_EQ_LL(mb_group_count(14, 2, 1), 7);
    EXPECT_EQ_LL(mb_group_count(5, 2, 1), 2);
    EXPECT_EQ_LL(mb_group_count(17, 8, 1), 2);
    EXPECT_EQ_LL(mb_group_count(17, 17, 1), 1);
    EXPECT_EQ_LL(mb_group_count(14, 2, 0), 1);

    /* -map PxQ: numbered down the columns, read along the rows. */
    {
        int order[16];
        const int m2x3[] = {0, 2, 4, 1, 3, 5};
        const int m3x2[] = {0, 3, 1, 4, 2, 5};
        const int m4x2[] = {0, 4, 1, 5, 2, 6, 3, 7}; /* -map <P>x2: pairs across two nodes */
        const int m2x2[] = {0, 2, 1, 3};             /* sample 6.2: groups "0 2" and "1 3" */
        mb_map_order(6, 2, 3, order);
        for (int k = 0; k < 6; k++)
            EXPECT_EQ_LL(order[k], m2x3[k]);
        mb_map_order(6, 3, 2, order);
        for (int k = 0; k < 6; k++)
            EXPECT_EQ_LL(order[k], m3x2[k]);
        mb_map_order(8, 4, 2, order);
        for (int k = 0; k < 8; k++)
            EXPECT_EQ_LL(order[k], m4x2[k]);
        mb_map_order(4, 2, 2, order);
        for (int k = 0; k < 4; k++)
            EXPECT_EQ_LL(order[k], m2x2[k]);
        mb_map_order(5, 0, 0, order); /* no -map: identity */
        for (int k = 0; k < 5; k++)
            EXPECT_EQ_LL(order[k], k);
        mb_map_order(14, 2, 7, order); /* guide 5.1.2 example "-map 2x7" */
        EXPECT_EQ_LL(order[0], 0);
        EXPECT_EQ_LL(order[1], 2);
        EXPECT_EQ_LL(order[6], 12);
        EXPECT_EQ_LL(order[7], 1);
        EXPECT_EQ_LL(order[13], 13);
    }
    return unit_report("test_groups");
}
