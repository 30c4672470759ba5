/* SPDX-License-Identifier: BSD-3-Clause */
/* Single and parallel transfer kernels (IMB guide 3.3.2, 3.3.3) and their checks. */
#include "core/error.h"
#include "imb/imb_bench.h"
#include "imb/imb_plan.h"

#include <stdlib.h>

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

/* Intel IMB 2021.11's Uniband and Biband (IMB_bandwidth.c): in a group of Q (even), rank r <
 * Q/2 pairs with r + Q/2. Per iteration, Uniband: the lower rank posts -window_size MPI_Isend,
 * the upper as many MPI_Irecv, both MPI_Waitall, then the upper sends a 1-byte ack the lower
 * receives; Biband: both post the receives, then the sends, MPI_Waitall of all, the same ack.
 * Transfer ws of the window uses buffer ws (the off-cache rotation, as ws % cache_iter). */
struct window_state {
    MPI_Request *req;
    MPI_Status *st; /* not MPI_STATUSES_IGNORE: MPICH's value trips GCC's access checks */
};

static int window_of(const struct mb_imb_args *a)
{
    return (int)mb_imb_window_size(a->cfg);
}

void mb_imb_window_setup(struct mb_imb_args *a)
{
    struct window_state *w = mb_xmalloc(sizeof *w);
    const size_t n = 2 * (size_t)window_of(a);

    w->req = mb_xmalloc(n * sizeof *w->req);
    w->st = mb_xmalloc(n * sizeof *w->st);
    a->state = w;
}

void mb_imb_window_teardown(struct mb_imb_args *a)
{
    struct window_state *w = a->state;

    if (w) {
        free(w->req);
        free(w->st);
        free(w);
    }
    a->state = NULL;
}

static void post_window(const struct mb_imb_args *a, int partner, int recv, int send,
                        MPI_Request *req)
{
    const int n = window_of(a);

    for (int ws = 0; recv && ws < n; ws++)
        MB_MPI(MPI_Irecv(mb_imb_rbuf(a, ws), a->count, MPI_BYTE, partner, TAG, a->comm, &req[ws]));
    for (int ws = 0; send && ws < n; ws++)
        MB_MPI(MPI_Isend(mb_imb_sbuf(a, ws), a->count, MPI_BYTE, partner, TAG, a->comm,
                         &req[recv ? n + ws : ws]));
}

static void window_iteration(const struct mb_imb_args *a, int both)
{
    const struct window_state *w = a->state;
    const int peers = a->size / 2, n = window_of(a);
    char ack = 0;

    if (a->rank >= 2 * peers)
        return;
    if (a->rank < peers) {
        const int dest = a->rank + peers;
        post_window(a, dest, both, 1, w->req);
        MB_MPI(MPI_Waitall(both ? 2 * n : n, w->req, w->st));
        MB_MPI(MPI_Recv(&ack, 1, MPI_CHAR, dest, TAG, a->comm, MPI_STATUS_IGNORE));
    } else {
        const int source = a->rank - peers;
        post_window(a, source, 1, both, w->req);
        MB_MPI(MPI_Waitall(both ? 2 * n : n, w->req, w->st));
        MB_MPI(MPI_Send(&ack, 1, MPI_CHAR, source, TAG, a->comm));
    }
}

void mb_imb_uniband(const struct mb_imb_args *a, long iter)
{
    (void)iter;
    window_iteration(a, 0);
}

void mb_imb_biband(const struct mb_imb_args *a, long iter)
{
    (void)iter;
    window_iteration(a, 1);
}

/* The last transfer of the window landed in buffer window-1 (the same buffer without
 * -off_cache). Uniband: only the upper half receives. */
size_t mb_imb_check_uniband(const struct mb_imb_args *a, long iter)
{
    const int peers = a->size / 2;
    (void)iter;
    if (a->rank < peers || a->rank >= 2 * peers)
        return 0;
    return mb_check_bytes(mb_imb_rbuf(a, window_of(a) - 1), a->bytes, a->rank - peers, 0);
}

size_t mb_imb_check_biband(const struct mb_imb_args *a, long iter)
{
    const int peers = a->size / 2;
    (void)iter;
    if (a->rank >= 2 * peers)
        return 0;
    return mb_check_bytes(mb_imb_rbuf(a, window_of(a) - 1), a->bytes,
                          a->rank < peers ? a->rank + peers : a->rank - peers, 0);
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
