/* SPDX-License-Identifier: BSD-3-Clause */
/* The map's text and JSON, on rank 0: a row and a map_link record per pair as its round ends,
 * then per host the median of its links (map_host) and the outliers (map_result). */
#include "map/map_report.h"

#include "core/error.h"
#include "core/stats.h"
#include "mb_version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS_UP_TO_HOSTS = 64 }; /* beyond: rows in the JSON only (h (h - 1) / 2 of them) */

static const char *name_of(const struct mb_map_report *r, int i)
{
    return r->names ? r->names + (size_t)i * r->name_len : "?";
}

static double percent(double ln_ratio)
{
    return 100.0 * (exp(ln_ratio) - 1.0);
}

void mb_map_header(const struct mb_ctx *ctx, const struct mb_config *cfg, const char *title)
{
    mb_printf(&ctx->out, "# mpibench %s: %s\n", MB_VERSION, title);
    mb_provenance_text(ctx->prov, &ctx->out);
    mb_printf(&ctx->out, "# Calling sequence: %s\n", cfg->cmdline);
    mb_settings_text(ctx->suite, cfg, &ctx->out);
    mb_flush(&ctx->out);
}

void mb_map_sampling_lines(const struct mb_out *out, const struct mb_map_config *c)
{
    mb_printf(out,
              "# latency: half the round trip of 8 bytes, best of %ld samples of %ld round trips\n"
              "# bandwidth: %ld messages of %ld bytes in flight, best of %ld samples\n",
              c->repeats, c->lat_iters, c->bw_window, c->bw_bytes, c->repeats);
}

void mb_map_report_begin(struct mb_map_report *r, const struct mb_ctx *ctx,
                         const struct mb_config *cfg, int h)
{
    const size_t cells = (size_t)h * (size_t)h;

    r->ctx = ctx;
    r->cfg = cfg;
    r->m.h = h;
    r->m.lat = mb_xcalloc(cells, sizeof *r->m.lat);
    r->m.bw = mb_xcalloc(cells, sizeof *r->m.bw);
    r->m.lat_spread = mb_xcalloc(cells, sizeof *r->m.lat_spread);
    r->m.bw_spread = mb_xcalloc(cells, sizeof *r->m.bw_spread);
    r->pairs = 0;
    mb_printf(&ctx->out, "#\n# Host map: %d hosts, one process each; %d rounds, %d pairs\n", h,
              mb_map_rounds(h), h * (h - 1) / 2);
    mb_map_sampling_lines(&ctx->out, mb_map_cfg(cfg));
    mb_printf(&ctx->out, "#\n");
    if (h <= ROWS_UP_TO_HOSTS)
        mb_printf(&ctx->out, "%6s %-20s %-20s %14s %14s %14s\n", "round", "host a", "host b",
                  "latency[usec]", "a->b[MiB/s]", "b->a[MiB/s]");
    else
        mb_printf(&ctx->out, "# (more than %d hosts: the pairs are in the JSON only)\n",
                  ROWS_UP_TO_HOSTS);
    mb_flush(&ctx->out);
}

void mb_map_report_link(void *arg, int round, int rounds, const struct mb_map_link *l)
{
    struct mb_map_report *r = arg;
    const int h = r->m.h, ab = l->a * h + l->b, ba = l->b * h + l->a;
    struct mb_jobj o;

    (void)rounds;
    r->m.lat[ab] = r->m.lat[ba] = l->latency_usec;
    r->m.lat_spread[ab] = r->m.lat_spread[ba] = l->latency_spread;
    r->m.bw[ab] = l->ab_mib_per_sec;
    r->m.bw_spread[ab] = l->ab_spread;
    r->m.bw[ba] = l->ba_mib_per_sec;
    r->m.bw_spread[ba] = l->ba_spread;
    r->pairs++;
    if (h <= ROWS_UP_TO_HOSTS)
        mb_printf(&r->ctx->out, "%6d %-20s %-20s %14.2f %14.2f %14.2f\n", round + 1,
                  name_of(r, l->a), name_of(r, l->b), l->latency_usec, l->ab_mib_per_sec,
                  l->ba_mib_per_sec);
    mb_flush(&r->ctx->out);
    mb_jobj_begin(&o, "map_link", r->ctx->json);
    mb_jobj_int(&o, "round", round + 1);
    mb_jobj_str(&o, "host_a", name_of(r, l->a));
    mb_jobj_str(&o, "host_b", name_of(r, l->b));
    mb_jobj_num(&o, "latency_usec", l->latency_usec);
    mb_jobj_num(&o, "latency_spread_percent", percent(l->latency_spread));
    mb_jobj_num(&o, "a_to_b_mib_per_sec", l->ab_mib_per_sec);
    mb_jobj_num(&o, "a_to_b_spread_percent", percent(l->ab_spread));
    mb_jobj_num(&o, "b_to_a_mib_per_sec", l->ba_mib_per_sec);
    mb_jobj_num(&o, "b_to_a_spread_percent", percent(l->ba_spread));
    mb_jobj_write(&o, r->ctx->json);
}

