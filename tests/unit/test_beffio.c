/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's pure logic as in the b_eff_io 2.1 source: the pattern table (b_eff paper Table 2),
 * L_max, the time units, the default partitions, the segments of types 3/4 (a worked example) and
 * the values (b_eff paper §4 and 2.1's formula, with illustrative .sum numbers). */
#include "beffio/beffio.h"
#include "unit.h"

#include <math.h>

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-12)

static void test_table(void)
{
    int usum[MB_BIO_TYPES] = {0}, reported = 0, per_pos[MB_BIO_POSITIONS + 1] = {0};

    for (int p = 0; p < MB_BIO_PATTERNS; p++) {
        const struct mb_bio_pattern *q = &mb_bio_table[p];
        usum[q->type] += q->U;
        if (q->pos >= 1 && q->pos <= MB_BIO_POSITIONS) {
            reported++;
            per_pos[q->pos]++;
        }
        /* every size is a whole number of doubles; type 0 moves whole chunks per call */
        if (q->l > 0) {
            EXPECT_EQ_LL(q->l % 8, 0);
            EXPECT_EQ_LL(q->L % q->l, 0);
        }
        if (q->type > 0)
            EXPECT_EQ_LL(q->L, q->l);
        EXPECT((q->part == MB_BIO_FIRST) == (p == mb_bio_first_of_type(q->type)));
    }
    EXPECT_EQ_LL(usum[0], 22);
    EXPECT_EQ_LL(usum[1], 12);
    EXPECT_EQ_LL(usum[2], 10);
    EXPECT_EQ_LL(usum[3], 10);
    EXPECT_EQ_LL(usum[4], 10);
    EXPECT_EQ_LL(reported, 35); /* + pattern 2 reported on its own line = 36 */
    EXPECT_EQ_LL(mb_bio_table[2].pos, 8);
    for (int pos = 1; pos <= MB_BIO_POSITIONS; pos++)
        EXPECT_EQ_LL(per_pos[pos], MB_BIO_TYPES);
    EXPECT_EQ_LL(mb_bio_call(6, 0, 0), 32 * (32 * 1024 + 8));
    EXPECT_EQ_LL(mb_bio_call(7, 0, 0), 1024 * (1024 + 8));
    EXPECT_EQ_LL(mb_bio_chunk(1, 16 << 20, 0), 16 << 20);
    EXPECT_EQ_LL(mb_bio_chunk(33, 0, 286576), 286576);
    EXPECT_EQ_LL(mb_bio_usum(0), 150);
    EXPECT_EQ_LL(mb_bio_usum(1), 192);
    EXPECT(mb_bio_runs(8, 1, 0) && !mb_bio_runs(9, 1, 0) && mb_bio_runs(9, 1, 1));
    EXPECT(mb_bio_runs(42, 0, 0) && mb_bio_runs(42, 2, 0));
    EXPECT_EQ_LL(mb_bio_position_x(3), 4);
    EXPECT_EQ_LL(mb_bio_position_x(7), 10);
}

static void test_lmax_and_time(void)
{
    EXPECT_EQ_LL(mb_bio_lmax(1), 2 << 20);
    EXPECT_EQ_LL(mb_bio_lmax(256), 2 << 20);
    EXPECT_EQ_LL(mb_bio_lmax(1024), 8 << 20);
    EXPECT_EQ_LL(mb_bio_lmax(2048), 16 << 20);
    EXPECT_EQ_LL(mb_bio_lmax(131072), 1LL << 30);
    EXPECT_EQ_LL(mb_bio_lmax(1000000), 1LL << 30);
    EXPECT_EQ_LL(mb_bio_partition_seconds(1800, 3), 600);
    EXPECT_EQ_LL(mb_bio_partition_seconds(100, 3), 33); /* integer division, as in 2.1 */
}

static void test_partitions(void)
{
    static const struct {
        int n, k, p[3];
    } rows[] = {
        {1, 1, {1}},       {2, 2, {1, 2}},      {3, 3, {1, 2, 3}},    {4, 3, {2, 3, 4}},
        {8, 3, {2, 4, 8}}, {16, 3, {2, 8, 16}}, {64, 3, {4, 16, 64}}, {1000, 3, {8, 128, 1000}},
        {5, 3, {2, 4, 5}}, {12, 3, {2, 8, 12}}, {20, 3, {4, 8, 20}},  {1024, 3, {16, 128, 1024}}};

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int out[3] = {0, 0, 0};
        const int k = mb_bio_default_partitions(rows[r].n, out);
        EXPECT_EQ_LL(k, rows[r].k);
        for (int i = 0; i < k; i++)
            EXPECT_EQ_LL(out[i], rows[r].p[i]);
    }
}

