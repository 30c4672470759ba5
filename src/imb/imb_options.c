/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-MPI1's command line (IMB guide 5.1.2): the option rows, their parsers, the benchmark
 * names and the validation that resolves defaults. Only rank 0 runs this code. */
#include "imb/imb_options.h"

#include "core/error.h"
#include "core/hardware.h"
#include "core/info.h"
#include "core/listfile.h"
#include "core/thread_level.h"
#include "imb/imb_cpu.h"
#include "imb/imb_newer_options.h"
#include "imb/imb_offcache.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"
#include "imb/imb_time_rule.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IMB(field) offsetof(struct mb_imb_config, field)

static struct mb_imb_config *settings(struct mb_config *cfg)
{
    return cfg->settings;
}

/* The values of word-choice rows (MB_OPT_WORD: the index of the word is stored, so each
 * list's order is its enum's: imb_config.h, imb_cpu.h, imb_time_rule.h). */
static const char *const program_guide[] = {"program", "guide", NULL};
static const char *const program_best[] = {"program", "best", NULL};
static const char *const run_block[] = {"run", "block", "length", NULL};
static const char *const length_block[] = {"length", "block", NULL};
static const char *const zero_sections[] = {"zero", "sections", NULL};
_Static_assert(MB_IMB_CPU_PROGRAM == 0 && MB_IMB_CPU_BEST == 1, "-t_cpu_rule's words count 0, 1");
_Static_assert(MB_IMB_BUF_SCOPE_RUN == 0 && MB_IMB_BUF_SCOPE_BLOCK == 1 &&
                   MB_IMB_BUF_SCOPE_LENGTH == 2,
               "-buf_scope's words");
_Static_assert(MB_IMB_BUF_FILL_LENGTH == 0 && MB_IMB_BUF_FILL_BLOCK == 1, "-buf_fill's words");
_Static_assert(MB_IMB_WIN_DISP_ZERO == 0 && MB_IMB_WIN_DISP_SECTIONS == 1, "-win_disp's words");
_Static_assert(MB_IMB_WIN_SCOPE_LENGTH == 0 && MB_IMB_WIN_SCOPE_BLOCK == 1, "-win_scope's words");
_Static_assert(MB_IMB_TIME_PROGRAM == 0 && MB_IMB_TIME_GUIDE == 1, "-time_rule's words count 0, 1");

static const struct mb_imb_family *family_of(const struct mb_config *cfg)
{
    return mb_imb_families[mb_imb_cfg(cfg)->family];
}

/* ---- benchmark names ---------------------------------------------------------------- */

static int select_name(struct mb_config *cfg, const char *name, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);
    int multi, sel;
    const int idx = mb_imb_find_named(family_of(cfg), name, &multi);

    if (idx < 0) /* "Multi-" alone is named whole, not as the empty name after it */
        return mb_usage(err, "unknown benchmark '%s' (see -help for the list)",
                        multi && name[6] ? name + 6 : name);
    sel = MB_IMB_SEL(idx, multi);
    for (size_t i = 0; i < c->n_selected; i++)
        if (c->selected[i] == sel)
            return 0; /* named twice: run once */
    c->selected = mb_xrealloc(c->selected, (c->n_selected + 1) * sizeof *c->selected);
    c->selected[c->n_selected++] = sel;
    return 0;
}

/* A command-line word may list several names separated by commas (guide 5.1.2 syntax). */
int mb_imb_positional(struct mb_config *cfg, const char *arg, struct mb_error *err)
{
    char *copy = mb_xstrdup(arg), *tok = copy;
    int rc = 0;

    /* Names separated by commas; an empty one ('' or ',') would select nothing and so run
     * every benchmark: refused. */
    for (;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        if (*tok == '\0')
            rc = mb_usage(err, "empty benchmark name in '%s'", arg);
        else
            rc = select_name(cfg, tok, err);
        if (rc != 0 || !comma)
            break;
        tok = comma + 1;
    }
    free(copy);
    return rc;
}

static int input_entry(void *user, const char *entry, struct mb_error *err)
{
    return select_name(user, entry, err);
}

/* -input: the row stored the file name; the names in it are selected. */
static int parse_input(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    return mb_listfile_read(cfg->files, value, "benchmark names", input_entry, cfg, err);
}

/* ---- -msglen ------------------------------------------------------------------------- */

int mb_imb_length_entry(struct mb_imb_config *c, const char *entry, struct mb_error *err)
{
    long long v;
    const char *why;

    if (mb_parse_long(entry, LLONG_MIN, LLONG_MAX, &v, &why) != 0)
        return mb_usage(err, "'%s' is not a message length (a non-negative integer): %s", entry,
                        why);
    if (v < 0)
        return mb_usage(err, "negative message length %lld", v);
    /* Counts are MPI ints (docs/adr/imb-memory.md): larger messages are
     * refused, not overflowed. */
    if (v > INT_MAX)
        return mb_usage(err, "message length %lld exceeds the largest supported length (%d bytes)",
                        v, INT_MAX);
    c->lengths = mb_xrealloc(c->lengths, (c->n_lengths + 1) * sizeof *c->lengths);
    c->lengths[c->n_lengths++] = v;
    return 0;
}

static int msglen_entry(void *user, const char *entry, struct mb_error *err)
{
    return mb_imb_length_entry(user, entry, err);
}

/* -msglen: the row stored the file name; its lengths replace the standard list. */
static int parse_msglen(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);

    free(c->lengths);
    c->lengths = NULL;
    c->n_lengths = 0;
    return mb_listfile_read(cfg->files, value, "message lengths", msglen_entry, c, err);
}

/* ---- comma lists: -iter, -off_cache --------------------------------------------------- */

