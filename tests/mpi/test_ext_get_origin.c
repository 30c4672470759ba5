/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-EXT's Unidir_Get: group rank 1 gets from rank 0's window and rank 0 only fences, as IMB
 * 3.1's IMB_ones_unidir.c has pair1 call MPI_Get from pair0 (docs/adr/program-ext-get-origin.md).
 * After one transfer, in both the non-aggregate kernel and the aggregate batch, rank 1's
 * receive buffer holds rank 0's bytes and rank 0's is untouched; check mode agrees. Run under
 * mpiexec with exactly 2 processes. */
#include "core/buffers.h"
#include "core/window.h"
#include "ext_test_args.h"
#include "imb/imb_bench.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 8, POISON = 0x7F };

/* 1 when rank's receive buffer is what this rank should hold after a transfer: rank 0's send
 * bytes on rank 1, the poison on rank 0. Reports on stderr what it found otherwise. */
static int expect(const char *what, int rank, const char *rbuf, const char *rank0_bytes)
{
    const char *want = rank == 1 ? rank0_bytes : NULL;

    for (int i = 0; i < N; i++) {
        const char w = want ? want[i] : (char)POISON;
        if (rbuf[i] != w) {
            fprintf(stderr, "rank %d: FAILED (%s): receive byte %d is 0x%02x, expected 0x%02x%s\n",
                    rank, what, i, (unsigned char)rbuf[i], (unsigned char)w,
                    rank == 0 ? " (rank 0 got bytes: it was the origin, IMB 3.1's is rank 1)" : "");
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    /* The program's allocator, as the driver's buffers. */
    char *sbuf = mb_buf_alloc(N), *rbuf = mb_buf_alloc(N);
    char rank0_bytes[N];
    int rank, size, failures = 0;
    struct mb_imb_args a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "test_ext_get_origin: needs exactly 2 processes, got %d\n", size);
        MPI_Finalize();
        return 2;
    }
    /* Each process's send buffer holds its own check pattern (core/buffers.h). */
    mb_fill_bytes(sbuf, N, rank, 0);
    mb_fill_bytes(rank0_bytes, N, 0, 0);
    a = ext_test_args(rank, size, sbuf, rbuf, N);
    /* Get's window covers the send buffers (IMB 3.1 IMB_init_transfer.c). */
    a.win = mb_win_create(sbuf, N, 1, MPI_INFO_NULL, MPI_COMM_WORLD);
    MPI_Win_fence(0, a.win);

    memset(rbuf, POISON, N);
    mb_imb_unidir_get(&a, 0);
    MPI_Win_fence(0, a.win);
    failures += !expect("non-aggregate", rank, rbuf, rank0_bytes);
    if (rank == 1 && mb_imb_check_unidir_get(&a, 0) != 0) {
        fprintf(stderr, "rank 1: FAILED: the check counts a defect in rank 0's bytes\n");
        failures++;
    }

    memset(rbuf, POISON, N);
    mb_imb_unidir_get_batch(&a, 0, 1);
    MPI_Win_fence(0, a.win);
    failures += !expect("aggregate", rank, rbuf, rank0_bytes);

    mb_win_free(&a.win);
    mb_buf_free(sbuf, N);
    mb_buf_free(rbuf, N);
    return ext_test_finish("test_ext_get_origin", rank, size, failures);
}
