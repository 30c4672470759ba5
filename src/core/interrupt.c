/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/interrupt.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Written only while armed is 0 (and SIGINT and SIGTERM blocked in this thread); armed says
 * the handler may read them. The handler may run on another thread (a process-directed signal
 * goes to any thread that does not block it, an MPI library's own threads among them): busy
 * counts those between their check of armed and their end, and mb_interrupt_clear waits, so
 * that the caller never frees pages a handler is writing. */
static struct mb_interrupt_page pages[MB_INTERRUPT_PAGES];
static size_t n_pages;
static const char *note;
static atomic_int armed, busy;

static void block(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, old);
}

void mb_interrupt_set(const struct mb_interrupt_page *p, size_t n, const char *text)
{
    sigset_t old;

    mb_interrupt_clear();
    block(&old);
    n_pages = n < MB_INTERRUPT_PAGES ? n : MB_INTERRUPT_PAGES;
    memcpy(pages, p, n_pages * sizeof *p);
    note = text;
    atomic_store(&armed, 1);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void mb_interrupt_clear(void)
{
    atomic_store(&armed, 0);
    /* A handler that took the pages ends the process when it is done: wait for that. */
    while (atomic_load(&busy))
        sched_yield();
}

static void write_all(int fd, const char *s, size_t len)
{
    while (len > 0) {
        const ssize_t w = write(fd, s, len);
        if (w <= 0)
            return; /* a full disk or a closed stream: nothing more to do in a handler */
        s += w;
        len -= (size_t)w;
    }
}

void mb_interrupt_write(void)
{
    /* A count, not a flag: a second signal on another thread that finds nothing to write must
     * not clear the first one's mark. The one that writes never takes its mark back. */
    atomic_fetch_add(&busy, 1);
    if (!atomic_exchange(&armed, 0)) {
        atomic_fetch_sub(&busy, 1);
        return;
    }
    for (size_t i = 0; i < n_pages; i++) {
        /* The run's own files, written before the phase: replaced in place (O_TRUNC). Opened
         * without O_CREAT: a page the user removed meanwhile is not made again. */
        const int fd = open(pages[i].path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        write_all(fd, pages[i].text, pages[i].len);
        close(fd);
    }
    if (note)
        write_all(STDERR_FILENO, note, strlen(note));
}
