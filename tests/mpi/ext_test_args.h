/* SPDX-License-Identifier: BSD-3-Clause */
/* The kernel arguments of the in-memory IMB-EXT tests (test_ext_window.c,
 * test_ext_get_origin.c): one length of n bytes over MPI_COMM_WORLD, one slot, the given
 * buffers, no window yet, no info. */
#ifndef MB_EXT_TEST_ARGS_H
#define MB_EXT_TEST_ARGS_H

#include "imb/imb_bench.h"

#include <mpi.h>
#include <string.h>

static inline struct mb_imb_args ext_test_args(int rank, int size, char *sbuf, char *rbuf, size_t n)
{
    struct mb_imb_args a;

    memset(&a, 0, sizeof a);
    a.comm = MPI_COMM_WORLD;
    a.parent = MPI_COMM_WORLD;
    a.rank = rank;
    a.size = size;
    a.bytes = n;
    a.count = (int)n;
    a.sbuf = sbuf;
    a.rbuf = rbuf;
    a.sregion = a.rregion = n;
    a.slots = (struct mb_slots){n, n, 1};
    a.win = MPI_WIN_NULL;
    a.info = MPI_INFO_NULL;
    return a;
}

#endif
