/* SPDX-License-Identifier: BSD-3-Clause */
/* com: unidirectional and bidirectional pair bandwidth (Presta 1.2 README, com.c). One table row
 * per direction, one kernel; mb_presta_samples reads the clock. */
#include "presta/presta.h"
#include "presta/presta_options.h"

#include "core/buffers.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

struct com_test {
    const char *name;
    int bidir;
};
/* Run order (as in com.c): the whole unidirectional phase, then the bidirectional one. */
static const struct com_test com_tests[] = {{"Unidirectional", 0}, {"Bidirectional", 1}};

/* The timed operations of one sample (as in com.c). */
static void com_kernel(int bidir, int lower, void *sbuf, void *rbuf, int size, long iters,
                       int partner, MPI_Comm world)
{
    MPI_Status st;

    if (bidir) {
        for (long i = 0; i < iters; i++)
            MB_MPI(MPI_Sendrecv(sbuf, size, MPI_CHAR, partner, 0, rbuf, size, MPI_CHAR, partner, 0,
                                world, &st));
    } else if (lower) {
        for (long i = 0; i < iters; i++)
            MB_MPI(MPI_Send(sbuf, size, MPI_CHAR, partner, 0, world));
    } else {
        for (long i = 0; i < iters; i++)
            MB_MPI(MPI_Recv(rbuf, size, MPI_CHAR, partner, 0, world, &st));
    }
}

/* com_kernel's arguments for the timed samples. */
struct com_args {
    int bidir, lower;
    void *sbuf, *rbuf;
    int size;
    long iters;
    int partner;
    MPI_Comm world;
};

static void com_sample(void *arg)
{
    const struct com_args *a = arg;

    com_kernel(a->bidir, a->lower, a->sbuf, a->rbuf, a->size, a->iters, a->partner, a->world);
}

/* --check: one untimed transfer of patterned data, verified by the receiver. Returns the
 * number of wrong bytes this rank received. */
static long long com_check(const struct mb_presta_job *job, int bidir, char *sbuf, char *rbuf,
                           int size)
{
    const int lower = job->ctx->rank < job->partner;
    const int sends = bidir || lower, receives = bidir || !lower;

    if (sends) {
        mb_fill_bytes(sbuf, (size_t)size, job->ctx->rank, 0);
        if (job->cfg->common.selftest)
            sbuf[size / 2] ^= 0x5a;
    }
    if (receives)
        memset(rbuf, 0, (size_t)size);
    com_kernel(bidir, lower, sbuf, rbuf, size, 1, job->partner, job->ctx->world);
    return receives ? (long long)mb_check_bytes(rbuf, (size_t)size, job->partner, 0) : 0;
}

/* One measurement (P, size): every rank returns; rank 0 gets the samples (max over ranks). */
static void com_measure(struct mb_presta_job *job, const struct com_test *t, MPI_Comm active,
                        int size, struct mb_presta_heap *heap, double *tmax, long long *defects)
{
    const struct mb_ctx *ctx = job->ctx;
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);
    const int lower = ctx->rank < job->partner;
    const long n = p->samples;
    double *times = mb_xcalloc((size_t)n, sizeof *times);
    long long bad = 0;

    if (active != MPI_COMM_NULL) {
        /* Laid out as malloc lays out a large block, 16 bytes into its own mapping
         * (core/buffers.h), and written or not as com.c's calloc leaves it (presta_plan.h):
         * above glibc's threshold a fresh mapping nothing writes, whose pages the sender then
         * reads as the one shared zero page, as com.c's sender does; else written with zeros,
         * as a block from the heap is (docs/adr/program-presta-com-calloc.md). Writing all
         * made unidirectional 256 KiB to 1 MiB 0.73-0.80 of Presta's bandwidth, writing none
         * made small lengths up to 1.6x faster than Presta's. */
        const int fresh = p->buffers != 1 && mb_presta_heap_fresh(heap, size);
        char *sbuf = mb_buf_alloc_from(MB_BUF_MALLOC, (size_t)size),
             *rbuf = t->bidir ? mb_buf_alloc_from(MB_BUF_MALLOC, (size_t)size) : sbuf;
        struct com_args a = {t->bidir, lower, sbuf, rbuf, size, p->ops, job->partner, ctx->world};
        MPI_Status st;
        if (!sbuf || !rbuf)
            mb_die("com: cannot allocate %d-byte message buffers", size);
        if (!fresh) {
            memset(sbuf, 0, (size_t)size);
            if (rbuf != sbuf)
                memset(rbuf, 0, (size_t)size);
        }
        /* Warm-up: one message (both ways for bidirectional), again for every size. */
        if (t->bidir)
            MB_MPI(MPI_Sendrecv(sbuf, size, MPI_CHAR, job->partner, 0, rbuf, size, MPI_CHAR,
                                job->partner, 0, ctx->world, &st));
        else if (lower)
            MB_MPI(MPI_Send(sbuf, size, MPI_CHAR, job->partner, 0, ctx->world));
        else
            MB_MPI(MPI_Recv(rbuf, size, MPI_CHAR, job->partner, 0, ctx->world, &st));
        /* Two barriers, then timed: the kernel and the closing barrier unless -n
         * (as in com.c). */
        mb_presta_samples(active, n, NULL, 2, com_sample, !p->no_barrier, &a, times);
        if (job->cfg->common.check)
            bad = com_check(job, t->bidir, sbuf, rbuf, size);
        if (t->bidir) {
            mb_buf_free_from(MB_BUF_MALLOC, rbuf, (size_t)size);
            mb_presta_heap_free(heap, size, fresh);
        }
        mb_buf_free_from(MB_BUF_MALLOC, sbuf, (size_t)size);
        mb_presta_heap_free(heap, size, fresh);
    }
    MB_MPI(MPI_Barrier(ctx->world));
    MB_MPI(MPI_Reduce(times, tmax, (int)n, MPI_DOUBLE, MPI_MAX, 0, ctx->world));
    MB_MPI(MPI_Reduce(&bad, defects, 1, MPI_LONG_LONG, MPI_SUM, 0, ctx->world));
    free(times);
}

