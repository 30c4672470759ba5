/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-EXT kernels (IMB guide 4.2.3) and their checks, plus their windows. Where
 * transfer i goes is the block's layout (imb_plan.c, docs/adr/program-ext-displacement.md):
 * by default IMB 3.1's - displacement 0 of the window and origin for every transfer, or the
 * off-cache rotation with -off_cache (IMB_ones_unidir.c, IMB_ones_accu.c: i % cache_iter *
 * offs) - and with -win_disp sections the guide's disjoint sections (4.2.2.2), where section i
 * serves transfer i. Completion is MPI_Win_fence (4.2.2.2.1), called by the driver after every
 * transfer or after all of them. The data of a single transfer go from group rank 0 to rank 1:
 * Put's origin is rank 0, Get's origin rank 1 reading rank 0's window, as IMB 3.1's
 * IMB_ones_unidir.c (docs/adr/program-ext-get-origin.md); Accumulate's target is rank 0 ("Root
 * 0", Table 7). By default every length has its own window over
 * the bytes its layout uses, as IMB 3.1 creates them (docs/adr/program-ext-window-per-length.md);
 * -win_scope block keeps the block's window for all lengths. */
#include "core/error.h"
#include "core/window.h"
#include "imb/imb_bench.h"

#include <stdlib.h>

/* Buffer iter of the send and receive layouts, as a displacement (bytes) and as an origin
 * address: iter mod slots.n, which divides only when there is more than one buffer (in the
 * non-aggregate loop, beside a fence per transfer). */
static MPI_Aint rdisp(const struct mb_imb_args *a, long iter)
{
    return (MPI_Aint)mb_slot_offset(a->slots.rstride, a->slots.n, iter);
}

static MPI_Aint sdisp(const struct mb_imb_args *a, long iter)
{
    return (MPI_Aint)mb_slot_offset(a->slots.sstride, a->slots.n, iter);
}

/* ---- the windows (IMB 3.1 IMB_init_transfer.c; guide 5.2.3.1: created with the user's info,
 * then a fence) ----------------------------------------------------------------------------- */

/* What a block keeps between its hooks: the Open MPI workaround for groups that create
 * windows at once, and which buffers the windows cover (the send buffers for Get). */
struct ext_state {
    struct mb_win_skew skew;
    int over_send;
};

static void open_groups(struct mb_imb_args *a, int over_send)
{
    struct ext_state *st = mb_xcalloc(1, sizeof *st);

    mb_win_skew_open(&st->skew, a->comm, a->parent);
    st->over_send = over_send;
    a->state = st;
}

/* Window creates its windows in the timed loop: one untimed window first, so that a library
 * that cannot create windows is reported once, clearly (core/window.c), and the block stops
 * with that agreed error before its timed loops (the driver agrees on a->failure). */
void mb_imb_ext_setup_groups(struct mb_imb_args *a)
{
    MPI_Win probe;

    open_groups(a, 0);
    if (mb_win_try_create(a->rbuf, a->rregion, 1, a->info, a->comm, &probe, a->failure) == 0)
        mb_win_free(&probe);
}

/* A window over bytes bytes of the state's side, then the fence that starts the first epoch
 * (IMB_init_transfer.c). Its size is recorded as the library reports it (MPI_WIN_SIZE), so
 * that every row says which window its timed loops used. A window the library refuses
 * (Open MPI 4.1's osc/rdma over TCP) is an error the group's processes agree on
 * (core/window.c): it goes to a->failure, a->win stays MPI_WIN_NULL, and the driver stops the
 * block before anything uses it - the run ends with status 1 and that message, and in the
 * main job the phase fails and the job goes on (docs/main-job.md). */
static void open_window(struct mb_imb_args *a, size_t bytes)
{
    const struct ext_state *st = a->state;
    MPI_Aint *size = NULL;
    int flag = 0;

    a->win_bytes = -1;
    if (mb_win_try_create(st->over_send ? a->sbuf : a->rbuf, bytes, 1, a->info, a->comm, &a->win,
                          a->failure) != 0)
        return;
    MB_MPI(MPI_Win_fence(0, a->win));
    MB_MPI(MPI_Win_get_attr(a->win, MPI_WIN_SIZE, &size, &flag));
    a->win_bytes = flag && size ? (long long)*size : -1;
}

static void close_window(struct mb_imb_args *a)
{
    mb_win_free(&a->win);
    a->win_bytes = -1;
}

