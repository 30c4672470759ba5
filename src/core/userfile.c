/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/userfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *mb_file_kind(mode_t m)
{
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISLNK(m))
        return "a symbolic link";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a plain file";
}

/* ---- identities ---------------------------------------------------------------------- */

/* u's identity: the file's if st is given (it exists), and its parent directory's + name. */
static void identify(struct mb_file_use *u, const char *path, const struct stat *st)
{
    char *d = mb_xstrdup(path), *b = mb_xstrdup(path);
    struct stat ps;

    u->exists = st != NULL;
    if (st) {
        u->dev = st->st_dev;
        u->ino = st->st_ino;
    }
    u->base = mb_xstrdup(basename(b));
    u->has_parent = stat(dirname(d), &ps) == 0;
    if (u->has_parent) {
        u->pdev = ps.st_dev;
        u->pino = ps.st_ino;
    }
    free(d);
    free(b);
}

static int same_file(const struct mb_file_use *a, const struct mb_file_use *b)
{
    if (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino)
        return 1;
    return a->has_parent && b->has_parent && a->pdev == b->pdev && a->pino == b->pino &&
           strcmp(a->base, b->base) == 0;
}

/* 0, or 2 with err set when u names a file of an earlier use and one of them writes it. */
static int check_reuse(const struct mb_files *files, const struct mb_file_use *u, const char *verb,
                       const char *what, struct mb_error *err)
{
    for (size_t i = 0; files && i < files->n; i++) {
        const struct mb_file_use *o = &files->v[i];
        if ((o->written || u->written) && same_file(o, u))
            return mb_usage(err,
                            "cannot %s %s'%s': it is also %s '%s' of this run (one file "
                            "cannot serve two purposes)",
                            verb, what, u->path, o->role, o->path);
    }
    return 0;
}

static void forget_identity(struct mb_file_use *u)
{
    free(u->base);
    u->base = NULL;
}

static void forget(struct mb_file_use *u)
{
    forget_identity(u);
    free(u->path);
    free(u->role);
}

/* Records u (taking its strings) or frees them. */
static void keep(struct mb_files *files, struct mb_file_use *u)
{
    if (!files) {
        forget(u);
        return;
    }
    files->v = mb_xrealloc(files->v, (files->n + 1) * sizeof *files->v);
    files->v[files->n++] = *u;
}

/* ---- opening ------------------------------------------------------------------------- */

/* 0 if the open descriptor fd is a regular file of at most max_bytes (< 0: any size; noun
 * names such files in the message) that no other use names (u gets its identity); else 2
 * with err set. */
