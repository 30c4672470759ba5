/* SPDX-License-Identifier: BSD-3-Clause */
/* allred: MPI_Allreduce of 4 doubles between compute phases (Presta 1.2 README, allred.c). */
#include "presta/presta.h"
#include "presta/presta_options.h"

#include "core/error.h"
#include "core/report_json.h"
#include "core/samples.h"
#include "core/timing.h"

#include <math.h>
#include <stdlib.h>

enum { MESS = 4 }; /* doubles per Allreduce: 32 bytes */

/* Where the kernel's result goes, so the compiler cannot drop the work (quirk Q17). */
struct allred_sink {
    volatile double c;
};

/* One compute phase (as in allred.c): refill a and b from the C library generator reseeded
 * with 0 (as the original: two reseeds and eight rand() calls), then iters x (8 multiplies
 * and 1 add). */
static void compute_phase(double *a, double *b, long iters, struct allred_sink *sink)
{
    double c = 0;

    srand(0);
    for (int i = 0; i < MESS; i++)
        a[i] = rand();
    srand(0);
    for (int i = 0; i < MESS; i++)
        b[i] = rand();
    for (long k = 0; k < iters; k++) {
        double g = c;
        for (int i = 0; i < MESS; i++)
            g *= a[i] * b[i];
        c = c + g;
    }
    sink->c = c;
}

struct allred_state {
    const struct mb_ctx *ctx;
    long comp, inner, nsamples;
    double a[MESS], b[MESS];
    struct allred_sink sink;
    long long bad; /* --check: wrong Allreduce results on this rank */
};

/* --check: one untimed Allreduce of the refilled values; every rank holds the same values,
 * so each element of the sum is W times them (exact: rand() < 2^31, W < 2^22). */
static void allred_check(struct allred_state *st, int selftest)
{
    const int w = st->ctx->size;
    double send[MESS], want[MESS];

    compute_phase(st->a, st->b, 0, &st->sink);
    for (int i = 0; i < MESS; i++) {
        send[i] = st->a[i];
        want[i] = st->a[i] * w;
    }
    if (selftest && st->ctx->rank == 0)
        send[0] += 1; /* --check-selftest: one wrong contribution */
    MB_MPI(MPI_Allreduce(send, st->b, MESS, MPI_DOUBLE, MPI_SUM, st->ctx->world));
    for (int i = 0; i < MESS; i++)
        st->bad += st->b[i] != want[i];
}

/* One sample of phase A (compute only) or B (Allreduce + compute), as in allred.c. */
static double allred_sample(struct allred_state *st, int with_op)
{
    const MPI_Comm world = st->ctx->world;
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    compute_phase(st->a, st->b, st->comp, &st->sink);
    mb_presta_barrier(world);
    MB_MPI(MPI_Allreduce(st->a, st->b, MESS, MPI_DOUBLE, MPI_SUM, world));
    mb_timing_start(&tm);
    for (long i = 0; i < st->inner; i++) {
        if (with_op)
            MB_MPI(MPI_Allreduce(st->a, st->b, MESS, MPI_DOUBLE, MPI_SUM, world));
        compute_phase(st->a, st->b, st->comp, &st->sink);
    }
    (void)mb_timing_stop(&tm, st->inner);
    return tm.elapsed;
}

struct moments {
    double sum, mean, sd;
};

static struct moments moments_of(const double *x, long n)
{
    struct moments m = {0, 0, 0};
    double ss = 0;

    for (long i = 0; i < n; i++)
        m.sum += x[i];
    m.mean = m.sum / (double)n;
    for (long i = 0; i < n; i++)
        ss += (x[i] - m.mean) * (x[i] - m.mean);
    m.sd = sqrt(ss / (double)n); /* population form, as the original */
    return m;
}

static void print_samples(const struct mb_out *out, const char *title, const double *x, long n,
                          struct moments m)
{
    mb_printf(out, "\n%s\n\n", title);
    for (long i = 0; i < n; i++)
        mb_printf(out, "  samples[%2ld] : %19.10f\n", i, x[i]);
    mb_printf(out, "\n");
    mb_printf(out, "  mean        : %f\n", m.mean);
    mb_printf(out, "  stddev      : %f\n", m.sd);
    mb_printf(out, "  stddev/mean : %f\n", m.sd / m.mean);
}

/* allred's samples are its own ([total samples]): each sample's Allreduce time is its op loop
 * less its compute loop, per operation (usec), whose mean over the samples is op_mean. */
static double *op_samples_usec(const struct allred_state *st, const double *loop, const double *op)
{
    double *each = mb_xmalloc((size_t)st->nsamples * sizeof *each);
    for (long i = 0; i < st->nsamples; i++)
        each[i] = (op[i] - loop[i]) / (double)st->inner * 1e6;
    return each;
}

static void allred_json(const struct mb_ctx *ctx, const struct allred_state *st, const double *loop,
                        const double *op, const double *each, double between, double tick,
                        double op_mean, int raw)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "presta_allred", ctx->json);
    mb_jobj_int(&o, "processes", ctx->size);
    mb_jobj_int(&o, "bytes", MESS * (long long)sizeof(double));
    mb_jobj_int(&o, "compute_iterations", st->comp);
    mb_jobj_int(&o, "inner_iterations", st->inner);
    mb_jarray_nums(&o, "loop_samples_sec", loop, (size_t)st->nsamples, 1, 1.0);
    mb_jarray_nums(&o, "op_samples_sec", op, (size_t)st->nsamples, 1, 1.0);
    mb_jobj_num(&o, "wtick_sec", tick);
    mb_jobj_num(&o, "time_between_allreduce_usec", between * 1e6);
    mb_jobj_figure(&o, "op_mean_usec", op_mean * 1e6, each, (size_t)st->nsamples, 1, 1.0, raw);
    mb_jobj_sample_count(&o, (size_t)st->nsamples);
    mb_jobj_write(&o, ctx->json);
}

