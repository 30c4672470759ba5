/* SPDX-License-Identifier: BSD-3-Clause */
/* The hooks every IMB family's program shares (struct mb_imb_family's suite row): a family's
 * row names these, its own table and option sets, and nothing else. */
#ifndef MB_IMB_SUITE_H
#define MB_IMB_SUITE_H

#include "core/suite.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"

/* The run of a family's plan (imb_suite.c) and its closing lines. */
int mb_imb_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally);
void mb_imb_suite_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                         const struct mb_run_end *e);

#endif
