/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB driver of every family (IMB guide 5.2.6-5.2.8, 6): for one block of the plan it
 * builds the groups, allocates the buffers within the -mem cap, runs the row's setup (a
 * window), warms up, and for each message length synchronises, times n_sample calls of the
 * kernel - assuring completion after each or after all of them in the non-aggregate and
 * aggregate modes - optionally checks the data, gathers the per-process times and hands the
 * row to the printers. It is the only IMB code that times anything, through core/timing.h. */
#include "imb/imb_driver.h"

#include "core/dissemination.h"
#include "core/error.h"
#include "core/idle.h"
#include "core/report_json.h"
#include "core/stats.h"
#include "core/timing.h"
#include "core/window.h"
#include "imb/imb_cpu.h"
#include "imb/imb_groups.h"
#include "imb/imb_io_buffers.h"
#include "imb/imb_nbc_driver.h"
#include "imb/imb_report.h"
#include "imb/imb_settings.h"
#include "imb/imb_time_rule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layout by class and Multi mode, as IMB_output.c chooses it: single transfers show t and
 * throughput, except with -multi 0 where they show the range over all groups. */
static enum mb_layout layout_of(const struct mb_imb_bench *b, int multi)
{
    if (b->istart || b->overlap)
        return b->sizeless ? MB_LAYOUT_SYNC_OVERLAP : MB_LAYOUT_OVERLAP;
    if (b->sizeless)
        return MB_LAYOUT_SYNC; /* Barrier, Open_Close: one row, no #bytes */
    switch (b->cls) {
    case MB_IMB_SINGLE:
        return multi == 0 ? MB_LAYOUT_RANGE_BW : MB_LAYOUT_TIME_BW;
    case MB_IMB_PARALLEL:
        return MB_LAYOUT_RANGE_BW;
    case MB_IMB_COLLECTIVE:
    case MB_IMB_OTHER:
        /* IMB-IO's collectives report a throughput (IMB_output.c under MPIIO). */
        return b->bw_factor > 0 ? MB_LAYOUT_RANGE_BW : MB_LAYOUT_RANGE;
    case MB_IMB_MSGRATE:
        return MB_LAYOUT_RATE;
    case MB_IMB_SYNC:
        break;
    }
    return MB_LAYOUT_SYNC;
}

static const char *class_name(enum mb_imb_class c)
{
    static const char *const names[] = {
        [MB_IMB_SINGLE] = "single",         [MB_IMB_PARALLEL] = "parallel",
        [MB_IMB_COLLECTIVE] = "collective", [MB_IMB_SYNC] = "collective",
        [MB_IMB_OTHER] = "other",           [MB_IMB_MSGRATE] = "msgrate"};
    return names[c];
}

/* Watchdog labels name the mode of a block that has one. */
static const char *mode_label(enum mb_imb_mode m)
{
    return m == MB_IMB_AGGREGATE       ? " (aggregate)"
           : m == MB_IMB_NON_AGGREGATE ? " (non-aggregate)"
                                       : "";
}

/* Everything one block needs while it runs. */
struct block_run {
    const struct mb_ctx *ctx;
    const struct mb_config *cfg;
    const struct mb_imb_family *f;
    const struct mb_imb_bench *b;
    enum mb_imb_mode mode;
    struct mb_groups g;
    struct mb_block blk;
    struct mb_imb_args a;
    struct mb_imb_demand d; /* of the current message length */
    /* rank 0: (time, t_ovrl, defects, t_pure, t_CPU, the samples' times) of every active
     * process (GATHERED values before the samples) */
    double *gathered;
    long k;                 /* samples per row (--samples; at most the row's repetitions) */
    double *kept;           /* this process's samples of the row: time per repetition, usec */
    struct mb_imb_cpu *cpu; /* CPU_Exploit of non-blocking I/O, or NULL */
    const struct mb_imb_nbc_cpu *nbc_cpu; /* IMB-NBC's CPU work, or NULL */
    double charged;                       /* seconds counted as the block's besides its own */
    struct mb_imb_io_buffers *iobufs;     /* IMB-IO -buf_scope run: the run's buffers, or NULL */
    char label[192];
    struct mb_stopwatch started; /* the block's start, for 2021.11's time limit (timed_out) */
    /* This process's first failure the block stops on (a.failure): IMB-IO's failed I/O
     * call, IMB-EXT's refused window. */
    struct mb_error fail;
    int labelled; /* fail.msg starts with the block's label */
};

/* This process's figures of one length, for report(). */
struct mine {
    double t;          /* usec per repetition: the row's time (IMB-NBC: t_ovrl, or t_pure) */
    double t_ovrl;     /* usec: non-blocking I/O's and IMB-NBC's time with the CPU busy */
    double t_pure;     /* usec: IMB-NBC's t_pure */
    double t_cpu;      /* usec: IMB-NBC's CPU work inside t_ovrl */
    long long defects; /* -1 when not checked */
};

/* Whether an active process recorded a failure since the start of the block - IMB-IO's
 * failed I/O call, IMB-EXT's refused window (families with can_stop; collective over the
 * active processes, between lengths, never inside a timed loop). All groups stop together
 * (a group whose window was refused must not leave the others waiting in the row's gather).
 * A process that failed puts the block's label before its message, for the one the run
 * reports. */
static int stopped(struct block_run *r)
{
    int any = r->fail.kind != MB_ERR_NONE;

    if (!r->f->can_stop)
        return 0;
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, r->g.active));
    if (r->fail.kind != MB_ERR_NONE && !r->labelled) {
        char msg[sizeof r->fail.msg];
        snprintf(msg, sizeof msg, "%.191s: %.800s", r->label, r->fail.msg);
        snprintf(r->fail.msg, sizeof r->fail.msg, "%s", msg);
        r->labelled = 1;
    }
    return any;
}

/* count barriers on the block's synchronisation communicator: MPI_Barrier, or IMB's own
 * dissemination barrier under -imb_barrier on (Intel IMB 2021.11 IMB_do_n_barriers). */
static struct mb_sync sync_of(const struct block_run *r, int count)
{
    return mb_imb_cfg(r->cfg)->imb_barrier
               ? mb_sync_calls(r->a.sync, count, mb_dissemination_barrier)
               : mb_sync_barriers(r->a.sync, count);
}

