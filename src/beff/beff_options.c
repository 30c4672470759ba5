/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff's command line: the original's -f and -yrange (as in b_eff 3.6, with its quirk Q9
 * fixed: a proper parser) and mpibench's own options (docs/adr/beff-measurement.md). Only rank 0
 * runs this code. */
#include "beff/beff_options.h"

#include "beff/beff.h"
#include "core/error.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BEFF(field) offsetof(struct mb_beff_config, field)

static struct mb_beff_config *settings(struct mb_config *cfg)
{
    return cfg->settings;
}

static int parse_yrange(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    const char *colon = strchr(value, ':'), *why = NULL;
    char lo[64];
    double a, b;

    if (!colon || (size_t)(colon - value) >= sizeof lo)
        return mb_usage(err, "invalid value '%s' for -yrange: expected <min>:<max>", value);
    memcpy(lo, value, (size_t)(colon - value));
    lo[colon - value] = '\0';
    if (mb_parse_double(lo, 1e-300, 1e300, &a, &why) != 0 ||
        mb_parse_double(colon + 1, 1e-300, 1e300, &b, &why) != 0)
        return mb_usage(err,
                        "invalid value '%s' for -yrange: %s (both ends must be positive "
                        "numbers for the logarithmic axis)",
                        value, why);
    if (!(a < b))
        return mb_usage(err, "invalid value '%s' for -yrange: min must be below max", value);
    settings(cfg)->ymin = a;
    settings(cfg)->ymax = b;
    return 0;
}

static void show_yrange(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%g:%g", mb_beff_cfg(cfg)->ymin, mb_beff_cfg(cfg)->ymax);
}

static int parse_seed(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    const char *why = NULL;
    long long v;

    if (mb_parse_long(value, 0, 4294967295LL, &v, &why) != 0)
        return mb_usage(err, "invalid value '%s' for --seed: %s (0 ... 4294967295)", value, why);
    settings(cfg)->seed = v;
    settings(cfg)->seed_given = 1;
    return 0;
}

static void show_seed(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%lld%s", mb_beff_cfg(cfg)->seed,
             mb_beff_cfg(cfg)->seed_given ? "" : " (from the clock)");
}

const char *const mb_beff_profile_name[3] = {
    [MB_BEFF_PAPER] = "paper", [MB_BEFF_V36] = "3.6", [MB_BEFF_V36_TEST] = "3.6-test"};

static int parse_profile(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(value, mb_beff_profile_name[i]) == 0) {
            settings(cfg)->profile = i;
            return 0;
        }
    return mb_usage(err, "invalid value '%s' for --profile: expected 'paper', '3.6' or '3.6-test'",
                    value);
}

static void show_profile(const struct mb_config *cfg, char *buf, size_t len)
{
    static const char *const what[3] = {
        [MB_BEFF_PAPER] = "loops of 2.5-5 ms, 300 for the shortest message",
        [MB_BEFF_V36] = "0.5 s per size and method, 60 s rule for the two largest sizes",
        [MB_BEFF_V36_TEST] = "b_eff 3.6 -D TEST: 0.005 s per size and method, 1 s rule"};
    snprintf(buf, len, "%s (%s)", mb_beff_profile_name[mb_beff_cfg(cfg)->profile],
             what[mb_beff_cfg(cfg)->profile]);
}

static void show_maxloop(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_beff_cfg(cfg)->max_looplength > 0)
        snprintf(buf, len, "%ld", mb_beff_cfg(cfg)->max_looplength);
    else
        snprintf(buf, len, "none");
}

static void show_memory(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%ld MB per process (L_max = %lld bytes)", mb_beff_cfg(cfg)->memory_mb,
             mb_beff_lmax(mb_beff_cfg(cfg)->memory_mb));
}

static const struct mb_option rows[] = {
    {.name = "-f",
     .kind = MB_OPT_STRING,
     .offset = BEFF(prefix),
     .metavar = "PREFIX",
     .help = "protocol files PREFIX.prot .short .sum .plot .gps (default b_eff, or DIR/b_eff with "
             "--output-dir)",
     .per_run = 1},
    {.name = "-yrange",
     .kind = MB_OPT_CUSTOM,
     .metavar = "MIN:MAX",
     .help = "y range of the gnuplot script (default 0.01:10000)",
     .parse = parse_yrange,
     .show = show_yrange},
    {.name = "--memory",
     .kind = MB_OPT_LONG,
     .offset = BEFF(memory_mb),
     .min = 1,
     .max = 1L << 40,
     .metavar = "MB",
     .help = "memory per process in MiB; L_max = min(128 MB, memory/128) (default: node memory / "
             "processes on the node)",
     .show = show_memory},
    {.name = "--random",
     .kind = MB_OPT_LONG,
     .offset = BEFF(random),
     .min = 1,
     .max = 10000,
     .metavar = "N",
     .help = "random ring patterns entering b_eff (default 30)"},
    {.name = "--seed",
     .kind = MB_OPT_CUSTOM,
     .metavar = "S",
     .help = "seed of the random rings (default: from the clock; printed either way)",
     .parse = parse_seed,
     .show = show_seed,
     .per_run = 1},
    {.name = "--profile",
     .kind = MB_OPT_CUSTOM,
     .metavar = "paper|3.6|3.6-test",
     .help = "loop-length rules: the papers' (default), b_eff 3.6's, or 3.6's -D TEST values",
     .parse = parse_profile,
     .show = show_profile},
    {.name = "--repetitions",
     .kind = MB_OPT_LONG,
     .offset = BEFF(repetitions),
     .min = 1,
     .max = MB_BEFF_REPS_MAX,
     .metavar = "N",
     .help = "repetitions of the whole sweep (default 3)"},
    {.name = "--max-looplength",
     .kind = MB_OPT_LONG,
     .offset = BEFF(max_looplength),
     .min = 1,
     .max = 1000000,
     .metavar = "N",
     .help = "loop length of the shortest message and upper bound (default 300; none with "
             "--profile 3.6)",
     .show = show_maxloop},
    {.name = "-help",
     .kind = MB_OPT_FLAG,
     .offset = offsetof(struct mb_common_config, help),
     .help = "same as --help",
     .block = MB_IN_COMMON},
};