struct com_best {
    double bw;
    long long size;
};

/* Rank 0: print one row (or the original's invalid-measurement line) and keep the tallies. */
static void com_report(struct mb_presta_job *job, const struct com_test *t, int P, long long size,
                       const double *tmax, long long defects, struct com_best *best)
{
    const struct mb_ctx *ctx = job->ctx;
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);
    struct mb_presta_row r = {t->name,
                              P,
                              size,
                              p->ops,
                              0,
                              0,
                              0,
                              0,
                              tmax,
                              p->samples,
                              job->cfg->common.check ? defects : -1};

    r.time = mb_presta_pick(tmax, p->samples);
    if (r.time > 0) {
        /* As com.c: MB = 10^6 bytes; the unidirectional op time is halved. */
        const double streams = t->bidir ? P : P / 2;
        r.bandwidth = (double)p->ops * streams * (double)size / r.time / 1e6;
        r.op_us = t->bidir ? r.time / (double)p->ops * 1e6 : r.time / (double)p->ops / 2 * 1e6;
        mb_printf(&ctx->out, "  %-14s  %9d  %20lld  %15.3f  %12.3f", t->name, P, size, r.bandwidth,
                  r.op_us);
        mb_presta_spread_cols(job, tmax, p->samples, r.op_us / r.time);
        mb_printf(&ctx->out, "\n");
        if (r.bandwidth > best->bw) { /* strictly greater: the first size wins ties */
            best->bw = r.bandwidth;
            best->size = size;
        }
        if (r.time < job->min_sample)
            job->min_sample = r.time;
    } else {
        mb_printf(&ctx->out,
                  "Invalid measurement.  Increase number of operation per measurement.\n");
    }
    mb_presta_row_done(job, &r);
}

/* com's differences from laten in the shared code (presta.h). */
static const struct mb_presta_program com_program = {
    .figure = "op_time_usec", .bandwidth = 1, .min_sample_initial = 99999.0};

static int com_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_presta_config *p = mb_presta_cfg(cfg);
    struct mb_presta_job job;
    struct com_best best[2] = {{0, 0}, {0, 0}};
    struct mb_presta_heap heap; /* this rank's, as com.c's buffers move glibc's threshold */
    double *tmax = mb_xcalloc((size_t)p->samples, sizeof *tmax);

    mb_presta_job_init(&job, ctx, cfg, &com_program);
    mb_presta_heap_init(&heap);
    if (ctx->rank == 0)
        mb_presta_preamble(ctx, cfg);
    mb_presta_node_map(&job);
    if (ctx->rank == 0) {
        char cols[192];
        snprintf(cols, sizeof cols, "  %-14s  %9s  %20s  %15s  %12s", "Test", "Processes",
                 "Message Size (bytes)", "Bandwidth (MB)", "Op time (us)");
        mb_presta_spread_titles(cfg, cols, sizeof cols);
        mb_printf(&ctx->out, "\nUnidirectional and Bidirectional Communication Test\n\n");
        mb_presta_columns(ctx, cols, 0);
        mb_flush(&ctx->out);
    }
    for (size_t k = 0; k < 2; k++) {
        const struct com_test *t = &com_tests[k];
        for (size_t c = 0; c < p->n_counts; c++) {
            const int P = p->counts[c];
            MPI_Comm active;
            mb_presta_pairs_block(&job, P);
            active = mb_presta_active_comm(&job, P);
            for (size_t z = 0; z < p->n_sizes; z++) {
                long long defects = 0;
                mb_presta_arm(ctx, t->name, P, p->sizes[z]);
                com_measure(&job, t, active, (int)p->sizes[z], &heap, tmax, &defects);
                mb_watchdog_disarm(ctx->wd);
                if (ctx->rank == 0)
                    com_report(&job, t, P, p->sizes[z], tmax, defects, &best[k]);
            }
            if (active != MPI_COMM_NULL)
                MB_MPI(MPI_Comm_free(&active));
            if (ctx->rank == 0) {
                mb_printf(&ctx->out, "\n");
                mb_flush(&ctx->out);
            }
        }
    }
    free(tmax);
    if (ctx->rank == 0) {
        mb_printf(&ctx->out,
                  "Max Unidirectional Bandwith :  %13.2f for message size of %7lld "
                  "bytes\n",
                  best[0].bw, best[0].size);
        mb_printf(&ctx->out,
                  "Max  Bidirectional Bandwith :  %13.2f for message size of %7lld "
                  "bytes\n",
                  best[1].bw, best[1].size);
        mb_presta_params_block(&job);
    }
    mb_presta_footer(&job);
    return mb_presta_finish(&job, tally);
}

const struct mb_suite mb_suite_presta_com = {
    .name = "presta-com",
    .legacy = "com",
    .title = "Presta com: pair bandwidth, unidirectional and bidirectional",
    .settings = &mb_presta_letter_settings,
    .validate = mb_presta_validate_com,
    .usage = mb_presta_usage_com,
    .dry_run = mb_presta_dry_run,
    .footer = mb_presta_footer_check,
    .run = com_run,
};