static void set_length(struct block_run *r, long long x)
{
    r->d = mb_imb_demand(r->b, x, r->g.q, mb_imb_cfg(r->cfg), r->cfg->common.check);
    r->a.bytes = (size_t)x;
    r->a.count = (int)(x / (long long)r->b->elem_size);
    r->a.slots = r->d.slots;
    r->a.sused = r->d.sregion;
    r->a.rused = r->d.rregion;
    if (r->b->prepare && !r->d.int_overflow)
        r->b->prepare(&r->a);
}

/* The timed loops of guide 5.2.8: the timer's synchronisation (N_BARR barriers, when asked),
 * then repetitions i0 .. i0 + n - 1 between two clock reads (the timing module's start and stop
 * around this loop, which stays inline). MPI-1 rows (5.2.8.1) call the kernel alone; rows with
 * a completion call (5.2.8.2) assure completion after every transfer (non-aggregate) or once
 * after all of them (aggregate). Returns the time per repetition. */
static double loop_of(struct block_run *r, struct mb_timing *tm, long i0, long n)
{
    void (*const kernel)(const struct mb_imb_args *, long) = r->b->kernel;
    void (*const complete)(const struct mb_imb_args *) = r->b->complete;
    const struct mb_imb_args *const a = &r->a;
    const long end = i0 + n;

    /* I/O: every loop starts at the beginning of the file's view (not timed); the later
     * samples of a row go on where the previous one stopped. */
    if (r->b->reset && i0 == 0)
        r->b->reset(&r->a);
    mb_timing_start(tm);
    if (!complete) {
        for (long i = i0; i < end; i++)
            kernel(a, i);
    } else if (r->mode == MB_IMB_AGGREGATE && r->b->batch) {
        r->b->batch(a, i0, n);
        complete(a);
    } else if (r->mode == MB_IMB_AGGREGATE) {
        for (long i = i0; i < end; i++)
            kernel(a, i);
        complete(a);
    } else {
        for (long i = i0; i < end; i++) {
            kernel(a, i);
            complete(a);
        }
    }
    return mb_timing_stop(tm, n);
}

/* One timed loop of n repetitions after the given number of barriers. */
static double timed_loop(struct block_run *r, long n, int barriers)
{
    struct mb_timing tm = mb_timing_make(sync_of(r, barriers));

    return loop_of(r, &tm, 0, n);
}

/* The row's timed loop as r->k samples (--samples, docs/adr/samples.md): its n repetitions
 * split into k loops of n/k (the first n % k one more), each after N_BARR barriers, one
 * continuing the repetitions of the other, so that the row times as many repetitions as with
 * one loop. With k = 1 this is the one loop of IMB 3.1. Keeps each sample's time per
 * repetition in r->kept and returns the row's: the total time over all n repetitions. */
static double sampled_loop(struct block_run *r, long n)
{
    struct mb_timing tm = mb_timing_make(sync_of(r, MB_IMB_N_BARR));
    const long k = r->k < n ? r->k : n;
    long i0 = 0;

    mb_timing_keep(&tm, r->kept, k);
    for (long j = 0; j < k; j++) {
        const long m = n / k + (j < n % k);
        (void)loop_of(r, &tm, i0, m);
        i0 += m;
    }
    return tm.total / (double)tm.total_reps;
}

/* The non-blocking I/O loop (guide 4.2.5, 5.2.8.3; aggregate mode only): initiate the
 * transfers, exploit the CPU for t_CPU per transfer, wait for the end of the transfers, then
 * assure completion as the blocking equivalent does. Independent I/O starts all n transfers
 * first; split collectives (one outstanding per file) go one transfer at a time. Returns
 * t_ovrl per sample. */
static double overlap_loop(struct block_run *r, long n)
{
    const struct mb_imb_bench *b = r->b;
    const struct mb_imb_args *const a = &r->a;
    struct mb_imb_cpu *cpu = r->cpu;
    struct mb_timing tm = mb_timing_make(sync_of(r, MB_IMB_N_BARR));

    r->b->reset(&r->a);
    mb_timing_start(&tm);
    if (b->one_by_one) {
        for (long i = 0; i < n; i++) {
            b->istart(a, i, 1);
            mb_imb_cpu_work(cpu, cpu->reps);
            b->iwait(a);
        }
    } else {
        b->istart(a, 0, n);
        for (long i = 0; i < n; i++)
            mb_imb_cpu_work(cpu, cpu->reps);
        b->iwait(a);
    }
    if (b->complete)
        b->complete(a);
    return mb_timing_stop(&tm, n);
}

/* The calibration's timer (imb_cpu.c runs the rule): the products between two clock reads. */
static double cpu_timer(void *arg, struct mb_imb_cpu *c, long reps)
{
    struct mb_timing *tm = arg;

    mb_timing_start(tm);
    mb_imb_cpu_work(c, reps);
    (void)mb_timing_stop(tm, 1);
    return tm->elapsed;
}

void mb_imb_cpu_calibrate(struct mb_imb_cpu *c, double target_secs, int rule)
{
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    mb_imb_cpu_calibrate_by(c, target_secs, (enum mb_imb_cpu_rule)rule, cpu_timer, &tm);
}

/* -time, step 1 (IMB 3.1 IMB_mem_manager.c: "first, run 1 iteration only"): the time of one
 * sample, which sizes the preparatory run. IMB takes one sample; on a loaded node a preempted one
 * (milliseconds for a sub-microsecond transfer) shrank the preparatory run to a few samples,
 * which one more preemption then made the row's estimate. Here up to FIRST_TRIES single
 * samples, the shortest counting, until some process has one below the time that gives the
 * full preparatory run (the processes agree; IMB takes the largest count over processes). */
static double first_sample(struct block_run *r)
{
    const double fast = MB_IMB_TIME_PREP_SECS / MB_IMB_TIME_PREP_MAX;
    double best = HUGE_VAL;

    for (int i = 0; i < MB_IMB_TIME_FIRST_TRIES; i++) {
        const double t = timed_loop(r, 1, MB_IMB_N_BARR);
        int done;
        if (t < best)
            best = t;
        done = best < fast;
        MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &done, 1, MPI_INT, MPI_MAX, r->g.active));
        if (done)
            break;
    }
    return best;
}

