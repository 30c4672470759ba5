/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_plan.h"

#include "core/error.h"
#include "imb/imb_groups.h"
#include "imb/imb_io_buffers.h"
#include "imb/imb_settings.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

long mb_imb_reps(long long x, long msgspersample, long long overall_vol)
{
    long long n;

    if (x <= 0)
        return msgspersample;
    n = overall_vol / x;
    if (n > msgspersample)
        n = msgspersample;
    return n < 1 ? 1 : (long)n;
}

const struct mb_imb_family *mb_imb_family(const struct mb_imb_config *c)
{
    return mb_imb_families[c->family];
}

long mb_imb_msgspersample(const struct mb_imb_config *c)
{
    return c->msgspersample > 0 ? c->msgspersample : mb_imb_family(c)->msgspersample;
}

long mb_imb_msgs_nonaggr(const struct mb_imb_config *c)
{
    return c->msgs_nonaggr > 0 ? c->msgs_nonaggr : mb_imb_family(c)->msgs_nonaggr;
}

long long mb_imb_overall_vol(const struct mb_imb_config *c)
{
    return (c->overall_vol_mb > 0 ? c->overall_vol_mb : mb_imb_family(c)->overall_vol_mb) *
           1048576LL;
}

long mb_imb_window_size(const struct mb_imb_config *c)
{
    return c->window_size > 0 ? c->window_size : MB_IMB_WINDOW_SIZE;
}

double mb_imb_cpu_secs(const struct mb_imb_config *c)
{
    return c->cpu_secs > 0 ? c->cpu_secs : MB_IMB_TARGET_CPU_SECS;
}

enum mb_buf_source mb_imb_buf_source(const struct mb_imb_config *c)
{
    return c->alloc ? (enum mb_buf_source)c->alloc : mb_imb_family(c)->buffers;
}

double mb_imb_time_limit(const struct mb_imb_config *c)
{
    if (c->iter_policy == MB_IMB_ITER_OFF || c->iter_policy == MB_IMB_ITER_MULTIPLE_NP)
        return 0;
    if (c->time_limit > 0)
        return c->time_limit;
    return c->iter_policy == MB_IMB_ITER_DYNAMIC || c->iter_policy == MB_IMB_ITER_AUTO
               ? MB_IMB_DYNAMIC_SECS
               : 0;
}

/* Intel IMB 2021's benchmarks "with a root" (IMB_mem_manager.c, has_root), which
 * -iter_policy auto runs with the multiple_np rule. */
static int rooted(const struct mb_imb_bench *b)
{
    static const char *const names[] = {"Gather",   "Gatherv", "Scatter",
                                        "Scatterv", "Bcast",   "Reduce"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(b->name, names[i]) == 0)
            return 1;
    return 0;
}

static int multiple_np(const struct mb_imb_bench *b, const struct mb_imb_config *c)
{
    return c->iter_policy == MB_IMB_ITER_MULTIPLE_NP ||
           (c->iter_policy == MB_IMB_ITER_AUTO && rooted(b));
}

double mb_imb_time_limit_of(const struct mb_imb_bench *b, const struct mb_imb_config *c)
{
    return multiple_np(b, c) ? 0 : mb_imb_time_limit(c);
}

double mb_imb_block_time_cap(const struct mb_imb_bench *b, const struct mb_imb_config *c)
{
    const double secs = c->time_limit > 0 ? c->time_limit : MB_IMB_DYNAMIC_SECS;
    const long span = c->msglog_given ? c->msglog_max - c->msglog_min
                                      : mb_imb_family(c)->maxmsglog - MB_IMB_MINMSGLOG;
    const long n_lens = c->lengths ? (long)c->n_lengths : 0;
    const long times = (n_lens > span ? n_lens : span) - 1;

    if (!b->imb2021 || c->time_cap_off)
        return 0;
    return (double)(times > 1 ? times : 1) * secs;
}

