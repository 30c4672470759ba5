/* SPDX-License-Identifier: BSD-3-Clause */
/* The communication patterns of b_eff (b_eff paper §3 "On communication patterns"; the b_eff
 * web page; their construction as in the b_eff 3.6 source). The pure parts (ring partitions, random
 * orders, Cartesian dims) are separate functions so that the unit tests can check the worked
 * examples. */
#include "beff/beff.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rings (b_eff 3.6's ring partition rule) ----------------------------------------- */

int mb_beff_ring_standard(int n, int i)
{
    const int s[MB_BEFF_RINGS] = {2, 4, 8, n / 4 > 16 ? n / 4 : 16, n / 2 > 32 ? n / 2 : 32, n};
    return s[i] < n ? s[i] : n;
}

void mb_beff_ring_layout(int n, int standard, struct mb_beff_ring *r)
{
    /* b_eff 3.6's partition rule: the ratio is rounded up only from a fractional part of 0.6 on,
     * and a ring never has fewer than 2 members (except with one process in all). */
    int rings = (int)((double)n / standard + 0.4), lo, hi, c_hi, c_lo;
    const char *suffix;

    if (rings > n / 2)
        rings = n / 2;
    if (rings < 1)
        rings = 1;
    lo = n / rings;
    hi = lo + 1;
    c_hi = n - lo * rings;
    c_lo = rings - c_hi;
    /* Step 3: with an odd small size the even-sized rings come first. */
    if (lo % 2 == 1 && c_hi > 0) {
        r->count1 = c_hi, r->size1 = hi, r->count2 = c_lo, r->size2 = lo;
    } else {
        r->count1 = c_lo, r->size1 = lo, r->count2 = c_hi, r->size2 = hi;
    }
    r->rings = rings;
    suffix = r->count2 == 0 ? "fix" : (r->size2 > r->size1 ? "&+1" : "&-1");
    snprintf(r->label, sizeof r->label, "ring-%d*%d%s", rings, r->size1, suffix);
}

void mb_beff_ring_neighbours(const struct mb_beff_ring *r, int rank, int *next, int *prev)
{
    const int split = r->count1 * r->size1;
    int base, sz;

    if (rank < split) {
        sz = r->size1;
        base = rank / sz * sz;
    } else {
        sz = r->size2;
        base = split + (rank - split) / sz * sz;
    }
    *next = base + (rank - base + 1) % sz;
    *prev = base + (rank - base - 1 + sz) % sz;
}

/* ---- random and worst rings (as in b_eff 3.6) ---------------------------------------- */

/* The 48-bit linear congruential generator of drand48 (POSIX), with explicit state so that
 * no global generator is touched and every rank can draw the same sequence. */
static double lcg48(unsigned short s[3])
{
    unsigned long long x =
        ((unsigned long long)s[2] << 32) | ((unsigned long long)s[1] << 16) | s[0];
    x = (x * 0x5DEECE66DULL + 0xBULL) & ((1ULL << 48) - 1);
    s[0] = (unsigned short)(x & 0xFFFF);
    s[1] = (unsigned short)((x >> 16) & 0xFFFF);
    s[2] = (unsigned short)((x >> 32) & 0xFFFF);
    return (double)x / (double)(1ULL << 48);
}

void mb_beff_seed_state(long long seed, unsigned short state[3])
{
    /* As srand48(seed): the high 32 bits of the state are the seed's low 32 bits. */
    state[0] = 0x330E;
    state[1] = (unsigned short)((unsigned long long)seed & 0xFFFF);
    state[2] = (unsigned short)(((unsigned long long)seed >> 16) & 0xFFFF);
}

void mb_beff_random_order(int n, unsigned short state[3], int *pos)
{
    /* As b_eff 3.6: each rank in turn draws a position and probes linearly to the next free one. */
    for (int j = 0; j < n; j++)
        pos[j] = -1;
    for (int i = 0; i < n; i++) {
        int j = (int)(lcg48(state) * n);
        if (j >= n)
            j = n - 1;
        while (pos[j] != -1)
            j = (j + 1) % n;
        pos[j] = i;
    }
}

