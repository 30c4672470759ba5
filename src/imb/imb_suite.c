/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB suites (IMB 3.1 guide ch. 3-5; Intel IMB 2021.11's IMB-NBC): every family is one
 * row beside its table (imb_bench.h, struct mb_imb_family), and they share the hooks here and
 * one driver. */
#include "imb/imb_suite.h"
#include "core/error.h"
#include "core/scratch.h"
#include "core/suite.h"
#include "core/thread_level.h"
#include "core/watchdog.h"
#include "imb/imb_cpu.h"
#include "imb/imb_driver.h"
#include "imb/imb_header.h"
#include "imb/imb_io_buffers.h"
#include "imb/imb_nbc_cpu.h"
#include "imb/imb_nbc_driver.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"

#include <stdio.h>
#include <stdlib.h>

/* Whether the plan has a non-blocking I/O benchmark (it needs CPU_Exploit). */
static int needs_cpu(const struct mb_imb_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        if (plan->family->benchmarks[plan->items[i].bench].istart && plan->items[i].q > 0)
            return 1;
    return 0;
}

/* Whether the plan has an IMB-NBC row with overlap (it needs the CPU work's rate). */
static int needs_nbc_cpu(const struct mb_imb_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        if (plan->family->benchmarks[plan->items[i].bench].overlap && plan->items[i].q > 0)
            return 1;
    return 0;
}

int mb_imb_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    struct mb_imb_plan plan;
    struct mb_imb_tally t = {0};
    struct mb_imb_cpu cpu;
    struct mb_imb_nbc_cpu nbc_cpu;
    struct mb_imb_pool pool = {0};
    struct mb_imb_io_buffers io_buffers;
    struct mb_scratch_signals signals;
    const int io = mb_imb_family(c)->io;

    mb_imb_plan_build(&plan, cfg);
    /* -buf_scope run (the default, as IMB 3.1): buffers kept from block to block - IMB-IO's in
     * io_buffers below, which also carry a read benchmark's file content. */
    plan.pool = io ? NULL : &pool;
    if (needs_cpu(&plan)) {
        /* Every process calibrates its own CPU_Exploit once per run (guide 4.2.5.1, IMB 3.1
         * IMB_init.c: initialize = 1 before the first benchmark); rank 0's rate and t_CPU are
         * printed, as IMB's. A measurement of t_CPU itself, which --timeout bounds like the
         * others. */
        char label[96];
        snprintf(label, sizeof label, "%s CPU_Exploit calibration (t_CPU %g s)",
                 mb_imb_family(c)->name, mb_imb_cpu_secs(c));
        mb_imb_cpu_init(&cpu);
        mb_watchdog_arm(ctx->wd, label);
        mb_imb_cpu_calibrate(&cpu, mb_imb_cpu_secs(c), c->cpu_rule);
        mb_watchdog_disarm(ctx->wd);
        plan.cpu = &cpu;
    }
    if (needs_nbc_cpu(&plan)) {
        /* Every process probes the rate of its CPU work once per run, as Intel IMB 2021.11's
         * IMB_cpu_exploit does at its first call. */
        char label[96];
        snprintf(label, sizeof label, "%s CPU work calibration", mb_imb_family(c)->name);
        mb_watchdog_arm(ctx->wd, label);
        mb_imb_nbc_calibrate(&nbc_cpu);
        mb_watchdog_disarm(ctx->wd);
        plan.nbc_cpu = &nbc_cpu;
    }
    if (io) {
        /* Scratch files go on every exit path, also SIGINT/SIGTERM to mpirun
         * (docs/adr/scratch-files.md). */
        mb_scratch_keep(c->io_keep);
        mb_scratch_signals_install(&signals);
        /* The message buffers live as long as the run, as IMB 3.1's do (-buf_scope run). */
        if (c->buf_scope == MB_IMB_BUF_SCOPE_RUN) {
            mb_imb_io_buffers_init(&io_buffers, mb_imb_buf_source(c));
            plan.io_buffers = &io_buffers;
        }
    }
    if (ctx->rank == 0)
        mb_imb_header(ctx, cfg, &plan);
    /* A block whose I/O failed, or whose window the library refused, ends the run (every rank
     * knows it): a full disk stays full, and a library that refused one window refuses the
     * next block's too. */
    for (size_t i = 0; i < plan.n && !t.failed; i++)
        mb_imb_run_block(ctx, cfg, &plan, &plan.items[i], &t);
    /* The buffers the blocks kept (-buf_scope run) go at the end of the run, as IMB 3.1's
     * IMB_free_all frees them. */
    mb_imb_pool_free(&pool, cfg);
    if (io) {
        /* A benchmark's file outlives its aggregate block (imb_io.c); when the non-aggregate
         * block could not allocate its buffers it had no teardown, and the file goes here
         * (nothing is left otherwise; -keep keeps it). */
        (void)mb_scratch_remove_all();
        mb_scratch_signals_restore(&signals);
    }
    if (plan.io_buffers)
        mb_imb_io_buffers_free(plan.io_buffers);
    if (plan.cpu)
        mb_imb_cpu_free(&cpu);
    tally->rows = t.rows;
    tally->defects = t.defects;
    tally->defects_what = "defects found (see the defects column)";
    if (t.failed) {
        /* The run-time error: status 1, reported once by rank 0 at the end of the run. */
        tally->status = MB_EXIT_RUNTIME;
        snprintf(tally->status_text, sizeof tally->status_text, "%s", t.why);
        tally->status_what = tally->status_text;
    }
    mb_imb_plan_free(&plan);
    return 0;
}

void mb_imb_suite_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                         const struct mb_run_end *e)
{
    mb_footer_line(&ctx->out, e->rows, cfg->common.check ? e->defects : -1, e->seconds,
                   e->peak_rss);
}

const struct mb_imb_family *const mb_imb_families[] = {&mb_imb_family_mpi1, &mb_imb_family_ext,
                                                       &mb_imb_family_io,   &mb_imb_family_nbc,
                                                       &mb_imb_family_mpi4, NULL};

int mb_imb_family_index(const struct mb_imb_family *f)
{
    for (int i = 0; mb_imb_families[i]; i++)
        if (mb_imb_families[i] == f)
            return i;
    return -1;
}
