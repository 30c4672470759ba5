/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff's pure logic as the b_eff 3.6 source computes it: sizes, ring partitions and labels
 * (with worked examples), random and worst orders, Cartesian process counts, pong removal, the
 * loop-length rules (the b_eff paper §3 and b_eff 3.6's) and the aggregation (b_eff paper §3) on
 * synthetic numbers. MPI is initialised only for MPI_Dims_create. */
#include "beff/beff.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static void test_sizes(void)
{
    static const struct {
        long mem;
        long long s[8];
    } rows[] = {
        {128, {8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576}},
        {256, {8933, 19484, 42495, 92682, 202141, 440872, 961548, 2097152}},
        {512, {9742, 23170, 55109, 131072, 311744, 741455, 1763488, 4194304}},
        {1024, {10624, 27554, 71468, 185364, 480774, 1246974, 3234251, 8388608}},
        {2048, {11585, 32768, 92682, 262144, 741455, 2097152, 5931642, 16777216}},
        {16384, {15024, 55109, 202141, 741455, 2719670, 9975792, 36591368, 134217728}},
        {100000, {15024, 55109, 202141, 741455, 2719670, 9975792, 36591368, 134217728}},
    };
    long long s[MB_BEFF_SIZES];

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        double f = mb_beff_sizes(rows[r].mem, s);
        for (int k = 0; k <= 12; k++)
            EXPECT_EQ_LL(s[k], 1LL << k);
        for (int k = 0; k < 8; k++)
            EXPECT_EQ_LL(s[13 + k], rows[r].s[k]);
        EXPECT_EQ_LL(mb_beff_lmax(rows[r].mem), rows[r].s[7]);
        EXPECT(f >= 2.0 - 1e-12);
    }
    /* 1 MB per process: L_max = 8 kB, the geometric steps still grow. */
    mb_beff_sizes(1, s);
    EXPECT_EQ_LL(s[20], 8192);
    for (int k = 1; k < MB_BEFF_SIZES; k++)
        EXPECT(s[k] > s[k - 1]);
    EXPECT_EQ_LL(mb_beff_buffer_bytes(1), 6 * (8192 + 16));
}

struct ring_case {
    int n, standard;
    const char *label;
    int count1, size1, count2, size2;
};

static void test_rings(void)
{
    static const struct ring_case cases[] = {
        {2, 2, "ring-1*2fix", 1, 2, 0, 0},      {3, 2, "ring-1*3fix", 1, 3, 0, 0},
        {5, 2, "ring-2*2&+1", 1, 2, 1, 3},      {5, 4, "ring-1*5fix", 1, 5, 0, 0},
        {7, 2, "ring-3*2&+1", 2, 2, 1, 3},      {7, 4, "ring-2*4&-1", 1, 4, 1, 3},
        {7, 8, "ring-1*7fix", 1, 7, 0, 0},      {10, 2, "ring-5*2fix", 5, 2, 0, 0},
        {10, 4, "ring-2*5fix", 2, 5, 0, 0},     {10, 8, "ring-1*10fix", 1, 10, 0, 0},
        {11, 4, "ring-3*4&-1", 2, 4, 1, 3},     {13, 2, "ring-6*2&+1", 5, 2, 1, 3},
        {13, 4, "ring-3*4&+1", 2, 4, 1, 5},     {13, 8, "ring-2*6&+1", 1, 6, 1, 7},
        {13, 13, "ring-1*13fix", 1, 13, 0, 0},  {15, 8, "ring-2*8&-1", 1, 8, 1, 7},
        {29, 8, "ring-4*8&-1", 1, 8, 3, 7},     {33, 2, "ring-16*2&+1", 15, 2, 1, 3},
        {33, 4, "ring-8*4&+1", 7, 4, 1, 5},     {33, 8, "ring-4*8&+1", 3, 8, 1, 9},
        {33, 16, "ring-2*16&+1", 1, 16, 1, 17}, {33, 32, "ring-1*33fix", 1, 33, 0, 0},
        {100, 2, "ring-50*2fix", 50, 2, 0, 0},  {100, 4, "ring-25*4fix", 25, 4, 0, 0},
        {100, 8, "ring-12*8&+1", 8, 8, 4, 9},   {100, 25, "ring-4*25fix", 4, 25, 0, 0},
        {100, 50, "ring-2*50fix", 2, 50, 0, 0}, {100, 100, "ring-1*100fix", 1, 100, 0, 0},
    };
    /* The standard sizes with clipping: N = 13 -> 2, 4, 8, 13 (16 clipped), 13, 13. */
    const int std13[6] = {2, 4, 8, 13, 13, 13}, std100[6] = {2, 4, 8, 25, 50, 100};
    struct mb_beff_ring r;
    int next, prev;

    for (int i = 0; i < 6; i++) {
        EXPECT_EQ_LL(mb_beff_ring_standard(13, i), std13[i]);
        EXPECT_EQ_LL(mb_beff_ring_standard(100, i), std100[i]);
        EXPECT_EQ_LL(mb_beff_ring_standard(2, i), 2);
    }
    EXPECT_EQ_LL(mb_beff_ring_standard(33, 3), 16);
    EXPECT_EQ_LL(mb_beff_ring_standard(33, 4), 32);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct ring_case *c = &cases[i];
        mb_beff_ring_layout(c->n, c->standard, &r);
        EXPECT_STR_CONTAINS(r.label, c->label);
        EXPECT_EQ_LL(strlen(r.label), strlen(c->label));
        EXPECT_EQ_LL(r.count1, c->count1);
        EXPECT_EQ_LL(r.size1, c->size1);
        EXPECT_EQ_LL(r.count2, c->count2);
        if (c->count2)
            EXPECT_EQ_LL(r.size2, c->size2);
        EXPECT_EQ_LL(r.count1 * r.size1 + r.count2 * r.size2, c->n);
    }
    /* Ring partition example, N = 7, s = 2: rings {0,1}, {2,3}, {4,5,6}. */
    mb_beff_ring_layout(7, 2, &r);
    mb_beff_ring_neighbours(&r, 0, &next, &prev);
    EXPECT(next == 1 && prev == 1);
    mb_beff_ring_neighbours(&r, 3, &next, &prev);
    EXPECT(next == 2 && prev == 2);
    mb_beff_ring_neighbours(&r, 4, &next, &prev);
    EXPECT(next == 5 && prev == 6);
    mb_beff_ring_neighbours(&r, 6, &next, &prev);
    EXPECT(next == 4 && prev == 5);
    /* N = 7, s = 4: rings {0..3} and {4,5,6}. */
    mb_beff_ring_layout(7, 4, &r);
    mb_beff_ring_neighbours(&r, 3, &next, &prev);
    EXPECT(next == 0 && prev == 2);
    mb_beff_ring_neighbours(&r, 4, &next, &prev);
    EXPECT(next == 5 && prev == 6);
    /* One process: a ring of itself. */
    mb_beff_ring_layout(1, 1, &r);
    mb_beff_ring_neighbours(&r, 0, &next, &prev);
    EXPECT(next == 0 && prev == 0 && r.rings == 1);
}

