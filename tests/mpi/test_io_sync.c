/* SPDX-License-Identifier: BSD-3-Clause */
/* The barriers before IMB-IO's timed loops run on the file's communicator, as IMB 3.1's run on
 * File_comm (IMB_read.c, IMB_write.c; IMB_init_file.c sets it): MPI_COMM_SELF for the
 * benchmarks with private files (P_[ACTION]_Priv), the group for those with one file. The
 * setup hook of a private-file row must leave the args' timer communicator at MPI_COMM_SELF;
 * a shared-file row leaves it at the group; under -io_barriers guide every row leaves it at the
 * group (the guide's 5.2.7). Run on 2 processes in a scratch directory that
 * rank 0 makes and removes. */
#include "core/error.h"
#include "imb/imb_bench.h"
#include "imb/imb_config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext_test_args.h"

static int check_row(const char *name, char *dir, int rank, int size, int guide, int expect_self)
{
    const struct mb_imb_family *f = &mb_imb_family_io;
    const int k = mb_imb_find(f, name);
    struct mb_imb_config c;
    struct mb_error fail = {0};
    struct mb_imb_args a = ext_test_args(rank, size, NULL, NULL, 0);
    int same = MPI_UNEQUAL, failures = 0;

    if (k < 0) {
        fprintf(stderr, "rank %d: FAILED: no IMB-IO benchmark %s\n", rank, name);
        return 1;
    }
    memset(&c, 0, sizeof c);
    c.family = mb_imb_family_index(&mb_imb_family_io);
    c.io_dir = dir;
    c.io_barriers_guide = guide;
    a.bench = &f->benchmarks[k];
    a.cfg = &c;
    a.mode = MB_IMB_AGGREGATE;
    a.group_no = -1;
    a.world_rank = rank;
    a.span = 64;
    a.max_reps = 1;
    a.failure = &fail;
    a.fh = MPI_FILE_NULL;
    a.sync = MPI_COMM_WORLD; /* the driver's default: the group */
    a.bench->setup(&a);
    if (fail.kind != MB_ERR_NONE) {
        fprintf(stderr, "rank %d: FAILED: %s's setup: %s\n", rank, name, fail.msg);
        failures++;
    }
    MPI_Comm_compare(a.sync, expect_self ? MPI_COMM_SELF : MPI_COMM_WORLD, &same);
    if (same != MPI_IDENT) {
        fprintf(stderr, "rank %d: FAILED: %s's timer barriers (-io_barriers %s) are not on %s\n",
                rank, name, guide ? "guide" : "program",
                expect_self ? "MPI_COMM_SELF (its private file's)" : "the group");
        failures++;
    }
    a.bench->teardown(&a);
    return failures;
}

int main(int argc, char **argv)
{
    char dir[64] = "";
    int rank, size, failures = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        snprintf(dir, sizeof dir, "mb-io-sync.XXXXXX");
        if (!mkdtemp(dir))
            dir[0] = '\0';
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!dir[0]) {
        if (rank == 0)
            fprintf(stderr, "FAILED: cannot make a scratch directory\n");
        MPI_Finalize();
        return 1;
    }
    /* -io_barriers program (the default): the file's communicator. */
    failures += check_row("P_Read_Priv", dir, rank, size, 0, 1);
    failures += check_row("P_IWrite_Priv", dir, rank, size, 0, 1);
    failures += check_row("P_Read_Indv", dir, rank, size, 0, 0);
    failures += check_row("C_IRead_Expl", dir, rank, size, 0, 0);
    /* -io_barriers guide: the group for every benchmark. */
    failures += check_row("P_Read_Priv", dir, rank, size, 1, 0);
    failures += check_row("P_Read_Indv", dir, rank, size, 1, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && rmdir(dir) != 0) {
        fprintf(stderr, "FAILED: the scratch directory %s is not empty\n", dir);
        failures++;
    }
    return ext_test_finish("test_io_sync", rank, size, failures);
}
