/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-P2P's figures and printers (Intel IMB 2021.11, src_c/P2P/imb_p2p_*.c: each benchmark's
 * closing arithmetic, and print_main_header's and imb_p2p_print_benchmark_header's layout).
 * Mbytes are 10^6 bytes, as there. */
#include "p2p/p2p_report.h"

#include "core/error.h"
#include "core/samples.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const char *const dashes =
    "#----------------------------------------------------------------";

/* The row's messages and time per message from the processes' times (summed) and counts: P x n
 * for PingPong, PingPing and SendRecv_Replace (PingPong's time per message halved, a round
 * trip), else the counted messages, each counted by its sender and its receiver, halved. */
static void figures(const struct mb_p2p_bench *b, int nranks, long reps, double sum_time,
                    double counted, double *messages, double *t_usec)
{
    *messages = b->counted ? counted / 2 : (double)reps * nranks;
    *t_usec = *messages > 0 ? 1e6 * sum_time / (*messages * (b->half_trip ? 2 : 1)) : 0.0;
}

void mb_p2p_row_make(struct mb_p2p_row *row, const struct mb_p2p_bench *b, int nranks,
                     long long bytes, long reps, long k, const double *all, int stride, int check)
{
    double sum = 0, most = 0, counted = 0, msgs;

    *row = (struct mb_p2p_row){.bytes = bytes, .reps = reps, .defects = check ? 0 : -1};
    for (int p = 0; p < nranks; p++) {
        const double *g = all + (size_t)p * (size_t)stride;
        sum += g[0];
        counted += g[1];
        if (g[0] > most)
            most = g[0];
        if (check)
            row->defects += (long long)g[2];
    }
    figures(b, nranks, reps, sum, counted, &msgs, &row->t_usec);
    row->messages = (long long)msgs;
    row->time_max_sec = most;
    row->msg_per_sec = most > 0 ? msgs / most : 0.0;
    row->mb_per_sec = most > 0 ? msgs * (double)bytes / (1e6 * most) : 0.0;
    /* A sample's t: the same figure from the processes' times of that part of the loop, its
     * messages in proportion to its repetitions. */
    row->nsamples = k;
    row->samples = mb_xcalloc((size_t)(k > 0 ? k : 1), sizeof *row->samples);
    for (long j = 0; j < k; j++) {
        const long rj = reps / k + (j < reps % k);
        double sj = 0, mj, tj;
        for (int p = 0; p < nranks; p++)
            sj += all[(size_t)p * (size_t)stride + 3 + (size_t)j];
        figures(b, nranks, rj, sj, counted * (double)rj / (double)reps, &mj, &tj);
        row->samples[j] = tj;
    }
}

void mb_p2p_text_invalid(const struct mb_ctx *ctx, const struct mb_p2p_bench *b, int needed)
{
    struct mb_jobj o;

    mb_printf(&ctx->out, "\n# !! Benchmark %s is invalid for %d processes !!\n", b->name,
              ctx->size);
    mb_flush(&ctx->out);
    mb_jobj_begin(&o, "skipped", ctx->json);
    mb_jobj_str(&o, "benchmark", b->name);
    mb_jobj_int(&o, "processes_needed", needed);
    mb_jobj_write(&o, ctx->json);
}

void mb_p2p_text_block(const struct mb_ctx *ctx, const struct mb_p2p_bench *b,
                       const struct mb_p2p_state *s, const struct mb_config *cfg)
{
    const struct mb_out *out = &ctx->out;

    mb_printf(out, "\n%s\n# Benchmarking %s", dashes, b->name);
    /* The stencils name their grid: (Y x X), (Z x Y x X). */
    if (s->ndims == 2)
        mb_printf(out, " (%d x %d)", s->dims[1], s->dims[0]);
    else if (s->ndims == 3)
        mb_printf(out, " (%d x %d x %d)", s->dims[2], s->dims[1], s->dims[0]);
    mb_printf(out, "\n# #processes = %d\n%s\n", ctx->size, dashes);
    mb_printf(out, " %12s %12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec",
              "Msg/sec");
    if (cfg->common.check)
        mb_printf(out, " %12s", "defects");
    if (cfg->common.spread && mb_config_samples(cfg) > 1)
        mb_printf(out, " %12s %12s %12s", "t_med[usec]", "ci95_lo", "ci95_hi");
    mb_printf(out, "\n");
    mb_flush(out);
}

void mb_p2p_emit(const struct mb_ctx *ctx, const struct mb_config *cfg,
                 const struct mb_p2p_bench *b, const struct mb_p2p_state *s, struct mb_p2p_row *row)
{
    const struct mb_out *out = &ctx->out;
    struct mb_jobj o;

    mb_printf(out, " %12" PRIu64 " %12" PRIu64 " %12.2f %12.2f %12.0f", (uint64_t)row->bytes,
              (uint64_t)row->reps, row->t_usec, row->mb_per_sec, row->msg_per_sec);
    if (row->defects >= 0)
        mb_printf(out, " %12lld", row->defects);
    if (cfg->common.spread && mb_config_samples(cfg) > 1) {
        const struct mb_spread sp = mb_spread_strided(row->samples, (size_t)row->nsamples, 1, 1.0);
        mb_printf(out, " %12.2f %12.2f %12.2f", sp.median, sp.ci_low, sp.ci_high);
    }
    mb_printf(out, "\n");
    mb_flush(out);
    mb_jobj_begin(&o, "p2p_row", ctx->json);
    mb_jobj_str(&o, "benchmark", b->name);
    mb_jobj_int(&o, "processes", ctx->size);
    if (s->ndims > 0)
        mb_jarray_ints(&o, "grid", s->dims, (size_t)s->ndims);
    mb_jobj_int(&o, "bytes", row->bytes);
    mb_jobj_int(&o, "repetitions", row->reps);
    mb_jobj_int(&o, "messages", row->messages);
    mb_jobj_figure(&o, "t_usec", row->t_usec, row->samples, (size_t)row->nsamples, 1, 1.0,
                   cfg->common.raw_samples);
    mb_jobj_sample_count(&o, (size_t)row->nsamples);
    mb_jobj_num(&o, "mb_per_sec", row->mb_per_sec);
    mb_jobj_num(&o, "messages_per_sec", row->msg_per_sec);
    mb_jobj_num(&o, "time_max_sec", row->time_max_sec);
    if (row->defects >= 0)
        mb_jobj_int(&o, "defects", row->defects);
    else
        mb_jobj_null(&o, "defects");
    mb_jobj_write(&o, ctx->json);
    free(row->samples);
    row->samples = NULL;
}
