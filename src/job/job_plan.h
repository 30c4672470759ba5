/* SPDX-License-Identifier: BSD-3-Clause */
/* The main job's phases (docs/main-job.md): which suites run, in which order, with
 * which arguments in each mode. One table row per phase; the job runs each through the
 * library entry point, as if started under the suite's original name. */
#ifndef MB_JOB_PLAN_H
#define MB_JOB_PLAN_H

#include <stddef.h>

enum mb_job_mode { MB_JOB_DEFAULT, MB_JOB_QUICK, MB_JOB_FULL, MB_JOB_SIM, MB_JOB_MODES };

enum { MB_JOB_MAX_ARGS = 16 };

/* The main job's samples per row without --samples (docs/adr/samples-default.md): the
 * median's 95 % interval from order statistics x(2)..x(9), coverage 0.979, with the IMB phases'
 * repetitions split among them, so that they take the time they took as one loop. */
enum { MB_JOB_SAMPLES = 10 };

struct mb_job_phase {
    const char *title;   /* "Presta com: pair bandwidth" */
    const char *prog;    /* original name: argv[0] of the phase, and its files PROG.txt/.jsonl */
    int even;            /* needs an even number of processes (Presta's pairs) */
    int pair;            /* needs at least 2 processes (IMB-EXT's Unidir: origin and target) */
    int hosts2;          /* needs processes on at least 2 hosts (mpibench map) */
    int subcommand;      /* a suite without an original name: started as `mpibench PROG` */
    const char *io_flag; /* the option that takes the scratch directory, or NULL */
    int samples;  /* takes the job's --samples K (rows of timed loops, docs/adr/samples.md) */
    int host_cpu; /* measures computation against communication (IMB-NBC's overlap) */
    const char *args[MB_JOB_MODES][MB_JOB_MAX_ARGS]; /* NULL-terminated; "{P}": processes */
    /* The estimate of the phase's duration (mb_job_phase_estimate): the phase's own schedule
     * where it has one - the option whose seconds it runs for (b_eff_io's -T) and that option's
     * default when the mode does not give it -, else seconds: measured on 4 processes of 2
     * cores. */
    const char *schedule_option;
    long schedule_default;
    double seconds[MB_JOB_MODES];
};

size_t mb_job_phase_count(void);
const struct mb_job_phase *mb_job_phase_at(size_t i);
const char *mb_job_mode_name(enum mb_job_mode m);

/* The phase's expected duration in mode m, seconds, from the plan alone - never from how fast
 * earlier phases went (a time-driven phase takes its schedule on any machine). */
double mb_job_phase_estimate(const struct mb_job_phase *p, enum mb_job_mode m);

/* Why the phase cannot run on nprocs processes, or NULL. */
const char *mb_job_skip_reason(const struct mb_job_phase *p, int nprocs, int nhosts);

#endif
