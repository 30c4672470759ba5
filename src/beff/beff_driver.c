/* SPDX-License-Identifier: BSD-3-Clause */
/* The b_eff measurement (b_eff paper §3 "Additional rules"; the b_eff 3.6 source's loop nest and
 * loop-length control): the loop nest, the barrier before every measurement, the clock, the
 * loop-length rules, and the reduction of every measurement to rank 0 as soon as it is taken. This
 * is the only b_eff file that times a measurement, through core/timing.h (docs/architecture.md,
 * property 2). */
#include "beff/beff.h"
#include "beff/beff_report.h"

#include "core/error.h"
#include "core/suite.h"
#include "core/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- loop-length rules (pure) --------------------------------------------------------- */

static int clamp_loops(double n, long max_loop)
{
    if (!(n >= 1))
        return 1;
    return n > (double)max_loop ? (int)max_loop : (int)n;
}

int mb_beff_loop_paper_first(double t_per_iteration, long max_loop)
{
    /* b_eff paper §3: 300 iterations for the shortest message, fewer if a loop would take
     * longer than the 2.5-5 ms window. */
    if (!(t_per_iteration > 0))
        return (int)max_loop;
    return clamp_loops(MB_BEFF_LOOP_TARGET / t_per_iteration, max_loop);
}

int mb_beff_loop_paper_next(int n, double t_mean, double q, long max_loop)
{
    /* The same loop length on a q times longer message is expected to take q times as
     * long; outside the window it is re-aimed at the middle of the window. */
    double projected = t_mean * q;

    if (!(projected > 0) || (projected >= MB_BEFF_LOOP_TMIN && projected <= MB_BEFF_LOOP_TMAX))
        return n < max_loop ? n : (int)max_loop;
    return clamp_loops(n * MB_BEFF_LOOP_TARGET / projected, max_loop);
}

struct mb_beff36_rules mb_beff36_rules_of(int profile)
{
    struct mb_beff36_rules r = {MB_BEFF36_TIMEPERLOOP, MB_BEFF36_MAX_LAST_TWO};
    if (profile == MB_BEFF_V36_TEST) {
        r.timeperloop = MB_BEFF36_TEST_TIMEPERLOOP;
        r.max_last_two = MB_BEFF36_TEST_MAX_LAST_TWO;
    }
    return r;
}

int mb_beff36_loop_first(double t_cal_total, double timeperloop, int *maxloops)
{
    /* b_eff 3.6's loop-length control: maxloops = 10 * 0.5 s / T_cal (at least 10); the first
     * loop is half of it. */
    double m = t_cal_total > 0 ? MB_BEFF_CAL_LOOPS * timeperloop / t_cal_total : 1e9;

    *maxloops = m < MB_BEFF_CAL_LOOPS ? MB_BEFF_CAL_LOOPS : (m > 1e9 ? 1000000000 : (int)m);
    return *maxloops / 2;
}

int mb_beff36_loop_next(int n, double t_total, double q, int maxloops, double timeperloop)
{
    /* b_eff 3.6's loop-length control: divide by the size growth, scale up towards 0.5 s per
     * size, cap at maxloops. */
    double v;

    if (!(t_total > 0))
        return n;
    v = n / q * fmax(1.0, timeperloop / t_total);
    return (int)fmax(1.0, fmin(v, (double)maxloops));
}

int mb_beff36_shorten(double tmin18, int loops18, int npat, int nrep, double f, double limit)
{
    /* b_eff 3.6's 60 s rule: projected time of the two largest sizes over all patterns, methods and
     * repetitions, with a factor 4 for slower patterns. */
    double e;

    if (loops18 <= 0)
        return 0;
    e = tmin18 * npat * 4 * (f + f * f) * nrep * MB_BEFF_METHODS / loops18;
    return e > limit;
}

/* ---- data ----------------------------------------------------------------------------- */

/* The result arrays' lengths: one entry per measurement (repetition x pattern x size x
 * method), one per loop-length slot (size x repetition x method). */
static size_t measurements(long nrep, int npat)
{
    return (size_t)nrep * (size_t)npat * MB_BEFF_SIZES * MB_BEFF_METHODS;
}

static size_t loop_slots(long nrep)
{
    return (size_t)MB_BEFF_SIZES * (size_t)nrep * MB_BEFF_METHODS;
}

