/* SPDX-License-Identifier: BSD-3-Clause */
/* The loops of Intel IMB 2021.11's IMB-NBC and IMB-MPI4 (imb_nbc_driver.h). */
#include "imb/imb_nbc_driver.h"

#include "core/error.h"

/* The part of the loop that repetition i belongs to, of k parts as even as n allows (the first
 * n % k one longer), as the blocking rows split theirs (imb_driver.c sampled_loop). */
static long part_of(long i, long n, long k)
{
    const long q = n / k, r = n % k;
    return i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
}

/* The loop's request: IMB-MPI4's persistent one is created before the loop (2021.11: after
 * the N_BARR barriers) and freed after it; IMB-NBC's is made by every start. */
static void loop_begin(const struct mb_imb_nbc_loop *l, MPI_Request *req)
{
    mb_timing_sync(&l->first);
    if (l->b->persist_init)
        l->b->persist_init(l->a, 0, req);
}

static void loop_end(const struct mb_imb_nbc_loop *l, MPI_Request *req)
{
    if (l->b->persist_init)
        MB_MPI(MPI_Request_free(req));
}

/* Repetition i's start: MPI_Start of the persistent request, or the non-blocking call. */
static inline void start(const struct mb_imb_nbc_loop *l, long i, MPI_Request *req)
{
    if (l->b->persist_init)
        MB_MPI(MPI_Start(req));
    else
        l->b->nbc_start(l->a, i, req);
}

/* Each part's time per repetition from its total. */
static void parts_done(const struct mb_imb_nbc_loop *l, long n)
{
    const long k = l->k < n ? l->k : n;

    for (long j = 0; j < k; j++)
        l->kept[j] /= (double)(n / k + (j < n % k));
}

/* 2021.11 times its barrier kernels' loops whole (src_c/IMB_barrier.c: IMB_ibarrier_pure,
 * IMB_ibarrier, IMB_barrier_persist_pure, IMB_barrier_persist: one clock read before the loop
 * and one after, no -sync barrier between repetitions) and every other kernel's one repetition
 * at a time, the -sync barrier after each outside the clock reads. */
static int whole_loop(const struct mb_imb_nbc_loop *l)
{
    return l->b->cls == MB_IMB_SYNC;
}

/* The repetitions of part j of k of a loop of n. */
static long part_size(long j, long n, long k)
{
    return n / k + (j < n % k);
}

/* 2021.11's _pure kernel (see whole_loop). The samples (keep) are k consecutive parts of the
 * loop: a whole loop is timed part by part, so one clock pair around each. Returns t_pure. */
static double pure_loop(const struct mb_imb_nbc_loop *l, long n, int keep)
{
    struct mb_timing tm = mb_timing_make(mb_sync_none());
    const long k = !keep ? 1 : l->k < n ? l->k : n;
    MPI_Request req;

    if (keep)
        for (long j = 0; j < k; j++)
            l->kept[j] = 0;
    loop_begin(l, &req);
    if (whole_loop(l)) {
        for (long j = 0, i = 0; j < k; j++) {
            const long m = part_size(j, n, k);
            mb_timing_start(&tm);
            for (const long end = i + m; i < end; i++) {
                start(l, i, &req);
                MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            (void)mb_timing_stop(&tm, m);
            if (keep)
                l->kept[j] = tm.elapsed;
        }
    } else {
        for (long i = 0; i < n; i++) {
            mb_timing_start(&tm);
            start(l, i, &req);
            MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            (void)mb_timing_stop(&tm, 1);
            if (keep)
                l->kept[part_of(i, n, k)] += tm.elapsed;
            mb_timing_sync(&l->between);
        }
    }
    loop_end(l, &req);
    if (keep)
        parts_done(l, n);
    return tm.total / (double)n;
}

/* The loop with the CPU work of `reps` products inside every repetition (see whole_loop);
 * t_CPU is timed every repetition in both forms, as 2021.11 times it. */
static void overlap_loop(const struct mb_imb_nbc_loop *l, long n, long reps,
                         struct mb_imb_nbc_times *t)
{
    struct mb_timing ovrl = mb_timing_make(mb_sync_none());
    struct mb_timing comp = mb_timing_make(mb_sync_none());
    const long k = l->k < n ? l->k : n;
    MPI_Request req;

    for (long j = 0; j < k; j++)
        l->kept[j] = 0;
    loop_begin(l, &req);
    if (whole_loop(l)) {
        for (long j = 0, i = 0; j < k; j++) {
            const long m = part_size(j, n, k);
            mb_timing_start(&ovrl);
            for (const long end = i + m; i < end; i++) {
                start(l, i, &req);
                mb_timing_start(&comp);
                mb_imb_nbc_cpu_work(reps);
                (void)mb_timing_stop(&comp, 1);
                MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            (void)mb_timing_stop(&ovrl, m);
            l->kept[j] = ovrl.elapsed;
        }
    } else {
        for (long i = 0; i < n; i++) {
            mb_timing_start(&ovrl);
            start(l, i, &req);
            mb_timing_start(&comp);
            mb_imb_nbc_cpu_work(reps);
            (void)mb_timing_stop(&comp, 1);
            MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            (void)mb_timing_stop(&ovrl, 1);
            l->kept[part_of(i, n, k)] += ovrl.elapsed;
            mb_timing_sync(&l->between);
        }
    }
    loop_end(l, &req);
    parts_done(l, n);
    t->t_ovrl = ovrl.total / (double)n;
    t->t_cpu = comp.total / (double)n;
}

void mb_imb_nbc_measure(const struct mb_imb_nbc_loop *l, long n, struct mb_imb_nbc_times *t)
{
    long reps;

    t->t_pure = pure_loop(l, n, !l->b->overlap);
    t->t_ovrl = t->t_cpu = 0;
    if (!l->b->overlap)
        return;
    reps = mb_imb_nbc_cpu_reps(l->cpu, t->t_pure);
    mb_imb_nbc_cpu_work(reps); /* 2021.11's initialisation call: once, its time unused */
    overlap_loop(l, n, reps, t);
}

void mb_imb_nbc_calibrate(struct mb_imb_nbc_cpu *c)
{
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    mb_timing_start(&tm);
    mb_imb_nbc_cpu_work(MB_IMB_NBC_CPU_PROBE);
    (void)mb_timing_stop(&tm, 1);
    /* A clock that did not see it (a simulator that does not time computation): rated as if
     * the probe took a second, where 2021.11 would divide by zero. */
    mb_imb_nbc_cpu_rate(c, tm.elapsed > 0 ? tm.elapsed : 1.0);
    c->uncharged_secs = tm.elapsed;
}
