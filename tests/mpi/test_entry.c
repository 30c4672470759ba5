/* SPDX-License-Identifier: BSD-3-Clause */
/* The library entry point (docs/architecture.md, property 10): mpibench_run() can be called several
 * times in one MPI job - it keeps no state between calls - and returns the same status on
 * every rank. Run under mpiexec with 2 or more processes. */
#include "core/suite.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(int cond, const char *what, int rank)
{
    if (!cond) {
        fprintf(stderr, "rank %d: FAILED: %s\n", rank, what);
        failures++;
    }
}

/* Runs argv with text going to a temporary file; returns the status and, on rank 0, the text. */
static int run(char **argv, int argc, char *text, size_t len)
{
    FILE *out = tmpfile();
    int status = mpibench_run(argc, argv, MPI_COMM_WORLD, out);
    size_t n;

    rewind(out);
    n = fread(text, 1, len - 1, out);
    text[n] = '\0';
    fclose(out);
    return status;
}

int main(int argc, char **argv)
{
    static char text[1 << 20];
    int rank, all_status[3], statuses[3];
    char *pingpong[] = {"IMB-MPI1", "PingPong", "Barrier", "-iter", "10", NULL};
    char *bad[] = {"IMB-MPI1", "-npmin", "0", NULL};
    char *version[] = {"mpibench", "--version", NULL};

    (void)argc;
    (void)argv;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    for (int round = 0; round < 2; round++) {
        statuses[0] = run(pingpong, 5, text, sizeof text);
        if (rank == 0) {
            expect(strstr(text, "# Benchmarking PingPong ") != NULL, "PingPong block", rank);
            expect(strstr(text, "# Benchmarking Barrier ") != NULL, "Barrier block", rank);
            expect(strstr(text, "      4194304           10") != NULL, "4 MB row, 10 reps", rank);
            expect(strstr(text, "\n# mpibench: ") != NULL, "footer", rank);
            expect(strstr(text, "entering MPI_Finalize") == NULL, "no IMB 2018 trailer", rank);
        } else {
            expect(text[0] == '\0', "only rank 0 prints", rank);
        }
        statuses[1] = run(bad, 3, text, sizeof text);
        expect(text[0] == '\0', "no output for bad input", rank);
        statuses[2] = run(version, 2, text, sizeof text);
        if (rank == 0)
            expect(strncmp(text, "mpibench ", 9) == 0, "version line", rank);
        expect(statuses[0] == 0 && statuses[1] == 2 && statuses[2] == 0, "statuses 0, 2, 0", rank);
        /* Every rank must have returned the same statuses. */
        MPI_Allreduce(statuses, all_status, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        expect(memcmp(statuses, all_status, sizeof statuses) == 0, "same status everywhere", rank);
    }
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d failure(s)\n", failures ? "FAILED" : "ok", failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
