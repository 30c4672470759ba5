/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench levels: one pair of processes at each level of the machine - two cores of one
 * socket, two sockets of one host, two hosts -, chosen from the placement the header gathered
 * (core/hardware_gather.h), each measured as the map measures a pair (map_driver.c), each its
 * own row, record and headline; a level the job lacks is a row saying why
 * (docs/adr/node-map.md, "Levels"). */
#include "map/map.h"
#include "map/map_driver.h"
#include "map/map_report.h"

#include "core/error.h"
#include "core/idle.h"
#include "core/thread_level.h"

#include <stdio.h>
#include <string.h>

enum { SOCKET, SOCKETS, HOSTS, LEVELS };

static const char *const level_name[LEVELS] = {"socket", "sockets", "hosts"};
static const char *const level_title[LEVELS] = {"within a socket", "across sockets",
                                                "across hosts"};

struct level_plan {
    int a, b;      /* the pair (a = rank 0), or -1 when the level is not present */
    char why[160]; /* rank 0: why not */
};

static const char *host_of(const struct mb_provenance *p, int host)
{
    return p->host_names && host >= 0 && host < p->nhosts
               ? p->host_names + (size_t)host * MPI_MAX_PROCESSOR_NAME
               : "?";
}

/* Rank 0: the pairs. Two ranks share a socket when their host has one, or when both are
 * bound within the same package; they are on two sockets when both are bound and the
 * packages differ. An unbound rank on a host of several sockets has no socket to name. */
static void choose(const struct mb_provenance *p, struct level_plan plan[LEVELS])
{
    const struct mb_hw_report *r = &p->hw;
    const struct mb_hw_place *at = r->places;

    for (int l = 0; l < LEVELS; l++) {
        plan[l].a = plan[l].b = -1;
        plan[l].why[0] = '\0';
    }
    if (!at || r->nprocs < 2 || !r->kinds) {
        for (int l = 0; l < LEVELS; l++)
            snprintf(plan[l].why, sizeof plan[l].why, "no placement was gathered");
        return;
    }
    const int h0 = at[0].host, pk = r->kinds[r->kind_of_host[h0]].packages;
    int alone = 1;
    for (int j = 1; j < r->nprocs; j++) {
        const int here = at[j].host == h0;
        const int distinct_core = at[0].core < 0 || at[j].core != at[0].core;
        alone &= !here;
        if (here && distinct_core && plan[SOCKET].a < 0 &&
            (pk == 1 || (at[0].package >= 0 && at[j].package == at[0].package)))
            plan[SOCKET].a = 0, plan[SOCKET].b = j;
        if (here && pk > 1 && plan[SOCKETS].a < 0 && at[0].package >= 0 && at[j].package >= 0 &&
            at[j].package != at[0].package)
            plan[SOCKETS].a = 0, plan[SOCKETS].b = j;
        if (!here && plan[HOSTS].a < 0)
            plan[HOSTS].a = 0, plan[HOSTS].b = j;
    }
    if (plan[SOCKET].a < 0)
        snprintf(plan[SOCKET].why, sizeof plan[SOCKET].why, "%s",
                 alone                         ? "rank 0 is the only process on its host"
                 : pk > 1 && at[0].package < 0 ? "ranks not bound to one socket (bind them, "
                                                 "e.g. --bind-to core)"
                                               : "no other process on rank 0's socket");
    if (plan[SOCKETS].a < 0) {
        if (pk <= 1)
            snprintf(plan[SOCKETS].why, sizeof plan[SOCKETS].why, "one socket per host (%s)",
                     host_of(p, h0));
        else
            snprintf(plan[SOCKETS].why, sizeof plan[SOCKETS].why, "%s",
                     at[0].package < 0 ? "ranks not bound to one socket (bind them, e.g. "
                                         "--bind-to core)"
                                       : "no process on another socket of rank 0's host");
    }
    if (plan[HOSTS].a < 0)
        snprintf(plan[HOSTS].why, sizeof plan[HOSTS].why, "the job runs on one host");
}

static void header(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    mb_map_header(ctx, cfg, "point-to-point at each level of the machine");
    mb_printf(&ctx->out, "#\n");
    mb_map_sampling_lines(&ctx->out, mb_map_cfg(cfg));
    mb_printf(&ctx->out, "#\n%-16s %6s %6s  %-20s %-20s %14s %14s %14s\n", "level", "rank a",
              "rank b", "host a", "host b", "latency[usec]", "a->b[MiB/s]", "b->a[MiB/s]");
    mb_flush(&ctx->out);
}