/* Splits "a,b,c" into at most max fields; returns the count or -1 if there are more. */
static int split_commas(char *text, char **fields, int max)
{
    int n = 0;
    char *p = text;

    for (;;) {
        if (n == max)
            return -1;
        fields[n++] = p;
        p = strchr(p, ',');
        if (!p)
            return n;
        *p++ = '\0';
    }
}

static int parse_iter(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    static const char *const names[] = {"msgspersample", "overall_vol", "msgs_nonaggr"};
    long *dest[] = {&settings(cfg)->msgspersample, &settings(cfg)->overall_vol_mb,
                    &settings(cfg)->msgs_nonaggr};
    /* overall_vol is in MB: keep vol * 2^20 far from overflowing. */
    const long long max[] = {INT_MAX, 1LL << 30, INT_MAX};
    char *copy = mb_xstrdup(value), *fields[3];
    int n = split_commas(copy, fields, 3), rc = 0;

    if (n < 0)
        rc = mb_usage(err,
                      "invalid value '%s' for -iter: at most 3 comma-separated numbers "
                      "(msgspersample[,overall_vol[,msgs_nonaggr]])",
                      value);
    for (int i = 0; rc == 0 && i < n; i++) {
        long long v;
        const char *why;
        if (mb_parse_long(fields[i], 1, max[i], &v, &why) != 0)
            rc = mb_usage(err, "invalid value '%s' for -iter: %s '%s' %s", value, names[i],
                          fields[i], why);
        else
            *dest[i] = (long)v;
    }
    free(copy);
    return rc;
}

static int parse_off_cache(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    char *copy = mb_xstrdup(value), *fields[2];
    int n = split_commas(copy, fields, 2), rc = 0;
    double size = 0;
    long long line = 0;
    const char *why = "";

    if (n < 0)
        rc = mb_usage(
            err, "invalid value '%s' for -off_cache: expected cache_size[,cache_line_size]", value);
    else if (mb_parse_double(fields[0], -1, 1e9, &size, &why) != 0 || (size <= 0 && size != -1))
        rc = mb_usage(err,
                      "invalid value '%s' for -off_cache: cache size '%s' %s (MB > 0, or -1 "
                      "to detect it)",
                      value, fields[0], size <= 0 && *why == '\0' ? "must be positive" : why);
    else if (n == 2 && mb_parse_long(fields[1], 1, 1 << 20, &line, &why) != 0)
        rc = mb_usage(err, "invalid value '%s' for -off_cache: cache line size '%s' %s", value,
                      fields[1], why);
    if (rc == 0) {
        settings(cfg)->off_cache_mb = size;
        settings(cfg)->off_cache_line = (long)line;
    }
    free(copy);
    return rc;
}

/* ---- -map ------------------------------------------------------------------------------ */

static int parse_map(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    const char *x = strpbrk(value, "xX");
    char left[32];
    long long p, q;
    const char *why;

    if (!x || x == value || x[1] == '\0' || (size_t)(x - value) >= sizeof left)
        return mb_usage(err, "invalid value '%s' for -map: expected PxQ, e.g. 2x7", value);
    memcpy(left, value, (size_t)(x - value));
    left[x - value] = '\0';
    if (mb_parse_long(left, 1, INT_MAX, &p, &why) != 0)
        return mb_usage(err,
                        "invalid value '%s' for -map: P and Q must be positive integers; P '%s' %s",
                        value, left, why);
    if (mb_parse_long(x + 1, 1, INT_MAX, &q, &why) != 0)
        return mb_usage(err,
                        "invalid value '%s' for -map: P and Q must be positive integers; Q '%s' %s",
                        value, x + 1, why);
    settings(cfg)->map_rows = (long)p;
    settings(cfg)->map_cols = (long)q;
    return 0;
}

/* ---- effective values ---------------------------------------------------------------- */

static void show_npmin(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->npmin > 0)
        snprintf(buf, len, "%ld", mb_imb_cfg(cfg)->npmin);
    else
        snprintf(buf, len, "%d (default)", family_of(cfg)->npmin);
}

static void show_multi(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->multi < 0)
        snprintf(buf, len, "off (primary benchmarks)");
    else
        snprintf(buf, len, "%ld (%s)", mb_imb_cfg(cfg)->multi,
                 mb_imb_cfg(cfg)->multi ? "every group" : "worst group");
}

static void show_off_cache(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->cache_bytes == 0)
        snprintf(buf, len, "%s",
                 mb_imb_cfg(cfg)->off_cache_mb != 0 ? "off (not effective for IMB-IO)" : "off");
    else
        snprintf(
            buf, len, "%.3f MB cache%s, %llu B lines", mb_imb_cfg(cfg)->cache_bytes / 1048576.0,
            mb_imb_cfg(cfg)->off_cache_mb < 0 ? " (detected)" : "", mb_imb_cfg(cfg)->cache_line);
}

static void show_iter(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    snprintf(buf, len, "msgspersample=%ld overall_vol=%lld MB msgs_nonaggr=%ld",
             mb_imb_msgspersample(c), mb_imb_overall_vol(c) / 1048576, mb_imb_msgs_nonaggr(c));
}

static void show_time(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    if (mb_imb_time_limit(c) > 0)
        snprintf(buf, len, "%g s per message length%s", mb_imb_time_limit(c),
                 c->time_limit > 0 ? "" : " (-iter_policy dynamic's default)");
    else if (c->time_limit > 0)
        snprintf(buf, len, "%g s: not used under -iter_policy off", c->time_limit);
    else
        snprintf(buf, len, "no limit");
}

/* -time_rule: IMB 3.1's program (the default) or the guide's words (5.1.2.6); the header says
 * which rule ran (docs/adr/program-time-repetitions.md). */
static void show_time_rule(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const char *how = c->time_rule == MB_IMB_TIME_GUIDE
                          ? "guide (the most repetitions that fit the limit, each length on its "
                            "own)"
                          : "program (1 + limit/t after a ~1 s preparatory run, never more than "
                            "a shorter length; IMB 3.1)";
    snprintf(buf, len, "%s%s", how, mb_imb_time_limit(c) > 0 ? "" : " - not used without -time");
}

