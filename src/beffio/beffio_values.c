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

void mb_bio_evaluate(const struct mb_bio_config *b, struct mb_bio_data *d)
{
    d->best = 0;
    for (int i = 0; i < d->npart; i++) {
        struct mb_bio_partval *v = &d->pa[i];
        double bw[MB_BIO_ACCESSES][MB_BIO_TYPES];
        memset(v, 0, sizeof *v);
        v->n = b->partitions[i];
        v->tn = mb_bio_partition_seconds(b->T, d->npart);
        for (int a = 0; a < MB_BIO_ACCESSES; a++) {
            const struct mb_bio_accval *ac = &d->ac[i][a]; /* value: set by the driver */
            for (int t = 0; t < MB_BIO_TYPES; t++)
                bw[a][t] = d->ty[i][a][t].bw;
            v->bytes += ac->bytes;
            v->t += ac->t;
            v->errors += ac->errors;
        }
        v->bw = v->t > 0 ? v->bytes / v->t : 0;
        v->value =
            mb_bio_partition_value(d->ac[i][MB_BIO_WRITE].value, d->ac[i][MB_BIO_REWRITE].value,
                                   d->ac[i][MB_BIO_READ].value);
        v->value21 = mb_bio_partition_value_21(bw[MB_BIO_WRITE], bw[MB_BIO_REWRITE][MB_BIO_SCATTER],
                                               bw[MB_BIO_READ]);
        v->valid = (double)v->tn >= MB_BIO_T_VALID && v->errors == 0 && !b->noshared && !b->adapt;
        if (v->value > d->pa[d->best].value)
            d->best = i;
    }
}