static int is_permutation(const int *pos, int n)
{
    int ok = 1;
    char *seen = calloc((size_t)n, 1);
    for (int j = 0; j < n; j++) {
        if (pos[j] < 0 || pos[j] >= n || seen[pos[j]])
            ok = 0;
        else
            seen[pos[j]] = 1;
    }
    free(seen);
    return ok;
}

static void test_orders(void)
{
    const int sizes[] = {1, 2, 5, 100, 1000};
    int a[1000], b[1000], w[8];
    unsigned short s1[3], s2[3];

    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int n = sizes[i];
        mb_beff_seed_state(12345, s1);
        for (int rep = 0; rep < 30; rep++) {
            mb_beff_random_order(n, s1, a);
            EXPECT(is_permutation(a, n));
        }
    }
    /* Reproducible with the same seed, different with another; the stream continues. */
    mb_beff_seed_state(42, s1);
    mb_beff_seed_state(42, s2);
    mb_beff_random_order(100, s1, a);
    mb_beff_random_order(100, s2, b);
    EXPECT(memcmp(a, b, sizeof(int) * 100) == 0);
    mb_beff_random_order(100, s2, b);
    EXPECT(memcmp(a, b, sizeof(int) * 100) != 0);
    mb_beff_seed_state(43, s2);
    mb_beff_random_order(100, s2, b);
    EXPECT(memcmp(a, b, sizeof(int) * 100) != 0);
    /* srand48(0) then drand48() gives 0.170828036106...: the same first position for N = 1000. */
    mb_beff_seed_state(0, s1);
    mb_beff_random_order(1000, s1, a);
    EXPECT_EQ_LL(a[170], 0);

    mb_beff_worst_order(8, w);
    {
        const int want[8] = {0, 7, 1, 6, 2, 5, 3, 4};
        EXPECT(memcmp(w, want, sizeof want) == 0);
    }
}

