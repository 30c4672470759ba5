/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process driver of the bad-input batch (tests/cli/run_cli_batch.py, which prepares the
 * cases and checks what this driver records; docs/adr/fast-cli-tests.md).
 *
 * One MPI job runs many rows of tests/cli/bad_input.tsv one after another, each as a whole
 * command line through what src/main.c does after MPI_Init (the tools' dispatch, then
 * mpibench_run on MPI_COMM_WORLD), each in its own directory, with each rank's standard output
 * and standard error going to files of its own for that case. The library entry point keeps no
 * state between calls (docs/architecture.md, property 10; tests/mpi/test_entry.c), so a case
 * sees what a new process would, except the process-wide scratch registry, which must be empty
 * again after every case (recorded, and checked by the runner).
 *
 *   cli_batch MANIFEST OUTDIR
 *
 * MANIFEST: NUL-terminated fields, per case: its index, its directory, the argument count N and
 * the N arguments (argv[0] is the program's name: IMB-MPI1, mpibench, ...). For case I rank R
 * writes OUTDIR/I.out.R and OUTDIR/I.err.R, and a line "I STATUS SCRATCH_SLOTS SECONDS" to
 * OUTDIR/status.R; before the case rank 0 writes "I" to OUTDIR/progress, so that the runner
 * knows which case a job that died or hung was in. */
#include "core/options.h"
#include "core/scratch.h"
#include "core/suite.h"
#include "results/tools.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what, const char *path)
{
    fprintf(stderr, "cli_batch: %s '%s'\n", what, path);
    MPI_Abort(MPI_COMM_WORLD, 99);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (!f)
        fail("cannot open", path);
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            buf = realloc(buf, cap + 1);
            if (!buf)
                fail("out of memory reading", path);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Appends one line to an open descriptor in one write(2): the runner reads these files while
 * the job runs, and after a crash. */
static void put_line(int fd, const char *line)
{
    if (write(fd, line, strlen(line)) < 0)
        perror("cli_batch: write");
}

static int open_out(const char *dir, const char *name, int rank, int flags)
{
    char path[4096];
    int fd;

    snprintf(path, sizeof path, "%s/%s.%d", dir, name, rank);
    fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
    if (fd < 0)
        fail("cannot create", path);
    return fd;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What src/main.c does with argv once MPI is up: `mpibench plot|compare` are tools, the rest a
 * suite run. */
static int run_case(int argc, char **argv)
{
    if (argc > 1 && strcmp(mb_basename(argv[0]), "mpibench") == 0) {
        const int status = mb_tool_main(argc - 1, argv + 1);
        if (status >= 0)
            return status;
    }
    return mpibench_run(argc, argv, MPI_COMM_WORLD, stdout);
}

int main(int argc, char **argv)
{
    char home[4096], name[64], line[128];
    size_t len, pos = 0;
    char *manifest;
    int rank, status_fd, progress_fd = -1, saved_out, saved_err;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 3)
        fail("usage: cli_batch MANIFEST OUTDIR; got", argc > 1 ? argv[1] : "");
    if (!getcwd(home, sizeof home))
        fail("cannot read the working directory", ".");
    manifest = read_all(argv[1], &len);
    status_fd = open_out(argv[2], "status", rank, O_APPEND | O_TRUNC);
    if (rank == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/progress", argv[2]);
        progress_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0644);
        if (progress_fd < 0)
            fail("cannot create", path);
    }
    saved_out = dup(STDOUT_FILENO);
    saved_err = dup(STDERR_FILENO);

    while (pos < len) {
        const char *index = manifest + pos;
        const char *dir = index + strlen(index) + 1;
        const char *count = dir + strlen(dir) + 1;
        int n = atoi(count), status, out_fd, err_fd;
        char **args = calloc((size_t)n + 1, sizeof *args);
        const char *p = count + strlen(count) + 1;
        double t0;

        for (int i = 0; i < n; i++) {
            args[i] = strdup(p); /* a new process's argv is writable */
            p += strlen(p) + 1;
        }
        pos = (size_t)(p - manifest);
        if (rank == 0) {
            snprintf(line, sizeof line, "%s\n", index);
            put_line(progress_fd, line);
        }
        /* Both ranks start the case together, as the processes of one launch do. */
        MPI_Barrier(MPI_COMM_WORLD);
        if (chdir(dir) != 0)
            fail("cannot enter", dir);
        snprintf(name, sizeof name, "%s.out", index);
        out_fd = open_out(argv[2], name, rank, O_TRUNC);
        snprintf(name, sizeof name, "%s.err", index);
        err_fd = open_out(argv[2], name, rank, O_TRUNC);
        fflush(stdout);
        fflush(stderr);
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        close(out_fd);
        close(err_fd);

        /* A new process starts without -keep: the one setting of the registry a case could
         * leave behind for the next. */
        mb_scratch_keep(0);
        t0 = now();
        status = run_case(n, args);

        fflush(stdout);
        fflush(stderr);
        dup2(saved_out, STDOUT_FILENO);
        dup2(saved_err, STDERR_FILENO);
        if (chdir(home) != 0)
            fail("cannot return to", home);
        /* A slot left in the scratch registry would be a file the next case's cleanup could
         * reach (and, in a process of its own, one the exit never removed). */
        snprintf(line, sizeof line, "%s %d %d %.3f\n", index, status, mb_scratch_count(),
                 now() - t0);
        put_line(status_fd, line);
        for (int i = 0; i < n; i++)
            free(args[i]);
        free(args);
    }
    free(manifest);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        put_line(progress_fd, "end\n");
    MPI_Finalize();
    return 0;
}