/* A worked example of the type 3/4 segment rule: L_max = 16 MiB, invented write-pass counts. */
static void test_segments(void)
{
    long long rep[MB_BIO_PATTERNS] = {0}, fill = -1, lseg;
    static const long long t0[8] = {0, 3, 0, 10, 8, 4, 8, 4}; /* patterns 1, 3..7 */
    static const long long t1[7] = {2, 5, 100, 300, 90, 250, 5};
    static const long long t2[7] = {3, 12, 400, 2000, 380, 1800, 11};
    static const long long want[7] = {3, 10, 256, 2000, 256, 1800, 10};

    for (int p = 1; p < 8; p++)
        rep[p] = t0[p];
    rep[8] = 10;
    for (int j = 0; j < 7; j++) {
        rep[10 + j] = t1[j];
        rep[18 + j] = t2[j];
    }
    lseg = mb_bio_segments(rep, 16LL << 20, &fill);
    for (int j = 0; j < 7; j++) {
        EXPECT_EQ_LL(rep[26 + j], want[j]);
        EXPECT_EQ_LL(rep[35 + j], want[j]);
    }
    EXPECT_EQ_LL(rep[25], 1);
    EXPECT_EQ_LL(rep[33], 1);
    EXPECT_EQ_LL(lseg, 89LL << 20);
    EXPECT_EQ_LL(fill, 286576);
}

/* An illustrative .sum block: write 36.003, read 32.440, 2.1 value 31.990 MB/s. */
static void test_values(void)
{
    const double w[5] = {48.068, 46.366, 22.924, 24.079, 26.510},
                 r[5] = {37.399, 20.602, 38.474, 38.965, 21.802}, rw[5] = {21.326, 0, 0, 0, 0};
    const double wv = mb_bio_access_value(w, 1), rv = mb_bio_access_value(r, 1);

    EXPECT(fabs(wv - 36.003) < 0.001);
    EXPECT(fabs(rv - 32.440) < 0.001);
    EXPECT(NEAR(mb_bio_access_value(rw, 0), 21.326));
    EXPECT(fabs(mb_bio_partition_value_21(w, 21.326, r) - 31.990) < 0.001);
    EXPECT(NEAR(mb_bio_partition_value(wv, 21.326, rv), 0.25 * wv + 0.25 * 21.326 + 0.5 * rv));
    EXPECT(NEAR(mb_bio_partition_value(100, 200, 400), 275.0));
}

/* The disk model of the write pass's budget and the space check: types 3 and 4 never write
 * more than the two extra copies of type 2 plus their fillers, whatever the counts. */
static void test_disk_model(void)
{
    const long long lmax = 2LL << 20;
    long long least = 2LL << 20;
    static const long long counts[3][3] = {{1, 1, 1}, {40, 3, 7}, {2, 900, 5}};

    EXPECT_EQ_LL(mb_bio_disk_per_rep(18, lmax), 3 * lmax); /* type 2, L_max */
    EXPECT_EQ_LL(mb_bio_disk_per_rep(1, lmax), lmax);      /* type 0, L_max */
    EXPECT_EQ_LL(mb_bio_disk_per_rep(26, lmax), 0);        /* type 3: counted with type 2 */
    for (int p = 0; p < 25; p++)
        least += mb_bio_disk_per_rep(p, lmax);
    EXPECT_EQ_LL(mb_bio_disk_least_from(0, lmax), least);
    EXPECT_EQ_LL(mb_bio_disk_least_from(25, lmax), 2LL << 20);
    EXPECT(mb_bio_units_from(0) == 44 && mb_bio_units_from(25) == 0);
    EXPECT(mb_bio_units_from(1) == 44 && mb_bio_units_from(17) == 10);
    for (int k = 0; k < 3; k++) {
        long long rep[MB_BIO_PATTERNS], fill, model = 0, seg34;
        for (int p = 0; p < MB_BIO_PATTERNS; p++)
            rep[p] = counts[k][p < 9 ? 0 : p < 17 ? 1 : 2];
        seg34 = 2 * mb_bio_segments(rep, lmax, &fill);
        for (int p = 17; p < 25; p++)
            model += (mb_bio_disk_per_rep(p, lmax) - mb_bio_call(p, lmax, 0)) * rep[p];
        EXPECT(seg34 <= model + (2LL << 20));
    }
}

int main(void)
{
    test_table();
    test_lmax_and_time();
    test_partitions();
    test_segments();
    test_values();
    test_disk_model();
    return unit_report("test_beffio");
}
