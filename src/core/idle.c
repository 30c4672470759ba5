/* SPDX-License-Identifier: BSD-3-Clause */
/* Idle processes under the --timeout watchdog: the heartbeat (core/idle.h). */
#include "core/idle.h"

#include "core/error.h"

#include <time.h>

/* Rank 0: a heartbeat when the last one has gone out and SEC/2 s have passed since. Run by
 * the watchdog's arm, between measurements. The clock read here paces the beats; it times
 * nothing. */
static void beat(void *arg)
{
    struct mb_idle *w = arg;
    const double now = mb_stopwatch_read(&w->clock);
    int done = 1;

    if (w->beat != MPI_REQUEST_NULL)
        MB_MPI(MPI_Test(&w->beat, &done, MPI_STATUS_IGNORE));
    if (!done || now - w->last < w->every)
        return;
    w->flag = 1;
    w->last = now;
    MB_MPI(MPI_Ibcast(&w->flag, 1, MPI_INT, 0, w->comm, &w->beat));
}

void mb_idle_begin(struct mb_idle *w, struct mb_watchdog *wd, MPI_Comm world, int any_idle,
                   int idle)
{
    int rank;

    *w = (struct mb_idle){.comm = MPI_COMM_NULL, .beat = MPI_REQUEST_NULL, .wd = wd};
    if (!wd || !any_idle)
        return;
    MB_MPI(MPI_Comm_rank(world, &rank));
    MB_MPI(MPI_Comm_split(world, idle || rank == 0 ? 0 : MPI_UNDEFINED, rank, &w->comm));
    if (w->comm != MPI_COMM_NULL && rank == 0) {
        w->every = mb_watchdog_seconds(wd) / 2;
        w->clock = mb_stopwatch_start();
        w->last = -1e300; /* the first arm beats at once */
        mb_watchdog_on_arm(wd, beat, w);
    }
}

void mb_idle_wait(struct mb_idle *w, const char *label)
{
    MPI_Request req;
    int done;

    if (w->comm == MPI_COMM_NULL)
        return;
    for (;;) {
        mb_watchdog_arm(w->wd, label);
        MB_MPI(MPI_Ibcast(&w->flag, 1, MPI_INT, 0, w->comm, &req));
        /* Polled with a pause rather than waited for: a waiting process should leave the
         * CPU to those that measure (an oversubscribed node), and 1 ms is far below SEC. */
        for (done = 0; !done;) {
            MB_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
            if (!done) {
                /* Named, not a compound literal: nanosleep may be a macro (SimGrid SMPI). */
                const struct timespec pause = {0, 1000 * 1000};
                nanosleep(&pause, NULL);
            }
        }
        if (w->flag == 0)
            break;
    }
    mb_watchdog_disarm(w->wd);
}

void mb_idle_end(struct mb_idle *w)
{
    int rank;

    if (w->comm == MPI_COMM_NULL)
        return;
    MB_MPI(MPI_Comm_rank(w->comm, &rank));
    if (rank == 0) {
        MPI_Request end;
        mb_watchdog_on_arm(w->wd, NULL, NULL);
        MB_MPI(MPI_Wait(&w->beat, MPI_STATUS_IGNORE));
        w->flag = 0;
        MB_MPI(MPI_Ibcast(&w->flag, 1, MPI_INT, 0, w->comm, &end));
        MB_MPI(MPI_Wait(&end, MPI_STATUS_IGNORE));
    }
    MB_MPI(MPI_Comm_free(&w->comm));
}
