/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU_Exploit (IMB guide 4.2.5.1): the CPU work that runs while non-blocking I/O is in
 * flight - a fully vectorisable product of a 100 x 100 float matrix with a vector, repeated.
 * Its calibration (the Mflop/s rate, the repetition count that takes the target time, and
 * t_CPU) is written here once, over a timer the driver supplies (imb_driver.c, the only IMB
 * code that reads the clock), so that a unit test can run it on made-up times. */
#ifndef MB_IMB_CPU_H
#define MB_IMB_CPU_H

enum { MB_IMB_CPU_N = 100 };

/* -t_cpu_rule: how the calibration measures (docs/adr/program-imb-io-cpu-calibration.md). */
enum mb_imb_cpu_rule {
    MB_IMB_CPU_PROGRAM = 0, /* IMB 3.1 IMB_cpu_exploit.c: one rate probe, then one timed call */
    MB_IMB_CPU_BEST = 1     /* the fastest of 32 pieces of the rate probe and of up to 5 calls */
};

struct mb_imb_cpu {
    float *a, *x, *y;
    long reps;         /* matrix-vector products per call */
    double mflops;     /* the calibration's rate */
    double t_cpu_usec; /* one call, as the calibration timed it (t_CPU, guide 4.2.5.2) */
    int probes;        /* timed runs the calibration made */
};

void mb_imb_cpu_init(struct mb_imb_cpu *c);
void mb_imb_cpu_free(struct mb_imb_cpu *c);

/* reps matrix-vector products (2 * N * N flops each). */
void mb_imb_cpu_work(struct mb_imb_cpu *c, long reps);

/* The driver's timer: runs reps products of c (mb_imb_cpu_work) between two clock reads and
 * returns the seconds they took. */
typedef double (*mb_imb_cpu_timer)(void *arg, struct mb_imb_cpu *c, long reps);

/* The calibration (IMB's initialize step) under a rule, every run timed by timer: sets
 * c->mflops, c->reps (at least 1), c->t_cpu_usec and c->probes. */
void mb_imb_cpu_calibrate_by(struct mb_imb_cpu *c, double target_secs, enum mb_imb_cpu_rule rule,
                             mb_imb_cpu_timer timer, void *arg);

#endif
