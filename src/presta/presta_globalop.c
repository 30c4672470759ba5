/* SPDX-License-Identifier: BSD-3-Clause */
/* globalop: loops of N = 4096 collective operations with and without the crunch kernel
 * (Presta 1.2 README, globalop.c). One table row per section, one body kernel; the driver reads
 * the clock. Unlike the original, every reduced or broadcast value is checked against what it
 * must be (docs/adr/presta-additions.md): a wrong value is reported and the exit status is 1. */
#include "presta/presta.h"
#include "presta/presta_options.h"

#include "core/error.h"
#include "core/report_json.h"
#include "core/samples.h"
#include "core/suite.h"
#include "core/timing.h"

#include <math.h>
#include <stdlib.h>

enum { GOP_N = 4096, GOP_REPS = 3, GOP_CRUNCH = 400 };

enum gop_op { OP_NONE, OP_BARRIER, OP_REDUCE, OP_BCAST, OP_ALLREDUCE, OP_REDUCE_BCAST };
enum gop_work { WORK_NONE, WORK_FIRST, WORK_BETWEEN };

struct gop_section {
    const char *name; /* as printed: "reduce + work" */
    enum gop_work work;
    enum gop_op op;
    int minmax;    /* also the Minimum/Maximum lines (three reductions) */
    int precision; /* decimals of the printed times */
};

/* The 11 sections of globalop.c, in order. */
static const struct gop_section gop_sections[] = {
    {"work", WORK_FIRST, OP_NONE, 0, 4},
    {"barrier + work", WORK_FIRST, OP_BARRIER, 0, 2},
    {"barrier", WORK_NONE, OP_BARRIER, 0, 2},
    {"reduce + work", WORK_FIRST, OP_REDUCE, 1, 2},
    {"reduce", WORK_NONE, OP_REDUCE, 1, 2},
    {"bcast + work", WORK_FIRST, OP_BCAST, 1, 2},
    {"bcast", WORK_NONE, OP_BCAST, 1, 2},
    {"allreduce + work", WORK_FIRST, OP_ALLREDUCE, 1, 2},
    {"allreduce", WORK_NONE, OP_ALLREDUCE, 1, 2},
    {"reduce-bcast", WORK_NONE, OP_REDUCE_BCAST, 1, 2},
    {"reduce-work-bcast", WORK_BETWEEN, OP_REDUCE_BCAST, 1, 2},
};
enum { GOP_SECTIONS = sizeof gop_sections / sizeof gop_sections[0] };

/* The arrays and the value the collectives carry. Every rank fills x and y from the same
 * fixed seed (quirk Q14), so z is the same everywhere; the carried value is z + rank, so a
 * MAX must give z + (W-1) and a broadcast from rank 0 gives z. */
struct gop_data {
    double x[GOP_N], y[GOP_N], z[GOP_N];
    double res[GOP_N], want[GOP_N]; /* what each iteration's collective gave / must give */
    double base;                    /* the crunch value behind num */
    double num;                     /* the carried value: base + rank, or base after a Bcast */
    int spread;                     /* num is base + rank (1) or base on every rank (0) */
    int rank, w;
};

/* 400 rounds of log and sqrt (globalop.c's crunch); reads x[i], y[i], writes z[i]. */
static void crunch(struct gop_data *d, int i)
{
    double p = d->x[i], q = d->y[i], t = 0;

    for (int k = 0; k < GOP_CRUNCH; k++) {
        p = fabs(p);
        q = fabs(q);
        if (p < 1)
            p += 1;
        if (q < 1)
            q += 1;
        t = log(p) / sqrt(q);
        q = t - p;
        p = t * q;
    }
    d->z[i] = t;
    d->base = t;
    d->num = t + d->rank;
    d->spread = 1;
}

static double reduced_max(const struct gop_data *d)
{
    return d->spread ? d->base + (double)(d->w - 1) : d->base;
}