static void test_cart(void)
{
    static const struct {
        int n, c2, c3;
    } rows[] = {{1, 1, 1}, {2, 2, 2}, {3, 3, 3},   {4, 4, 4},    {5, 4, 4},    {6, 6, 6},
                {7, 6, 6}, {8, 8, 8}, {10, 10, 8}, {13, 12, 12}, {33, 33, 32}, {100, 100, 100}};
    int dims[3];

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int c = mb_beff_cart_choose(rows[i].n, 2, dims);
        EXPECT_EQ_LL(c, rows[i].c2);
        EXPECT_EQ_LL(dims[0] * dims[1], c);
        c = mb_beff_cart_choose(rows[i].n, 3, dims);
        EXPECT_EQ_LL(c, rows[i].c3);
        EXPECT_EQ_LL(dims[0] * dims[1] * dims[2], c);
    }
    mb_beff_cart_choose(8, 3, dims);
    EXPECT(dims[0] == 2 && dims[1] == 2 && dims[2] == 2);
    mb_beff_cart_choose(5, 2, dims);
    EXPECT(dims[0] == 2 && dims[1] == 2);
    mb_beff_cart_choose(100, 2, dims);
    EXPECT(dims[0] == 10 && dims[1] == 10);
}

static void test_pong_removal(void)
{
    struct mb_beff_pattern p;

    memset(&p, 0, sizeof p);
    p.nsteps = 2; /* ring of 2: next == prev */
    p.step[0] = (struct mb_beff_step){1, 1};
    p.step[1] = (struct mb_beff_step){1, 1};
    mb_beff_pong_removal(&p);
    EXPECT_EQ_LL(p.nsteps, 1);

    p.nsteps = 2; /* bi-section member: send only, then receive only */
    p.step[0] = (struct mb_beff_step){1, MPI_PROC_NULL};
    p.step[1] = (struct mb_beff_step){MPI_PROC_NULL, 1};
    mb_beff_pong_removal(&p);
    EXPECT_EQ_LL(p.nsteps, 2);

    p.nsteps = 6; /* 3-D: x of length 3, y of length 2, z of length 3 */
    p.step[0] = (struct mb_beff_step){1, 2};
    p.step[1] = (struct mb_beff_step){2, 1};
    p.step[2] = (struct mb_beff_step){3, 3};
    p.step[3] = (struct mb_beff_step){3, 3};
    p.step[4] = (struct mb_beff_step){6, 12};
    p.step[5] = (struct mb_beff_step){12, 6};
    mb_beff_pong_removal(&p);
    EXPECT_EQ_LL(p.nsteps, 5);
    EXPECT(p.step[2].dest == 3 && p.step[3].dest == 6 && p.step[4].dest == 12);
}

static void test_loop_rules(void)
{
    int maxloops;

    EXPECT_EQ_LL(mb_beff_loop_paper_first(1e-6, 300), 300);
    EXPECT_EQ_LL(mb_beff_loop_paper_first(1e-4, 300), 37);
    EXPECT_EQ_LL(mb_beff_loop_paper_first(1.0, 300), 1);
    EXPECT_EQ_LL(mb_beff_loop_paper_first(1e-4, 20), 20);
    /* Inside the 2.5-5 ms window nothing changes; outside, aim at 3.75 ms. */
    EXPECT_EQ_LL(mb_beff_loop_paper_next(100, 3e-3, 1.0, 300), 100);
    EXPECT_EQ_LL(mb_beff_loop_paper_next(100, 2e-3, 2.0, 300), 100);
    EXPECT_EQ_LL(mb_beff_loop_paper_next(100, 4e-3, 2.0, 300), 46);
    EXPECT_EQ_LL(mb_beff_loop_paper_next(100, 1e-3, 1.0, 300), 375 > 300 ? 300 : 375);
    EXPECT_EQ_LL(mb_beff_loop_paper_next(1, 1.0, 3.0, 300), 1);
    /* 3.6: maxloops = 10 * 0.5 / T_cal, at least 10; the first loop is half. */
    EXPECT_EQ_LL(mb_beff36_loop_first(0.5, 0.5, &maxloops), 5);
    EXPECT_EQ_LL(maxloops, 10);
    EXPECT_EQ_LL(mb_beff36_loop_first(0.01, 0.5, &maxloops), 250);
    EXPECT_EQ_LL(maxloops, 500);
    EXPECT_EQ_LL(mb_beff36_loop_next(250, 0.1, 2.0, 500, 0.5), 500);
    EXPECT_EQ_LL(mb_beff36_loop_next(250, 1.0, 2.0, 500, 0.5), 125);
    EXPECT_EQ_LL(mb_beff36_loop_next(1, 1.0, 4.0, 500, 0.5), 1);
    EXPECT_EQ_LL(mb_beff36_loop_next(7, 0.0, 4.0, 500, 0.5), 7);
    /* 60 s rule: 1 ms per iteration at size 18, 49 patterns, f = 2: 0.001*49*4*6*9 = 10.6 s. */
    EXPECT(!mb_beff36_shorten(1e-3, 1, 49, 3, 2.0, 60));
    EXPECT(mb_beff36_shorten(1e-2, 1, 49, 3, 2.0, 60));
    /* -D TEST values: 5 ms per size, 1 s rule. */
    EXPECT(
        mb_beff36_shorten(1e-3, 1, 49, 3, 2.0, mb_beff36_rules_of(MB_BEFF_V36_TEST).max_last_two));
    EXPECT(mb_beff36_rules_of(MB_BEFF_V36).timeperloop == 0.5);
}

