/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef MB_IMB_HEADER_H
#define MB_IMB_HEADER_H

#include "core/suite.h"
#include "imb/imb_plan.h"

/* Rank 0 only. */
void mb_imb_header(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_imb_plan *plan);
/* defects < 0: not in check mode. */
void mb_imb_footer(const struct mb_ctx *ctx, long long rows, long long defects, double seconds,
                   unsigned long long peak_rss);

#endif
