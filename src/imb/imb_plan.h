/* SPDX-License-Identifier: BSD-3-Clause */
/* The run plan is data (docs/architecture.md, property 7): the list of (benchmark, process count)
 * blocks and, per block, the message lengths, repetition counts and buffer demand. The pure
 * functions here are the IMB rules; the unit tests check them against the guide. */
#ifndef MB_IMB_PLAN_H
#define MB_IMB_PLAN_H

#include "core/config.h"
#include "core/suite.h"
#include "imb/imb_bench.h"
#include "imb/imb_config.h"

#include <stddef.h>

struct mb_imb_cpu;
struct mb_imb_nbc_cpu;
struct mb_imb_pool;
struct mb_imb_io_buffers;

/* selected[] entries: table index * 2, + 1 when the name was given as "Multi-<name>". */
#define MB_IMB_SEL(index, multi) ((index)*2 + ((multi) ? 1 : 0))
#define MB_IMB_SEL_INDEX(sel)    ((sel) / 2)
#define MB_IMB_SEL_MULTI(sel)    ((sel) % 2)

struct mb_imb_item {
    int bench; /* table index */
    int multi; /* -1 primary, else the -multi output flag */
    int q;     /* processes per group; 0 = cannot run with this many processes */
    enum mb_imb_mode mode;
    /* The message lengths the block runs (mb_imb_lengths), resolved once when the plan is
     * built and read by the driver, the dry run and the space check alike; they point into
     * the plan's lengths. */
    const long long *lens;
    size_t nlen;
};

struct mb_imb_plan {
    const struct mb_imb_family *family;
    struct mb_imb_item *items;
    size_t n;
    long long *lengths;     /* every benchmark's list of lengths, one after the other */
    int *order;             /* position -> world rank (-map) */
    int *position;          /* world rank -> position */
    struct mb_imb_cpu *cpu; /* calibrated CPU_Exploit when non-blocking I/O runs, else NULL */
    /* IMB-NBC's CPU work, its rate probed when a row with overlap runs, else NULL. */
    struct mb_imb_nbc_cpu *nbc_cpu;
    /* The buffers kept from block to block under -buf_scope run: IMB-MPI1's and IMB-EXT's
     * pool, IMB-IO's io_buffers (which also carry a read benchmark's file content, as IMB
     * 3.1's send buffer does: imb_io_buffers.h); NULL: each block allocates its own. */
    struct mb_imb_pool *pool;
    struct mb_imb_io_buffers *io_buffers;
};

/* Repetitions for message length x (guide 5.2.8): MSGSPERSAMPLE for x = 0, else
 * max(1, min(MSGSPERSAMPLE, OVERALL_VOL / x)). */
long mb_imb_reps(long long x, long msgspersample, long long overall_vol);

/* The family of a configuration, and its effective MSGSPERSAMPLE, MSGS_NONAGGR and
 * OVERALL_VOL (bytes): the family's constants unless -iter overrides them. */
const struct mb_imb_family *mb_imb_family(const struct mb_imb_config *c);
long mb_imb_msgspersample(const struct mb_imb_config *c);
long mb_imb_msgs_nonaggr(const struct mb_imb_config *c);
long long mb_imb_overall_vol(const struct mb_imb_config *c);
/* IMB-IO's CPU_Exploit time per non-blocking transfer in seconds (-t_cpu or
 * TARGET_CPU_SECS). */
double mb_imb_cpu_secs(const struct mb_imb_config *c);
/* Uniband's and Biband's transfers per pair and repetition: -window_size, else Intel IMB
 * 2021.11's 256. */
long mb_imb_window_size(const struct mb_imb_config *c);
/* Where the message buffers come from: -alloc, else the family's source. */
enum mb_buf_source mb_imb_buf_source(const struct mb_imb_config *c);

/* Repetitions of benchmark b at length x in a mode (guide 5.2.8): MSGS_NONAGGR replaces
 * MSGSPERSAMPLE in non-aggregate mode and for Window. */
/* The -time limit in force: -time's, or 10 s under -iter_policy dynamic; 0 = none (also
 * under -iter_policy off, which Intel IMB runs without a time cut). */
double mb_imb_time_limit(const struct mb_imb_config *c);
/* ... for one benchmark: 0 where -iter_policy multiple_np (or auto, for a rooted benchmark)
 * sets the counts, which Intel IMB runs without a time cut. */
double mb_imb_time_limit_of(const struct mb_imb_bench *b, const struct mb_imb_config *c);
/* The time a block of a benchmark of Intel IMB 2021.11 may take before its next length
 * prints "time-out." and ends it (helper_IMB_functions.h, helper_time_check): -time's seconds
 * (10 without it, whatever the policy) times max(the -msglen/-msgsize lengths, max - min of
 * -msglog) - 1, at least once. 0 for IMB 3.1's benchmarks, which have no such limit, and
 * under -time_cap off. */
double mb_imb_block_time_cap(const struct mb_imb_bench *b, const struct mb_imb_config *c);

/* The repetitions at length x on Q processes: the -iter rule (IMB 3.1) or the -iter_policy's. */
long mb_imb_reps_of(const struct mb_imb_bench *b, enum mb_imb_mode mode, long long x, int q,
                    const struct mb_imb_config *c);

