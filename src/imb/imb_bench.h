/* One IMB benchmark = one row of its family's const table (imb_table.c for IMB-MPI1,
 * imb_ext_table.c for IMB-EXT) + one kernel (ARCHITECTURE property 1). The driver
 * (imb_driver.c) owns warm-up, barriers, the clock, repetition counts and the aggregate /
 * non-aggregate modes; kernels never read the clock. */
#ifndef MB_IMB_BENCH_H
#define MB_IMB_BENCH_H

#include "core/buffers.h"
#include "imb/imb_offcache.h"

#include <mpi.h>
#include <stddef.h>

/* Benchmark classes (IMB guide 3.3.1, 4.2.1): they choose the table layout and the
 * throughput. MB_IMB_OTHER is the guide's "Other" column (Window, Open_Close): times as a
 * collective, any process count. */
enum mb_imb_class { MB_IMB_SINGLE, MB_IMB_PARALLEL, MB_IMB_COLLECTIVE, MB_IMB_SYNC, MB_IMB_OTHER };

/* The mode of one block (guide 4.2.2.2): MPI-1 benchmarks have none; the aggregate ones run
 * twice, with completion assured once after all M = n_sample transfers, then after each. */
enum mb_imb_mode { MB_IMB_MODE_NONE = 0, MB_IMB_AGGREGATE = 1, MB_IMB_NON_AGGREGATE = 2 };

/* Buffer demand per process: mult * X, times Q when per_rank (guide 7.1, Table 20). */
struct mb_imb_bufsize {
    unsigned char mult;
    unsigned char per_rank;
};

/* What a kernel sees for one message length. */
struct mb_imb_args {
    MPI_Comm comm;           /* the group running the benchmark */
    int rank, size;          /* in the group */
    int left, right;         /* periodic chain neighbours */
    size_t bytes;            /* X, a multiple of the element size */
    int count;               /* X in elements */
    char *sbuf, *rbuf;       /* first buffer of the rotation */
    size_t sregion, rregion; /* bytes allocated behind sbuf and rbuf (the block's largest) */
    struct mb_slots slots;
    int *counts, *displs; /* per-rank counts and displacements, in elements */
    size_t second;        /* Exchange: offset of the second receive buffer */
    int check;            /* check mode: buffers are laid out so that every byte can be checked */
    MPI_Comm parent;      /* all processes of all groups (windows of Multi mode) */
    MPI_Win win;          /* the block's window (setup hook), or MPI_WIN_NULL */
    MPI_Info info;        /* info for windows (--info), or MPI_INFO_NULL */
    MPI_File fh;          /* the block's file (setup hook), or MPI_FILE_NULL */
    void *state;          /* what the setup hook keeps for its teardown */
};

struct mb_imb_bench {
    const char *name;
    enum mb_imb_class cls;
    int exact_procs;   /* 2 for the single transfer benchmarks; 0 = any Q */
    double time_scale; /* reported time per sample: 0.5 for PingPong (dt/2) */
    double bw_factor;  /* messages per sample counted in Mbytes/sec (3.3.3); 0 = none */
    size_t elem_size;  /* 1 (MPI_BYTE) or sizeof(float) for reductions */
    int sizeless;      /* Barrier: one row, no #bytes */
    struct mb_imb_bufsize sbuf, rbuf;
    unsigned char rbuf_check_mult; /* check mode receive demand if larger (Exchange) */
    /* One-sided and I/O transfers target disjoint sections (guide 4.2.2.2): the buffers hold
     * one X-byte section per repetition, and iteration i uses section i. */
    int sections;
    int aggregate;    /* runs in aggregate, then non-aggregate mode (guide Table 1 "x") */
    int nonaggr_reps; /* one block with the non-aggregate repetition count (Window) */
    /* Optional, collective over the group: before the first and after the last message
     * length of a block (a window over the block's buffers, a file). */
    void (*setup)(struct mb_imb_args *a);
    void (*teardown)(struct mb_imb_args *a);
    /* Optional: assure completion (guide 4.2.2.2.1) - after every transfer in non-aggregate
     * mode, after all of them in aggregate mode. */
    void (*complete)(const struct mb_imb_args *a);
    /* Optional: set counts/displs/second for this message length. */
    void (*prepare)(struct mb_imb_args *a);
    /* One sample of the pattern; iter picks the buffer and the root (i % Q). */
    void (*kernel)(const struct mb_imb_args *a, long iter);
    /* Check mode: number of received items that differ from what was sent in iteration iter. */
    size_t (*check)(const struct mb_imb_args *a, long iter);
};

