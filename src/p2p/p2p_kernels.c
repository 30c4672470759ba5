/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-P2P patterns (Intel IMB 2021.11, src_c/P2P/imb_p2p_*.c): each benchmark's layout
 * (who talks to whom, or why it cannot run on this many processes) and one step of its loop.
 * Steps never read the clock; the driver times them (p2p_driver.c). Every message has tag 0 on
 * the run's communicator, as in 2021.11. */
#include "p2p/p2p_kernels.h"

#include "core/error.h"

/* PingPong, PingPing: rank r and r + P/2 (an even P of at least 2). */
int mb_p2p_layout_pairs(struct mb_p2p_state *s)
{
    if (s->nranks < 2 || s->nranks % 2 != 0)
        return 0;
    s->partner = (s->rank + s->nranks / 2) % s->nranks;
    return 1;
}

/* SendRecv_Replace and the random patterns: any P of at least 2. */
int mb_p2p_layout_ring(struct mb_p2p_state *s)
{
    if (s->nranks < 2)
        return 0;
    s->partner = (s->rank + 1) % s->nranks;
    s->left = (s->rank + s->nranks - 1) % s->nranks;
    return 1;
}

/* The lower half sends first (imb_p2p_pingpong.c). */
void mb_p2p_pingpong(struct mb_p2p_state *s)
{
    const int count = (int)s->size;

    if (s->rank < s->nranks / 2) {
        mb_p2p_touch_send(s, s->s[0]);
        MB_MPI(MPI_Send(s->s[0], count, MPI_BYTE, s->partner, 0, s->comm));
        MB_MPI(MPI_Recv(s->r[0], count, MPI_BYTE, s->partner, 0, s->comm, MPI_STATUS_IGNORE));
        mb_p2p_touch_recv(s, s->r[0]);
    } else {
        MB_MPI(MPI_Recv(s->r[0], count, MPI_BYTE, s->partner, 0, s->comm, MPI_STATUS_IGNORE));
        mb_p2p_touch_recv(s, s->r[0]);
        mb_p2p_touch_send(s, s->s[0]);
        MB_MPI(MPI_Send(s->s[0], count, MPI_BYTE, s->partner, 0, s->comm));
    }
    s->got[0] = s->r[0];
    s->got_from[0] = s->partner;
    s->ngot = 1;
}

/* Both send at once: the receive posted first (imb_p2p_pingping.c). */
void mb_p2p_pingping(struct mb_p2p_state *s)
{
    const int count = (int)s->size;
    MPI_Request req;

    MB_MPI(MPI_Irecv(s->r[0], count, MPI_BYTE, s->partner, 0, s->comm, &req));
    mb_p2p_touch_send(s, s->s[0]);
    MB_MPI(MPI_Send(s->s[0], count, MPI_BYTE, s->partner, 0, s->comm));
    MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    mb_p2p_touch_recv(s, s->r[0]);
    s->got[0] = s->r[0];
    s->got_from[0] = s->partner;
    s->ngot = 1;
}

/* To the right, from the left, in one buffer (imb_p2p_sendrecv_replace.c); its one read of the
 * buffer is the finish. */
void mb_p2p_sendrecv_replace(struct mb_p2p_state *s)
{
    mb_p2p_touch_send(s, s->s[0]);
    MB_MPI(MPI_Sendrecv_replace(s->s[0], (int)s->size, MPI_BYTE, s->partner, 0, s->left, 0, s->comm,
                                MPI_STATUS_IGNORE));
    s->got[0] = s->s[0];
    s->got_from[0] = s->left;
    s->ngot = 1;
}

void mb_p2p_sendrecv_replace_finish(struct mb_p2p_state *s)
{
    mb_p2p_touch_recv(s, s->s[0]);
}

/* The random patterns start every loop from the same generator state, so that the warm-up and
 * the timed loop - and every process - draw the same sequence. */
void mb_p2p_begin_random(struct mb_p2p_state *s)
{
    s->seed = 0;
}

