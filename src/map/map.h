/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench map: latency and bandwidth between every pair of hosts, one process per host, the
 * pairs scheduled in rounds so that each host is in one pair at a time (as LLNL's mpiGraph
 * schedules them), and the hosts and links that fall below the rest by more than the run's
 * own spread (docs/adr/node-map.md). */
#ifndef MB_MAP_H
#define MB_MAP_H

#include "core/config.h"
#include "core/provenance.h"
#include "core/suite.h"

#include <stddef.h>

struct mb_map_config {
    long lat_iters;        /* round trips per latency sample */
    long bw_bytes;         /* bytes per bandwidth message */
    long bw_window;        /* messages in flight per bandwidth sample */
    long repeats;          /* samples per figure; the figure is the best (load only slows) */
    double outlier_factor; /* named only beyond this factor worse than the median */
};

static inline const struct mb_map_config *mb_map_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

extern const struct mb_settings_type mb_map_settings;
extern const struct mb_settings_type mb_levels_settings; /* the measurement's rows only */
int mb_levels_validate(struct mb_config *cfg, const struct mb_provenance *prov,
                       struct mb_error *err);
void mb_levels_usage(const struct mb_suite *s, FILE *out);
int mb_map_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
void mb_map_usage(const struct mb_suite *s, FILE *out);
/* The footer line of map and levels: rows, seconds, peak memory (no data check). */
void mb_map_footer(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_run_end *e);

/* The round-robin schedule (the circle method): for h hosts, rounds(h) rounds; in round r,
 * pair i (i < h / 2 + h % 2) is hosts *a < *b, or *a = -1 when that slot is a bye. */
int mb_map_rounds(int h);
void mb_map_pair(int h, int r, int i, int *a, int *b);

/* One measured figure per ordered pair: lat[a * h + b] (round trip / 2, usec; symmetric) and
 * bw[a * h + b] (MiB/s from a to b); spread: each link's relative spread over its samples. */
struct mb_map_matrix {
    int h;
    double *lat, *bw;
    double *lat_spread, *bw_spread; /* ln(Q3 / Q1) of the samples, per entry */
};

/* What the outlier rule found (map_outliers.c). */
struct mb_map_outliers {
    double spread;      /* the run's spread: the median of the links' sample spreads (ln) */
    double threshold;   /* ln of the factor beyond which a host or link is named: the larger
                         * of 3 x spread and ln(--outlier-factor) */
    int *host_bad;      /* [h]: 1 latency, 2 bandwidth, 3 both */
    double *host_lat_x; /* [h]: its links' median latency / the median host's */
    double *host_bw_x;  /* [h]: its links' median bandwidth / the median host's */
    int nhosts_bad;
    int *link_a, *link_b, *link_what; /* named links (1 latency, 2 bandwidth), n_links */
    double *link_x;
    int nlinks_bad;
};

/* The rule, on rank 0 (docs/adr/node-map.md). */
void mb_map_outliers_find(const struct mb_map_matrix *m, double factor, struct mb_map_outliers *o);
void mb_map_outliers_free(struct mb_map_outliers *o);

#endif