/* -time (guide 5.1.2.6; IMB 3.1 IMB_mem_manager.c): the first sample, then a preparatory run of
 * about one second (the processes agree on the longest), then the policy's count for length k
 * from that run's time per sample. The preparatory run is timed in MB_IMB_TIME_BATCHES batches,
 * the fastest batch counting, so that preempted batches do not decide (on a loaded node with 5
 * processes per core, 3 of 5 batches took 50-100 ms per sample, and the median then left 2
 * repetitions for a 5 us transfer); every loop is timed as
 * the row is (N_BARR barriers first, the block's mode). Rank 0 of the active processes decides
 * (IMB 3.1 broadcasts it), so every group uses the same count; counts[k] records it. */
static long time_reps(struct block_run *r, long n_rule, const long long *lens, long *counts,
                      size_t k)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);
    long n = mb_imb_time_prep_reps(n_rule, first_sample(r));
    double per_rep[MB_IMB_TIME_BATCHES];
    size_t nb;

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG, MPI_MAX, r->g.active));
    nb = n < MB_IMB_TIME_BATCHES ? (size_t)n : MB_IMB_TIME_BATCHES;
    for (size_t b = 0; b < nb; b++) {
        const long m = n / (long)nb + ((long)b < n % (long)nb);
        per_rep[b] = timed_loop(r, m, b == 0 ? MB_IMB_N_BARR : 0);
    }
    n = mb_imb_time_reps((enum mb_imb_time_rule)c->time_rule, n_rule, mb_imb_time_limit_of(r->b, c),
                         mb_stats_of(per_rep, nb).min, lens, counts, k);
    MB_MPI(MPI_Bcast(&n, 1, MPI_LONG, 0, r->g.active));
    counts[k] = n;
    return n;
}

/* Check mode (guide 7.2): one more, untimed sample with freshly patterned send buffers and
 * poisoned receive buffers (zeroed for float rows, so that Accumulate's sums start from 0);
 * returns the number of wrong items this process received. One-sided rows open and close the
 * sample's epoch with their completion call: the fence also makes the local stores into the
 * window visible to the other processes. */
static long long check_once(struct block_run *r, long iter)
{
    char *s = mb_imb_sbuf(&r->a, iter);
    const int floats = r->b->elem_size == sizeof(float);

    /* I/O: the check transfer is transfer 0 of a fresh view (its place is known). */
    if (r->b->reset)
        r->b->reset(&r->a);
    if (floats)
        mb_fill_floats((float *)(void *)s, r->d.sbytes / sizeof(float), r->a.rank, 0);
    else
        mb_fill_bytes(s, r->d.sbytes, r->a.rank, 0);
    memset(mb_imb_rbuf(&r->a, iter), floats ? 0 : 0xA5, r->d.rbytes);
    if (r->cfg->common.selftest && r->d.sbytes > 0)
        s[0] = (char)(s[0] ^ 0x5A);
    if (r->b->complete)
        r->b->complete(&r->a);
    else
        MB_MPI(MPI_Barrier(r->g.group));
    /* The check runs the code the mode times: the batch in aggregate mode, the
     * non-blocking calls for non-blocking I/O. */
    if (r->b->istart) {
        r->b->istart(&r->a, iter, 1);
        r->b->iwait(&r->a);
    } else if (r->mode == MB_IMB_AGGREGATE && r->b->batch)
        r->b->batch(&r->a, iter, 1);
    else
        r->b->kernel(&r->a, iter);
    if (r->b->complete)
        r->b->complete(&r->a);
    return (long long)r->b->check(&r->a, iter);
}

static void emit(const struct block_run *r, const struct mb_result *row, struct mb_imb_tally *t)
{
    mb_imb_text_row(&r->ctx->out, row);
    mb_imb_json_row(r->ctx->json, row);
    t->rows++;
    if (row->defects > 0)
        t->defects += row->defects;
}

/* The values each process sends rank 0 before its samples. */
enum { GATHERED = 5 };

/* Intel IMB 2021.11's overlap (IMB_output.c, IMB_display_times under NBC): from the process
 * with the largest t_ovrl, its t_pure and t_CPU, 100 x clamp((t_pure + t_CPU - t_ovrl) /
 * max(t_pure, t_CPU)). */
static void nbc_overlap(struct mb_result *row, const double *g)
{
    const double tp = g[3], tc = g[4], hi = tp > tc ? tp : tc;
    const double ov = hi > 0 ? (tp + tc - g[1]) / hi : 0.0;

    row->t_pure = tp;
    row->t_cpu = tc;
    row->overlap_pct = 100.0 * (ov < 0 ? 0 : ov > 1 ? 1 : ov);
}

/* Gathers (time, t_ovrl, defects, t_pure, t_CPU, samples) of every active process and, on
 * rank 0, makes the row(s): -multi 1 one per group, otherwise one over all groups (guide 6
 * "Multi case numbers"). */
static void report(struct block_run *r, long long x, long reps, long reps_min, const struct mine *m,
                   struct mb_imb_tally *tally)
{
    const int q = r->g.q, per_row = (r->blk.multi == 1) ? q : q * r->g.ngroups;
    const long k = r->k < reps ? r->k : reps;
    const int stride = GATHERED + (int)r->k;
    /* IMB-NBC's samples are its own loops' (already per repetition, in seconds). */
    const double sample_scale = 1e6 * (mb_imb_nbc_row(r->b) ? 1.0 : r->b->time_scale);
    double *mine = mb_xcalloc((size_t)stride, sizeof *mine), *times, *avg;

