/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-MPI1 and IMB-EXT methodology constants: the standard-mode values of the guide's
 * settings.h (IMB guide 5.2.1, Table 19). The -iter/-time/-mem flags override some at run time;
 * these defaults never change. */
#ifndef MB_IMB_SETTINGS_H
#define MB_IMB_SETTINGS_H

#define MB_IMB_MSGSPERSAMPLE  1000 /* max repetitions per message length (5.2.8) */
#define MB_IMB_MSGS_NONAGGR   100  /* max repetitions, non-aggregate mode (EXT) */
#define MB_IMB_OVERALL_VOL_MB 40   /* at most this many MB per sample (Table 19: 40 MBytes) */
#define MB_IMB_MINMSGLOG      0    /* second smallest length is 2^MINMSGLOG (0 comes first) */
#define MB_IMB_MAXMSGLOG      22   /* largest length 2^22 = 4 MB */
#define MB_IMB_N_WARMUP       2    /* untimed runs before a benchmark (5.2.6) */
#define MB_IMB_N_BARR         2    /* barriers before each timed loop (5.2.7) */
#define MB_IMB_NPMIN          2    /* default smallest process count (5.1.1) */
#define MB_IMB_ASSIGN_SIZE    4    /* sizeof(assign_type): warm-up message length (5.2.6) */
#define MB_IMB_WINDOW_SIZE    256  /* Intel IMB 2021.11 -window_size default (MPI1_suite.cpp) */
/* -warm_up on (Intel IMB 2019+'s option, not IMB 3.1): n / WARMUP_DIVISOR untimed samples of
 * each length before its timed loop, at least min(n, WARMUP_MIN) for IMB 3.1's benchmarks
 * (Intel's IMB_warm_up.c after 2021.11, commit 46e8757: WARMUP_PERCENT 10, MIN_WARMUP_ITERS
 * 10), at least 1 when n > 1 for those whose original is 2021.11 (its IMB_warm_up.c). */
#define MB_IMB_WARMUP_DIVISOR 10
#define MB_IMB_WARMUP_MIN     10

/* IMB-IO: the standard-mode values of the guide's settings_io.h (5.2.1): at most 50
 * repetitions (10 non-aggregate), 16 MB per sample, I/O portions 0, 1, ..., 2^24 bytes,
 * no warm-up (5.2.6 names MPI1 and EXT only), one process is enough (5.1.1). */
#define MB_IMB_IO_MSGSPERSAMPLE  50
#define MB_IMB_IO_MSGS_NONAGGR   10
#define MB_IMB_IO_OVERALL_VOL_MB 16
#define MB_IMB_IO_MAXMSGLOG      24
#define MB_IMB_IO_NPMIN          1
#define MB_IMB_IO_FILENAME       "IMB_out" /* settings_io.h FILENAME (5.2.3.2) */
#define MB_IMB_IO_ASSIGN_SIZE    4         /* sizeof(int), IMB-IO's assign_type (5.2.5) */
/* mpibench's up-front space check (docs/adr/io-space-check.md): room per scratch file beyond
 * its bytes, for a partly used last block and the file system's own bookkeeping (indirect
 * blocks, extents), and the MPI library's shared-pointer companion file. */
#define MB_IMB_IO_FILE_SLACK (64 * 1024)
/* TARGET_CPU_SECS: CPU_Exploit time per non-blocking transfer. The IMB 3.1 program's
 * IMB_settings_io.h sets 0.01 s (line 145; Intel IMB 2021 too), which every published IMB-IO
 * table used; the guide's listings (5.2.1, 5.2.8.3) print 0.1 s, available as -t_cpu 0.1
 * (docs/adr/program-imb-io-t-cpu.md). */
#define MB_IMB_TARGET_CPU_SECS 0.01

/* -time (guide 5.1.2.6: preparatory runs of "~1 second overhead"; IMB 3.1 IMB_mem_manager.c):
 * after one repetition, a preparatory run of about PREP_SECS seconds, at most PREP_MAX
 * repetitions. A row below MIN_REPS repetitions (or below the -iter rule's count, if that is
 * smaller) is printed with a warning: 10 is the fewest IMB 3.1's standard settings give an
 * IMB-MPI1 row (OVERALL_VOL 40 MB over 4 MB). */
#define MB_IMB_TIME_PREP_SECS 1.0
/* -iter_policy dynamic without -time: Intel IMB 2021's SECS_PER_SAMPLE (IMB_settings.h). */
#define MB_IMB_DYNAMIC_SECS  10.0
#define MB_IMB_TIME_PREP_MAX 1000
#define MB_IMB_TIME_MIN_REPS 10
/* Robustness on a loaded node (docs/adr/program-time-repetitions.md): the first sample is the
 * shortest of up to FIRST_TRIES, and the preparatory run's time per sample that of the fastest
 * of BATCHES batches, so that preempted samples or batches do not set a row's count. 20, not
 * 5: where the first sample was slow the preparatory run is short (10-30 samples), and 5
 * batches of a few samples were all preempted beside 3 busy loops on 2 cores (2 repetitions
 * for a 10 us Exchange); 20 batches are single samples there, of 50 samples in a full run. */
#define MB_IMB_TIME_FIRST_TRIES 3
#define MB_IMB_TIME_BATCHES     20

/* Default -mem cap: this fraction of the node's memory per process (guide 5.1.2.7 leaves the
 * default to IMB_mem_info.h; see docs/adr/imb-memory.md). */
#define MB_IMB_DEFAULT_MEM_FRACTION 0.5

#define MB_GB (1024.0 * 1024.0 * 1024.0) /* -mem is in GBytes of 2^30 bytes */

#endif
