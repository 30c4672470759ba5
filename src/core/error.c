/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "core/error.h"

#include <stdatomic.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct {
    int status;
    const char *label;
} kinds[] = {
#define MB_X(kind, status, label) {status, label},
    MB_ERROR_KINDS(MB_X)
#undef MB_X
};

int mb_error_status(enum mb_error_kind kind)
{
    return kinds[kind].status;
}

const char *mb_error_label(enum mb_error_kind kind)
{
    return kinds[kind].label;
}

/* Copies text to out (cap bytes) with every quoted value longer than ELIDE_OVER characters
 * shortened to its first ELIDE_KEEP and "...": a value of thousands of characters (a path, a
 * number of 2000 digits) used to fill the message, and the option and reason after it were
 * cut off. A value is copied through its closing quote, so that the text between two quoted
 * values is never taken for a value (a window message naming two settings lost the sentence
 * between them). */
enum { ELIDE_OVER = 100, ELIDE_KEEP = 60 };
static void elide_quoted(const char *text, char *out, size_t cap)
{
    size_t n = 0;

    for (const char *p = text; *p && n + 1 < cap; p++) {
        const char *close;
        out[n++] = *p;
        if (*p != '\'' || !(close = strchr(p + 1, '\'')))
            continue;
        if (close - p - 1 <= ELIDE_OVER) {
            while (p < close && n + 1 < cap)
                out[n++] = *++p;
            continue;
        }
        for (int k = 0; k < ELIDE_KEEP && n + 1 < cap; k++)
            out[n++] = *++p;
        for (const char *d = "..."; *d && n + 1 < cap; d++)
            out[n++] = *d;
        if (n + 1 < cap)
            out[n++] = '\'';
        p = close;
    }
    out[n] = '\0';
}

static int record(struct mb_error *err, enum mb_error_kind kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static int record(struct mb_error *err, enum mb_error_kind kind, const char *fmt, va_list ap)
{
    if (err->kind == MB_ERR_NONE) {
        va_list copy;
        int len;
        char *full;

        va_copy(copy, ap);
        len = vsnprintf(NULL, 0, fmt, copy);
        va_end(copy);
        full = malloc(len > 0 ? (size_t)len + 1 : 1);
        if (full && len >= 0) {
            vsnprintf(full, (size_t)len + 1, fmt, ap);
            elide_quoted(full, err->msg, sizeof err->msg);
        } else
            vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        free(full);
        err->kind = kind;
    }
    return mb_error_status(kind);
}

int mb_usage(struct mb_error *err, const char *fmt, ...)
{
    va_list ap;
    int status;

    va_start(ap, fmt);
    status = record(err, MB_ERR_USAGE, fmt, ap);
    va_end(ap);
    return status;
}

int mb_error_set(struct mb_error *err, enum mb_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    int status;

    va_start(ap, fmt);
    status = record(err, kind, fmt, ap);
    va_end(ap);
    return status;
}

/* ---- messages on stderr --------------------------------------------------------------- */

/* prefix + the formatted text + a newline, control characters other than newline and tab
 * shown as \xNN (an escape sequence in a benchmark name must not reach the terminal), sent
 * in one write(2): the launcher forwards each rank's stderr as it comes, and a message
 * written in pieces could interleave with another rank's within a line. */
static void emit(const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void emit(const char *prefix, const char *fmt, va_list ap)
{
    char text[4096], out[4 * sizeof text + 8];
    size_t n = 0;
    int len = snprintf(text, sizeof text, "%s", prefix);

    if (len >= 0 && (size_t)len < sizeof text)
        vsnprintf(text + len, sizeof text - (size_t)len, fmt, ap);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (mb_is_control(*p))
            n += (size_t)snprintf(out + n, sizeof out - n, "\\x%02x", *p);
        else
            out[n++] = (char)*p;
    }
    if (n == 0 || out[n - 1] != '\n')
        out[n++] = '\n';
    for (size_t done = 0; done < n;) {
        const ssize_t w = write(STDERR_FILENO, out + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break; /* nowhere left to say it */
        done += (size_t)w;
    }
}

void mb_eprintf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    emit("", fmt, ap);
    va_end(ap);
}

int mb_agree_with(const struct mb_error *err, const char *prog, MPI_Comm comm, long long *data,
                  int n)
{
    long long msg[1 + MB_AGREE_DATA] = {MB_ERR_NONE};
    int rank;

    if (n < 0 || n > MB_AGREE_DATA)
        mb_die("internal error: %d values agreed (at most %d)", n, MB_AGREE_DATA);
    MB_MPI(MPI_Comm_rank(comm, &rank));
    if (rank == 0) {
        msg[0] = (long long)err->kind;
        if (err->kind != MB_ERR_NONE)
            mb_eprintf("%s: %s: %s", prog, mb_error_label(err->kind), err->msg);
        for (int i = 0; i < n; i++)
            msg[1 + i] = data[i];
    }
    /* One message for the verdict and the values that go with it (see mb_agree_with). */
    MB_MPI(MPI_Bcast(msg, 1 + n, MPI_LONG_LONG, 0, comm));
    for (int i = 0; i < n; i++)
        data[i] = msg[1 + i];
    return mb_error_status((enum mb_error_kind)msg[0]);
}

int mb_agree(const struct mb_error *err, const char *prog, MPI_Comm comm)
{
    return mb_agree_with(err, prog, comm, NULL, 0);
}

void mb_die(const char *fmt, ...)
{
    int rank = -1;
    int initialized = 0;
    char prefix[128];
    va_list ap;

    MPI_Initialized(&initialized);
    if (initialized)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* The name the program was started under (IMB-IO, b_eff, mpibench, ...), as usage errors
     * name it; libc sets it from argv[0] before main. */
    snprintf(prefix, sizeof prefix, "%.60s (rank %d): %s: ", program_invocation_short_name, rank,
             mb_error_label(MB_ERR_RUNTIME));
    va_start(ap, fmt);
    emit(prefix, fmt, ap);
    va_end(ap);
    fflush(stdout);
    /* Scratch files this process created go before the job does (docs/adr/scratch-files.md:
     * removed also on error); the other processes clean theirs when the launcher signals them. */
    mb_last_rites();
    /* MPICH's hydra may kill the job on MPI_Abort before it has forwarded this rank's
     * stderr: give the launcher a moment to pass the message on (error path only). A named
     * object rather than a compound literal: SimGrid's SMPI defines nanosleep as a macro, and a
     * compound literal's braces split into several macro arguments (docs/adr/smpi-build.md). */
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    if (initialized)
        MPI_Abort(MPI_COMM_WORLD, MB_EXIT_RUNTIME);
    abort();
}

/* Process-wide by necessity: a signal handler reaches nothing else. Lock-free, so that the
 * handler may load it (C11 7.14.1.1p5). */
static _Atomic(void (*)(void)) last_rites;

void mb_last_rites_set(void (*fn)(void))
{
    atomic_store(&last_rites, fn);
}

void mb_last_rites(void)
{
    void (*fn)(void) = atomic_load(&last_rites);

    if (fn)
        fn();
}

void mb_mpi_fail(int rc, const char *what, const char *file, int line)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", rc);
    mb_die("%s:%d: %s failed: %s", file, line, what, text);
}

void *mb_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        mb_die("out of memory allocating %zu bytes", bytes);
    return p;
}

void *mb_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        mb_die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *mb_xrealloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        mb_die("out of memory allocating %zu bytes", bytes);
    return q;
}

char *mb_xstrdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = mb_xmalloc(len);
    memcpy(p, s, len);
    return p;
}
