/* SPDX-License-Identifier: BSD-3-Clause */
/* The repetition policy under -time (imb_time_rule.h). IMB 3.1 IMB_mem_manager.c
 * (IMB_init_buffers_iter, lines 752-835 of the 3.1 sources): one run of 1 repetition, a
 * preparatory run of about 1 s (at most 1000 repetitions), then n = min(the -iter rule, the
 * counts of shorter lengths, 1 + limit/t). A row's count rests on a whole preparatory run,
 * never on one sample that the scheduler may have stretched. */
#include "imb/imb_time_rule.h"

#include "imb/imb_settings.h"

#include <math.h>

static long clamp_count(double n, long lo, long hi)
{
    if (!(n >= (double)lo)) /* also NaN */
        return lo;
    return n >= (double)hi ? hi : (long)n;
}

long mb_imb_time_prep_reps(long n_rule, double t_one)
{
    double n;

    if (n_rule < 1)
        return 1;
    /* IMB 3.1: 1000 below 1 ms, else the count for 1 s rounded to nearest, at least 1. */
    if (t_one < MB_IMB_TIME_PREP_SECS / MB_IMB_TIME_PREP_MAX)
        n = MB_IMB_TIME_PREP_MAX;
    else if (t_one < MB_IMB_TIME_PREP_SECS)
        n = floor(MB_IMB_TIME_PREP_SECS / t_one + 0.5);
    else
        n = 1;
    return clamp_count(n, 1, n_rule);
}

long mb_imb_reps_for_time(long n_max, double limit, double per_rep)
{
    if (per_rep <= 0)
        return n_max;
    return clamp_count(floor(limit / per_rep), 1, n_max);
}

long mb_imb_time_reps(enum mb_imb_time_rule rule, long n_rule, double limit, double per_rep,
                      const long long *lens, const long *counts, size_t k)
{
    long t;

    if (n_rule < 1)
        return 1;
    if (rule == MB_IMB_TIME_GUIDE)
        return mb_imb_reps_for_time(n_rule, limit, per_rep);
    /* IMB 3.1 keeps the rule's count when the preparatory run took no measurable time. */
    t = per_rep > 0 ? clamp_count(1.0 + limit / per_rep, 1, n_rule) : n_rule;
    for (size_t i = 0; i < k; i++) {
        if (counts[i] <= 0)
            continue; /* skipped for -mem or the int range: no count to follow */
        if (lens[i] < lens[k])
            t = counts[i] < t ? counts[i] : t;
        else
            t = counts[i] > t ? counts[i] : t;
    }
    return t < n_rule ? t : n_rule;
}

long mb_imb_time_min_reps(long n_rule)
{
    return n_rule < MB_IMB_TIME_MIN_REPS ? n_rule : MB_IMB_TIME_MIN_REPS;
}
