/* SPDX-License-Identifier: BSD-3-Clause */
/* The three transfer methods of b_eff (b_eff paper §3 "On communication methods"; details as in the
 * b_eff 3.6 source): what one iteration of a pattern does. No clock here (docs/architecture.md,
 * property 2): the driver times loops of these calls. */
#include "beff/beff.h"

#include "core/buffers.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* b_eff checks the first and last byte of every message (b_eff 3.6), so under SimGrid's SMPI,
 * where the malloc source is one set of pages shared by every simulated process, its buffers
 * stay private (docs/adr/smpi-build.md). */
#ifdef MB_SMPI
#define BEFF_BUFFERS MB_BUF_MMAP
#else
#define BEFF_BUFFERS MB_BUF_MALLOC
#endif

const char *const mb_beff_method_label[MB_BEFF_METHODS] = {"Sndrcv", "Alltoal", "non-blk"};
const char *const mb_beff_method_call[MB_BEFF_METHODS] = {"MPI_Sendrecv", "MPI_Alltoallv",
                                                          "MPI_Irecv+Isend"};

void mb_beff_xfer_init(struct mb_beff_xfer *x, size_t buflen, int nprocs, int world_rank,
                       int full_check, int selftest)
{
    memset(x, 0, sizeof *x);
    x->buflen = buflen;
    /* Laid out as malloc lays them out, as b_eff 3.6 (b_eff.c lines 566-567) takes them
     * (core/buffers.h). */
    x->sbuf = mb_buf_alloc_from(BEFF_BUFFERS, buflen);
    x->rbuf = mb_buf_alloc_from(BEFF_BUFFERS, buflen);
    x->scount = mb_xcalloc((size_t)nprocs, sizeof(int));
    x->sdispl = mb_xcalloc((size_t)nprocs, sizeof(int));
    x->rcount = mb_xcalloc((size_t)nprocs, sizeof(int));
    x->rdispl = mb_xcalloc((size_t)nprocs, sizeof(int));
    x->full_check = full_check;
    x->selftest = selftest;
    x->world_rank = world_rank;
}

void mb_beff_xfer_free(struct mb_beff_xfer *x)
{
    if (x->sbuf)
        mb_buf_free_from(BEFF_BUFFERS, x->sbuf, x->buflen);
    if (x->rbuf)
        mb_buf_free_from(BEFF_BUFFERS, x->rbuf, x->buflen);
    free(x->scount);
    free(x->sdispl);
    free(x->rcount);
    free(x->rdispl);
    memset(x, 0, sizeof *x);
}

void mb_beff_a2a_prepare(struct mb_beff_xfer *x, const struct mb_beff_pattern *p, int len)
{
    for (int j = 0; j < p->nsteps; j++) {
        if (p->step[j].dest != MPI_PROC_NULL)
            x->scount[p->step[j].dest] = len;
        if (p->step[j].src != MPI_PROC_NULL)
            x->rcount[p->step[j].src] = len;
    }
}

void mb_beff_a2a_reset(struct mb_beff_xfer *x, const struct mb_beff_pattern *p)
{
    for (int j = 0; j < p->nsteps; j++) {
        if (p->step[j].dest != MPI_PROC_NULL)
            x->scount[p->step[j].dest] = x->sdispl[p->step[j].dest] = 0;
        if (p->step[j].src != MPI_PROC_NULL)
            x->rcount[p->step[j].src] = x->rdispl[p->step[j].src] = 0;
    }
}

/* b_eff 3.6's data check values: first byte j*k+1, last byte 2*v1-1, both as a char. */
static unsigned char first_value(int j, int k)
{
    return (unsigned char)(j * k + 1);
}

static unsigned char last_value(int j, int k)
{
    return (unsigned char)(2 * (j * k + 1) - 1);
}

/* --check: the bytes between first and last follow a pattern of sender, size and step, so
 * that a message from the wrong sender or of the wrong step is found too. */
static unsigned char body_byte(int sender, int j, int k, size_t i)
{
    return mb_pattern_byte(sender + (k << 20) + (j << 25), i);
}

