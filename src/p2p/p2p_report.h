/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-P2P's rows as data and their printers (p2p_report.c): 2021.11's table (imb_p2p_*.c: five
 * columns of 12 characters after a blank) and the JSON record p2p_row. */
#ifndef MB_P2P_REPORT_H
#define MB_P2P_REPORT_H

#include "core/suite.h"
#include "p2p/p2p_bench.h"

struct mb_p2p_row {
    long long bytes;
    long reps;
    long long messages;  /* in the figures: P x n, or the processes' count halved */
    double t_usec;       /* 1e6 x the processes' summed time / messages (PingPong: / 2) */
    double mb_per_sec;   /* messages x bytes / 10^6 / the slowest process's time */
    double msg_per_sec;  /* messages / the slowest process's time */
    double time_max_sec; /* the slowest process's time */
    long long defects;   /* -1 without --check */
    double *samples;     /* each sample's t_usec (--samples k): k values, freed by mb_p2p_emit */
    long nsamples;
};

/* The row from what every process sent (stride values each: time, messages, defects, then the
 * k samples' times). */
void mb_p2p_row_make(struct mb_p2p_row *row, const struct mb_p2p_bench *b, int nranks,
                     long long bytes, long reps, long k, const double *all, int stride, int check);

/* Rank 0: a benchmark that cannot run on this many processes; its block header; a row (text
 * and JSON; frees the row's samples). */
void mb_p2p_text_invalid(const struct mb_ctx *ctx, const struct mb_p2p_bench *b, int needed);
void mb_p2p_text_block(const struct mb_ctx *ctx, const struct mb_p2p_bench *b,
                       const struct mb_p2p_state *s, const struct mb_config *cfg);
void mb_p2p_emit(const struct mb_ctx *ctx, const struct mb_config *cfg,
                 const struct mb_p2p_bench *b, const struct mb_p2p_state *s,
                 struct mb_p2p_row *row);

#endif
