/* SPDX-License-Identifier: BSD-3-Clause */
/* rma: MPI-2 one-sided Put/Get bandwidth with fences (Presta 1.2 README, rma.c). One table row per
 * test, one kernel; mb_presta_samples reads the clock. */
#include "presta/presta.h"
#include "presta/presta_options.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/window.h"

#include <stdlib.h>
#include <string.h>

struct rma_test {
    const char *name;
    int get;   /* MPI_Get, else MPI_Put */
    int bidir; /* both ranks of a pair issue operations */
};
/* Run order (as in rma.c): test -> process set -> size. */
static const struct rma_test rma_tests[] = {
    {"Unidir. Put", 0, 0}, {"Unidir. Get", 1, 0}, {"Bidir. Put", 0, 1}, {"Bidir. Get", 1, 1}};

/* The state of one process set on an active rank. */
struct rma_set {
    MPI_Comm active, pair;
    struct mb_win_skew skew; /* lets the pairs create their windows at once (core/window.h) */
    MPI_Win win;
    char *mem;      /* window memory (MPI_Alloc_mem) */
    MPI_Aint bytes; /* its size: winUnit x ops */
    int target;     /* the partner's rank in the pair communicator */
    int issuer;     /* this rank issues operations */
};

/* One epoch's operations: ops transfers of size bytes to disjoint window sections
 * (as in rma.c). */
static void rma_kernel(const struct rma_test *t, const struct rma_set *s, char *origin, int size,
                       long ops)
{
    for (long i = 0; i < ops; i++) {
        const MPI_Aint off = (MPI_Aint)i * size;
        if (t->get)
            MB_MPI(MPI_Get(origin + off, size, MPI_CHAR, s->target, off, size, MPI_CHAR, s->win));
        else
            MB_MPI(MPI_Put(origin + off, size, MPI_CHAR, s->target, off, size, MPI_CHAR, s->win));
    }
}

/* The arguments of one measurement's samples: rma_kernel's, and the epochs per sample. */
struct rma_args {
    const struct rma_test *t;
    const struct rma_set *s;
    char *origin;
    int size;
    long ops, epochs;
};

/* Before each sample, untimed: the fence that opens its first epoch (as in rma.c). */
static void rma_open(void *arg)
{
    const struct rma_args *a = arg;

    MB_MPI(MPI_Win_fence(0, a->s->win));
}

/* The timed epochs; the fence ends each one and opens the next (as in rma.c). */
static void rma_epochs(void *arg)
{
    const struct rma_args *a = arg;

    for (long e = 0; e < a->epochs; e++) {
        if (a->s->issuer)
            rma_kernel(a->t, a->s, a->origin, a->size, a->ops);
        MB_MPI(MPI_Win_fence(0, a->s->win));
    }
}

/* --check: one untimed epoch with patterned data. Put: the target's window must hold the
 * origin's pattern; Get: the origin buffer must hold the target window's pattern. Returns
 * the wrong bytes this rank sees. */
static long long rma_check(const struct mb_presta_job *job, const struct rma_test *t,
                           const struct rma_set *s, char *origin, int size)
{
    const size_t n = (size_t)mb_presta_cfg(job->cfg)->ops * (size_t)size;
    const int rank = job->ctx->rank;
    const int verifies = t->get ? (t->bidir || s->issuer) : (t->bidir || !s->issuer);

    mb_fill_bytes(s->mem, n, rank, 0);
    if (t->get)
        memset(origin, 0, n);
    else
        mb_fill_bytes(origin, n, rank, 0);
    if (job->cfg->common.selftest)
        (t->get ? s->mem : origin)[n / 2] ^= 0x5a;
    MB_MPI(MPI_Win_fence(0, s->win));
    if (s->issuer)
        rma_kernel(t, s, origin, size, mb_presta_cfg(job->cfg)->ops);
    MB_MPI(MPI_Win_fence(0, s->win));
    if (!verifies)
        return 0;
    return (long long)mb_check_bytes(t->get ? origin : s->mem, n, job->partner, 0);
}