static void fill(const struct mb_beff_xfer *x, unsigned char *s, int len, int j, int k)
{
    if (x->full_check) {
        for (int i = 1; i < len - 1; i++)
            s[i] = body_byte(x->world_rank, j, k, (size_t)i);
        if (x->selftest && x->world_rank == 0 && len >= 3)
            s[len / 2] ^= 0x5A; /* --check-selftest: the check must find this */
    }
    s[len - 1] = last_value(j, k);
    s[0] = first_value(j, k);
}

static void check(const struct mb_beff_xfer *x, const unsigned char *r, int len, int j, int k,
                  int src, int method, const struct mb_beff_where *w)
{
    long bad = -1;
    unsigned char want = 0;

    if (r[0] != first_value(j, k))
        bad = 0, want = first_value(j, k);
    else if (r[len - 1] != last_value(j, k))
        bad = len - 1, want = last_value(j, k);
    else if (x->full_check)
        for (int i = 1; i < len - 1; i++)
            if (r[i] != body_byte(src, j, k, (size_t)i)) {
                bad = i, want = body_byte(src, j, k, (size_t)i);
                break;
            }
    if (bad >= 0)
        mb_die("b_eff: data check failed after %s: pattern p%02d %s, message length %d, "
               "repetition %d, iteration %d, step %d: rank %d received from rank %d byte %ld = "
               "%u, expected %u",
               mb_beff_method_call[method], w->pattern, w->label, len, w->rep, w->iteration, j,
               x->world_rank, src, bad, r[bad], want);
}

/* b_eff 3.6's cyclic buffers, with its quirk Q2 (docs/adr/beff-measurement.md) fixed: the slices of
 * one iteration never wrap in the middle, so they are always disjoint (6 slices of L rounded to 8
 * fit in 6*(L_max+16)). */
static size_t iteration_base(struct mb_beff_xfer *x, int nsteps, size_t l8)
{
    if (x->base + (size_t)nsteps * l8 > x->buflen)
        x->base = 0;
    return x->base;
}

#ifdef MB_SMPI
/* The Alltoallv of the simulated build. Every Alltoallv algorithm of SimGrid 3.32's SMPI
 * (MPICH's selector takes its "bruck", MPICH's scattered exchange in blocks of 4; pair, ring,
 * ompi_basic_linear likewise) sends a message to every peer, zero counts included, so one
 * call of b_eff's method 1, whose counts are zero for all but its two to six neighbours, cost
 * P - 1 simulated messages per process: P^2 per call, and b_eff on 256 simulated processes did
 * not finish in 600 s of host time (docs/scale.md). MPICH's own scattered algorithm (its
 * default for MPI_Alltoallv, MPICH alltoallv_intra_scattered.c) posts a receive or a send only
 * for a nonzero count, in blocks of MPIR_CVAR_ALLTOALL_THROTTLE (default 32) peers from its own
 * rank on, waiting for each block's requests; this is that algorithm, so that the simulated
 * method 1 sends what a real MPICH sends. The scan of the counts stays O(P) per call, as in
 * MPICH; only the real binary calls MPI_Alltoallv. */
enum { SMPI_A2A_THROTTLE = 32 };

static void smpi_alltoallv(const struct mb_beff_xfer *x, MPI_Comm comm)
{
    MPI_Request req[2 * SMPI_A2A_THROTTLE];
    MPI_Status st[2 * SMPI_A2A_THROTTLE];
    int n, rank;

    MB_MPI(MPI_Comm_size(comm, &n));
    MB_MPI(MPI_Comm_rank(comm, &rank));
    for (int ii = 0; ii < n; ii += SMPI_A2A_THROTTLE) {
        const int ss = n - ii < SMPI_A2A_THROTTLE ? n - ii : SMPI_A2A_THROTTLE;
        int nreq = 0;
        for (int i = 0; i < ss; i++) {
            const int src = (rank + i + ii) % n;
            if (x->rcount[src])
                MB_MPI(MPI_Irecv(x->rbuf + x->rdispl[src], x->rcount[src], MPI_BYTE, src, 0, comm,
                                 &req[nreq++]));
        }
        for (int i = 0; i < ss; i++) {
            const int dest = (rank - i - ii + n) % n;
            if (x->scount[dest])
                MB_MPI(MPI_Isend(x->sbuf + x->sdispl[dest], x->scount[dest], MPI_BYTE, dest, 0,
                                 comm, &req[nreq++]));
        }
        /* A block without requests is not waited on: an empty MPI_Waitall is no operation,
         * but each call costs the simulator host time (P / 32 of them per call). */
        if (nreq > 0)
            MB_MPI(MPI_Waitall(nreq, req, st));
    }
}
#endif