/* The block's window spans the block's largest buffers: it serves the warm-up and the buffer
 * priming before the first length and, with -win_scope block, every length. */
static void setup_window(struct mb_imb_args *a, int over_send)
{
    open_groups(a, over_send);
    open_window(a, over_send ? a->sregion : a->rregion);
}

void mb_imb_ext_setup_put(struct mb_imb_args *a)
{
    setup_window(a, 0);
}

void mb_imb_ext_setup_get(struct mb_imb_args *a)
{
    setup_window(a, 1);
}

/* -win_scope length (the default): the length's own window over the bytes its layout uses -
 * X, the off-cache rotation, or with -win_disp sections all its sections - replacing whatever
 * window is open, as IMB 3.1 creates one of max(s_alloc, r_alloc) bytes per length
 * (IMB_mem_manager.c) and frees it after the length (IMB.c). IMB 3.1's buffers have exactly
 * those bytes; here they are the start of the block's larger regions. */
void mb_imb_ext_open_length(struct mb_imb_args *a)
{
    const struct ext_state *st = a->state;

    if (a->cfg->win_scope != MB_IMB_WIN_SCOPE_LENGTH)
        return;
    close_window(a);
    open_window(a, st->over_send ? a->sused : a->rused);
}

void mb_imb_ext_close_length(struct mb_imb_args *a)
{
    if (a->cfg->win_scope == MB_IMB_WIN_SCOPE_LENGTH)
        close_window(a);
}

void mb_imb_ext_teardown(struct mb_imb_args *a)
{
    struct ext_state *st = a->state;

    close_window(a);
    mb_win_skew_close(&st->skew);
    free(st);
    a->state = NULL;
}

void mb_imb_ext_fence(const struct mb_imb_args *a)
{
    MB_MPI(MPI_Win_fence(0, a->win));
}

/* ---- Unidir / Bidir (4.2.3.1-4): the one-sided PingPong and PingPing ---------------------- */

static void put_to(const struct mb_imb_args *a, long iter, int target)
{
    MB_MPI(MPI_Put(mb_imb_sbuf(a, iter), a->count, MPI_BYTE, target, rdisp(a, iter), a->count,
                   MPI_BYTE, a->win));
}

/* The aggregate batches keep the loop's values in locals: MPI_Put is an external call, so
 * fields read through a would be loaded again for every transfer. The buffer index advances
 * and wraps by comparison, not division, which at 0 bytes would be a measurable part of an
 * MPI_Put (docs/adr/imb-ext-one-sided.md); with one buffer it stays 0. */
static void put_batch(const struct mb_imb_args *a, long first, long n, int target)
{
    const char *const base = a->sbuf;
    const size_t ss = a->slots.sstride, rs = a->slots.rstride, nslots = a->slots.n;
    const int count = a->count;
    const MPI_Win win = a->win;
    size_t k = mb_slot_offset(1, nslots, first);

    for (long i = 0; i < n; i++) {
        MB_MPI(MPI_Put(base + k * ss, count, MPI_BYTE, target, (MPI_Aint)(k * rs), count, MPI_BYTE,
                       win));
        if (++k == nslots)
            k = 0;
    }
}

static void get_batch(const struct mb_imb_args *a, long first, long n, int target)
{
    char *const base = a->rbuf;
    const size_t ss = a->slots.sstride, rs = a->slots.rstride, nslots = a->slots.n;
    const int count = a->count;
    const MPI_Win win = a->win;
    size_t k = mb_slot_offset(1, nslots, first);

    for (long i = 0; i < n; i++) {
        MB_MPI(MPI_Get(base + k * rs, count, MPI_BYTE, target, (MPI_Aint)(k * ss), count, MPI_BYTE,
                       win));
        if (++k == nslots)
            k = 0;
    }
}

static void get_from(const struct mb_imb_args *a, long iter, int target)
{
    MB_MPI(MPI_Get(mb_imb_rbuf(a, iter), a->count, MPI_BYTE, target, sdisp(a, iter), a->count,
                   MPI_BYTE, a->win));
}

/* Each kernel has a batch twin for aggregate mode (imb_bench.h): the same calls in a loop. */
void mb_imb_unidir_put(const struct mb_imb_args *a, long iter)
{
    if (a->rank == 0)
        put_to(a, iter, 1);
}

void mb_imb_unidir_put_batch(const struct mb_imb_args *a, long first, long n)
{
    if (a->rank == 0)
        put_batch(a, first, n, 1);
}

