/* SPDX-License-Identifier: BSD-3-Clause */
/* Results are data (docs/architecture.md, property 3): a measurement produces these records and the
 * printers (IMB-style text, JSON Lines) only format them, so text and JSON cannot disagree. */
#ifndef MB_IMB_RESULT_H
#define MB_IMB_RESULT_H

/* The IMB table layouts, chosen by benchmark class and Multi mode (IMB guide 6). */
enum mb_layout {
    MB_LAYOUT_TIME_BW,     /* #bytes #repetitions t[usec] Mbytes/sec          (single transfer) */
    MB_LAYOUT_RANGE_BW,    /* #bytes #repetitions t_min t_max t_avg Mbytes/sec (parallel)      */
    MB_LAYOUT_RANGE,       /* #bytes #repetitions t_min t_max t_avg            (collective)    */
    MB_LAYOUT_SYNC,        /* #repetitions t_min t_max t_avg                   (Barrier)       */
    MB_LAYOUT_OVERLAP,     /* #bytes #repetitions t_ovrl t_pure t_CPU overlap[%] (IMB-IO I...) */
    MB_LAYOUT_RATE,        /* #bytes #repetitions Mbytes/sec Msg/sec (Intel IMB 2021's Uniband) */
    MB_LAYOUT_SYNC_OVERLAP /* #repetitions t_ovrl t_pure t_CPU overlap[%]     (Ibarrier)      */
};

enum mb_row_status {
    MB_ROW_OK,
    MB_ROW_SKIP_MEMORY, /* buffers would exceed the -mem cap or could not be allocated */
    MB_ROW_SKIP_INT,    /* a count or displacement would not fit an MPI int */
    MB_ROW_SKIP_TIME    /* Intel IMB 2021.11's time limit of a block ran out: its last row */
};

/* One "# Benchmarking" block: a benchmark on one process count. */
struct mb_block {
    const char *suite; /* "IMB-MPI1" */
    const char *name;  /* benchmark name without "Multi-" */
    int mode;          /* IMB-EXT/IO: 1 aggregate, 2 non-aggregate; 0 none (guide 4.2.2.2) */
    const char *cls;   /* "single", "parallel", "collective" */
    enum mb_layout layout;
    int multi;        /* -1 primary, else the -multi output flag 0 or 1 */
    int q;            /* processes per group */
    int ngroups;      /* groups running simultaneously */
    int idle;         /* processes waiting in MPI_Barrier */
    int nprocs;       /* processes started */
    const int *order; /* position -> world rank (group membership, -map order) */
    int map_rows, map_cols;
    int check;                    /* a defects column is printed */
    unsigned long long mem_bytes; /* largest message-buffer memory per process in the block */
    int spread;                   /* --spread with K > 1: the median and 95 % interval columns */
    int raw_samples;              /* --raw-samples: JSON rows carry every sample */
    /* The text's Mbytes/sec in 2^20 B/s (IMB 3.1) or 10^6 B/s (a benchmark of IMB 2021.11,
     * as it prints them); JSON's mib_per_sec is 2^20 B/s either way. */
    int decimal_mb;
};

/* One table row. */
struct mb_result {
    const struct mb_block *block;
    int group;                  /* the group of a -multi 1 row; -1 = all groups together */
    long long bytes;            /* message length X; -1 for Barrier */
    long reps;                  /* repetitions actually timed */
    long reps_min;              /* -time: fewer repetitions draw a warning; 0 = no -time */
    long long window_bytes;     /* IMB-EXT: size of the window the timed loops used; -1 none */
    double t_min, t_max, t_avg; /* microseconds */
    double mbytes_per_sec;      /* 2^20 B/s from t_max; < 0 when the class reports none */
    double msg_per_sec;         /* messages a second (Uniband, Biband); < 0 for the others */
    /* Non-blocking I/O (guide 4.2.5.2): t_pure is t_max, t_ovrl the slowest process's time
     * with the CPU exploited, t_cpu the undisturbed CPU time. IMB-NBC (Intel IMB 2021.11):
     * t_min, t_max, t_avg are of t_ovrl; t_ovrl, t_pure and t_cpu the figures of the process
     * with the largest t_ovrl. Both: the overlap in percent. */
    double t_ovrl, t_pure, t_cpu, overlap_pct;
    long long defects; /* -1 when not checked */
    enum mb_row_status status;
    /* The row's samples (--samples K, docs/adr/samples.md): each sample's t_avg in usec,
     * min(K, reps) of them (1 for a row timed as one loop); none (NULL, 0) when skipped. */
    const double *samples;
    long nsamples;
    double needed_gb; /* MB_ROW_SKIP_MEMORY: memory that would be needed */
    double limit_s;   /* MB_ROW_SKIP_TIME: the block's time limit, seconds */
};

static inline const char *mb_row_status_name(enum mb_row_status s)
{
    return s == MB_ROW_OK            ? "ok"
           : s == MB_ROW_SKIP_MEMORY ? "skipped-memory"
           : s == MB_ROW_SKIP_INT    ? "skipped-int"
                                     : "skipped-time";
}

/* -time left the row with fewer repetitions than its minimum: the printers add a warning. */
static inline int mb_result_few_reps(const struct mb_result *r)
{
    return r->status == MB_ROW_OK && r->reps < r->reps_min;
}

#endif