void mb_beff_iteration(int method, const struct mb_beff_pattern *p, struct mb_beff_xfer *x, int len,
                       int k, const struct mb_beff_where *w)
{
    const size_t l8 = ((size_t)len + 7) / 8 * 8;
    size_t off = iteration_base(x, p->nsteps, l8);
    MPI_Request req[2 * MB_BEFF_MAXSR];
    /* A real status array: MPICH's MPI_STATUSES_IGNORE trips GCC's array-size check. */
    MPI_Status st[2 * MB_BEFF_MAXSR];
    int nreq = 0;

    x->base = off + (size_t)p->nsteps * l8;
    for (int j = 0; j < p->nsteps; j++) {
        const int dest = p->step[j].dest, src = p->step[j].src;
        unsigned char *s = x->sbuf + off + (size_t)j * l8, *r = x->rbuf + off + (size_t)j * l8;
        const int sdisp = (int)(off + (size_t)j * l8);

        if (dest != MPI_PROC_NULL)
            fill(x, s, len, j, k);
        switch (method) {
        case MB_BEFF_SNDRCV:
            /* Steps are serialised: a true ping, then a pong (b_eff 3.6's method 0). */
            if (src == MPI_PROC_NULL && dest != MPI_PROC_NULL)
                MB_MPI(MPI_Send(s, len, MPI_BYTE, dest, j, p->comm));
            else if (dest == MPI_PROC_NULL && src != MPI_PROC_NULL)
                MB_MPI(MPI_Recv(r, len, MPI_BYTE, src, j, p->comm, MPI_STATUS_IGNORE));
            else if (dest != MPI_PROC_NULL)
                MB_MPI(MPI_Sendrecv(s, len, MPI_BYTE, dest, j, r, len, MPI_BYTE, src, j, p->comm,
                                    MPI_STATUS_IGNORE));
            if (src != MPI_PROC_NULL)
                check(x, r, len, j, k, src, method, w);
            break;
        case MB_BEFF_ALLTOALLV:
            if (dest != MPI_PROC_NULL)
                x->sdispl[dest] = sdisp;
            if (src != MPI_PROC_NULL)
                x->rdispl[src] = sdisp;
            break;
        default:
            if (src != MPI_PROC_NULL)
                MB_MPI(MPI_Irecv(r, len, MPI_BYTE, src, j, p->comm, &req[nreq++]));
            if (dest != MPI_PROC_NULL)
                MB_MPI(MPI_Isend(s, len, MPI_BYTE, dest, j, p->comm, &req[nreq++]));
            break;
        }
    }
    if (method == MB_BEFF_SNDRCV)
        return;
    /* Methods 1 and 2: ping and pong travel concurrently; check after the call. */
    if (method == MB_BEFF_ALLTOALLV)
#ifdef MB_SMPI
        smpi_alltoallv(x, p->comm);
#else
        MB_MPI(MPI_Alltoallv(x->sbuf, x->scount, x->sdispl, MPI_BYTE, x->rbuf, x->rcount, x->rdispl,
                             MPI_BYTE, p->comm));
#endif
    else
        MB_MPI(MPI_Waitall(nreq, req, st));
    for (int j = 0; j < p->nsteps; j++)
        if (p->step[j].src != MPI_PROC_NULL)
            check(x, x->rbuf + off + (size_t)j * l8, len, j, k, p->step[j].src, method, w);
}
