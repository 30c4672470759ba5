/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings of the IMB family (IMB-MPI1, IMB-EXT, IMB-IO): the struct behind the suites'
 * option rows (imb_options.c), owned by the IMB code, not by core. */
#ifndef MB_IMB_CONFIG_H
#define MB_IMB_CONFIG_H

#include "core/config.h"

#include <stddef.h>

enum { MB_IMB_N_SAME_AS_31 = 8 };

/* IMB settings (IMB 3.1 guide 5.1.2, 5.2.1). Zero means "the standard value". */
struct mb_imb_config {
    int family;              /* index into mb_imb_families (set by the suite's defaults) */
    long npmin;              /* -npmin */
    long multi;              /* -multi 0|1; -1 = primary benchmarks */
    double off_cache_mb;     /* -off_cache size in MB; -1 = detect; 0 = off */
    long off_cache_line;     /* -off_cache ...,line bytes */
    long msgspersample;      /* -iter a */
    long overall_vol_mb;     /* -iter a,b (MB) */
    long msgs_nonaggr;       /* -iter a,b,c */
    double time_limit;       /* -time S; 0 = none */
    double mem_gb;           /* -mem G; 0 = default cap */
    long map_rows, map_cols; /* -map PxQ; 0 = none */
    char *msglen_file;       /* -msglen FILE */
    char *input_file;        /* -input FILE */
    long long *lengths;      /* message lengths from -msglen; NULL = standard list */
    size_t n_lengths;
    int *selected; /* benchmark table indices (| MB_IMB_SEL_MULTI) */
    size_t n_selected;
    /* Resolved by rank 0 during validation so that every rank uses the same values. */
    unsigned long long cache_bytes; /* off-cache: last-level cache size; 0 = off */
    unsigned long long cache_line;  /* off-cache: cache line size */
    unsigned long long mem_cap;     /* message-buffer cap per process in bytes */
    /* IMB-EXT --info key=value, one "key=value\n" line each (guide 5.2.3.3 User_Set_Info);
     * IMB-IO passes the same entries to MPI_File_open and MPI_File_set_view. */
    char *win_info;
    size_t win_info_len; /* bytes including the terminating NUL; 0 when none */
    /* IMB-IO (IMB 3.1 guide 5.2.3.2; docs/adr/scratch-files.md): where the scratch files
     * go and what they are called, whether an existing file of that name may be overwritten
     * (--force) or the files kept (-keep), and the CPU_Exploit time per non-blocking transfer
     * (TARGET_CPU_SECS). */
    char *io_dir;  /* --dir; NULL = the working directory */
    char *io_file; /* --file; NULL = IMB_out */
    int io_force;
    int io_keep;
    double cpu_secs; /* -t_cpu (--cpu-secs); 0 = TARGET_CPU_SECS */
    /* -t_cpu_rule program|best: how CPU_Exploit is calibrated (enum mb_imb_cpu_rule; 0 = IMB
     * 3.1's program; docs/adr/program-imb-io-cpu-calibration.md). */
    int cpu_rule;
    /* -open_close_reps program|guide: Open_Close's repetitions, MSGS_NONAGGR as IMB 3.1's
     * program (0) or MSGSPERSAMPLE as the guide's 5.2.8 reads (1;
     * docs/adr/program-imb-io-open-close-reps.md). */
    int open_close_guide;
    /* -io_barriers program|guide: the barriers before a timed loop on the file's communicator, as
     * IMB 3.1's program (0: MPI_COMM_SELF for private files), or on the group as the guide's
     * 5.2.7 reads (1; docs/adr/program-imb-io-timer-sync.md). */
    int io_barriers_guide;
    /* -alloc malloc|mmap|mpi: an mb_buf_source; 0 = the family's, as IMB 3.1. */
    int alloc;
    /* -warm_up on: before every length's timed loop, untimed samples of that length, as
     * Intel IMB 2019 and later do (off: IMB 3.1, guide 5.2.6; docs/adr/imb-warm-up.md). */
    int warm_up_each;
    /* -warm_up was given; without it each row follows its program: off for IMB 3.1's
     * benchmarks, on for Intel IMB 2021.11's (docs/adr/imb-2021-mpi1-benchmarks.md). */
    int warm_up_given;
    /* IMB-EXT -win_disp: where the transfers of one sample go in the window and the origin
     * buffer (docs/adr/program-ext-displacement.md). */
    int win_disp;
    /* -time_rule program|guide: how -time chooses repetitions (enum mb_imb_time_rule; 0 = IMB
     * 3.1's program; docs/adr/program-time-repetitions.md). */
    int time_rule;
    /* -prime on: untimed samples at the block's largest length after the warm-up, mpibench's own
     * addition (off: IMB 3.1; docs/adr/prime.md). */
    int prime;
    /* -order guide: a default IMB-MPI1 run follows the guide's list 3.2 instead of IMB 3.1's
     * program (docs/adr/program-mpi1-order.md). */
    int guide_order;
    int guide_order_filled; /* validation selected every benchmark in that order */
    /* IMB-EXT -win_scope: a window per message length or one per block
     * (docs/adr/program-ext-window-per-length.md). */
    int win_scope;
    /* -buf_scope run|block: message buffers kept from block to block and grown per length, as
     * IMB 3.1 keeps them, or allocated per block (docs/adr/program-imb-buffer-lifetime.md). */
    int buf_scope;
    /* -buf_fill length|block: the send buffer written and the receive buffer zeroed before
     * every message length, as IMB 3.1 does, or only when a block allocates or grows them
     * (docs/adr/program-imb-buffer-fill.md). */
    int buf_fill;
    /* Intel IMB 2019-2021's options (docs/adr/imb-2021-options.md). -msglog [min:]max: the
     * standard lengths 0 and 2^min .. 2^max instead of 2^0 .. 2^maxmsglog. */
    int msglog_given, msglog_min, msglog_max;
    char *msgsize; /* -msgsize a,b,c: its lengths fill lengths, as -msglen's file does */
    /* -include / -exclude as typed, and the benchmarks they name (MB_IMB_SEL values); the
     * validation puts the result into selected. */
    char *include_text, *exclude_text;
    int *included, *excluded;
    size_t n_included, n_excluded;
    int iter_policy;  /* -iter_policy: enum mb_imb_iter_policy */
    int no_zero_size; /* -zero_size off: no row for length 0 */
    long window_size; /* -window_size: Uniband's and Biband's window; 0 = 256 (Intel's) */
    /* How the repetitions of a family whose original is Intel IMB 2021.11 (IMB-NBC) line up:
     * -sync on: a barrier after every repetition, each timed alone (2021.11's default);
     * -root_shift on: the root moves every repetition (2021.11's default: off, rank 0);
     * -imb_barrier on: IMB's own dissemination barrier instead of MPI_Barrier. The IMB 3.1
     * families run the first two at 3.1's values (mb_imb_defaults) and accept only those. */
    int sync_each, root_shift, imb_barrier;
    /* -time_cap off: no time-out row for Intel IMB 2021.11's benchmarks (imb_plan.h,
     * mb_imb_block_time_cap); on (0 here) as the program. */
    int time_cap_off;
    /* Options accepted at the value IMB 3.1 runs (-sync off, ...): 1 when given. */
    int same_as_31[MB_IMB_N_SAME_AS_31];
};

