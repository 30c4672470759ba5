/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench map's pure parts: the round-robin schedule (every pair once, every host in at most
 * one pair per round) and the outlier rule on made-up matrices (docs/adr/node-map.md); also
 * which environment variables the header reports and masks (core/mpi_env.h). */
#include "core/mpi_env.h"
#include "map/map.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void schedule(int h)
{
    int *met = calloc((size_t)(h * h), sizeof *met), pairs = 0;

    for (int r = 0; r < mb_map_rounds(h); r++) {
        int *busy = calloc((size_t)h, sizeof *busy);
        for (int i = 0; i < h / 2 + h % 2; i++) {
            int a, b;
            mb_map_pair(h, r, i, &a, &b);
            if (a < 0)
                continue;
            EXPECT(0 <= a && a < b && b < h);
            EXPECT(!busy[a] && !busy[b]);
            busy[a] = busy[b] = 1;
            met[a * h + b]++;
            pairs++;
        }
        free(busy);
    }
    EXPECT_EQ_LL(pairs, h * (h - 1) / 2);
    for (int a = 0; a < h; a++)
        for (int b = a + 1; b < h; b++)
            EXPECT_EQ_LL(met[a * h + b], 1);
    free(met);
}

/* A matrix of h hosts: latency lat and bandwidth bw everywhere, samples' spread 1 %. */
static struct mb_map_matrix matrix(int h, double lat, double bw)
{
    struct mb_map_matrix m = {h, NULL, NULL, NULL, NULL};
    const size_t n = (size_t)(h * h);

    m.lat = malloc(n * sizeof *m.lat);
    m.bw = malloc(n * sizeof *m.bw);
    m.lat_spread = malloc(n * sizeof *m.lat_spread);
    m.bw_spread = malloc(n * sizeof *m.bw_spread);
    for (size_t i = 0; i < n; i++) {
        m.lat[i] = lat;
        m.bw[i] = bw;
        m.lat_spread[i] = m.bw_spread[i] = log(1.01);
    }
    return m;
}

static void matrix_free(struct mb_map_matrix *m)
{
    free(m->lat);
    free(m->bw);
    free(m->lat_spread);
    free(m->bw_spread);
}

/* Host s's links slowed: latency x f, bandwidth / f. */
static void slow_host(struct mb_map_matrix *m, int s, double f)
{
    for (int k = 0; k < m->h; k++)
        if (k != s) {
            m->lat[s * m->h + k] *= f;
            m->lat[k * m->h + s] *= f;
            m->bw[s * m->h + k] /= f;
            m->bw[k * m->h + s] /= f;
        }
}

static void outliers(void)
{
    struct mb_map_outliers o;
    struct mb_map_matrix m = matrix(3, 10, 1000);

    /* As the test tier's links are: one pair 1.4x slower than the others - below the factor. */
    m.lat[1 * 3 + 2] = m.lat[2 * 3 + 1] = 14;
    m.bw[1 * 3 + 2] = m.bw[2 * 3 + 1] = 700;
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 0);
    EXPECT_EQ_LL(o.nlinks_bad, 0);
    mb_map_outliers_free(&o);
    matrix_free(&m);

    /* One host's links 200x slower in bandwidth, latency as it was (a rate limit): that host,
     * for bandwidth, and no link. */
    m = matrix(3, 10, 1000);
    for (int k = 0; k < 3; k++)
        if (k != 1)
            m.bw[1 * 3 + k] = m.bw[k * 3 + 1] = 5;
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 1);
    EXPECT_EQ_LL(o.host_bad[1], 2);
    EXPECT_EQ_LL(o.nlinks_bad, 0);
    EXPECT(o.host_bw_x[1] < 0.1 && fabs(o.host_bw_x[0] - 1) < 1e-9);
    mb_map_outliers_free(&o);
    matrix_free(&m);

    /* 8 hosts, host 5 three times slower both ways: host 5 alone. */
    m = matrix(8, 10, 1000);
    slow_host(&m, 5, 3);
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 1);
    EXPECT_EQ_LL(o.host_bad[5], 3);
    EXPECT_EQ_LL(o.nlinks_bad, 0);
    mb_map_outliers_free(&o);
    /* ... but not beyond --outlier-factor 4. */
    mb_map_outliers_find(&m, 4.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 0);
    mb_map_outliers_free(&o);
    matrix_free(&m);

    /* 6 hosts, one link (2 - 4) slow one way: that directed link, no host. */
    m = matrix(6, 10, 1000);
    m.bw[2 * 6 + 4] = 100;
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 0);
    EXPECT_EQ_LL(o.nlinks_bad, 1);
    EXPECT(o.link_a[0] == 2 && o.link_b[0] == 4 && o.link_what[0] == 2);
    mb_map_outliers_free(&o);

    /* Noisy samples (spread 50 %): a 3x slower link is within 3 x the spread. */
    for (int i = 0; i < 36; i++)
        m.lat_spread[i] = m.bw_spread[i] = log(1.5);
    m.bw[2 * 6 + 4] = 330;
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nlinks_bad, 0);
    EXPECT(fabs(o.threshold - 3 * log(1.5)) < 1e-9);
    mb_map_outliers_free(&o);
    matrix_free(&m);

    /* Two hosts: no host can be named. */
    m = matrix(2, 10, 1000);
    slow_host(&m, 1, 10);
    mb_map_outliers_find(&m, 2.0, &o);
    EXPECT_EQ_LL(o.nhosts_bad, 0);
    mb_map_outliers_free(&o);
    matrix_free(&m);
}

static void environment(void)
{
    EXPECT(mb_mpi_env_reported("OMPI_MCA_btl"));
    EXPECT(mb_mpi_env_reported("UCX_TLS"));
    EXPECT(mb_mpi_env_reported("MPIR_CVAR_CH4_NETMOD"));
    EXPECT(mb_mpi_env_reported("FI_PROVIDER"));
    EXPECT(!mb_mpi_env_reported("OMPI_MCA_orte_hnp_uri"));
    EXPECT(!mb_mpi_env_reported("OMPI_MCA_ess_base_jobid"));
    EXPECT(!mb_mpi_env_reported("PATH"));
    EXPECT(!mb_mpi_env_reported("OMPI_COMM_WORLD_RANK"));
    EXPECT(mb_mpi_env_masked("UCX_IB_TOKEN"));
    EXPECT(mb_mpi_env_masked("FI_CXI_AUTH_KEY"));
    EXPECT(!mb_mpi_env_masked("UCX_TLS"));
}

int main(void)
{
    for (int h = 2; h <= 9; h++)
        schedule(h);
    schedule(64);
    outliers();
    environment();
    return unit_report("test_map");
}
