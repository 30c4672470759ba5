/* SPDX-License-Identifier: BSD-3-Clause */
/* The 21 message lengths of b_eff and the buffer size (b_eff paper §3; details as in b_eff 3.6). */
#include "beff/beff.h"

#include <math.h>

long long mb_beff_lmax(long memory_mb)
{
    /* b_eff paper §3 and b_eff 3.6: L_max = min(128 MB, memory per processor / 128). b_eff 3.6's
     * guard, meant for 32-bit ints, caps on every platform (its quirk Q1: the size test counts
     * bytes); mpibench keeps the cap. */
    long m = memory_mb < MB_BEFF_MEM_CAP_MB ? memory_mb : MB_BEFF_MEM_CAP_MB;
    return (long long)m * (1024 * 1024 / 128);
}

double mb_beff_sizes(long memory_mb, long long sizes[MB_BEFF_SIZES])
{
    const long long lmax = mb_beff_lmax(memory_mb);
    double f, value = (double)(1 << MB_BEFF_POW2);

    sizes[0] = 1;
    for (int k = 1; k <= MB_BEFF_POW2; k++)
        sizes[k] = 2 * sizes[k - 1];
    /* As b_eff 3.6: a running double multiplied by f eight times, each value rounded half up. */
    f = pow((double)lmax / value, 1.0 / (MB_BEFF_SIZES - 1 - MB_BEFF_POW2));
    for (int k = MB_BEFF_POW2 + 1; k < MB_BEFF_SIZES; k++) {
        value *= f;
        sizes[k] = (long long)(value + 0.5);
    }
    return f;
}

size_t mb_beff_buffer_bytes(long memory_mb)
{
    return (size_t)MB_BEFF_MAXSR * ((size_t)mb_beff_lmax(memory_mb) + 16);
}
