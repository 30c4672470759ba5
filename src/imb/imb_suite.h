/* SPDX-License-Identifier: BSD-3-Clause */
/* The hooks every IMB family's program shares (struct mb_imb_family's suite row): a family's
 * row names these, its own table and option sets, and nothing else. */
#ifndef MB_IMB_SUITE_H
#define MB_IMB_SUITE_H

#include "core/suite.h"
#include "core/thread_level.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"

/* The run of a family's plan (imb_suite.c) and its closing lines. */
int mb_imb_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally);
void mb_imb_suite_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                         const struct mb_run_end *e);

/* The part of a family's suite row every family shares: the thread level its original asks
 * for at start (IMB 3.1 IMB.c line 132: MPI_Init_thread at MPI_THREAD_MULTIPLE; Intel IMB
 * 2021.11 imb.cpp: MPI_Init, MB_THREAD_SINGLE) and the hooks above. A family's row adds its
 * names, title, settings and owner. */
#define MB_IMB_SUITE_HOOKS(level)                                                                  \
    .thread_level = level, .positional = mb_imb_positional, .operands = "[benchmark ...]",         \
    .validate = mb_imb_validate, .usage = mb_imb_usage, .dry_run = mb_imb_dry_run,                 \
    .run = mb_imb_run, .footer = mb_imb_suite_footer

#endif