/* An IMB family (IMB-MPI1, IMB-EXT, IMB-IO): its table and its methodology constants
 * (guide 5.2.1 Table 19 for settings.h, settings_io.h for IO). One driver serves them all. */
struct mb_imb_family {
    const char *name; /* "IMB-MPI1": records, messages, watchdog labels */
    const char *part; /* header title: "MPI-1 part" */
    const struct mb_imb_bench *benchmarks;
    size_t n;
    int npmin;                    /* default smallest process count (5.1.1) */
    long msgspersample;           /* MSGSPERSAMPLE */
    long msgs_nonaggr;            /* MSGS_NONAGGR */
    long overall_vol_mb;          /* OVERALL_VOL in MB */
    int maxmsglog;                /* largest standard length 2^maxmsglog */
    long long warm_x;             /* warm-up length sizeof(assign_type) (5.2.6) */
    int warmups;                  /* N_WARMUP; 0 for IO */
    const char *list_break_after; /* help text: wrap the benchmark list after this name */
};

/* The families, each defined beside its table (imb_table.c, imb_ext_table.c); settings name
 * theirs by index (a pointer would differ between processes). */
enum { MB_IMB_FAMILY_MPI1, MB_IMB_FAMILY_EXT, MB_IMB_N_FAMILIES };
extern const struct mb_imb_family mb_imb_family_mpi1, mb_imb_family_ext;
extern const struct mb_imb_family *const mb_imb_families[MB_IMB_N_FAMILIES];

/* Table index of a benchmark name in a family (case-insensitive), or -1. */
int mb_imb_find(const struct mb_imb_family *f, const char *name);

/* Kernels and checks, one pair per benchmark (imb_p2p.c, imb_coll.c). */
#define MB_IMB_KERNEL(fn)                                                                          \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter);                                      \
    size_t mb_imb_check_##fn(const struct mb_imb_args *a, long iter)
MB_IMB_KERNEL(pingpong);
MB_IMB_KERNEL(pingping);
MB_IMB_KERNEL(sendrecv);
MB_IMB_KERNEL(exchange);
MB_IMB_KERNEL(bcast);
MB_IMB_KERNEL(allgather);
MB_IMB_KERNEL(allgatherv);
MB_IMB_KERNEL(scatter);
MB_IMB_KERNEL(scatterv);
MB_IMB_KERNEL(gather);
MB_IMB_KERNEL(gatherv);
MB_IMB_KERNEL(alltoall);
MB_IMB_KERNEL(alltoallv);
MB_IMB_KERNEL(reduce);
MB_IMB_KERNEL(reduce_scatter);
MB_IMB_KERNEL(allreduce);
MB_IMB_KERNEL(barrier);
MB_IMB_KERNEL(unidir_put);
MB_IMB_KERNEL(unidir_get);
MB_IMB_KERNEL(bidir_put);
MB_IMB_KERNEL(bidir_get);
MB_IMB_KERNEL(accumulate);
MB_IMB_KERNEL(window);
#undef MB_IMB_KERNEL

/* IMB-EXT's per-block window (over the receive buffers for Put and Accumulate, over the send
 * buffers for Get) and its completion, MPI_Win_fence (imb_ext.c). */
void mb_imb_ext_setup_put(struct mb_imb_args *a);
void mb_imb_ext_setup_get(struct mb_imb_args *a);
void mb_imb_ext_setup_groups(struct mb_imb_args *a);
void mb_imb_ext_teardown(struct mb_imb_args *a);
void mb_imb_ext_fence(const struct mb_imb_args *a);

void mb_imb_prepare_exchange(struct mb_imb_args *a);
void mb_imb_prepare_v(struct mb_imb_args *a);
void mb_imb_prepare_reduce_scatter(struct mb_imb_args *a);

/* Buffer of iteration iter (off-cache rotation). */
static inline char *mb_imb_sbuf(const struct mb_imb_args *a, long iter)
{
    return a->sbuf + mb_slot_offset(a->slots.sstride, a->slots.n, iter);
}
static inline char *mb_imb_rbuf(const struct mb_imb_args *a, long iter)
{
    return a->rbuf + mb_slot_offset(a->slots.rstride, a->slots.n, iter);
}

#endif
