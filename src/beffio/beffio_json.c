/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io JSON records (schema docs/results.schema.json): one beffio_pattern per
 * pattern as it ends, one beffio_type per type as its file closes, one beffio_result. Byte
 * counts are of all processes of the partition; bandwidths in MB/s = 1e6 bytes/s. */
#include "beffio/beffio_run.h"
#include "core/report_json.h"
#include "core/samples.h"

void mb_bio_json_pattern(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                         int p)
{
    const struct mb_bio_meas *m = &d->m[i][a][p];
    const int n = r->b->partitions[i];
    const double bytes = mb_bio_meas_bytes(m, n);
    struct mb_jobj o;

    if (!r->ctx->json)
        return;
    mb_jobj_begin(&o, "beffio_pattern", r->ctx->json);
    mb_jobj_int(&o, "partition", i);
    mb_jobj_int(&o, "processes", n);
    mb_jobj_str(&o, "access", mb_bio_access_name[a]);
    mb_jobj_int(&o, "pattern", p);
    mb_jobj_str(&o, "pattern_type", mb_bio_type_name[mb_bio_table[p].type]);
    mb_jobj_int(&o, "position", mb_bio_table[p].pos);
    mb_jobj_int(&o, "time_units", mb_bio_table[p].U);
    mb_jobj_int(&o, "chunk_bytes", m->l);
    mb_jobj_int(&o, "call_bytes", m->L);
    mb_jobj_int(&o, "repetitions", m->reps);
    mb_jobj_num(&o, "scheduled_sec", m->tp);
    mb_jobj_num(&o, "bytes", bytes);
    mb_jobj_num(&o, "time_sec", m->t);
    mb_jobj_num(&o, "barrier_sec", m->t_barrier);
    mb_jobj_num(&o, "bcast_sec", m->t_bcast);
    mb_jobj_num(&o, "sync_sec", m->t_sync);
    mb_jobj_num(&o, "last_call_sec", m->t_last_io);
    mb_jobj_num(&o, "mb_per_sec", mb_bio_meas_bw(m, n) / 1e6);
    mb_jobj_int(&o, "errors", m->errors);
    mb_jobj_bool(&o, "disk_budget_stop", m->disk_stop);
    mb_jobj_sample_count(&o, 1); /* one time-driven pass (docs/adr/samples.md) */
    mb_jobj_write(&o, r->ctx->json);
}

void mb_bio_json_type(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                      int type)
{
    const struct mb_bio_typeval *v = &d->ty[i][a][type];
    struct mb_jobj o;

    if (!r->ctx->json)
        return;
    mb_jobj_begin(&o, "beffio_type", r->ctx->json);
    mb_jobj_int(&o, "partition", i);
    mb_jobj_int(&o, "processes", r->b->partitions[i]);
    mb_jobj_str(&o, "access", mb_bio_access_name[a]);
    mb_jobj_str(&o, "pattern_type", mb_bio_type_name[type]);
    mb_jobj_num(&o, "bytes", v->bytes);
    mb_jobj_num(&o, "time_sec", v->t);
    mb_jobj_num(&o, "open_sec", v->t_open);
    mb_jobj_num(&o, "close_sec", v->t_close);
    mb_jobj_num(&o, "mb_per_sec", v->bw / 1e6);
    mb_jobj_num(&o, "weighted_mb_per_sec", v->wbw / 1e6);
    if (type >= MB_BIO_SEGMENTED)
        mb_jobj_int(&o, "segment_bytes", v->lseg);
    mb_jobj_sample_count(&o, 1); /* one time-driven pass (docs/adr/samples.md) */
    mb_jobj_write(&o, r->ctx->json);
}

void mb_bio_json_result(const struct mb_bio_run *r, const struct mb_bio_data *d)
{
    const struct mb_bio_partval *best = &d->pa[d->best];
    struct mb_jobj o;

    if (!r->ctx->json)
        return;
    for (int i = 0; i < d->npart; i++) {
        const struct mb_bio_partval *v = &d->pa[i];
        double acc[MB_BIO_ACCESSES], t[MB_BIO_ACCESSES];
        for (int a = 0; a < MB_BIO_ACCESSES; a++) {
            acc[a] = d->ac[i][a].value / 1e6;
            t[a] = d->ac[i][a].t;
        }
        mb_jobj_begin(&o, "beffio_partition", r->ctx->json);
        mb_jobj_int(&o, "partition", i);
        mb_jobj_int(&o, "processes", v->n);
        mb_jobj_int(&o, "scheduled_sec", v->tn);
        mb_jarray_nums(&o, "access_mb_per_sec", acc, MB_BIO_ACCESSES, 1, 1.0);
        mb_jarray_nums(&o, "access_time_sec", t, MB_BIO_ACCESSES, 1, 1.0);
        mb_jobj_num(&o, "b_eff_io_mb_per_sec", v->value / 1e6);
        mb_jobj_num(&o, "release21_mb_per_sec", v->value21 / 1e6);
        mb_jobj_num(&o, "weighted_mb_per_sec", v->weighted / 1e6);
        mb_jobj_num(&o, "wbw_mb_per_sec", v->wbw / 1e6);
        mb_jobj_num(&o, "bytes", v->bytes);
        mb_jobj_num(&o, "time_sec", v->t);
        mb_jobj_int(&o, "errors", v->errors);
        mb_jobj_bool(&o, "valid", v->valid);
        mb_jobj_sample_count(&o, 1); /* one time-driven pass (docs/adr/samples.md) */
        mb_jobj_write(&o, r->ctx->json);
    }
    mb_jobj_begin(&o, "beffio_result", r->ctx->json);
    mb_jobj_str(&o, "definition", r->b->weighted ? "weighted" : "release21");
    mb_jobj_num(&o, "b_eff_io_mb_per_sec", best->value / 1e6);
    mb_jobj_int(&o, "processes", best->n);
    mb_jobj_int(&o, "partition", d->best);
    mb_jobj_int(&o, "scheduled_sec", best->tn);
    mb_jobj_int(&o, "memory_per_process_mib", r->b->memory_mb);
    mb_jobj_int(&o, "lmax_bytes", d->lmax);
    mb_jobj_num(&o, "total_time_sec", d->t_total);
    mb_jobj_int(&o, "errors", best->errors);
    mb_jobj_bool(&o, "valid", best->valid);
    /* Both definitions' maxima, each with its partition (the headline's is one of them). */
    {
        const struct mb_bio_partval *b21 = r->b->weighted ? &d->pa[d->best_other] : best;
        const struct mb_bio_partval *bw = r->b->weighted ? best : &d->pa[d->best_other];
        mb_jobj_num(&o, "release21_mb_per_sec", b21->value21 / 1e6);
        mb_jobj_int(&o, "release21_partition", r->b->weighted ? d->best_other : d->best);
        mb_jobj_num(&o, "weighted_mb_per_sec", bw->weighted / 1e6);
        mb_jobj_int(&o, "weighted_partition", r->b->weighted ? d->best : d->best_other);
    }
    mb_jobj_sample_count(&o, 1); /* one time-driven pass (docs/adr/samples.md) */
    mb_jobj_write(&o, r->ctx->json);
}