long mb_imb_reps_of(const struct mb_imb_bench *b, enum mb_imb_mode mode, long long x, int q,
                    const struct mb_imb_config *c)
{
    /* -iter_policy off (Intel IMB 4.0, IMB_mem_manager.c): msgspersample at every length and
     * in either mode, without the OVERALL_VOL cut. */
    if (c->iter_policy == MB_IMB_ITER_OFF)
        return mb_imb_msgspersample(c);
    /* multiple_np (and auto for rooted benchmarks): msgspersample scaled down along a
     * hyperbola in Q x max(X, 4) against the largest standard length, rounded to a multiple
     * of Q, at least Q - so that every process is root equally often (Intel's
     * IMB_init_buffers_iter; 4 is its assign_type size). */
    if (multiple_np(b, c)) {
        const double top =
            (double)(1LL << (c->msglog_given ? c->msglog_max : mb_imb_family(c)->maxmsglog));
        const double size = (double)(x > 4 ? x : 4);
        const long n =
            (long)((double)mb_imb_msgspersample(c) * top / ((double)q * size + top) + 0.5);
        return n - n % q > q ? n - n % q : q;
    }
    /* Open_Close, IMB-IO's only row without a length, accesses no data: IMB 3.1 gives it
     * MSGS_NONAGGR repetitions (IMB_mem_manager.c, access == no), the guide (5.2.8) the
     * aggregate count; -open_close_reps guide runs the latter. */
    const int open_close = b->sizeless && mb_imb_family(c)->io && !c->open_close_guide;
    const int nonaggr = mode == MB_IMB_NON_AGGREGATE || b->nonaggr_reps || open_close;
    return mb_imb_reps(x, nonaggr ? mb_imb_msgs_nonaggr(c) : mb_imb_msgspersample(c),
                       mb_imb_overall_vol(c));
}

long mb_imb_reps_most(const struct mb_imb_bench *b, long long x, int q,
                      const struct mb_imb_config *c)
{
    const long n = mb_imb_reps_of(b, MB_IMB_AGGREGATE, x, q, c);
    const long m = mb_imb_reps_of(b, MB_IMB_NON_AGGREGATE, x, q, c);
    return n > m ? n : m;
}

size_t mb_imb_max_lengths(const struct mb_imb_config *c)
{
    if (c->lengths)
        return c->n_lengths;
    if (c->msglog_given)
        return (size_t)(c->msglog_max - c->msglog_min + 2);
    return (size_t)(mb_imb_family(c)->maxmsglog - MB_IMB_MINMSGLOG + 2);
}

long long mb_imb_length_unit(const struct mb_imb_bench *b, const struct mb_imb_config *c)
{
    const long long fam = (long long)mb_imb_family(c)->len_unit;
    return fam > (long long)b->elem_size ? fam : (long long)b->elem_size;
}

size_t mb_imb_lengths(const struct mb_imb_bench *b, const struct mb_imb_config *c, long long *out)
{
    const long long unit = mb_imb_length_unit(b, c);
    size_t n = 0;

    if (b->sizeless) {
        out[0] = 0;
        return 1;
    }
    if (c->lengths) {
        /* Rounded up to whole units, as IMB 3.1's IMB.c does with every length it runs
         * ((size + unit_size - 1) / unit_size * unit_size): 1 -> 4, 5 -> 8 for floats.
         * Counts stay MPI ints: an entry near INT_MAX (where IMB's int overflowed) is
         * rounded down instead. */
        for (size_t i = 0; i < c->n_lengths; i++) {
            long long x = (c->lengths[i] + unit - 1) / unit * unit;
            out[n++] = x > INT_MAX ? c->lengths[i] / unit * unit : x;
        }
        return n;
    }
    /* Standard: 0, then 2^i for i = MINMSGLOG..MAXMSGLOG, starting at the unit (reductions
     * and all of IMB-EXT: 0, 4, 8, ...; guide Table 19, samples 6.1 and 6.4); -msglog
     * min:max (Intel IMB 2021) moves the bounds; -zero_size off drops the 0. */
    if (!c->no_zero_size)
        out[n++] = 0;
    for (int i = c->msglog_given ? c->msglog_min : MB_IMB_MINMSGLOG;
         i <= (c->msglog_given ? c->msglog_max : mb_imb_family(c)->maxmsglog); i++)
        if ((1LL << i) >= unit)
            out[n++] = 1LL << i;
    return n;
}

static size_t demand_of(struct mb_imb_bufsize s, size_t mult_override, long long x, int q)
{
    size_t mult = mult_override > s.mult ? mult_override : s.mult;
    if (s.split) {
        /* The largest share of X in whole ints (IMB_get_rank_portion). */
        const size_t unit = MB_IMB_IO_ASSIGN_SIZE;
        const size_t units = ((size_t)x + unit - 1) / unit;
        return mult * ((units + (size_t)q - 1) / (size_t)q) * unit;
    }
    return mult * (size_t)x * (s.per_rank ? (size_t)q : 1u);
}

