/* SPDX-License-Identifier: BSD-3-Clause */
/* The b_eff suite: buffers, patterns, measurement, analysis, output. */
#include "beff/beff.h"
#include "beff/beff_options.h"
#include "beff/beff_report.h"

#include "core/error.h"
#include "core/protofiles.h"
#include "core/suite.h"
#include "core/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the run takes before it starts (the suite's prepare hook). */
struct beff_state {
    struct mb_scratch_signals signals; /* rank 0 */
    struct mb_protofiles fs;           /* rank 0 */
    struct mb_beff_xfer x;
};

/* Rank 0 creates the protocol files (temporary names until the end, core/protofiles.h) and
 * every rank its buffers; a failure of either is a usage error (a clear message,
 * status 2, nothing left behind). */
static int setup(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_protofiles *fs,
                 struct mb_beff_xfer *x)
{
    struct mb_error err = {MB_ERR_NONE, ""};
    const size_t buflen = mb_beff_buffer_bytes(mb_beff_cfg(cfg)->memory_mb);
    int ok, all_ok, status;

    memset(fs, 0, sizeof *fs);
    if (ctx->rank == 0)
        mb_protofiles_open(fs, cfg->files, mb_beff_cfg(cfg)->prefix, mb_beff_file_ext,
                           MB_BEFF_NFILES, &err);
    status = mb_agree(&err, cfg->prog, ctx->world);
    if (status != 0)
        return status;
    mb_beff_xfer_init(x, buflen, ctx->size, ctx->rank, cfg->common.check, cfg->common.selftest);
    ok = x->sbuf && x->rbuf;
    MB_MPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, ctx->world));
    if (!all_ok) {
        if (ctx->rank == 0) {
            mb_usage(&err,
                     "cannot allocate the b_eff buffers (2 x %.1f MB per process for --memory "
                     "%ld MB); give a smaller --memory",
                     (double)buflen / 1048576.0, mb_beff_cfg(cfg)->memory_mb);
            mb_protofiles_discard(fs);
        }
        mb_beff_xfer_free(x);
        return mb_agree(&err, cfg->prog, ctx->world);
    }
    return 0;
}

/* How many messages of each pattern stay within a host: which patterns measure the network
 * between the hosts and which the inside of one (the b_eff paper §3 on SMP clusters). */
static void host_structure(const struct mb_beff_patterns *set, const struct mb_out *out)
{
    mb_printf(out,
              "# Messages within a host per pattern (of all messages of one iteration), %d "
              "host%s:\n",
              set->nhosts, set->nhosts == 1 ? "" : "s");
    for (int p = 0; p < set->n; p++) {
        char v[48];
        snprintf(v, sizeof v, "%lld/%lld", set->p[p].within_host, set->p[p].messages);
        mb_printf(out, "%s p%02d %-9s%s", p % 6 == 0 ? "# " : "", p, v,
                  p % 6 == 5 || p == set->n - 1 ? "\n" : "");
    }
}

static void header(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_beff_patterns *set)
{
    mb_printf(&ctx->out, "#------------------------------------------------------------\n"
                         "# mpibench b_eff: effective communication bandwidth\n"
                         "#------------------------------------------------------------\n");
    mb_provenance_text(ctx->prov, &ctx->out);
    mb_settings_text(ctx->suite, cfg, &ctx->out);
    host_structure(set, &ctx->out);
    mb_flush(&ctx->out);
}

static int beff_prepare(const struct mb_ctx *ctx, const struct mb_config *cfg, void **state)
{
    struct beff_state *st = mb_xcalloc(1, sizeof *st);
    int status;

    /* The temporary protocol files go also on SIGINT/SIGTERM, --timeout and a kill (the
     * janitor): only rank 0 has files. */
    if (ctx->rank == 0)
        mb_scratch_signals_install(&st->signals);
    status = setup(ctx, cfg, &st->fs, &st->x);
    if (status != 0) {
        if (ctx->rank == 0)
            mb_scratch_signals_restore(&st->signals);
        free(st);
        return status;
    }
    *state = st;
    return 0;
}

static void beff_release(const struct mb_ctx *ctx, void *state)
{
    struct beff_state *st = state;

    if (ctx->rank == 0) {
        mb_protofiles_discard(&st->fs);
        mb_scratch_signals_restore(&st->signals);
    }
    mb_beff_xfer_free(&st->x);
    free(st);
}