size_t mb_imb_check_unidir_put(const struct mb_imb_args *a, long iter)
{
    return a->rank == 1 ? mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 0, 0) : 0;
}

/* Unidir_Get's origin is group rank 1 and its target rank 0: IMB 3.1's IMB_unidir_get makes
 * pair1 the process that calls MPI_Get from pair0 while pair0 only fences (IMB_ones_unidir.c
 * lines 236-245, 340-362). With MPICH 4.0 over UCX the other way round took 8-22 % less time per
 * small non-aggregate transfer (docs/figures.md, "Reading"). */
void mb_imb_unidir_get(const struct mb_imb_args *a, long iter)
{
    if (a->rank == 1)
        get_from(a, iter, 0);
}

void mb_imb_unidir_get_batch(const struct mb_imb_args *a, long first, long n)
{
    if (a->rank == 1)
        get_batch(a, first, n, 0);
}

size_t mb_imb_check_unidir_get(const struct mb_imb_args *a, long iter)
{
    return a->rank == 1 ? mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 0, 0) : 0;
}

void mb_imb_bidir_put(const struct mb_imb_args *a, long iter)
{
    put_to(a, iter, 1 - a->rank);
}

void mb_imb_bidir_put_batch(const struct mb_imb_args *a, long first, long n)
{
    put_batch(a, first, n, 1 - a->rank);
}

size_t mb_imb_check_bidir_put(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 1 - a->rank, 0);
}

void mb_imb_bidir_get(const struct mb_imb_args *a, long iter)
{
    get_from(a, iter, 1 - a->rank);
}

void mb_imb_bidir_get_batch(const struct mb_imb_args *a, long first, long n)
{
    get_batch(a, first, n, 1 - a->rank);
}

size_t mb_imb_check_bidir_get(const struct mb_imb_args *a, long iter)
{
    return mb_check_bytes(mb_imb_rbuf(a, iter), a->bytes, 1 - a->rank, 0);
}

/* ---- Accumulate (4.2.3.5): every process adds X/4 floats into root 0's window ------------- */

/* The window's displacement unit is 1 byte (core/window.c), so the target displacement is
 * in bytes as for the puts; IMB 3.1 counts it in floats over a float-unit window - the same
 * place. */
static void accumulate_at(const struct mb_imb_args *a, long iter)
{
    MB_MPI(MPI_Accumulate(mb_imb_sbuf(a, iter), a->count, MPI_FLOAT, 0, rdisp(a, iter), a->count,
                          MPI_FLOAT, MPI_SUM, a->win));
}

void mb_imb_accumulate(const struct mb_imb_args *a, long iter)
{
    accumulate_at(a, iter);
}

void mb_imb_accumulate_batch(const struct mb_imb_args *a, long first, long n)
{
    for (long i = first; i < first + n; i++)
        accumulate_at(a, i);
}

size_t mb_imb_check_accumulate(const struct mb_imb_args *a, long iter)
{
    if (a->rank != 0)
        return 0;
    return mb_check_float_sums((const float *)(const void *)mb_imb_rbuf(a, iter), (size_t)a->count,
                               a->size, 0);
}

/* ---- Window (4.2.3.6): create, fence, a negligible put, fence, free ----------------------- */

/* The put that keeps the window from being optimised away (guide: "a negligible non trivial
 * action", no target named) is one byte to the process itself at displacement 0, as IMB 3.1's
 * IMB_window.c does it (docs/adr/program-window-target.md). The closing fence completes it,
 * as MPI_Win_free needs (IMB 3.1 frees without it). */
void mb_imb_window(const struct mb_imb_args *a, long iter)
{
    MPI_Win win;

    MB_MPI(MPI_Win_create(mb_imb_rbuf(a, iter), (MPI_Aint)a->bytes, 1, a->info, a->comm, &win));
    MB_MPI(MPI_Win_fence(0, win));
    if (a->bytes > 0)
        MB_MPI(MPI_Put(mb_imb_sbuf(a, iter), 1, MPI_BYTE, a->rank, 0, 1, MPI_BYTE, win));
    MB_MPI(MPI_Win_fence(0, win));
    MB_MPI(MPI_Win_free(&win));
}

size_t mb_imb_check_window(const struct mb_imb_args *a, long iter)
{
    return a->bytes > 0 ? mb_check_bytes(mb_imb_rbuf(a, iter), 1, a->rank, 0) : 0;
}