void mb_beff_worst_order(int n, int *pos)
{
    for (int j = 0; j < n; j++)
        pos[j] = (j % 2 == 0) ? j / 2 : n - 1 - j / 2;
}

/* ---- Cartesian (b_eff web page; b_eff 3.6) ------------------------------------------- */

int mb_beff_cart_choose(int n, int ndims, int dims[3])
{
    int c = n;

    /* b_eff web page: shrink the process count until every dimension is longer than 1 (for more
     * than 8 processes) or to an even count (for more than 4). */
    for (;;) {
        dims[0] = dims[1] = dims[2] = 0;
        MB_MPI(MPI_Dims_create(c, ndims, dims));
        if (ndims == 2)
            dims[2] = 1;
        if (dims[ndims - 1] > 1 || (c < 8 && c % 2 == 0) || c < 4)
            return c;
        c--;
    }
}

/* ---- the pattern set ----------------------------------------------------------------- */

static struct mb_beff_pattern *add(struct mb_beff_patterns *set, int cap, const char *label,
                                   enum mb_beff_role role, MPI_Comm comm)
{
    struct mb_beff_pattern *p;

    if (set->n >= cap)
        mb_die("b_eff: internal error: more than %d patterns", cap);
    p = &set->p[set->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->role = role;
    p->comm = comm;
    p->participation = comm == MPI_COMM_NULL ? 0 : 1;
    return p;
}

static void add_step(struct mb_beff_pattern *p, int dest, int src)
{
    p->step[p->nsteps].dest = dest;
    p->step[p->nsteps].src = src;
    p->nsteps++;
}

/* A ring step pair: ping forward, pong backward. */
static void ring_steps(struct mb_beff_pattern *p, int next, int prev)
{
    add_step(p, next, prev);
    add_step(p, prev, next);
}

/* Rings in the order pos (world ranks): this process's neighbours in that order. */
static void order_ring(struct mb_beff_pattern *p, const int *pos, int n, int rank)
{
    for (int j = 0; j < n; j++)
        if (pos[j] == rank) {
            ring_steps(p, pos[(j + 1) % n], pos[(j - 1 + n) % n]);
            return;
        }
}

/* A bi-section pair member (as in b_eff 3.6): the "sender" side sends in the ping step and receives
 * in the pong step; the other side the reverse. */
static void pair_steps(struct mb_beff_pattern *p, int partner, int sender)
{
    if (sender) {
        add_step(p, partner, MPI_PROC_NULL);
        add_step(p, MPI_PROC_NULL, partner);
    } else {
        add_step(p, MPI_PROC_NULL, partner);
        add_step(p, partner, MPI_PROC_NULL);
    }
}

static void bisection(struct mb_beff_pattern *p, int n, int rank, int worst)
{
    const int c = 2 * (n / 2);

    if (rank >= c) {
        p->participation = -1; /* the odd one out still joins Alltoallv */
        return;
    }
    if (worst)
        pair_steps(p, c - 1 - rank, rank < c / 2);
    else
        pair_steps(p, rank ^ 1, rank % 2 == 0);
}

/* The Cartesian patterns of one period (as in b_eff 3.6): per-direction patterns only when cyclic,
 * then the pattern with all directions; communicators are created over world without reordering,
 * so the first C world ranks take part. */
static void cartesian(struct mb_beff_patterns *set, int cap, MPI_Comm world, int n, int period)
{
    static const char dirname[3] = {'x', 'y', 'z'};

    for (int nd = 2; nd <= 3; nd++) {
        int *dims = set->cart_dims[nd - 2], periods[3] = {period, period, period};
        int src[3] = {MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL};
        int dest[3] = {MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL};
        MPI_Comm comm;
        char label[20];
        struct mb_beff_pattern *p;

        set->cart_c[nd - 2] = mb_beff_cart_choose(n, nd, dims);
        MB_MPI(MPI_Cart_create(world, nd, dims, periods, 0, &comm));
        set->owned[2 * period + nd - 2] = comm;
        if (comm != MPI_COMM_NULL) {
            MB_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
            for (int d = 0; d < nd; d++)
                MB_MPI(MPI_Cart_shift(comm, d, 1, &src[d], &dest[d]));
        }
        if (period)
            for (int d = 0; d < nd; d++) {
                if (dims[d] < 2)
                    continue;
                snprintf(label, sizeof label, "cyclic-%ddim-%c", nd, dirname[d]);
                p = add(set, cap, label, MB_BEFF_ROLE_INFO, comm);
                if (comm != MPI_COMM_NULL)
                    ring_steps(p, dest[d], src[d]);
            }
        snprintf(label, sizeof label, "%s-%ddim-all", period ? "cyclic" : "acyclic", nd);
        p = add(set, cap, label, MB_BEFF_ROLE_INFO, comm);
        if (comm != MPI_COMM_NULL)
            for (int d = 0; d < nd; d++)
                if (dims[d] >= 2)
                    ring_steps(p, dest[d], src[d]);
    }
}

void mb_beff_pong_removal(struct mb_beff_pattern *p)
{
    /* b_eff 3.6's pong removal: one Alltoallv carries one message per pair, so a pong that goes to
     * the same partner as its ping (rings of 2, cyclic directions of length 2) is dropped. */
    for (int i = p->nsteps / 2 - 1; i >= 0; i--) {
        struct mb_beff_step *ping = &p->step[2 * i], *pong = &p->step[2 * i + 1];
        if (ping->dest == MPI_PROC_NULL || ping->dest != pong->dest)
            continue;
        memmove(pong, pong + 1, (size_t)(p->nsteps - 2 * i - 2) * sizeof *pong);
        p->nsteps--;
    }
}

int mb_beff_pattern_cap(int nrandom)
{
    return MB_BEFF_RINGS + nrandom + 4 + 2 + 7;
}

/* The host of every world rank, named by its lowest world rank (MPI_Comm_split_type), and
 * the number of hosts. */
static int *host_of_ranks(MPI_Comm world, int n, int rank, int *nhosts)
{
    MPI_Comm node;
    int leader = rank, *host = mb_xmalloc((size_t)n * sizeof *host);

    MB_MPI(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node));
    MB_MPI(MPI_Comm_free(&node));
    MB_MPI(MPI_Allgather(&leader, 1, MPI_INT, host, 1, MPI_INT, world));
    *nhosts = 0;
    for (int r = 0; r < n; r++)
        *nhosts += host[r] == r;
    return host;
}

