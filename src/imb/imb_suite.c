/* The IMB-MPI1 suite (SPEC §1-2) and, for now, the main job `mpibench run` built on it. */
#include "core/clock.h"
#include "core/error.h"
#include "core/suite.h"
#include "imb/imb_driver.h"
#include "imb/imb_header.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"

#include <stdio.h>
#include <stdlib.h>

static int imb_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    struct mb_imb_plan plan;
    struct mb_imb_tally tally = {0, 0};
    const double t0 = mb_now();
    unsigned long long peak;
    int status;

    mb_imb_plan_build(&plan, cfg);
    if (ctx->rank == 0)
        mb_imb_header(ctx, cfg, &plan);
    for (size_t i = 0; i < plan.n; i++)
        mb_imb_run_block(ctx, cfg, &plan, &plan.items[i], &tally);
    peak = mb_peak_rss(ctx->world);
    /* Rank 0 saw every row; its verdict is everybody's exit status (SPEC §0). */
    status = tally.defects > 0 ? MB_EXIT_RUNTIME : MB_EXIT_OK;
    MB_MPI(MPI_Bcast(&status, 1, MPI_INT, 0, ctx->world));
    if (ctx->rank == 0) {
        double secs = mb_now() - t0;
        mb_imb_footer(ctx, tally.rows, cfg->common.check ? tally.defects : -1, secs, peak);
        mb_json_summary(ctx, status, tally.rows, tally.defects, secs, peak);
        if (status != 0)
            fprintf(stderr, "%s: %s: %lld defects found (see the defects column)\n", cfg->prog,
                    mb_error_label(MB_ERR_DEFECT), tally.defects);
    }
    mb_imb_plan_free(&plan);
    return status;
}

const struct mb_suite mb_suite_imb_mpi1 = {
    .name = "imb-mpi1",
    .legacy = "IMB-MPI1",
    .title = "IMB-MPI1: Intel MPI Benchmarks 3.1 MPI-1 part",
    .options = &mb_imb_option_set,
    .positional = mb_imb_positional,
    .validate = mb_imb_validate,
    .usage = mb_imb_usage,
    .dry_run = mb_imb_dry_run,
    .run = imb_run,
};

/* The main job (SPEC §8), for now the quick IMB-MPI1 characterisation of the machine it runs
 * on: every benchmark with a reduced repetition count and a time cap per message length,
 * written to an output directory (default ./mpibench-results) as text and JSON. */
static int run_validate(struct mb_config *cfg, const struct mb_provenance *prov,
                        struct mb_error *err)
{
    if (!cfg->common.output_dir)
        cfg->common.output_dir = mb_xstrdup("mpibench-results");
    if (cfg->common.timeout <= 0)
        cfg->common.timeout = 120;
    /* Quick defaults, unless the IMB flags given say otherwise. */
    if (cfg->imb.msgspersample == 0)
        cfg->imb.msgspersample = 200;
    if (cfg->imb.overall_vol_mb == 0)
        cfg->imb.overall_vol_mb = 8;
    if (cfg->imb.time_limit == 0)
        cfg->imb.time_limit = 0.1;
    return mb_imb_validate(cfg, prov, err);
}

static void run_usage(FILE *out)
{
    fprintf(out, "A quick characterisation of this machine: the IMB-MPI1 benchmarks with, unless\n"
                 "the IMB flags below say otherwise, -iter 200,8 and -time 0.1, written to\n"
                 "--output-dir (default ./mpibench-results) as text and JSON Lines, with a\n"
                 "--timeout of 120 s per measurement.\n\n");
    mb_imb_usage(out);
}

const struct mb_suite mb_suite_run = {
    .name = "run",
    .title = "the main job: a few-minute characterisation of this machine",
    .options = &mb_imb_option_set,
    .positional = mb_imb_positional,
    .validate = run_validate,
    .usage = run_usage,
    .dry_run = mb_imb_dry_run,
    .run = imb_run,
};
