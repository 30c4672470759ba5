/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-P2P driver (Intel IMB 2021.11, src_c/P2P/imb_p2p_*.c, the loop every benchmark file
 * repeats): per benchmark its buffers (MPI_Alloc_mem of the largest length, set to the rank, as
 * 2021.11), and per length a pause and IMB-P2P's own barrier, the warm-up, a barrier (not for
 * SendRecv_Replace), the timed loop - each process its own clock - a pause and a barrier; then
 * rank 0 gathers every process's time (and its message count) and makes the row. It is the only
 * IMB-P2P code that reads the clock (core/timing.h). */
#include "p2p/p2p_driver.h"

#include "core/buffers.h"
#include "core/dissemination.h"
#include "core/error.h"
#include "core/timing.h"
#include "p2p/p2p_options.h"
#include "p2p/p2p_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 2021.11's usleep(pause) (imb_p2p_pause): not a measurement, so no clock. */
static void pause_for(const struct mb_p2p_config *c)
{
    if (c->pause_usec > 0) {
        /* Named, not a compound literal: nanosleep may be a macro (SimGrid SMPI). */
        struct timespec pause = {c->pause_usec / 1000000, (c->pause_usec % 1000000) * 1000};
        nanosleep(&pause, NULL);
    }
}

/* The smallest process count a benchmark runs on (the JSON skip record's). */
static int procs_needed(const struct mb_p2p_bench *b)
{
    return b->nbuf == 6 ? 8 : b->nbuf == 4 ? 4 : 2;
}

/* The buffers, all or nobody: MPI_Alloc_mem of the largest length each, set to the rank
 * (imb_p2p_alloc_mem, memset). Returns 0 when any process could not allocate. */
static int buffers_get(struct mb_p2p_state *s, const struct mb_p2p_bench *b, size_t bytes,
                       MPI_Comm comm)
{
    int ok = 1;

    s->nbuf = b->nbuf;
    for (int i = 0; i < b->nbuf; i++) {
        s->s[i] = mb_buf_alloc_from(MB_BUF_MPI, bytes);
        s->r[i] = b->single_buffer ? NULL : mb_buf_alloc_from(MB_BUF_MPI, bytes);
        ok &= s->s[i] != NULL && (b->single_buffer || s->r[i] != NULL);
        if (s->s[i])
            memset(s->s[i], s->rank, bytes);
        if (s->r[i])
            memset(s->r[i], s->rank, bytes);
    }
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
    return ok;
}

static void buffers_free(struct mb_p2p_state *s, size_t bytes)
{
    for (int i = 0; i < s->nbuf; i++) {
        mb_buf_free_from(MB_BUF_MPI, s->s[i], bytes);
        mb_buf_free_from(MB_BUF_MPI, s->r[i], bytes);
        s->s[i] = s->r[i] = NULL;
    }
}

static void steps(const struct mb_p2p_bench *b, struct mb_p2p_state *s, long long n)
{
    void (*const step)(struct mb_p2p_state *) = b->step;
    for (long long i = 0; i < n; i++)
        step(s);
}

/* --check: one more step, untimed, with every send buffer set to the rank's pattern (and, with
 * --check-selftest, its first byte spoiled) and every receive buffer poisoned, without the
 * touches; the wrong bytes this process received. */
static long long check_step(const struct mb_p2p_bench *b, struct mb_p2p_state *s, int selftest)
{
    const int ts = s->touch_send, tr = s->touch_recv;
    long long bad = 0;

    for (int i = 0; i < s->nbuf; i++) {
        mb_fill_bytes(s->s[i], s->size, s->rank, 0);
        if (selftest && s->size > 0)
            s->s[i][0] = (char)(s->s[i][0] ^ 0x5A);
        if (s->r[i])
            memset(s->r[i], 0xA5, s->size);
    }
    s->touch_send = s->touch_recv = 0;
    if (b->begin)
        b->begin(s);
    s->ngot = 0;
    b->step(s);
    for (int i = 0; i < s->ngot; i++)
        bad += (long long)mb_check_bytes(s->got[i], s->size, s->got_from[i], 0);
    s->touch_send = ts;
    s->touch_recv = tr;
    return bad;
}

/* One length: its pauses, barriers, warm-up and timed loop as k samples (each a run of
 * consecutive steps between two clock reads, the finish inside the last); what this process
 * sends rank 0: its time, messages, defects and the samples' times. */
static void measure(const struct mb_p2p_bench *b, struct mb_p2p_state *s,
                    const struct mb_p2p_config *c, const struct mb_config *cfg, long n, long w,
                    long k, double *mine)
{
    const long long per_rep = b->steps_per_process ? s->nranks : 1;
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    pause_for(c);
    mb_dissemination_barrier(s->comm);
    if (b->begin)
        b->begin(s);
    steps(b, s, per_rep * w);
    if (b->finish)
        b->finish(s);
    if (b->begin)
        b->begin(s);
    if (!b->no_barrier_after_warm_up)
        mb_dissemination_barrier(s->comm);
    s->messages = 0;
    for (long j = 0; j < k; j++) {
        const long reps = n / k + (j < n % k);
        mb_timing_start(&tm);
        steps(b, s, per_rep * reps);
        if (j == k - 1 && b->finish)
            b->finish(s);
        (void)mb_timing_stop(&tm, reps);
        mine[3 + j] = tm.elapsed;
    }
    mine[0] = tm.total;
    mine[1] = (double)s->messages;
    pause_for(c);
    mb_dissemination_barrier(s->comm);
    mine[2] = cfg->common.check ? (double)check_step(b, s, cfg->common.selftest) : 0.0;
}