static void show_mem(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%.3f GB per process%s", (double)mb_imb_cfg(cfg)->mem_cap / MB_GB,
             mb_imb_cfg(cfg)->mem_gb > 0 ? "" : " (default: half the memory per process)");
}

static void show_file(char *const *field, char *buf, size_t len)
{
    snprintf(buf, len, "%s", *field ? *field : "(standard)");
}

static void show_msglen(const struct mb_config *cfg, char *buf, size_t len)
{
    show_file(&mb_imb_cfg(cfg)->msglen_file, buf, len);
}

static void show_input(const struct mb_config *cfg, char *buf, size_t len)
{
    show_file(&mb_imb_cfg(cfg)->input_file, buf, len);
}

static void show_map(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->map_rows > 0)
        snprintf(buf, len, "%ldx%ld", mb_imb_cfg(cfg)->map_rows, mb_imb_cfg(cfg)->map_cols);
    else
        snprintf(buf, len, "none");
}

/* --help's defaults of the rows the three families share: each family's own constants
 * (IMB-IO: -npmin 1, -iter 50,16,10 from settings_io.h; IMB-MPI1 and IMB-EXT: 2 and
 * 1000,40,100 from settings.h). */
static void help_npmin(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%d", family_of(cfg)->npmin);
}

static void help_iter(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_family *f = family_of(cfg);
    snprintf(buf, len, "%ld,%ld,%ld", f->msgspersample, f->overall_vol_mb, f->msgs_nonaggr);
}

static const struct mb_option imb_options[] = {
    {.name = "-h",
     .alias = "-help",
     .kind = MB_OPT_FLAG,
     .offset = offsetof(struct mb_common_config, help),
     .help = "print this help and exit",
     .block = MB_IN_COMMON},
    {.name = "-npmin",
     .kind = MB_OPT_LONG,
     .offset = IMB(npmin),
     .min = 1,
     .max = INT_MAX,
     .metavar = "<NPmin>",
     .help = "smallest number of processes to run on, 1 or more",
     .show = show_npmin,
     .help_default = help_npmin},
    {.name = "-multi",
     .kind = MB_OPT_LONG,
     .offset = IMB(multi),
     .max = 1,
     .metavar = "<outflag>",
     .help = "run Multi- versions in simultaneous groups; 0: show the worst group, 1: every group",
     .show = show_multi},
    {.name = "-off_cache",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(off_cache_mb),
     .metavar = "<cache_size[,cache_line_size]>",
     .help = "avoid cache reuse of message buffers; cache size in MB (-1: detect), line in bytes",
     .parse = parse_off_cache,
     .show = show_off_cache},
    {.name = "-iter",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(msgspersample),
     .metavar = "<msgspersample[,overall_vol[,msgs_nonaggr]]>",
     .help = "override MSGSPERSAMPLE, OVERALL_VOL in MB and MSGS_NONAGGR",
     .parse = parse_iter,
     .show = show_iter,
     .help_default = help_iter},
    {.name = "-time",
     .kind = MB_OPT_DOUBLE,
     .offset = IMB(time_limit),
     .min = 1e-6,
     .max = 1e9,
     .metavar = "<max_runtime per sample>",
     .help = "run at most about this many seconds per message length",
     .show = show_time},
    {.name = "-time_rule",
     .kind = MB_OPT_WORD,
     .offset = IMB(time_rule),
     .metavar = "program|guide",
     .help = "how -time picks repetitions: program = the original program's (default), guide = "
             "the most that fit",
     .words = program_guide,
     .show = show_time_rule},
    {.name = "-mem",
     .kind = MB_OPT_DOUBLE,
     .offset = IMB(mem_gb),
     .min = 1e-9,
     .max = 1e9,
     .metavar = "<max. mem usage per process>",
     .help = "GBytes of message buffers per process; larger lengths are skipped",
     .show = show_mem},
    {.name = "-msglen",
     .kind = MB_OPT_STRING,
     .offset = IMB(msglen_file),
     .metavar = "<Lengths_file>",
     .help = "message lengths, one per line ('#' comments allowed)",
     .parse = parse_msglen,
     .show = show_msglen},
    {.name = "-map",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(map_rows),
     .metavar = "<PxQ>",
     .help = "renumber the ranks along the rows of a PxQ matrix (P*Q = number of processes)",
     .parse = parse_map,
     .show = show_map},
    {.name = "-input",
     .kind = MB_OPT_STRING,
     .offset = IMB(input_file),
     .metavar = "<filename>",
     .help = "benchmark names, one per line ('#' comments allowed)",
     .parse = parse_input,
     .show = show_input},
};
const struct mb_option_set mb_imb_option_set = {imb_options,
                                                sizeof imb_options / sizeof imb_options[0], 0};

/* The lists the command line resolves: -msglen's lengths, the selected benchmarks, and
 * IMB-EXT's window info. */
static const struct mb_option resolved[] = {
    {.kind = MB_OPT_LIST,
     .offset = IMB(lengths),
     .count_offset = IMB(n_lengths),
     .elem_size = sizeof(long long)},
    {.kind = MB_OPT_LIST,
     .offset = IMB(selected),
     .count_offset = IMB(n_selected),
     .elem_size = sizeof(int)},
    {.kind = MB_OPT_LIST,
     .offset = IMB(win_info),
     .count_offset = IMB(win_info_len),
     .elem_size = 1},
    /* The benchmarks -include and -exclude name (imb_newer_options.c). */
    {.kind = MB_OPT_LIST,
     .offset = IMB(included),
     .count_offset = IMB(n_included),
     .elem_size = sizeof(int)},
    {.kind = MB_OPT_LIST,
     .offset = IMB(excluded),
     .count_offset = IMB(n_excluded),
     .elem_size = sizeof(int)},
};
const struct mb_option_set mb_imb_resolved_set = {resolved, sizeof resolved / sizeof resolved[0],
                                                  0};