/* Messages this process sends per iteration to a process on its own host. Whether a ring
 * stays inside the SMP nodes decides what it measures (the b_eff paper §3: the numbering of
 * the processes on a cluster of SMP nodes has a heavy impact on the ring patterns). */
static long long sends_within_host(const struct mb_beff_pattern *p, MPI_Comm world, const int *host,
                                   int rank)
{
    MPI_Group pg, wg;
    long long within = 0;

    if (p->comm == MPI_COMM_NULL || p->nsteps == 0)
        return 0;
    MB_MPI(MPI_Comm_group(p->comm, &pg));
    MB_MPI(MPI_Comm_group(world, &wg));
    for (int j = 0; j < p->nsteps; j++) {
        int dest = p->step[j].dest, w;
        if (dest == MPI_PROC_NULL)
            continue;
        MB_MPI(MPI_Group_translate_ranks(pg, 1, &dest, wg, &w));
        within += w != MPI_UNDEFINED && host[w] == host[rank];
    }
    MB_MPI(MPI_Group_free(&pg));
    MB_MPI(MPI_Group_free(&wg));
    return within;
}

void mb_beff_patterns_build(struct mb_beff_patterns *set, MPI_Comm world, int nrandom,
                            long long seed)
{
    const int cap = mb_beff_pattern_cap(nrandom);
    int n, rank, *pos, *steps0, *host;
    long long *counts;
    unsigned short state[3];
    struct mb_beff_pattern *p;

    MB_MPI(MPI_Comm_size(world, &n));
    MB_MPI(MPI_Comm_rank(world, &rank));
    memset(set, 0, sizeof *set);
    for (int i = 0; i < 4; i++)
        set->owned[i] = MPI_COMM_NULL;
    set->p = mb_xcalloc((size_t)cap, sizeof *set->p);
    pos = mb_xmalloc((size_t)n * sizeof *pos);

    for (int i = 0; i < MB_BEFF_RINGS; i++) {
        struct mb_beff_ring r;
        int next, prev;
        mb_beff_ring_layout(n, mb_beff_ring_standard(n, i), &r);
        mb_beff_ring_neighbours(&r, rank, &next, &prev);
        ring_steps(add(set, cap, r.label, MB_BEFF_ROLE_RING, world), next, prev);
    }
    /* Every rank draws the same orders from the same seed: no broadcast needed. */
    mb_beff_seed_state(seed, state);
    for (int i = 0; i < nrandom; i++) {
        mb_beff_random_order(n, state, pos);
        order_ring(add(set, cap, "random-cyc-1dim", MB_BEFF_ROLE_RANDOM, world), pos, n, rank);
    }
    set->first_info = set->n;
    mb_beff_worst_order(n, pos);
    order_ring(add(set, cap, "worst-cyc-1dim", MB_BEFF_ROLE_INFO, world), pos, n, rank);
    bisection(add(set, cap, "best  bi-section", MB_BEFF_ROLE_INFO, world), n, rank, 0);
    bisection(add(set, cap, "worst bi-section", MB_BEFF_ROLE_INFO, world), n, rank, 1);
    set->pingpong = set->n;
    p = add(set, cap, "one PingPong Pair", MB_BEFF_ROLE_INFO, world);
    p->sendrecv_only = 1;
    if (n >= 2 && rank < 2)
        pair_steps(p, rank ^ 1, rank == 0);
    else
        p->participation = -1;
    cartesian(set, cap, world, n, 0);
    cartesian(set, cap, world, n, 1);
    free(pos);

    /* Whole-pattern figures: messages per iteration (and how many stay within a host),
     * participants, rank 0's steps. */
    host = host_of_ranks(world, n, rank, &set->nhosts);
    counts = mb_xcalloc(3 * (size_t)set->n, sizeof *counts);
    steps0 = mb_xmalloc((size_t)set->n * sizeof *steps0);
    for (int i = 0; i < set->n; i++) {
        mb_beff_pong_removal(&set->p[i]);
        for (int j = 0; j < set->p[i].nsteps; j++)
            set->p[i].sends += set->p[i].step[j].dest != MPI_PROC_NULL;
        counts[3 * i] = set->p[i].sends;
        counts[3 * i + 1] = set->p[i].participation == 1;
        counts[3 * i + 2] = sends_within_host(&set->p[i], world, host, rank);
        steps0[i] = set->p[i].nsteps;
    }
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 3 * set->n, MPI_LONG_LONG, MPI_SUM, world));
    MB_MPI(MPI_Bcast(steps0, set->n, MPI_INT, 0, world));
    free(host);
    for (int i = 0; i < set->n; i++) {
        set->p[i].messages = counts[3 * i];
        set->p[i].participants = (int)counts[3 * i + 1];
        set->p[i].within_host = counts[3 * i + 2];
        set->p[i].steps0 = steps0[i];
        /* A pattern in which nobody sends (bi-sections with one process) is not measured. */
        if (set->p[i].messages == 0) {
            set->p[i].participants = 0;
            if (set->p[i].participation == 1)
                set->p[i].participation = -1;
        }
    }
    free(counts);
    free(steps0);
}

void mb_beff_patterns_free(struct mb_beff_patterns *set)
{
    for (int i = 0; i < 4; i++)
        if (set->owned[i] != MPI_COMM_NULL)
            MB_MPI(MPI_Comm_free(&set->owned[i]));
    free(set->p);
    memset(set, 0, sizeof *set);
}
