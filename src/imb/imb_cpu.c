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