/* One iteration of a section's loop. */
static void gop_body(const struct gop_section *s, struct gop_data *d, int i, MPI_Comm world)
{
    double max = -1;

    if (s->work == WORK_FIRST)
        crunch(d, i);
    switch (s->op) {
    case OP_NONE:
        break;
    case OP_BARRIER:
        MB_MPI(MPI_Barrier(world));
        break;
    case OP_REDUCE:
        MB_MPI(MPI_Reduce(&d->num, &max, 1, MPI_DOUBLE, MPI_MAX, 0, world));
        d->res[i] = max;
        d->want[i] = reduced_max(d);
        break;
    case OP_BCAST:
        MB_MPI(MPI_Bcast(&d->num, 1, MPI_DOUBLE, 0, world));
        d->res[i] = d->num;
        d->want[i] = d->base;
        d->spread = 0;
        break;
    case OP_ALLREDUCE:
        MB_MPI(MPI_Allreduce(&d->num, &max, 1, MPI_DOUBLE, MPI_MAX, world));
        d->res[i] = max;
        d->want[i] = reduced_max(d);
        break;
    case OP_REDUCE_BCAST:
        MB_MPI(MPI_Reduce(&d->num, &max, 1, MPI_DOUBLE, MPI_MAX, 0, world));
        d->want[i] = reduced_max(d);
        if (s->work == WORK_BETWEEN)
            crunch(d, i);
        MB_MPI(MPI_Bcast(&max, 1, MPI_DOUBLE, 0, world));
        d->res[i] = max;
        break;
    }
}

/* Wrong results of a section on this rank (a Reduce's result exists only on the root). */
static long long gop_wrong(const struct gop_section *s, const struct gop_data *d)
{
    long long bad = 0;

    if (s->op == OP_NONE || s->op == OP_BARRIER || (s->op == OP_REDUCE && d->rank != 0))
        return 0;
    for (int i = 0; i < GOP_N; i++)
        bad += d->res[i] != d->want[i];
    return bad;
}

struct gop_times {
    double sum, min, max;
};

/* each: the k samples' times summed over the w processes (gop_json's figure samples);
 * spread: --spread, a line with their median and its 95 % interval per task after the average
 * (two more decimals than the section's: a sample is a k-th of the loop). */
static void gop_print(const struct mb_out *out, const struct gop_section *s, struct gop_times t,
                      int w, const double *each, long k, int spread)
{
    mb_printf(out, "Average %s time per task is %7.*f\n", s->name, s->precision, t.sum / w);
    if (spread && k > 1) {
        const struct mb_spread m = mb_spread_strided(each, (size_t)k, 1, 1.0 / w);
        const int d = s->precision + 2;
        mb_printf(out,
                  "Median %s time per task over %ld samples is %.*f, 95 %% interval %.*f .. %.*f\n",
                  s->name, k, d, m.median, d, m.ci_low, d, m.ci_high);
    }
    if (s->minmax) {
        mb_printf(out, "Minimum %s time was %7.*f\n", s->name, s->precision, t.min);
        mb_printf(out, "Maximum %s time was %7.*f\n", s->name, s->precision, t.max);
    }
}

static void gop_json(const struct mb_ctx *ctx, const struct gop_section *s, int rep,
                     struct gop_times t, long long wrong, const double *each, long k, int raw)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "presta_globalop", ctx->json);
    mb_jobj_int(&o, "repetition", rep);
    mb_jobj_str(&o, "section", s->name);
    mb_jobj_int(&o, "n", GOP_N);
    mb_jobj_int(&o, "processes", ctx->size);
    mb_jobj_figure(&o, "avg_sec", t.sum / ctx->size, each, (size_t)k, 1, 1.0 / ctx->size, raw);
    mb_jobj_sample_count(&o, (size_t)k);
    if (s->minmax) {
        mb_jobj_num(&o, "min_sec", t.min);
        mb_jobj_num(&o, "max_sec", t.max);
    }
    mb_jobj_int(&o, "wrong_results", wrong);
    mb_jobj_write(&o, ctx->json);
}

static int globalop_run(const struct mb_ctx *ctx, const struct mb_config *cfg,
                        struct mb_tally *tally)
{
    const struct mb_stopwatch run = mb_stopwatch_start();
    struct gop_data *d = mb_xcalloc(1, sizeof *d);
    long long wrong_total = 0;
    double elapsed, elapsed_sum = 0;
    /* At most one sample per iteration. */
    const long nk = mb_config_samples(cfg) < GOP_N ? mb_config_samples(cfg) : GOP_N;
    double *kept = mb_xcalloc((size_t)nk, sizeof *kept),
           *each = mb_xcalloc((size_t)nk, sizeof *each);

