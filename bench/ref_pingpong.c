/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal hand-written MPI ping-pong: the reference bench/pingpong_overhead.sh compares
 * IMB-MPI1 PingPong against. Deliberately no harness: two clock reads around the loop.
 * Usage: mb_ref_pingpong BYTES REPETITIONS   (2 processes; prints "BYTES usec MB/s"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, bytes, reps;
    char *s, *r;
    double t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s BYTES REPETITIONS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    bytes = atoi(argv[1]);
    reps = atoi(argv[2]);
    /* Written once, as any program's data would be: an untouched calloc'd buffer maps the
     * shared zero page and makes sends look faster than memory allows. */
    s = malloc((size_t)bytes + 4);
    r = malloc((size_t)bytes + 4);
    memset(s, 1, (size_t)bytes + 4);
    memset(r, 0, (size_t)bytes + 4);
    for (int i = 0; i < 2; i++) { /* warm-up, as IMB does */
        if (rank == 0) {
            MPI_Send(s, 4, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, 4, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, 4, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, 4, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (rank == 0) {
            MPI_Send(s, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    t = (MPI_Wtime() - t0) / reps / 2 * 1e6; /* one-way time in usec, as PingPong reports */
    if (rank == 0)
        printf("%d %.4f %.4f\n", bytes, t, t > 0 ? bytes / 1.048576 / t : 0.0);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
