/* SPDX-License-Identifier: BSD-3-Clause */
/* Single and parallel transfer kernels (IMB guide 3.3.2, 3.3.3) and their checks. */
#include "core/error.h"
#include "imb/imb_bench.h"

enum { TAG = 1, TAG_TO_LEFT = 2, TAG_TO_RIGHT = 3 };

/* IMB 3.1 receives PingPong's and PingPing's messages with MPI_ANY_SOURCE and MPI_ANY_TAG and
 * Sendrecv's with MPI_ANY_TAG (IMB_pingpong.c 153/159, IMB_pingping.c 154/162, IMB_sendrecv.c
 * 151: select_source and select_tag are 0, IMB_init.c 856-857). Wildcards take a slower
 * matching path in some libraries (Open MPI's small PingPong 0.13 us with exact matching
 * against IMB 3.1's 0.17 us, docs/figures.md), so the kernels receive as the program does. In a
 * group of two processes only the partner can send, so the data and its check are the same. */

/* PingPong (3.3.2.1): rank 0 sends X bytes, rank 1 receives and sends them back. */
void mb_imb_pingpong(const struct mb_imb_args *a, long iter)
{
    char *s = mb_imb_sbuf(a, iter), *r = mb_imb_rbuf(a, iter);

    if (a->rank == 0) {
        MB_MPI(MPI_Send(s, a->count, MPI_BYTE, 1, TAG, a->comm));
        MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, a->comm,
                        MPI_STATUS_IGNORE));
    } else {
        MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, a->comm,
                        MPI_STATUS_IGNORE));
        MB_MPI(MPI_Send(s, a->count, MPI_BYTE, 0, TAG, a->comm));
    }
}

size_t mb_imb_check_pingpong(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 1 - a->rank, 0);
}

/* PingPing (3.3.2.2): both ranks MPI_Isend simultaneously, MPI_Recv, MPI_Wait. */
void mb_imb_pingping(const struct mb_imb_args *a, long iter)
{
    char *s = mb_imb_sbuf(a, iter), *r = mb_imb_rbuf(a, iter);
    int other = 1 - a->rank;
    MPI_Request req;

    MB_MPI(MPI_Isend(s, a->count, MPI_BYTE, other, TAG, a->comm, &req));
    MB_MPI(
        MPI_Recv(r, a->count, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, a->comm, MPI_STATUS_IGNORE));
    MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

size_t mb_imb_check_pingping(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 1 - a->rank, 0);
}

/* Intel IMB 2021.11's PingPongSpecificSource and PingPingSpecificSource (MPI1_benchmark.cpp:
 * flag SELECT_SOURCE; IMB_pingpong.c, IMB_pingping.c: source = the partner, the tag still
 * MPI_ANY_TAG as select_tag is 0). Their ...AnySource twins are IMB 3.1's kernels above. */
void mb_imb_pingpong_specific(const struct mb_imb_args *a, long iter)
{
    char *s = mb_imb_sbuf(a, iter), *r = mb_imb_rbuf(a, iter);
    const int other = 1 - a->rank;

    if (a->rank == 0) {
        MB_MPI(MPI_Send(s, a->count, MPI_BYTE, other, TAG, a->comm));
        MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, other, MPI_ANY_TAG, a->comm, MPI_STATUS_IGNORE));
    } else {
        MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, other, MPI_ANY_TAG, a->comm, MPI_STATUS_IGNORE));
        MB_MPI(MPI_Send(s, a->count, MPI_BYTE, other, TAG, a->comm));
    }
}

void mb_imb_pingping_specific(const struct mb_imb_args *a, long iter)
{
    char *s = mb_imb_sbuf(a, iter), *r = mb_imb_rbuf(a, iter);
    const int other = 1 - a->rank;
    MPI_Request req;

    MB_MPI(MPI_Isend(s, a->count, MPI_BYTE, other, TAG, a->comm, &req));
    MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, other, MPI_ANY_TAG, a->comm, MPI_STATUS_IGNORE));
    MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

/* Sendrecv (3.3.3.1): periodic chain, send to the right, receive from the left. */
void mb_imb_sendrecv(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Sendrecv(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, a->right, TAG,
                        mb_imb_rbuf(a, iter), a->count, MPI_BYTE, a->left, MPI_ANY_TAG, a->comm,
                        MPI_STATUS_IGNORE));
}

size_t mb_imb_check_sendrecv(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, a->left, 0);
}

/* Exchange (3.3.3.2): MPI_Isend to the left and to the right from two separate buffers,
 * MPI_Recv from both, MPI_Waitall. The tags say which neighbour's buffer arrives where, so
 * that the check is exact even when left == right (Q = 1, 2). */
void mb_imb_prepare_exchange(struct mb_imb_args *a)
{
    a->second = a->check ? a->bytes : 0;
}

void mb_imb_exchange(const struct mb_imb_args *a, long iter)
{
    char *s = mb_imb_sbuf(a, iter), *r = mb_imb_rbuf(a, iter);
    MPI_Request req[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: MPICH's value trips GCC's access checks */

    MB_MPI(MPI_Isend(s, a->count, MPI_BYTE, a->left, TAG_TO_LEFT, a->comm, &req[0]));
    MB_MPI(MPI_Isend(s + a->bytes, a->count, MPI_BYTE, a->right, TAG_TO_RIGHT, a->comm, &req[1]));
    MB_MPI(MPI_Recv(r, a->count, MPI_BYTE, a->left, TAG_TO_RIGHT, a->comm, MPI_STATUS_IGNORE));
    MB_MPI(MPI_Recv(r + a->second, a->count, MPI_BYTE, a->right, TAG_TO_LEFT, a->comm,
                    MPI_STATUS_IGNORE));
    MB_MPI(MPI_Waitall(2, req, st));
}

size_t mb_imb_check_exchange(const struct mb_imb_args *a, long iter)
{
    const char *r = mb_imb_rbuf(a, iter);
    /* The left neighbour sent the second half of its buffer to us, the right one the first. */
    return mb_check_bytes(r, a->bytes, a->left, a->bytes) +
           mb_check_bytes(r + a->second, a->bytes, a->right, 0);
}
