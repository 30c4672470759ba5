/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef MB_IMB_HEADER_H
#define MB_IMB_HEADER_H

#include "core/suite.h"
#include "imb/imb_plan.h"

/* Rank 0 only. */
void mb_imb_header(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_imb_plan *plan);

#endif
