/* SPDX-License-Identifier: BSD-3-Clause */
/* The b_eff_io suite: buffers, partitions, protocol files, measurement, values.
 *
 * Protocol files are written complete or not at all: rank 0 writes PREFIX.prot as the run
 * goes and PREFIX.sum, .plot, .gps at its end under temporary names (created exclusively and
 * registered with core/scratch.h, so every exit path removes them) and renames them into
 * place only after a run that finished - an existing PREFIX.prot of an earlier run survives a
 * failed one. Progress is never lost: every pattern's line reaches stdout and the JSON file as
 * it ends. A run stopped by an I/O error (beffio_driver.c) ends normally with status 1: its
 * protocol so far, ending with why, is kept as PREFIX.prot.interrupted as after a SIGINT, and
 * no value, .sum, .plot or .gps is written (docs/adr/io-space-check.md). */
#include "beffio/beffio_options.h"
#include "beffio/beffio_run.h"
#include "core/error.h"
#include "core/protofiles.h"
#include "core/report_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROT, SUM, PLOT, GPS, NFILES };
static const char *const ext[NFILES] = {"prot", "sum", "plot", "gps"};

static int setup(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_bio_run *r,
                 struct mb_protofiles *pr)
{
    const struct mb_bio_config *b = mb_bio_cfg(cfg);
    struct mb_error err = {MB_ERR_NONE, ""};
    int ok, all_ok, status;

    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->cfg = cfg;
    r->b = b;
    r->lmax = mb_bio_lmax(b->memory_mb);
    if (ctx->rank == 0) {
        struct mb_fs_info fs;
        /* An interrupted run leaves its protocol so far as PREFIX.prot.interrupted (as 2.1's
         * .prot, written as the run goes, but never over an earlier run's or any other file). */
        if (mb_protofiles_open(pr, cfg->files, b->prefix, ext, NFILES, &err) == 0 &&
            mb_protofiles_salvage(pr, PROT, cfg->prog, &err) == 0) {
            r->prot.f[0] = pr->f[PROT];
            r->prot.name[0] = pr->label[PROT];
            r->prot.n = 1;
        }
        if (mb_scratch_fs_info(b->dir, &fs, &err) == 0)
            snprintf(r->fs_type, sizeof r->fs_type, "%s", fs.type);
    }
    status = mb_agree(&err, cfg->prog, ctx->world);
    if (status != 0) {
        if (ctx->rank == 0)
            mb_protofiles_discard(pr);
        return status;
    }
    r->wbuf = malloc((size_t)r->lmax);
    r->rbuf = malloc((size_t)r->lmax);
    ok = r->wbuf && r->rbuf;
    MB_MPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, ctx->world));
    if (!all_ok) {
        if (ctx->rank == 0) {
            mb_usage(&err,
                     "cannot allocate the b_eff_io buffers (2 x %.1f MB per process for -MB %ld); "
                     "give a smaller -MB",
                     (double)r->lmax / 1048576.0, b->memory_mb);
            mb_protofiles_discard(pr);
        }
        free(r->wbuf);
        free(r->rbuf);
        return mb_agree(&err, cfg->prog, ctx->world);
    }
    for (long long i = 0; i < r->lmax / 8; i++) {
        r->wbuf[i] = -2.0 * (double)i;
        r->rbuf[i] = -2.0 * (double)i - 1.0;
    }
    for (int i = 0; i < b->n_partitions; i++)
        MB_MPI(MPI_Comm_split(ctx->world, ctx->rank < b->partitions[i] ? 0 : MPI_UNDEFINED,
                              ctx->rank, &r->comm[i]));
    return 0;
}