void mb_beff_data_init(struct mb_beff_data *d, const struct mb_config *cfg, int npat)
{
    const size_t n = measurements(mb_beff_cfg(cfg)->repetitions, npat);
    const size_t nl = loop_slots(mb_beff_cfg(cfg)->repetitions);

    memset(d, 0, sizeof *d);
    d->nrep = (int)mb_beff_cfg(cfg)->repetitions;
    d->npat = npat;
    d->memory_mb = mb_beff_cfg(cfg)->memory_mb;
    d->factor = mb_beff_sizes(mb_beff_cfg(cfg)->memory_mb, d->len);
    d->b = mb_xcalloc(n, sizeof *d->b);
    d->tmax = mb_xcalloc(n, sizeof *d->tmax);
    d->pmin = mb_xcalloc(n, sizeof *d->pmin);
    d->pavg = mb_xcalloc(n, sizeof *d->pavg);
    d->pmax = mb_xcalloc(n, sizeof *d->pmax);
    d->loops = mb_xcalloc(n, sizeof *d->loops);
    d->state = mb_xcalloc(n, sizeof *d->state);
    d->looplen = mb_xcalloc(nl, sizeof *d->looplen);
    d->tsum = mb_xcalloc(nl, sizeof *d->tsum);
    d->tlo = mb_xcalloc(nl, sizeof *d->tlo);
    d->thi = mb_xcalloc(nl, sizeof *d->thi);
    d->mark = mb_xmalloc(nl);
    memset(d->mark, ' ', nl);
    d->best = mb_xmalloc((size_t)d->nrep * (size_t)npat * sizeof *d->best);
    for (size_t i = 0; i < (size_t)d->nrep * (size_t)npat; i++)
        d->best[i] = -1;
    d->reps_last = d->nrep;
}

size_t mb_beff_data_bytes(long nrep, int npat)
{
    const size_t n = measurements(nrep, npat), nl = loop_slots(nrep);
    const struct mb_beff_data *d = NULL;

    /* What mb_beff_data_init allocates: 45 bytes per measurement (3.3 MB at the defaults,
     * 570 MB at --random 10000 --repetitions 20). */
    return n * (5 * sizeof *d->b + sizeof *d->loops + sizeof *d->state) +
           nl * (sizeof *d->looplen + 3 * sizeof *d->tsum + sizeof *d->mark) +
           (size_t)nrep * (size_t)npat * sizeof *d->best;
}

void mb_beff_data_free(struct mb_beff_data *d)
{
    free(d->b);
    free(d->tmax);
    free(d->pmin);
    free(d->pavg);
    free(d->pmax);
    free(d->loops);
    free(d->state);
    free(d->looplen);
    free(d->tsum);
    free(d->tlo);
    free(d->thi);
    free(d->mark);
    free(d->best);
    memset(d, 0, sizeof *d);
}

/* ---- one measurement ------------------------------------------------------------------ */

/* The reduction of one measurement: max of the loop time, min / sum / max of the
 * per-process bandwidth (non-participants contribute neutral values). */
enum { R_TMAX, R_PMIN, R_PSUM, R_PMAX, R_N };

static void reduce_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const double *a = in;
    double *b = inout;

    (void)type;
    for (int i = 0; i + R_N <= *len; i += R_N) {
        b[i + R_TMAX] = fmax(a[i + R_TMAX], b[i + R_TMAX]);
        b[i + R_PMIN] = fmin(a[i + R_PMIN], b[i + R_PMIN]);
        b[i + R_PSUM] = a[i + R_PSUM] + b[i + R_PSUM];
        b[i + R_PMAX] = fmax(a[i + R_PMAX], b[i + R_PMAX]);
    }
}

struct meas {
    const struct mb_ctx *ctx;
    const struct mb_beff_patterns *set;
    struct mb_beff_xfer *x;
    MPI_Op op;
    double tick;
};

/* Collective over world: one timed loop of pattern p with method m. Rank 0 gets
 * r[R_*]; the others' r is undefined. */
/* Every rank takes part in every step of b_eff, the broadcasts between measurements too: the
 * watchdog stays armed from the first barrier to the last reduction (core/watchdog.h). */
#define BETWEEN "b_eff: the steps between two measurements"

