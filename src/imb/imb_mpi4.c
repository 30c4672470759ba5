/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-MPI4's kernels (Intel IMB 2021.11, src_c/IMB_bcast.c IMB_bcast_persist and its
 * neighbours): each creates the MPI-4 persistent form of an IMB-MPI1 collective on the buffers,
 * counts and root of repetition iter - the driver creates it once per loop with iter 0, as
 * 2021.11 does, then starts and waits for it every repetition and frees it. Their checks are
 * the blocking collectives'. A library older than MPI 4.0 has none of these calls: the family
 * is refused before anything runs (mb_imb_validate), and these functions are never called. */
#include "core/error.h"
#include "imb/imb_bench.h"

/* The blocking form: create, start, wait, free (the repetition policy's probes, the check). */
#define BLOCKING(fn)                                                                               \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter)                                       \
    {                                                                                              \
        MPI_Request req;                                                                           \
        mb_imb_##fn##_init(a, iter, &req);                                                         \
        MB_MPI(MPI_Start(&req));                                                                   \
        MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                                                 \
        MB_MPI(MPI_Request_free(&req));                                                            \
    }

#if MPI_VERSION >= 4

const int mb_imb_have_mpi4 = 1;

void mb_imb_bcast_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    const int root = mb_imb_root(a, iter);
    char *buf = a->rank == root ? mb_imb_sbuf(a, iter) : mb_imb_rbuf(a, iter);
    MB_MPI(MPI_Bcast_init(buf, a->count, MPI_BYTE, root, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_allgather_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Allgather_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                              a->count, MPI_BYTE, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_allgatherv_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Allgatherv_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                               a->counts, a->displs, MPI_BYTE, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_gather_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Gather_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                           MPI_BYTE, mb_imb_root(a, iter), a->comm, MPI_INFO_NULL, req));
}

void mb_imb_gatherv_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Gatherv_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                            a->counts, a->displs, MPI_BYTE, mb_imb_root(a, iter), a->comm,
                            MPI_INFO_NULL, req));
}

void mb_imb_scatter_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Scatter_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                            a->count, MPI_BYTE, mb_imb_root(a, iter), a->comm, MPI_INFO_NULL, req));
}

void mb_imb_scatterv_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Scatterv_init(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE,
                             mb_imb_rbuf(a, iter), a->count, MPI_BYTE, mb_imb_root(a, iter),
                             a->comm, MPI_INFO_NULL, req));
}

void mb_imb_alltoall_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Alltoall_init(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                             a->count, MPI_BYTE, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_alltoallv_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Alltoallv_init(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE,
                              mb_imb_rbuf(a, iter), a->counts, a->displs, MPI_BYTE, a->comm,
                              MPI_INFO_NULL, req));
}

void mb_imb_reduce_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Reduce_init(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT, MPI_SUM,
                           mb_imb_root(a, iter), a->comm, MPI_INFO_NULL, req));
}

void mb_imb_reduce_scatter_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Reduce_scatter_init(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->counts, MPI_FLOAT,
                                   MPI_SUM, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_allreduce_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Allreduce_init(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT,
                              MPI_SUM, a->comm, MPI_INFO_NULL, req));
}

void mb_imb_barrier_persist_init(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    (void)iter;
    MB_MPI(MPI_Barrier_init(a->comm, MPI_INFO_NULL, req));
}

#else /* an MPI-3 library: refused before any block runs */

const int mb_imb_have_mpi4 = 0;

#define UNAVAILABLE(fn)                                                                            \
    void mb_imb_##fn##_init(const struct mb_imb_args *a, long iter, MPI_Request *req)              \
    {                                                                                              \
        (void)a;                                                                                   \
        (void)iter;                                                                                \
        (void)req;                                                                                 \
        mb_die("IMB-MPI4: " #fn " needs an MPI-4 library");                                        \
    }
UNAVAILABLE(bcast_persist)
UNAVAILABLE(allgather_persist)
UNAVAILABLE(allgatherv_persist)
UNAVAILABLE(gather_persist)
UNAVAILABLE(gatherv_persist)
UNAVAILABLE(scatter_persist)
UNAVAILABLE(scatterv_persist)
UNAVAILABLE(alltoall_persist)
UNAVAILABLE(alltoallv_persist)
UNAVAILABLE(reduce_persist)
UNAVAILABLE(reduce_scatter_persist)
UNAVAILABLE(allreduce_persist)
UNAVAILABLE(barrier_persist)
#undef UNAVAILABLE

#endif

BLOCKING(bcast_persist)
BLOCKING(allgather_persist)
BLOCKING(allgatherv_persist)
BLOCKING(gather_persist)
BLOCKING(gatherv_persist)
BLOCKING(scatter_persist)
BLOCKING(scatterv_persist)
BLOCKING(alltoall_persist)
BLOCKING(alltoallv_persist)
BLOCKING(reduce_persist)
BLOCKING(reduce_scatter_persist)
BLOCKING(allreduce_persist)
BLOCKING(barrier_persist)
