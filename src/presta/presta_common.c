/* SPDX-License-Identifier: BSD-3-Clause */
/* What com, laten and rma share at run time (Presta 1.2's util.c, and the Test Parameters block
 * of com.c and laten.c). */
#include "presta/presta.h"

#include "core/error.h"
#include "core/report_json.h"
#include "core/samples.h"
#include "core/timing.h"
#include "mb_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mb_presta_job_init(struct mb_presta_job *job, const struct mb_ctx *ctx,
                        const struct mb_config *cfg, const struct mb_presta_program *program)
{
    memset(job, 0, sizeof *job);
    job->ctx = ctx;
    job->cfg = cfg;
    job->program = program;
    job->layout = (struct mb_presta_layout){ctx->size, (int)mb_presta_cfg(cfg)->ppn,
                                            mb_presta_cfg(cfg)->cyclic, mb_presta_cfg(cfg)->nearby};
    job->partner = mb_presta_target(&job->layout, ctx->rank);
    job->min_sample = program->min_sample_initial;
}

void mb_presta_barrier(MPI_Comm comm)
{
    struct mb_bfly_step steps[72];
    int rank, size, n;
    MPI_Status st;

    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_size(comm, &size));
    n = mb_presta_butterfly(rank, size, steps, 72);
    for (int i = 0; i < n; i++) {
        const int peer = steps[i].peer;
        switch (steps[i].op) {
        case MB_BFLY_RECV:
            MB_MPI(MPI_Recv(NULL, 0, MPI_INT, peer, 1, comm, &st));
            break;
        case MB_BFLY_SEND:
            MB_MPI(MPI_Send(NULL, 0, MPI_INT, peer, 1, comm));
            break;
        case MB_BFLY_SENDRECV:
            MB_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, peer, 1, NULL, 0, MPI_INT, peer, 1, comm, &st));
            break;
        }
    }
}

void mb_presta_samples(MPI_Comm active, long samples, void (*prologue)(void *arg),
                       int barriers_before, void (*body)(void *arg), int barrier_after, void *arg,
                       double *times)
{
    struct mb_timing tm = mb_timing_make(mb_sync_calls(active, barriers_before, mb_presta_barrier));

    for (long k = 0; k < samples; k++) {
        if (prologue)
            prologue(arg);
        /* Each rank reads its own clock (as in Presta 1.2); the closing barrier is timed. */
        mb_timing_start(&tm);
        body(arg);
        if (barrier_after)
            mb_presta_barrier(active);
        (void)mb_timing_stop(&tm, 1);
        times[k] = tm.elapsed;
    }
}

MPI_Comm mb_presta_active_comm(const struct mb_presta_job *job, int P)
{
    const int key = mb_presta_active_key(&job->layout, P, job->ctx->rank);
    MPI_Comm c;

    MB_MPI(MPI_Comm_split(job->ctx->world, key >= 0 ? 0 : MPI_UNDEFINED, key, &c));
    if (c != MPI_COMM_NULL)
        MB_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    return c;
}

void mb_presta_pairs_block(const struct mb_presta_job *job, int P)
{
    const struct mb_out *out = &job->ctx->out;

    if (job->ctx->rank != 0 || !mb_presta_cfg(job->cfg)->list_pairs)
        return;
    mb_printf(out, "\nCurrent pairs, %s allocation\n",
              mb_presta_cyclic(&job->layout) ? "cyclic" : "block");
    for (int idx = 0; idx < P / 2; idx++) {
        const int a = mb_presta_pair_first(&job->layout, idx);
        mb_printf(out, "  %5d:%5d\n", a, mb_presta_target(&job->layout, a));
    }
    mb_printf(out, "\n");
    mb_flush(out);
}

void mb_presta_preamble(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    mb_printf(&ctx->out,
              "#------------------------------------------------------------\n"
              "# mpibench %s: %s, following the Presta 1.2 %s methodology\n"
              "#------------------------------------------------------------\n",
              MB_VERSION, ctx->suite->name, ctx->suite->legacy);
    mb_provenance_text(ctx->prov, &ctx->out);
    mb_settings_text(ctx->suite, cfg, &ctx->out);
    /* Presta 1.2's programs send one message or one round trip before their first timed loop
     * (com.c lines 264-297, laten.c); mpibench's start-up (the provenance above, the verdicts of
     * the single error path) has exchanged messages between the ranks by then. A
     * library that builds a connection or a fast path lazily (Open MPI's vader after 16 sends
     * to a peer) pays for it in the original's first loop and not here: com's first length
     * and laten's latency at a small -o (docs/adr/startup-messages.md). The header says so. */
    mb_printf(&ctx->out, "# Before the first loop : the start-up's collectives (messages the "
                         "original did not send)\n");
    mb_flush(&ctx->out);
}