struct mb_imb_demand mb_imb_demand(const struct mb_imb_bench *b, long long x, int q,
                                   const struct mb_imb_config *c, int check)
{
    struct mb_imb_demand d;

    d.sbytes = demand_of(b->sbuf, 0, x, q);
    d.rbytes = demand_of(b->rbuf, check ? b->rbuf_check_mult : 0, x, q);
    d.slots = mb_slots_for(d.sbytes, d.rbytes, c->cache_bytes, c->cache_line);
    if (b->sections && c->win_disp == MB_IMB_WIN_DISP_SECTIONS) {
        /* -win_disp sections: one section per repetition of either mode (the aggregate count
         * is the larger), so that the transfers of one epoch are disjoint (guide 4.2.2.2,
         * Table 20's 2 max(X, OVERALL_VOL)); off-cache may ask for more. The default keeps
         * IMB 3.1's layout, one X-byte buffer per side or the off-cache rotation, as every
         * IMB-MPI1 row has it (docs/adr/program-ext-displacement.md). */
        size_t sections = (size_t)mb_imb_reps_most(b, x, q, c);
        if (c->cache_bytes == 0) {
            d.slots.sstride = d.sbytes;
            d.slots.rstride = d.rbytes;
        }
        if (sections > d.slots.n)
            d.slots.n = sections;
    }
    d.sregion = d.slots.n > 1 ? d.slots.n * d.slots.sstride : d.sbytes;
    d.rregion = d.slots.n > 1 ? d.slots.n * d.slots.rstride : d.rbytes;
    /* Independent non-blocking I/O starts every transfer of the loop before it waits
     * (guide 4.2.5): at most INT_MAX (-iter's bound) x a few dozen bytes. Split collectives
     * have one outstanding transfer and no requests. */
    d.requests = b->istart && !b->one_by_one ? (size_t)mb_imb_reps_most(b, x, q, c) *
                                                   (sizeof(MPI_Request) + sizeof(MPI_Status))
                                             : 0;
    d.io_floor =
        mb_imb_family(c)->io && c->buf_scope == MB_IMB_BUF_SCOPE_RUN ? mb_imb_io_buffer_len(x) : 0;
    d.int_overflow = (b->sbuf.per_rank || b->rbuf.per_rank) && (long long)q * x > INT_MAX;
    return d;
}

struct mb_imb_demand mb_imb_demand_first(struct mb_imb_demand d, long n)
{
    /* Iteration i uses buffer i mod slots.n (mb_slot_offset): with fewer iterations than
     * buffers only the first n are touched, the last one up to its end. */
    if (n >= 1 && d.slots.n > (size_t)n) {
        d.slots.n = (size_t)n;
        d.sregion = (size_t)(n - 1) * d.slots.sstride + d.sbytes;
        d.rregion = (size_t)(n - 1) * d.slots.rstride + d.rbytes;
    }
    d.requests = 0;
    return d;
}

long long mb_imb_io_file_bytes(const struct mb_imb_bench *b, long long x, int q,
                               const struct mb_imb_config *c)
{
    const long long reps = mb_imb_reps_most(b, x, q, c);
    long long share;

    if (b->file != MB_IMB_PRIVATE_FILES)
        return reps * x;
    /* The first process's portion is the largest (mb_imb_io_prepare): ceil(units / q) ints,
     * cut at X. Both factors are bounded (reps <= INT_MAX, X <= INT_MAX): no overflow. */
    share = demand_of((struct mb_imb_bufsize){1, 0, 1}, 0, x, q);
    return reps * (share < x ? share : x);
}

long long mb_imb_io_span(const struct mb_imb_bench *b, const long long *lens, size_t nlen, int q,
                         const struct mb_imb_config *c, int check)
{
    long long span = 0;

    for (size_t k = 0; k < nlen; k++) {
        const struct mb_imb_demand d = mb_imb_demand(b, lens[k], q, c, check);
        const long long bytes = mb_imb_io_file_bytes(b, lens[k], q, c);
        if (mb_imb_runnable(&d, c) && bytes > span)
            span = bytes;
    }
    return span;
}

/* One scratch file of a block: its name (shared or private, Multi group, position of the
 * private file's process: the position stands for the world rank, -map's order being one
 * permutation for the whole run) and its bytes on disk. */
struct disk_file {
    unsigned long long key, bytes;
};

