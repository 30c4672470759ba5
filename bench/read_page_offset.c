/* SPDX-License-Identifier: BSD-3-Clause */
/* How fast a read from the page cache lands in a buffer, by where the buffer starts in its page
 * (docs/figures.md, "IMB-IO reads: where the buffer starts in its page"). No MPI: a file of 16
 * pieces of BYTES is written and then read back with pread, piece by piece, into one mapping at
 * each page offset in turn; per offset the best of REPS passes is printed, in microseconds per
 * piece, for ROUNDS rounds over the offsets. glibc puts a block above its mmap threshold 16
 * bytes into a page of its own mapping, which is where IMB 3.1's IMB-IO reads land with Open
 * MPI (docs/adr/program-imb-io-buffers.md).
 *   cc -O2 -o read_page_offset bench/read_page_offset.c
 *   ./read_page_offset FILE [BYTES [REPS [ROUNDS]]]    (FILE must not exist; it is removed) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { PIECES = 16 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    static const int offsets[] = {0, 8, 16, 24, 32, 48, 64, 128, 1040, 2064, 3968, 4112};
    const size_t bytes = argc > 2 ? strtoul(argv[2], NULL, 10) : 1u << 20;
    const int reps = argc > 3 ? atoi(argv[3]) : 15, rounds = argc > 4 ? atoi(argv[4]) : 2;
    char *m, *src;
    int fd, rc = 0;

    if (argc < 2 || bytes == 0 || reps < 1 || rounds < 1) {
        fprintf(stderr, "usage: %s FILE [BYTES [REPS [ROUNDS]]]\n", argv[0]);
        return 2;
    }
    fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    src = malloc(bytes);
    m = mmap(NULL, bytes + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!src || m == MAP_FAILED) {
        fprintf(stderr, "out of memory\n");
        rc = 1;
        goto out;
    }
    memset(src, 1, bytes);
    memset(m, 0, bytes + 8192); /* every page touched before any read */
    for (int i = 0; i < PIECES && rc == 0; i++)
        if (pwrite(fd, src, bytes, (off_t)(i * bytes)) != (ssize_t)bytes)
            rc = 1;
    printf("# page offset, best us per %zu-byte pread of %d passes\n", bytes, reps);
    for (int r = 0; r < rounds && rc == 0; r++)
        for (size_t k = 0; k < sizeof offsets / sizeof offsets[0] && rc == 0; k++) {
            char *b = m + offsets[k];
            double best = 1e30;
            for (int p = 0; p < reps && rc == 0; p++) {
                double t = now();
                for (int i = 0; i < PIECES; i++)
                    if (pread(fd, b, bytes, (off_t)(i * bytes)) != (ssize_t)bytes)
                        rc = 1;
                t = (now() - t) / PIECES;
                if (t < best)
                    best = t;
            }
            printf("%4d %8.1f\n", offsets[k], best * 1e6);
        }
    if (rc)
        fprintf(stderr, "I/O on %s failed\n", argv[1]);
out:
    close(fd);
    unlink(argv[1]);
    return rc;
}