void mb_presta_columns(const struct mb_ctx *ctx, const char *cols, int extra)
{
    const size_t n = strlen(cols) + (size_t)extra;
    char *rule = mb_xmalloc(n + 1);

    memset(rule, '-', n);
    rule[n] = '\0';
    mb_printf(&ctx->out, "%s\n%s\n", cols, rule);
    free(rule);
}

static int spread_on(const struct mb_config *cfg)
{
    return cfg->common.spread && mb_presta_cfg(cfg)->samples > 1;
}

void mb_presta_spread_titles(const struct mb_config *cfg, char *cols, size_t len)
{
    const size_t used = strlen(cols);

    if (spread_on(cfg) && used < len)
        snprintf(cols + used, len - used, "  %12s  %12s  %12s", "Median (us)", "CI95 low",
                 "CI95 high");
}

void mb_presta_spread_cols(const struct mb_presta_job *job, const double *samples, long n,
                           double scale)
{
    struct mb_spread s;

    if (!spread_on(job->cfg))
        return;
    s = mb_spread_strided(samples, (size_t)n, 1, scale);
    mb_printf(&job->ctx->out, "  %12.3f  %12.3f  %12.3f", s.median, s.ci_low, s.ci_high);
}

void mb_presta_params_block(const struct mb_presta_job *job)
{
    const struct mb_out *out = &job->ctx->out;
    const struct mb_presta_config *p = mb_presta_cfg(job->cfg);

    mb_printf(out, "\nTest Parameters\n---------------\n");
    mb_printf(out, "Operations per measurement : %8ld\n", p->ops);
    if (p->count_file)
        mb_printf(out, "Process count file : %s\n", p->count_file);
    if (p->ppn > 0)
        mb_printf(out, "Processes per SMP          : %8ld\n", p->ppn);
    /* With -p restricted to b and c (quirk Q4), the letter is what ran. */
    mb_printf(out, "Process pair allocation    : %8s\n", p->cyclic ? "cyclic" : "block");
    /* mpibench's additions, only when asked for (the default block is the original's). */
    if (p->samples > 1)
        mb_printf(out, "Samples per measurement    : %8ld (fastest reported)\n", p->samples);
    if (p->sizes_file)
        mb_printf(out, "Message size file : %s\n", p->sizes_file);
    if (p->no_barrier)
        mb_printf(out, "\nBarrier not included in measurement.\n");
    mb_printf(out, "\n");
    mb_flush(out);
}

/* Rank 0 gets every rank's processor name, MPI_MAX_PROCESSOR_NAME bytes each. */
static char *gather_names(const struct mb_ctx *ctx)
{
    char mine[MPI_MAX_PROCESSOR_NAME];
    char *all = NULL;
    int len = 0;

    memset(mine, 0, sizeof mine);
    MB_MPI(MPI_Get_processor_name(mine, &len));
    if (ctx->rank == 0)
        all = mb_xmalloc((size_t)ctx->size * MPI_MAX_PROCESSOR_NAME);
    MB_MPI(MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                      0, ctx->world));
    return all;
}

void mb_presta_footer(const struct mb_presta_job *job)
{
    const struct mb_ctx *ctx = job->ctx;
    char *names = gather_names(ctx);
    double tick, oh;
    struct mb_jobj o;

    if (ctx->rank != 0)
        return;
    /* Every rank with its partner under the partner rule, active or not (quirk Q23). */
    mb_printf(&ctx->out, "\n");
    for (int i = 0; i < ctx->size; i++) {
        const int t = mb_presta_target(&job->layout, i);
        mb_printf(&ctx->out, "Rank id %4d (%s) communicated with rank id %4d (%s)\n", i,
                  names + (size_t)i * MPI_MAX_PROCESSOR_NAME, t,
                  names + (size_t)t * MPI_MAX_PROCESSOR_NAME);
    }
    mb_printf(&ctx->out, "\n");
    free(names);
    tick = MPI_Wtick();
    oh = mb_timing_probe_clock(mb_presta_wtime_overhead);
    mb_printf(&ctx->out, "\nMPI_Wtick returns           %11.9f\n", tick);
    mb_printf(&ctx->out, "MPI_Wtime overhead          %11.9f\n", oh);
    mb_printf(&ctx->out, "Ticks for minimum sample    %11.0f\n\n", job->min_sample / tick);
    mb_flush(&ctx->out);
    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "presta_footer", ctx->json);
    mb_jobj_str(&o, "program", ctx->suite->legacy);
    mb_jobj_num(&o, "wtick_sec", tick);
    mb_jobj_num(&o, "wtime_overhead_sec", oh);
    mb_jobj_num(&o, "min_sample_sec", job->min_sample);
    mb_jobj_num(&o, "ticks_min_sample", job->min_sample / tick);
    {
        int *partners = mb_xmalloc((size_t)ctx->size * sizeof *partners);
        for (int i = 0; i < ctx->size; i++)
            partners[i] = mb_presta_target(&job->layout, i);
        mb_jarray_ints(&o, "partners", partners, (size_t)ctx->size);
        free(partners);
    }
    mb_jobj_write(&o, ctx->json);
}

