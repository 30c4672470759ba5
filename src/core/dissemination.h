/* SPDX-License-Identifier: BSD-3-Clause */
/* A barrier made of point-to-point messages, as Intel IMB 2021.11 has it twice (src_c/IMB_utils.c
 * IMB_Barrier for -imb_barrier on; src_c/P2P/imb_p2p.c imb_p2p_barrier, IMB-P2P's only
 * barrier): in round k every rank sends a zero-byte message to the rank 2^k ahead and receives
 * one from the rank 2^k behind (MPI_Sendrecv, tag 1000), ceil(log2 P) rounds. */
#ifndef MB_DISSEMINATION_H
#define MB_DISSEMINATION_H

#include <mpi.h>

void mb_dissemination_barrier(MPI_Comm comm);

#endif