/* A random pair of two different ranks: the sender first. */
static void random_pair(struct mb_p2p_state *s, int *from, int *to)
{
    *from = (int)(mb_p2p_random(&s->seed) % (uint32_t)s->nranks);
    do
        *to = (int)(mb_p2p_random(&s->seed) % (uint32_t)s->nranks);
    while (*to == *from);
}

/* One message from a random rank to another (imb_p2p_unirandom.c). */
void mb_p2p_unirandom(struct mb_p2p_state *s)
{
    int from, to;

    random_pair(s, &from, &to);
    s->ngot = 0;
    if (s->rank == from) {
        mb_p2p_touch_send(s, s->s[0]);
        MB_MPI(MPI_Send(s->s[0], (int)s->size, MPI_BYTE, to, 0, s->comm));
        s->messages++;
    } else if (s->rank == to) {
        MB_MPI(MPI_Recv(s->r[0], (int)s->size, MPI_BYTE, from, 0, s->comm, MPI_STATUS_IGNORE));
        mb_p2p_touch_recv(s, s->r[0]);
        s->messages++;
        s->got[0] = s->r[0];
        s->got_from[0] = from;
        s->ngot = 1;
    }
}

/* A random pair exchanges one message each way (imb_p2p_birandom.c). */
void mb_p2p_birandom(struct mb_p2p_state *s)
{
    int from, to;

    random_pair(s, &from, &to);
    s->ngot = 0;
    if (s->rank == from || s->rank == to) {
        const int other = s->rank == from ? to : from;
        MPI_Request req;
        MB_MPI(MPI_Irecv(s->r[0], (int)s->size, MPI_BYTE, other, 0, s->comm, &req));
        mb_p2p_touch_send(s, s->s[0]);
        MB_MPI(MPI_Send(s->s[0], (int)s->size, MPI_BYTE, other, 0, s->comm));
        MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        mb_p2p_touch_recv(s, s->r[0]);
        s->messages += 2;
        s->got[0] = s->r[0];
        s->got_from[0] = other;
        s->ngot = 1;
    }
}

void mb_p2p_begin_ring(struct mb_p2p_state *s)
{
    for (int i = 0; i < s->nranks; i++)
        s->ring[i] = i;
    s->seed = 0;
}

/* Every process at once: a new random ring each step, each sends to its successor and receives
 * from its predecessor (imb_p2p_corandom.c: the permutation shuffled in place). */
void mb_p2p_corandom(struct mb_p2p_state *s)
{
    const int n = s->nranks;
    int i = 0, from, to;
    MPI_Request req;

    for (int k = 0; k < n; k++) {
        const int j = (int)(mb_p2p_random(&s->seed) % (uint32_t)n), t = s->ring[k];
        s->ring[k] = s->ring[j];
        s->ring[j] = t;
    }
    while (s->ring[i] != s->rank)
        i++;
    from = s->ring[(i + n - 1) % n];
    to = s->ring[(i + 1) % n];
    MB_MPI(MPI_Irecv(s->r[0], (int)s->size, MPI_BYTE, from, 0, s->comm, &req));
    mb_p2p_touch_send(s, s->s[0]);
    MB_MPI(MPI_Send(s->s[0], (int)s->size, MPI_BYTE, to, 0, s->comm));
    MB_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    mb_p2p_touch_recv(s, s->r[0]);
    s->messages += 2;
    s->got[0] = s->r[0];
    s->got_from[0] = from;
    s->ngot = 1;
}

/* The rank at (x, y, z) of a periodic grid. */
static int grid_rank(const struct mb_p2p_state *s, int x, int y, int z)
{
    const int lx = s->dims[0], ly = s->dims[1], lz = s->ndims == 3 ? s->dims[2] : 1;
    x = (x + lx) % lx;
    y = (y + ly) % ly;
    z = (z + lz) % lz;
    return lx * ly * z + lx * y + x;
}

/* The most nearly square X x Y = P with X, Y >= 2 (imb_p2p_stencil2d.c): the smallest square
 * side whose square holds P, then Y down to a divisor of P. */
static void factor2(int n, int *lx, int *ly)
{
    *lx = *ly = 2;
    while (*lx * *ly < n) {
        (*lx)++;
        (*ly)++;
    }
    if (*lx * *ly > n) {
        while (*ly > 1 && n % *ly != 0)
            (*ly)--;
        *lx = n / *ly;
    }
}