static void measure(const struct meas *ms, int pi, int m, int k, int len, int loops, int rep,
                    double r[R_N])
{
    const struct mb_beff_pattern *p = &ms->set->p[pi];
    const int enters = p->participation == 1 || (m == MB_BEFF_ALLTOALLV && p->participation == -1);
    double local[R_N] = {0, HUGE_VAL, 0, 0};
    struct mb_beff_where w = {pi, rep, k, -1, p->label};
    char label[160];

    if (ms->ctx->wd) { /* every rank: see core/watchdog.h */
        snprintf(label, sizeof label, "b_eff: pattern p%02d %s, method %s, %d processes, %d bytes",
                 pi, p->label, mb_beff_method_call[m], ms->ctx->size, len);
        mb_watchdog_arm(ms->ctx->wd, label);
    }
    MB_MPI(MPI_Barrier(ms->ctx->world));
    if (enters) {
        /* The barrier above stays where b_eff 3.6 has it, before the warm-up: the timer itself
         * synchronises nothing. */
        struct mb_timing tm = mb_timing_make(mb_sync_none());
        if (m == MB_BEFF_ALLTOALLV)
            mb_beff_a2a_prepare(ms->x, p, len);
        /* As b_eff 3.6: one untimed warm-up iteration for the 18 smallest sizes. */
        if (k < MB_BEFF_WARMUP_SIZES)
            mb_beff_iteration(m, p, ms->x, len, k, &w);
        mb_timing_start(&tm);
        for (w.iteration = 0; w.iteration < loops; w.iteration++)
            mb_beff_iteration(m, p, ms->x, len, k, &w);
        (void)mb_timing_stop(&tm, loops);
        if (m == MB_BEFF_ALLTOALLV)
            mb_beff_a2a_reset(ms->x, p);
        if (p->participation == 1) {
            double t = tm.elapsed > 0 ? tm.elapsed : ms->tick;
            local[R_TMAX] = t;
            local[R_PMIN] = local[R_PSUM] = local[R_PMAX] = (double)len * loops * p->sends / t;
        }
    }
    MB_MPI(MPI_Reduce(local, r, R_N, MPI_DOUBLE, ms->op, 0, ms->ctx->world));
    mb_watchdog_arm(ms->ctx->wd, BETWEEN);
}

/* Rank 0: store one measurement (b_eff paper §3: b = L * messages * looplength / max time). */
static void record(struct mb_beff_data *d, const struct mb_beff_pattern *p, int rep, int pi, int k,
                   int m, int loops, const double r[R_N])
{
    const size_t i = mb_beff_at(d, rep, pi, k, m), l = mb_beff_lat(d, k, rep, m);

    d->tmax[i] = r[R_TMAX];
    d->b[i] = (double)d->len[k] * (double)p->messages * loops / r[R_TMAX];
    d->pmin[i] = r[R_PMIN];
    d->pavg[i] = r[R_PSUM] / (p->participants > 0 ? p->participants : 1);
    d->pmax[i] = r[R_PMAX];
    d->loops[i] = loops;
    d->state[i] = MB_BEFF_MEASURED;
    d->tsum[l] += r[R_TMAX];
    d->tlo[l] = d->tlo[l] > 0 ? fmin(d->tlo[l], r[R_TMAX]) : r[R_TMAX];
    d->thi[l] = fmax(d->thi[l], r[R_TMAX]);
    d->measurements++;
}

/* Rank 0: an entry filled from another one (3.6 rule: other methods, or repetition 0). */
static void copy_entry(struct mb_beff_data *d, size_t to, size_t from)
{
    d->b[to] = d->b[from];
    d->tmax[to] = d->tmax[from];
    d->pmin[to] = d->pmin[from];
    d->pavg[to] = d->pavg[from];
    d->pmax[to] = d->pmax[from];
    d->loops[to] = d->loops[from];
    d->state[to] = d->state[from] ? MB_BEFF_COPIED : 0;
}

/* ---- loop-length decisions (rank 0) ---------------------------------------------------- */

/* Calibration (b_eff 3.6's loop-length control, also used by the paper rule): every measurable
 * pattern once with 10 iterations of 1-byte messages; returns per method the summed loop time and
 * the count. */
