/* SPDX-License-Identifier: BSD-3-Clause */
/* The map's text and JSON (map_report.c), rank 0. */
#ifndef MB_MAP_REPORT_H
#define MB_MAP_REPORT_H

#include "map/map.h"
#include "map/map_driver.h"

struct mb_map_report {
    const struct mb_ctx *ctx;
    const struct mb_config *cfg;
    const char *names; /* the hosts' names, name_len bytes each, in host order */
    size_t name_len;
    struct mb_map_matrix m;
    long pairs;
};

/* Rank 0: the title line, provenance, calling sequence and settings of map and levels. */
void mb_map_header(const struct mb_ctx *ctx, const struct mb_config *cfg, const char *title);
/* How a pair's latency and bandwidth are sampled: two "# " lines. */
void mb_map_sampling_lines(const struct mb_out *out, const struct mb_map_config *c);

/* The plan's lines and the rows' head. */
void mb_map_report_begin(struct mb_map_report *r, const struct mb_ctx *ctx,
                         const struct mb_config *cfg, int h);
/* A pair's row and map_link record (an mb_map_round_fn). */
void mb_map_report_link(void *arg, int round, int rounds, const struct mb_map_link *l);
/* The hosts' medians (map_host), the outliers and map_result. */
void mb_map_report_end(struct mb_map_report *r);
void mb_map_report_free(struct mb_map_report *r);

#endif
