/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff JSON records (schema docs/results.schema.json): one per pattern, one per
 * measurement (written and flushed as soon as it is taken), and one with the result. */
#include "beff/beff_report.h"

#include "core/report_json.h"
#include "core/samples.h"
#include "core/suite.h"

#include <stdlib.h>

static const char *role_name(enum mb_beff_role role)
{
    return role == MB_BEFF_ROLE_RING ? "ring" : role == MB_BEFF_ROLE_RANDOM ? "random" : "info";
}

void mb_beff_json_patterns(const struct mb_ctx *ctx, const struct mb_beff_patterns *set)
{
    if (!ctx->json)
        return;
    for (int p = 0; p < set->n; p++) {
        const struct mb_beff_pattern *q = &set->p[p];
        struct mb_jobj o;
        mb_jobj_begin(&o, "beff_pattern", ctx->json);
        mb_jobj_int(&o, "pattern", p);
        mb_jobj_str(&o, "label", q->label);
        mb_jobj_str(&o, "role", role_name(q->role));
        mb_jobj_int(&o, "messages_per_iteration", q->messages);
        mb_jobj_int(&o, "messages_within_host", q->within_host);
        mb_jobj_int(&o, "participants", q->participants);
        mb_jobj_int(&o, "steps_rank0", q->steps0);
        mb_jobj_bool(&o, "sendrecv_only", q->sendrecv_only);
        mb_jobj_write(&o, ctx->json);
    }
}

void mb_beff_json_measurement(const struct mb_ctx *ctx, const struct mb_beff_data *d,
                              const struct mb_beff_patterns *set, int rep, int p, int k, int m)
{
    const size_t i = mb_beff_at(d, rep, p, k, m);
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "beff_measurement", ctx->json);
    mb_jobj_int(&o, "repetition", rep);
    mb_jobj_int(&o, "pattern", p);
    mb_jobj_str(&o, "label", set->p[p].label);
    mb_jobj_str(&o, "method", mb_beff_method_label[m]);
    mb_jobj_int(&o, "size_index", k);
    mb_jobj_int(&o, "bytes", d->len[k]);
    mb_jobj_int(&o, "looplength", d->loops[i]);
    mb_jobj_num(&o, "time_max_sec", d->tmax[i]);
    mb_jobj_num(&o, "mb_per_sec", d->b[i] / 1e6);
    mb_jobj_num(&o, "per_process_min_mb_per_sec", d->pmin[i] / 1e6);
    mb_jobj_num(&o, "per_process_avg_mb_per_sec", d->pavg[i] / 1e6);
    mb_jobj_num(&o, "per_process_max_mb_per_sec", d->pmax[i] / 1e6);
    mb_jobj_sample_count(&o, 1); /* one timed loop */
    mb_jobj_write(&o, ctx->json);
}

void mb_beff_json_result(const struct mb_ctx *ctx, const struct mb_beff_report *r)
{
    const struct mb_beff_analysis *a = r->a;
    const int n = r->nprocs;
    enum { W = MB_BEFF_SIZES + 1 };
    double lens[MB_BEFF_SIZES], ring[W], rnd[W], fin[W], rep_beff[MB_BEFF_REPS_MAX],
        rep_lmax[MB_BEFF_REPS_MAX];
    struct mb_jobj o;

    if (!ctx->json)
        return;
    for (int k = 0; k < MB_BEFF_SIZES; k++)
        lens[k] = (double)r->d->len[k];
    for (int k = 0; k < W; k++) {
        ring[k] = a->geo[k].ring;
        rnd[k] = a->geo[k].random;
        fin[k] = a->geo[k].final;
    }
    mb_jobj_begin(&o, "beff_result", ctx->json);
    mb_jobj_int(&o, "processes", n);
    mb_jobj_int(&o, "memory_per_process_mib", mb_beff_cfg(r->cfg)->memory_mb);
    mb_jobj_int(&o, "lmax_bytes", r->d->len[MB_BEFF_SIZES - 1]);
    mb_jobj_str(&o, "profile", mb_beff_profile_name[mb_beff_cfg(r->cfg)->profile]);
    mb_jobj_int(&o, "repetitions", r->d->nrep);
    mb_jobj_int(&o, "random_patterns", mb_beff_cfg(r->cfg)->random);
    mb_jobj_int(&o, "seed", mb_beff_cfg(r->cfg)->seed);
    /* The samples are the repetitions (b_eff 3.6 prints them per repetition); the figure stays
     * the official max over repetitions. */
    for (int j = 0; j < a->nrep; j++) {
        rep_beff[j] = mb_beff_rep_value(a, j, MB_BEFF_AVG);
        rep_lmax[j] = mb_beff_rep_value(a, j, MB_BEFF_SIZES - 1);
    }
    mb_jobj_figure(&o, "b_eff_mb_per_sec", a->beff / 1e6, rep_beff, (size_t)a->nrep, 1, 1e-6,
                   r->cfg->common.raw_samples);
    mb_jobj_num(&o, "b_eff_per_process_mb_per_sec", a->beff / 1e6 / n);
    mb_jobj_figure(&o, "b_eff_at_lmax_mb_per_sec", a->beff_lmax / 1e6, rep_lmax, (size_t)a->nrep, 1,
                   1e-6, r->cfg->common.raw_samples);
    mb_jobj_sample_count(&o, (size_t)a->nrep);
    mb_jobj_num(&o, "b_eff_at_lmax_per_process_mb_per_sec", a->beff_lmax / 1e6 / n);
    mb_jobj_num(&o, "rings_at_lmax_mb_per_sec", a->ring_lmax / 1e6);
    mb_jobj_num(&o, "rings_at_lmax_per_process_mb_per_sec", a->ring_lmax / 1e6 / n);
    mb_jobj_num(&o, "latency_usec", a->latency * 1e6);
    mb_jobj_num(&o, "latency_rings_usec", a->latency_ring * 1e6);
    if (a->pp_latency > 0) {
        mb_jobj_num(&o, "pingpong_latency_usec", a->pp_latency * 1e6);
        mb_jobj_num(&o, "pingpong_bandwidth_mb_per_sec", a->pp_bandwidth / 1e6);
    } else {
        mb_jobj_null(&o, "pingpong_latency_usec");
        mb_jobj_null(&o, "pingpong_bandwidth_mb_per_sec");
    }
    mb_jobj_num(&o, "measurement_loop_sec", r->d->loop_elapsed);
    mb_jobj_bool(&o, "shortened_3_6", r->d->shortened);
    mb_jobj_int(&o, "logavg_errors", a->logavg_errors);
    mb_jarray_nums(&o, "bytes", lens, MB_BEFF_SIZES, 1, 1);
    /* Per size (then the average over sizes as the last element), accumulated MB/s. */
    mb_jarray_nums(&o, "rings_mb_per_sec", ring, W, 1, 1e-6);
    mb_jarray_nums(&o, "random_mb_per_sec", rnd, W, 1, 1e-6);
    mb_jarray_nums(&o, "b_eff_by_size_mb_per_sec", fin, W, 1, 1e-6);
    /* Per pattern: avg_L(max_mthd(max_rep b)). */
    mb_jarray_nums(&o, "pattern_avg_mb_per_sec", a->B + MB_BEFF_AVG, (size_t)a->npat, W, 1e-6);
    mb_jobj_write(&o, ctx->json);
}
