/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_cpu.h"

#include "core/error.h"

#include <stdlib.h>

void mb_imb_cpu_init(struct mb_imb_cpu *c)
{
    c->a = mb_xmalloc(sizeof(float) * MB_IMB_CPU_N * MB_IMB_CPU_N);
    c->x = mb_xmalloc(sizeof(float) * MB_IMB_CPU_N);
    c->y = mb_xmalloc(sizeof(float) * MB_IMB_CPU_N);
    for (int i = 0; i < MB_IMB_CPU_N; i++) {
        c->x[i] = (float)i;
        c->y[i] = 0.0f;
        for (int j = 0; j < MB_IMB_CPU_N; j++)
            c->a[i * MB_IMB_CPU_N + j] = 1.0f / MB_IMB_CPU_N;
    }
    c->reps = 1;
    c->mflops = 0;
    c->t_cpu_usec = 0;
    c->probes = 0;
}

void mb_imb_cpu_free(struct mb_imb_cpu *c)
{
    free(c->a);
    free(c->x);
    free(c->y);
    c->a = c->x = c->y = NULL;
}

/* y = A x, then the roles of x and y swap: every product depends on the previous one, so
 * no repetition can be skipped or hoisted, and A's rows average x, so the values stay finite
 * for any number of calls. */
void mb_imb_cpu_work(struct mb_imb_cpu *c, long reps)
{
    const float *restrict a = c->a;
    float *in = c->x, *out = c->y;

    for (long r = 0; r < reps; r++) {
        for (int i = 0; i < MB_IMB_CPU_N; i++) {
            float s = 0.0f;
            for (int j = 0; j < MB_IMB_CPU_N; j++)
                s += a[i * MB_IMB_CPU_N + j] * in[j];
            out[i] = s;
        }
        float *t = in;
        in = out;
        out = t;
    }
}

/* The rate probe's products: about 5e7 flops (IMB 3.1 IMB_cpu_exploit.c, 2501 products). */
static long probe_reps(void)
{
    return 50000000L / (2L * MB_IMB_CPU_N * MB_IMB_CPU_N) + 1;
}

static double timed(struct mb_imb_cpu *c, mb_imb_cpu_timer timer, void *arg, long reps)
{
    c->probes++;
    return timer(arg, c, reps);
}

/* IMB 3.1 IMB_cpu_exploit.c, called once per run with initialize = 1 (IMB_init.c): one timed
 * rate probe gives the products per second, target_secs of them make a call, and one timed
 * call is t_CPU. A probe that the clock did not see (0 s, where IMB would divide by zero)
 * is repeated with 4 times the products. */
static void calibrate_program(struct mb_imb_cpu *c, double target_secs, mb_imb_cpu_timer timer,
                              void *arg)
{
    const double flops = 2.0 * MB_IMB_CPU_N * MB_IMB_CPU_N;
    long reps = probe_reps();
    double t = timed(c, timer, arg, reps);

    while (t <= 0 && reps < (1L << 40)) {
        reps *= 4;
        t = timed(c, timer, arg, reps);
    }
    c->mflops = t > 0 ? (double)reps * flops * 1e-6 / t : 0.0;
    c->reps = t > 0 ? (long)(target_secs * (double)(long)((double)reps / t)) : 1;
    if (c->reps < 1)
        c->reps = 1;
    c->t_cpu_usec = 1e6 * timed(c, timer, arg, c->reps);
}

/* -t_cpu_rule best: the rate is the best of PIECES short pieces of the rate probe, and t_CPU
 * the best of up to CALIBRATIONS calls (as many as fit about CALIBRATION_SECS beyond the
 * first; one above -t_cpu 0.04), so that no single preemption decides either - the
 * guide's "obtained by running without any obstruction" (4.2.5.1). */
enum { PIECES = 32, CALIBRATIONS = 5 };
#define CALIBRATION_SECS 0.04

static void calibrate_best(struct mb_imb_cpu *c, double target_secs, mb_imb_cpu_timer timer,
                           void *arg)
{
    const double flops = 2.0 * MB_IMB_CPU_N * MB_IMB_CPU_N;
    long reps = probe_reps();
    double t, best;

    /* The whole probe, more products while it takes under 0.01 s (a coarse clock). */
    for (;;) {
        t = timed(c, timer, arg, reps);
        if (t >= 0.01 || reps > (1L << 40))
            break;
        reps *= 4;
    }
    if (reps >= PIECES) {
        const long piece = reps / PIECES;
        for (int i = 0; i < PIECES; i++) {
            best = timed(c, timer, arg, piece) * (double)reps / (double)piece;
            if (best > 0 && best < t)
                t = best;
        }
    }
    c->mflops = t > 0 ? (double)reps * flops * 1e-6 / t : 0.0;
    c->reps = t > 0 ? (long)(target_secs * (double)reps / t) : 1;
    if (c->reps < 1)
        c->reps = 1;
    best = 0;
    for (int i = 0; i < CALIBRATIONS && (i == 0 || (double)i * target_secs <= CALIBRATION_SECS);
         i++) {
        t = timed(c, timer, arg, c->reps);
        if (i == 0 || t < best)
            best = t;
    }
    c->t_cpu_usec = best * 1e6;
}

void mb_imb_cpu_calibrate_by(struct mb_imb_cpu *c, double target_secs, enum mb_imb_cpu_rule rule,
                             mb_imb_cpu_timer timer, void *arg)
{
    c->probes = 0;
    if (rule == MB_IMB_CPU_BEST)
        calibrate_best(c, target_secs, timer, arg);
    else
        calibrate_program(c, target_secs, timer, arg);
}
