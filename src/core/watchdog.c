#include "core/watchdog.h"

#include "core/error.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct mb_watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    double seconds;
    int armed;
    int stop;
    struct timespec deadline;
    char prog[64];
    char label[256];
};

static void *watch(void *arg)
{
    struct mb_watchdog *wd = arg;

    pthread_mutex_lock(&wd->lock);
    while (!wd->stop) {
        int rc = wd->armed ? pthread_cond_timedwait(&wd->wake, &wd->lock, &wd->deadline)
                           : pthread_cond_wait(&wd->wake, &wd->lock);
        if (rc == ETIMEDOUT && wd->armed && !wd->stop) {
            char msg[512];
            int n = snprintf(msg, sizeof msg,
                             "%s: timeout: %s did not finish within --timeout %g s; "
                             "aborting the job\n",
                             wd->prog, wd->label, wd->seconds);
            if (n > 0 &&
                write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
                n = 0;
            /* No stdio here: the main thread may hold stdout's lock; rows are flushed as
             * they are written, so nothing is pending. */
            _exit(mb_error_status(MB_ERR_TIMEOUT));
        }
    }
    pthread_mutex_unlock(&wd->lock);
    return NULL;
}

struct mb_watchdog *mb_watchdog_start(double seconds, const char *prog)
{
    struct mb_watchdog *wd;
    pthread_condattr_t attr;

    if (seconds <= 0)
        return NULL;
    wd = mb_xcalloc(1, sizeof *wd);
    wd->seconds = seconds;
    snprintf(wd->prog, sizeof wd->prog, "%s", prog);
    pthread_mutex_init(&wd->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&wd->wake, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&wd->thread, NULL, watch, wd) != 0)
        mb_die("cannot start the --timeout watchdog thread");
    return wd;
}

void mb_watchdog_arm(struct mb_watchdog *wd, const char *label)
{
    double whole;

    if (!wd)
        return;
    pthread_mutex_lock(&wd->lock);
    snprintf(wd->label, sizeof wd->label, "%s", label);
    clock_gettime(CLOCK_MONOTONIC, &wd->deadline);
    whole = (double)(long)wd->seconds;
    wd->deadline.tv_sec += (time_t)whole;
    wd->deadline.tv_nsec += (long)((wd->seconds - whole) * 1e9);
    if (wd->deadline.tv_nsec >= 1000000000L) {
        wd->deadline.tv_sec++;
        wd->deadline.tv_nsec -= 1000000000L;
    }
    wd->armed = 1;
    pthread_cond_signal(&wd->wake);
    pthread_mutex_unlock(&wd->lock);
}

void mb_watchdog_disarm(struct mb_watchdog *wd)
{
    if (!wd)
        return;
    pthread_mutex_lock(&wd->lock);
    wd->armed = 0;
    pthread_cond_signal(&wd->wake);
    pthread_mutex_unlock(&wd->lock);
}

void mb_watchdog_stop(struct mb_watchdog *wd)
{
    if (!wd)
        return;
    pthread_mutex_lock(&wd->lock);
    wd->stop = 1;
    pthread_cond_signal(&wd->wake);
    pthread_mutex_unlock(&wd->lock);
    pthread_join(wd->thread, NULL);
    pthread_cond_destroy(&wd->wake);
    pthread_mutex_destroy(&wd->lock);
    free(wd);
}
