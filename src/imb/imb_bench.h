/* One IMB benchmark = one row of the const table in imb_table.c + one kernel
 * (ARCHITECTURE property 1). The driver (imb_driver.c) owns warm-up, barriers, the clock and
 * repetition counts; kernels never read the clock. */
#ifndef MB_IMB_BENCH_H
#define MB_IMB_BENCH_H

#include "core/buffers.h"

#include <mpi.h>
#include <stddef.h>

/* Benchmark classes (IMB guide 3.3.1): they choose the table layout and the throughput. */
enum mb_imb_class { MB_IMB_SINGLE, MB_IMB_PARALLEL, MB_IMB_COLLECTIVE, MB_IMB_SYNC };

/* Buffer demand per process: mult * X, times Q when per_rank (guide 7.1, Table 20). */
struct mb_imb_bufsize {
    unsigned char mult;
    unsigned char per_rank;
};

/* What a kernel sees for one message length. */
struct mb_imb_args {
    MPI_Comm comm;     /* the group running the benchmark */
    int rank, size;    /* in the group */
    int left, right;   /* periodic chain neighbours */
    size_t bytes;      /* X, a multiple of the element size */
    int count;         /* X in elements */
    char *sbuf, *rbuf; /* first buffer of the rotation */
    struct mb_slots slots;
    int *counts, *displs; /* per-rank counts and displacements, in elements */
    size_t second;        /* Exchange: offset of the second receive buffer */
    int check;            /* check mode: buffers are laid out so that every byte can be checked */
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
    /* Optional: set counts/displs/second for this message length. */
    void (*prepare)(struct mb_imb_args *a);
    /* One sample of the pattern; iter picks the buffer and the root (i % Q). */
    void (*kernel)(const struct mb_imb_args *a, long iter);
    /* Check mode: number of received items that differ from what was sent in iteration iter. */
    size_t (*check)(const struct mb_imb_args *a, long iter);
};

extern const struct mb_imb_bench mb_imb_benchmarks[];
extern const size_t mb_imb_n_benchmarks;

/* Table index of a benchmark name (case-insensitive), or -1. */
int mb_imb_find(const char *name);

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
#undef MB_IMB_KERNEL

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
