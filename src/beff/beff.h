/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff, the effective communication bandwidth benchmark (defined in the b_eff paper §2-3 and on
 * the b_eff web page; details as in the b_eff 3.6 source, b_eff.c): the types shared by its
 * modules.
 *
 *   beff_sizes.c     the 21 message lengths and L_max
 *   beff_patterns.c  ring partitions, random and worst rings, bisections, Cartesian
 *   beff_methods.c   one iteration of a pattern with each of the three methods - no clock
 *   beff_driver.c    the measurement loop, barriers, clock, loop-length rules
 *   beff_analysis.c  the aggregation to b_eff and the derived figures
 *   beff_report.c    stdout summary and the .prot/.short/.sum protocol sections
 *   beff_plot.c      the .plot data and the .gps gnuplot script
 *   beff_json.c      the JSON records
 *   beff_options.c   the command line (the original's flags and mpibench's own)
 *   beff_suite.c     the suite row: build, run, report */
#ifndef MB_BEFF_H
#define MB_BEFF_H

#include "beff/beff_config.h"
#include "beff/beff_settings.h"
#include "core/config.h"

#include <mpi.h>
#include <stddef.h>

/* ---- sizes (beff_sizes.c) ------------------------------------------------------------ */

/* L_max in bytes for memory_mb MiB per process: min(M, 16384) MiB / 128 (b_eff paper §3,
 * with b_eff 3.6's cap). */
long long mb_beff_lmax(long memory_mb);
/* The 21 lengths: 1, 2, ... 4096, then 8 geometric steps up to L_max (b_eff paper §3); returns the
 * factor a of the geometric steps. */
double mb_beff_sizes(long memory_mb, long long sizes[MB_BEFF_SIZES]);
/* Bytes of one send (or receive) buffer: MAXSR * (L_max + 16), as in b_eff 3.6. */
size_t mb_beff_buffer_bytes(long memory_mb);

/* ---- patterns (beff_patterns.c) ------------------------------------------------------ */

enum mb_beff_role { MB_BEFF_ROLE_RING, MB_BEFF_ROLE_RANDOM, MB_BEFF_ROLE_INFO };

/* One ring pattern's partition of n processes (b_eff 3.6's ring partition rule). */
struct mb_beff_ring {
    int rings;         /* R */
    int count1, size1; /* the first rings, in rank order */
    int count2, size2; /* then these (count2 may be 0) */
    char label[32];    /* ring-<R>*<size1>fix|&+1|&-1 */
};
int mb_beff_ring_standard(int n, int i); /* i = 0..5: 2, 4, 8, max(16,n/4), max(32,n/2), n */
void mb_beff_ring_layout(int n, int standard, struct mb_beff_ring *r);
void mb_beff_ring_neighbours(const struct mb_beff_ring *r, int rank, int *next, int *prev);

/* Random rings (drawn as b_eff 3.6 draws them): rank 0's drand48 stream seeded like srand48(seed);
 * pos[j] = the rank at position j of the ring. The state is explicit so that every rank draws the
 * same rings. */
void mb_beff_seed_state(long long seed, unsigned short state[3]);
void mb_beff_random_order(int n, unsigned short state[3], int *pos);
void mb_beff_worst_order(int n, int *pos); /* 0, n-1, 1, n-2, ... */

/* Cartesian patterns (as in b_eff 3.6): the process count C <= n used for ndims dimensions and the
 * dims (MPI_Dims_create, so MPI must be initialised). */
int mb_beff_cart_choose(int n, int ndims, int dims[3]);

struct mb_beff_step {
    int dest, src; /* ranks in the pattern's communicator, or MPI_PROC_NULL */
};

/* One pattern as this process sees it. */
struct mb_beff_pattern {
    char label[32]; /* as long as a ring's label */
    enum mb_beff_role role;
    MPI_Comm comm;     /* not owned; MPI_COMM_NULL when this process is not a member */
    int participation; /* 1 takes part; -1 member only (joins Alltoallv with zero counts); 0 not */
    int nsteps;
    struct mb_beff_step step[MB_BEFF_MAXSR];
    int sendrecv_only; /* the ping-pong pair is measured with Sendrecv only (b_eff 3.6) */
    int sends;         /* messages this process sends per iteration */
    /* The same on every process (reduced when the set is built): */
    long long messages;    /* messages per iteration of the whole pattern (b_eff paper §3) */
    int participants;      /* processes that take part */
    int steps0;            /* rank 0's step count, for the PATTERN section */
    long long within_host; /* of the messages, those whose sender and receiver share a host */
};

struct mb_beff_patterns {
    struct mb_beff_pattern *p;
    int n;
    int first_info; /* index of the first pattern that does not enter b_eff */
    int pingpong;   /* index of the ping-pong pair */
    int nhosts;     /* hosts (MPI_COMM_TYPE_SHARED nodes) the processes run on */
    int cart_c[2];  /* Cartesian process counts for 2-D and 3-D */
    int cart_dims[2][3];
    MPI_Comm owned[4]; /* the Cartesian communicators */
};