    mine[0] = m->t;
    mine[1] = m->t_ovrl;
    mine[2] = (double)m->defects;
    mine[3] = m->t_pure;
    mine[4] = m->t_cpu;
    for (long j = 0; j < k; j++)
        mine[GATHERED + j] = r->kept[j] * sample_scale;
    MB_MPI(MPI_Gather(mine, stride, MPI_DOUBLE, r->gathered, stride, MPI_DOUBLE, 0, r->g.active));
    free(mine);
    if (r->ctx->rank != 0)
        return;
    times = mb_xmalloc((size_t)per_row * sizeof *times);
    avg = mb_xcalloc((size_t)k, sizeof *avg);
    if (r->blk.multi == 1)
        mb_printf(&r->ctx->out, "\n");
    for (int first = 0; first < q * r->g.ngroups; first += per_row) {
        struct mb_result row = {.block = &r->blk,
                                .group = r->blk.multi == 1 ? first / q : -1,
                                .bytes = r->b->sizeless ? -1 : x,
                                .reps = reps,
                                .reps_min = reps_min,
                                .window_bytes = r->a.win_bytes,
                                .defects = r->blk.check ? 0 : -1,
                                .status = MB_ROW_OK,
                                .samples = avg,
                                .nsamples = k};
        const double *slowest = NULL;
        struct mb_stats st;
        /* Each sample's figure is the row's figure of that sample alone: t_avg, the mean over
         * the row's processes of their time per repetition in it. */
        for (long j = 0; j < k; j++)
            avg[j] = 0;
        for (int i = 0; i < per_row; i++) {
            const double *g = &r->gathered[(size_t)stride * (size_t)(first + i)];
            for (long j = 0; j < k; j++)
                avg[j] += g[GATHERED + j] / per_row;
            times[i] = g[0];
            if (!slowest || g[1] > row.t_ovrl) {
                row.t_ovrl = g[1];
                slowest = g;
            }
            if (r->blk.check)
                row.defects += (long long)g[2];
        }
        st = mb_stats_of(times, (size_t)per_row);
        row.t_min = st.min;
        row.t_max = st.max;
        row.t_avg = st.mean;
        row.msg_per_sec = -1.0;
        if (r->b->cls == MB_IMB_MSGRATE) {
            /* Intel IMB 2021.11 (IMB_output.c): scale_bw x window x Q/2 messages per iteration
             * of t_max usec. */
            const double msgs = r->b->bw_factor * (double)mb_imb_window_size(mb_imb_cfg(r->cfg)) *
                                (double)(r->g.q / 2);
            row.msg_per_sec = st.max > 0 ? msgs * 1e6 / st.max : 0.0;
            row.mbytes_per_sec = row.msg_per_sec * (double)x / 1048576.0;
        } else {
            /* Throughput from the slowest process, in 2^20 bytes/s (guide 3.3.2, 3.3.3). */
            row.mbytes_per_sec = r->b->bw_factor <= 0 ? -1.0
                                 : st.max > 0 ? r->b->bw_factor * (double)x / 1.048576 / st.max
                                              : 0.0;
        }
        if (r->b->overlap) {
            nbc_overlap(&row, slowest);
        } else if (r->b->istart) {
            /* Guide 4.2.5.2 with IMB's clamp to [0, 1]: (t_pure + t_CPU - t_ovrl) over
             * min(t_pure, t_CPU); 100 % is a perfect overlap. */
            const double tp = st.max, tc = r->cpu->t_cpu_usec;
            const double lo = tp < tc ? tp : tc;
            double ov = lo > 0 ? (tp + tc - row.t_ovrl) / lo : 0.0;
            row.t_pure = tp;
            row.t_cpu = tc;
            row.overlap_pct = 100.0 * (ov < 0 ? 0 : ov > 1 ? 1 : ov);
        }
        emit(r, &row, tally);
    }
    free(times);
    free(avg);
}

/* A length that is not run: one row, or one per group with -multi 1 (as IMB prints them). */
static void skip_row(struct block_run *r, long long x, enum mb_row_status why,
                     struct mb_imb_tally *tally)
{
    const int rows = r->blk.multi == 1 ? r->g.ngroups : 1;

    if (r->ctx->rank != 0)
        return;
    if (r->blk.multi == 1)
        mb_printf(&r->ctx->out, "\n");
    for (int g = 0; g < rows; g++) {
        struct mb_result row = {.block = &r->blk,
                                .group = r->blk.multi == 1 ? g : -1,
                                .bytes = x,
                                .window_bytes = -1,
                                .defects = -1,
                                .status = why,
                                .needed_gb = (double)mb_imb_demand_bytes(&r->d) / MB_GB,
                                .limit_s = mb_imb_block_time_cap(r->b, mb_imb_cfg(r->cfg))};
        emit(r, &row, tally);
    }
}

/* The untimed repetitions before a length's timing under Intel's -warm_up (imb_settings.h):
 * n/10, at least 1 when n > 1 for a benchmark whose original is Intel IMB 2021.11 (its
 * IMB_warm_up.c), at least min(n, 10) for IMB 3.1's (the later upstream rule); 0 without. */
static long warmup_reps(const struct block_run *r, long n)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);
    long w = n / MB_IMB_WARMUP_DIVISOR;

    if (!(c->warm_up_given ? c->warm_up_each : r->b->imb2021))
        return 0;
    if (r->b->imb2021)
        return w == 0 && n > 1 ? 1 : w;
    return w < MB_IMB_WARMUP_MIN ? (n < MB_IMB_WARMUP_MIN ? n : MB_IMB_WARMUP_MIN) : w;
}

/* The loops of an IMB-NBC or IMB-MPI4 row (imb_nbc_driver.c) for this block. */
static struct mb_imb_nbc_loop nbc_loop(struct block_run *r)
{
    return (struct mb_imb_nbc_loop){.b = r->b,
                                    .a = &r->a,
                                    .first = sync_of(r, MB_IMB_N_BARR),
                                    .between = sync_of(r, mb_imb_cfg(r->cfg)->sync_each ? 1 : 0),
                                    .cpu = r->nbc_cpu,
                                    .kept = r->kept,
                                    .k = r->k};
}

/* The slowest process's t_pure of a whole 2021.11 measurement of n repetitions. */
static double nbc_probe(struct block_run *r, long n)
{
    const struct mb_imb_nbc_loop l = nbc_loop(r);
    struct mb_imb_nbc_times t;

    mb_imb_nbc_measure(&l, n, &t);
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &t.t_pure, 1, MPI_DOUBLE, MPI_MAX, r->g.active));
    return t.t_pure;
}

/* Intel IMB 2021.11's dynamic policy (helper_IMB_functions.h, IMB_init_buffers_iter), as it
 * runs it for its own benchmarks: the whole measurement once with 1 repetition, then with
 * min(the -iter count, about a second's worth: 1000 below 1 ms, the processes' largest), its
 * t_pure (the slowest process's) giving 1 + limit / t_pure, never more than a shorter
 * length's count; rank 0's count for every group. Both probes are warm-up too, as there. */
