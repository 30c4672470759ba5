/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB measurement driver (IMB guide 5.2.6-5.2.8): it alone times, through core/timing.h. */
#ifndef MB_IMB_DRIVER_H
#define MB_IMB_DRIVER_H

#include "core/suite.h"
#include "imb/imb_plan.h"
#include "imb/imb_time_rule.h" /* the repetition policy under -time */

struct mb_imb_tally {
    long long rows;
    long long defects;
    /* A block that stopped on a failure agreed by every rank - IMB-IO's failed I/O call (a
     * full disk), IMB-EXT's window the MPI library refused; why (rank 0) names the block and
     * the failure (IMB-IO: the process and the file). */
    int failed;
    char why[1024];
};

/* The message buffers a process keeps from block to block under -buf_scope run (the default;
 * docs/adr/program-imb-buffer-lifetime.md): IMB 3.1 allocates them once and only grows them
 * (IMB_mem_manager.c, IMB_alloc_buf), freeing the smaller one first, and frees them at the end
 * of the run (IMB_free_all). Zeroed = empty; mb_imb_pool_free releases them. */
struct mb_imb_pool {
    char *s, *r;
    size_t scap, rcap;
};
void mb_imb_pool_free(struct mb_imb_pool *pool, const struct mb_config *cfg);

/* Collective over ctx->world: runs one block of the plan on every rank (idle ranks wait in
 * MPI_Barrier), prints and records its rows on rank 0. An IMB-IO block whose I/O failed stops
 * after the length it was in (no row for it), an IMB-EXT block whose window was refused before
 * the length that needed it; both set tally->failed on every rank. */
void mb_imb_run_block(const struct mb_ctx *ctx, const struct mb_config *cfg,
                      const struct mb_imb_plan *plan, const struct mb_imb_item *item,
                      struct mb_imb_tally *tally);

/* CPU_Exploit calibration (guide 4.2.5.1, IMB's initialize step) under -t_cpu_rule (an enum
 * mb_imb_cpu_rule): the Mflop/s rate and the repetition count that takes about target_secs,
 * and that call's time. Local. */
struct mb_imb_cpu;
void mb_imb_cpu_calibrate(struct mb_imb_cpu *c, double target_secs, int rule);

#endif
