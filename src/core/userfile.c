#include "core/userfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
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

/* The opened fd as a blocking stdio stream if it is a regular file of at most max_bytes
 * (< 0: any size); else NULL with err set ("cannot <verb> <what>'<path>': ...") and fd closed.
 * fd < 0: the open failed with errno. */
static FILE *checked(int fd, const char *verb, const char *what, const char *path, long max_bytes,
                     const char *mode, struct mb_error *err)
{
    struct stat st;
    int flags;
    FILE *f;

    if (fd < 0) {
        mb_usage(err, "cannot %s %s'%s': %s", verb, what, path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        mb_usage(err, "cannot %s %s'%s': %s", verb, what, path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        mb_usage(err, "cannot %s %s'%s': not a regular file (%s)", verb, what, path,
                 kind_of(st.st_mode));
    else if (max_bytes >= 0 && st.st_size > max_bytes)
        mb_usage(err, "cannot %s %s'%s': %lld bytes, more than the %ld a list may have", verb, what,
                 path, (long long)st.st_size, max_bytes);
    else if ((flags = fcntl(fd, F_GETFL)) == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
             !(f = fdopen(fd, mode)))
        mb_usage(err, "cannot %s %s'%s': %s", verb, what, path, strerror(errno));
    else
        return f;
    close(fd);
    return NULL;
}

FILE *mb_userfile_read(const char *path, const char *what, struct mb_error *err)
{
    /* O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

    if (fd < 0) {
        mb_usage(err, "cannot open %s'%s': %s", what, path, strerror(errno));
        return NULL;
    }
    return checked(fd, "read", what, path, MB_USERFILE_MAX_BYTES, "r", err);
}

int mb_userfile_target(const char *path, const char *what, struct mb_error *err)
{
    struct stat st;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return mb_usage(err, "cannot write %s'%s': not a regular file (%s)", what, path,
                        kind_of(st.st_mode));
    return 0;
}

FILE *mb_userfile_write(const char *path, const char *what, struct mb_error *err)
{
    /* Look before opening: O_TRUNC must not reach a device, and a FIFO is refused by name. */
    if (mb_userfile_target(path, what, err) != 0)
        return NULL;
    /* O_NONBLOCK: should a FIFO appear after the look, the open fails (ENXIO) or returns. */
    return checked(
        open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666), "write",
        what, path, -1, "w", err);
}
