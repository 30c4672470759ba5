/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-P2P benchmarks (Intel IMB 2021.11, src_c/P2P/imb_p2p.c initialization), in the order
 * of a default run. Each row: the pattern's layout and step (p2p_kernels.c) and how its row
 * counts messages (the figures of its imb_p2p_*.c). */
#include "p2p/p2p_bench.h"
#include "p2p/p2p_kernels.h"

#include <strings.h>

const struct mb_p2p_bench mb_p2p_benchmarks[] = {
    /* Ranks r and r + P/2: a round trip a repetition, t half of it (imb_p2p_pingpong.c). */
    {.name = "PingPong",
     .layout = mb_p2p_layout_pairs,
     .nbuf = 1,
     .half_trip = 1,
     .step = mb_p2p_pingpong},
    {.name = "PingPing", .layout = mb_p2p_layout_pairs, .nbuf = 1, .step = mb_p2p_pingping},
    /* P random pairs a repetition, one message each (imb_p2p_unirandom.c). */
    {.name = "Unirandom",
     .layout = mb_p2p_layout_ring,
     .nbuf = 1,
     .steps_per_process = 1,
     .counted = 1,
     .begin = mb_p2p_begin_random,
     .step = mb_p2p_unirandom},
    {.name = "Birandom",
     .layout = mb_p2p_layout_ring,
     .nbuf = 1,
     .steps_per_process = 1,
     .counted = 1,
     .begin = mb_p2p_begin_random,
     .step = mb_p2p_birandom},
    /* A new random ring every repetition (imb_p2p_corandom.c). */
    {.name = "Corandom",
     .layout = mb_p2p_layout_ring,
     .nbuf = 1,
     .counted = 1,
     .ring = 1,
     .begin = mb_p2p_begin_ring,
     .step = mb_p2p_corandom},
    /* Halo exchanges with 4 and 6 neighbours on a periodic grid. */
    {.name = "Stencil2D",
     .layout = mb_p2p_layout_stencil2d,
     .nbuf = 4,
     .counted = 1,
     .step = mb_p2p_stencil},
    {.name = "Stencil3D",
     .layout = mb_p2p_layout_stencil3d,
     .nbuf = 6,
     .counted = 1,
     .step = mb_p2p_stencil},
    /* Around the ring in one buffer; no barrier between warm-up and timing, one read of the
     * buffer after each loop (imb_p2p_sendrecv_replace.c). */
    {.name = "SendRecv_Replace",
     .layout = mb_p2p_layout_ring,
     .nbuf = 1,
     .single_buffer = 1,
     .no_barrier_after_warm_up = 1,
     .step = mb_p2p_sendrecv_replace,
     .finish = mb_p2p_sendrecv_replace_finish},
};
const size_t mb_p2p_nbenchmarks = sizeof mb_p2p_benchmarks / sizeof mb_p2p_benchmarks[0];

int mb_p2p_find(const char *name)
{
    for (size_t i = 0; i < mb_p2p_nbenchmarks; i++)
        if (strcasecmp(name, mb_p2p_benchmarks[i].name) == 0)
            return (int)i;
    return -1;
}
