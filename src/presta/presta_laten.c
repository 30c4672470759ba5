/* SPDX-License-Identifier: BSD-3-Clause */
/* laten: 0-byte ping-pong latency of the slowest pair (Presta 1.2 README, laten.c). */
#include "presta/presta.h"
#include "presta/presta_options.h"

#include "core/error.h"

#include <stdlib.h>

/* iters round trips: the lower rank of the pair sends first (as in laten.c). */
static void laten_kernel(int lower, long iters, int partner, MPI_Comm world)
{
    MPI_Status st;

    if (lower) {
        for (long i = 0; i < iters; i++) {
            MB_MPI(MPI_Send(NULL, 0, MPI_INT, partner, 0, world));
            MB_MPI(MPI_Recv(NULL, 0, MPI_INT, partner, 0, world, &st));
        }
    } else {
        for (long i = 0; i < iters; i++) {
            MB_MPI(MPI_Recv(NULL, 0, MPI_INT, partner, 0, world, &st));
            MB_MPI(MPI_Send(NULL, 0, MPI_INT, partner, 0, world));
        }
    }
}

/* laten_kernel's arguments for the timed samples. */
struct laten_args {
    int lower;
    long iters;
    int partner;
    MPI_Comm world;
};

static void laten_sample(void *arg)
{
    const struct laten_args *a = arg;

    laten_kernel(a->lower, a->iters, a->partner, a->world);
}

/* --check: one untimed round trip whose messages must arrive from the partner, with tag 0
 * and no data (a receive buffer of one int leaves room to see a wrong count). Returns the
 * number of wrong messages this rank received. */
static long long laten_check(const struct mb_presta_job *job, int lower)
{
    const int sent = job->cfg->common.selftest ? 1 : 0; /* selftest: one int too many */
    int one = 7, got = -1;
    MPI_Status st;
    long long bad = 0;

    for (int leg = 0; leg < 2; leg++) {
        if ((leg == 0) == lower) {
            MB_MPI(MPI_Send(&one, sent, MPI_INT, job->partner, 0, job->ctx->world));
        } else {
            MB_MPI(MPI_Recv(&one, 1, MPI_INT, job->partner, 0, job->ctx->world, &st));
            MB_MPI(MPI_Get_count(&st, MPI_INT, &got));
            bad += got != 0 || st.MPI_SOURCE != job->partner || st.MPI_TAG != 0;
        }
    }
    return bad;
}

static void laten_measure(struct mb_presta_job *job, MPI_Comm active, double *times, long long *bad)
{
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);
    const int lower = job->ctx->rank < job->partner;
    struct laten_args a = {lower, p->ops, job->partner, job->ctx->world};
    MPI_Status st;

    /* Warm-up round trip, once per process set: the higher rank sends first. */
    if (lower) {
        MB_MPI(MPI_Recv(NULL, 0, MPI_INT, job->partner, 0, job->ctx->world, &st));
        MB_MPI(MPI_Send(NULL, 0, MPI_INT, job->partner, 0, job->ctx->world));
    } else {
        MB_MPI(MPI_Send(NULL, 0, MPI_INT, job->partner, 0, job->ctx->world));
        MB_MPI(MPI_Recv(NULL, 0, MPI_INT, job->partner, 0, job->ctx->world, &st));
    }
    /* Two barriers, then timed: the round trips and the closing barrier unless -n
     * (as in laten.c). */
    mb_presta_samples(active, p->samples, NULL, 2, laten_sample, !p->no_barrier, &a, times);
    if (job->cfg->common.check)
        *bad = laten_check(job, lower);
}

/* laten's differences from com and rma in the shared code (presta.h). */
static const struct mb_presta_program laten_program = {
    .figure = "latency_usec", .bandwidth = 0, .min_sample_initial = 9999.0};

static int laten_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_presta_config *p = mb_presta_cfg(cfg);
    const size_t n = (size_t)p->samples;
    double *times = mb_xcalloc(n, sizeof *times), *tmax = mb_xcalloc(n, sizeof *tmax);
    struct mb_presta_job job;

    mb_presta_job_init(&job, ctx, cfg, &laten_program);
    if (ctx->rank == 0)
        mb_presta_preamble(ctx, cfg);
    mb_presta_node_map(&job);
    if (ctx->rank == 0) {
        char cols[128];
        snprintf(cols, sizeof cols, "  %20s   %17s", "Processes", "Max Latency (us)");
        mb_presta_spread_titles(cfg, cols, sizeof cols);
        mb_printf(&ctx->out, "MPI Bidirectional latency test (Send/Recv)\n");
        mb_presta_columns(ctx, cols, 0);
        mb_flush(&ctx->out);
    }
    for (size_t c = 0; c < p->n_counts; c++) {
        const int P = p->counts[c];
        MPI_Comm active;
        long long bad = 0, defects = 0;
        mb_presta_pairs_block(&job, P);
        active = mb_presta_active_comm(&job, P);
        /* Quirk Q9: the original kept an inactive rank's time from an earlier process set. */
        for (size_t s = 0; s < n; s++)
            times[s] = 0;
        mb_presta_arm(ctx, "Latency", P, 0);
        if (active != MPI_COMM_NULL) {
            laten_measure(&job, active, times, &bad);
            MB_MPI(MPI_Comm_free(&active));
        }
        MB_MPI(MPI_Reduce(times, tmax, (int)n, MPI_DOUBLE, MPI_MAX, 0, ctx->world));
        MB_MPI(MPI_Reduce(&bad, &defects, 1, MPI_LONG_LONG, MPI_SUM, 0, ctx->world));
        mb_watchdog_disarm(ctx->wd);
        if (ctx->rank == 0) {
            struct mb_presta_row r = {"Latency",
                                      P,
                                      0,
                                      p->ops,
                                      0,
                                      0,
                                      0,
                                      0,
                                      tmax,
                                      p->samples,
                                      cfg->common.check ? defects : -1};
            r.time = mb_presta_pick(tmax, p->samples);
            r.op_us = r.time / (double)p->ops / 2 * 1e6; /* half a round trip */
            if (r.time < job.min_sample)
                job.min_sample = r.time;
            mb_printf(&ctx->out, "  %20d   %17.3f", P, r.op_us);
            mb_presta_spread_cols(&job, tmax, p->samples, r.time > 0 ? r.op_us / r.time : 0.0);
            mb_printf(&ctx->out, "\n");
            mb_presta_row_done(&job, &r);
        }
    }
    free(times);
    free(tmax);
    if (ctx->rank == 0)
        mb_presta_params_block(&job);
    mb_presta_footer(&job);
    return mb_presta_finish(&job, tally);
}

const struct mb_suite mb_suite_presta_laten = {
    .name = "presta-laten",
    .legacy = "laten",
    .title = "Presta laten: 0-byte ping-pong latency",
    .settings = &mb_presta_letter_settings,
    .validate = mb_presta_validate_laten,
    .usage = mb_presta_usage_laten,
    .dry_run = mb_presta_dry_run,
    .footer = mb_presta_footer_check,
    .run = laten_run,
};
