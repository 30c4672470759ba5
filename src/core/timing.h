/* SPDX-License-Identifier: BSD-3-Clause */
/* The timing module: the one place that reads the clock (MPI_Wtime), and the one place where
 * per-sample statistics and clock synchronisation belong (docs/adr/one-timing-module.md).
 *
 * A measurement is a sample: the suite's synchronisation (nothing, N MPI_Barrier calls on a
 * communicator, or N calls of a suite's own barrier such as Presta 1.2's butterfly), one clock
 * read, the suite's own loop of n repetitions written inline between mb_timing_start() and
 * mb_timing_stop(), one clock read. mb_timing_stop() returns the time per repetition and keeps
 * the sample's total. Start and stop are inline and the loop body stays the suite's own code, so
 * a timed region holds exactly what it held before the module existed: no function-pointer call
 * per repetition (IMB's small-message rows are sensitive at the 10 ns level).
 *
 * Clock reads that time no loop go through the module too:
 * - mb_timing_split(): the time since a running sample started, for loops paced by their own
 *   elapsed time inside the timed region (b_eff_io 2.1's time-driven write loop, which splits
 *   the pattern's time into I/O, barrier and broadcast parts as the original does);
 * - struct mb_stopwatch: durations that are not measurements - a run's wall time, progress
 *   lines, the watchdog's idle heartbeat (core/idle.c), b_eff's and Presta's elapsed totals;
 * - mb_timing_probe_clock(): hands the clock to a routine that characterises the clock itself
 *   (Presta 1.2's "MPI_Wtime overhead" footer).
 * Outside this header and timing.c nothing calls MPI_Wtime; MPI_Wtick (a resolution, not a
 * reading) stays with core/clock.c's description and the reports that print it. */
#ifndef MB_TIMING_H
#define MB_TIMING_H

#include <mpi.h>
#include <stddef.h>

/* How the processes line up before a sample's first clock read. */
enum mb_sync_kind {
    MB_SYNC_NONE, /* no synchronisation: the caller's own barriers, if any, stay where they are */
    MB_SYNC_BARRIER, /* count MPI_Barrier calls on comm */
    MB_SYNC_CALL     /* count calls of call(comm), a suite's own barrier */
};

struct mb_sync {
    enum mb_sync_kind kind;
    int count;
    MPI_Comm comm;
    void (*call)(MPI_Comm comm);
};

static inline struct mb_sync mb_sync_none(void)
{
    return (struct mb_sync){MB_SYNC_NONE, 0, MPI_COMM_NULL, NULL};
}

static inline struct mb_sync mb_sync_barriers(MPI_Comm comm, int count)
{
    return (struct mb_sync){MB_SYNC_BARRIER, count, comm, NULL};
}

static inline struct mb_sync mb_sync_calls(MPI_Comm comm, int count, void (*call)(MPI_Comm))
{
    return (struct mb_sync){MB_SYNC_CALL, count, comm, call};
}

/* One timer: its synchronisation, the running sample's start, the last sample's figures and
 * the number of samples taken. A row measured as K samples (--samples K, docs/adr/samples.md)
 * gives its timer room for them (mb_timing_keep): mb_timing_stop() then records every sample's
 * time per repetition and the running totals, from which the suite makes its figures and
 * core/samples.h their spread, so that no suite computes medians or intervals itself. */
struct mb_timing {
    struct mb_sync sync;
    double t0;      /* clock at the start of the running sample, seconds */
    double elapsed; /* the last sample: seconds from start to stop */
    double per_rep; /* the last sample: elapsed / its repetitions */
    long reps;      /* the last sample's repetitions */
    long samples;   /* samples stopped so far */
    double *kept;   /* NULL, or room for cap samples' time per repetition, in stop order */
    long cap;
    double total;    /* seconds of all samples stopped so far */
    long total_reps; /* repetitions of all samples stopped so far */
};

static inline struct mb_timing mb_timing_make(struct mb_sync sync)
{
    return (struct mb_timing){sync, 0.0, 0.0, 0.0, 0, 0, NULL, 0, 0.0, 0};
}

/* Records the time per repetition of the next cap samples into kept[0..cap-1] and starts the
 * totals afresh (the samples of one row). */
static inline void mb_timing_keep(struct mb_timing *t, double *kept, long cap)
{
    t->kept = kept;
    t->cap = cap;
    t->samples = 0;
    t->total = 0.0;
    t->total_reps = 0;
}

/* Runs the synchronisation of t (collective over its communicator, unless none). */
void mb_timing_sync(const struct mb_sync *sync);

/* Synchronises, then starts the sample: the clock read is the last thing before the caller's
 * timed loop. */
static inline void mb_timing_start(struct mb_timing *t)
{
    mb_timing_sync(&t->sync);
    t->t0 = MPI_Wtime();
}

/* Ends the sample started last: the clock read is the first thing after the caller's timed
 * loop. n is the number of repetitions the loop ran (n >= 1); returns the time per
 * repetition, (t1 - t0) / n, and keeps the total in t->elapsed. */
static inline double mb_timing_stop(struct mb_timing *t, long n)
{
    const double t1 = MPI_Wtime();

    t->elapsed = t1 - t->t0;
    t->reps = n;
    t->per_rep = n > 0 ? t->elapsed / (double)n : t->elapsed;
    if (t->kept && t->samples < t->cap)
        t->kept[t->samples] = t->per_rep;
    t->total += t->elapsed;
    t->total_reps += n;
    t->samples++;
    return t->per_rep;
}

/* Seconds since the running sample started: for loops that decide their own length from the
 * time they have taken (b_eff_io's time-driven patterns), and for the parts of such a sample. */
static inline double mb_timing_split(const struct mb_timing *t)
{
    return MPI_Wtime() - t->t0;
}

/* A duration that is not a measurement: wall times, progress, pacing. */
struct mb_stopwatch {
    double t0;
};

static inline struct mb_stopwatch mb_stopwatch_start(void)
{
    return (struct mb_stopwatch){MPI_Wtime()};
}

/* Seconds since the stopwatch started. */
static inline double mb_stopwatch_read(const struct mb_stopwatch *w)
{
    return MPI_Wtime() - w->t0;
}

/* Gives probe the clock (now(user) returns MPI_Wtime; user is NULL) and returns its result: for
 * routines that characterise the clock itself, such as Presta 1.2's MPI_Wtime overhead. */
double mb_timing_probe_clock(double (*probe)(double (*now)(void *user), void *user));

#endif
