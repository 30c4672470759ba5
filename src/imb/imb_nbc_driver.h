/* SPDX-License-Identifier: BSD-3-Clause */
/* The timed loops of Intel IMB 2021.11's IMB-NBC and IMB-MPI4 (src_c/IMB_bcast.c IMB_ibcast,
 * IMB_ibcast_pure, IMB_bcast_persist, IMB_bcast_persist_pure; the other kernels alike): part of
 * the IMB driver, which calls them for a row with a non-blocking start or a persistent request
 * (imb_driver.c measure), and with it the only IMB code that reads the clock. */
#ifndef MB_IMB_NBC_DRIVER_H
#define MB_IMB_NBC_DRIVER_H

#include "core/timing.h"
#include "imb/imb_bench.h"
#include "imb/imb_nbc_cpu.h"

#include <mpi.h>

/* One length's loops. */
struct mb_imb_nbc_loop {
    const struct mb_imb_bench *b;
    const struct mb_imb_args *a;
    struct mb_sync first;   /* before each loop: N_BARR barriers */
    struct mb_sync between; /* after every repetition: one barrier with -sync on, none off */
    const struct mb_imb_nbc_cpu *cpu; /* the CPU work's rate (rows with overlap) */
    /* The row's samples (--samples K): the time per repetition of each of k consecutive parts
     * of the loop that gives the row's figure (t_ovrl; t_pure for a _pure row), seconds. */
    double *kept;
    long k;
};

/* This process's figures of one length, seconds per repetition. */
struct mb_imb_nbc_times {
    double t_pure; /* start and wait */
    double t_ovrl; /* start, CPU work, wait; 0 without overlap */
    double t_cpu;  /* the CPU work inside t_ovrl */
};

/* n repetitions of start and wait (t_pure); then, for a row with overlap, CPU work sized to
 * this t_pure (mb_imb_nbc_cpu_reps, run once untimed as 2021.11's initialisation call does)
 * and n repetitions of start, work, wait (t_ovrl, t_cpu). Timed one repetition at a time, the
 * -sync barrier after each - but the barrier rows (Ibarrier, Barrier_persist) loop by loop,
 * without barriers between repetitions, as 2021.11 times them. */
void mb_imb_nbc_measure(const struct mb_imb_nbc_loop *l, long n, struct mb_imb_nbc_times *t);

/* The CPU work's rate probe, timed (2021.11 runs it at its first overlap benchmark). */
void mb_imb_nbc_calibrate(struct mb_imb_nbc_cpu *c);

#endif