static const char *what_word(int bad)
{
    return bad == 3 ? "latency and bandwidth" : bad == 1 ? "latency" : bad == 2 ? "bandwidth" : "";
}

void mb_map_report_end(struct mb_map_report *r)
{
    const struct mb_out *out = &r->ctx->out;
    const int h = r->m.h;
    struct mb_map_outliers o;
    struct mb_jobj j;
    struct mb_jarray named = {0};

    mb_map_outliers_find(&r->m, mb_map_cfg(r->cfg)->outlier_factor, &o);
    mb_printf(out,
              "#\n# Hosts: the median of each host's links, and that against the median "
              "host's\n%-20s %14s %8s %14s %8s  %s\n",
              "host", "latency[usec]", "x", "bw[MiB/s]", "x", "outlier");
    for (int i = 0; i < h; i++) {
        const double lat = o.host_lat_x[i], bw = o.host_bw_x[i];
        double *v = mb_xmalloc(2 * (size_t)h * sizeof *v),
               *w = mb_xmalloc(2 * (size_t)h * sizeof *w);
        int n = 0;
        for (int k = 0; k < h; k++)
            if (k != i) {
                v[n] = r->m.lat[i * h + k];
                w[2 * n] = r->m.bw[i * h + k];
                w[2 * n + 1] = r->m.bw[k * h + i];
                n++;
            }
        const double lat_med = mb_median(v, (size_t)n), bw_med = mb_median(w, 2 * (size_t)n);
        free(v);
        free(w);
        mb_printf(out, "%-20s %14.2f %8.2f %14.2f %8.2f  %s\n", name_of(r, i), lat_med, lat, bw_med,
                  bw, o.host_bad[i] ? what_word(o.host_bad[i]) : "-");
        mb_jobj_begin(&j, "map_host", r->ctx->json);
        mb_jobj_str(&j, "host", name_of(r, i));
        mb_jobj_num(&j, "latency_usec", lat_med);
        mb_jobj_num(&j, "mib_per_sec", bw_med);
        mb_jobj_num(&j, "latency_vs_median_host_percent", 100.0 * lat);
        mb_jobj_num(&j, "bandwidth_vs_median_host_percent", 100.0 * bw);
        if (o.host_bad[i])
            mb_jobj_str(&j, "outlier",
                        o.host_bad[i] == 3   ? "both"
                        : o.host_bad[i] == 1 ? "latency"
                                             : "bandwidth");
        else
            mb_jobj_null(&j, "outlier");
        mb_jobj_write(&j, r->ctx->json);
    }
    mb_printf(out,
              "#\n# Run's spread (median over the links of their samples' Q3/Q1): %.1f %%; "
              "named beyond %.1f %% worse than the median\n",
              percent(o.spread), percent(o.threshold));
    mb_printf(out, "# Outlier hosts: ");
    for (int i = 0, n = 0; i < h; i++)
        if (o.host_bad[i])
            mb_printf(out, "%s%s (%s; latency %.2fx, bandwidth %.2fx the median host's)",
                      n++ ? ", " : "", name_of(r, i), what_word(o.host_bad[i]), o.host_lat_x[i],
                      o.host_bw_x[i]);
    mb_printf(out, "%s\n# Outlier links: ",
              o.nhosts_bad ? ""
              : h < 3      ? "none (two hosts: a slow "
                             "link cannot be told from "
                             "a slow host)"
                           : "none");
    for (int k = 0; k < o.nlinks_bad; k++)
        mb_printf(out, "%s%s %s %s (%s %.2fx the median link's)", k ? ", " : "",
                  name_of(r, o.link_a[k]), o.link_what[k] == 1 ? "-" : "->",
                  name_of(r, o.link_b[k]), o.link_what[k] == 1 ? "latency" : "bandwidth",
                  o.link_x[k]);
    mb_printf(out, "%s\n", o.nlinks_bad ? "" : "none");
    mb_flush(out);
    mb_jobj_begin(&j, "map_result", r->ctx->json);
    mb_jobj_int(&j, "hosts", h);
    mb_jobj_int(&j, "pairs", r->pairs);
    mb_jobj_num(&j, "spread_percent", percent(o.spread));
    mb_jobj_num(&j, "threshold_percent", percent(o.threshold));
    for (int i = 0; i < h; i++)
        if (o.host_bad[i])
            mb_jarray_add_str(&named, name_of(r, i));
    mb_jobj_array(&j, "outlier_hosts", &named);
    mb_jobj_int(&j, "outlier_links", o.nlinks_bad);
    mb_jobj_write(&j, r->ctx->json);
    mb_map_outliers_free(&o);
}

void mb_map_report_free(struct mb_map_report *r)
{
    free(r->m.lat);
    free(r->m.bw);
    free(r->m.lat_spread);
    free(r->m.bw_spread);
    memset(&r->m, 0, sizeof r->m);
}
