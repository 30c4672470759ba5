/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench map: the suite row and its run (one process per host measures, the others wait). */
#include "map/map.h"
#include "map/map_driver.h"
#include "map/map_report.h"

#include "core/error.h"
#include "core/idle.h"
#include "core/thread_level.h"

static int map_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    MPI_Comm node, leaders;
    int h = 0;
    struct mb_idle idle;
    struct mb_map_report r = {0};

    /* Host i is rank i of leaders: the provenance's order, which names the hosts. */
    mb_host_comms(ctx->world, &node, &leaders);
    MB_MPI(MPI_Comm_free(&node));
    if (leaders != MPI_COMM_NULL)
        MB_MPI(MPI_Comm_size(leaders, &h));
    if (ctx->rank == 0) {
        mb_map_header(ctx, cfg, "map of the links between hosts");
        r.names = ctx->prov->host_names;
        r.name_len = MPI_MAX_PROCESSOR_NAME;
        mb_map_report_begin(&r, ctx, cfg, h);
    }
    {
        int waits = leaders == MPI_COMM_NULL, waiting = 0;
        MB_MPI(MPI_Allreduce(&waits, &waiting, 1, MPI_INT, MPI_SUM, ctx->world));
        mb_idle_begin(&idle, ctx->wd, ctx->world, waiting > 0, waits);
    }
    if (leaders != MPI_COMM_NULL) {
        mb_map_measure(mb_map_cfg(cfg), leaders, ctx->wd, mb_map_report_link, &r);
        MB_MPI(MPI_Comm_free(&leaders));
    } else {
        mb_idle_wait(&idle, "map (this process waits: the lowest rank of each host measures)");
    }
    mb_idle_end(&idle);
    if (ctx->rank == 0) {
        mb_map_report_end(&r);
        tally->rows = r.pairs;
        mb_map_report_free(&r);
    }
    tally->defects_what = "defects found";
    return 0;
}

static int map_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const int h = ctx->prov->nhosts;

    if (ctx->rank == 0) {
        mb_printf(&ctx->out,
                  "# Run plan of mpibench map on %d hosts (--dry-run: nothing is measured): "
                  "%d rounds, %d pairs, per pair %ld latency samples of %ld round trips and "
                  "2 x %ld bandwidth samples of %ld x %ld bytes\n",
                  h, mb_map_rounds(h), h * (h - 1) / 2, mb_map_cfg(cfg)->repeats,
                  mb_map_cfg(cfg)->lat_iters, mb_map_cfg(cfg)->repeats, mb_map_cfg(cfg)->bw_window,
                  mb_map_cfg(cfg)->bw_bytes);
        mb_flush(&ctx->out);
    }
    return 0;
}

void mb_map_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_run_end *e)
{
    (void)cfg;
    mb_footer_line(&ctx->out, e->rows, -1, e->seconds, e->peak_rss);
}

const struct mb_suite mb_suite_map = {
    .name = "map",
    .legacy = NULL,
    .title = "map: latency and bandwidth between every pair of hosts, and the outliers",
    .thread_level = MB_THREAD_SINGLE,
    .settings = &mb_map_settings,
    .validate = mb_map_validate,
    .usage = mb_map_usage,
    .dry_run = map_dry_run,
    .run = map_run,
    .footer = mb_map_footer,
};
