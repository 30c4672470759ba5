/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/watchdog.h"

#include "core/error.h"
#include "core/progress.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Process-wide mutable state, as the scratch-file registry in scratch.c is: a signal handler
 * can reach nothing else. It is written only while the timer is stopped, and read only by the
 * handler. */
static char alarm_message[512];
static volatile sig_atomic_t alarm_length;

static void on_alarm(int sig)
{
    (void)sig;
    if (write(STDERR_FILENO, alarm_message, (size_t)alarm_length) < 0)
        alarm_length = 0;
    mb_last_rites(); /* async-signal-safe: no scratch file outlives a hang */
    _exit(mb_error_status(MB_ERR_TIMEOUT));
}

struct mb_watchdog {
    double seconds; /* --timeout */
    double after;   /* when this rank's timer fires: seconds, or later on ranks other than 0 */
    int rank;
    char prog[64];
    struct sigaction previous;
    void (*on_arm)(void *);
    void *on_arm_arg;
};

struct mb_watchdog *mb_watchdog_start(double seconds, const char *prog, int rank)
{
    struct mb_watchdog *wd;
    struct sigaction sa;

    if (seconds <= 0)
        return NULL;
    wd = mb_xcalloc(1, sizeof *wd);
    wd->seconds = seconds;
    wd->rank = rank;
    wd->after = rank == 0 ? seconds : MB_WATCHDOG_GRACE * seconds + 1.0;
    snprintf(wd->prog, sizeof wd->prog, "%s", prog);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGALRM, &sa, &wd->previous) != 0)
        mb_die("cannot install the --timeout watchdog");
    return wd;
}

static void set_timer(double seconds)
{
    struct itimerval t;

    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = (time_t)seconds;
    t.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    if (seconds > 0 && t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
        t.it_value.tv_usec = 1;
    if (setitimer(ITIMER_REAL, &t, NULL) != 0)
        mb_die("cannot set the --timeout timer");
}

void mb_watchdog_arm(struct mb_watchdog *wd, const char *label)
{
    int n;

    /* The label names what is measured now: also the main job's progress line
     * (core/progress.h), which is on only on rank 0 of a job with --progress. */
    mb_progress_note(label);
    if (!wd)
        return;
    set_timer(0); /* stopped while the message changes */
    if (wd->rank == 0)
        n = snprintf(alarm_message, sizeof alarm_message,
                     "%s: timeout: %s did not finish within --timeout %g s; aborting the job\n",
                     wd->prog, label, wd->seconds);
    else
        n = snprintf(alarm_message, sizeof alarm_message,
                     "%s: timeout: %s did not finish within --timeout %g s (reported by rank %d "
                     "after %g s: rank 0 did not); aborting the job\n",
                     wd->prog, label, wd->seconds, wd->rank, wd->after);
    alarm_length =
        (n < 0) ? 0 : (n < (int)sizeof alarm_message ? n : (int)sizeof alarm_message - 1);
    set_timer(wd->after);
    if (wd->on_arm)
        wd->on_arm(wd->on_arm_arg);
}

double mb_watchdog_seconds(const struct mb_watchdog *wd)
{
    return wd ? wd->seconds : 0;
}

void mb_watchdog_on_arm(struct mb_watchdog *wd, void (*fn)(void *), void *arg)
{
    if (!wd)
        return;
    wd->on_arm = fn;
    wd->on_arm_arg = arg;
}

void mb_watchdog_disarm(struct mb_watchdog *wd)
{
    if (wd)
        set_timer(0);
}

void mb_watchdog_stop(struct mb_watchdog *wd)
{
    if (!wd)
        return;
    set_timer(0);
    sigaction(SIGALRM, &wd->previous, NULL);
    free(wd);
}