static int allred_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    struct allred_state st = {ctx,
                              mb_presta_cfg(cfg)->args[0],
                              mb_presta_cfg(cfg)->args[1],
                              mb_presta_cfg(cfg)->args[2],
                              {0},
                              {0},
                              {0},
                              0};
    const size_t n = (size_t)st.nsamples;
    double *loop = mb_xcalloc(n, sizeof *loop), *op = mb_xcalloc(n, sizeof *op);
    long long defects = 0;

    if (ctx->rank == 0)
        mb_presta_preamble(ctx, cfg);
    for (int phase = 0; phase < 2; phase++) {
        double *x = phase ? op : loop;
        for (size_t s = 0; s < n; s++) {
            double t, tmax = 0;
            char label[96];
            snprintf(label, sizeof label, "%s sample %zu", phase ? "Loop Op" : "Loop Base", s);
            mb_presta_arm(ctx, label, ctx->size, MESS * (long long)sizeof(double));
            t = allred_sample(&st, phase);
            MB_MPI(MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, ctx->world));
            if (cfg->common.check)
                allred_check(&st, cfg->common.selftest);
            mb_watchdog_disarm(ctx->wd);
            x[s] = tmax;
        }
    }
    mb_presta_host_list(ctx);
    MB_MPI(MPI_Reduce(&st.bad, &defects, 1, MPI_LONG_LONG, MPI_SUM, 0, ctx->world));
    if (ctx->rank == 0) {
        const struct mb_out *out = &ctx->out;
        const struct moments ml = moments_of(loop, st.nsamples), mo = moments_of(op, st.nsamples);
        const double op_mean = (mo.sum - ml.sum) / ((double)st.nsamples * (double)st.inner);
        double *each = op_samples_usec(&st, loop, op);
        const double tick = MPI_Wtick();
        struct mb_timing tm = mb_timing_make(mb_sync_none());
        double between;
        /* "Time between Allreduce": one compute phase on rank 0 alone, after a warm-up. */
        compute_phase(st.a, st.b, st.comp, &st.sink);
        mb_timing_start(&tm);
        compute_phase(st.a, st.b, st.comp, &st.sink);
        (void)mb_timing_stop(&tm, 1);
        between = tm.elapsed;
        print_samples(out, "Loop Base Samples", loop, st.nsamples, ml);
        print_samples(out, "Loop Op Samples", op, st.nsamples, mo);
        mb_printf(out, "\nMPI Allreduce test\n");
        mb_printf(out, "  for %d MPI processes, message size %d bytes, \n", ctx->size,
                  (int)(MESS * sizeof(double)));
        mb_printf(out, "  %ld operations per sample, %ld samples\n\n", st.inner, st.nsamples);
        mb_printf(out, "  Wtick resolution           : %11.3f us\n", tick * 1e6);
        mb_printf(out, "  Time between Allreduce     : %11.3f us\n\n", between * 1e6);
        mb_printf(out, "  Mean Compute Loop Time     : %11.3f us\n", ml.mean * 1e6);
        mb_printf(out, "  Ticks per Compute Loop     : %11.0f\n", ml.mean / tick);
        mb_printf(out, "  Mean Op Loop Time          : %11.3f us\n", mo.mean * 1e6);
        mb_printf(out, "  Ticks per Op Loop          : %11.0f\n\n", mo.mean / tick);
        mb_printf(out, "  Op mean                    : %11.3f us\n", op_mean * 1e6);
        /* --spread: the median op time over the samples and its 95 % interval. */
        if (cfg->common.spread && st.nsamples > 1) {
            const struct mb_spread m = mb_spread_of(each, n);
            mb_printf(out,
                      "  Op median                  : %11.3f us, 95 %% interval %.3f .. %.3f us\n",
                      m.median, m.ci_low, m.ci_high);
        }
        mb_printf(out, "\n");
        mb_flush(out);
        allred_json(ctx, &st, loop, op, each, between, tick, op_mean, cfg->common.raw_samples);
        free(each);
    }
    tally->rows = 2 * (long long)n;
    tally->defects = defects;
    tally->defects_what = "wrong Allreduce results";
    free(loop);
    free(op);
    return 0;
}

/* --samples in the effective settings: allred's samples are its own third argument. */
static void allred_samples_note(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%ld (the [total samples] argument)", mb_presta_cfg(cfg)->args[2]);
}

const struct mb_suite mb_suite_presta_allred = {
    .samples_note = allred_samples_note,
    .name = "presta-allred",
    .settings = &mb_presta_plain_settings,
    .legacy = "allred",
    .title = "Presta allred: MPI_Allreduce between compute phases",
    .positional = mb_presta_allred_arg,
    .operands = "<comp iterations> <inner iterations> <total samples>",
    .validate = mb_presta_validate_allred,
    .usage = mb_presta_usage_allred,
    .dry_run = mb_presta_dry_run,
    .run = allred_run,
    .footer = mb_presta_footer_check,
};