/* ---- IMB-MPI1 and IMB-EXT: -warm_up on|off ---------------------------------------------- */

/* Intel IMB 2019 and later warm up every length before timing it (their -warm_up, default on);
 * IMB 3.1 warms up once per benchmark with 4 bytes (guide 5.2.6), which stays the default
 * here. On machines where the first copies into a buffer are slow (docs/adr/imb-warm-up.md) the
 * two rules give different numbers at large lengths; this option measures the newer way. */
static int parse_warm_up(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    /* Intel's words (yes, enable, ...) too: a script written for Intel IMB runs unchanged. */
    if (mb_imb_bool_word(value, &settings(cfg)->warm_up_each) != 0)
        return mb_usage(err, "invalid value '%s' for -warm_up: expected on or off", value);
    settings(cfg)->warm_up_given = 1;
    return 0;
}

static void show_warm_up(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const struct mb_imb_family *f = mb_imb_family(c);
    int has2021 = 0;
    for (size_t i = 0; i < f->n; i++)
        has2021 |= f->benchmarks[i].imb2021;
    if (f->imb2021 && !c->warm_up_given) {
        /* Every benchmark of the family is Intel IMB 2021.11's. */
        snprintf(buf, len,
                 "on (n/10 untimed repetitions of every length, at least 1, as Intel "
                 "IMB 2021.11)");
        return;
    }
    snprintf(buf, len, "%s%s",
             c->warm_up_each  ? "on (untimed samples of every length before its timing)"
             : f->warmups > 0 ? "off (4 bytes once per benchmark, IMB 3.1)"
                              : "off (none)",
             c->warm_up_given || !has2021
                 ? ""
                 : "; Intel IMB 2021.11's benchmarks: on, as 2021.11 runs them");
}

/* -prime on|off: mpibench's own untimed samples at each block's largest length (not in IMB
 * 3.1, which is the default: off; docs/adr/prime.md). */
static int parse_prime(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    if (strcmp(value, "on") == 0 || strcmp(value, "1") == 0)
        settings(cfg)->prime = 1;
    else if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0)
        settings(cfg)->prime = 0;
    else
        return mb_usage(err, "invalid value '%s' for -prime: expected on or off", value);
    return 0;
}

static void show_prime(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_cfg(cfg)->prime
                 ? "on (untimed samples at each benchmark's largest length after the warm-up)"
                 : "off (no samples beyond the warm-up, IMB 3.1)");
}

/* The warm-up the family's original runs: IMB 3.1's, or Intel IMB 2021.11's of every length. */
static void help_warm_up(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", family_of(cfg)->imb2021 ? "on, as Intel IMB 2021.11" : "off: IMB 3.1");
}

static void help_prime(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "off: %s", family_of(cfg)->imb2021 ? "Intel IMB 2021.11" : "IMB 3.1");
}

static const struct mb_option warm_up_options[] = {
    {.name = "-warm_up",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(warm_up_each),
     .metavar = "on|off",
     .help = "on: warm up every message length before timing it, as Intel IMB 2019+ do",
     .parse = parse_warm_up,
     .show = show_warm_up,
     .help_default = help_warm_up},
    {.name = "-prime",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(prime),
     .metavar = "on|off",
     .help = "on: before timing, untimed samples at the largest length, to touch every buffer",
     .parse = parse_prime,
     .show = show_prime,
     .help_default = help_prime},
};
const struct mb_option_set mb_imb_warm_up_set = {
    warm_up_options, sizeof warm_up_options / sizeof warm_up_options[0], 0};

/* ---- IMB-MPI1: -order program|guide ----------------------------------------------------- */

/* A default run (no names given) runs the benchmarks in IMB 3.1's program order
 * (IMB_bnames_mpi1.h: the reductions fifth, Bcast 16th); -order guide runs the guide's list
 * (3.2: Bcast fifth). Names given on the command line run in the order given, as in IMB. */
static void show_order(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    snprintf(buf, len, "%s%s",
             c->guide_order ? "guide (Bcast fifth, reductions after Alltoallv)"
                            : "program (reductions fifth, Bcast 16th; IMB 3.1)",
             c->n_selected > 0 && !c->guide_order_filled ? " - names given: in the order given"
                                                         : "");
}

static const struct mb_option order_options[] = {
    {.name = "-order",
     .kind = MB_OPT_WORD,
     .offset = IMB(guide_order),
     .metavar = "program|guide",
     .help = "order of a run of all benchmarks: program = IMB 3.1's (default), guide = the "
             "guide's list",
     .words = program_guide,
     .show = show_order},
};
const struct mb_option_set mb_imb_order_set = {order_options,
                                               sizeof order_options / sizeof order_options[0], 0};

/* ---- -alloc malloc|mmap|mpi|libc ------------------------------------------------------------ */

/* Where the message buffers come from, by default as IMB 3.1 took them (IMB_mem_manager.c):
 * malloc for IMB-MPI1 (IMB_v_alloc), MPI_Alloc_mem for IMB-EXT and IMB-IO (IMB_alloc_buf);
 * mmap is mpibench's own page-aligned allocation (docs/adr/program-imb-buffers.md). */
static const struct {
    enum mb_buf_source src;
    const char *word, *what;
} alloc_sources[] = {
    {MB_BUF_MALLOC, "malloc", "message buffers laid out as malloc's"},
    {MB_BUF_MMAP, "mmap", "message buffers from mpibench's own page-aligned mmap"},
    {MB_BUF_MPI, "mpi", "message buffers from MPI_Alloc_mem"},
    {MB_BUF_LIBC, "libc", "message buffers from the C library's malloc and free"},
};
enum { N_ALLOC_SOURCES = sizeof alloc_sources / sizeof alloc_sources[0] };