static int beff_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_stopwatch wall = mb_stopwatch_start();
    struct beff_state *st = ctx->state;
    struct mb_protofiles *fs = &st->fs;
    struct mb_beff_patterns set;
    struct mb_beff_data d;
    struct mb_beff_analysis a;
    mb_beff_patterns_build(&set, ctx->world, (int)mb_beff_cfg(cfg)->random, mb_beff_cfg(cfg)->seed);
    mb_beff_data_init(&d, cfg, set.n);
    if (ctx->rank == 0) {
        header(ctx, cfg, &set);
        mb_beff_json_patterns(ctx, &set);
    }
    {
        /* HEAD on stdout too: sizes, methods and pattern numbers used below. */
        struct mb_beff_report r0 = {cfg, ctx->prov, &set, &d, NULL, ctx->size, 0};
        if (ctx->rank == 0)
            mb_beff_head(&r0, &ctx->out, 0);
    }
    mb_beff_measure(ctx, cfg, &set, &st->x, &d);
    mb_beff_xfer_free(&st->x);
    if (ctx->rank == 0) {
        struct mb_beff_report r = {cfg, ctx->prov, &set, &d, &a, ctx->size, 0};
        struct mb_out o = {{NULL, NULL}, 1, {NULL, NULL}};
        mb_beff_analyse(&d, &set, ctx->size, &a);
        r.wall = mb_stopwatch_read(&wall);
        mb_beff_summary(&r, &ctx->out, 1);
        mb_printf(&ctx->out, "# protocol files: %s.{prot,short,sum,plot,gps}; elapsed %.1f s\n",
                  mb_beff_cfg(cfg)->prefix, r.wall);
        mb_beff_final_line(&r, &ctx->out);
        o.f[0] = fs->f[MB_BEFF_PROT];
        o.name[0] = fs->label[MB_BEFF_PROT];
        mb_beff_write_prot(&r, &o);
        o.f[0] = fs->f[MB_BEFF_SHORT];
        o.name[0] = fs->label[MB_BEFF_SHORT];
        mb_beff_write_short(&r, &o);
        o.f[0] = fs->f[MB_BEFF_SUM];
        o.name[0] = fs->label[MB_BEFF_SUM];
        mb_beff_head(&r, &o, 0);
        mb_beff_summary(&r, &o, 0);
        mb_beff_final_line(&r, &o);
        mb_beff_write_plot(&r, fs->f[MB_BEFF_PLOT]);
        mb_beff_write_gps(&r, fs->f[MB_BEFF_GPS], fs->final[MB_BEFF_PLOT]);
        mb_beff_json_result(ctx, &r);
        /* Data errors abort the job (beff_methods.c): a finished run has none. */
        tally->rows = d.measurements;
        if (a.logavg_errors)
            mb_eprintf("%s: warning: %d geometric means met a bandwidth <= 0", cfg->prog,
                       a.logavg_errors);
        mb_beff_analysis_free(&a);
        mb_protofiles_commit(fs);
        mb_scratch_signals_restore(&st->signals);
    }
    mb_beff_data_free(&d);
    mb_beff_patterns_free(&set);
    free(st);
    return 0;
}

static int beff_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    struct mb_beff_patterns set;
    struct mb_beff_data d;

    mb_beff_patterns_build(&set, ctx->world, (int)mb_beff_cfg(cfg)->random, mb_beff_cfg(cfg)->seed);
    mb_beff_data_init(&d, cfg, set.n);
    if (ctx->rank == 0) {
        struct mb_beff_report r = {cfg, ctx->prov, &set, &d, NULL, ctx->size, 0};
        long long n = 0;
        header(ctx, cfg, &set);
        mb_beff_head(&r, &ctx->out, 0);
        for (int p = 0; p < set.n; p++)
            for (int m = 0; m < MB_BEFF_METHODS; m++)
                n += mb_beff_measurable(&set.p[p], m);
        mb_printf(&ctx->out,
                  "# dry run: %lld measurements per size and repetition, %d sizes, %d "
                  "repetitions; buffers 2 x %zu bytes per process\n",
                  n, MB_BEFF_SIZES, d.nrep, mb_beff_buffer_bytes(mb_beff_cfg(cfg)->memory_mb));
    }
    mb_beff_data_free(&d);
    mb_beff_patterns_free(&set);
    return 0;
}

/* --samples in the effective settings: b_eff's samples are its repetitions of the sweep. */
static void beff_samples_note(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%ld (the repetitions of the sweep, --repetitions)",
             (long)mb_beff_cfg(cfg)->repetitions);
}

const struct mb_suite mb_suite_beff = {
    .samples_note = beff_samples_note,
    .name = "beff",
    .legacy = "b_eff",
    .title = "b_eff effective communication bandwidth",
    .settings = &mb_beff_settings,
    .validate = mb_beff_validate,
    .usage = mb_beff_usage,
    .dry_run = beff_dry_run,
    .prepare = beff_prepare,
    .release = beff_release,
    .run = beff_run,
};
