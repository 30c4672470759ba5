/* Hang watchdog (SPEC §8, --timeout SEC). Before each measurement the driver arms it with a
 * label naming suite, benchmark, process count and message size; if the measurement is not
 * disarmed in time the job ends with that message and exit status 1.
 *
 * It is a SIGALRM interval timer, not a thread: a second thread would need
 * MPI_Init_thread(MPI_THREAD_FUNNELED), which costs Open MPI 4.1 tens of nanoseconds per
 * message (measured by bench/harness_figures.py) - more than the harness may add. The handler
 * writes the prepared message and _exit(1)s; the launcher (Open MPI's mpirun, MPICH's hydra)
 * then terminates the other ranks. Only rank 0 runs one. */
#ifndef MB_WATCHDOG_H
#define MB_WATCHDOG_H

struct mb_watchdog;

/* NULL when seconds <= 0: arming and disarming NULL does nothing. */
struct mb_watchdog *mb_watchdog_start(double seconds, const char *prog);
void mb_watchdog_arm(struct mb_watchdog *wd, const char *label);
void mb_watchdog_disarm(struct mb_watchdog *wd);
void mb_watchdog_stop(struct mb_watchdog *wd);

#endif
