/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU_Exploit (IMB guide 4.2.5.1): the CPU work that runs while non-blocking I/O is in
 * flight - a fully vectorisable product of a 100 x 100 float matrix with a vector, repeated.
 * The driver calibrates it (imb_driver.c, the only IMB code that reads the clock): the
 * undisturbed Mflop/s rate and the repetition count that takes the target time. */
#ifndef MB_IMB_CPU_H
#define MB_IMB_CPU_H

enum { MB_IMB_CPU_N = 100 };

struct mb_imb_cpu {
    float *a, *x, *y;
    long reps;         /* matrix-vector products per call */
    double mflops;     /* undisturbed rate */
    double t_cpu_usec; /* one call, undisturbed (t_CPU, guide 4.2.5.2) */
};

void mb_imb_cpu_init(struct mb_imb_cpu *c);
void mb_imb_cpu_free(struct mb_imb_cpu *c);

/* reps matrix-vector products (2 * N * N flops each). */
void mb_imb_cpu_work(struct mb_imb_cpu *c, long reps);

#endif