    d->rank = ctx->rank;
    d->w = ctx->size;
    srand(1); /* quirk Q14: the original's seed was uninitialised memory */
    for (int i = 0; i < GOP_N; i++) {
        d->x[i] = rand();
        d->y[i] = rand();
    }
    /* --check-selftest: rank 0's data differ from everyone else's in one element, so the
     * values it broadcasts and reduces there are not what the other ranks expect. */
    if (cfg->common.selftest && ctx->rank == 0)
        d->x[7] += 1.0;
    if (ctx->rank == 0) {
        mb_presta_preamble(ctx, cfg);
        mb_printf(&ctx->out, "Testing N=%d, %d tasks\n", GOP_N, ctx->size);
        mb_flush(&ctx->out);
    }
    for (int rep = 0; rep < GOP_REPS; rep++) {
        for (int k = 0; k < GOP_SECTIONS; k++) {
            const struct gop_section *s = &gop_sections[k];
            struct gop_times t = {0, 0, 0};
            long long bad, wrong = 0;
            struct mb_timing tm = mb_timing_make(mb_sync_barriers(ctx->world, 1));
            double mine;
            int i0 = 0;
            mb_presta_arm(ctx, s->name, ctx->size, 8);
            /* --samples K (docs/adr/samples.md): the loop of N iterations as K loops of about
             * N/K, each after its barrier; the printed times are the total over all of them,
             * as the one loop's (K = 1, the original). */
            mb_timing_keep(&tm, kept, nk);
            for (long j = 0; j < nk; j++) {
                const int m = GOP_N / (int)nk + (j < GOP_N % nk);
                mb_timing_start(&tm);
                for (int i = i0; i < i0 + m; i++)
                    gop_body(s, d, i, ctx->world);
                (void)mb_timing_stop(&tm, m);
                i0 += m;
            }
            mine = tm.total;
            /* Each sample's figure: its loop time at N iterations, summed over processes. */
            for (long j = 0; j < nk; j++)
                kept[j] *= GOP_N;
            MB_MPI(MPI_Reduce(kept, each, (int)nk, MPI_DOUBLE, MPI_SUM, 0, ctx->world));
            if (s->minmax) {
                MB_MPI(MPI_Reduce(&mine, &t.min, 1, MPI_DOUBLE, MPI_MIN, 0, ctx->world));
                MB_MPI(MPI_Reduce(&mine, &t.max, 1, MPI_DOUBLE, MPI_MAX, 0, ctx->world));
            }
            MB_MPI(MPI_Reduce(&mine, &t.sum, 1, MPI_DOUBLE, MPI_SUM, 0, ctx->world));
            bad = gop_wrong(s, d);
            MB_MPI(MPI_Reduce(&bad, &wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, ctx->world));
            mb_watchdog_disarm(ctx->wd);
            if (ctx->rank == 0) {
                gop_print(&ctx->out, s, t, ctx->size, each, nk, cfg->common.spread);
                if (wrong > 0)
                    mb_printf(&ctx->out, "*** result check: %lld wrong values in the %s loop\n",
                              wrong, s->name);
                mb_flush(&ctx->out);
                gop_json(ctx, s, rep, t, wrong, each, nk, cfg->common.raw_samples);
                wrong_total += wrong;
            }
        }
        if (ctx->rank == 0) {
            mb_printf(&ctx->out, "\n");
            mb_flush(&ctx->out);
        }
    }
    elapsed = mb_stopwatch_read(&run);
    MB_MPI(MPI_Reduce(&elapsed, &elapsed_sum, 1, MPI_DOUBLE, MPI_SUM, 0, ctx->world));
    if (ctx->rank == 0) {
        mb_printf(&ctx->out, "Average elapsed run time was %7.2f\n", elapsed_sum / ctx->size);
        mb_printf(&ctx->out, "All done\n");
        mb_flush(&ctx->out);
    }
    tally->rows = (long long)GOP_REPS * GOP_SECTIONS;
    tally->defects = wrong_total;
    tally->defects_what = "wrong collective results";
    free(d);
    free(kept);
    free(each);
    return 0;
}

const struct mb_suite mb_suite_presta_globalop = {
    .name = "presta-globalop",
    .settings = &mb_presta_plain_settings,
    .legacy = "globalop",
    .title = "Presta globalop: Barrier/Reduce/Bcast/Allreduce loops with and without compute",
    .validate = mb_presta_validate_globalop,
    .usage = mb_presta_usage_globalop,
    .dry_run = mb_presta_dry_run,
    .run = globalop_run,
};