/* One measurement (as in rma.c) on an active rank: the samples' times. */
static long long rma_measure(const struct mb_presta_job *job, const struct rma_test *t,
                             const struct rma_set *s, int size, double *times)
{
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);
    const size_t n = (size_t)p->ops * (size_t)size;
    char *origin = mb_buf_alloc_from(MB_BUF_MALLOC, n); /* as rma.c line 303 (core/buffers.h) */
    struct rma_args a = {t, s, origin, size, p->ops, p->epochs};
    long long bad = 0;

    if (!origin)
        mb_die("Failed to allocate RMA buffer! (%zu bytes)", n);
    /* Written before the timed epochs, as rma.c's memset after malloc: otherwise the first
     * epochs fault the origin's pages in (a Get writes them) or read the shared zero page (a
     * Put), and medium-length bandwidths came out at 0.5-0.8 of Presta's. */
    memset(origin, 0, n);
    /* The fence, one barrier (always, even with -n), then timed: the epochs and the closing
     * barrier unless -n (as in rma.c). */
    mb_presta_samples(s->active, p->samples, rma_open, 1, rma_epochs, !p->no_barrier, &a, times);
    if (job->cfg->common.check)
        bad = rma_check(job, t, s, origin, size);
    mb_buf_free_from(MB_BUF_MALLOC, origin, n);
    return bad;
}

/* Window memory through MPI_Alloc_mem with errors returned, so that a failure gets the
 * original's advice (rma.c's message) instead of the library's abort. */
static char *alloc_window(MPI_Aint bytes)
{
    MPI_Errhandler old;
    char *mem = NULL;
    int rc, len = 0;
    char msg[MPI_MAX_ERROR_STRING];

#ifdef MB_SMPI
    /* SimGrid 3.32 frees the predefined handler itself on MPI_Errhandler_free, so the next
     * simulated process's set_errhandler fails (MPI_ERR_ARG); its MPI_Alloc_mem is malloc and
     * returns no error to catch (docs/adr/smpi-build.md). */
    (void)old;
    rc = MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem);
#else
    MB_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old));
    MB_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem);
    MB_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, old));
    MB_MPI(MPI_Errhandler_free(&old));
#endif
    if (rc != MPI_SUCCESS) {
        MPI_Error_string(rc, msg, &len);
        mb_die("\nFailed to allocate enough memory for window (%lld bytes).\nUse fewer operations "
               "per epoch or smaller message sizes.\n\n%s\n",
               (long long)bytes, msg);
    }
    return mem;
}

static void rma_set_open(const struct mb_presta_job *job, const struct rma_test *t, int P,
                         long long max_size, struct rma_set *s)
{
    const struct mb_ctx *ctx = job->ctx;
    const int lower = ctx->rank < job->partner;

    memset(s, 0, sizeof *s);
    s->active = mb_presta_active_comm(job, P);
    /* Quirk Q16: MPI_Comm_split instead of a per-rank group in MPI_Comm_create. */
    MB_MPI(MPI_Comm_split(ctx->world, lower ? ctx->rank : job->partner, ctx->rank, &s->pair));
    s->target = lower ? 1 : 0;
    /* Quirk Q12: "lower rank of the pair" - the same ranks as the original's "world rank <
     * W/2" for the default and cyclic pairings, and right for -r as well. */
    s->issuer = t->bidir || lower;
    if (s->active != MPI_COMM_NULL) {
        /* 64-bit sizes (quirk Q15); the bidirectional doubling is the original's, unused. */
        s->bytes = (MPI_Aint)(t->bidir ? 2 : 1) * (MPI_Aint)max_size *
                   (MPI_Aint)mb_presta_cfg(job->cfg)->ops;
        s->mem = alloc_window(s->bytes);
        memset(s->mem, 0, (size_t)s->bytes);
    }
    /* All pairs of the set create their windows at the same time; the pairs come from one
     * MPI_Comm_split, which Open MPI 4.1 needs the window layer's workaround for. */
    mb_win_skew_open(&s->skew, s->active != MPI_COMM_NULL ? s->pair : MPI_COMM_NULL, ctx->world);
    if (s->active == MPI_COMM_NULL)
        return;
    s->win = mb_win_create(s->mem, (size_t)s->bytes, 1, MPI_INFO_NULL, s->pair);
    {
        /* Link warm-up, once per process set: one byte from the higher to the lower rank. */
        char byte = 0;
        MPI_Status st;
        if (lower)
            MB_MPI(MPI_Recv(&byte, 1, MPI_CHAR, job->partner, 0, ctx->world, &st));
        else
            MB_MPI(MPI_Send(&byte, 1, MPI_CHAR, job->partner, 0, ctx->world));
    }
}

static void rma_set_close(struct rma_set *s)
{
    if (s->active != MPI_COMM_NULL) {
        mb_win_free(&s->win);
        MB_MPI(MPI_Free_mem(s->mem));
        MB_MPI(MPI_Comm_free(&s->active));
    }
    mb_win_skew_close(&s->skew);
    MB_MPI(MPI_Comm_free(&s->pair));
}

