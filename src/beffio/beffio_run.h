/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's run-time state and measured data (shared by the driver, the kernels and the
 * printers). */
#ifndef MB_BEFFIO_RUN_H
#define MB_BEFFIO_RUN_H

#include "beffio/beffio.h"
#include "core/scratch.h"
#include "core/suite.h"

#include <mpi.h>

/* One pattern executed in one pass by one partition (rank 0's clock, timed as in b_eff_io 2.1). */
struct mb_bio_meas {
    int ran;
    long long reps; /* repetitions (the same in every pass) */
    long long l, L; /* chunk on disk and bytes per call, per process */
    double tp;      /* scheduled seconds (time-driven write patterns), else 0 */
    double t;       /* t_pat: barrier to barrier */
    double t_barrier, t_bcast, t_sync, t_last_io, t_last_tail;
    long long errors; /* data errors of all processes */
    int disk_stop;    /* the write loop stopped at the disk budget, not the time */
};

/* What a pattern moved with n processes (bytes) and its bandwidth (bytes/s; 0 before it ran). */
static inline double mb_bio_meas_bytes(const struct mb_bio_meas *m, int n)
{
    return (double)n * (double)m->L * (double)m->reps;
}
static inline double mb_bio_meas_bw(const struct mb_bio_meas *m, int n)
{
    return m->t > 0 ? mb_bio_meas_bytes(m, n) / m->t : 0.0;
}

/* One pattern type in one pass: open to close. */
struct mb_bio_typeval {
    int ran;
    double bytes;              /* all processes, incl. the unreported first and filler patterns */
    double t_open, t_close, t; /* t = t_open + sum of t_pat + t_close */
    double bw, wbw;            /* bytes/s; wbw = U-weighted mean of the pattern bandwidths */
    long long lseg;            /* types 3 and 4: the segment per process (bytes) */
};

struct mb_bio_accval {
    int ran;
    double bytes, t, bw, wbw;
    double value; /* the access method's b_eff_io (type 0 twice) */
    long long errors;
};

struct mb_bio_partval {
    int n;           /* processes */
    long tn;         /* scheduled seconds */
    double value;    /* b_eff_io: value21, or weighted with --definition weighted */
    double value21;  /* b_eff_io 2.1's sqrt(WR x RD) */
    double weighted; /* 0.25 write + 0.25 rewrite + 0.5 read (b_eff paper §4) */
    double bytes, t, bw, wbw;
    long long errors;
    /* The criteria of "valid for comparison" (b_eff_io 2.1's crit1-3; -adapt is mpibench's). */
    int crit_time, crit_shared, crit_errors, crit_adapt;
    int valid;
};

struct mb_bio_data {
    int npart;
    long long lmax;
    struct mb_bio_meas m[MB_BIO_MAX_PARTITIONS][MB_BIO_ACCESSES][MB_BIO_PATTERNS];
    struct mb_bio_typeval ty[MB_BIO_MAX_PARTITIONS][MB_BIO_ACCESSES][MB_BIO_TYPES];
    struct mb_bio_accval ac[MB_BIO_MAX_PARTITIONS][MB_BIO_ACCESSES];
    struct mb_bio_partval pa[MB_BIO_MAX_PARTITIONS];
    long long rep[MB_BIO_MAX_PARTITIONS][MB_BIO_PATTERNS]; /* every rank of the partition */
    long long lseg[MB_BIO_MAX_PARTITIONS], fill[MB_BIO_MAX_PARTITIONS];
    int best;       /* index of the partition with the largest value */
    int best_other; /* ... with the largest value of the other definition */
    double t_total;
};

/* Everything one process needs to run patterns. */
struct mb_bio_run {
    const struct mb_ctx *ctx;
    const struct mb_config *cfg;
    const struct mb_bio_config *b;
    double *wbuf, *rbuf; /* L_max bytes each: write element i = -2i, read -2i-1 */
    long long lmax;
    MPI_Comm comm[MB_BIO_MAX_PARTITIONS]; /* partition i's communicator, or MPI_COMM_NULL */
    struct mb_out prot;                   /* rank 0: the .prot file being written */
    char fs_type[32];                     /* the scratch directory's file system */
    /* This process's first failed I/O call, "rank R: what happened", which the driver agrees
     * on (docs/adr/io-space-check.md); after the agreement every process holds the lowest
     * failing rank's message. */
    struct mb_error fail;
    int labelled; /* fail.msg starts with where it happened */
};