static int check_fd(int fd, const char *verb, const char *what, long max_bytes, const char *noun,
                    const struct mb_files *files, struct mb_file_use *u, struct mb_error *err)
{
    struct stat st;

    if (fstat(fd, &st) != 0)
        return mb_usage(err, "cannot %s %s'%s': %s", verb, what, u->path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return mb_usage(err, "cannot %s %s'%s': not a regular file (%s)", verb, what, u->path,
                        mb_file_kind(st.st_mode));
    if (max_bytes >= 0 && st.st_size > max_bytes)
        return mb_usage(err, "cannot %s %s'%s': %lld bytes, more than the %ld %s may have", verb,
                        what, u->path, (long long)st.st_size, max_bytes, noun);
    forget_identity(u);
    identify(u, u->path, &st);
    return check_reuse(files, u, verb, what, err);
}

/* The opened fd as a blocking stdio stream after check_fd; else NULL with err set ("cannot
 * <verb> <what>'<path>': ...") and fd closed. fd < 0: the open failed with errno. */
static FILE *checked(int fd, const char *verb, const char *what, long max_bytes, const char *noun,
                     const char *mode, const struct mb_files *files, struct mb_file_use *u,
                     struct mb_error *err)
{
    int flags;
    FILE *f;

    if (fd < 0) {
        mb_usage(err, "cannot %s %s'%s': %s", verb, what, u->path, strerror(errno));
        return NULL;
    }
    if (check_fd(fd, verb, what, max_bytes, noun, files, u, err) != 0)
        ;
    else if ((flags = fcntl(fd, F_GETFL)) == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
             !(f = fdopen(fd, mode)))
        mb_usage(err, "cannot %s %s'%s': %s", verb, what, u->path, strerror(errno));
    else
        return f;
    close(fd);
    return NULL;
}

FILE *mb_userfile_read(struct mb_files *files, const char *path, const char *role,
                       struct mb_error *err)
{
    return mb_userfile_read_max(files, path, role, MB_USERFILE_MAX_BYTES, "a list", err);
}

FILE *mb_userfile_read_max(struct mb_files *files, const char *path, const char *role,
                           long max_bytes, const char *noun, struct mb_error *err)
{
    struct mb_file_use u = {mb_xstrdup(path), mb_xstrdup(role), 0, 0, 0, 0, 0, 0, 0, 0, NULL};
    /* O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    FILE *f;

    if (fd < 0) {
        mb_usage(err, "cannot open '%s': %s", path, strerror(errno));
        forget(&u);
        return NULL;
    }
    f = checked(fd, "read", "", max_bytes, noun, "r", files, &u, err);
    if (f)
        keep(files, &u);
    else
        forget(&u);
    return f;
}

/* The checks before writing path: not a FIFO, device, directory; no other use. */
static int look(const struct mb_files *files, struct mb_file_use *u, const char *what,
                struct mb_error *err)
{
    struct stat st;
    const int exists = stat(u->path, &st) == 0;

    if (exists && !S_ISREG(st.st_mode))
        return mb_usage(err, "cannot write %s'%s': not a regular file (%s)", what, u->path,
                        mb_file_kind(st.st_mode));
    identify(u, u->path, exists ? &st : NULL);
    return check_reuse(files, u, "write", what, err);
}

int mb_userfile_target(struct mb_files *files, const char *path, const char *what, const char *role,
                       struct mb_error *err)
{
    struct mb_file_use u = {mb_xstrdup(path), mb_xstrdup(role), 1, 0, 0, 0, 0, 0, 0, 0, NULL};
    const int rc = look(files, &u, what, err);

    if (rc == 0)
        keep(files, &u);
    else
        forget(&u);
    return rc;
}

FILE *mb_userfile_write(struct mb_files *files, const char *path, const char *what,
                        const char *role, struct mb_error *err)
{
    struct mb_file_use u = {mb_xstrdup(path), mb_xstrdup(role), 1, 0, 0, 0, 0, 0, 0, 0, NULL};
    const int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    FILE *f = NULL;
    int fd;

    /* Look before opening: a FIFO is refused by name, a device is never opened. */
    if (look(files, &u, what, err) != 0) {
        forget(&u);
        return NULL;
    }
    /* O_EXCL tells a file this run creates (and may remove again) from the user's. O_NONBLOCK:
     * should a FIFO appear after the look, the open fails (ENXIO) or returns. */
    fd = open(path, flags | O_CREAT | O_EXCL, 0666);
    u.created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, flags);
    f = checked(fd, "write", what, -1, "", "w", files, &u, err);
    if (f) {
        keep(files, &u);
        return f;
    }
    if (u.created)
        unlink(path); /* made a moment ago by the O_EXCL open above, refused since */
    forget(&u);
    return NULL;
}

int mb_userfile_truncate(FILE *f, const char *path, const char *what, struct mb_error *err)
{
    if (ftruncate(fileno(f), 0) != 0)
        return mb_usage(err, "cannot write %s'%s': %s", what, path, strerror(errno));
    return 0;
}

void mb_files_remove_created(const struct mb_files *files)
{
    for (size_t i = 0; i < files->n; i++) {
        const struct mb_file_use *u = &files->v[i];
        struct stat st;
        if (u->created && stat(u->path, &st) == 0 && st.st_dev == u->dev && st.st_ino == u->ino)
            unlink(u->path);
    }
}

void mb_files_free(struct mb_files *files)
{
    for (size_t i = 0; i < files->n; i++)
        forget(&files->v[i]);
    free(files->v);
    files->n = 0;
    files->v = NULL;
}
