/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* SIGEV_THREAD_ID, sigev_notify_thread_id, syscall */
#include "core/progress.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Process-wide by necessity (progress.h). line holds "PREFIX " and label the measurement; the
 * main thread changes them only with the signal blocked, and the handler only reads them. */
static char prefix[160], label[512];
static size_t prefix_len, label_len;
static struct timespec started;
static atomic_int on;
static timer_t timer;
static int signo;
static struct sigaction previous;

/* "M:SS" (or "H:MM:SS") of s seconds, async-signal-safe. */
static size_t clock_digits(char *out, long s)
{
    char tmp[32];
    size_t n = 0, k = 0;
    const long h = s / 3600, m = (s / 60) % 60, sec = s % 60;

    if (h > 0) {
        for (long v = h; v > 0; v /= 10)
            tmp[k++] = (char)('0' + v % 10);
        while (k > 0)
            out[n++] = tmp[--k];
        out[n++] = ':';
        out[n++] = (char)('0' + m / 10);
    } else if (m >= 10) {
        out[n++] = (char)('0' + m / 10);
    }
    out[n++] = (char)('0' + m % 10);
    out[n++] = ':';
    out[n++] = (char)('0' + sec / 10);
    out[n++] = (char)('0' + sec % 10);
    return n;
}

static void on_tick(int sig)
{
    char line[sizeof prefix + sizeof label + 48];
    struct timespec now;
    size_t n = 0;

    (void)sig;
    if (!atomic_load(&on))
        return;
    /* The name in parentheses is libc's function even where clock_gettime is a macro:
     * SimGrid's SMPI defines it as its simulated clock, which needs a simulated process and
     * crashed the simulator when the tick arrived while the simulator itself ran (the main job
     * at 128 processes). A progress line counts host seconds, so both reads use libc's. */
    (clock_gettime)(CLOCK_MONOTONIC, &now);
    memcpy(line, prefix, prefix_len);
    n = prefix_len;
    n += clock_digits(line + n, (long)(now.tv_sec - started.tv_sec));
    memcpy(line + n, " in the phase, now: ", 20);
    n += 20;
    memcpy(line + n, label, label_len);
    n += label_len;
    line[n++] = '\n';
    if (write(STDERR_FILENO, line, n) < 0)
        return; /* nothing to do about a closed stderr */
}

static void block(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, signo);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void set_label(const char *text)
{
    const size_t n = strlen(text);

    label_len = n < sizeof label ? n : sizeof label - 1;
    memcpy(label, text, label_len);
}

int mb_progress_start(double seconds, const char *what)
{
    struct sigaction sa;
    struct sigevent ev;
    struct itimerspec every;
    sigset_t old;

    if (seconds <= 0 || atomic_load(&on))
        return -1;
    signo = SIGRTMIN;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    memset(&ev, 0, sizeof ev);
    ev.sigev_signo = signo;
#if defined(__linux__) && defined(SIGEV_THREAD_ID)
    /* To this thread, the one that blocks the signal while it changes the label: the MPI
     * library's own threads (Open MPI's event and PMIx threads) would not. */
    ev.sigev_notify = SIGEV_THREAD_ID;
#ifdef sigev_notify_thread_id
    ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
#else
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* glibc before the name (2.36) */
#endif
#else
    ev.sigev_notify = SIGEV_SIGNAL;
#endif
    if (sigaction(signo, &sa, &previous) != 0)
        return -1;
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0) {
        sigaction(signo, &previous, NULL);
        return -1;
    }
    block(&old);
    prefix_len = (size_t)snprintf(prefix, sizeof prefix, "%s ", what);
    if (prefix_len >= sizeof prefix)
        prefix_len = sizeof prefix - 1;
    set_label("setting up");
    (clock_gettime)(CLOCK_MONOTONIC, &started); /* libc's, as on_tick's */
    atomic_store(&on, 1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    memset(&every, 0, sizeof every);
    every.it_value.tv_sec = (time_t)seconds;
    every.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    every.it_interval = every.it_value;
    timer_settime(timer, 0, &every, NULL);
    return 0;
}

void mb_progress_note(const char *text)
{
    sigset_t old;

    if (!atomic_load(&on))
        return;
    block(&old);
    set_label(text);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void mb_progress_stop(void)
{
    sigset_t old;

    if (!atomic_load(&on))
        return;
    block(&old);
    atomic_store(&on, 0);
    timer_delete(timer);
    sigprocmask(SIG_SETMASK, &old, NULL);
    /* A tick raised before the delete and still pending is delivered here, into on_tick, which
     * sees the lines off. */
    sigaction(signo, &previous, NULL);
}
