/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal hand-written MPI_Put + MPI_Win_fence loop: the reference bench/ext_figures.py
 * compares IMB-EXT Unidir_Put against. Deliberately no harness: two clock reads around the loop.
 * Rank 0 puts REPETITIONS times into rank 1's window, transfer i from origin section i into
 * target section i (disjoint, as IMB-EXT does); "aggr" completes them with one fence after
 * the loop, "nonaggr" with a fence after every put. Both processes call the fences.
 * Usage: mb_ref_put BYTES REPETITIONS aggr|nonaggr   (2 processes; prints "BYTES usec MB/s"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, bytes, reps, aggr;
    size_t region;
    char *origin, *target;
    MPI_Win win;
    double t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 || size != 2 ||
        (strcmp(argv[3], "aggr") != 0 && strcmp(argv[3], "nonaggr") != 0) || atoi(argv[1]) < 0 ||
        atoi(argv[2]) < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s BYTES REPETITIONS aggr|nonaggr\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    bytes = atoi(argv[1]);
    reps = atoi(argv[2]);
    aggr = strcmp(argv[3], "aggr") == 0;
    /* One section per repetition; at least 4 bytes, for the warm-up puts. Both buffers are
     * written once, as any program's data would be: untouched pages map the shared zero page
     * and make transfers look faster than memory allows. */
    region = (size_t)bytes * (size_t)reps;
    if (region < 4)
        region = 4;
    origin = malloc(region);
    target = malloc(region);
    if (!origin || !target) {
        fprintf(stderr, "mb_ref_put: cannot allocate 2 x %zu bytes\n", region);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(origin, 1, region);
    memset(target, 0, region);
    MPI_Win_create(target, (MPI_Aint)region, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 2; i++) { /* warm-up, as IMB does */
        if (rank == 0)
            MPI_Put(origin, 4, MPI_BYTE, 1, 0, 4, MPI_BYTE, win);
        MPI_Win_fence(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (aggr) {
        t0 = MPI_Wtime();
        if (rank == 0)
            for (int i = 0; i < reps; i++)
                MPI_Put(origin + (size_t)i * (size_t)bytes, bytes, MPI_BYTE, 1, (MPI_Aint)i * bytes,
                        bytes, MPI_BYTE, win);
        MPI_Win_fence(0, win);
    } else {
        t0 = MPI_Wtime();
        for (int i = 0; i < reps; i++) {
            if (rank == 0)
                MPI_Put(origin + (size_t)i * (size_t)bytes, bytes, MPI_BYTE, 1, (MPI_Aint)i * bytes,
                        bytes, MPI_BYTE, win);
            MPI_Win_fence(0, win);
        }
    }
    t = (MPI_Wtime() - t0) / reps * 1e6; /* usec per put, as Unidir_Put reports */
    /* IMB reports the slowest process; so does the reference. */
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &t, &t, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d %.4f %.4f\n", bytes, t, t > 0 ? bytes / 1.048576 / t : 0.0);
    MPI_Win_free(&win);
    free(origin);
    free(target);
    MPI_Finalize();
    return 0;
}
