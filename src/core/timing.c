/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/timing.h"

#include "core/error.h"

void mb_timing_sync(const struct mb_sync *sync)
{
    switch (sync->kind) {
    case MB_SYNC_NONE:
        break;
    case MB_SYNC_BARRIER:
        for (int i = 0; i < sync->count; i++)
            MB_MPI(MPI_Barrier(sync->comm));
        break;
    case MB_SYNC_CALL:
        for (int i = 0; i < sync->count; i++)
            sync->call(sync->comm);
        break;
    }
}

/* The clock as a callback, for mb_timing_probe_clock() alone. */
static double clock_now(void *unused)
{
    (void)unused;
    return MPI_Wtime();
}

double mb_timing_probe_clock(double (*probe)(double (*now)(void *user), void *user))
{
    return probe(clock_now, NULL);
}