static long nbc_time_reps(struct block_run *r, long n_rule, const long long *lens, long *counts,
                          size_t k)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);
    double t = nbc_probe(r, 1);
    long n = t < 1.0 / MB_IMB_MSGSPERSAMPLE ? MB_IMB_MSGSPERSAMPLE
             : t < 1.0                      ? (long)(1.0 / t + 0.5)
                                            : 1;

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG, MPI_MAX, r->g.active));
    if (n > n_rule)
        n = n_rule;
    if (n > 1)
        t = nbc_probe(r, n);
    n = mb_imb_time_reps((enum mb_imb_time_rule)c->time_rule, n_rule, mb_imb_time_limit_of(r->b, c),
                         t > 1e-8 ? t : 0.0, lens, counts, k);
    MB_MPI(MPI_Bcast(&n, 1, MPI_LONG, 0, r->g.active));
    counts[k] = n;
    return n;
}

/* An IMB-NBC row (Intel IMB 2021.11, src_c/IMB_bcast.c IMB_ibcast and the others): after
 * 2021.11's warm-up - its whole measurement with n/10 repetitions, untimed - the pure loop,
 * then with overlap the loop with the CPU busy; each repetition timed alone, the -sync
 * barriers after it. */
static void measure_nbc(struct block_run *r, long n, struct mine *m)
{
    const struct mb_imb_nbc_loop l = nbc_loop(r);
    const long w = warmup_reps(r, n);
    struct mb_imb_nbc_times t;

    if (w > 0)
        mb_imb_nbc_measure(&l, w, &t);
    mb_imb_nbc_measure(&l, n, &t);
    m->t_pure = t.t_pure * 1e6;
    m->t_ovrl = t.t_ovrl * 1e6;
    m->t_cpu = t.t_cpu * 1e6;
    m->t = r->b->overlap ? m->t_ovrl : m->t_pure;
}

/* Whether a block of an Intel IMB 2021.11 benchmark has run out of its time (imb_plan.h,
 * mb_imb_block_time_cap) on any active process: asked, as 2021.11 asks, before each length
 * is measured and after its repetitions are chosen (their probes count). */
static int timed_out(struct block_run *r)
{
    const double cap = mb_imb_block_time_cap(r->b, mb_imb_cfg(r->cfg));
    int out;

    if (cap <= 0)
        return 0;
    out = mb_stopwatch_read(&r->started) + r->charged > cap;
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &out, 1, MPI_INT, MPI_MAX, r->g.active));
    return out;
}

/* Length lens[k]: its repetitions (the -iter rule, or the -time policy with the counts of the
 * block's earlier lengths), the timed loop(s), the check, the row. A block out of time gets a
 * "time-out." row and no more lengths (return 1). */
static int measure(struct block_run *r, const long long *lens, long *counts, size_t k,
                   struct mb_imb_tally *tally)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);
    const long long x = lens[k];
    const long n_rule = mb_imb_reps_of(r->b, r->mode, x, r->g.q, c);
    long n = n_rule, n_min = 0;
    struct mine m = {.defects = -1};

    if (mb_imb_time_limit_of(r->b, c) > 0) {
        n = mb_imb_nbc_row(r->b) ? nbc_time_reps(r, n_rule, lens, counts, k)
                                 : time_reps(r, n_rule, lens, counts, k);
        n_min = mb_imb_time_min_reps(n_rule);
    }
    if (timed_out(r)) {
        skip_row(r, x, MB_ROW_SKIP_TIME, tally);
        return 1;
    }
    if (mb_imb_nbc_row(r->b)) {
        measure_nbc(r, n, &m);
    } else {
        const long w = warmup_reps(r, n);
        if (w > 0)
            (void)timed_loop(r, w, 0); /* untimed (docs/adr/imb-warm-up.md) */
        m.t = sampled_loop(r, n) * 1e6 * r->b->time_scale;
        if (r->b->written)
            r->b->written(&r->a, n);
        if (r->b->istart) {
            m.t_ovrl = overlap_loop(r, n) * 1e6;
            if (r->b->written)
                r->b->written(&r->a, n);
        }
    }
    if (r->cfg->common.check)
        m.defects = check_once(r, r->b->reset ? 0 : n - 1);
    /* A length whose I/O failed has no row: its times are of failed calls. (IMB-EXT's
     * timed loops never record a failure: only its window creation does, agreed before.) */
    if (r->f->io && stopped(r))
        return 1;
    report(r, x, n, n_min, &m, tally);
    return 0;
}

/* Over the lengths the block runs (a length skipped for -mem or the int range never
 * reaches the file), the largest repetition count and the most bytes of its file a
 * process's timed loops reach (IMB-IO: what the read benchmarks' file must hold). */
static void extent(struct block_run *r, const long long *lens, size_t nlen)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);

    r->a.span = mb_imb_io_span(r->b, lens, nlen, r->g.q, c, r->cfg->common.check);
    r->a.max_reps = 1;
    for (size_t k = 0; k < nlen; k++) {
        const struct mb_imb_demand d =
            mb_imb_demand(r->b, lens[k], r->g.q, c, r->cfg->common.check);
        const long most = mb_imb_reps_most(r->b, lens[k], r->g.q, c);
        if (mb_imb_runnable(&d, c) && most > r->a.max_reps)
            r->a.max_reps = most;
    }
}

/* The warm-up (guide 5.2.6): N_WARMUP samples of warm_x bytes touch the first N_WARMUP
 * buffers of that length's layout only - not the sections of a whole timed loop, which the
 * cap may leave unallocated (IMB-EXT -mem 1e-6 put its warm-up past the end of its window:
 * MPI_ERR_RMA_RANGE). */
static struct mb_imb_demand warmup_demand(const struct block_run *r, long long warm_x)
{
    return mb_imb_demand_first(
        mb_imb_demand(r->b, warm_x, r->g.q, mb_imb_cfg(r->cfg), r->cfg->common.check),
        r->f->warmups);
}

/* What the block's buffers must hold: every length that fits the cap, and the warm-up when it
 * fits too (it runs only then). */
static void block_need(const struct block_run *r, const long long *lens, size_t nlen,
                       long long warm_x, size_t *smax, size_t *rmax)
{
    *smax = *rmax = 0;
    for (size_t k = 0; k <= nlen; k++) {
        struct mb_imb_demand d = k < nlen ? mb_imb_demand(r->b, lens[k], r->g.q, mb_imb_cfg(r->cfg),
                                                          r->cfg->common.check)
                                          : warmup_demand(r, warm_x);
        if (!mb_imb_runnable(&d, mb_imb_cfg(r->cfg)))
            continue;
        if (d.sregion > *smax)
            *smax = d.sregion;
        if (d.rregion > *rmax)
            *rmax = d.rregion;
    }
}

