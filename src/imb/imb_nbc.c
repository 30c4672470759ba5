/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-NBC's kernels (Intel IMB 2021.11, src_c/IMB_bcast.c IMB_ibcast and its neighbours): each
 * starts the non-blocking form of a collective of IMB-MPI1 on the same buffers, counts and
 * root as the blocking kernel (imb_coll.c), so the blocking kernels' checks serve them. The
 * driver waits for the request; the blocking form here (start, wait) serves the repetition
 * policy's probes and the check. */
#include "core/error.h"
#include "imb/imb_bench.h"

/* The blocking form of a start: the call and its wait. */
#define BLOCKING(fn)                                                                               \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter)                                       \
    {                                                                                              \
        MPI_Request req;                                                                           \
        mb_imb_##fn##_start(a, iter, &req);                                                        \
        MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                                                 \
    }

void mb_imb_ibcast_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    const int root = mb_imb_root(a, iter);
    char *buf = a->rank == root ? mb_imb_sbuf(a, iter) : mb_imb_rbuf(a, iter);
    MB_MPI(MPI_Ibcast(buf, a->count, MPI_BYTE, root, a->comm, req));
}
BLOCKING(ibcast)

void mb_imb_iallgather_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Iallgather(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                          MPI_BYTE, a->comm, req));
}
BLOCKING(iallgather)

void mb_imb_iallgatherv_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Iallgatherv(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter),
                           a->counts, a->displs, MPI_BYTE, a->comm, req));
}
BLOCKING(iallgatherv)

void mb_imb_igather_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Igather(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                       MPI_BYTE, mb_imb_root(a, iter), a->comm, req));
}
BLOCKING(igather)

void mb_imb_igatherv_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Igatherv(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->counts,
                        a->displs, MPI_BYTE, mb_imb_root(a, iter), a->comm, req));
}
BLOCKING(igatherv)

void mb_imb_iscatter_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Iscatter(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                        MPI_BYTE, mb_imb_root(a, iter), a->comm, req));
}
BLOCKING(iscatter)

void mb_imb_iscatterv_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Iscatterv(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE, mb_imb_rbuf(a, iter),
                         a->count, MPI_BYTE, mb_imb_root(a, iter), a->comm, req));
}
BLOCKING(iscatterv)

void mb_imb_ialltoall_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Ialltoall(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                         MPI_BYTE, a->comm, req));
}
BLOCKING(ialltoall)

void mb_imb_ialltoallv_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Ialltoallv(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE,
                          mb_imb_rbuf(a, iter), a->counts, a->displs, MPI_BYTE, a->comm, req));
}
BLOCKING(ialltoallv)

void mb_imb_ireduce_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Ireduce(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT, MPI_SUM,
                       mb_imb_root(a, iter), a->comm, req));
}
BLOCKING(ireduce)

void mb_imb_prepare_ireduce_scatter(struct mb_imb_args *a)
{
    for (int i = 0; i < a->size; i++) {
        a->counts[i] = a->count;
        a->displs[i] = i * a->count; /* where the check finds this process's block */
    }
}

void mb_imb_ireduce_scatter_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Ireduce_scatter(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->counts, MPI_FLOAT,
                               MPI_SUM, a->comm, req));
}
BLOCKING(ireduce_scatter)

void mb_imb_iallreduce_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    MB_MPI(MPI_Iallreduce(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT, MPI_SUM,
                          a->comm, req));
}
BLOCKING(iallreduce)

void mb_imb_ibarrier_start(const struct mb_imb_args *a, long iter, MPI_Request *req)
{
    (void)iter;
    MB_MPI(MPI_Ibarrier(a->comm, req));
}
BLOCKING(ibarrier)