static size_t alloc_index(enum mb_buf_source src)
{
    size_t i = 0;
    while (i + 1 < N_ALLOC_SOURCES && alloc_sources[i].src != src)
        i++;
    return i;
}

static int parse_alloc(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    for (size_t i = 0; i < N_ALLOC_SOURCES; i++)
        if (strcmp(value, alloc_sources[i].word) == 0) {
            settings(cfg)->alloc = alloc_sources[i].src;
            return 0;
        }
    return mb_usage(err, "invalid value '%s' for -alloc: expected malloc, mmap, mpi or libc",
                    value);
}

static void show_alloc(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const size_t i = alloc_index(mb_imb_buf_source(c));
    snprintf(buf, len, "%s: %s%s", alloc_sources[i].word, alloc_sources[i].what,
             c->alloc                    ? ""
             : mb_imb_family(c)->imb2021 ? " (default, as Intel IMB 2021.11)"
                                         : " (default, as IMB 3.1)");
}

static void help_alloc(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             alloc_sources[alloc_index(mb_imb_family(mb_imb_cfg(cfg))->buffers)].word);
}

#define ALLOC_ROW                                                                                  \
    {                                                                                              \
        .name = "-alloc", .kind = MB_OPT_CUSTOM, .offset = IMB(alloc),                             \
        .metavar = "malloc|mmap|mpi|libc",                                                         \
        .help = "message buffers laid out as malloc's (malloc), in mpibench's page-aligned "       \
                "mmap (mmap), from MPI_Alloc_mem (mpi) or from the C library's malloc (libc)",     \
        .parse = parse_alloc, .show = show_alloc, .help_default = help_alloc                       \
    }

/* ---- -buf_scope run|block (docs/adr/program-imb-buffer-lifetime.md) -------------------- */

/* IMB 3.1 keeps its message buffers for the whole run: IMB_alloc_buf (IMB_mem_manager.c) frees
 * and reallocates them only when a length needs more, and IMB_free_all frees them at the end.
 * What the program allocated and freed before decides where the library's own temporary
 * buffers land (glibc moves its mmap threshold up when a mapped block is freed): the
 * program's lifetime is the default, "block" allocates per block as mpibench did. */
static void show_buf_scope(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->buf_scope == MB_IMB_BUF_SCOPE_BLOCK)
        snprintf(buf, len,
                 "block (each benchmark allocates buffers for its largest length and "
                 "frees them after it)");
    else if (mb_imb_cfg(cfg)->buf_scope == MB_IMB_BUF_SCOPE_LENGTH)
        snprintf(buf, len,
                 "length (each length allocates its buffers and frees them after its row%s)",
                 mb_imb_family(mb_imb_cfg(cfg))->imb2021 ? ", as Intel IMB 2021.11" : "");
    else
        snprintf(buf, len,
                 "run (buffers kept from benchmark to benchmark, grown when a length "
                 "needs more, freed at the end)");
}

static void help_buf_scope(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", family_of(cfg)->imb2021 ? "length" : "run");
}

#define BUF_SCOPE_ROW                                                                              \
    {                                                                                              \
        .name = "-buf_scope", .kind = MB_OPT_WORD, .offset = IMB(buf_scope),                       \
        .metavar = "run|block|length",                                                             \
        .help = "message buffers: run = kept from benchmark to benchmark and grown per length "    \
                "(IMB 3.1), block = allocated per benchmark, length = per length (Intel IMB "      \
                "2021.11)",                                                                        \
        .words = run_block, .show = show_buf_scope, .help_default = help_buf_scope                 \
    }

/* ---- -buf_fill length|block (docs/adr/program-imb-buffer-fill.md) ---------------------- */

/* IMB 3.1 writes a length's buffers before its timed loops, every length: IMB_init_buffers_iter
 * calls IMB_set_buf, which fills the send buffer's bytes for the length with BUF_VALUE and
 * zeroes the receive buffer's (IMB_mem_manager.c), so that a large length's first repetitions
 * start from buffers just written. "block" writes them only when allocated, as mpibench did. */
static void show_buf_fill(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->buf_fill == MB_IMB_BUF_FILL_BLOCK)
        snprintf(buf, len, "block (buffers written only when a benchmark allocates or grows them)");
    else if (mb_imb_cfg(cfg)->win_scope == MB_IMB_WIN_SCOPE_BLOCK)
        snprintf(buf, len,
                 "block (buffers written only when a benchmark allocates them: -win_scope "
                 "block keeps one window over them)");
    else
        snprintf(buf, len,
                 "length (send buffer written and receive buffer zeroed before every "
                 "message length)");
}

#define BUF_FILL_ROW                                                                               \
    {                                                                                              \
        .name = "-buf_fill", .kind = MB_OPT_WORD, .offset = IMB(buf_fill),                         \
        .metavar = "length|block",                                                                 \
        .help = "message buffers written before every length (length: default, as IMB 3.1) or "    \
                "only when allocated or grown (block)",                                            \
        .words = length_block, .show = show_buf_fill                                               \
    }

static const struct mb_option mpi1_alloc_options[] = {ALLOC_ROW, BUF_SCOPE_ROW, BUF_FILL_ROW};
const struct mb_option_set mb_imb_mpi1_alloc_set = {
    mpi1_alloc_options, sizeof mpi1_alloc_options / sizeof mpi1_alloc_options[0], 0};

/* ---- IMB-EXT: --info key=value (guide 5.2.3.3, User_Set_Info) ------------------------- */