/* One benchmark on every process; rank 0 prints and records its rows. Returns 0, or 1 when
 * its buffers could not be allocated (then the run ends). */
static int run_bench(const struct mb_ctx *ctx, const struct mb_config *cfg,
                     const struct mb_p2p_bench *b, struct mb_p2p_tally *t)
{
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);
    struct mb_p2p_state s = {.comm = ctx->world,
                             .rank = ctx->rank,
                             .nranks = ctx->size,
                             .touch_send = c->touch_send,
                             .touch_recv = c->touch_recv};
    long long largest = 0;
    long most = 1;
    long k;
    int stride;
    double *mine, *all = NULL;

    if (!b->layout(&s)) {
        if (ctx->rank == 0)
            mb_p2p_text_invalid(ctx, b, procs_needed(b));
        return 0;
    }
    for (size_t i = 0; i < c->n_lengths; i++) {
        long n, w;
        mb_p2p_iters(c, c->lengths[i], &n, &w);
        if (c->lengths[i] > largest)
            largest = c->lengths[i];
        if (n > most)
            most = n;
    }
    /* No more samples than the repetitions of any length can give. */
    k = mb_config_samples(cfg) < most ? mb_config_samples(cfg) : most;
    /* Armed from here on: the buffers are agreed collectively after rank 0 has printed the
     * block's title, so a process stopped there would otherwise leave the others waiting
     * unwatched (p2p.watchdog_stop_rank0 hung so with MPICH). */
    {
        char label[160];
        snprintf(label, sizeof label, "IMB-P2P %s on %d processes (setting up)", b->name,
                 ctx->size);
        mb_watchdog_arm(ctx->wd, label);
    }
    stride = 3 + (int)k;
    if (ctx->rank == 0) {
        mb_p2p_text_block(ctx, b, &s, cfg);
        all = mb_xmalloc((size_t)ctx->size * (size_t)stride * sizeof *all);
    }
    if (b->ring) /* Corandom's permutation: P ints, as 2021.11 allocates it */
        s.ring = mb_xmalloc((size_t)ctx->size * sizeof *s.ring);
    if (!buffers_get(&s, b, largest > 0 ? (size_t)largest : 1, ctx->world)) {
        buffers_free(&s, largest > 0 ? (size_t)largest : 1);
        free(s.ring);
        free(all);
        snprintf(t->why, sizeof t->why,
                 "IMB-P2P %s: MPI_Alloc_mem could not give %d x %lld bytes of message buffers",
                 b->name, 2 * b->nbuf, largest);
        return 1;
    }
    mine = mb_xcalloc((size_t)stride, sizeof *mine);
    for (size_t i = 0; i < c->n_lengths; i++) {
        char label[160];
        long n, w;
        mb_p2p_iters(c, c->lengths[i], &n, &w);
        snprintf(label, sizeof label, "IMB-P2P %s on %d processes, %lld bytes", b->name, ctx->size,
                 c->lengths[i]);
        mb_watchdog_arm(ctx->wd, label);
        s.size = (size_t)c->lengths[i];
        memset(mine, 0, (size_t)stride * sizeof *mine);
        measure(b, &s, c, cfg, n, w, k < n ? k : n, mine);
        MB_MPI(MPI_Gather(mine, stride, MPI_DOUBLE, all, stride, MPI_DOUBLE, 0, ctx->world));
        if (ctx->rank == 0) {
            struct mb_p2p_row row;
            mb_p2p_row_make(&row, b, ctx->size, c->lengths[i], n, k < n ? k : n, all, stride,
                            cfg->common.check);
            mb_p2p_emit(ctx, cfg, b, &s, &row);
            t->rows++;
            if (row.defects > 0)
                t->defects += row.defects;
        }
    }
    mb_watchdog_disarm(ctx->wd);
    free(mine);
    free(all);
    buffers_free(&s, largest > 0 ? (size_t)largest : 1);
    free(s.ring);
    return 0;
}

int mb_p2p_run_all(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_p2p_tally *t)
{
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);

    for (size_t i = 0; i < c->n_selected; i++)
        if (run_bench(ctx, cfg, &mb_p2p_benchmarks[c->selected[i]], t) != 0)
            return 1;
    /* 2021.11 ends with its barrier before MPI_Finalize (imb_p2p.c finalization); watched, as
     * every wait on the other processes is. */
    mb_watchdog_arm(ctx->wd, "IMB-P2P (finishing)");
    mb_dissemination_barrier(ctx->world);
    mb_watchdog_disarm(ctx->wd);
    return 0;
}