static void header(const struct mb_bio_run *r)
{
    const struct mb_ctx *ctx = r->ctx;

    mb_printf(&ctx->out, "#------------------------------------------------------------\n"
                         "# mpibench b_eff_io: effective I/O bandwidth\n"
                         "#------------------------------------------------------------\n");
    mb_provenance_text(ctx->prov, &ctx->out);
    mb_settings_text(ctx->suite, r->cfg, &ctx->out);
    /* Said here, so that the result stays the last line (as b_eff_io 2.1's stdout ends). */
    mb_printf(&ctx->out,
              "# protocol files: %s.{prot,sum,plot,gps}, written when the run ends; scratch "
              "files in %s (%s at the end)\n\n",
              r->b->prefix, r->b->dir, r->b->keep ? "kept" : "removed");
    mb_bio_print_header(r, &ctx->out);
    mb_bio_print_header(r, &r->prot);
    mb_flush(&ctx->out);
    mb_flush(&r->prot);
}

/* What the run takes before it starts (the suite's prepare hook). */
struct bio_state {
    struct mb_scratch_signals signals;
    struct mb_protofiles pr; /* rank 0 */
    struct mb_bio_run r;
};

static int bio_prepare(const struct mb_ctx *ctx, const struct mb_config *cfg, void **state)
{
    struct bio_state *st = mb_xcalloc(1, sizeof *st);
    int status;

    /* Scratch and temporary files go on every exit path, also SIGINT/SIGTERM
     * (docs/adr/scratch-files.md). */
    mb_scratch_keep(mb_bio_cfg(cfg)->keep);
    mb_scratch_signals_install(&st->signals);
    status = setup(ctx, cfg, &st->r, &st->pr);
    if (status != 0) {
        mb_scratch_signals_restore(&st->signals);
        free(st);
        return status;
    }
    *state = st;
    return 0;
}

static void free_run(struct mb_bio_run *r, int n_partitions)
{
    for (int i = 0; i < n_partitions; i++)
        if (r->comm[i] != MPI_COMM_NULL)
            MB_MPI(MPI_Comm_free(&r->comm[i]));
    free(r->wbuf);
    free(r->rbuf);
}

static void bio_release(const struct mb_ctx *ctx, void *state)
{
    struct bio_state *st = state;

    if (ctx->rank == 0)
        mb_protofiles_discard(&st->pr);
    free_run(&st->r, st->r.b->n_partitions);
    mb_scratch_signals_restore(&st->signals);
    free(st);
}

/* The patterns that produced a line (rank 0). */
static long long rows_of(const struct mb_bio_data *d)
{
    long long rows = 0;

    for (int i = 0; i < d->npart; i++)
        for (int a = 0; a < MB_BIO_ACCESSES; a++)
            for (int p = 0; p < MB_BIO_PATTERNS; p++)
                rows += d->m[i][a][p].ran;
    return rows;
}

/* A run that an I/O error stopped (every process holds the agreed message): rank 0 says where
 * and why on stdout and at the end of the protocol, keeps the protocol so far, and hands the
 * message on as the run's run-time error (status 1, once on stderr, the JSON summary's error;
 * in the main job the phase's reason). */
static void stopped(const struct mb_ctx *ctx, struct mb_bio_run *r, struct mb_protofiles *pr,
                    const struct mb_bio_data *d, struct mb_tally *tally)
{
    tally->status = MB_EXIT_RUNTIME;
    snprintf(tally->status_text, sizeof tally->status_text, "%s", r->fail.msg);
    tally->status_what = tally->status_text;
    if (ctx->rank != 0)
        return;
    mb_printf(&ctx->out, "\n# stopped by an I/O error: %s\n", r->fail.msg);
    mb_printf(&r->prot, "\n# stopped by an I/O error: %s\n", r->fail.msg);
    mb_flush(&ctx->out);
    mb_flush(&r->prot);
    mb_protofiles_cut(pr, PROT, r->cfg->prog, "stopped by an I/O error");
    tally->rows = rows_of(d);
}

/* Every process, after removing its scratch files: what could not be removed is said (a file
 * system made read-only during the run keeps them; docs/adr/io-space-check.md). */