static int by_key(const void *x, const void *y)
{
    const struct disk_file *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

unsigned long long mb_imb_io_disk_need(const struct mb_config *cfg)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    struct mb_imb_plan plan;
    struct disk_file *files = NULL;
    size_t n = 0, cap = 0;
    unsigned long long most = 0, kept = 0;

    mb_imb_plan_build(&plan, cfg);
    for (size_t i = 0; i < plan.n; i++) {
        const struct mb_imb_item *it = &plan.items[i];
        const struct mb_imb_bench *b = &plan.family->benchmarks[it->bench];
        const int priv = b->file == MB_IMB_PRIVATE_FILES, multi = it->multi >= 0;
        const int groups = it->q > 0 ? mb_group_count(cfg->nprocs, it->q, multi) : 0;
        const int per_group = priv ? it->q : 1;
        const unsigned long long bytes =
            it->q > 0 ? (unsigned long long)mb_imb_io_span(b, it->lens, it->nlen, it->q, c,
                                                           cfg->common.check) +
                            MB_IMB_IO_FILE_SLACK
                      : 0;
        unsigned long long block = 0;

        for (int g = 0; g < groups; g++)
            for (int k = 0; k < per_group; k++) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 64;
                    files = mb_xrealloc(files, cap * sizeof *files);
                }
                files[n].key = (unsigned long long)priv << 62 | (unsigned long long)multi << 61 |
                               (unsigned long long)(multi ? g : 0) << 30 |
                               (unsigned long long)(priv ? g * it->q + k : 0);
                files[n++].bytes = bytes;
                block += bytes;
            }
        if (block > most)
            most = block;
    }
    /* -keep: a name's file stays at the size its last block left; its largest bounds it. */
    qsort(files, n, sizeof *files, by_key);
    for (size_t i = 0; i < n;) {
        unsigned long long top = 0;
        size_t j = i;
        for (; j < n && files[j].key == files[i].key; j++)
            top = files[j].bytes > top ? files[j].bytes : top;
        kept += top;
        i = j;
    }
    free(files);
    mb_imb_plan_free(&plan);
    return c->io_keep ? kept : most;
}

/* A benchmark on one process count: one block, or with aggregate modes two - aggregate
 * first, then non-aggregate (guide 4.2.2.2: "IMB runs the corresponding benchmarks with two
 * settings"). A benchmark that cannot run gets one item (the skip note). */
static void add_items(struct mb_imb_plan *p, const struct mb_imb_bench *b, int idx, int multi,
                      int q, const long long *lens, size_t nlen)
{
    if (!b->aggregate || q == 0) {
        p->items[p->n++] = (struct mb_imb_item){
            idx,  multi, q, b->aggregate_only && q > 0 ? MB_IMB_AGGREGATE : MB_IMB_MODE_NONE,
            lens, nlen};
        return;
    }
    p->items[p->n++] = (struct mb_imb_item){idx, multi, q, MB_IMB_AGGREGATE, lens, nlen};
    p->items[p->n++] = (struct mb_imb_item){idx, multi, q, MB_IMB_NON_AGGREGATE, lens, nlen};
}