static int parse_info(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);
    const char *eq = strchr(value, '=');
    size_t old = c->win_info_len ? c->win_info_len - 1 : 0, add = strlen(value);
    char why[160];

    if (!eq || eq == value)
        return mb_usage(err, "invalid value '%s' for --info: expected key=value", value);
    /* Checked here, not left to MPI_Info_set: an empty or too long value aborted the job. */
    if (mb_info_check(value, (size_t)(eq - value), eq + 1, why, sizeof why) != 0)
        return mb_usage(err, "invalid value '%s' for --info: %s", value, why);
    c->win_info = mb_xrealloc(c->win_info, old + add + 2);
    memcpy(c->win_info + old, value, add);
    c->win_info[old + add] = '\n';
    c->win_info[old + add + 1] = '\0';
    c->win_info_len = old + add + 2;
    return 0;
}

static void show_info(const struct mb_config *cfg, char *buf, size_t len)
{
    const char *t = mb_imb_cfg(cfg)->win_info;
    size_t n;

    if (!t) {
        snprintf(buf, len, "MPI_INFO_NULL");
        return;
    }
    snprintf(buf, len, "%s", t);
    n = strlen(buf);
    if (n > 0 && buf[n - 1] == '\n')
        buf[n - 1] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = ' ';
}

/* ---- IMB-EXT: -win_disp zero|sections (docs/adr/program-ext-displacement.md) ---------- */

/* IMB 3.1's program puts, gets and accumulates every repetition at displacement 0 unless
 * -off_cache is given (IMB_ones_unidir.c, IMB_ones_accu.c: i % cache_iter * offs, with one
 * buffer and offset 0 by default); its guide (4.2.2.2, Table 20) describes disjoint sections.
 * The program's placement is the default, the guide's is "sections". */
static void show_win_disp(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);

    if (c->win_disp == MB_IMB_WIN_DISP_SECTIONS)
        snprintf(buf, len, "sections (transfer i of a sample at section i: disjoint transfers)");
    else if (c->cache_bytes > 0)
        snprintf(buf, len, "zero (transfers rotate through the off-cache buffers)");
    else
        snprintf(buf, len, "zero (displacement 0 for every repetition)");
}

/* ---- IMB-EXT: -win_scope length|block (docs/adr/program-ext-window-per-length.md) ------- */

/* IMB 3.1's program creates the window of a one-sided benchmark for every message length, over
 * that length's buffers, and frees it after the length (IMB_init_transfer.c, called from
 * IMB_mem_manager.c; IMB_close_transfer from IMB.c), as the guide's 5.2.3.1 ("a window of size
 * X") reads too. That is the default; "block" keeps one window over the block's largest
 * buffers for all its lengths: one collective window creation per block instead of one per
 * length, which a large process count may prefer. */
static void show_win_scope(const struct mb_config *cfg, char *buf, size_t len)
{
    if (mb_imb_cfg(cfg)->win_scope == MB_IMB_WIN_SCOPE_BLOCK)
        snprintf(buf, len, "block (one window over the block's largest buffers for every length)");
    else
        snprintf(buf, len,
                 "length (a window over each length's buffers, created and freed for "
                 "every length)");
}

static const struct mb_option ext_options[] = {
    {.name = "-win_disp",
     .kind = MB_OPT_WORD,
     .offset = IMB(win_disp),
     .metavar = "zero|sections",
     .help = "where one sample's transfers go in the window: zero = displacement 0 (default, "
             "as IMB 3.1 ran), sections = disjoint sections",
     .words = zero_sections,
     .show = show_win_disp},
    {.name = "-win_scope",
     .kind = MB_OPT_WORD,
     .offset = IMB(win_scope),
     .metavar = "length|block",
     .help = "the window of the one-sided benchmarks: length = one per message length over its "
             "buffers (default, as IMB 3.1 ran), block = one per block over the largest buffers",
     .words = length_block,
     .show = show_win_scope},
    {.name = "--info",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(win_info),
     .metavar = "KEY=VALUE",
     .help = "an info entry for MPI_Win_create (repeatable; default MPI_INFO_NULL)",
     .parse = parse_info,
     .show = show_info},
    ALLOC_ROW,
    BUF_SCOPE_ROW,
    BUF_FILL_ROW,
};
const struct mb_option_set mb_imb_ext_set = {ext_options,
                                             sizeof ext_options / sizeof ext_options[0], 0};

/* ---- IMB-IO: the scratch files (IMB 3.1 guide 5.2.3.2), TARGET_CPU_SECS (5.2.1), -alloc -- */

static void show_dir(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_cfg(cfg)->io_dir ? mb_imb_cfg(cfg)->io_dir : ". (the working directory)");
}

static void show_file_name(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_cfg(cfg)->io_file ? mb_imb_cfg(cfg)->io_file : MB_IMB_IO_FILENAME);
}

static void show_cpu_secs(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%g s per transfer%s", mb_imb_cpu_secs(mb_imb_cfg(cfg)),
             mb_imb_cfg(cfg)->cpu_secs > 0 ? "" : " (the default, IMB 3.1's TARGET_CPU_SECS)");
}

static void help_cpu_secs(const struct mb_config *cfg, char *buf, size_t len)
{
    (void)cfg;
    snprintf(buf, len, "%g", MB_IMB_TARGET_CPU_SECS);
}

/* -t_cpu_rule: IMB 3.1's calibration (the default) or the best of several probes; the header
 * says which ran (docs/adr/program-imb-io-cpu-calibration.md). */
static void show_cpu_rule(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_cfg(cfg)->cpu_rule == MB_IMB_CPU_BEST
                 ? "best (CPU_Exploit's rate the fastest of 32 pieces of its probe, t_CPU the "
                   "fastest of up to 5 calls)"
                 : "program (CPU_Exploit's rate from one probe, t_CPU one timed call; IMB 3.1)");
}

/* -open_close_reps: IMB 3.1's program (MSGS_NONAGGR, the default) or the guide's 5.2.8
 * (MSGSPERSAMPLE) for Open_Close (docs/adr/program-imb-io-open-close-reps.md). */
