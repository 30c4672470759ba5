/* SPDX-License-Identifier: BSD-3-Clause */
/* One IMB-P2P benchmark = one row of the table (p2p_table.c) + one kernel, a step of its
 * pattern (p2p_kernels.c); the driver (p2p_driver.c) owns the pauses, the barriers, the
 * warm-up, the clock and the figures. Intel IMB 2021.11, src_c/P2P/. */
#ifndef MB_P2P_BENCH_H
#define MB_P2P_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

enum { MB_P2P_MAX_BUFS = 6, MB_P2P_LINE = 64 };

/* One process's part of a benchmark while it runs. */
struct mb_p2p_state {
    MPI_Comm comm;
    int rank, nranks;
    size_t size; /* the message length of the loop */
    int nbuf;    /* send and receive buffers (the stencils: one per side) */
    char *s[MB_P2P_MAX_BUFS], *r[MB_P2P_MAX_BUFS];
    int partner;                     /* PingPong, PingPing: rank +- P/2; SendRecv_Replace: right */
    int left;                        /* SendRecv_Replace: where its data come from */
    int neighbours[MB_P2P_MAX_BUFS]; /* the stencils' neighbours, one per buffer */
    int dims[3], ndims;              /* the stencils' grid: x, y, z */
    int *ring;                       /* Corandom's permutation */
    uint64_t seed;                   /* the random patterns' generator */
    size_t dummy;                    /* the running value the touches read and write */
    int touch_send, touch_recv;
    long long messages; /* the random and stencil patterns: sent + received */
    /* What the last step received: the buffers and the rank each came from (--check). */
    const char *got[MB_P2P_MAX_BUFS];
    int got_from[MB_P2P_MAX_BUFS];
    int ngot;
};

struct mb_p2p_bench {
    const char *name;
    /* Sets the partners or the grid for s->nranks processes; 0 if the benchmark cannot run on
     * that many (then the driver prints 2021.11's note). */
    int (*layout)(struct mb_p2p_state *s);
    int nbuf;              /* buffers a side: 1, or the stencils' 4 and 6 */
    int single_buffer;     /* one buffer for both directions (SendRecv_Replace) */
    int steps_per_process; /* a repetition is P steps (Unirandom, Birandom), else 1 */
    /* How the row counts messages: fixed (each process one message a repetition, P x n;
     * PingPong's time is halved: a round trip), or as the processes counted them (sent +
     * received, halved). */
    int counted;
    int half_trip;
    int ring; /* keeps a permutation of the P ranks (Corandom) */
    /* The warm-up ends without the barrier before the timing (SendRecv_Replace). */
    int no_barrier_after_warm_up;
    /* Before a loop: the generator (and the ring) back to their start. */
    void (*begin)(struct mb_p2p_state *s);
    /* One step of the pattern. */
    void (*step)(struct mb_p2p_state *s);
    /* After the warm-up and at the end of the timed loop, inside its timing (SendRecv_Replace
     * reads its buffer once, there). */
    void (*finish)(struct mb_p2p_state *s);
};

extern const struct mb_p2p_bench mb_p2p_benchmarks[];
extern const size_t mb_p2p_nbenchmarks;

/* The table index of a name (case-insensitive), or -1. */
int mb_p2p_find(const char *name);

/* 2021.11's touches (imb_p2p.h touch_send_buff, touch_recv_buff): one byte of every 64-byte
 * line, written before a send and read after a receive, so that the data pass through the
 * cache as an application's would. */
static inline void mb_p2p_touch_send(struct mb_p2p_state *s, char *buf)
{
    if (s->touch_send) {
        size_t d = s->dummy;
        for (size_t i = 0; i < s->size; i += MB_P2P_LINE)
            buf[i] = (char)d++;
        s->dummy = d;
    }
}

static inline void mb_p2p_touch_recv(struct mb_p2p_state *s, const char *buf)
{
    if (s->touch_recv) {
        size_t d = s->dummy;
        for (size_t i = 0; i < s->size; i += MB_P2P_LINE)
            d += (size_t)buf[i];
        s->dummy = d;
    }
}

/* 2021.11's generator (imb_p2p.h get_next_random): a 64-bit linear congruence, the upper 40
 * bits. */
static inline uint32_t mb_p2p_random(uint64_t *seed)
{
    *seed = *seed * 7560690468208412377ull + 4343336064253945357ull;
    return (uint32_t)(*seed >> 24);
}

#endif
