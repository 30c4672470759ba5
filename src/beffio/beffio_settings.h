/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's constants (the b_eff_io 2.1 source; b_eff paper §4-5). */
#ifndef MB_BEFFIO_SETTINGS_H
#define MB_BEFFIO_SETTINGS_H

enum {
    MB_BIO_PATTERNS = 43,        /* the pattern table (b_eff paper Table 2) */
    MB_BIO_TYPES = 5,            /* scatter, shared, separate, segmented, seg_coll */
    MB_BIO_ACCESSES = 3,         /* initial write, rewrite, read */
    MB_BIO_POSITIONS = 7,        /* reported chunk sizes 1k, +8, 32k, +8, 1M, +8, Lmax */
    MB_BIO_MAX_PARTITIONS = 10,  /* -N takes at most 10 values (b_eff_io 2.1) */
    MB_BIO_U_ACCESS = 64,        /* sum of the time units of one access method */
    MB_BIO_U_REWRITE0 = 22,      /* ... of the type-0 patterns: the default rewrite pass */
    MB_BIO_MAX_ERRORS_SHOWN = 1, /* -e: data errors printed per pattern and process */
    /* -i: at most this many hint lines. Each is a struct of MPI_MAX_INFO_KEY +
     * MPI_MAX_INFO_VAL bytes held by every process (1.3 kB with MPICH), so a 16 MiB file of
     * short lines was over 1 GB per process; "all" lets a few lines cover every partition,
     * access, type and chunk size. */
    MB_BIO_MAX_HINTS = 10000
};

/* The default scheduled time for all partitions together, seconds (b_eff_io 2.1's T_CRIT). */
#define MB_BIO_T_DEFAULT 1800L
/* A partition is "valid for comparison" when it had at least this much scheduled time: b_eff_io
 * 2.1's T_CRIT (1800 s, b_eff_io.c "Tn >= T_CRIT") with its sqrt(WR x RD) value, the b_eff
 * paper's "at least 15 minutes" with the paper's weighted value (--definition weighted,
 * docs/adr/program-beffio-headline.md). */
#define MB_BIO_T_VALID_21       1800.0
#define MB_BIO_T_VALID_WEIGHTED 900.0
/* A run that ends further than this fraction from -T says so after its execution time (the
 * schedule only bounds the write loops: docs/adr/beffio-schedule.md). */
#define MB_BIO_T_SLACK 0.1
/* Share of the scratch directory's free space a run may fill (all partitions' files stay on
 * disk from their write to their read pass, as in b_eff_io 2.1); the time-driven write loops stop
 * early rather than fill the disk (docs/adr/beffio-disk-budget.md). */
#define MB_BIO_DISK_SHARE 0.8

/* The chunk sizes of the table (bytes; kB = 1024, MB = 2^20). */
#define MB_BIO_KB 1024LL
#define MB_BIO_MB (1024LL * 1024LL)
/* Placeholders in the table, resolved at run time. */
#define MB_BIO_LMAX (-1LL) /* M_PART: max(2 MB, memory per process / 128), capped at 1 GB */
#define MB_BIO_FILL (-2LL) /* the filler of the segmented types (b_eff_io 2.1) */

#endif