/* The larger of the aggregate and non-aggregate repetition counts at length x: how many
 * disjoint sections (IMB-EXT) or file tiles (IMB-IO) a block's loops may touch. */
long mb_imb_reps_most(const struct mb_imb_bench *b, long long x, int q,
                      const struct mb_imb_config *c);

/* The unit of a benchmark's lengths: its element size (floats for reductions), or the
 * family's unit when larger (IMB-EXT counts every benchmark in floats: IMB 3.1 IMB.c). */
long long mb_imb_length_unit(const struct mb_imb_bench *b, const struct mb_imb_config *c);

/* Message lengths of a benchmark (guide 5.2.4): the family's standard 0, 1, 2, 4, ... list from
 * the unit on (0, 4, 8, ... in floats), or the -msglen list rounded up to whole units, as IMB
 * 3.1's program does (docs/adr/program-lengths-in-floats.md). Barrier has one row. Returns the
 * count; out needs room for mb_imb_max_lengths(c) values. */
size_t mb_imb_lengths(const struct mb_imb_bench *b, const struct mb_imb_config *c, long long *out);
size_t mb_imb_max_lengths(const struct mb_imb_config *c);

/* Buffer layout and demand per process for length x on q processes (guide 7.1): send and
 * receive regions including the off-cache rotation, and the request and status arrays of
 * non-blocking I/O, one of each per transfer of the timed loop (their size grows with -iter
 * alone, so they count against -mem as the buffers do). */
struct mb_imb_demand {
    size_t sbytes, rbytes; /* one send / receive buffer */
    struct mb_slots slots;
    size_t sregion, rregion; /* the whole rotation */
    size_t requests;         /* non-blocking I/O's request and status arrays */
    /* IMB-IO under -buf_scope run: the bytes each of the run's two buffers holds at least for
     * this length - X in whole ints for every process, as IMB 3.1's IMB_init_buffers_iter
     * sizes them (and checks 2 X against -mem), not the process's share; 0 otherwise. */
    size_t io_floor;
    int int_overflow; /* a count or displacement would exceed INT_MAX */
};
struct mb_imb_demand mb_imb_demand(const struct mb_imb_bench *b, long long x, int q,
                                   const struct mb_imb_config *c, int check);

/* The part of a demand that the first n iterations of a loop touch: the buffers of
 * iterations 0 .. n-1 of the rotation or of the sections (IMB's warm-up, guide 5.2.6: two
 * samples of 4 bytes, whose sections alone would otherwise be sized for a whole timed loop
 * of that length). */
struct mb_imb_demand mb_imb_demand_first(struct mb_imb_demand d, long n);

/* The bytes a length with this demand allocates per process (IMB-IO under -buf_scope run:
 * its buffers as grown for it, each at least io_floor). */
static inline size_t mb_imb_demand_bytes(const struct mb_imb_demand *d)
{
    return (d->sregion > d->io_floor ? d->sregion : d->io_floor) +
           (d->rregion > d->io_floor ? d->rregion : d->io_floor) + d->requests;
}

/* Whether a length with this demand is run: its counts fit an int and its memory fits the
 * -mem cap (guide 5.1.2.7). Otherwise its row says why it was skipped. */
static inline int mb_imb_runnable(const struct mb_imb_demand *d, const struct mb_imb_config *c)
{
    return !d->int_overflow && mb_imb_demand_bytes(d) <= c->mem_cap;
}

/* IMB-IO: the bytes of its file one process's timed loops reach at length x on q processes
 * (guide 4.2.2.2.2: transfer i uses the i-th tile): the largest repetition count times X for
 * a file the group shares, times the largest portion of X (whole ints, at most X) for a
 * private file; what the read benchmarks' file must hold. */
long long mb_imb_io_file_bytes(const struct mb_imb_bench *b, long long x, int q,
                               const struct mb_imb_config *c);

/* IMB-IO: the bytes of its file one process's timed loops reach in a block of b on q processes
 * (the largest mb_imb_io_file_bytes over the block's lengths lens[0..nlen-1] it runs: those
 * that fit the -mem
 * cap and the int range): the size IMB_init_file presets (imb_io.c). */
long long mb_imb_io_span(const struct mb_imb_bench *b, const long long *lens, size_t nlen, int q,
                         const struct mb_imb_config *c, int check);

/* IMB-IO: the most bytes the plan's scratch files hold at once in the file system (every file
 * of a block at its preset size, each with MB_IMB_IO_FILE_SLACK). A benchmark's files go after
 * its last block, so without -keep this is the largest block's; with -keep every name's
 * largest file stays, and the sum over the names counts. For the up-front space check. */
unsigned long long mb_imb_io_disk_need(const struct mb_config *cfg);

/* Builds the plan (all ranks, deterministic from the configuration). */
void mb_imb_plan_build(struct mb_imb_plan *p, const struct mb_config *cfg);
void mb_imb_plan_free(struct mb_imb_plan *p);

/* --dry-run: the plan as text on rank 0. */
int mb_imb_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg);

#endif
