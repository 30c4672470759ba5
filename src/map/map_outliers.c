/* SPDX-License-Identifier: BSD-3-Clause */
/* Which hosts and links fall below the rest by more than the run's own spread
 * (docs/adr/node-map.md). Figures are compared as logarithms, "worse" upwards: ln(latency),
 * -ln(bandwidth). The run's spread s is the median over all links of ln(Q3 / Q1) of the link's
 * own samples - how far the same measurement moved within this run; a host or link is named
 * when it is worse than the median by more than 3 s and by more than the factor F
 * (--outlier-factor, default 2): links measured in different rounds differ by more than the
 * samples of one link do (40 % between the namespace hosts of the test tier, under 2 % within
 * a link), and a fault worth a search (a link trained at half speed, TCP instead of the fast
 * network) costs at least a factor 2.
 *
 * A host: the median of its links' figures, against the median host's; and every one of its
 * links worse than every link between other hosts (a slow host slows all of its links; noise
 * does not order them so). Needs 3 hosts: of 2, a slow link cannot be told from a slow host.
 * A link: its figure against the median link, when neither of its hosts was named (a named
 * host explains its own links). */
#include "map/map.h"

#include "core/error.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPREAD_TIMES 3.0

/* The figure of the ordered pair (a, b), worse upwards; what: 0 latency, 1 bandwidth. */
static double worse(const struct mb_map_matrix *m, int what, int a, int b)
{
    const double v = what == 0 ? m->lat[a * m->h + b] : m->bw[a * m->h + b];
    return v > 0 ? (what == 0 ? log(v) : -log(v)) : 0;
}

/* The entries of a figure: latency once per host pair (a < b), bandwidth per direction. */
static int entry(int what, int a, int b)
{
    return a != b && (what == 1 || a < b);
}

static void hosts_of(const struct mb_map_matrix *m, int what, double threshold, double *score,
                     double *x, int *bad, double *scratch)
{
    const int h = m->h;
    double mid;

    for (int i = 0; i < h; i++) {
        int n = 0;
        for (int j = 0; j < h; j++)
            if (j != i) {
                scratch[n++] = worse(m, what, i, j);
                if (what == 1)
                    scratch[n++] = worse(m, what, j, i);
            }
        score[i] = mb_median(scratch, (size_t)n);
    }
    memcpy(scratch, score, (size_t)h * sizeof *score);
    mid = mb_median(scratch, (size_t)h);
    for (int i = 0; i < h; i++) {
        double mine = INFINITY, others = -INFINITY;
        x[i] = what == 0 ? exp(score[i] - mid) : exp(mid - score[i]);
        if (h < 3 || score[i] - mid <= threshold)
            continue;
        for (int a = 0; a < h; a++)
            for (int b = 0; b < h; b++) {
                if (!entry(what, a, b))
                    continue;
                const double v = worse(m, what, a, b);
                if (a == i || b == i)
                    mine = v < mine ? v : mine;
                else
                    others = v > others ? v : others;
            }
        if (mine > others)
            bad[i] |= 1 << what;
    }
}

static void links_of(const struct mb_map_matrix *m, int what, struct mb_map_outliers *o,
                     double *scratch)
{
    const int h = m->h;
    int n = 0;
    double mid;

    for (int a = 0; a < h; a++)
        for (int b = 0; b < h; b++)
            if (entry(what, a, b))
                scratch[n++] = worse(m, what, a, b);
    mid = mb_median(scratch, (size_t)n);
    for (int a = 0; a < h; a++)
        for (int b = 0; b < h; b++) {
            if (!entry(what, a, b) || (o->host_bad[a] | o->host_bad[b]) & (1 << what))
                continue;
            const double v = worse(m, what, a, b);
            if (v - mid <= o->threshold)
                continue;
            o->link_a[o->nlinks_bad] = a;
            o->link_b[o->nlinks_bad] = b;
            o->link_what[o->nlinks_bad] = what + 1;
            o->link_x[o->nlinks_bad] = what == 0 ? exp(v - mid) : exp(mid - v);
            o->nlinks_bad++;
        }
}

void mb_map_outliers_find(const struct mb_map_matrix *m, double factor, struct mb_map_outliers *o)
{
    const int h = m->h;
    const size_t cells = (size_t)h * (size_t)h;
    double *scratch = mb_xmalloc(2 * cells * sizeof *scratch + 16);
    double *score = mb_xmalloc((size_t)h * sizeof *score);
    int n = 0;

    memset(o, 0, sizeof *o);
    for (int a = 0; a < h; a++)
        for (int b = 0; b < h; b++) {
            if (entry(0, a, b))
                scratch[n++] = m->lat_spread[a * h + b];
            if (entry(1, a, b))
                scratch[n++] = m->bw_spread[a * h + b];
        }
    o->spread = mb_median(scratch, (size_t)n);
    o->threshold = SPREAD_TIMES * o->spread > log(factor) ? SPREAD_TIMES * o->spread : log(factor);
    o->host_bad = mb_xcalloc((size_t)h, sizeof *o->host_bad);
    o->host_lat_x = mb_xmalloc((size_t)h * sizeof *o->host_lat_x);
    o->host_bw_x = mb_xmalloc((size_t)h * sizeof *o->host_bw_x);
    hosts_of(m, 0, o->threshold, score, o->host_lat_x, o->host_bad, scratch);
    hosts_of(m, 1, o->threshold, score, o->host_bw_x, o->host_bad, scratch);
    for (int i = 0; i < h; i++)
        o->nhosts_bad += o->host_bad[i] != 0;
    o->link_a = mb_xmalloc((2 * cells + 1) * sizeof *o->link_a);
    o->link_b = mb_xmalloc((2 * cells + 1) * sizeof *o->link_b);
    o->link_what = mb_xmalloc((2 * cells + 1) * sizeof *o->link_what);
    o->link_x = mb_xmalloc((2 * cells + 1) * sizeof *o->link_x);
    links_of(m, 0, o, scratch);
    links_of(m, 1, o, scratch);
    free(scratch);
    free(score);
}

void mb_map_outliers_free(struct mb_map_outliers *o)
{
    free(o->host_bad);
    free(o->host_lat_x);
    free(o->host_bw_x);
    free(o->link_a);
    free(o->link_b);
    free(o->link_what);
    free(o->link_x);
    memset(o, 0, sizeof *o);
}
