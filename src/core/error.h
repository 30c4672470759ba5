/* SPDX-License-Identifier: BSD-3-Clause */
/* One error vocabulary for every suite (docs/architecture.md, property 8; the exit statuses
 * are listed in README.md).
 *
 * Two kinds of failure exist and they travel different paths:
 *  - usage/input errors are found on rank 0 while it reads the command line and files;
 *    they are recorded in a struct mb_error, agreed on by all ranks (mb_agree) and end the
 *    run with status 2 on every rank before any benchmark starts;
 *  - run-time failures (an MPI call that fails, an allocation that cannot be made) abort the
 *    whole job through MPI_Abort, never exit() on one rank, so nothing hangs. */
#ifndef MB_ERROR_H
#define MB_ERROR_H

#include <mpi.h>
#include <stddef.h>

/* X-macro: kind, exit status, label printed in the message. */
#define MB_ERROR_KINDS(X)                                                                          \
    X(NONE, 0, "ok")                                                                               \
    X(USAGE, 2, "error")                                                                           \
    X(RUNTIME, 1, "run-time error")                                                                \
    X(DEFECT, 1, "data check failed")                                                              \
    X(TIMEOUT, 1, "timeout")

enum mb_error_kind {
#define MB_X(kind, status, label) MB_ERR_##kind,
    MB_ERROR_KINDS(MB_X)
#undef MB_X
};

enum { MB_EXIT_OK = 0, MB_EXIT_RUNTIME = 1, MB_EXIT_USAGE = 2 };

struct mb_error {
    enum mb_error_kind kind;
    char msg[1024];
};

/* Exit status and label of an error kind. */
int mb_error_status(enum mb_error_kind kind);
const char *mb_error_label(enum mb_error_kind kind);

/* Records a usage error (the first one wins) and returns its exit status (2). */
int mb_usage(struct mb_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records an error of any kind (the first one wins) and returns its exit status. */
int mb_error_set(struct mb_error *err, enum mb_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Collective over comm: rank 0's error state is broadcast; rank 0 prints the message once on
 * stderr, prefixed with prog. Returns the exit status every rank must return (0 = go on). */
int mb_agree(const struct mb_error *err, const char *prog, MPI_Comm comm);

/* mb_agree, and rank 0's n values of data (at most MB_AGREE_DATA) copied to every rank in the
 * same message. Startup sends few messages before the first measurement: Open MPI's
 * shared-memory transport builds its fast path to a peer after 16 sends to it, and the
 * original programs' first timed loop paid for that (docs/adr/startup-messages.md). */
enum { MB_AGREE_DATA = 4 };
int mb_agree_with(const struct mb_error *err, const char *prog, MPI_Comm comm, long long *data,
                  int n);

/* The characters a user's string can bring that must not reach a terminal raw: control
 * characters other than newline and tab. Messages (mb_eprintf) and output text (mb_printf)
 * show them as \xNN. */
static inline int mb_is_control(unsigned char c)
{
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

/* One message line on stderr (a newline is added), written at once so that messages of
 * several ranks never interleave within a line; control characters shown as \xNN. */
void mb_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run-time failure: message on stderr from the calling rank, the last-rites hook, then
 * MPI_Abort of the job. */
_Noreturn void mb_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What a process must still do when it ends abnormally - mb_die, the --timeout watchdog's
 * _exit: core/scratch.c registers its cleanup (the scratch files) here, so that this floor
 * calls it without knowing it. fn must be async-signal-safe (the watchdog runs it in its
 * SIGALRM handler). One hook per process; a later registration replaces the earlier. */
void mb_last_rites_set(void (*fn)(void));
void mb_last_rites(void);

/* Checks the return code of an MPI call; reports file:line and the MPI error string and
 * aborts the job on failure. Communicators must use MPI_ERRORS_RETURN for this to see it.
 * The success path is inline - one compare - because MB_MPI wraps calls inside timed loops
 * (a 0-byte MPI_Put costs tens of nanoseconds; an out-of-line call per transfer showed up in
 * bench/ext_figures.py); the failure path is out of line. */
#define MB_MPI(call) mb_mpi_check((call), #call, __FILE__, __LINE__)
_Noreturn void mb_mpi_fail(int rc, const char *what, const char *file, int line)
    __attribute__((cold));
static inline void mb_mpi_check(int rc, const char *what, const char *file, int line)
{
    if (__builtin_expect(rc != MPI_SUCCESS, 0))
        mb_mpi_fail(rc, what, file, line);
}

/* malloc that aborts the job on failure (for small, bounded bookkeeping allocations). */
void *mb_xmalloc(size_t bytes);
void *mb_xcalloc(size_t n, size_t size);
void *mb_xrealloc(void *p, size_t bytes);
char *mb_xstrdup(const char *s);

#endif