/* The most patterns a set with nrandom random rings holds: the 6 rings, the random ones,
 * worst ring, two bi-sections, the ping-pong pair and up to 9 Cartesian ones. */
int mb_beff_pattern_cap(int nrandom);

/* Collective over world: builds every pattern in b_eff 3.6's order with nrandom random rings drawn
 * from seed, then applies b_eff 3.6's pong removal. */
void mb_beff_patterns_build(struct mb_beff_patterns *set, MPI_Comm world, int nrandom,
                            long long seed);
void mb_beff_patterns_free(struct mb_beff_patterns *set);
/* Whether method m is measured for pattern p at all (b_eff 3.6: the ping-pong pair with Sendrecv
 * only). */
static inline int mb_beff_measurable(const struct mb_beff_pattern *p, int m)
{
    return p->messages > 0 && (!p->sendrecv_only || m == 0);
}
/* Pong removal on one process's steps (exposed for the unit tests). */
void mb_beff_pong_removal(struct mb_beff_pattern *p);

/* ---- methods (beff_methods.c) -------------------------------------------------------- */

enum { MB_BEFF_SNDRCV = 0, MB_BEFF_ALLTOALLV = 1, MB_BEFF_NONBLK = 2 };
extern const char *const mb_beff_method_label[MB_BEFF_METHODS]; /* "Sndrcv", "Alltoal", ... */
extern const char *const mb_beff_method_call[MB_BEFF_METHODS];  /* "MPI_Sendrecv", ... */

/* Per-process transfer state: the cyclic buffers and the Alltoallv arrays. */
struct mb_beff_xfer {
    unsigned char *sbuf, *rbuf;
    size_t buflen;
    size_t base; /* running offset, wraps at the end of the buffers (as b_eff 3.6) */
    int *scount, *sdispl, *rcount, *rdispl; /* indexed by rank in the pattern's comm */
    int full_check;                         /* --check: every byte, not only the first and last */
    int selftest; /* --check-selftest: rank 0 corrupts one byte of what it sends */
    int world_rank;
};

/* Where a data check failure happened, for the abort message. */
struct mb_beff_where {
    int pattern, rep, size_index, iteration;
    const char *label;
};

void mb_beff_xfer_init(struct mb_beff_xfer *x, size_t buflen, int nprocs, int world_rank,
                       int full_check, int selftest);
void mb_beff_xfer_free(struct mb_beff_xfer *x);
/* Alltoallv counts for the pattern (before the loop) and their reset (after it). */
void mb_beff_a2a_prepare(struct mb_beff_xfer *x, const struct mb_beff_pattern *p, int len);
void mb_beff_a2a_reset(struct mb_beff_xfer *x, const struct mb_beff_pattern *p);
/* One iteration of method m on pattern p with messages of len bytes. Checks the first
 * and last byte of every received message (every byte with full_check); a wrong byte aborts
 * the job with a message naming pattern, size and ranks. */
void mb_beff_iteration(int method, const struct mb_beff_pattern *p, struct mb_beff_xfer *x, int len,
                       int size_index, const struct mb_beff_where *w);

/* ---- measurement data (beff_driver.c) ------------------------------------------------ */

/* Everything measured, as data: rank 0 holds the reduced values, every rank the plan. */
struct mb_beff_data {
    int nrep, npat;
    long long len[MB_BEFF_SIZES];
    double factor; /* growth factor of the sizes 13..20 */
    long memory_mb;
    /* per (rep, pattern, size, method), index mb_beff_at(): */
    double *b;    /* bandwidth of the pattern in bytes/s (b_eff paper §3); 0 = not measured */
    double *tmax; /* loop time, max over the processes */
    double *pmin, *pavg, *pmax; /* per-process bandwidth of the participants, bytes/s */
    int *loops;                 /* loop length used */
    unsigned char *state;       /* MB_BEFF_MEASURED, MB_BEFF_COPIED or 0 (not measured) */
    /* per (size, rep, method), index mb_beff_lat(): loop length and the loop times summed,
     * smallest and largest over the patterns (LOOPLNGS section) */
    int *looplen;
    double *tsum, *tlo, *thi;
    char *mark;          /* ' ', 'M' (best method only) or 'R' (and fewer repetitions), 3.6 rule */
    int *best;           /* per (rep, pattern): method fixed by the 3.6 rule, or -1 */
    int shortened;       /* the 3.6 rule fired in some repetition */
    int reps_last;       /* repetitions measured at the largest size */
    double loop_elapsed; /* measurement loop, max over the processes (s) */
    long long measurements;
};

enum { MB_BEFF_MEASURED = 1, MB_BEFF_COPIED = 2 };

