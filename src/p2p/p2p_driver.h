/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-P2P driver (p2p_driver.c). */
#ifndef MB_P2P_DRIVER_H
#define MB_P2P_DRIVER_H

#include "core/suite.h"
#include "p2p/p2p_bench.h"

struct mb_p2p_tally {
    long long rows, defects;
    char why[256]; /* a benchmark whose buffers could not be allocated */
};

/* Collective over ctx->world: every selected benchmark, rank 0 printing and recording the
 * rows. Returns 0, or 1 when a benchmark's buffers could not be allocated (t->why says). */
int mb_p2p_run_all(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_p2p_tally *t);

#endif