/* The file of one pattern type during one pass. */
struct mb_bio_file {
    char path[MB_SCRATCH_PATH_MAX];
    MPI_File fh;
    MPI_Comm comm;    /* the partition, or MPI_COMM_SELF for separate files */
    int owner;        /* this process created the file and removes it */
    MPI_Offset disp;  /* type 0: the next pattern's displacement (bytes) */
    MPI_Offset wrote; /* bytes this process has written to the file in this pass */
    int rank, n;      /* in the partition */
};

/* One pattern's work as the kernels see it. */
struct mb_bio_step {
    int p, access, index; /* pattern, pass, partition index */
    int elems;            /* MPI_DOUBLEs per call (L / 8) */
    int chunk;            /* MPI_DOUBLEs per chunk (l / 8) */
    long long lseg;       /* types 3/4 */
};

/* beffio_io.c: the kernels (no clock). An I/O error is recorded in r->fail (the first one of
 * the process) and the calls go on as the loop counts say, so that no collective is left
 * waiting; the driver agrees on it between patterns. */
/* Records an I/O failure of this process in r->fail as "rank R: ..." (the first one only). */
void mb_bio_record(struct mb_bio_run *r, const char *fmt, ...)
    __attribute__((cold, format(printf, 2, 3)));
int mb_bio_shared_pointer(const struct mb_bio_config *b, int type);
void mb_bio_file_name(struct mb_bio_run *r, struct mb_bio_file *f, int index, int type);
void mb_bio_file_create(struct mb_bio_run *r, const struct mb_bio_file *f);
void mb_bio_file_open(struct mb_bio_run *r, struct mb_bio_file *f, int access, int type);
void mb_bio_file_close(struct mb_bio_run *r, struct mb_bio_file *f, int access);
void mb_bio_view(struct mb_bio_run *r, struct mb_bio_file *f, const struct mb_bio_step *s);
void mb_bio_stamp(struct mb_bio_run *r, const struct mb_bio_step *s, long long rep, int selftest);
void mb_bio_unstamp(struct mb_bio_run *r, const struct mb_bio_step *s);
void mb_bio_transfer(struct mb_bio_run *r, struct mb_bio_file *f, const struct mb_bio_step *s);
long long mb_bio_verify(struct mb_bio_run *r, const struct mb_bio_step *s, long long rep,
                        long long *shown);
void mb_bio_sync(struct mb_bio_run *r, struct mb_bio_file *f);
void mb_bio_check_size(struct mb_bio_run *r, const struct mb_bio_file *f,
                       const struct mb_bio_step *s);

/* beffio_report.c (rank 0): the lines go to stdout and to the .prot file (r->prot) as
 * they are measured; the .sum file is written at the end. */
void mb_bio_print_header(const struct mb_bio_run *r, const struct mb_out *o);
void mb_bio_print_table_head(const struct mb_bio_run *r);
void mb_bio_print_pattern(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                          int p);
void mb_bio_print_type(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                       int type);
void mb_bio_print_access(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a);
void mb_bio_print_end(const struct mb_bio_run *r, const struct mb_bio_data *d);
void mb_bio_print_sum(const struct mb_bio_run *r, const struct mb_bio_data *d,
                      const struct mb_out *o);
void mb_bio_print_final(const struct mb_bio_run *r, const struct mb_bio_data *d,
                        const struct mb_out *o);
/* beffio_plot.c (rank 0): gnuplot data and script (b_eff_io paper Fig. 2). */
void mb_bio_write_plot(const struct mb_bio_run *r, const struct mb_bio_data *d, FILE *dat);
void mb_bio_write_gps(const struct mb_bio_run *r, const struct mb_bio_data *d, FILE *gps,
                      const char *datname);

/* beffio_json.c (rank 0) */
void mb_bio_json_pattern(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                         int p);
void mb_bio_json_type(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                      int type);
void mb_bio_json_result(const struct mb_bio_run *r, const struct mb_bio_data *d);

/* beffio_values.c (rank 0): the U-weighted mean of the pattern bandwidths of one pass of
 * partition i (b_eff_io 2.1's wbw), as its sums; the values of a finished run. */
void mb_bio_pass_wsum(const struct mb_bio_data *d, int i, int a, double *wsum, double *usum);

/* beffio_driver.c: the measurement; the values (rank 0) */
void mb_bio_measure(struct mb_bio_run *r, struct mb_bio_data *d);
void mb_bio_evaluate(const struct mb_bio_config *b, struct mb_bio_data *d);

#endif