/* Rank 0: the level's row and level_pair record (l NULL: not present). */
static void report(const struct mb_ctx *ctx, int level, const struct level_plan *pl,
                   const struct mb_map_link *l)
{
    const struct mb_provenance *p = ctx->prov;
    struct mb_jobj o;

    mb_jobj_begin(&o, "level_pair", ctx->json);
    mb_jobj_str(&o, "level", level_name[level]);
    if (l) {
        const char *ha = host_of(p, p->hw.places[pl->a].host);
        const char *hb = host_of(p, p->hw.places[pl->b].host);
        mb_printf(&ctx->out, "%-16s %6d %6d  %-20s %-20s %14.2f %14.2f %14.2f\n",
                  level_title[level], pl->a, pl->b, ha, hb, l->latency_usec, l->ab_mib_per_sec,
                  l->ba_mib_per_sec);
        mb_jobj_bool(&o, "present", 1);
        mb_jobj_null(&o, "why");
        mb_jobj_int(&o, "rank_a", pl->a);
        mb_jobj_int(&o, "rank_b", pl->b);
        mb_jobj_str(&o, "host_a", ha);
        mb_jobj_str(&o, "host_b", hb);
        mb_jobj_num(&o, "latency_usec", l->latency_usec);
        mb_jobj_num(&o, "a_to_b_mib_per_sec", l->ab_mib_per_sec);
        mb_jobj_num(&o, "b_to_a_mib_per_sec", l->ba_mib_per_sec);
    } else {
        mb_printf(&ctx->out, "%-16s not present: %s\n", level_title[level], pl->why);
        mb_jobj_bool(&o, "present", 0);
        mb_jobj_str(&o, "why", pl->why);
        mb_jobj_null(&o, "rank_a");
        mb_jobj_null(&o, "rank_b");
        mb_jobj_null(&o, "host_a");
        mb_jobj_null(&o, "host_b");
        mb_jobj_null(&o, "latency_usec");
        mb_jobj_null(&o, "a_to_b_mib_per_sec");
        mb_jobj_null(&o, "b_to_a_mib_per_sec");
    }
    mb_jobj_write(&o, ctx->json);
    mb_flush(&ctx->out);
}

static int levels_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    struct level_plan plan[LEVELS];
    int pairs[2 * LEVELS];

    if (ctx->rank == 0) {
        choose(ctx->prov, plan);
        header(ctx, cfg);
        for (int l = 0; l < LEVELS; l++) {
            pairs[2 * l] = plan[l].a;
            pairs[2 * l + 1] = plan[l].b;
        }
    }
    MB_MPI(MPI_Bcast(pairs, 2 * LEVELS, MPI_INT, 0, ctx->world));
    for (int l = 0; l < LEVELS; l++) {
        const int a = pairs[2 * l], b = pairs[2 * l + 1];
        struct mb_map_link link = {.a = a, .b = b};
        struct mb_idle idle;
        char label[96];
        if (a < 0) {
            if (ctx->rank == 0)
                report(ctx, l, &plan[l], NULL);
            continue;
        }
        snprintf(label, sizeof label, "levels: %s, ranks %d and %d", level_title[l], a, b);
        mb_idle_begin(&idle, ctx->wd, ctx->world, ctx->size > 2, ctx->rank != a && ctx->rank != b);
        if (ctx->rank == a || ctx->rank == b) {
            mb_watchdog_arm(ctx->wd, label);
            mb_map_pair_measure(mb_map_cfg(cfg), ctx->world, ctx->rank == a ? b : a, ctx->rank == a,
                                &link);
            mb_watchdog_disarm(ctx->wd);
        } else {
            mb_idle_wait(&idle, label);
        }
        mb_idle_end(&idle);
        if (ctx->rank == 0) {
            report(ctx, l, &plan[l], &link);
            tally->rows++;
        }
    }
    tally->defects_what = "defects found";
    return 0;
}

static int levels_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    struct level_plan plan[LEVELS];

    (void)cfg;
    if (ctx->rank != 0)
        return 0;
    choose(ctx->prov, plan);
    mb_printf(&ctx->out, "# Run plan of mpibench levels (--dry-run: nothing is measured)\n");
    for (int l = 0; l < LEVELS; l++)
        if (plan[l].a >= 0)
            mb_printf(&ctx->out, "# %-16s ranks %d and %d\n", level_title[l], plan[l].a, plan[l].b);
        else
            mb_printf(&ctx->out, "# %-16s not present: %s\n", level_title[l], plan[l].why);
    mb_flush(&ctx->out);
    return 0;
}

const struct mb_suite mb_suite_levels = {
    .name = "levels",
    .legacy = NULL,
    .title = "levels: a pair's latency and bandwidth within a socket, across sockets and "
             "across hosts",
    .thread_level = MB_THREAD_SINGLE,
    .settings = &mb_levels_settings,
    .validate = mb_levels_validate,
    .usage = mb_levels_usage,
    .dry_run = levels_dry_run,
    .run = levels_run,
    .footer = mb_map_footer,
};
