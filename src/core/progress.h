/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress lines of a long run (mpibench run --progress SEC, docs/main-job.md): while a phase
 * runs, rank 0 of the job writes a line to stderr every SEC seconds naming the phase, the time
 * spent in it and what is being measured - the label every driver gives the --timeout watchdog
 * before each measurement (benchmark, process count, message size; b_eff_io's pass, partition
 * and pattern), so no suite has code of its own for it.
 *
 * A timer signal, not a thread, for the reason the watchdog gives (core/watchdog.h): a second
 * thread would need a higher MPI thread level than the phases ask for. The line is written by
 * the signal handler with write(2) from a buffer the main thread prepares with the signal
 * blocked; a measurement under way is interrupted for the few microseconds this takes, once
 * every SEC seconds. Process-wide state, as the watchdog's and the scratch registry's: a
 * signal handler reaches nothing else. */
#ifndef MB_PROGRESS_H
#define MB_PROGRESS_H

/* Starts the lines for one phase: every seconds (> 0) "PREFIX M:SS: LABEL" on stderr, with the
 * time since this call and the label of the latest mb_progress_note ("setting up" before the
 * first). Returns 0, or -1 where no timer can be made (then there are no lines; the run goes
 * on). */
int mb_progress_start(double seconds, const char *prefix);

/* What is measured now; a no-op unless lines are on (every rank calls it, through
 * mb_watchdog_arm). Never inside a timed loop. */
void mb_progress_note(const char *label);

/* No more lines (the end of the phase). */
void mb_progress_stop(void);

#endif
