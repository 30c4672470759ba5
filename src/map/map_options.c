/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench map's options, defaults and checks. */
#include "map/map.h"

#include "core/error.h"

#include <stddef.h>

#define MAP(f) offsetof(struct mb_map_config, f)

static void map_defaults(void *block, const void *owner)
{
    struct mb_map_config *c = block;

    (void)owner;
    c->lat_iters = 100;
    c->bw_bytes = 1L << 20;
    c->bw_window = 8;
    c->repeats = 5;
    c->outlier_factor = 2.0;
}

static const struct mb_option map_rows[] = {
    {.name = "--lat-iters",
     .kind = MB_OPT_LONG,
     .offset = MAP(lat_iters),
     .min = 1,
     .max = 100000000,
     .metavar = "N",
     .help = "round trips of 8 bytes per latency sample (default 100)"},
    {.name = "--bw-bytes",
     .kind = MB_OPT_LONG,
     .offset = MAP(bw_bytes),
     .min = 1,
     .max = 1L << 30,
     .metavar = "BYTES",
     .help = "bytes of each bandwidth message (default 1048576)"},
    {.name = "--bw-window",
     .kind = MB_OPT_LONG,
     .offset = MAP(bw_window),
     .min = 1,
     .max = 1024,
     .metavar = "N",
     .help = "bandwidth messages in flight per sample (default 8)"},
    {.name = "--repeats",
     .kind = MB_OPT_LONG,
     .offset = MAP(repeats),
     .min = 1,
     .max = 1000,
     .metavar = "N",
     .help = "samples of each figure; the best is the figure, their spread the run's noise "
             "(default 5)"},
};
static const struct mb_option outlier_rows[] = {
    {.name = "--outlier-factor",
     .kind = MB_OPT_DOUBLE,
     .offset = MAP(outlier_factor),
     .min = 1.0,
     .max = 1000.0,
     .metavar = "F",
     .help = "name a host or link only when it is more than F times worse than the median "
             "(and beyond three times the run's spread; default 2)"},
};
static const struct mb_option_set map_set = {map_rows, sizeof map_rows / sizeof map_rows[0], 0};
static const struct mb_option_set outlier_set = {outlier_rows,
                                                 sizeof outlier_rows / sizeof outlier_rows[0], 0};

const struct mb_settings_type mb_map_settings = {.size = sizeof(struct mb_map_config),
                                                 .defaults = map_defaults,
                                                 .sets = {&map_set, &outlier_set}};
const struct mb_settings_type mb_levels_settings = {
    .size = sizeof(struct mb_map_config), .defaults = map_defaults, .sets = {&map_set}};

int mb_levels_validate(struct mb_config *cfg, const struct mb_provenance *prov,
                       struct mb_error *err)
{
    (void)prov;
    if (cfg->nprocs < 2)
        return mb_usage(err, "levels measures pairs of processes: it needs at least 2, and 1 "
                             "was started");
    if (cfg->common.check)
        return mb_usage(err, "--check: levels sends no patterned data to check");
    if (mb_config_samples(cfg) > 1)
        return mb_usage(err, "--samples: levels takes --repeats samples of each figure");
    return 0;
}

void mb_levels_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out,
            "Latency and bandwidth of a pair of processes at each level of the machine: two\n"
            "cores of one socket, two sockets of one host, two hosts. The pairs are chosen from\n"
            "the topology the header reports (hwloc): rank 0 and the lowest rank placed at\n"
            "that level. A level the job does not have (one socket per host, one host) is\n"
            "listed as not present, with why; ranks not bound to one socket on a host with\n"
            "several cannot be placed, and say so. Per pair: latency (half the round trip of\n"
            "8 bytes) and each direction's bandwidth, the best of --repeats samples.\n");
}

int mb_map_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    const struct mb_map_config *c = mb_map_cfg(cfg);

    if (prov->nhosts < 2)
        return mb_usage(err,
                        "map measures between hosts: it needs processes on at least two "
                        "hosts, and all %d run on one (%s)",
                        cfg->nprocs, prov->hosts ? prov->hosts : "?");
    if (cfg->common.check)
        return mb_usage(err, "--check: map sends no patterned data to check");
    if (mb_config_samples(cfg) > 1)
        return mb_usage(err, "--samples: map takes --repeats samples of each figure");
    if ((double)c->bw_bytes * (double)c->bw_window > 4.0 * 1024 * 1024 * 1024)
        return mb_usage(err, "--bw-bytes %ld x --bw-window %ld: more than 4 GiB in flight",
                        c->bw_bytes, c->bw_window);
    return 0;
}

void mb_map_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out,
            "Latency and bandwidth between every pair of hosts, one process per host (the\n"
            "lowest rank of each; the others wait). The pairs run in rounds in which each host\n"
            "is in one pair, as mpiGraph schedules them: h hosts take h - 1 rounds (h if odd),\n"
            "h (h - 1) / 2 pairs. Per pair: latency (half the round trip of 8 bytes) and the\n"
            "bandwidth of each direction, each the best of --repeats samples. Then the hosts\n"
            "and links that are worse than the median by more than three times the run's own\n"
            "spread (the samples' spread) and by more than --outlier-factor are named as\n"
            "outliers: a host when its links' median is that much worse than the median host's\n"
            "and each of its links is worse than every link between other hosts (3 or more\n"
            "hosts), a link when neither of its hosts is named.\n"
            "Needs processes on two or more hosts.\n");
}