/* Whether length x runs within the cap (and the int range). */
static int first_runs(const struct block_run *r, long long x)
{
    const struct mb_imb_demand d =
        mb_imb_demand(r->b, x, r->g.q, mb_imb_cfg(r->cfg), r->cfg->common.check);
    return !d.int_overflow && mb_imb_runnable(&d, mb_imb_cfg(r->cfg));
}

/* Touches every page of the buffers once, with valid floats for the reductions (guide 5.2.5). */
static void fill(const struct block_run *r, char *s, size_t sbytes, char *rb, size_t rbytes)
{
    if (s)
        mb_fill_floats((float *)(void *)s, sbytes / sizeof(float), r->a.rank, 0);
    if (rb)
        memset(rb, 0, rbytes);
}

/* The pool's buffers at least sbytes and rbytes long (send side first, as IMB_alloc_buf;
 * mb_imb_buf_grow), from
 * the family's source (-alloc), the new ones filled; the block's arguments then point at them.
 * A refused MPI_Alloc_mem is a NULL like a refused mmap, and takes the same all-or-nobody
 * path: collective over the block's active processes, so called by each of them alike. */
static int reserve(struct block_run *r, struct mb_imb_pool *pool, size_t sbytes, size_t rbytes)
{
    const enum mb_buf_source src = mb_imb_buf_source(mb_imb_cfg(r->cfg));
    int ok;

    /* The pool keeps a buffer for 0 bytes too (1 byte): its arguments are never NULL. */
    if (mb_imb_buf_grow(src, &pool->s, &pool->scap, sbytes ? sbytes : 1))
        fill(r, pool->s, pool->scap, NULL, 0);
    if (mb_imb_buf_grow(src, &pool->r, &pool->rcap, rbytes ? rbytes : 1))
        fill(r, NULL, 0, pool->r, pool->rcap);
    ok = pool->s && pool->r;
    /* All or nobody: a process that could not allocate must not leave the others waiting. */
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r->g.active));
    r->a.sbuf = pool->s;
    r->a.rbuf = pool->r;
    r->a.sregion = pool->scap;
    r->a.rregion = pool->rcap;
    return ok;
}

void mb_imb_pool_free(struct mb_imb_pool *pool, const struct mb_config *cfg)
{
    const enum mb_buf_source src = mb_imb_buf_source(mb_imb_cfg(cfg));

    mb_buf_free_from(src, pool->s, pool->scap);
    mb_buf_free_from(src, pool->r, pool->rcap);
    *pool = (struct mb_imb_pool){0};
}

/* -prime on (not in IMB 3.1; off by default, docs/adr/prime.md). Buffer warm-up: untimed
 * samples at the block's largest runnable length, so that every
 * process has received into every buffer slot once before any timed loop. The first kernel
 * copy into pages that no copy has written yet is slow (Linux cross-memory attach, which Open
 * MPI's and MPICH's shared-memory transports use above a few KB: 5-7 ms for the first 4 MiB
 * on the project's VM against 0.3-0.5 ms later; registering memory with an RDMA network is
 * the same kind of one-time cost). Without this, the first sample of every length paid it for
 * the part of the buffers no shorter length had used: 40 % of the 4 MiB bandwidth at IMB's 10
 * repetitions (docs/figures.md). Repetition counts, buffers and timed loops stay IMB
 * 3.1's; its warm-up (guide 5.2.6) is there to keep such initialisation out of the timings.
 * Two samples, Q with a rotating root (so that every process has received), or one more
 * than the off-cache slots; more than two only within the largest length's repetitions. */
static void prime(struct block_run *r, const long long *lens, size_t nlen)
{
    const struct mb_imb_config *c = mb_imb_cfg(r->cfg);
    long long top = -1;
    long n, most;

    for (size_t k = 0; k < nlen; k++) {
        struct mb_imb_demand d = mb_imb_demand(r->b, lens[k], r->g.q, c, r->cfg->common.check);
        if (mb_imb_runnable(&d, c) && lens[k] > top)
            top = lens[k];
    }
    if (top <= 0)
        return;
    set_length(r, top);
    most = mb_imb_reps_of(r->b, r->mode, top, r->g.q, c);
    n = (long)r->d.slots.n + 1;
    if (n < r->g.q)
        n = r->g.q;
    if (n > most)
        n = most > 2 ? most : 2;
    /* One-sided rows put every repetition into its own section of the window (guide 4.2.2.2)
     * and have no more sections than repetitions: at 1 repetition, one sample. */
    if (r->b->sections && n > (long)r->d.slots.n)
        n = (long)r->d.slots.n;
    (void)timed_loop(r, n, 0);
}

/* The row's setup (a window over the buffers) and its teardown, with the block's watchdog
 * label; nothing when the row has none or the buffers could not be allocated. */
static void setup(struct block_run *r, int ok)
{
    if (!ok || !r->b->setup)
        return;
    set_length(r, 0);
    r->b->setup(&r->a);
}

static void teardown(struct block_run *r, int ok)
{
    if (ok && r->b->teardown)
        r->b->teardown(&r->a);
}

/* -buf_scope run in IMB-IO (docs/adr/program-imb-io-buffers.md): before a length's timed
 * loops the run's buffers grow to what IMB 3.1 allocates for it (IMB_init_buffers_iter: X
 * bytes for every process, in whole ints: the demand's io_floor, which the -mem check
 * counts), or to the length's demand if that is more, and are then set as IMB_set_buf sets
 * them - the send buffer patterned, the receive buffer zeroed. A refused allocation on any
 * process skips the row on all (all or nobody). */
static int grow_iobufs(struct block_run *r)
{
    struct mb_imb_io_buffers *k = r->iobufs;
    const size_t imb = r->d.io_floor;
    const size_t s = r->d.sregion > imb ? r->d.sregion : imb;
    const size_t rr = r->d.rregion > imb ? r->d.rregion : imb;
    int ok = mb_imb_io_buffers_grow(k, s, rr);

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r->g.active));
    if (!ok)
        return 0;
    mb_fill_floats((float *)(void *)k->s, s / sizeof(float), r->a.rank, 0);
    memset(k->r, 0, rr);
    r->a.sbuf = k->s;
    r->a.rbuf = k->r;
    r->a.sregion = k->s_alloc;
    r->a.rregion = k->r_alloc;
    r->blk.mem_bytes = k->s_alloc + k->r_alloc;
    return 1;
}

