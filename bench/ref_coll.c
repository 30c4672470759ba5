/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal hand-written collective loops: the reference bench/peer_figures.py compares
 * IMB-MPI1 Allreduce, Bcast and Alltoall against. Deliberately no harness and nothing shared
 * with mpibench: per length malloc'd buffers written once, WARMUP calls of that length, two
 * barriers, then REPS calls between two clock reads.
 *
 * Usage: mpirun -np P mb_ref_coll OP REPS WARMUP BYTES...
 *   OP      allreduce (BYTES/4 floats, MPI_SUM) | bcast (the root moves on by one rank
 *           every call, as IMB's Bcast does) | alltoall (BYTES to and from every process)
 *   REPS    a count, or "imb": min(1000, 40 MiB / BYTES) as IMB's standard settings run
 *   WARMUP  W: W calls of each length before its timed loop, fresh buffers per length;
 *           onceW: IMB 3.1's rule instead - buffers for the largest length allocated and
 *           written once, W calls of the largest length before the first length, none per
 *           length (mpibench's IMB driver does this; here it is written independently)
 * Prints per length "OP BYTES REPS t_min t_max t_avg" (usec per call over the processes). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALLREDUCE, BCAST, ALLTOALL };

static void call(int op, void *s, void *r, long x, long i, int rank, int size)
{
    switch (op) {
    case ALLREDUCE:
        MPI_Allreduce(s, r, (int)(x / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(rank == (int)(i % size) ? s : r, (int)x, MPI_BYTE, (int)(i % size),
                  MPI_COMM_WORLD);
        break;
    default:
        MPI_Alltoall(s, (int)x, MPI_BYTE, r, (int)x, MPI_BYTE, MPI_COMM_WORLD);
        break;
    }
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"allreduce", "bcast", "alltoall"};
    int rank, size, op = -1, warmup, once;
    long most = 0;
    float *s = NULL, *r = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int p = 0; argc > 1 && p < 3; p++)
        if (strcmp(argv[1], names[p]) == 0)
            op = p;
    if (argc < 5 || op < 0) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: mpirun -np P %s allreduce|bcast|alltoall REPS|imb WARMUP "
                    "BYTES...\n",
                    argv[0]);
        MPI_Finalize();
        return 2;
    }
    once = strncmp(argv[3], "once", 4) == 0;
    warmup = atoi(argv[3] + (once ? 4 : 0));
    for (int a = 4; a < argc; a++)
        if (atol(argv[a]) / 4 * 4 > most)
            most = atol(argv[a]) / 4 * 4;
    if (once) {
        const size_t len = (size_t)most * (op == ALLTOALL ? (size_t)size : 1) + 4;
        s = malloc(len);
        r = malloc(len);
        for (size_t k = 0; k < len / sizeof(float); k++)
            s[k] = 1.0f;
        memset(r, 0, len);
        for (int i = 0; i < warmup; i++)
            call(op, s, r, most, i, rank, size);
    }
    for (int a = 4; a < argc; a++) {
        /* Allreduce: whole floats, as IMB rounds the length (before the repetition rule). */
        const long x = op == ALLREDUCE ? atol(argv[a]) / 4 * 4 : atol(argv[a]);
        const size_t len = (size_t)x * (op == ALLTOALL ? (size_t)size : 1) + 4;
        long reps =
            strcmp(argv[2], "imb") == 0 ? (x > 0 ? 40L * 1048576 / x : 1000) : atol(argv[2]);
        double t0, t, tmin, tmax, tsum;

        if (reps > 1000 && strcmp(argv[2], "imb") == 0)
            reps = 1000;
        if (reps < 1)
            reps = 1;
        if (!once) {
            s = malloc(len);
            r = malloc(len);
            for (size_t k = 0; k < len / sizeof(float); k++)
                s[k] = 1.0f; /* written, and valid floats for the sums */
            memset(r, 0, len);
            for (int i = 0; i < warmup; i++)
                call(op, s, r, x, i, rank, size);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++)
            call(op, s, r, x, i, rank, size);
        t = (MPI_Wtime() - t0) / (double)reps * 1e6;
        MPI_Reduce(&t, &tmin, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&t, &tsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s %ld %ld %.4f %.4f %.4f\n", names[op], x, reps, tmin, tmax, tsum / size);
        if (!once) {
            free(s);
            free(r);
        }
    }
    if (once) {
        free(s);
        free(r);
    }
    MPI_Finalize();
    return 0;
}
