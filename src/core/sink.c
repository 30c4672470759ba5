/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/sink.h"

#include "core/error.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Why f's earlier write failed (stdio's error flag) when this flush had nothing left to
 * write: an empty write(2) still fails on /dev/full or a closed descriptor; a full disk
 * has no such answer. */
static const char *earlier_reason(FILE *f)
{
    if (write(fileno(f), "", 0) < 0)
        return strerror(errno);
    return "an earlier write failed";
}

int mb_sink_check(FILE *f, const char *name, char *msg, size_t len)
{
    const int failed = fflush(f) != 0;
    const int e = errno;

    if (!failed && !ferror(f))
        return 0;
    snprintf(msg, len, "cannot write %s: %s", name ? name : "an output file",
             failed ? strerror(e) : earlier_reason(f));
    return -1;
}

void mb_sink_flush(FILE *f, const char *name)
{
    char msg[1200];

    if (mb_sink_check(f, name, msg, sizeof msg) != 0)
        mb_die("%s", msg);
}

void mb_sink_close(FILE *f, const char *name)
{
    int failed, e;

    mb_sink_flush(f, name);
    failed = fclose(f) != 0;
    e = errno;
    if (failed)
        mb_die("cannot write %s: %s", name ? name : "an output file", strerror(e));
}

void mb_sink_write(FILE *f, const char *name, const char *s, size_t len)
{
    const int fd = fileno(f);
    off_t start;

    /* The record goes out in write(2) calls of its own, nothing of it in stdio's buffer: on a
     * failure the file is cut back to the record's start, so that it ends with a whole
     * record (a JSON Lines reader sees every record up to the failure) and no later flush
     * at exit appends the rest. */
    mb_sink_flush(f, name);
    start = lseek(fd, 0, SEEK_CUR);
    while (len > 0) {
        const ssize_t n = write(fd, s, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int e = n < 0 ? errno : ENOSPC;
            if (start >= 0 && ftruncate(fd, start) != 0) {
                /* nothing more to do: the message below names the file */
            }
            mb_die("cannot write %s: %s", name ? name : "an output file", strerror(e));
        }
        s += n;
        len -= (size_t)n;
    }
}
