/* Hang watchdog (SPEC §8, --timeout SEC). Before each measurement the driver arms it with a
 * label naming suite, benchmark, process count and message size; if the measurement is not
 * disarmed in time the job ends with that message and exit status 1.
 *
 * The watchdog is a helper thread that makes no MPI call (the process stays valid under
 * MPI_THREAD_FUNNELED): it writes the message and _exit(1)s, and the MPI launcher then
 * terminates the other ranks (both Open MPI's mpirun and MPICH's hydra do). */
#ifndef MB_WATCHDOG_H
#define MB_WATCHDOG_H

struct mb_watchdog;

/* NULL when seconds <= 0: arming and disarming NULL does nothing. */
struct mb_watchdog *mb_watchdog_start(double seconds, const char *prog);
void mb_watchdog_arm(struct mb_watchdog *wd, const char *label);
void mb_watchdog_disarm(struct mb_watchdog *wd);
void mb_watchdog_stop(struct mb_watchdog *wd);

#endif
