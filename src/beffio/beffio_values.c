/* SPDX-License-Identifier: BSD-3-Clause */
/* The values b_eff_io reports (b_eff paper §4; b_eff_io 2.1's aggregation). Bandwidths in
 * bytes/s. */
#include "beffio/beffio.h"
#include "beffio/beffio_run.h"

#include <math.h>
#include <string.h>

double mb_bio_access_value(const double bw[MB_BIO_TYPES], int all_types)
{
    if (!all_types)
        return bw[MB_BIO_SCATTER];
    return (2 * bw[0] + bw[1] + bw[2] + bw[3] + bw[4]) / 6;
}

double mb_bio_partition_value(double write, double rewrite, double read)
{
    return 0.25 * write + 0.25 * rewrite + 0.5 * read;
}

double mb_bio_partition_value_21(const double write[MB_BIO_TYPES], double rewrite0,
                                 const double read[MB_BIO_TYPES])
{
    const double wr = (write[0] + write[1] + write[2] + write[3] + write[4] + rewrite0) / 6;
    const double rd = mb_bio_access_value(read, 1);
    return wr > 0 && rd > 0 ? sqrt(wr * rd) : 0;
}

/* ---- rank 0: the values of a finished run (b_eff_io 2.1 and the b_eff paper §4) ---------- */

void mb_bio_pass_wsum(const struct mb_bio_data *d, int i, int a, double *wsum, double *usum)
{
    const int n = d->pa[i].n;

    *wsum = *usum = 0;
    for (int p = 0; p < MB_BIO_PATTERNS; p++) {
        const struct mb_bio_meas *m = &d->m[i][a][p];
        if (m->ran && mb_bio_table[p].U > 0 && m->t > 0) {
            *wsum += mb_bio_table[p].U * mb_bio_meas_bw(m, n);
            *usum += mb_bio_table[p].U;
        }
    }
}

void mb_bio_evaluate(const struct mb_bio_config *b, struct mb_bio_data *d)
{
    const double t_valid = b->weighted ? MB_BIO_T_VALID_WEIGHTED : MB_BIO_T_VALID_21;

    d->best = d->best_other = 0;
    for (int i = 0; i < d->npart; i++) {
        struct mb_bio_partval *v = &d->pa[i];
        double bw[MB_BIO_ACCESSES][MB_BIO_TYPES], wsum = 0, usum = 0;
        memset(v, 0, sizeof *v);
        v->n = b->partitions[i];
        v->tn = mb_bio_partition_seconds(b->T, d->npart);
        for (int a = 0; a < MB_BIO_ACCESSES; a++) {
            const struct mb_bio_accval *ac = &d->ac[i][a]; /* value: set by the driver */
            double ws, us;
            for (int t = 0; t < MB_BIO_TYPES; t++)
                bw[a][t] = d->ty[i][a][t].bw;
            v->bytes += ac->bytes;
            v->t += ac->t;
            v->errors += ac->errors;
            mb_bio_pass_wsum(d, i, a, &ws, &us);
            wsum += ws;
            usum += us;
        }
        v->bw = v->t > 0 ? v->bytes / v->t : 0;
        v->wbw = usum > 0 ? wsum / usum : 0;
        v->weighted =
            mb_bio_partition_value(d->ac[i][MB_BIO_WRITE].value, d->ac[i][MB_BIO_REWRITE].value,
                                   d->ac[i][MB_BIO_READ].value);
        v->value21 = mb_bio_partition_value_21(bw[MB_BIO_WRITE], bw[MB_BIO_REWRITE][MB_BIO_SCATTER],
                                               bw[MB_BIO_READ]);
        v->value = b->weighted ? v->weighted : v->value21;
        v->crit_time = (double)v->tn >= t_valid;
        v->crit_shared = !b->noshared;
        v->crit_errors = v->errors == 0;
        v->crit_adapt = !b->adapt;
        v->valid = v->crit_time && v->crit_shared && v->crit_errors && v->crit_adapt;
        /* The first of equal values, as b_eff_io 2.1's strict ">" keeps it. */
        if (v->value > d->pa[d->best].value)
            d->best = i;
        if ((b->weighted ? v->value21 : v->weighted) >
            (b->weighted ? d->pa[d->best_other].value21 : d->pa[d->best_other].weighted))
            d->best_other = i;
    }
}
