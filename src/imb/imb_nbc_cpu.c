/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_nbc_cpu.h"

enum { N = 10 };

/* The original's matrix is ones and its vector zeros, so its result stays zero; here all three
 * are zeros (no denormals either way: the same time). They are scratch whose values never
 * change, in static storage because that is where the original keeps them, and without
 * optimisation their addressing is part of the product's time. */
#if defined(__clang__)
__attribute__((optnone, noinline))
#elif defined(__GNUC__)
__attribute__((optimize("O0"), noinline))
#endif
void mb_imb_nbc_cpu_work(long reps)
{
    static float a[N][N], x[N], y[N];

    for (long r = 0; r < reps; r++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                x[i] = x[i] + a[i][j] * y[j];
}

void mb_imb_nbc_cpu_rate(struct mb_imb_nbc_cpu *c, double secs)
{
    c->mflops = (double)MB_IMB_NBC_CPU_PROBE * 2.0 * N * N * 1e-6 / secs;
    c->per_sec = (long)(1.0 / secs * (double)MB_IMB_NBC_CPU_PROBE);
}

long mb_imb_nbc_cpu_reps(const struct mb_imb_nbc_cpu *c, double t_pure_secs)
{
    const long reps = (long)(t_pure_secs * (double)c->per_sec);
    return reps > 1 ? reps : 1;
}