static void show_open_close_reps(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    if (c->iter_policy == MB_IMB_ITER_OFF)
        snprintf(buf, len, "%s - not used under -iter_policy off (MSGSPERSAMPLE, %ld repetitions)",
                 c->open_close_guide ? "guide" : "program", mb_imb_msgspersample(c));
    else if (c->open_close_guide)
        snprintf(buf, len, "guide (MSGSPERSAMPLE, %ld repetitions)", mb_imb_msgspersample(c));
    else
        snprintf(buf, len, "program (MSGS_NONAGGR, %ld repetitions; IMB 3.1)",
                 mb_imb_msgs_nonaggr(c));
}

/* -io_barriers: the timer's barriers on the file's communicator (IMB 3.1's program, the default)
 * or on the group (the guide's 5.2.7) (docs/adr/program-imb-io-timer-sync.md). */
static void show_io_barriers(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_cfg(cfg)->io_barriers_guide
                 ? "guide (the barriers before a timed loop on all the benchmark's processes)"
                 : "program (the barriers before a timed loop on the file's processes: none "
                   "shared for private files; IMB 3.1)");
}

static const struct mb_option io_options[] = {
    {.name = "--dir",
     .kind = MB_OPT_STRING,
     .offset = IMB(io_dir),
     .metavar = "DIR",
     .help = "directory for the scratch files (default: the working directory)",
     .show = show_dir,
     .per_run = 1},
    {.name = "--file",
     .kind = MB_OPT_STRING,
     .offset = IMB(io_file),
     .metavar = "NAME",
     .help = "scratch file name, suffixed _g<group> in Multi mode and _<rank> per process "
             "(default IMB_out)",
     .show = show_file_name,
     .per_run = 1},
    {.name = "--force",
     .kind = MB_OPT_FLAG,
     .offset = IMB(io_force),
     .help = "overwrite (and then remove) an existing regular file of a scratch name",
     .per_run = 1},
    {.name = "-keep",
     .alias = "--keep",
     .kind = MB_OPT_FLAG,
     .offset = IMB(io_keep),
     .help = "keep the scratch files after the run",
     .per_run = 1},
    {.name = "--info",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(win_info),
     .metavar = "KEY=VALUE",
     .help = "an MPI-IO hint for MPI_File_open and the file view (repeatable; default "
             "MPI_INFO_NULL)",
     .parse = parse_info,
     .show = show_info},
    /* TARGET_CPU_SECS: 0.01 s as IMB 3.1's program; -t_cpu 0.1 is the guide's listing
     * (docs/adr/program-imb-io-t-cpu.md). */
    {.name = "-t_cpu",
     .alias = "--cpu-secs",
     .kind = MB_OPT_DOUBLE,
     .offset = IMB(cpu_secs),
     .min = 1e-6,
     .max = 1e3,
     .metavar = "SECONDS",
     .help = "CPU_Exploit time per non-blocking transfer",
     .show = show_cpu_secs,
     .help_default = help_cpu_secs},
    {.name = "-t_cpu_rule",
     .kind = MB_OPT_WORD,
     .offset = IMB(cpu_rule),
     .metavar = "program|best",
     .help = "how CPU_Exploit is calibrated: program = IMB 3.1's one probe (default), best = "
             "the fastest of several",
     .words = program_best,
     .show = show_cpu_rule},
    {.name = "-open_close_reps",
     .kind = MB_OPT_WORD,
     .offset = IMB(open_close_guide),
     .metavar = "program|guide",
     .help = "Open_Close's repetitions: program = MSGS_NONAGGR as IMB 3.1 (default), guide = "
             "MSGSPERSAMPLE",
     .words = program_guide,
     .show = show_open_close_reps},
    {.name = "-io_barriers",
     .kind = MB_OPT_WORD,
     .offset = IMB(io_barriers_guide),
     .metavar = "program|guide",
     .help = "the barriers before a timed loop: program = on the file's communicator as IMB 3.1 "
             "(each process alone for private files; default), guide = on the group",
     .words = program_guide,
     .show = show_io_barriers},
    ALLOC_ROW,
    BUF_SCOPE_ROW,
};
const struct mb_option_set mb_imb_io_set = {io_options, sizeof io_options / sizeof io_options[0],
                                            0};

void mb_imb_defaults(void *block, const void *owner)
{
    struct mb_imb_config *c = block;
    const struct mb_imb_family *f = owner;
    c->family = mb_imb_family_index(owner);
    c->multi = -1;
    /* IMB 3.1: the root moves every repetition, no barrier between repetitions. Intel IMB
     * 2021.11 (NBC_suite.cpp declare_args): -iter_policy dynamic (a 10 s limit per length),
     * -sync on, -root_shift off. */
    c->root_shift = !f->imb2021;
    c->sync_each = f->imb2021;
    if (f->imb2021) {
        c->iter_policy = MB_IMB_ITER_DYNAMIC;
        c->buf_scope = MB_IMB_BUF_SCOPE_LENGTH;
    }
}

/* Names after two spaces, wrapped before 80 columns, or after the family's list_break_after
 * alone (IMB-MPI1's two lines of IMB 3.1's names). */
static void name_list(FILE *out, const struct mb_imb_family *f, int nondefault)
{
    const int by_width = nondefault || !f->list_break_after;
    size_t col = 1;

    for (size_t i = 0; i < f->n; i++) {
        const char *name = f->benchmarks[i].name;
        if (f->benchmarks[i].nondefault != nondefault)
            continue;
        if (by_width && col + 1 + strlen(name) > 79) {
            fprintf(out, "\n ");
            col = 1;
        }
        fprintf(out, " %s", name);
        col += 1 + strlen(name);
        if (f->list_break_after && strcmp(name, f->list_break_after) == 0) {
            fprintf(out, "\n ");
            col = 1;
        }
    }
}

