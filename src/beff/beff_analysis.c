/* SPDX-License-Identifier: BSD-3-Clause */
/* The aggregation of b_eff (b_eff paper §3):
 *   b_eff = logavg( logavg_rings(avg_L(max_mthd(max_rep b))), logavg_random(same) )
 * plus the informational paths (per method, per repetition, as the b_eff 3.6 source prints them)
 * and the figures of the b_eff paper's Table 1. Pure computation on the measured data; rank 0
 * only. */
#include "beff/beff.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mb_beff_logavg(const double *v, int n, int *errors)
{
    /* b_eff paper §3 and the b_eff web page on the averaging method: the geometric mean lets the
     * weakest pattern count. */
    double s = 0;

    if (n <= 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0)) {
            (*errors)++;
            return 0;
        }
        s += log(v[i]);
    }
    return exp(s / n);
}

/* Geometric means over the ring and the random patterns of val[p * stride]. */
static struct mb_beff_geo geo_of(const struct mb_beff_patterns *set, const double *val,
                                 size_t stride, int *errors)
{
    struct mb_beff_geo g = {0, 0, 0, HUGE_VAL, 0, HUGE_VAL, 0};
    double *ring = mb_xmalloc((size_t)set->n * sizeof *ring);
    double *rnd = mb_xmalloc((size_t)set->n * sizeof *rnd);
    int nr = 0, nx = 0;

    for (int p = 0; p < set->n; p++) {
        const double v = val[(size_t)p * stride];
        if (set->p[p].role == MB_BEFF_ROLE_RING) {
            ring[nr++] = v;
            g.ring_min = fmin(g.ring_min, v);
            g.ring_max = fmax(g.ring_max, v);
        } else if (set->p[p].role == MB_BEFF_ROLE_RANDOM) {
            rnd[nx++] = v;
            g.random_min = fmin(g.random_min, v);
            g.random_max = fmax(g.random_max, v);
        }
    }
    g.ring = mb_beff_logavg(ring, nr, errors);
    g.random = mb_beff_logavg(rnd, nx, errors);
    g.final = sqrt(g.ring * g.random);
    if (nr == 0)
        g.ring_min = 0;
    if (nx == 0)
        g.random_min = 0;
    free(ring);
    free(rnd);
    return g;
}

/* Fills row[0..20] and row[21] = average over the sizes. */
static void finish_row(double *row)
{
    double s = 0;
    for (int k = 0; k < MB_BEFF_SIZES; k++)
        s += row[k];
    row[MB_BEFF_AVG] = s / MB_BEFF_SIZES;
}

void mb_beff_analyse(const struct mb_beff_data *d, const struct mb_beff_patterns *set, int nprocs,
                     struct mb_beff_analysis *a)
{
    const size_t W = MB_BEFF_SIZES + 1;
    const int np = d->npat, nr = d->nrep;
    double *best_m = mb_xcalloc((size_t)np, sizeof *best_m);
    double *best_r = mb_xcalloc((size_t)np, sizeof *best_r);

    memset(a, 0, sizeof *a);
    a->npat = np;
    a->nrep = nr;
    a->B = mb_xcalloc((size_t)np * W, sizeof *a->B);
    a->Bm = mb_xcalloc((size_t)np * MB_BEFF_METHODS * W, sizeof *a->Bm);
    a->Br = mb_xcalloc((size_t)np * (size_t)nr * W, sizeof *a->Br);
    a->geo_r = mb_xcalloc((size_t)nr * W, sizeof *a->geo_r);

    for (int p = 0; p < np; p++) {
        double *B = a->B + (size_t)p * W;
        for (int k = 0; k < MB_BEFF_SIZES; k++)
            for (int r = 0; r < nr; r++)
                for (int m = 0; m < MB_BEFF_METHODS; m++) {
                    const double b = d->b[mb_beff_at(d, r, p, k, m)];
                    double *bm = a->Bm + ((size_t)p * MB_BEFF_METHODS + (size_t)m) * W + k;
                    double *br = a->Br + ((size_t)p * (size_t)nr + (size_t)r) * W + k;
                    B[k] = fmax(B[k], b);
                    *bm = fmax(*bm, b);
                    *br = fmax(*br, b);
                }
        finish_row(B);
        for (int m = 0; m < MB_BEFF_METHODS; m++) {
            finish_row(a->Bm + ((size_t)p * MB_BEFF_METHODS + (size_t)m) * W);
            best_m[p] =
                fmax(best_m[p], a->Bm[((size_t)p * MB_BEFF_METHODS + (size_t)m) * W + MB_BEFF_AVG]);
        }
        for (int r = 0; r < nr; r++) {
            finish_row(a->Br + ((size_t)p * (size_t)nr + (size_t)r) * W);
            best_r[p] =
                fmax(best_r[p], a->Br[((size_t)p * (size_t)nr + (size_t)r) * W + MB_BEFF_AVG]);
        }
    }
    for (size_t k = 0; k < W; k++) {
        a->geo[k] = geo_of(set, a->B + k, W, &a->logavg_errors);
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            a->geo_m[m][k] =
                geo_of(set, a->Bm + (size_t)m * W + k, MB_BEFF_METHODS * W, &a->logavg_errors);
        for (int r = 0; r < nr; r++)
            a->geo_r[(size_t)r * W + k] =
                geo_of(set, a->Br + (size_t)r * W + k, (size_t)nr * W, &a->logavg_errors);
    }
    a->geo_best_m = geo_of(set, best_m, 1, &a->logavg_errors);
    a->geo_best_r = geo_of(set, best_r, 1, &a->logavg_errors);

    a->beff = a->geo[MB_BEFF_AVG].final;
    a->beff_lmax = a->geo[MB_BEFF_SIZES - 1].final;
    a->ring_lmax = a->geo[MB_BEFF_SIZES - 1].ring;
    /* As b_eff 3.6: latency = 1 / (bandwidth per process at L = 1 byte). */
    a->latency = a->geo[0].final > 0 ? nprocs / a->geo[0].final : 0;
    a->latency_ring = a->geo[0].ring > 0 ? nprocs / a->geo[0].ring : 0;
    /* Ping-pong pair, Sendrecv: b = 2 L n / t, so the half round trip t/(2n) is L / b. */
    {
        const double *pp = a->Bm + (size_t)set->pingpong * MB_BEFF_METHODS * W;
        a->pp_latency = pp[0] > 0 ? (double)d->len[0] / pp[0] : 0;
        a->pp_bandwidth = pp[MB_BEFF_SIZES - 1];
    }
    free(best_m);
    free(best_r);
}

void mb_beff_analysis_free(struct mb_beff_analysis *a)
{
    free(a->B);
    free(a->Bm);
    free(a->Br);
    free(a->geo_r);
    memset(a, 0, sizeof *a);
}
