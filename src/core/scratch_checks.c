/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch layer's checks (core/scratch.h): what an existing entry is, whether --force may
 * take it over, whether a path fits the registry, and the up-front check of a directory for
 * entries a run would overwrite. Split from scratch.c, whose creation calls them. */
#include "core/scratch.h"
#include "core/scratch_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *mb_scratch_kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

/* Takes over an existing regular file (force): it must still be the file lstat saw when it is
 * open, so that a swap to a FIFO or symbolic link in between is caught too (O_NOFOLLOW,
 * O_NONBLOCK: never follow a link, never block on a FIFO). */
int mb_scratch_reuse(const char *path, struct stat *st, struct mb_error *err)
{
    struct stat now;
    int fd;

    if (lstat(path, st) != 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot examine '%s': %s", path, strerror(errno));
    if (!S_ISREG(st->st_mode))
        return mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file '%s' exists and is %s; mpibench only ever reuses a regular "
            "file (--force), choose another name or directory",
            path, mb_scratch_kind_of(st->st_mode));
    if (st->st_nlink > 1)
        return mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file '%s' exists and has %lu hard links; overwriting it would "
            "change the other names too: remove it or choose another name or directory",
            path, (unsigned long)st->st_nlink);
    fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot reuse scratch file '%s': %s", path,
                            strerror(errno));
    if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
        !S_ISREG(now.st_mode)) {
        close(fd);
        return mb_error_set(err, MB_ERR_RUNTIME,
                            "scratch file '%s' changed while it was being opened", path);
    }
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        close(fd);
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot truncate scratch file '%s': %s", path,
                            strerror(e));
    }
    close(fd);
    return 0;
}

int mb_scratch_check_path(const char *path, struct mb_error *err)
{
    size_t len = strlen(path);

    if (len == 0)
        return mb_error_set(err, MB_ERR_USAGE, "empty scratch file name");
    if (len >= MB_SCRATCH_PATH_MAX)
        return mb_error_set(err, MB_ERR_USAGE,
                            "scratch file path '%.60s...' is %zu characters long; at most %d fit",
                            path, len, MB_SCRATCH_PATH_MAX - 1);
    return 0;
}

int mb_scratch_registry_full(struct mb_error *err)
{
    return mb_error_set(err, MB_ERR_RUNTIME,
                        "more than %d scratch files in one process: the cleanup registry is full "
                        "(MB_SCRATCH_MAX in src/core/scratch.h)",
                        MB_SCRATCH_MAX);
}

/* What mb_scratch_create would say of the existing path (lstat: a symbolic link is not
 * followed): 0 when force takes it over, else the refusal, worded for the up-front check. */
static int existing_entry(const char *path, int force, const char *elsewhere, struct mb_error *err)
{
    struct stat st;

    if (!force)
        return mb_usage(err,
                        "'%s' exists and would be overwritten by the scratch files; remove it, "
                        "choose %s, or give --force",
                        path, elsewhere);
    if (lstat(path, &st) != 0)
        return 0; /* gone since readdir: the creation decides */
    if (!S_ISREG(st.st_mode))
        return mb_usage(err,
                        "'%s' exists and is not a regular file: --force takes over only files, "
                        "not %s; remove it or choose %s",
                        path, mb_scratch_kind_of(st.st_mode), elsewhere);
    if (st.st_nlink > 1)
        return mb_usage(err,
                        "'%s' exists and has %lu hard links: --force would change the other "
                        "names too; remove it or choose %s",
                        path, (unsigned long)st.st_nlink, elsewhere);
    return 0;
}

int mb_scratch_check_existing(const char *dir, const char *dir_option, mb_scratch_name_fn ours,
                              const void *user, int force, const char *elsewhere,
                              struct mb_error *err)
{
    const int here = strcmp(dir, ".") == 0;
    const char *sep = here || dir[strlen(dir) - 1] == '/' ? "" : "/";
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;

    if (!d)
        return mb_usage(err, "invalid value '%s' for %s: %s", dir, dir_option, strerror(errno));
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char path[MB_SCRATCH_PATH_MAX];
        if (!ours(e->d_name, user))
            continue;
        snprintf(path, sizeof path, "%s%s%s", here ? "" : dir, sep, e->d_name);
        rc = existing_entry(path, force, elsewhere, err);
    }
    closedir(d);
    return rc;
}