void mb_imb_plan_build(struct mb_imb_plan *p, const struct mb_config *cfg)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const struct mb_imb_family *f = mb_imb_family(c);
    const int nprocs = cfg->nprocs;
    int qs[64];
    size_t nq = mb_q_list(nprocs, c->npmin > 0 ? (int)c->npmin : f->npmin, qs, 64);
    size_t nsel = c->selected ? c->n_selected : f->n;
    size_t cap = 2 * nsel * (nq + 1);
    const size_t most = mb_imb_max_lengths(c);

    p->family = f;
    p->cpu = NULL;
    p->nbc_cpu = NULL;
    p->io_buffers = NULL;
    p->items = mb_xmalloc(cap * sizeof *p->items);
    p->lengths = mb_xmalloc((nsel ? nsel : 1) * (most ? most : 1) * sizeof *p->lengths);
    p->n = 0;
    for (size_t s = 0; s < nsel; s++) {
        int sel = c->selected ? c->selected[s] : MB_IMB_SEL((int)s, 0);
        int idx = MB_IMB_SEL_INDEX(sel);
        const struct mb_imb_bench *b = &f->benchmarks[idx];
        long long *lens = p->lengths + s * most;
        if (!c->selected && b->nondefault)
            continue; /* a run without names is the original's default list */
        const size_t nlen = mb_imb_lengths(b, c, lens);
        int multi = (int)c->multi;

        if (multi < 0 && MB_IMB_SEL_MULTI(sel))
            multi = 0;
        if (b->exact_procs) {
            /* Single transfer benchmarks run on exactly 2 processes (guide 3.3.1.1, 4.2.1.1). */
            const int q = nprocs >= b->exact_procs ? b->exact_procs : 0;
            add_items(p, b, idx, multi, q, lens, nlen);
            continue;
        }
        if (b->cls == MB_IMB_MSGRATE) {
            /* Intel IMB 2021.11 (IMB_2018.c): pairs, so an even Q from -npmin rounded up to
             * the process count rounded down; none on one process. */
            const int even = nprocs - nprocs % 2;
            int npmin = c->npmin > 0 ? (int)c->npmin : f->npmin, eq[64];
            const size_t ne = even >= 2 ? mb_q_list(even, npmin + npmin % 2, eq, 64) : 0;
            if (ne == 0)
                add_items(p, b, idx, multi, 0, lens, nlen);
            for (size_t k = 0; k < ne; k++)
                add_items(p, b, idx, multi, eq[k], lens, nlen);
            continue;
        }
        for (size_t k = 0; k < nq; k++)
            add_items(p, b, idx, multi, qs[k], lens, nlen);
    }
    p->order = mb_xmalloc((size_t)nprocs * sizeof *p->order);
    p->position = mb_xmalloc((size_t)nprocs * sizeof *p->position);
    mb_map_order(nprocs, (int)c->map_rows, (int)c->map_cols, p->order);
    for (int k = 0; k < nprocs; k++)
        p->position[p->order[k]] = k;
}

void mb_imb_plan_free(struct mb_imb_plan *p)
{
    free(p->items);
    free(p->lengths);
    p->lengths = NULL;
    free(p->order);
    free(p->position);
    p->items = NULL;
    p->order = p->position = NULL;
}

int mb_imb_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    struct mb_imb_plan plan;
    int width = 16;

    if (ctx->rank != 0)
        return 0;
    mb_imb_plan_build(&plan, cfg);
    /* The name column fits the longest name with its ":non-aggr"; at least 16. */
    for (size_t i = 0; i < plan.n; i++) {
        const int len = (int)strlen(plan.family->benchmarks[plan.items[i].bench].name) +
                        (plan.items[i].mode != MB_IMB_MODE_NONE ? 9 : 0);
        if (len > width)
            width = len;
    }
    mb_printf(&ctx->out, "# Run plan of %s on %d processes (--dry-run: nothing is measured)\n",
              cfg->prog, cfg->nprocs);
    mb_printf(&ctx->out, "# %-*s %6s %7s %5s %6s %12s %12s %14s\n", width, "benchmark", "Q",
              "groups", "idle", "rows", "reps(first)", "reps(last)", "buffers[bytes]");
    for (size_t i = 0; i < plan.n; i++) {
        const struct mb_imb_item *it = &plan.items[i];
        const struct mb_imb_bench *b = &plan.family->benchmarks[it->bench];
        const long long *lens = it->lens;
        const size_t n = it->nlen;
        int ngroups, idle;
        size_t most = 0;
        char name[64];

        if (it->q == 0) {
            mb_printf(&ctx->out, "# %-16s skipped: needs %d processes\n", b->name,
                      mb_imb_procs_needed(b));
            continue;
        }
        ngroups = mb_group_count(cfg->nprocs, it->q, it->multi >= 0);
        idle = cfg->nprocs - ngroups * it->q;
        for (size_t k = 0; k < n; k++) {
            struct mb_imb_demand d = mb_imb_demand(b, lens[k], it->q, c, cfg->common.check);
            if (mb_imb_runnable(&d, c) && mb_imb_demand_bytes(&d) > most)
                most = mb_imb_demand_bytes(&d);
        }
        snprintf(name, sizeof name, "%s%s", b->name,
                 it->mode == MB_IMB_AGGREGATE       ? ":aggr"
                 : it->mode == MB_IMB_NON_AGGREGATE ? ":non-aggr"
                                                    : "");
        mb_printf(&ctx->out, "  %-*s %6d %7d %5d %6zu %12ld %12ld %14zu\n", width, name, it->q,
                  ngroups, idle, n, mb_imb_reps_of(b, it->mode, lens[0], it->q, c),
                  mb_imb_reps_of(b, it->mode, lens[n - 1], it->q, c), most);
    }
    mb_imb_plan_free(&plan);
    return 0;
}