int mb_p2p_layout_stencil2d(struct mb_p2p_state *s)
{
    int lx, ly, x, y;

    factor2(s->nranks, &lx, &ly);
    if (lx < 2 || ly < 2 || lx * ly != s->nranks)
        return 0;
    s->dims[0] = lx;
    s->dims[1] = ly;
    s->ndims = 2;
    y = s->rank / lx;
    x = s->rank % lx;
    s->neighbours[0] = grid_rank(s, x - 1, y, 0);
    s->neighbours[1] = grid_rank(s, x + 1, y, 0);
    s->neighbours[2] = grid_rank(s, x, y - 1, 0);
    s->neighbours[3] = grid_rank(s, x, y + 1, 0);
    return 1;
}

/* X x Y x Z = P with every side >= 2 (imb_p2p_stencil3d.c): the smallest cube that holds P,
 * then Z down to divisors of P with the most nearly square X x Y of P / Z, kept while Y >= Z. */
int mb_p2p_layout_stencil3d(struct mb_p2p_state *s)
{
    const int n = s->nranks;
    int lx = 2, ly = 2, lz = 2, x, y, z;

    while (lx * ly * lz < n) {
        lx++;
        ly++;
        lz++;
    }
    while (lx * ly * lz > n) {
        int px, py, m = 0;
        lz--;
        while (lz > 1 && n % lz != 0)
            lz--;
        if (lz != 0)
            m = n / lz;
        px = py = 2;
        while (px * py < m) {
            px++;
            py++;
        }
        if (px * py > m) {
            while (py > 1 && m % py != 0)
                py--;
            px = m / py;
        }
        if (py >= lz) {
            lx = px;
            ly = py;
        }
    }
    if (lx < 2 || ly < 2 || lz < 2 || lx * ly * lz != n)
        return 0;
    s->dims[0] = lx;
    s->dims[1] = ly;
    s->dims[2] = lz;
    s->ndims = 3;
    z = s->rank / (lx * ly);
    y = (s->rank - lx * ly * z) / lx;
    x = (s->rank - lx * ly * z) % lx;
    s->neighbours[0] = grid_rank(s, x - 1, y, z);
    s->neighbours[1] = grid_rank(s, x + 1, y, z);
    s->neighbours[2] = grid_rank(s, x, y - 1, z);
    s->neighbours[3] = grid_rank(s, x, y + 1, z);
    s->neighbours[4] = grid_rank(s, x, y, z - 1);
    s->neighbours[5] = grid_rank(s, x, y, z + 1);
    return 1;
}

/* A halo exchange with every neighbour: the sends' lines written, all receives posted, all
 * sends started, all completed, the receives' lines read (imb_p2p_stencil2d.c). */
void mb_p2p_stencil(struct mb_p2p_state *s)
{
    MPI_Request req[2 * MB_P2P_MAX_BUFS];
    /* Statuses, not MPI_STATUSES_IGNORE: MPICH's header declares the array's size, and GCC
     * warns about a null one (-Wstringop-overflow). */
    MPI_Status st[2 * MB_P2P_MAX_BUFS];
    const int nb = s->nbuf;

    for (int i = 0; i < nb; i++)
        mb_p2p_touch_send(s, s->s[i]);
    for (int i = 0; i < nb; i++)
        MB_MPI(MPI_Irecv(s->r[i], (int)s->size, MPI_BYTE, s->neighbours[i], 0, s->comm, &req[i]));
    for (int i = 0; i < nb; i++)
        MB_MPI(
            MPI_Isend(s->s[i], (int)s->size, MPI_BYTE, s->neighbours[i], 0, s->comm, &req[nb + i]));
    MB_MPI(MPI_Waitall(2 * nb, req, st));
    for (int i = 0; i < nb; i++) {
        mb_p2p_touch_recv(s, s->r[i]);
        s->got[i] = s->r[i];
        s->got_from[i] = s->neighbours[i];
    }
    s->ngot = nb;
    s->messages += 2 * nb;
}