static void calibrate(const struct meas *ms, int rep, double tsum[MB_BEFF_METHODS],
                      int cnt[MB_BEFF_METHODS])
{
    for (int m = 0; m < MB_BEFF_METHODS; m++)
        tsum[m] = 0, cnt[m] = 0;
    for (int pi = 0; pi < ms->set->n; pi++)
        for (int m = 0; m < MB_BEFF_METHODS; m++) {
            double r[R_N];
            if (!mb_beff_measurable(&ms->set->p[pi], m))
                continue;
            measure(ms, pi, m, 0, 1, MB_BEFF_CAL_LOOPS, rep, r);
            tsum[m] += r[R_TMAX];
            cnt[m]++;
        }
}

static int count_measured(const struct mb_beff_data *d, int rep, int k, int m)
{
    int c = 0;
    for (int p = 0; p < d->npat; p++)
        c += d->state[mb_beff_at(d, rep, p, k, m)] == MB_BEFF_MEASURED;
    return c;
}

/* Rank 0: the loop lengths of size k in repetition rep; returns 1 when the 3.6 rule
 * shortens the two largest sizes from here on. */
static int decide(const struct mb_config *cfg, struct mb_beff_data *d, int rep, int k,
                  const double cal[MB_BEFF_METHODS], const int calc[MB_BEFF_METHODS],
                  int maxloops[MB_BEFF_METHODS], int loops[MB_BEFF_METHODS])
{
    const int v36 = mb_beff_cfg(cfg)->profile != MB_BEFF_PAPER;
    const struct mb_beff36_rules rules = mb_beff36_rules_of(mb_beff_cfg(cfg)->profile);
    const long cap = mb_beff_cfg(cfg)->max_looplength;
    int shorten = 0;

    for (int m = 0; m < MB_BEFF_METHODS; m++) {
        if (k == 0) {
            loops[m] = v36 ? mb_beff36_loop_first(cal[m], rules.timeperloop, &maxloops[m])
                           : mb_beff_loop_paper_first(
                                 calc[m] ? cal[m] / calc[m] / MB_BEFF_CAL_LOOPS : 0, cap);
        } else {
            const size_t l = mb_beff_lat(d, k - 1, rep, m);
            const int n = d->looplen[l], c = count_measured(d, rep, k - 1, m);
            const double q = (double)d->len[k] / (double)d->len[k - 1];
            loops[m] = v36 ? mb_beff36_loop_next(n, d->tsum[l], k <= MB_BEFF_POW2 ? 2.0 : d->factor,
                                                 maxloops[m], rules.timeperloop)
                           : mb_beff_loop_paper_next(n, c ? d->tsum[l] / c : 0, q, cap);
            if (v36 && k == MB_BEFF_SIZES - 2 &&
                mb_beff36_shorten(d->tlo[l], n, d->npat, d->nrep, d->factor, rules.max_last_two))
                shorten = 1;
        }
        /* --max-looplength also bounds the 3.6 rules when it is given. */
        if (v36 && cap > 0 && loops[m] > cap)
            loops[m] = (int)cap;
    }
    return shorten;
}

/* Rank 0, 3.6 rule step 1: per pattern the best method at size 18 of this repetition
 * (ties go to the higher method), from the reduced bandwidths (quirk fix: not rank 0's own). */
static void choose_best(struct mb_beff_data *d, int rep)
{
    const int k = MB_BEFF_SIZES - 3;
    for (int p = 0; p < d->npat; p++) {
        int best = 0;
        for (int m = 1; m < MB_BEFF_METHODS; m++)
            if (d->state[mb_beff_at(d, rep, p, k, m)] &&
                d->b[mb_beff_at(d, rep, p, k, m)] >= d->b[mb_beff_at(d, rep, p, k, best)])
                best = m;
        d->best[rep * d->npat + p] = best;
    }
}

/* ---- the loop nest (as in b_eff 3.6) ---------------------------------------------------- */

void mb_beff_measure(const struct mb_ctx *ctx, const struct mb_config *cfg,
                     const struct mb_beff_patterns *set, struct mb_beff_xfer *x,
                     struct mb_beff_data *d)
{
    struct meas ms = {ctx, set, x, MPI_OP_NULL, ctx->prov->clock.tick};
    int maxloops[MB_BEFF_METHODS] = {0, 0, 0};
    struct mb_stopwatch all;
    double elapsed;

