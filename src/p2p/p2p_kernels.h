/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-P2P patterns (p2p_kernels.c): layouts and steps the table's rows name. */
#ifndef MB_P2P_KERNELS_H
#define MB_P2P_KERNELS_H

#include "p2p/p2p_bench.h"

int mb_p2p_layout_pairs(struct mb_p2p_state *s);
int mb_p2p_layout_ring(struct mb_p2p_state *s);
int mb_p2p_layout_stencil2d(struct mb_p2p_state *s);
int mb_p2p_layout_stencil3d(struct mb_p2p_state *s);

void mb_p2p_begin_random(struct mb_p2p_state *s);
void mb_p2p_begin_ring(struct mb_p2p_state *s);

void mb_p2p_pingpong(struct mb_p2p_state *s);
void mb_p2p_pingping(struct mb_p2p_state *s);
void mb_p2p_sendrecv_replace(struct mb_p2p_state *s);
void mb_p2p_sendrecv_replace_finish(struct mb_p2p_state *s);
void mb_p2p_unirandom(struct mb_p2p_state *s);
void mb_p2p_birandom(struct mb_p2p_state *s);
void mb_p2p_corandom(struct mb_p2p_state *s);
void mb_p2p_stencil(struct mb_p2p_state *s);

#endif
