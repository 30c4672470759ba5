/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings of b_eff: the struct behind its option rows (beff_options.c). */
#ifndef MB_BEFF_CONFIG_H
#define MB_BEFF_CONFIG_H

#include "core/config.h"

/* b_eff settings (b_eff 3.6's flags and mpibench's own). Zero means "the standard value" until
 * validation. */
enum mb_beff_profile { MB_BEFF_PAPER = 0, MB_BEFF_V36 = 1, MB_BEFF_V36_TEST = 2 };
struct mb_beff_config {
    char *prefix;        /* -f: protocol file prefix (resolved: never NULL after validation) */
    double ymin, ymax;   /* -yrange min:max for the gnuplot script */
    long memory_mb;      /* --memory MB per process (resolved from the node if not given) */
    long random;         /* --random N random rings entering b_eff */
    long long seed;      /* --seed S for the random rings (resolved: time-based if not given) */
    int seed_given;      /* 1 if --seed was on the command line */
    int profile;         /* --profile: enum mb_beff_profile */
    long repetitions;    /* --repetitions N */
    long max_looplength; /* --max-looplength N: loop length bound (0 = none, 3.6 profiles) */
};

static inline const struct mb_beff_config *mb_beff_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

#endif