void mb_presta_host_list(const struct mb_ctx *ctx)
{
    char *names = gather_names(ctx);

    if (ctx->rank != 0)
        return;
    mb_printf(&ctx->out, "\n");
    for (int i = 0; i < ctx->size; i++)
        mb_printf(&ctx->out, "Rank id %4d ran on %s\n", i,
                  names + (size_t)i * MPI_MAX_PROCESSOR_NAME);
    mb_printf(&ctx->out, "\n");
    mb_flush(&ctx->out);
    free(names);
}

/* Whether the node of every rank is the block of ppn consecutive ranks it belongs to. */
static int blocks_match(const int *leader, int w, int ppn)
{
    for (int r = 0; r < w; r++) {
        const int first = r - r % ppn;
        if (leader[r] != leader[first])
            return 0;
        if (r == first && r > 0 && leader[r] == leader[r - 1])
            return 0;
    }
    return 1;
}

/* Collective: the lowest world rank of this rank's node (MPI_Comm_split_type), which names
 * the node. */
static int node_leader(const struct mb_ctx *ctx)
{
    MPI_Comm c;
    int leader = ctx->rank;

    MB_MPI(MPI_Comm_split_type(ctx->world, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &c));
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, c));
    MB_MPI(MPI_Comm_free(&c));
    return leader;
}

void mb_presta_node_map(const struct mb_presta_job *job)
{
    const struct mb_ctx *ctx = job->ctx;
    const int ppn = (int)mb_presta_cfg(job->cfg)->ppn;
    int leader, *leaders = NULL;
    char *names;

    if (!mb_presta_cfg(job->cfg)->node_map)
        return;
    leader = node_leader(ctx);
    if (ctx->rank == 0)
        leaders = mb_xmalloc((size_t)ctx->size * sizeof *leaders);
    MB_MPI(MPI_Gather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, 0, ctx->world));
    names = gather_names(ctx);
    if (ctx->rank == 0) {
        const struct mb_out *out = &ctx->out;
        int nodes = 0, same = 0, matches = 1;
        /* next[k]: the next higher rank on k's node, or -1. Built in one pass from the highest
         * rank down, so that listing every node's ranks costs O(P) - not a scan of all ranks
         * per node, which is O(P^2) with one rank per node (100 000 nodes: 10^10 steps). */
        int *next = mb_xmalloc((size_t)ctx->size * sizeof *next),
            *last = mb_xmalloc((size_t)ctx->size * sizeof *last);
        for (int r = 0; r < ctx->size; r++)
            last[r] = -1;
        for (int k = ctx->size - 1; k >= 0; k--) {
            next[k] = last[leaders[k]];
            last[leaders[k]] = k;
        }
        free(last);
        mb_printf(out, "# Ranks sharing a node (MPI_Comm_split_type):\n");
        for (int r = 0; r < ctx->size; r++) {
            if (leaders[r] != r)
                continue;
            nodes++;
            mb_printf(out, "#   %s:", names + (size_t)r * MPI_MAX_PROCESSOR_NAME);
            for (int k = r; k >= 0; k = next[k])
                mb_printf(out, " %d", k);
            mb_printf(out, "\n");
        }
        free(next);
        for (int r = 0; r < ctx->size; r++)
            same += leaders[r] == leaders[mb_presta_target(&job->layout, r)];
        mb_printf(out, "# %d node%s; %d of %d ranks have their partner on the same node\n", nodes,
                  nodes == 1 ? "" : "s", same, ctx->size);
        if (ppn > 0 && !blocks_match(leaders, ctx->size, ppn)) {
            matches = 0;
            mb_printf(out,
                      "# warning: -t %d assumes blocks of %d consecutive ranks per node; the "
                      "nodes above differ\n",
                      ppn, ppn);
            mb_eprintf("%s: warning: -t %d assumes blocks of %d consecutive ranks per node, but "
                       "the ranks share nodes differently (see the node map)",
                       job->cfg->prog, ppn, ppn);
        }
        mb_flush(out);
        if (ctx->json) {
            struct mb_jobj o;
            mb_jobj_begin(&o, "presta_nodes", ctx->json);
            mb_jobj_int(&o, "nodes", nodes);
            mb_jarray_ints(&o, "node_of_rank", leaders, (size_t)ctx->size);
            mb_jobj_int(&o, "partners_on_same_node", same);
            if (ppn > 0)
                mb_jobj_bool(&o, "ppn_matches", matches);
            else
                mb_jobj_null(&o, "ppn_matches");
            mb_jobj_write(&o, ctx->json);
        }
    }
    free(names);
    free(leaders);
}

