/* SPDX-License-Identifier: BSD-3-Clause */
/* The options every suite accepts (README.md, "Options every suite accepts"): their rows, and
 * what the run takes from them (the thread level, the samples per row). */
#include "core/suite.h"

#include "core/run_id.h"
#include "core/thread_level.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static void show_timeout(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->common.timeout > 0)
        snprintf(buf, len, "%g s per measurement", cfg->common.timeout);
    else
        snprintf(buf, len, "off");
}

/* --thread-level: the words of IMB 2019's -thread_level; the suite's row gives the default,
 * which is what its original program asked for (core/thread_level.h). */
static int parse_thread_level(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    const int level = mb_thread_level_parse(value);

    if (level < 0)
        return mb_usage(err,
                        "invalid value '%s' for " MB_THREAD_LEVEL_OPTION " (" MB_THREAD_LEVEL_ALIAS
                        "): expected single, funneled, serialized or "
                        "multiple",
                        value);
    cfg->common.thread_level = level;
    return 0;
}

int mb_suite_thread_level(const struct mb_suite *s, int argc, char **argv)
{
    return s->thread_level_for ? s->thread_level_for(s, argc, argv) : s->thread_level;
}

int mb_config_thread_level(const struct mb_config *cfg)
{
    if (cfg->common.thread_level != MB_THREAD_DEFAULT)
        return cfg->common.thread_level;
    if (cfg->common.suite_thread_level >= 0)
        return cfg->common.suite_thread_level;
    return cfg->suite >= 0 ? mb_suite_at((size_t)cfg->suite)->thread_level : MB_THREAD_SINGLE;
}

long mb_config_samples(const struct mb_config *cfg)
{
    const long d = cfg->suite >= 0 ? mb_suite_at((size_t)cfg->suite)->samples : 0;

    if (cfg->common.samples > 0)
        return cfg->common.samples;
    return d > 0 ? d : 1;
}

static void show_samples(const struct mb_config *cfg, char *buf, size_t len)
{
    const long k = mb_config_samples(cfg);
    const struct mb_suite *s = cfg->suite >= 0 ? mb_suite_at((size_t)cfg->suite) : NULL;

    if (s && s->samples_note) {
        s->samples_note(cfg, buf, len);
        return;
    }
    if (k == 1)
        snprintf(buf, len, "1 (one timed loop per row%s)",
                 cfg->common.samples > 0 ? "" : ", as the original");
    else
        snprintf(buf, len, "%ld per row%s", k, cfg->common.samples > 0 ? "" : " (the default)");
}

static void help_samples(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_config c = {.suite = cfg->suite};
    snprintf(buf, len, "%ld", mb_config_samples(&c));
}

static const char *thread_level_call(int level)
{
    return level == MB_THREAD_SINGLE ? "MPI_Init" : "MPI_Init_thread";
}

static void show_thread_level(const struct mb_config *cfg, char *buf, size_t len)
{
    const int level = mb_config_thread_level(cfg);
    const struct mb_suite *s = cfg->suite >= 0 ? mb_suite_at((size_t)cfg->suite) : NULL;

    snprintf(buf, len, "%s (%s%s)", mb_thread_level_word(level), thread_level_call(level),
             cfg->common.thread_level != MB_THREAD_DEFAULT ? ""
             : s && s->legacy                              ? ", as the original program"
                                                           : ", the default");
}

static void help_thread_level(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", mb_thread_level_word(mb_config_thread_level(cfg)));
}

#define COMMON(field) offsetof(struct mb_common_config, field)
const struct mb_option mb_common_options[] = {
    {.name = "--json",
     .kind = MB_OPT_STRING,
     .offset = COMMON(json_path),
     .metavar = "FILE",
     .help = "also write the results as JSON Lines to FILE (schema: docs/results.schema.json)",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--output-dir",
     .kind = MB_OPT_STRING,
     .offset = COMMON(output_dir),
     .metavar = "DIR",
     .help = "also write the text output (and, without --json, the JSON) into DIR",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--run-id",
     .kind = MB_OPT_STRING,
     .offset = COMMON(run_id),
     .metavar = "ID",
     .help = "the run id every JSON record carries (default: made at the start from the UTC "
             "time, the host and the process id)",
     .parse = mb_run_id_check,
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--check",
     .alias = "-check",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(check),
     .help =
         "check every received buffer; adds a defects column (results not valid as benchmark data)",
     .block = MB_IN_COMMON},
    {.name = "--check-selftest",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(selftest),
     .help = "with --check: deliberately corrupt sent data to prove the check finds it",
     .block = MB_IN_COMMON},
    {.name = "--timeout",
     .kind = MB_OPT_DOUBLE,
     .offset = COMMON(timeout),
     .min = 1e-3,
     .max = 1e9,
     .metavar = "SEC",
     .help = "abort the job (exit 1) if one measurement takes longer than SEC seconds",
     .show = show_timeout,
     .block = MB_IN_COMMON},
    {.name = MB_THREAD_LEVEL_OPTION,
     .alias = MB_THREAD_LEVEL_ALIAS,
     .kind = MB_OPT_CUSTOM,
     .offset = COMMON(thread_level),
     .metavar = "single|funneled|serialized|multiple",
     .help = "initialise MPI with MPI_Init (single) or MPI_Init_thread at that level",
     .parse = parse_thread_level,
     .show = show_thread_level,
     .help_default = help_thread_level,
     .block = MB_IN_COMMON},
    {.name = "--samples",
     .kind = MB_OPT_LONG,
     .offset = COMMON(samples),
     .min = 1,
     .max = 1000000,
     .metavar = "K",
     .help = "measure every row as K samples (the row's repetitions split among them); JSON "
             "adds the median, quartiles and 95 % interval of each figure",
     .show = show_samples,
     .help_default = help_samples,
     .block = MB_IN_COMMON},
    {.name = "--raw-samples",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(raw_samples),
     .help = "with --samples K > 1: JSON rows also carry every sample of each figure",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--spread",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(spread),
     .help = "with --samples K > 1: the text adds the median and its 95 % interval",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--quiet",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(quiet),
     .help = "no text output on stdout",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--dry-run",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(dry_run),
     .help = "print the run plan and exit without measuring",
     .block = MB_IN_COMMON,
     .per_run = 1},
    {.name = "--help",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(help),
     .help = "print this help and exit",
     .block = MB_IN_COMMON},
    {.name = "--version",
     .kind = MB_OPT_FLAG,
     .offset = COMMON(version),
     .help = "print the version and exit",
     .block = MB_IN_COMMON},
};
const size_t mb_n_common_options = sizeof mb_common_options / sizeof mb_common_options[0];
#undef COMMON