    MB_MPI(MPI_Op_create(reduce_fn, 1, &ms.op));
    if (ctx->rank == 0)
        mb_beff_progress_head(ctx);
    mb_watchdog_arm(ctx->wd, BETWEEN);
    MB_MPI(MPI_Barrier(ctx->world));
    all = mb_stopwatch_start();
    x->base = 0;
    for (int rep = 0; rep < d->nrep; rep++) {
        double cal[MB_BEFF_METHODS];
        int calc[MB_BEFF_METHODS], shortened = 0;

        calibrate(&ms, rep, cal, calc);
        for (int k = 0; k < MB_BEFF_SIZES; k++) {
            int msg[MB_BEFF_METHODS + 1] = {0, 0, 0, 0};
            const struct mb_stopwatch t_size = mb_stopwatch_start();
            int last_two;

            if (ctx->rank == 0 && !shortened)
                msg[MB_BEFF_METHODS] = decide(cfg, d, rep, k, cal, calc, maxloops, msg);
            MB_MPI(MPI_Bcast(msg, MB_BEFF_METHODS + 1, MPI_INT, 0, ctx->world));
            if (msg[MB_BEFF_METHODS]) {
                /* b_eff 3.6's 60 s rule: only the best method, one iteration, two repetitions of
                 * L_max. */
                shortened = 1;
                d->shortened = 1;
                if (ctx->rank == 0)
                    choose_best(d, rep);
                MB_MPI(MPI_Bcast(d->best + rep * d->npat, d->npat, MPI_INT, 0, ctx->world));
            }
            if (shortened) {
                for (int m = 0; m < MB_BEFF_METHODS; m++) {
                    const size_t l = mb_beff_lat(d, k, rep, m);
                    msg[m] = (k == MB_BEFF_SIZES - 1 && rep >= MB_BEFF36_MIN_REPS) ? 0 : 1;
                    d->mark[l] = k == MB_BEFF_SIZES - 1 ? 'R' : 'M';
                }
                if (k == MB_BEFF_SIZES - 1)
                    d->reps_last =
                        MB_BEFF36_MIN_REPS < d->reps_last ? MB_BEFF36_MIN_REPS : d->reps_last;
            }
            last_two = shortened && k >= MB_BEFF_SIZES - 2;
            for (int m = 0; m < MB_BEFF_METHODS; m++)
                d->looplen[mb_beff_lat(d, k, rep, m)] = msg[m];
            for (int pi = 0; pi < set->n; pi++) {
                const int best = shortened ? d->best[rep * d->npat + pi] : -1;
                for (int m = 0; m < MB_BEFF_METHODS; m++) {
                    double r[R_N];
                    if (!mb_beff_measurable(&set->p[pi], m) || (last_two && m != best) ||
                        msg[m] == 0)
                        continue;
                    measure(&ms, pi, m, k, (int)d->len[k], msg[m], rep, r);
                    if (ctx->rank == 0) {
                        record(d, &set->p[pi], rep, pi, k, m, msg[m], r);
                        mb_beff_json_measurement(ctx, d, set, rep, pi, k, m);
                    }
                }
                /* The 60 s rule: the best method's value stands for all methods; a repetition of
                 * L_max that is not measured repeats repetition 0. */
                if (ctx->rank == 0 && last_two)
                    for (int m = 0; m < MB_BEFF_METHODS; m++) {
                        if (msg[best] == 0)
                            copy_entry(d, mb_beff_at(d, rep, pi, k, m), mb_beff_at(d, 0, pi, k, m));
                        else if (m != best)
                            copy_entry(d, mb_beff_at(d, rep, pi, k, m),
                                       mb_beff_at(d, rep, pi, k, best));
                    }
            }
            if (ctx->rank == 0)
                mb_beff_progress(ctx, d, set, rep, k, mb_stopwatch_read(&t_size));
        }
    }
    elapsed = mb_stopwatch_read(&all);
    MB_MPI(MPI_Reduce(&elapsed, &d->loop_elapsed, 1, MPI_DOUBLE, MPI_MAX, 0, ctx->world));
    mb_watchdog_disarm(ctx->wd);
    MB_MPI(MPI_Op_free(&ms.op));
}