/* Rank 0: one row (as rma.c prints it). */
static void rma_report(struct mb_presta_job *job, const struct rma_test *t, int P, long long size,
                       const double *tmax, long long defects)
{
    const struct mb_ctx *ctx = job->ctx;
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);
    const double f = t->bidir ? P : P / 2, ops = (double)p->ops * (double)p->epochs;
    struct mb_presta_row r = {t->name,
                              P,
                              size,
                              p->ops,
                              p->epochs,
                              0,
                              0,
                              0,
                              tmax,
                              p->samples,
                              job->cfg->common.check ? defects : -1};

    r.time = mb_presta_pick(tmax, p->samples);
    r.bandwidth = (double)size * ops * f / r.time / 1e6;
    r.op_us = r.time / ops * 1e6;
    mb_printf(&ctx->out, "  %-12s   %9d   %12lld   %10ld  %15.3f   %12.3f", t->name, P, size,
              p->ops, r.bandwidth, r.op_us);
    mb_presta_spread_cols(job, tmax, p->samples, r.time > 0 ? r.op_us / r.time : 0.0);
    mb_printf(&ctx->out, "\n");
    mb_presta_row_done(job, &r);
}

/* rma's differences from laten in the shared code (presta.h). */
static const struct mb_presta_program rma_program = {
    .figure = "op_time_usec", .bandwidth = 1, .min_sample_initial = 99999.0};

static int rma_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_presta_config *p = mb_presta_cfg(cfg);
    const size_t n = (size_t)p->samples;
    double *times = mb_xcalloc(n, sizeof *times), *tmax = mb_xcalloc(n, sizeof *tmax);
    long long max_size = 0;
    struct mb_presta_job job;

    for (size_t z = 0; z < p->n_sizes; z++)
        max_size = p->sizes[z] > max_size ? p->sizes[z] : max_size;

    mb_presta_job_init(&job, ctx, cfg, &rma_program);
    if (ctx->rank == 0)
        mb_presta_preamble(ctx, cfg);
    mb_presta_node_map(&job);
    if (ctx->rank == 0) {
        char cols[192];
        snprintf(cols, sizeof cols, "  %-12s   %9s   %12s   %10s  %15s   %12s", "Test", "Processes",
                 "Message Size", "Ops/Epoch", "Bandwidth (MB)", "Op time (us)");
        mb_presta_spread_titles(cfg, cols, sizeof cols);
        mb_printf(&ctx->out, "\nUnidirectional and Bidirectional Communication Test\n\n");
        mb_presta_columns(ctx, cols, 1); /* 87 dashes for 86 characters (quirk Q19) */
        mb_flush(&ctx->out);
    }
    for (size_t k = 0; k < sizeof rma_tests / sizeof rma_tests[0]; k++) {
        const struct rma_test *t = &rma_tests[k];
        for (size_t c = 0; c < p->n_counts; c++) {
            const int P = p->counts[c];
            struct rma_set s;
            double last = 0;
            mb_presta_pairs_block(&job, P);
            rma_set_open(&job, t, P, max_size, &s);
            if (s.active != MPI_COMM_NULL) {
                for (size_t z = 0; z < p->n_sizes; z++) {
                    long long bad, defects = 0;
                    mb_presta_arm(ctx, t->name, P, p->sizes[z]);
                    bad = rma_measure(&job, t, &s, (int)p->sizes[z], times);
                    MB_MPI(MPI_Reduce(times, tmax, (int)n, MPI_DOUBLE, MPI_MAX, 0, s.active));
                    MB_MPI(MPI_Reduce(&bad, &defects, 1, MPI_LONG_LONG, MPI_SUM, 0, s.active));
                    mb_watchdog_disarm(ctx->wd);
                    if (ctx->rank == 0) {
                        rma_report(&job, t, P, p->sizes[z], tmax, defects);
                        last = mb_presta_pick(tmax, p->samples);
                    }
                }
                if (ctx->rank == 0) {
                    mb_printf(&ctx->out, "\n");
                    mb_flush(&ctx->out);
                }
            }
            rma_set_close(&s);
            mb_presta_barrier(ctx->world);
            /* Quirk Q11: only the largest size's time counts for the footer's ticks. */
            if (ctx->rank == 0 && last < job.min_sample)
                job.min_sample = last;
        }
    }
    free(times);
    free(tmax);
    mb_presta_footer(&job);
    return mb_presta_finish(&job, tally);
}

const struct mb_suite mb_suite_presta_rma = {
    .name = "presta-rma",
    .legacy = "rma",
    .title = "Presta rma: one-sided Put/Get bandwidth",
    .settings = &mb_presta_letter_settings,
    .validate = mb_presta_validate_rma,
    .usage = mb_presta_usage_rma,
    .dry_run = mb_presta_dry_run,
    .footer = mb_presta_footer_check,
    .run = rma_run,
};
