/* SPDX-License-Identifier: BSD-3-Clause */
/* What an interrupted run leaves for its user (the main job: a message on stderr, and
 * summary.txt and index.html marking the phase that was cut and the later ones not run,
 * docs/main-job.md). The run prepares the pages and the message beforehand, in memory; the
 * SIGINT and SIGTERM handlers of core/scratch.h write them out (open, write, close: all
 * async-signal-safe) after removing the scratch files, and the process then ends as the signal
 * would have ended it. A SIGKILL runs no handler: the pages written before the phase stay ("not
 * finished"). Process-wide state, as the scratch registry's: a signal handler reaches nothing
 * else. */
#ifndef MB_INTERRUPT_H
#define MB_INTERRUPT_H

#include <stddef.h>

/* One file and its whole content. */
struct mb_interrupt_page {
    const char *path;
    const char *text;
    size_t len;
};

/* From now on an interrupt writes the n pages (each replacing the file at its path) and then
 * note. The memory stays the caller's and must stay valid until the next call or
 * mb_interrupt_clear. n <= MB_INTERRUPT_PAGES. */
enum { MB_INTERRUPT_PAGES = 4 };
void mb_interrupt_set(const struct mb_interrupt_page *pages, size_t n, const char *note);
/* After it returns no handler reads the pages: their memory may be freed. */
void mb_interrupt_clear(void);

/* The handlers' part (async-signal-safe): writes what was set, once. */
void mb_interrupt_write(void);

#endif
