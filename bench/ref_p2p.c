/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal hand-written point-to-point loops: the reference bench/peer_figures.py compares
 * IMB-MPI1 PingPong, PingPing, Sendrecv and Exchange against. Deliberately no harness and
 * nothing shared with mpibench: per length malloc'd send and receive buffers written once
 * (an untouched buffer maps the kernel's zero page and sends faster than memory allows),
 * WARMUP transfers of that length, two barriers, then REPS transfers between two clock reads.
 *
 * Usage: mpirun -np 2 mb_ref_p2p PATTERN REPS WARMUP BYTES...
 *   PATTERN  pingpong | pingping (2 processes) | sendrecv | exchange (a periodic chain)
 *   REPS     a count, or "imb": min(1000, 40 MiB / BYTES) as IMB's standard settings run
 *   WARMUP   W: W transfers of each length before its timed loop, fresh buffers per length;
 *            onceW: IMB 3.1's rule instead - buffers for the largest length allocated and
 *            written once, W transfers of the largest length before the first length, none
 *            per length (mpibench's IMB driver does this; here it is written independently)
 * Prints per length "PATTERN BYTES REPS t_max_usec MB/s" (MB = 2^20 bytes; the time per
 * transfer as IMB defines it: half a round trip for PingPong; the throughput counts X bytes
 * for PingPong and PingPing, 2X for Sendrecv, 4X for Exchange). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PINGPONG, PINGPING, SENDRECV, EXCHANGE };

static void transfer(int pattern, char *s, char *r, int n, int rank, int left, int right)
{
    MPI_Request q[2];
    MPI_Status st[2]; /* MPICH's MPI_STATUSES_IGNORE trips GCC's access checks */

    switch (pattern) {
    case PINGPONG:
        if (rank == 0) {
            MPI_Send(s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
        break;
    case PINGPING:
        MPI_Isend(s, n, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD, &q[0]);
        MPI_Recv(r, n, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        break;
    case SENDRECV:
        MPI_Sendrecv(s, n, MPI_BYTE, right, 1, r, n, MPI_BYTE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        break;
    default: /* EXCHANGE: to both neighbours from two halves, from both into two halves */
        MPI_Isend(s, n, MPI_BYTE, left, 2, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(s + n, n, MPI_BYTE, right, 3, MPI_COMM_WORLD, &q[1]);
        MPI_Recv(r, n, MPI_BYTE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(r + n, n, MPI_BYTE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, q, st);
        break;
    }
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"pingpong", "pingping", "sendrecv", "exchange"};
    int rank, size, pattern = -1, warmup, once;
    long most = 0;
    char *s = NULL, *r = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int p = 0; argc > 1 && p < 4; p++)
        if (strcmp(argv[1], names[p]) == 0)
            pattern = p;
    if (argc < 5 || pattern < 0 || (pattern <= PINGPING && size != 2) || size < 2) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: mpirun -np 2 %s pingpong|pingping|sendrecv|exchange "
                    "REPS|imb WARMUP BYTES...\n",
                    argv[0]);
        MPI_Finalize();
        return 2;
    }
    once = strncmp(argv[3], "once", 4) == 0;
    warmup = atoi(argv[3] + (once ? 4 : 0));
    for (int a = 4; a < argc; a++)
        if (atol(argv[a]) > most)
            most = atol(argv[a]);
    if (once) {
        const size_t len = (size_t)most * (pattern == EXCHANGE ? 2 : 1) + 1;
        const int left = (rank + size - 1) % size, right = (rank + 1) % size;
        s = malloc(len);
        r = malloc(len);
        memset(s, 1, len);
        memset(r, 0, len);
        for (int i = 0; i < warmup; i++)
            transfer(pattern, s, r, (int)most, rank, left, right);
    }
    for (int a = 4; a < argc; a++) {
        const long x = atol(argv[a]);
        const int n = (int)x, halves = pattern == EXCHANGE ? 2 : 1;
        const int left = (rank + size - 1) % size, right = (rank + 1) % size;
        long reps =
            strcmp(argv[2], "imb") == 0 ? (x > 0 ? 40L * 1048576 / x : 1000) : atol(argv[2]);
        double t0, t, tmax;

        if (reps > 1000 && strcmp(argv[2], "imb") == 0)
            reps = 1000;
        if (reps < 1)
            reps = 1;
        if (!once) {
            s = malloc((size_t)x * halves + 1);
            r = malloc((size_t)x * halves + 1);
            memset(s, 1, (size_t)x * halves + 1);
            memset(r, 0, (size_t)x * halves + 1);
            for (int i = 0; i < warmup; i++)
                transfer(pattern, s, r, n, rank, left, right);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++)
            transfer(pattern, s, r, n, rank, left, right);
        t = (MPI_Wtime() - t0) / (double)reps * 1e6;
        if (pattern == PINGPONG)
            t /= 2;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s %ld %ld %.4f %.4f\n", names[pattern], x, reps, tmax,
                   tmax > 0 ? (pattern <= PINGPING ? 1 : 2 * halves) * (double)x / 1.048576 / tmax
                            : 0.0);
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
