/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-EXT's Window kernel puts its one byte to the calling process itself, at displacement 0,
 * as IMB 3.1's IMB_window.c does (docs/adr/program-window-target.md): after one sample every
 * process's window holds its own first send byte, not a neighbour's. Run under mpiexec with 2
 * or more processes (with one, self and neighbour are the same process and nothing is shown). */
#include "core/buffers.h"
#include "ext_test_args.h"
#include "imb/imb_bench.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* The program's allocator, as the driver's buffers (MPICH 4.0 aborts a put to itself into
     * a window on the stack: "memcpy argument memory ranges overlap"). */
    enum { N = 8 };
    char *sbuf = mb_buf_alloc(N), *rbuf = mb_buf_alloc(N);
    int rank, size, failures = 0;
    struct mb_imb_args a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* A distinct first byte per process, and a poisoned window. */
    memset(sbuf, 0x10 + rank, N);
    memset(rbuf, 0x7F, N);
    a = ext_test_args(rank, size, sbuf, rbuf, N);
    a.left = (rank + size - 1) % size;
    a.right = (rank + 1) % size;

    mb_imb_window(&a, 0);
    if (rbuf[0] != (char)(0x10 + rank)) {
        fprintf(stderr, "rank %d: FAILED: window byte 0 is 0x%02x, expected its own 0x%02x%s\n",
                rank, (unsigned char)rbuf[0], 0x10 + rank,
                rbuf[0] == (char)(0x10 + a.left) ? " (it came from the left neighbour)" : "");
        failures++;
    }
    if (rbuf[1] != 0x7F) {
        fprintf(stderr, "rank %d: FAILED: the put wrote more than one byte\n", rank);
        failures++;
    }
    /* Check mode's verdict agrees: a sample with the byte pattern (core/buffers.h) of this
     * process and a poisoned window has no defect. */
    mb_fill_bytes(sbuf, N, rank, 0);
    memset(rbuf, 0x7F, N);
    mb_imb_window(&a, 0);
    if (mb_imb_check_window(&a, 0) != 0) {
        fprintf(stderr, "rank %d: FAILED: the check counts a defect in the window byte\n", rank);
        failures++;
    }
    mb_buf_free(sbuf, N);
    mb_buf_free(rbuf, N);
    return ext_test_finish("test_ext_window", rank, size, failures);
}