void mb_imb_usage(const struct mb_suite *s, FILE *out)
{
    const struct mb_imb_family *f = s->owner;
    int later = 0;

    for (size_t i = 0; i < f->n; i++)
        later |= f->benchmarks[i].nondefault;
    fprintf(out,
            "Benchmarks (case-insensitive; default: all%s, in this order; \"Multi-<name>\" "
            "runs the Multi- version):\n ",
            later ? " of the first list" : "");
    name_list(out, f, 0);
    if (later) {
        if (f->imb2021)
            fprintf(out, "\nRun only when named or given to -include:\n ");
        else
            fprintf(out, "\nIntel IMB 2021.11's, run only when named or given to -include (their "
                         "Mbytes/sec: 10^6 bytes/s, as 2021.11 prints):\n ");
        name_list(out, f, 1);
    }
    fprintf(out, "\n\nExamples:\n%s\n", f->examples);
}

/* The benchmark names of one word ("PingPong,Multi-Barrier"): -1 when one is not the family's
 * (the parser will say so), else whether all are Intel IMB 2021.11's. */
static int all_imb2021(const struct mb_imb_family *f, const char *word)
{
    char name[128];
    int all = 1;

    while (*word) {
        const size_t n = strcspn(word, ",");
        int multi, idx;
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), word);
        idx = mb_imb_find_named(f, name, &multi);
        if (n > 0 && idx < 0)
            return -1;
        if (n > 0 && !f->benchmarks[idx].imb2021)
            all = 0;
        word += n + (word[n] == ',');
    }
    return all;
}

int mb_imb_thread_level_for(const struct mb_suite *s, int argc, char **argv)
{
    /* Intel IMB 2021.11 calls MPI_Init (imb.cpp; USE_MPI_INIT_THREAD is not defined), IMB 3.1
     * MPI_Init_thread at MPI_THREAD_MULTIPLE (IMB.c line 132): a command line that runs only
     * 2021.11's benchmarks - names given, all of them and every -include name 2021.11's -
     * asks for 2021.11's MPI_Init (docs/adr/imb-2021-mpi1-benchmarks.md). Without names the
     * default list runs (IMB 3.1's); names in an -input file are not read here: such a run
     * keeps the family's level. */
    const struct mb_imb_family *f = s->owner;
    struct mb_option_set sets[MB_MAX_SETS];
    const size_t nsets = mb_suite_option_sets(s, sets);
    int named = 0;

    for (int i = 0; i < argc; i++) {
        int value_follows;
        const struct mb_option *o = mb_option_find(sets, nsets, argv[i], &value_follows);
        const char *names = argv[i];

        if (o && strcmp(o->name, "-input") == 0)
            return s->thread_level;
        if (o && strcmp(o->name, "-include") == 0 && i + 1 < argc)
            names = argv[++i];
        else if (o || argv[i][0] == '-') {
            i += value_follows;
            continue;
        } else {
            named = 1;
        }
        if (all_imb2021(f, names) <= 0)
            return s->thread_level;
    }
    return named ? MB_THREAD_SINGLE : s->thread_level;
}

int mb_imb_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);

    if (family_of(cfg)->needs_mpi4 && !mb_imb_have_mpi4)
        return mb_usage(err,
                        "%s needs MPI-4's persistent collectives (MPI_Bcast_init and the others), "
                        "which this MPI library does not have (%s, MPI %d.%d): use an MPI-4 "
                        "library such as MPICH 4",
                        family_of(cfg)->name, prov->mpi_library, prov->mpi_version,
                        prov->mpi_subversion);
    if (c->map_rows > 0 && (long long)c->map_rows * c->map_cols != cfg->nprocs)
        return mb_usage(err, "-map %ldx%ld maps %lld processes, but %d were started", c->map_rows,
                        c->map_cols, (long long)c->map_rows * c->map_cols, cfg->nprocs);
    /* -off_cache is accepted but not effective for IMB-IO (guide 5.1.2.4 remark). */
    if (c->off_cache_mb != 0 && !family_of(cfg)->io) {
        unsigned long long size, line;
        /* -off_cache -1: the largest cache of rank 0's host as the header gathered it (hwloc,
         * core/hardware_gather.h); 8 MB and 64 B where none was read, the defaults of the
         * guide's IMB_mem_info.h. */
        const struct mb_hw_report *hw = &prov->hw;
        mb_hw_last_cache(hw->kinds && hw->kind_of_host ? &hw->kinds[hw->kind_of_host[0]] : NULL,
                         &size, &line);
        c->cache_bytes =
            c->off_cache_mb > 0 ? (unsigned long long)(c->off_cache_mb * 1048576.0) : size;
        c->cache_line = c->off_cache_line > 0 ? (unsigned long long)c->off_cache_line : line;
        if (c->cache_bytes == 0)
            return mb_usage(err, "-off_cache %g: cache size below one byte", c->off_cache_mb);
    }
    if (c->guide_order && c->n_selected == 0) {
        /* A default run in the guide's order: the names selected in that order. */
        for (size_t i = 0; mb_imb_mpi1_guide_order[i]; i++)
            if (select_name(cfg, mb_imb_mpi1_guide_order[i], err) != 0)
                return 2;
        c->guide_order_filled = 1;
    }
    if (mb_imb_newer_validate(cfg, err) != 0)
        return 2;
    if (family_of(cfg)->io) {
        int rc = mb_imb_io_validate(cfg, err);
        if (rc != 0)
            return rc;
    }
    if (c->mem_gb > 0)
        c->mem_cap = (unsigned long long)(c->mem_gb * MB_GB);
    else if (prov->mem_per_proc > 0)
        c->mem_cap = (unsigned long long)((double)prov->mem_per_proc * MB_IMB_DEFAULT_MEM_FRACTION);
    else
        c->mem_cap = ULLONG_MAX;
    /* After the -mem cap: the lengths it leaves out put nothing on disk. */
    return family_of(cfg)->io ? mb_imb_io_space_check(cfg, err) : 0;
}
