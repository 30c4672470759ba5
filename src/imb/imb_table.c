/* The IMB-MPI1 benchmarks (IMB guide 3.2-3.3), in the order of the guide's list 3.2, which
 * is also the order of a default run. Adding a benchmark is adding a row here and its kernel. */
#include "imb/imb_bench.h"

#include <strings.h>

#define X1 {1, 0}  /* X bytes */
#define X2 {2, 0}  /* 2X bytes */
#define XQ {1, 1}  /* X bytes per process of the group */
#define NONE {0, 0}

const struct mb_imb_bench mb_imb_benchmarks[] = {
    /* Single transfer (3.3.2): time = dt/2 for PingPong, dt for PingPing; X/1.048576/t. */
    {.name = "PingPong", .cls = MB_IMB_SINGLE, .exact_procs = 2, .time_scale = 0.5,
     .bw_factor = 1, .elem_size = 1, .sbuf = X1, .rbuf = X1, .kernel = mb_imb_pingpong,
     .check = mb_imb_check_pingpong},
    {.name = "PingPing", .cls = MB_IMB_SINGLE, .exact_procs = 2, .time_scale = 1,
     .bw_factor = 1, .elem_size = 1, .sbuf = X1, .rbuf = X1, .kernel = mb_imb_pingping,
     .check = mb_imb_check_pingping},
    /* Parallel transfer (3.3.3): turnover 2X (Sendrecv) and 4X (Exchange) per sample. */
    {.name = "Sendrecv", .cls = MB_IMB_PARALLEL, .time_scale = 1, .bw_factor = 2,
     .elem_size = 1, .sbuf = X1, .rbuf = X1, .kernel = mb_imb_sendrecv,
     .check = mb_imb_check_sendrecv},
    /* Exchange: two separate send buffers (new in 3.1); the two receives share one buffer,
     * as in Table 20's 3X, except in check mode where each is kept to be checked. */
    {.name = "Exchange", .cls = MB_IMB_PARALLEL, .time_scale = 1, .bw_factor = 4,
     .elem_size = 1, .sbuf = X2, .rbuf = X1, .rbuf_check_mult = 2,
     .prepare = mb_imb_prepare_exchange, .kernel = mb_imb_exchange,
     .check = mb_imb_check_exchange},
    /* Collectives (3.3.4): bare times, no throughput; rooted ones rotate root = i % Q. */
    {.name = "Bcast", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1, .sbuf = X1,
     .rbuf = X1, .kernel = mb_imb_bcast, .check = mb_imb_check_bcast},
    {.name = "Allgather", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1,
     .sbuf = X1, .rbuf = XQ, .kernel = mb_imb_allgather, .check = mb_imb_check_allgather},
    {.name = "Allgatherv", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1,
     .sbuf = X1, .rbuf = XQ, .prepare = mb_imb_prepare_v, .kernel = mb_imb_allgatherv,
     .check = mb_imb_check_allgatherv},
    {.name = "Scatter", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1, .sbuf = XQ,
     .rbuf = X1, .kernel = mb_imb_scatter, .check = mb_imb_check_scatter},
    {.name = "Scatterv", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1,
     .sbuf = XQ, .rbuf = X1, .prepare = mb_imb_prepare_v, .kernel = mb_imb_scatterv,
     .check = mb_imb_check_scatterv},
    {.name = "Gather", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1, .sbuf = X1,
     .rbuf = XQ, .kernel = mb_imb_gather, .check = mb_imb_check_gather},
    {.name = "Gatherv", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1, .sbuf = X1,
     .rbuf = XQ, .prepare = mb_imb_prepare_v, .kernel = mb_imb_gatherv,
     .check = mb_imb_check_gatherv},
    {.name = "Alltoall", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1,
     .sbuf = XQ, .rbuf = XQ, .kernel = mb_imb_alltoall, .check = mb_imb_check_alltoall},
    {.name = "Alltoallv", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = 1,
     .sbuf = XQ, .rbuf = XQ, .prepare = mb_imb_prepare_v, .kernel = mb_imb_alltoallv,
     .check = mb_imb_check_alltoallv},
    /* Reductions: L = X/sizeof(float) floats, MPI_FLOAT, MPI_SUM (3.3.4.1-3). */
    {.name = "Reduce", .cls = MB_IMB_COLLECTIVE, .time_scale = 1, .elem_size = sizeof(float),
     .sbuf = X1, .rbuf = X1, .kernel = mb_imb_reduce, .check = mb_imb_check_reduce},
    {.name = "Reduce_scatter", .cls = MB_IMB_COLLECTIVE, .time_scale = 1,
     .elem_size = sizeof(float), .sbuf = X1, .rbuf = X1,
     .prepare = mb_imb_prepare_reduce_scatter, .kernel = mb_imb_reduce_scatter,
     .check = mb_imb_check_reduce_scatter},
    {.name = "Allreduce", .cls = MB_IMB_COLLECTIVE, .time_scale = 1,
     .elem_size = sizeof(float), .sbuf = X1, .rbuf = X1, .kernel = mb_imb_allreduce,
     .check = mb_imb_check_allreduce},
    {.name = "Barrier", .cls = MB_IMB_SYNC, .time_scale = 1, .elem_size = 1, .sizeless = 1,
     .sbuf = NONE, .rbuf = NONE, .kernel = mb_imb_barrier, .check = mb_imb_check_barrier},
};
const size_t mb_imb_n_benchmarks = sizeof mb_imb_benchmarks / sizeof mb_imb_benchmarks[0];

int mb_imb_find(const char *name)
{
    for (size_t i = 0; i < mb_imb_n_benchmarks; i++)
        if (strcasecmp(name, mb_imb_benchmarks[i].name) == 0)
            return (int)i;
    return -1;
}