/* A length that runs: the row's per-length hooks (IMB-EXT: the length's window, untimed)
 * around its measurement, under the length's watchdog label - creating a window is
 * collective, so a stopped process must not hang it unnoticed. A window the library refused
 * stops the block before the length is measured, on every active process. */
static int run_length(struct block_run *r, const long long *lens, long *counts, size_t k,
                      struct mb_imb_tally *tally)
{
    int stop = 0;

    if (r->b->open_length) {
        r->b->open_length(&r->a);
        stop = stopped(r);
    }
    if (!stop)
        stop = measure(r, lens, counts, k, tally);
    if (r->b->close_length)
        r->b->close_length(&r->a);
    return stop;
}

static void run_active(struct block_run *r, const struct mb_imb_plan *plan,
                       const struct mb_imb_item *item, struct mb_imb_tally *tally)
{
    const struct mb_ctx *ctx = r->ctx;
    const struct mb_config *cfg = r->cfg;
    const struct mb_imb_bench *b = r->b;
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const long long warm_x = b->sizeless ? 0 : r->f->warm_x;
    const int multi = item->multi;
    const long long *lens = item->lens;
    const size_t nlen = item->nlen;
    long *counts = mb_xcalloc(nlen ? nlen : 1, sizeof *counts); /* -time: 0 = not run */
    struct mb_imb_pool own = {0};
    /* -buf_scope block: the block's own buffers, for its largest length, freed after it; also
     * when a buffer must not move within the block - the block's window serves every length
     * (-win_scope block), or -prime fills the largest length's before the first. */
    const int per_length = c->buf_scope == MB_IMB_BUF_SCOPE_LENGTH;
    const int whole = c->buf_scope == MB_IMB_BUF_SCOPE_BLOCK ||
                      c->win_scope == MB_IMB_WIN_SCOPE_BLOCK || c->prime || !plan->pool;
    struct mb_imb_pool *pool =
        c->buf_scope != MB_IMB_BUF_SCOPE_RUN || !plan->pool ? &own : plan->pool;
    /* -buf_fill length (docs/adr/program-imb-buffer-fill.md): before each length, its part of
     * the send buffer is written and of the receive buffer zeroed, as IMB 3.1's IMB_set_buf
     * does from IMB_init_buffers_iter. Not under a block's window (-win_scope block), whose
     * memory must not change between its epochs; IMB-IO's buffers are written where they grow
     * (grow_iobufs). */
    const int fill_each = c->buf_fill == MB_IMB_BUF_FILL_LENGTH && !mb_imb_family(c)->io &&
                          c->win_scope != MB_IMB_WIN_SCOPE_BLOCK;
    size_t smax, rmax, sfirst = 0, rfirst = 0;
    struct mb_imb_demand warm;
    int ok, stop;

    r->blk = (struct mb_block){.suite = r->f->name,
                               .name = b->name,
                               .mode = r->mode,
                               .cls = class_name(b->cls),
                               .layout = layout_of(b, multi),
                               .multi = multi,
                               .q = r->g.q,
                               .ngroups = r->g.ngroups,
                               .idle = r->g.idle,
                               .nprocs = ctx->size,
                               .order = plan->order,
                               .map_rows = (int)c->map_rows,
                               .map_cols = (int)c->map_cols,
                               .check = cfg->common.check && !b->sizeless,
                               .spread = cfg->common.spread && mb_config_samples(cfg) > 1,
                               .raw_samples = cfg->common.raw_samples,
                               .decimal_mb = b->imb2021};
    r->a = (struct mb_imb_args){.comm = r->g.group,
                                .rank = r->g.group_rank,
                                .size = r->g.q,
                                .left = (r->g.group_rank + r->g.q - 1) % r->g.q,
                                .right = (r->g.group_rank + 1) % r->g.q,
                                .check = cfg->common.check,
                                .parent = r->g.active,
                                .win = MPI_WIN_NULL,
                                .win_bytes = -1,
                                .info = mb_win_info(c->win_info),
                                .fh = MPI_FILE_NULL,
                                .sync = r->g.group,
                                .group_no = multi >= 0 ? r->g.my_group : -1,
                                .world_rank = ctx->rank,
                                .bench = b,
                                .cfg = c,
                                .mode = r->mode,
                                .selftest = cfg->common.selftest,
                                .failure = &r->fail,
                                .io_buffers = r->iobufs,
                                .fixed_root = !c->root_shift};
    /* 2021.11 starts a block's clock when its process count is set up, before the first
     * length's buffers (helper_sync_globals_2). */
    r->started = mb_stopwatch_start();
    if (b->overlap && plan->nbc_cpu) {
        r->charged = plan->nbc_cpu->uncharged_secs; /* the first overlap block's: 2021.11's */
        plan->nbc_cpu->uncharged_secs = 0;
    }
    extent(r, lens, nlen);
    if (b->setup_first)
        setup(r, 1);
    if (r->iobufs) {
        /* IMB-IO under -buf_scope run: the run's buffers, grown length by length
         * (grow_iobufs). */
        ok = 1;
    } else {
        block_need(r, lens, nlen, warm_x, &smax, &rmax);
        r->blk.mem_bytes = smax + rmax;
        if (!whole) {
            /* -buf_scope run: what the warm-up and the first length that runs need now, each
             * later length grows the buffers before its window (IMB 3.1 IMB_init_buffers_iter). */
            size_t k = 0;
            while (k + 1 < nlen && !first_runs(r, lens[k]))
                k++;
            block_need(r, lens, nlen ? k + 1 : 0, warm_x, &sfirst, &rfirst);
        }
        ok = reserve(r, pool, whole ? smax : sfirst, whole ? rmax : rfirst);
        if (ok)
            fill(r, r->a.sbuf, r->a.sregion, r->a.rbuf, r->a.rregion);
    }
    r->a.counts = mb_xmalloc((size_t)r->g.q * sizeof *r->a.counts);
    r->a.displs = mb_xmalloc((size_t)r->g.q * sizeof *r->a.displs);
    /* No row has more samples than repetitions: the most of the block's lengths bounds what
     * each process keeps and rank 0 gathers. */
    r->k = mb_config_samples(cfg);
    if (r->k > r->a.max_reps)
        r->k = r->a.max_reps;
    r->kept = mb_xcalloc((size_t)r->k, sizeof *r->kept);
    if (ctx->rank == 0) {
        r->gathered = mb_xmalloc((size_t)r->g.q * (size_t)r->g.ngroups * (size_t)(GATHERED + r->k) *
                                 sizeof(double));
        mb_imb_text_block(&ctx->out, &r->blk);
    }
    if (!b->setup_first)
        setup(r, ok);
    stop = stopped(r); /* IMB-IO: a file that could not be made; IMB-EXT: a refused window */
    warm = warmup_demand(r, warm_x);
    if (!stop && ok && !r->iobufs && r->f->warmups > 0 && mb_imb_runnable(&warm, c)) {
        /* Warm-up (guide 5.2.6): N_WARMUP samples of sizeof(assign_type) bytes, completed as
         * the block's mode does; the time is not used. Left out when a -mem too small for
         * 4 bytes leaves it no room (then only 0-byte lengths run). */
        set_length(r, warm_x);
        (void)timed_loop(r, r->f->warmups, 0);
        if (c->prime)
            prime(r, lens, nlen);
    } else if (!stop && ok && !r->iobufs && r->f->warmups == 0 && c->prime) {
        /* A family without that warm-up (IMB-NBC, IMB-MPI4: Intel IMB 2021.11 has none). */
        prime(r, lens, nlen);
    }
    for (size_t k = 0; k < nlen && !stop; k++) {
        snprintf(r->label, sizeof r->label, "%s %s%s%s on %d processes, %lld bytes", r->f->name,
                 r->g.ngroups > 1 ? "Multi-" : "", b->name, mode_label(r->mode), r->g.q, lens[k]);
        mb_watchdog_arm(ctx->wd, r->label);
        set_length(r, lens[k]);
        if (r->d.int_overflow)
            skip_row(r, lens[k], MB_ROW_SKIP_INT, tally);
        else if (!ok || !mb_imb_runnable(&r->d, c) ||
                 (r->iobufs ? !grow_iobufs(r)
                            : !(ok = reserve(r, pool, r->d.sregion, r->d.rregion))))
            skip_row(r, lens[k], MB_ROW_SKIP_MEMORY, tally);
        else {
            if (fill_each)
                fill(r, r->a.sbuf, r->d.sregion, r->a.rbuf, r->d.rregion);
            stop = run_length(r, lens, counts, k, tally);
        }
        /* -buf_scope length: the length's buffers go after its row, as Intel IMB 2021.11
         * frees them (original_benchmark.h: IMB_del_s_buf, IMB_del_r_buf). */
        if (per_length && pool == &own)
            mb_imb_pool_free(&own, cfg);
    }
    teardown(r, ok || b->setup_first);
    if (r->a.info != MPI_INFO_NULL)
        MB_MPI(MPI_Info_free(&r->a.info));
    free(r->gathered);
    free(r->kept);
    free(r->a.counts);
    free(r->a.displs);
    if (pool == &own)
        mb_imb_pool_free(&own, cfg);
    free(counts);
}

