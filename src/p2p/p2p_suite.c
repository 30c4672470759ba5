/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-P2P, Intel IMB 2021.11's point-to-point program (src_c/P2P/imb_p2p.c), as an mpibench
 * suite with its own driver: its header (print_main_header, with mpibench's provenance and
 * effective settings as further '#' lines), the benchmarks (p2p_driver.c), the footer. */
#include "p2p/p2p_driver.h"
#include "p2p/p2p_options.h"
#include "p2p/p2p_report.h"

#include "core/error.h"
#include "core/provenance.h"
#include "core/thread_level.h"
#include "mb_version.h"

#include <inttypes.h>
#include <stdint.h>

static const char *const title_dashes =
    "#------------------------------------------------------------";

static void header(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_out *out = &ctx->out;
    const struct mb_provenance *p = ctx->prov;
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);
    long long lo = c->n_lengths ? c->lengths[0] : 0, hi = lo;

    /* mpibench's name and the methodology it follows, never the original's product name
     * (docs/adr/licence-and-names.md). */
    mb_printf(out,
              "%s\n#    mpibench %s: IMB-P2P (IMB-P2P part), following the Intel IMB "
              "2021.11 methodology\n%s\n",
              title_dashes, MB_VERSION, title_dashes);
    mb_provenance_imb_lines(p, out);
    mb_provenance_text(p, out);
    if (cfg->common.check)
        mb_printf(out, "#\n# !! CHECK MODE (--check): every received buffer is verified.\n"
                       "# !! These results are not valid as benchmark data.\n");
    mb_printf(out, "#\n# Calling sequence was:\n#\n# %s\n#\n", cfg->cmdline);
    mb_printf(out, "# List of Benchmarks to run:\n#\n");
    for (size_t i = 0; i < c->n_selected; i++)
        mb_printf(out, "# %s\n", mb_p2p_benchmarks[c->selected[i]].name);
    for (size_t i = 0; i < c->n_lengths; i++) {
        if (c->lengths[i] < lo)
            lo = c->lengths[i];
        if (c->lengths[i] > hi)
            hi = c->lengths[i];
    }
    mb_printf(out, "#\n# Minimum message length in bytes:   %" PRIu64 "\n", (uint64_t)lo);
    mb_printf(out, "# Maximum message length in bytes:   %" PRIu64 "\n#\n", (uint64_t)hi);
    mb_settings_text(ctx->suite, cfg, out);
    mb_printf(out, "#\n");
    mb_flush(out);
}

/* -list: 2021.11's list of the benchmarks (imb_p2p.c loading) instead of the run (the
 * validation makes it a --dry-run). */
static void list(const struct mb_ctx *ctx)
{
    mb_printf(&ctx->out, "# List of Benchmarks to run:\n#\n");
    for (size_t i = 0; i < mb_p2p_nbenchmarks; i++)
        mb_printf(&ctx->out, "# %s\n", mb_p2p_benchmarks[i].name);
    mb_printf(&ctx->out, "#\n");
    mb_flush(&ctx->out);
}

static int p2p_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    struct mb_p2p_tally t = {0};
    int rc;

    if (ctx->rank == 0)
        header(ctx, cfg);
    rc = mb_p2p_run_all(ctx, cfg, &t);
    tally->rows = t.rows;
    tally->defects = t.defects;
    tally->defects_what = "defects found (see the defects column)";
    if (rc != 0) {
        tally->status = MB_EXIT_RUNTIME;
        snprintf(tally->status_text, sizeof tally->status_text, "%s", t.why);
        tally->status_what = tally->status_text;
    }
    return 0;
}

static int p2p_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);

    if (ctx->rank != 0)
        return 0;
    if (c->list) {
        list(ctx);
        return 0;
    }
    mb_printf(&ctx->out, "# Run plan of %s on %d processes (--dry-run: nothing is measured)\n",
              cfg->prog, cfg->nprocs);
    for (size_t i = 0; i < c->n_selected; i++) {
        const struct mb_p2p_bench *b = &mb_p2p_benchmarks[c->selected[i]];
        struct mb_p2p_state s = {.rank = 0, .nranks = cfg->nprocs};
        if (!b->layout(&s)) {
            mb_printf(&ctx->out, "# %-16s invalid for %d processes\n", b->name, cfg->nprocs);
            continue;
        }
        mb_printf(&ctx->out, "# %-16s", b->name);
        for (size_t k = 0; k < c->n_lengths; k++) {
            long n, w;
            mb_p2p_iters(c, c->lengths[k], &n, &w);
            mb_printf(&ctx->out, " %lld:%ld", c->lengths[k], n);
        }
        mb_printf(&ctx->out, "  (bytes:repetitions)\n");
    }
    mb_flush(&ctx->out);
    return 0;
}

static void p2p_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                       const struct mb_run_end *e)
{
    mb_footer_line(&ctx->out, e->rows, cfg->common.check ? e->defects : -1, e->seconds,
                   e->peak_rss);
}

const struct mb_suite mb_suite_p2p = {
    .name = "imb-p2p",
    .legacy = "IMB-P2P",
    .title = "IMB-P2P: point-to-point patterns (pairs, random, stencils) with message rates, "
             "following the Intel IMB 2021.11 methodology",
    .thread_level = MB_THREAD_SINGLE, /* imb_p2p.c: MPI_Init */
    .settings = &mb_p2p_settings,
    .positional = mb_p2p_positional,
    .operands = "[benchmark ...]",
    .validate = mb_p2p_validate,
    .usage = mb_p2p_usage,
    .dry_run = p2p_dry_run,
    .run = p2p_run,
    .footer = p2p_footer,
};