static void left_behind(const struct mb_ctx *ctx, const struct mb_bio_config *b,
                        struct mb_scratch_tally t)
{
    if (t.failed > 0)
        mb_eprintf("b_eff_io: note: rank %d could not remove %d scratch file%s in '%s': %s",
                   ctx->rank, t.failed, t.failed == 1 ? "" : "s", b->dir, strerror(t.failed_errno));
}

static int bio_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_bio_config *b = mb_bio_cfg(cfg);
    struct bio_state *st = ctx->state;
    struct mb_protofiles *ppr = &st->pr;
    struct mb_bio_run *rp = &st->r;
    struct mb_bio_data *d;
    d = mb_xcalloc(1, sizeof *d);
    d->npart = b->n_partitions;
    d->lmax = rp->lmax;
    for (int i = 0; i < d->npart; i++)
        d->pa[i].n = b->partitions[i];
    if (ctx->rank == 0)
        header(rp);
    mb_bio_measure(rp, d);
    if (rp->fail.kind != MB_ERR_NONE) {
        stopped(ctx, rp, ppr, d, tally);
    } else if (ctx->rank == 0) {
        const struct mb_out sum = {{ppr->f[SUM], NULL}, 1, {ppr->label[SUM], NULL}};
        long long errors = 0;
        mb_bio_evaluate(b, d);
        mb_bio_print_end(rp, d);
        mb_bio_print_final(rp, d, &ctx->out);
        mb_bio_print_final(rp, d, &rp->prot);
        mb_bio_print_header(rp, &sum);
        mb_bio_print_sum(rp, d, &sum);
        mb_bio_print_final(rp, d, &sum);
        mb_bio_write_plot(rp, d, ppr->f[PLOT]);
        mb_bio_write_gps(rp, d, ppr->f[GPS], ppr->final[PLOT]);
        mb_bio_json_result(rp, d);
        mb_flush(&ctx->out);
        mb_protofiles_commit(ppr);
        for (int i = 0; i < d->npart; i++)
            for (int a = 0; a < MB_BIO_ACCESSES; a++)
                errors += d->ac[i][a].errors;
        tally->rows = rows_of(d);
        tally->defects = errors;
        tally->defects_what = "data errors in the chunks read back";
    }
    free_run(rp, b->n_partitions);
    left_behind(ctx, b, mb_scratch_remove_all());
    mb_scratch_signals_restore(&st->signals);
    free(d);
    free(st);
    return 0;
}

static int bio_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_bio_config *b = mb_bio_cfg(cfg);

    if (ctx->rank == 0) {
        const long tn = mb_bio_partition_seconds(b->T, b->n_partitions);
        mb_settings_text(ctx->suite, cfg, &ctx->out);
        mb_printf(&ctx->out,
                  "# dry run: %d partitions, %ld s each (%g s per time unit, %d units); "
                  "L_max %lld bytes; buffers 2 x L_max per process; scratch files in %s\n",
                  b->n_partitions, tn, (double)tn / mb_bio_usum(b->rewrite),
                  mb_bio_usum(b->rewrite), mb_bio_lmax(b->memory_mb), b->dir);
    }
    return 0;
}

/* --samples in the effective settings: every b_eff_io row is one time-driven pass. */
static void beffio_samples_note(const struct mb_config *cfg, char *buf, size_t len)
{
    (void)cfg;
    snprintf(buf, len, "1 per row (each a time-driven pass)");
}

const struct mb_suite mb_suite_beffio = {
    .samples_note = beffio_samples_note,
    .name = "beffio",
    .legacy = "b_eff_io",
    .title = "b_eff_io effective I/O bandwidth",
    .settings = &mb_bio_settings,
    .validate = mb_bio_validate,
    .usage = mb_bio_usage,
    .dry_run = bio_dry_run,
    .prepare = bio_prepare,
    .release = bio_release,
    .run = bio_run,
};