/* The end of a block on every rank (it also stands for the barrier that ends it): whether an
 * active process recorded a failure - a failed I/O call, also in its teardown after the last
 * length, or a refused window - and, if so, the message of the lowest such rank, which rank 0
 * reports. */
static void block_end(const struct mb_ctx *ctx, struct block_run *r, struct mb_imb_tally *tally)
{
    int who = r->fail.kind != MB_ERR_NONE ? ctx->rank : ctx->size;

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, ctx->world));
    if (who == ctx->size)
        return;
    MB_MPI(MPI_Bcast(r->fail.msg, (int)sizeof r->fail.msg, MPI_CHAR, who, ctx->world));
    r->fail.msg[sizeof r->fail.msg - 1] = '\0';
    tally->failed = 1;
    snprintf(tally->why, sizeof tally->why, "%s", r->fail.msg);
    if (ctx->rank == 0)
        mb_printf(&ctx->out, "\n# stopped: %s\n", r->fail.msg);
}

void mb_imb_run_block(const struct mb_ctx *ctx, const struct mb_config *cfg,
                      const struct mb_imb_plan *plan, const struct mb_imb_item *item,
                      struct mb_imb_tally *tally)
{
    struct block_run r;
    struct mb_idle idle;
    const struct mb_imb_family *f = plan->family;
    const struct mb_imb_bench *b = &f->benchmarks[item->bench];

    if (item->q == 0) {
        /* Known on every rank without communication: nothing collective happens. */
        if (ctx->rank == 0) {
            struct mb_jobj o;
            const int needs = mb_imb_procs_needed(b);
            mb_printf(&ctx->out, "\n# %s skipped: it needs %d processes, %d started\n", b->name,
                      needs, ctx->size);
            mb_jobj_begin(&o, "skipped", ctx->json);
            mb_jobj_str(&o, "benchmark", b->name);
            mb_jobj_int(&o, "processes_needed", needs);
            mb_jobj_write(&o, ctx->json);
        }
        return;
    }
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.cfg = cfg;
    r.f = f;
    r.b = b;
    r.mode = item->mode;
    r.cpu = plan->cpu;
    r.nbc_cpu = plan->nbc_cpu;
    r.iobufs = plan->io_buffers;
    snprintf(r.label, sizeof r.label, "%s %s%s on %d processes (setting up)", f->name, b->name,
             mode_label(r.mode), item->q);
    mb_watchdog_arm(ctx->wd, r.label);
    mb_groups_create(&r.g, ctx->world, plan->position, item->q, item->multi >= 0);
    /* Idle processes wait while the active ones run (guide 5.2.2), the whole block, armed by
     * rank 0's heartbeat (core/idle.h; rank 0 is always active). */
    mb_idle_begin(&idle, ctx->wd, ctx->world, r.g.idle > 0, r.g.my_group < 0);
    if (r.g.my_group >= 0) {
        run_active(&r, plan, item, tally);
    } else {
        snprintf(r.label, sizeof r.label, "%s %s%s on %d processes (this process idle)", f->name,
                 b->name, mode_label(r.mode), item->q);
        mb_idle_wait(&idle, r.label);
    }
    snprintf(r.label, sizeof r.label, "%s %s%s on %d processes (finishing)", f->name, b->name,
             mode_label(r.mode), item->q);
    mb_watchdog_arm(ctx->wd, r.label);
    mb_idle_end(&idle);
    block_end(ctx, &r, tally);
    mb_groups_free(&r.g);
    mb_watchdog_disarm(ctx->wd);
}