/* A synthetic pattern set: 6 rings, 3 random rings, then the ping-pong pair. */
static void test_aggregation(void)
{
    struct mb_config cfg;
    struct mb_beff_patterns set;
    struct mb_beff_pattern pat[10];
    struct mb_beff_data d;
    struct mb_beff_analysis a;
    int errors = 0;
    const double ringv[6] = {100, 100, 100, 100, 100, 1}, rndv[3] = {10, 20, 40};

    struct mb_beff_config bc;

    memset(&cfg, 0, sizeof cfg);
    memset(&bc, 0, sizeof bc);
    bc.repetitions = 2;
    bc.memory_mb = 1;
    cfg.settings = &bc;
    memset(pat, 0, sizeof pat);
    memset(&set, 0, sizeof set);
    for (int p = 0; p < 10; p++)
        pat[p].role = p < 6 ? MB_BEFF_ROLE_RING : p < 9 ? MB_BEFF_ROLE_RANDOM : MB_BEFF_ROLE_INFO;
    set.p = pat;
    set.n = 10;
    set.first_info = 9;
    set.pingpong = 9;
    mb_beff_data_init(&d, &cfg, 10);
    /* Every size and method gets v / 2 in repetition 0 and v in repetition 1 with method 2
     * only: max over repetitions and methods must find v; avg over sizes keeps v. */
    for (int p = 0; p < 9; p++)
        for (int k = 0; k < MB_BEFF_SIZES; k++)
            for (int m = 0; m < MB_BEFF_METHODS; m++) {
                const double v = (p < 6 ? ringv[p] : rndv[p - 6]) * 1e6;
                d.b[mb_beff_at(&d, 0, p, k, m)] = v / 2;
                d.b[mb_beff_at(&d, 1, p, k, m)] = m == 2 ? v : v / 4;
            }
    for (int k = 0; k < MB_BEFF_SIZES; k++)
        d.b[mb_beff_at(&d, 1, 9, k, 0)] = 5e6 * (k + 1);
    mb_beff_analyse(&d, &set, 4, &a);
    EXPECT(fabs(a.B[0 * (MB_BEFF_SIZES + 1) + MB_BEFF_AVG] - 100e6) < 1e-3);
    /* Geometric mean: one weak ring (1) pulls the rings to 100^(5/6) = 46.4, where the
     * arithmetic mean would say 83.5. */
    EXPECT(fabs(a.geo[MB_BEFF_AVG].ring - pow(100, 5.0 / 6) * 1e6) < 1);
    EXPECT(fabs(a.geo[MB_BEFF_AVG].random - 20e6) < 1e-3);
    EXPECT(fabs(a.beff - sqrt(pow(100, 5.0 / 6) * 20) * 1e6) < 1);
    EXPECT(a.beff < a.geo[MB_BEFF_AVG].ring_max);
    EXPECT(fabs(a.geo[3].ring_min - 1e6) < 1e-6 && fabs(a.geo[3].random_max - 40e6) < 1e-6);
    /* Per method: method 2 has the full value, method 0 half of it. */
    EXPECT(fabs(a.geo_m[2][MB_BEFF_AVG].random - 20e6) < 1e-3);
    EXPECT(fabs(a.geo_m[0][MB_BEFF_AVG].random - 10e6) < 1e-3);
    /* Ping-pong: latency = L / b at 1 byte, bandwidth = b at L_max. */
    EXPECT(fabs(a.pp_latency - 1.0 / 5e6) < 1e-15);
    EXPECT(fabs(a.pp_bandwidth - 5e6 * 21) < 1e-6);
    EXPECT(fabs(a.latency - 4 / a.geo[0].final) < 1e-15);
    EXPECT_EQ_LL(a.logavg_errors, 0);
    mb_beff_analysis_free(&a);
    mb_beff_data_free(&d);

    {
        const double v[3] = {4, 0, 1};
        EXPECT(fabs(mb_beff_logavg(v + 2, 1, &errors) - 1) < 1e-15);
        EXPECT(fabs(mb_beff_logavg((const double[]){4, 16}, 2, &errors) - 8) < 1e-12);
        EXPECT_EQ_LL(errors, 0);
        EXPECT(mb_beff_logavg(v, 3, &errors) == 0);
        EXPECT_EQ_LL(errors, 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_sizes();
    test_rings();
    test_orders();
    test_cart();
    test_pong_removal();
    test_loop_rules();
    test_aggregation();
    MPI_Finalize();
    return unit_report("test_beff");
}
