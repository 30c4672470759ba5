/* SPDX-License-Identifier: BSD-3-Clause */
/* Idle processes under the --timeout watchdog (core/watchdog.h).
 *
 * While some processes measure, others wait: IMB's idle processes of a block (IMB 3.1 guide
 * 5.2.2), b_eff_io's processes outside the partition. A waiting process cannot tell a long
 * measurement from a stopped rank 0, and rank 0 may be the only process measuring (IMB-IO on
 * 1 process): nobody would be armed. So rank 0 of the job, which always measures, sends the
 * idle processes a heartbeat - a one-int MPI_Ibcast on a communicator of rank 0 and the idle
 * processes - from its watchdog's arm calls, at most every --timeout/2 seconds and never
 * inside a timed loop; an idle process re-arms its watchdog on each beat. A stopped rank 0
 * then sends none, and the idle processes' watchdogs end the job after their grace
 * (MB_WATCHDOG_GRACE x SEC + 1 s): between two beats lie at most SEC/2 s and one measurement,
 * which rank 0's own watchdog bounds by SEC. The end of the wait is the last broadcast,
 * carrying 0.
 *
 * Without --timeout (no watchdog) nothing of this runs: the idle processes wait in the
 * caller's barrier as before, and no communicator is made. */
#ifndef MB_IDLE_H
#define MB_IDLE_H

#include "core/timing.h"
#include "core/watchdog.h"

#include <mpi.h>

struct mb_idle {
    MPI_Comm comm;             /* rank 0 of the job and the idle processes; else MPI_COMM_NULL */
    MPI_Request beat;          /* rank 0: the heartbeat in flight */
    int flag;                  /* what is broadcast: 1 a heartbeat, 0 the end */
    double last, every;        /* rank 0: when the last beat went, seconds between beats */
    struct mb_stopwatch clock; /* rank 0: what last is read on */
    struct mb_watchdog *wd;
};

/* Collective over world (no communication when wd is NULL or nobody is idle, which every
 * process knows: any_idle). idle: whether this process waits; rank 0 of world must not. */
void mb_idle_begin(struct mb_idle *w, struct mb_watchdog *wd, MPI_Comm world, int any_idle,
                   int idle);

/* An idle process: waits, armed with label, until rank 0 calls mb_idle_end. Returns at once
 * where there is no communicator (the caller's barrier then waits). */
void mb_idle_wait(struct mb_idle *w, const char *label);

/* Every process that called mb_idle_begin, once the measurements are done: rank 0 sends the
 * end, and the communicator is freed. */
void mb_idle_end(struct mb_idle *w);

#endif
