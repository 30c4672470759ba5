/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch layer's companions (core/scratch.h, mb_scratch_is_companion): the files an MPI
 * library makes beside a scratch file it opens, found by name and removed with the file. Split
 * from scratch.c, whose removal paths call it. */
#define _GNU_SOURCE /* syscall */
#include "core/scratch.h"
#include "core/scratch_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

/* ---- companions: files the MPI library makes beside a file it opens ------------------------
 * MPI-IO implementations keep a shared file pointer in a file of their own next to the data
 * file, made by rank 0 of the file's communicator and removed by MPI_File_close, so a process
 * that is killed leaves it behind. Both names end with that process's pid, which is what tells
 * this run's from another's: Open MPI 4.1's sharedfp/lockedfile component (used where its
 * shared-memory component cannot be, e.g. on a file system shared by several nodes) makes
 * "NAME-<jobid>-<pid>.lock", ROMIO (MPICH) ".NAME.shfp.<number>.<pid>" (both observed with a
 * two-process MPI_File_get_position_shared). Matching is by name only: the library creates the
 * file, so there is no identity to record. */

/* Whether text[0..n) is one or more decimal digits. */
static int all_digits(const char *text, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] < '0' || text[i] > '9')
            return 0;
    return 1;
}

/* The decimal digits of pid into out (at least 24 bytes); async-signal-safe. */
static size_t pid_digits(pid_t pid, char *out)
{
    char rev[24];
    size_t n = 0, k = 0;
    unsigned long v = (unsigned long)pid;

    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < sizeof rev);
    while (n > 0)
        out[k++] = rev[--n];
    out[k] = '\0';
    return k;
}

int mb_scratch_is_companion(const char *entry, const char *base, long pid)
{
    char digits[24];
    const size_t nb = strlen(base), ne = strlen(entry), nd = pid_digits((pid_t)pid, digits);
    const char *mid, *end;

    if (nb == 0)
        return 0;
    /* Open MPI: base "-" digits "-" pid ".lock" */
    if (ne > nb + nd + 7 && strncmp(entry, base, nb) == 0 && entry[nb] == '-' &&
        strcmp(entry + ne - 5, ".lock") == 0 && strncmp(entry + ne - 5 - nd, digits, nd) == 0 &&
        entry[ne - 6 - nd] == '-') {
        mid = entry + nb + 1;
        end = entry + ne - 6 - nd;
        if (end > mid && all_digits(mid, (size_t)(end - mid)))
            return 1;
    }
    /* ROMIO: "." base ".shfp." digits "." pid */
    if (ne > nb + nd + 8 && entry[0] == '.' && strncmp(entry + 1, base, nb) == 0 &&
        strncmp(entry + 1 + nb, ".shfp.", 6) == 0 && strcmp(entry + ne - nd, digits) == 0 &&
        entry[ne - nd - 1] == '.') {
        mid = entry + nb + 7;
        end = entry + ne - nd - 1;
        if (end > mid && all_digits(mid, (size_t)(end - mid)))
            return 1;
    }
    return 0;
}

#if defined(__linux__) && defined(SYS_getdents64)
/* Removes the companions of path made by opener's MPI library: a scan of the file's directory
 * with getdents64, which unlike opendir allocates nothing (async-signal-safe in practice:
 * open, a system call, unlinkat, close). */
void mb_scratch_remove_companions(const char *path, pid_t opener)
{
    struct dirent64_raw {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[];
    };
    char dir[MB_SCRATCH_PATH_MAX], buf[4096] __attribute__((aligned(8)));
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const size_t dlen = slash ? (size_t)(slash - path) : 0;
    int fd;
    long n;

    if (dlen == 0 && slash) {
        dir[0] = '/';
        dir[1] = '\0';
    } else if (slash) {
        memcpy(dir, path, dlen);
        dir[dlen] = '\0';
    } else {
        dir[0] = '.';
        dir[1] = '\0';
    }
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
            const struct dirent64_raw *e = (const struct dirent64_raw *)(void *)(buf + off);
            struct stat st;
            if (mb_scratch_is_companion(e->name, base, (long)opener) &&
                fstatat(fd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
                (void)unlinkat(fd, e->name, 0);
            off += e->reclen;
        }
    }
    close(fd);
}
#else
void mb_scratch_remove_companions(const char *path, pid_t opener)
{
    (void)path;
    (void)opener;
}
#endif
