/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff methodology constants (docs/architecture.md, property 6): b_eff paper §3 ("Additional
 * rules") and the constants of the b_eff 3.6 source. Everything that decides what is measured and
 * how long lives here. */
#ifndef MB_BEFF_SETTINGS_H
#define MB_BEFF_SETTINGS_H

enum {
    MB_BEFF_SIZES = 21,        /* b_eff paper §3: 21 message lengths */
    MB_BEFF_POW2 = 12,         /* sizes 2^0 ... 2^12 (1 B ... 4 kB) are fixed */
    MB_BEFF_RINGS = 6,         /* b_eff paper §3: six ring patterns enter b_eff */
    MB_BEFF_RANDOM = 30,       /* b_eff 3.6's MAX_RANDOM: default number of random rings */
    MB_BEFF_METHODS = 3,       /* Sendrecv, Alltoallv, Irecv+Isend+Waitall (b_eff paper §3) */
    MB_BEFF_MAXSR = 6,         /* at most 6 send/receive steps per iteration (3-D, 2 per dim) */
    MB_BEFF_REPS = 3,          /* b_eff paper §3: each measurement is repeated 3 times */
    MB_BEFF_REPS_MAX = 20,     /* --repetitions (and --samples, its samples) at most */
    MB_BEFF_LOOP_MAX = 300,    /* b_eff paper §3: looplength = 300 for the shortest message */
    MB_BEFF_WARMUP_SIZES = 18, /* b_eff 3.6: one untimed iteration for size indices 0..17 */
    MB_BEFF_CAL_LOOPS = 10,    /* b_eff 3.6's PRE_MSG_LOOPS: loop length of the calibration pass */
    MB_BEFF_MEM_CAP_MB = 16384 /* b_eff 3.6: L_max = min(M, 16384) MiB / 128 = at most 128 MiB */
};

/* b_eff paper §3: "The looplength is dynamically reduced to achieve an execution time for each
 * loop between 2.5 and 5 msec"; a loop outside the window is re-aimed at its middle. */
#define MB_BEFF_LOOP_TMIN   2.5e-3
#define MB_BEFF_LOOP_TMAX   5.0e-3
#define MB_BEFF_LOOP_TARGET 3.75e-3

/* --profile 3.6 (b_eff 3.6's constants, loop-length control and 60 s rule): 0.5 s per size and
 * method summed over all patterns, and the 60 s projection rule for the two largest sizes. */
#define MB_BEFF36_TIMEPERLOOP  0.5
#define MB_BEFF36_MAX_LAST_TWO 60.0
#define MB_BEFF36_MIN_REPS     2
/* --profile 3.6-test: the original's -D TEST values, for quick checks of the rules. */
#define MB_BEFF36_TEST_TIMEPERLOOP  0.005
#define MB_BEFF36_TEST_MAX_LAST_TWO 1.0

/* Default gnuplot y range of the .gps script (as in b_eff 3.6). */
#define MB_BEFF_YMIN 0.01
#define MB_BEFF_YMAX 10000.0

#endif
