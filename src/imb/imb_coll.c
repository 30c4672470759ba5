/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective kernels (IMB guide 3.3.4) and their checks. Rooted operations use
 * root = i % Q in iteration i (mb_imb_root). The send buffer of rank p holds mb_pattern(p, index)
 * with the index running over the whole buffer (block d of an Alltoall send buffer starts at d*X).
 */
#include "core/error.h"
#include "imb/imb_bench.h"

/* Defects in a receive buffer made of one X-byte block from every rank p, each a copy of
 * block first_block of p's send buffer (0 for gathers, the receiver's rank for Alltoall). */
static size_t check_blocks(const struct mb_imb_args *a, const char *r, size_t first_block)
{
    size_t bad = 0;
    for (int p = 0; p < a->size; p++)
        bad += mb_check_bytes(r + (size_t)p * a->bytes, a->bytes, p, first_block * a->bytes);
    return bad;
}

void mb_imb_prepare_v(struct mb_imb_args *a)
{
    for (int i = 0; i < a->size; i++) {
        a->counts[i] = a->count;
        a->displs[i] = i * a->count; /* the driver guarantees Q * X <= INT_MAX */
    }
}

/* Reduce_scatter (3.3.4.2): L = r*Q + s items, r+1 to ranks below s, r to the others. */
void mb_imb_prepare_reduce_scatter(struct mb_imb_args *a)
{
    int r = a->count / a->size, s = a->count % a->size, disp = 0;
    for (int i = 0; i < a->size; i++) {
        a->counts[i] = r + (i < s);
        a->displs[i] = disp;
        disp += a->counts[i];
    }
}

void mb_imb_bcast(const struct mb_imb_args *a, long iter)
{
    int root = mb_imb_root(a, iter);
    char *buf = a->rank == root ? mb_imb_sbuf(a, iter) : mb_imb_rbuf(a, iter);
    MB_MPI(MPI_Bcast(buf, a->count, MPI_BYTE, root, a->comm));
}

size_t mb_imb_check_bcast(const struct mb_imb_args *a, long iter)
{
    int root = mb_imb_root(a, iter);
    return a->rank == root ? 0 : mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, root, 0);
}

void mb_imb_allgather(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Allgather(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                         MPI_BYTE, a->comm));
}

size_t mb_imb_check_allgather(const struct mb_imb_args *a, long iter)
{
    return check_blocks(a, mb_imb_rbuf(a, iter), 0);
}

void mb_imb_allgatherv(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Allgatherv(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->counts,
                          a->displs, MPI_BYTE, a->comm));
}

size_t mb_imb_check_allgatherv(const struct mb_imb_args *a, long iter)
{
    return check_blocks(a, mb_imb_rbuf(a, iter), 0);
}

void mb_imb_scatter(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Scatter(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                       MPI_BYTE, mb_imb_root(a, iter), a->comm));
}

size_t mb_imb_check_scatter(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, mb_imb_root(a, iter),
                          (size_t)a->rank * a->bytes);
}

void mb_imb_scatterv(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Scatterv(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE, mb_imb_rbuf(a, iter),
                        a->count, MPI_BYTE, mb_imb_root(a, iter), a->comm));
}

size_t mb_imb_check_scatterv(const struct mb_imb_args *a, long iter)
{
    return mb_imb_check_scatter(a, iter);
}

void mb_imb_gather(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Gather(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                      MPI_BYTE, mb_imb_root(a, iter), a->comm));
}

size_t mb_imb_check_gather(const struct mb_imb_args *a, long iter)
{
    return a->rank == mb_imb_root(a, iter) ? check_blocks(a, mb_imb_rbuf(a, iter), 0) : 0;
}

void mb_imb_gatherv(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Gatherv(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->counts,
                       a->displs, MPI_BYTE, mb_imb_root(a, iter), a->comm));
}

size_t mb_imb_check_gatherv(const struct mb_imb_args *a, long iter)
{
    return mb_imb_check_gather(a, iter);
}

void mb_imb_alltoall(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Alltoall(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, mb_imb_rbuf(a, iter), a->count,
                        MPI_BYTE, a->comm));
}

size_t mb_imb_check_alltoall(const struct mb_imb_args *a, long iter)
{
    return check_blocks(a, mb_imb_rbuf(a, iter), (size_t)a->rank);
}

void mb_imb_alltoallv(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Alltoallv(mb_imb_sbuf(a, iter), a->counts, a->displs, MPI_BYTE, mb_imb_rbuf(a, iter),
                         a->counts, a->displs, MPI_BYTE, a->comm));
}

size_t mb_imb_check_alltoallv(const struct mb_imb_args *a, long iter)
{
    return mb_imb_check_alltoall(a, iter);
}

void mb_imb_reduce(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Reduce(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT, MPI_SUM,
                      mb_imb_root(a, iter), a->comm));
}

size_t mb_imb_check_reduce(const struct mb_imb_args *a, long iter)
{
    if (a->rank != mb_imb_root(a, iter))
        return 0;
    return mb_check_float_sums((const float *)mb_imb_rbuf(a, iter), (size_t)a->count, a->size, 0);
}

void mb_imb_reduce_scatter(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Reduce_scatter(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->counts, MPI_FLOAT,
                              MPI_SUM, a->comm));
}

size_t mb_imb_check_reduce_scatter(const struct mb_imb_args *a, long iter)
{
    return mb_check_float_sums((const float *)mb_imb_rbuf(a, iter), (size_t)a->counts[a->rank],
                               a->size, (size_t)a->displs[a->rank]);
}

void mb_imb_allreduce(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Allreduce(mb_imb_sbuf(a, iter), mb_imb_rbuf(a, iter), a->count, MPI_FLOAT, MPI_SUM,
                         a->comm));
}

size_t mb_imb_check_allreduce(const struct mb_imb_args *a, long iter)
{
    return mb_check_float_sums((const float *)mb_imb_rbuf(a, iter), (size_t)a->count, a->size, 0);
}

void mb_imb_barrier(const struct mb_imb_args *a, long iter)
{
    (void)iter;
    MB_MPI(MPI_Barrier(a->comm));
}

size_t mb_imb_check_barrier(const struct mb_imb_args *a, long iter)
{
    (void)a;
    (void)iter;
    return 0;
}