int mb_presta_finish(const struct mb_presta_job *job, struct mb_tally *tally)
{
    tally->rows = job->rows;
    tally->defects = job->defects;
    tally->defects_what = "defects found";
    return 0;
}

void mb_presta_footer_check(const struct mb_ctx *ctx, const struct mb_config *cfg,
                            const struct mb_run_end *end)
{
    if (cfg->common.check)
        mb_printf(&ctx->out, "# Data check (--check): %lld defects\n", end->defects);
}

double mb_presta_pick(const double *samples, long n)
{
    double best = samples[0];

    for (long i = 1; i < n; i++)
        if (samples[i] < best)
            best = samples[i];
    return best;
}

static void json_row(const struct mb_presta_job *job, const struct mb_presta_row *r)
{
    const struct mb_ctx *ctx = job->ctx;
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "presta_row", ctx->json);
    mb_jobj_str(&o, "program", ctx->suite->legacy);
    mb_jobj_str(&o, "test", r->test);
    mb_jobj_int(&o, "processes", r->procs);
    mb_jobj_int(&o, "bytes", r->size);
    mb_jobj_int(&o, "ops", r->ops);
    if (r->epochs > 0)
        mb_jobj_int(&o, "epochs", r->epochs);
    mb_jobj_num(&o, "time_sec", r->time);
    if (job->program->bandwidth)
        mb_jobj_num(&o, "bandwidth_mb_per_sec", r->bandwidth);
    /* The figure of each sample is the sample's time per measurement scaled as the printed
     * figure is from the fastest one (usec per operation). */
    mb_jobj_figure(&o, job->program->figure, r->op_us, r->samples, (size_t)r->nsamples, 1,
                   r->time > 0 ? r->op_us / r->time : 0.0, job->cfg->common.raw_samples);
    mb_jobj_sample_count(&o, (size_t)r->nsamples);
    mb_jarray_nums(&o, "samples_sec", r->samples, (size_t)r->nsamples, 1, 1.0);
    if (r->defects >= 0)
        mb_jobj_int(&o, "defects", r->defects);
    mb_jobj_write(&o, ctx->json);
}

static void defect_line(const struct mb_ctx *ctx, const struct mb_presta_row *r)
{
    if (r->defects > 0)
        mb_printf(&ctx->out, "*** data check: %lld defects in %s, %d processes, %lld bytes\n",
                  r->defects, r->test, r->procs, r->size);
}

void mb_presta_row_done(struct mb_presta_job *job, const struct mb_presta_row *r)
{
    defect_line(job->ctx, r);
    mb_flush(&job->ctx->out);
    json_row(job, r);
    job->rows++;
    if (r->defects > 0)
        job->defects += r->defects;
}

void mb_presta_arm(const struct mb_ctx *ctx, const char *test, int procs, long long size)
{
    char label[160];

    if (!ctx->wd)
        return;
    snprintf(label, sizeof label, "%s: %s, %d processes, %lld bytes", ctx->suite->legacy, test,
             procs, size);
    mb_watchdog_arm(ctx->wd, label);
}

int mb_presta_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_presta_config *p = mb_presta_cfg(cfg);
    const struct mb_out *out = &ctx->out;

    if (ctx->rank != 0)
        return 0;
    mb_presta_preamble(ctx, cfg);
    if (p->n_counts > 0) {
        mb_printf(out, "# dry run: process sets");
        for (size_t i = 0; i < p->n_counts; i++)
            mb_printf(out, " %d", p->counts[i]);
        mb_printf(out, "; %zu message sizes", p->n_sizes);
        if (p->n_sizes > 0)
            mb_printf(out, " (%lld ... %lld bytes)", p->sizes[0], p->sizes[p->n_sizes - 1]);
        mb_printf(out, "; %ld sample(s) per measurement\n", p->samples);
    } else {
        mb_printf(out, "# dry run: %s on %d processes\n", ctx->suite->legacy, ctx->size);
    }
    mb_flush(out);
    return 0;
}