const struct mb_option_set mb_beff_option_set = {rows, sizeof rows / sizeof rows[0], 0};
const struct mb_settings_type mb_beff_settings = {.size = sizeof(struct mb_beff_config),
                                                  .sets = {&mb_beff_option_set}};

int mb_beff_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    struct mb_beff_config *b = settings(cfg);
    const unsigned long long avail = prov->mem_per_proc;
    double need, results;

    if (b->ymin == 0 && b->ymax == 0) {
        b->ymin = MB_BEFF_YMIN;
        b->ymax = MB_BEFF_YMAX;
    }
    if (b->random == 0)
        b->random = MB_BEFF_RANDOM;
    /* b_eff's samples are its repetitions of the whole sweep (docs/adr/samples.md): --samples
     * K asks for K of them, unless --repetitions says otherwise. */
    if (cfg->common.samples > 0 && b->repetitions != 0 && b->repetitions != cfg->common.samples)
        return mb_usage(err,
                        "--samples %ld and --repetitions %ld disagree: b_eff's samples are its "
                        "repetitions",
                        cfg->common.samples, b->repetitions);
    if (cfg->common.samples > MB_BEFF_REPS_MAX)
        return mb_usage(err,
                        "invalid value '%ld' for --samples: b_eff's samples are its repetitions, "
                        "at most %d",
                        cfg->common.samples, (int)MB_BEFF_REPS_MAX);
    if (b->repetitions == 0)
        b->repetitions = cfg->common.samples > 0 ? cfg->common.samples : MB_BEFF_REPS;
    if (b->max_looplength == 0 && b->profile == MB_BEFF_PAPER)
        b->max_looplength = MB_BEFF_LOOP_MAX;
    if (!b->seed_given)
        b->seed =
            (long long)(((unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 16)) &
                        0xFFFFFFFFULL);
    if (b->memory_mb == 0) {
        /* docs/adr/beff-measurement.md, "L_max": memory per processor = node memory / processes on
         * the node. */
        b->memory_mb = (long)(avail / (1024 * 1024));
        if (b->memory_mb < 1)
            return mb_usage(err, "cannot detect the memory per process; give it with --memory MB");
    }
    need = 2.0 * (double)mb_beff_buffer_bytes(b->memory_mb);
    if (avail > 0 && need > (double)avail)
        return mb_usage(err,
                        "--memory %ld MB needs send and receive buffers of %.1f MB per process "
                        "(2 x 6 x (L_max + 16) bytes), but this node has %.1f MB per process",
                        b->memory_mb, need / 1048576.0, (double)avail / 1048576.0);
    /* Every process also keeps the results: 45 bytes per (repetition, pattern, size,
     * method), 570 MB at both maxima. */
    results = (double)mb_beff_data_bytes(b->repetitions, mb_beff_pattern_cap((int)b->random));
    if (avail > 0 && need + results > (double)avail)
        return mb_usage(err,
                        "--random %ld and --repetitions %ld keep %.1f MB of results per "
                        "process, which with the buffers of --memory %ld MB (%.1f MB) is more "
                        "than this node's %.1f MB per process; give fewer random rings or "
                        "repetitions",
                        b->random, b->repetitions, results / 1048576.0, b->memory_mb,
                        need / 1048576.0, (double)avail / 1048576.0);
    return mb_prefix_resolve(&b->prefix, "b_eff", cfg->common.output_dir, err);
}

void mb_beff_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out,
            "Measures the effective communication bandwidth b_eff: 21 message lengths "
            "from\n1 byte to L_max, 6 ring and 30 random ring patterns (plus patterns only "
            "reported), three\nmethods (MPI_Sendrecv, MPI_Alltoallv, MPI_Irecv+Isend+Waitall), "
            "3 repetitions.\nb_eff = logavg(logavg_rings(avg_L(max_mthd(max_rep b))), "
            "logavg_random(...)).\nWrites a summary to stdout and the protocol files "
            "PREFIX.prot, .short, .sum, .plot, .gps.\n\n");
}