static inline size_t mb_beff_at(const struct mb_beff_data *d, int rep, int p, int k, int m)
{
    return (((size_t)rep * (size_t)d->npat + (size_t)p) * MB_BEFF_SIZES + (size_t)k) *
               MB_BEFF_METHODS +
           (size_t)m;
}
static inline size_t mb_beff_lat(const struct mb_beff_data *d, int k, int rep, int m)
{
    return ((size_t)k * (size_t)d->nrep + (size_t)rep) * MB_BEFF_METHODS + (size_t)m;
}

struct mb_ctx;
void mb_beff_data_init(struct mb_beff_data *d, const struct mb_config *cfg, int npat);
/* Bytes mb_beff_data_init allocates on every process for npat patterns and nrep
 * repetitions (--random and --repetitions enter its memory check). */
size_t mb_beff_data_bytes(long nrep, int npat);
void mb_beff_data_free(struct mb_beff_data *d);
/* Collective: runs the whole measurement. Rank 0 streams one JSON record per
 * measurement and one progress line per size. */
void mb_beff_measure(const struct mb_ctx *ctx, const struct mb_config *cfg,
                     const struct mb_beff_patterns *set, struct mb_beff_xfer *x,
                     struct mb_beff_data *d);

/* The loop-length rules (pure, rank 0): the loop length for size k given the previous
 * size's loop length n, the mean loop time t over the patterns and the size ratio q. */
int mb_beff_loop_paper_first(double t_per_iteration, long max_loop);
int mb_beff_loop_paper_next(int n, double t_mean, double q, long max_loop);
/* The --profile names, indexed by enum mb_beff_profile (beff_options.c). */
extern const char *const mb_beff_profile_name[3];
/* --profile 3.6 / 3.6-test: the time per size and method, and the limit of the 60 s rule. */
struct mb_beff36_rules {
    double timeperloop, max_last_two;
};
struct mb_beff36_rules mb_beff36_rules_of(int profile);
int mb_beff36_loop_first(double t_cal_total, double timeperloop, int *maxloops);
int mb_beff36_loop_next(int n, double t_total, double q, int maxloops, double timeperloop);
/* b_eff 3.6's 60 s projection: 1 if the two largest sizes must be shortened. */
int mb_beff36_shorten(double tmin18, int loops18, int npat, int nrep, double f, double limit);

/* ---- analysis (beff_analysis.c) ------------------------------------------------------ */

enum { MB_BEFF_AVG = MB_BEFF_SIZES }; /* index of "average over sizes" in per-size arrays */

/* Geometric means (b_eff paper §3) over the ring and the random patterns of one value per
 * pattern. */
struct mb_beff_geo {
    double ring, random, final; /* final = sqrt(ring * random) */
    double ring_min, ring_max, random_min, random_max;
};

struct mb_beff_analysis {
    int npat, nrep;
    double *B;  /* [p][k], k = 0..21: max over methods and repetitions; [21] = avg over L */
    double *Bm; /* [p][m][k]: max over repetitions, per method */
    double *Br; /* [p][r][k]: max over methods, per repetition */
    struct mb_beff_geo geo[MB_BEFF_SIZES + 1];                    /* official path */
    struct mb_beff_geo geo_m[MB_BEFF_METHODS][MB_BEFF_SIZES + 1]; /* per method */
    struct mb_beff_geo *geo_r;                                    /* [r][k] */
    struct mb_beff_geo geo_best_m, geo_best_r; /* of max_m avg_L (2nd path), max_r (3rd) */
    /* The figures of the b_eff paper's Table 1 (bytes/s, seconds, bytes). */
    double beff, beff_lmax, ring_lmax;
    double latency, latency_ring;    /* N / final(0), N / ring(0): seconds */
    double pp_latency, pp_bandwidth; /* ping-pong pair; 0 if not measured */
    int logavg_errors;               /* values <= 0 met by a geometric mean */
};

/* Repetition rep's own value at size index k (MB_BEFF_AVG: b_eff; MB_BEFF_SIZES - 1: at
 * L_max), bytes/s: the 3rd path of b_eff 3.6's protocol, logavg(avg_L(max_mthd b)) of that
 * repetition alone - b_eff's samples (docs/adr/samples.md). */
static inline double mb_beff_rep_value(const struct mb_beff_analysis *a, int rep, int k)
{
    return a->geo_r[(size_t)rep * (MB_BEFF_SIZES + 1) + (size_t)k].final;
}

/* exp(mean(log v)) over the n values; a value <= 0 counts an error and gives 0. */
double mb_beff_logavg(const double *v, int n, int *errors);
void mb_beff_analyse(const struct mb_beff_data *d, const struct mb_beff_patterns *set, int nprocs,
                     struct mb_beff_analysis *a);
void mb_beff_analysis_free(struct mb_beff_analysis *a);

#endif
