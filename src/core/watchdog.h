/* SPDX-License-Identifier: BSD-3-Clause */
/* Hang watchdog (--timeout SEC, docs/adr/watchdog-timeout.md). Before each measurement
 * the driver arms it with a label naming suite, benchmark, process count and message size; if the
 * measurement is not disarmed in time the job ends with that message and exit status 1.
 *
 * It is a SIGALRM interval timer, not a thread: a second thread would need
 * MPI_Init_thread(MPI_THREAD_FUNNELED), which costs Open MPI 4.1 tens of nanoseconds per
 * message (measured by bench/harness_figures.py) - more than the harness may add. The handler
 * writes the prepared message and _exit(1)s; the launcher (Open MPI's mpirun, MPICH's hydra)
 * then terminates the other ranks.
 *
 * Every rank runs one, armed and disarmed at the same points by every rank taking part in the
 * measurement: rank 0's fires after SEC seconds; the others' after a grace (MB_WATCHDOG_GRACE
 * x SEC + 1 s) in which rank 0 normally reports first and the launcher ends them - theirs
 * fire only when rank 0 cannot, stopped (SIGSTOP, a debugger) or stuck outside any
 * measurement, and then say which rank reported. */
#ifndef MB_WATCHDOG_H
#define MB_WATCHDOG_H

struct mb_watchdog;

#define MB_WATCHDOG_GRACE 2.0

/* NULL when seconds <= 0: arming and disarming NULL does nothing. rank: of the caller in the
 * job (0 reports first). */
struct mb_watchdog *mb_watchdog_start(double seconds, const char *prog, int rank);
void mb_watchdog_arm(struct mb_watchdog *wd, const char *label);
void mb_watchdog_disarm(struct mb_watchdog *wd);
void mb_watchdog_stop(struct mb_watchdog *wd);

/* --timeout in seconds (0 for NULL). */
double mb_watchdog_seconds(const struct mb_watchdog *wd);

/* fn(arg) runs at the end of every mb_watchdog_arm of this process until it is replaced (fn
 * NULL: none): rank 0's heartbeat to idle processes (core/idle.h). Arm calls lie between
 * measurements, never inside a timed loop. */
void mb_watchdog_on_arm(struct mb_watchdog *wd, void (*fn)(void *), void *arg);

#endif