/* -iter_policy values: DEFAULT is IMB 3.1's rule (the -iter counts, -time only when given);
 * the others are Intel IMB 4.0's (IMB_mem_manager.c): OFF msgspersample repetitions at every
 * length, DYNAMIC the -iter rule cut to the -time limit (10 s by default), MULTIPLE_NP a count
 * that is a multiple of the process count, AUTO that for rooted benchmarks and DYNAMIC for the
 * others. */
enum mb_imb_iter_policy {
    MB_IMB_ITER_DEFAULT = 0,
    MB_IMB_ITER_OFF = 1,
    MB_IMB_ITER_DYNAMIC = 2,
    MB_IMB_ITER_MULTIPLE_NP = 3,
    MB_IMB_ITER_AUTO = 4
};

/* -win_disp values. ZERO: every transfer at displacement 0, or rotating through the off-cache
 * buffers with -off_cache (IMB 3.1 IMB_ones_unidir.c, IMB_ones_accu.c); SECTIONS: transfer i
 * in section i, disjoint within an epoch (IMB 3.1 guide 4.2.2.2, Table 20). */
enum { MB_IMB_WIN_DISP_ZERO = 0, MB_IMB_WIN_DISP_SECTIONS = 1 };

/* -win_scope values. LENGTH: the one-sided rows create a window over the length's buffers
 * before its timed loops and free it after them (IMB 3.1 IMB_init_transfer.c and
 * IMB_close_transfer, called per length from IMB_mem_manager.c and IMB.c; guide 5.2.3.1 "a
 * window of size X"); BLOCK: one window over the block's largest buffers serves every length. */
enum { MB_IMB_WIN_SCOPE_LENGTH = 0, MB_IMB_WIN_SCOPE_BLOCK = 1 };

/* -buf_scope values. RUN: a process's message buffers live from its first block to the end of
 * the run and grow when a length needs more, the smaller one freed before the larger one is
 * allocated (IMB 3.1 IMB_alloc_buf, called per length from IMB_init_buffers_iter; freed in
 * IMB_free_all); BLOCK: each block allocates buffers for its largest length and frees them
 * after its last; LENGTH: each length allocates what it needs and frees it after its row
 * (Intel IMB 2021.11: original_benchmark.h frees both buffers after every length,
 * IMB_del_s_buf, IMB_del_r_buf). */
enum { MB_IMB_BUF_SCOPE_RUN = 0, MB_IMB_BUF_SCOPE_BLOCK = 1, MB_IMB_BUF_SCOPE_LENGTH = 2 };

/* -buf_fill values. LENGTH: before each length's timed loops its part of the send buffer is
 * written with the pattern and its part of the receive buffer zeroed (IMB 3.1 IMB_set_buf,
 * called per length from IMB_init_buffers_iter); BLOCK: the buffers are written only when a
 * block allocates or grows them. */
enum { MB_IMB_BUF_FILL_LENGTH = 0, MB_IMB_BUF_FILL_BLOCK = 1 };

static inline const struct mb_imb_config *mb_imb_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

#endif
