/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal hand-written MPI-IO loop: the reference bench/io_figures.py compares IMB-IO's
 * S_Write_Indv and S_Read_Indv (aggregate mode) against. Deliberately no harness: one process,
 * one buffer written once, two clock reads around the loop.
 *   write: n x MPI_File_write of BYTES with the individual pointer, then MPI_File_sync,
 *          MPI_Barrier, MPI_File_sync (IMB guide 4.2.2.2.1) - as S_Write_Indv times it;
 *   read:  the file is first written (n x BYTES, not timed, in 1 MiB pieces from a separate
 *          buffer, as IMB-IO writes its read files); then n x MPI_File_read of BYTES into
 *          the buffer. (Where the file's content came from
 *          matters on this VM: reading back into the very buffer the file was written from
 *          ran 2.5 times faster than into any other - docs/figures.md.)
 * The file is closed and re-opened before each timed loop, as in IMB-IO.
 * The loop runs twice from the start of the file and the second pass is reported: the first
 * MPI-IO calls of a process pay a one-time cost (about 25 us with Open MPI here), which
 * IMB-IO pays in its first timed loop too (bench/io_figures.py reports its second).
 * The file FILE must not exist; it is created exclusively and deleted at the end.
 * Usage: mpirun -np 1 mb_ref_io write|read FILE BYTES REPS   (prints "BYTES usec MB/s", MB/s
 * in 2^20 bytes as IMB prints it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (rc == MPI_SUCCESS)
        return;
    MPI_Error_string(rc, text, &len);
    fprintf(stderr, "mb_ref_io: %s failed: %s\n", what, text);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    const int amode = MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN;
    int size, bytes, reps, reading;
    char *buf;
    MPI_File fh;
    MPI_Status st;
    double t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5 || size != 1 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "read") != 0) ||
        atoi(argv[3]) < 0 || atoi(argv[4]) < 1) {
        fprintf(stderr, "usage: mpirun -np 1 %s write|read FILE BYTES REPS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    reading = strcmp(argv[1], "read") == 0;
    bytes = atoi(argv[3]);
    reps = atoi(argv[4]);
    buf = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!buf) {
        fprintf(stderr, "mb_ref_io: cannot allocate %d bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, 7, bytes > 0 ? (size_t)bytes : 1);
    check(MPI_File_open(MPI_COMM_SELF, argv[2], amode, MPI_INFO_NULL, &fh), "MPI_File_open");
    check(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN), "MPI_File_set_errhandler");
    if (reading) {
        enum { PIECE = 1 << 20 };
        char *piece = malloc(PIECE);
        const long long total = (long long)bytes * reps;
        if (!piece) {
            fprintf(stderr, "mb_ref_io: cannot allocate %d bytes\n", PIECE);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memset(piece, 5, PIECE);
        for (long long done = 0; done < total; done += PIECE)
            check(MPI_File_write(fh, piece, total - done < PIECE ? (int)(total - done) : PIECE,
                                 MPI_BYTE, &st),
                  "MPI_File_write");
        free(piece);
    }
    for (int pass = 0; pass < 2; pass++) {
        /* Closed and re-opened before each timed loop, as IMB-IO does it (the original
         * IMB_read.c / IMB_write.c call IMB_open_file before each loop): with Open MPI the
         * first calls on a new handle cost about 0.25 us more each at 4 KiB than on a
         * handle that has run a loop already, and that is MPI-IO's cost, not IMB-IO's. */
        check(MPI_File_close(&fh), "MPI_File_close");
        check(MPI_File_open(MPI_COMM_SELF, argv[2], MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
              "MPI_File_open");
        check(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN), "MPI_File_set_errhandler");
        MPI_Barrier(MPI_COMM_SELF);
        MPI_Barrier(MPI_COMM_SELF);
        t0 = MPI_Wtime();
        if (reading) {
            for (int i = 0; i < reps; i++)
                check(MPI_File_read(fh, buf, bytes, MPI_BYTE, &st), "MPI_File_read");
        } else {
            for (int i = 0; i < reps; i++)
                check(MPI_File_write(fh, buf, bytes, MPI_BYTE, &st), "MPI_File_write");
            check(MPI_File_sync(fh), "MPI_File_sync");
            MPI_Barrier(MPI_COMM_SELF);
            check(MPI_File_sync(fh), "MPI_File_sync");
        }
        t = (MPI_Wtime() - t0) / reps * 1e6; /* usec per transfer, as IMB reports */
    }
    check(MPI_File_close(&fh), "MPI_File_close");
    MPI_File_delete(argv[2], MPI_INFO_NULL);
    printf("%d %.4f %.4f\n", bytes, t, t > 0 ? bytes / 1.048576 / t : 0.0);
    free(buf);
    MPI_Finalize();
    return 0;
}
