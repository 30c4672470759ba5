/* SPDX-License-Identifier: BSD-3-Clause */
/* The repetition policy under -time (IMB 3.1 guide 5.1.2.6; IMB 3.1 IMB_mem_manager.c,
 * IMB_init_buffers_iter): pure functions, so that the rule is written once and unit-tested.
 * The IMB driver measures the times these functions ask for; nothing here reads the clock. */
#ifndef MB_IMB_TIME_RULE_H
#define MB_IMB_TIME_RULE_H

#include <stddef.h>

/* -time_rule: which reading of -time runs (docs/adr/program-time-repetitions.md). */
enum mb_imb_time_rule {
    MB_IMB_TIME_PROGRAM = 0, /* IMB 3.1's program: 1 + limit/t, never more than a shorter length */
    MB_IMB_TIME_GUIDE = 1    /* the guide's words: the most repetitions that fit the limit */
};

/* The preparatory run's repetitions, from the time of one repetition t_one (seconds): about one
 * second's worth (1000 below 1 ms), within 1..n_rule. The processes agree on the largest. */
long mb_imb_time_prep_reps(long n_rule, double t_one);

/* The repetitions of length lens[k] under a -time limit, given the preparatory run's time per
 * repetition and the counts chosen for lens[0..k-1] (0 = that length did not run). n_rule is
 * the count the -iter rule gives this length; the result is within 1..n_rule.
 * MB_IMB_TIME_PROGRAM: t = 1 + limit/per_rep, then, against every earlier length, at most its
 * count when it was shorter and at least its count otherwise, so that counts never grow with
 * the length. MB_IMB_TIME_GUIDE: the most repetitions whose run takes at most limit, each
 * length on its own. */
long mb_imb_time_reps(enum mb_imb_time_rule rule, long n_rule, double limit, double per_rep,
                      const long long *lens, const long *counts, size_t k);

/* The guide's reading alone: the largest count <= n_max whose run takes at most limit seconds
 * at per_rep seconds per repetition; at least 1. */
long mb_imb_reps_for_time(long n_max, double limit, double per_rep);

/* The fewest repetitions a -time row should have: the rule's count, but at most
 * MB_IMB_TIME_MIN_REPS. A row below it is printed with a warning. */
long mb_imb_time_min_reps(long n_rule);

#endif
