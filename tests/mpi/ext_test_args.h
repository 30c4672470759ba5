/* SPDX-License-Identifier: BSD-3-Clause */
/* The kernel arguments of the in-memory tests (IMB-EXT: test_ext_window.c,
 * test_ext_get_origin.c; IMB-IO: test_io_sync.c): one length of n bytes over MPI_COMM_WORLD, one
 * slot, the given buffers, no window yet, no info; and their common end (ext_test_finish). */
#ifndef MB_EXT_TEST_ARGS_H
#define MB_EXT_TEST_ARGS_H

#include "imb/imb_bench.h"

#include <mpi.h>
#include <stdio.h>
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

/* Sums the processes' failures, has rank 0 print the line ctest looks for ("ok: 0
 * failure(s)"), finalizes MPI and returns the program's exit status. */
static inline int ext_test_finish(const char *name, int rank, int size, int failures)
{
    int all = 0;

    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d processes, ok: %d failure(s)\n", name, size, all);
    MPI_Finalize();
    return all != 0;
}

#endif
