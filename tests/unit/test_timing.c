/* SPDX-License-Identifier: BSD-3-Clause */
/* The timing module (core/timing.h): the synchronisation runs before the clock starts and as
 * often as asked, stop returns the total over the repetitions and keeps the total, splits and
 * stopwatches count from their start, and a clock probe gets the clock. One process (singleton
 * MPI_Init). */
#include "core/timing.h"
#include "unit.h"

#include <time.h>

static int sync_calls;
static MPI_Comm sync_comm;

static void pause_ms(long ms)
{
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

/* A suite's barrier that takes 30 ms: the timer must not count it. */
static void slow_barrier(MPI_Comm comm)
{
    sync_calls++;
    sync_comm = comm;
    pause_ms(30);
}

static int probe_user_null;

static double probe(double (*now)(void *user), void *user)
{
    const double a = now(user);
    double b;

    probe_user_null = user == NULL;
    pause_ms(5);
    b = now(user);
    return b - a;
}

int main(int argc, char **argv)
{
    struct mb_timing t;
    struct mb_stopwatch w;
    double per, split = -1;

    MPI_Init(&argc, &argv);

    /* Synchronisation: count calls of the suite's barrier on its communicator, outside the
     * timed region (an empty sample after two 30 ms barriers takes far less than 30 ms). */
    t = mb_timing_make(mb_sync_calls(MPI_COMM_SELF, 2, slow_barrier));
    mb_timing_start(&t);
    per = mb_timing_stop(&t, 1);
    EXPECT_EQ_LL(sync_calls, 2);
    EXPECT(sync_comm == MPI_COMM_SELF);
    EXPECT(per >= 0 && per < 0.025);
    EXPECT(t.elapsed == per);
    EXPECT_EQ_LL(t.samples, 1);

    /* No synchronisation calls nothing. */
    t = mb_timing_make(mb_sync_none());
    mb_timing_start(&t);
    (void)mb_timing_stop(&t, 1);
    EXPECT_EQ_LL(sync_calls, 2);

    /* MPI_Barrier n times on a communicator (one process: returns at once). */
    t = mb_timing_make(mb_sync_barriers(MPI_COMM_SELF, 3));
    mb_timing_start(&t);

    /* Four repetitions of 10 ms: the time per repetition is the total over four, and a split
     * inside the sample lies between its start and its stop. */
    for (int i = 0; i < 4; i++) {
        pause_ms(10);
        if (i == 1)
            split = mb_timing_split(&t);
    }
    per = mb_timing_stop(&t, 4);
    EXPECT(t.elapsed >= 0.04);
    EXPECT(per == t.elapsed / 4.0);
    EXPECT_EQ_LL(t.reps, 4);
    EXPECT(split >= 0.02 && split <= t.elapsed);
    EXPECT_EQ_LL(t.samples, 1);
    mb_timing_start(&t);
    (void)mb_timing_stop(&t, 1);
    EXPECT_EQ_LL(t.samples, 2);
    EXPECT_EQ_LL(t.reps, 1);

    /* Kept samples: each sample's time per repetition in stop order, up to the room given,
     * and the totals over all of them (the row's classic figure with K samples). */
    {
        double kept[2] = {-1, -1};
        t = mb_timing_make(mb_sync_none());
        mb_timing_keep(&t, kept, 2);
        for (int k = 0; k < 3; k++) {
            mb_timing_start(&t);
            pause_ms(k == 1 ? 20 : 5);
            (void)mb_timing_stop(&t, 2);
        }
        EXPECT_EQ_LL(t.samples, 3);
        EXPECT(kept[0] >= 0.0025 && kept[1] >= 0.01 && kept[1] > kept[0]);
        EXPECT_EQ_LL(t.total_reps, 6);
        EXPECT(t.total >= 0.03 && t.total >= 2 * (kept[0] + kept[1]));
    }

    /* A stopwatch counts from its start. */
    w = mb_stopwatch_start();
    pause_ms(10);
    EXPECT(mb_stopwatch_read(&w) >= 0.01);

    /* A clock probe gets the clock itself. */
    EXPECT(mb_timing_probe_clock(probe) >= 0.005);
    EXPECT(probe_user_null);

    MPI_Finalize();
    return unit_report("test_timing");
}
