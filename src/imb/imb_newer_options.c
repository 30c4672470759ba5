/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of Intel IMB 2019-2021 (IMB-MPI1, IMB-EXT, IMB-IO) that a script written for
 * those releases passes (docs/adr/imb-2021-options.md): the ones that make sense for IMB 3.1's
 * benchmarks are accepted with Intel's meaning, the ones whose only effect IMB 3.1 already has
 * are accepted at that value, and the rest are refused by name with the release that
 * introduced them. Only rank 0 runs this code. */
#include "imb/imb_newer_options.h"

#include "core/error.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"

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

int mb_imb_bool_word(const char *value, int *out)
{
    /* The words of Intel IMB 2019's argument parser (args_parser.cpp, BOOL values). */
    static const char *const yes[] = {"on",     "yes",  "ON",     "YES", "true",
                                      "enable", "TRUE", "ENABLE", "1"};
    static const char *const no[] = {"off",     "no",    "OFF",     "NO", "false",
                                     "disable", "FALSE", "DISABLE", "0"};

    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcmp(value, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcmp(value, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    return -1;
}

/* ---- -msglog [min:]max ------------------------------------------------------------------ */

/* Intel IMB 2021 (MPI1_suite.cpp, "msglog"): "max" alone or "min:max", 0 <= min <= max < 31;
 * the lengths are 0 and 2^min .. 2^max. */
static int parse_msglog(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    const char *colon = strchr(value, ':');
    char left[32];
    long long lo = 0, hi;
    const char *why;

    if (colon) {
        if ((size_t)(colon - value) >= sizeof left)
            return mb_usage(err, "invalid value '%s' for -msglog: expected [min:]max", value);
        memcpy(left, value, (size_t)(colon - value));
        left[colon - value] = '\0';
        if (mb_parse_long(left, 0, 30, &lo, &why) != 0)
            return mb_usage(err, "invalid value '%s' for -msglog: min '%s' %s (expected 0..30)",
                            value, left, why);
    }
    if (mb_parse_long(colon ? colon + 1 : value, 0, 30, &hi, &why) != 0)
        return mb_usage(err, "invalid value '%s' for -msglog: max '%s' %s (expected 0..30)", value,
                        colon ? colon + 1 : value, why);
    if (hi < lo)
        return mb_usage(err, "invalid value '%s' for -msglog: max %lld is below min %lld", value,
                        hi, lo);
    settings(cfg)->msglog_given = 1;
    settings(cfg)->msglog_min = (int)lo;
    settings(cfg)->msglog_max = (int)hi;
    return 0;
}

static void show_msglog(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);

    if (!c->msglog_given)
        snprintf(buf, len, "0:%d (default: lengths 0 and 2^0 .. 2^%d)", mb_imb_family(c)->maxmsglog,
                 mb_imb_family(c)->maxmsglog);
    else if (c->lengths)
        snprintf(buf, len, "%d:%d (not used: the -msglen or -msgsize list gives the lengths)",
                 c->msglog_min, c->msglog_max);
    else
        snprintf(buf, len, "%d:%d (lengths 0 and 2^%d .. 2^%d)", c->msglog_min, c->msglog_max,
                 c->msglog_min, c->msglog_max);
}

/* ---- -msgsize a,b,c ------------------------------------------------------------------- */

/* Intel IMB 2021: the comma-separated lengths replace the standard list, like a -msglen file. */
static int parse_msgsize(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);
    char *copy = mb_xstrdup(value), *tok = copy;
    /* The entry's reason is recorded here first and then named with the option and value. */
    struct mb_error entry = {.kind = MB_ERR_NONE};
    int rc = 0;

    free(c->lengths);
    c->lengths = NULL;
    c->n_lengths = 0;
    for (;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        rc = mb_imb_length_entry(c, tok, &entry);
        if (rc != 0 || !comma)
            break;
        tok = comma + 1;
    }
    free(copy);
    if (rc != 0)
        return mb_usage(err, "invalid value '%s' for -msgsize: %s", value, entry.msg);
    return 0;
}

static void show_msgsize(const struct mb_config *cfg, char *buf, size_t len)
{
    const char *t = mb_imb_cfg(cfg)->msgsize;
    snprintf(buf, len, "%s", t ? t : "(none)");
}

/* ---- -include / -exclude -------------------------------------------------------------- */

/* A list of names, each resolved in the family ("Multi-" prefix allowed for -include).
 * -exclude ignores names the family does not have, as Intel IMB does (a script's
 * "-exclude Ibcast" names a benchmark of another of its programs). */
static int resolve_names(struct mb_config *cfg, const char *value, const char *opt, int **list,
                         size_t *n, int unknown_ok, struct mb_error *err)
{
    const struct mb_imb_family *f = mb_imb_family(mb_imb_cfg(cfg));
    char *copy = mb_xstrdup(value), *tok = copy;
    int rc = 0;

    free(*list);
    *list = NULL;
    *n = 0;
    for (;;) {
        char *comma = strchr(tok, ',');
        int multi, idx;
        if (comma)
            *comma = '\0';
        idx = mb_imb_find_named(f, tok, &multi);
        if (*tok == '\0') {
            rc = mb_usage(err, "empty benchmark name in '%s' for %s", value, opt);
        } else if (idx < 0 && !unknown_ok) {
            rc = mb_usage(err, "unknown benchmark '%s' for %s (see -help for the list)", tok, opt);
        } else if (idx >= 0) {
            *list = mb_xrealloc(*list, (*n + 1) * sizeof **list);
            (*list)[(*n)++] = MB_IMB_SEL(idx, multi);
        }
        if (rc != 0 || !comma)
            break;
        tok = comma + 1;
    }
    free(copy);
    return rc;
}

static int parse_include(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);
    return resolve_names(cfg, value, "-include", &c->included, &c->n_included, 0, err);
}

static int parse_exclude(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = settings(cfg);
    return resolve_names(cfg, value, "-exclude", &c->excluded, &c->n_excluded, 1, err);
}

static void show_names(const char *text, const char *what, char *buf, size_t len)
{
    if (text)
        snprintf(buf, len, "%s (%s)", text, what);
    else
        snprintf(buf, len, "(none)");
}

static void show_include(const struct mb_config *cfg, char *buf, size_t len)
{
    show_names(mb_imb_cfg(cfg)->include_text, "run first, then the names given or the default list",
               buf, len);
}

static void show_exclude(const struct mb_config *cfg, char *buf, size_t len)
{
    show_names(mb_imb_cfg(cfg)->exclude_text,
               "not run; names this program does not have are ignored", buf, len);
}

static int is_excluded(const struct mb_imb_config *c, int sel)
{
    for (size_t i = 0; i < c->n_excluded; i++)
        if (MB_IMB_SEL_INDEX(c->excluded[i]) == MB_IMB_SEL_INDEX(sel))
            return 1;
    return 0;
}

static void add_once(int **list, size_t *n, int sel)
{
    for (size_t i = 0; i < *n; i++)
        if ((*list)[i] == sel)
            return;
    *list = mb_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = sel;
}

/* Intel IMB 2019+ (imb.cpp): the -include names first, then the names given (or, with none,
 * the default list), all without the -exclude names. A name listed twice runs once. */
static int resolve_selection(struct mb_imb_config *c, struct mb_error *err)
{
    const struct mb_imb_family *f = mb_imb_family(c);
    int *list = NULL;
    size_t n = 0;

    if (!c->include_text && !c->exclude_text)
        return 0;
    for (size_t i = 0; i < c->n_included; i++)
        if (!is_excluded(c, c->included[i]))
            add_once(&list, &n, c->included[i]);
    if (c->n_selected > 0) {
        for (size_t i = 0; i < c->n_selected; i++)
            if (!is_excluded(c, c->selected[i]))
                add_once(&list, &n, c->selected[i]);
    } else {
        for (size_t i = 0; i < f->n; i++)
            if (!f->benchmarks[i].nondefault && !is_excluded(c, MB_IMB_SEL((int)i, 0)))
                add_once(&list, &n, MB_IMB_SEL((int)i, 0));
    }
    if (n == 0) {
        free(list);
        return mb_usage(err, "-exclude leaves no benchmark to run");
    }
    free(c->selected);
    c->selected = list;
    c->n_selected = n;
    return 0;
}

/* ---- -iter_policy -------------------------------------------------------------------- */

/* Intel IMB 4.0+ (IMB_mem_manager.c, IMB_init_buffers_iter): "off" runs MSGSPERSAMPLE
 * repetitions at every length; "dynamic" (Intel's default) is the -iter rule cut by the -time
 * limit, 10 s unless given - IMB 3.1's -time rule; "multiple_np" a multiple of the process
 * count (imb_plan.c); "auto" multiple_np for rooted benchmarks, dynamic for the others.
 * Without the option mpibench runs IMB 3.1's rule: -iter's counts, -time only when given. */
static int parse_iter_policy(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    if (strcmp(value, "off") == 0)
        settings(cfg)->iter_policy = MB_IMB_ITER_OFF;
    else if (strcmp(value, "dynamic") == 0)
        settings(cfg)->iter_policy = MB_IMB_ITER_DYNAMIC;
    else if (strcmp(value, "multiple_np") == 0)
        settings(cfg)->iter_policy = MB_IMB_ITER_MULTIPLE_NP;
    else if (strcmp(value, "auto") == 0)
        settings(cfg)->iter_policy = MB_IMB_ITER_AUTO;
    else
        return mb_usage(err,
                        "invalid value '%s' for -iter_policy: expected off, dynamic, multiple_np "
                        "or auto",
                        value);
    return 0;
}

static void show_iter_policy(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);

    switch (c->iter_policy) {
    case MB_IMB_ITER_OFF:
        snprintf(buf, len, "off (msgspersample repetitions at every length; -time not used)");
        break;
    case MB_IMB_ITER_DYNAMIC:
        snprintf(buf, len, "dynamic (the -iter rule, cut to the -time limit of %g s)",
                 mb_imb_time_limit(c));
        break;
    case MB_IMB_ITER_MULTIPLE_NP:
        snprintf(buf, len,
                 "multiple_np (msgspersample x 2^max / (Q x max(X, 4) + 2^max), a multiple of "
                 "Q, at least Q; -time not used)");
        break;
    case MB_IMB_ITER_AUTO:
        snprintf(buf, len,
                 "auto (multiple_np for Gather(v), Scatter(v), Bcast, Reduce; dynamic with %g s "
                 "for the others)",
                 mb_imb_time_limit(c));
        break;
    default:
        snprintf(buf, len, "IMB 3.1 (default: the -iter rule%s)",
                 c->time_limit > 0 ? ", cut to the -time limit" : "; no time limit");
    }
}

/* ---- the on|off options in Intel's words --------------------------------------------------- */

/* parse_NAME and show_NAME of an on|off option kept in field - which says "off" when inverted
 * (a zero field is then the default, on). */
#define ONOFF_OPTION(name, field, inverted, opt, on_text, off_text)                                \
    static int parse_##name(struct mb_config *cfg, const char *value, struct mb_error *err)        \
    {                                                                                              \
        int on;                                                                                    \
        if (mb_imb_bool_word(value, &on) != 0)                                                     \
            return mb_usage(err, "invalid value '%s' for " opt ": expected on or off", value);     \
        settings(cfg)->field = (inverted) ? !on : on;                                              \
        return 0;                                                                                  \
    }                                                                                              \
    static void show_##name(const struct mb_config *cfg, char *buf, size_t len)                    \
    {                                                                                              \
        const int on = (inverted) ? !mb_imb_cfg(cfg)->field : mb_imb_cfg(cfg)->field;              \
        snprintf(buf, len, "%s", on ? on_text : off_text);                                         \
    }

/* -zero_size (IMB-MPI1, IMB-NBC). */
ONOFF_OPTION(zero_size, no_zero_size, 1, "-zero_size", "on (a row for length 0, IMB 3.1)",
             "off (no row for length 0)")

/* The policy without -iter_policy: the family's original's. */
static void help_iter_policy(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_imb_family(mb_imb_cfg(cfg))->imb2021 ? "dynamic, as Intel IMB 2021.11"
                                                     : "IMB 3.1's rule");
}

/* ---- IMB-NBC's -sync, -root_shift, -imb_barrier (Intel IMB 2021.11's meanings) ---------- */

ONOFF_OPTION(sync_each, sync_each, 0, "-sync",
             "on (a barrier after every repetition, each timed alone)",
             "off (no barrier between repetitions, each timed alone)")
ONOFF_OPTION(root_shift, root_shift, 0, "-root_shift",
             "on (the root moves to the next rank every repetition)", "off (the root is rank 0)")
ONOFF_OPTION(imb_barrier, imb_barrier, 0, "-imb_barrier", "on (IMB's own dissemination barrier)",
             "off (MPI_Barrier)")

/* ---- -time_cap on|off: Intel IMB 2021.11's time limit per benchmark and process count ----- */

ONOFF_OPTION(time_cap, time_cap_off, 1, "-time_cap",
             "on (a benchmark out of time ends with a time-out row, as Intel IMB 2021.11)",
             "off (every length runs)")
#undef ONOFF_OPTION

/* One row in IMB-MPI1's options (its 2021.11 benchmarks) and IMB-NBC's/IMB-MPI4's. */
#define TIME_CAP_ROW                                                                               \
    {                                                                                              \
        .name = "-time_cap", .kind = MB_OPT_CUSTOM, .offset = IMB(time_cap_off),                   \
        .metavar = "on|off",                                                                       \
        .help = "a 2021.11 benchmark ends with a time-out row after (lengths - 1) x -time s "      \
                "(default on)",                                                                    \
        .parse = parse_time_cap, .show = show_time_cap                                             \
    }

/* ---- options accepted only at the value IMB 3.1 already runs ----------------------------- */

struct same_as_31 {
    const char *name, *release;
    const char *const *words; /* the accepted values; NULL: Intel's boolean words */
    int bool_value;           /* with words == NULL: the accepted boolean */
    const char *what;         /* what IMB 3.1 (and so mpibench) does */
};

static const char *const byte_words[] = {"byte", NULL};
static const char *const float_words[] = {"float", NULL};
static const char *const base_words[] = {"base", NULL};
static const char *const multi_words[] = {"multi", NULL};

/* Each such option once: its index in mb_imb_config.same_as_31 (MB_IMB_N_SAME_AS_31 entries),
 * its name, the one value accepted (as --help shows it) and --help's text. The option rows
 * (SAME_ROW) and same_rows[] below both take the name from here. */
#define S31_ROOT_SHIFT    0, "-root_shift", "on", "the root moves every repetition (IMB 3.1)"
#define S31_SYNC          1, "-sync", "off", "no barrier between repetitions (IMB 3.1)"
#define S31_IMB_BARRIER   2, "-imb_barrier", "off", "MPI_Barrier (IMB 3.1)"
#define S31_DATA_TYPE     3, "-data_type", "byte", "MPI_BYTE messages (IMB 3.1)"
#define S31_RED_DATA_TYPE 4, "-red_data_type", "float", "MPI_FLOAT reductions (IMB 3.1)"
#define S31_CONTIG_TYPE   5, "-contig_type", "base", "the plain type (IMB 3.1)"
#define S31_MSG_PAUSE     6, "-msg_pause", "off", "no pauses (IMB 3.1)"
#define S31_AGGREGATE_MODE                                                                         \
    7, "-aggregate_mode", "multi", "aggregate and non-aggregate runs (IMB 3.1)"
#define SAME_NAME_(i, opt, value, text) opt
#define SAME_NAME(row)                  SAME_NAME_(row)

/* Index = position in mb_imb_config.same_as_31. */
static const struct same_as_31 same_rows[MB_IMB_N_SAME_AS_31] = {
    {SAME_NAME(S31_ROOT_SHIFT), "Intel IMB 4.1", NULL, 1,
     "on: the root moves to the next rank every repetition, as IMB 3.1"},
    {SAME_NAME(S31_SYNC), "Intel IMB 4.1", NULL, 0,
     "off: no barrier between the repetitions of a collective, as IMB 3.1"},
    {SAME_NAME(S31_IMB_BARRIER), "Intel IMB 2017 Update 1", NULL, 0,
     "off: MPI_Barrier, as IMB 3.1"},
    {SAME_NAME(S31_DATA_TYPE), "Intel IMB 2019", byte_words, 0,
     "byte: MPI_BYTE messages, as IMB 3.1"},
    {SAME_NAME(S31_RED_DATA_TYPE), "Intel IMB 2019", float_words, 0,
     "float: reductions of MPI_FLOAT, as IMB 3.1"},
    {SAME_NAME(S31_CONTIG_TYPE), "Intel IMB 2019", base_words, 0,
     "base: the plain type, as IMB 3.1"},
    {SAME_NAME(S31_MSG_PAUSE), "Intel IMB 2021.2", NULL, 0,
     "off: no pause between lengths or benchmarks, as IMB 3.1"},
    {SAME_NAME(S31_AGGREGATE_MODE), "Intel IMB 2019 Update 1", multi_words, 0,
     "multi: aggregate and non-aggregate runs, as IMB 3.1"},
};

static int same_parse(struct mb_config *cfg, int k, const char *value, struct mb_error *err)
{
    const struct same_as_31 *r = &same_rows[k];
    int ok = 0, b;

    if (r->words) {
        for (const char *const *w = r->words; *w; w++)
            ok |= strcmp(value, *w) == 0;
    } else if (mb_imb_bool_word(value, &b) != 0) {
        return mb_usage(err, "invalid value '%s' for %s: expected on or off", value, r->name);
    } else {
        ok = b == r->bool_value;
    }
    if (!ok)
        return mb_usage(err,
                        "%s %s: a setting of %s (not of IMB 3.1); mpibench supports only %s %s",
                        r->name, value, r->release, r->name, r->what);
    settings(cfg)->same_as_31[k] = 1;
    return 0;
}

static void same_show(const struct mb_config *cfg, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", same_rows[k].what,
             mb_imb_cfg(cfg)->same_as_31[k] ? "" : " (not given)");
}

#define SAME_FNS(k)                                                                                \
    static int same_parse_##k(struct mb_config *cfg, const char *v, struct mb_error *err)          \
    {                                                                                              \
        return same_parse(cfg, k, v, err);                                                         \
    }                                                                                              \
    static void same_show_##k(const struct mb_config *cfg, char *buf, size_t len)                  \
    {                                                                                              \
        same_show(cfg, k, buf, len);                                                               \
    }
SAME_FNS(0)
SAME_FNS(1)
SAME_FNS(2)
SAME_FNS(3)
SAME_FNS(4)
SAME_FNS(5)
SAME_FNS(6)
SAME_FNS(7)

/* ---- -window_size (IMB-MPI1) ---------------------------------------------------------- */

static void show_window_size(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    snprintf(buf, len, "%ld%s", mb_imb_window_size(c),
             c->window_size > 0 ? ""
                                : " (Intel IMB 2021.11's default; only Uniband and Biband use it)");
}

/* ---- the rows ------------------------------------------------------------------------- */

#define REFUSED(opt, rel)                                                                          \
    {                                                                                              \
        .name = opt, .kind = MB_OPT_REFUSED, .help = rel                                           \
    }

/* A row accepting only the value IMB 3.1 runs (same_as_31[i] records that it was given), from
 * the option's line above. */
#define SAME_ROW(row) SAME_ROW_(row)
#define SAME_ROW_(i, opt, value, text)                                                             \
    {                                                                                              \
        .name = opt, .kind = MB_OPT_CUSTOM, .offset = IMB(same_as_31[i]), .metavar = value,        \
        .help = "accepted as " value " only: " text, .parse = same_parse_##i,                      \
        .show = same_show_##i                                                                      \
    }

/* The rows IMB-EXT and IMB-IO share after the lengths and the policy. */
#define EXT_IO_SAME_ROWS                                                                           \
    SAME_ROW(S31_IMB_BARRIER), SAME_ROW(S31_MSG_PAUSE), SAME_ROW(S31_AGGREGATE_MODE)

/* Intel IMB 2019's benchmark-list files, refused by every family. */
#define REFUSED_2019                                                                               \
    REFUSED("-list", "Intel IMB 2019"), REFUSED("-dump", "Intel IMB 2019"),                        \
        REFUSED("-load", "Intel IMB 2019")

#define MSGLOG_ROW                                                                                 \
    {                                                                                              \
        .name = "-msglog", .kind = MB_OPT_CUSTOM, .offset = IMB(msglog_given),                     \
        .metavar = "[min:]max",                                                                    \
        .help = "lengths 0 and 2^min .. 2^max (min 0 if not given; 0 <= min <= max <= 30)",        \
        .parse = parse_msglog, .show = show_msglog                                                 \
    }

#define INCLUDE_ROWS                                                                               \
    {.name = "-include",                                                                           \
     .kind = MB_OPT_STRING,                                                                        \
     .offset = IMB(include_text),                                                                  \
     .metavar = "name[,name...]",                                                                  \
     .help = "run these benchmarks first, then the names given (or all)",                          \
     .parse = parse_include,                                                                       \
     .show = show_include},                                                                        \
    {                                                                                              \
        .name = "-exclude", .kind = MB_OPT_STRING, .offset = IMB(exclude_text),                    \
        .metavar = "name[,name...]",                                                               \
        .help = "do not run these benchmarks (unknown names are ignored)", .parse = parse_exclude, \
        .show = show_exclude                                                                       \
    }

#define ITER_POLICY_ROW                                                                            \
    {                                                                                              \
        .name = "-iter_policy", .kind = MB_OPT_CUSTOM, .offset = IMB(iter_policy),                 \
        .metavar = "off|dynamic|multiple_np|auto",                                                 \
        .help = "Intel IMB's repetition policies (dynamic: -time 10 s unless given)",              \
        .parse = parse_iter_policy, .show = show_iter_policy, .help_default = help_iter_policy     \
    }

/* -zero_size's default is on in every family; --help names the original that has it so. */
static void help_zero_size(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", mb_imb_family(mb_imb_cfg(cfg))->imb2021 ? "on" : "on, as IMB 3.1");
}

#define ZERO_SIZE_ROW                                                                              \
    {                                                                                              \
        .name = "-zero_size", .kind = MB_OPT_CUSTOM, .offset = IMB(no_zero_size),                  \
        .metavar = "on|off", .help = "off: no row for length 0", .parse = parse_zero_size,         \
        .show = show_zero_size, .help_default = help_zero_size                                     \
    }

static const struct mb_option mpi1_rows[] = {
    MSGLOG_ROW,
    {.name = "-msgsize",
     .kind = MB_OPT_STRING,
     .offset = IMB(msgsize),
     .metavar = "len[,len...]",
     .help = "message lengths, comma-separated (instead of the standard list)",
     .parse = parse_msgsize,
     .show = show_msgsize},
    INCLUDE_ROWS,
    ITER_POLICY_ROW,
    ZERO_SIZE_ROW,
    TIME_CAP_ROW,
    SAME_ROW(S31_ROOT_SHIFT),
    SAME_ROW(S31_SYNC),
    SAME_ROW(S31_IMB_BARRIER),
    SAME_ROW(S31_DATA_TYPE),
    SAME_ROW(S31_RED_DATA_TYPE),
    SAME_ROW(S31_CONTIG_TYPE),
    SAME_ROW(S31_MSG_PAUSE),
    /* At most 2^20: the block's request and status arrays (2 x window of each) stay tens of
     * MB, not an allocation that fails mid-run. */
    {.name = "-window_size",
     .kind = MB_OPT_LONG,
     .offset = IMB(window_size),
     .min = 1,
     .max = 1048576,
     .metavar = "N",
     .help = "transfers per pair and repetition of Uniband and Biband (Intel IMB 2021.11's; "
             "default 256)",
     .show = show_window_size},
    REFUSED_2019,
    REFUSED("-mem_alloc_type", "Intel IMB 2021.2"),
};

static const struct mb_option ext_rows[] = {
    MSGLOG_ROW, INCLUDE_ROWS, ITER_POLICY_ROW, EXT_IO_SAME_ROWS, REFUSED_2019,
};

static const struct mb_option io_rows[] = {
    MSGLOG_ROW,
    INCLUDE_ROWS,
    ITER_POLICY_ROW,
    EXT_IO_SAME_ROWS,
    REFUSED("-warm_up", "Intel IMB 2019 Update 3"),
    REFUSED_2019,
};

/* IMB-NBC: Intel IMB 2021.11's options of that program (NBC_suite.cpp declare_args), those
 * IMB-MPI1 also has with the same meaning, and three that 2021.11 runs differently from 3.1. */
static const struct mb_option nbc_rows[] = {
    MSGLOG_ROW,
    INCLUDE_ROWS,
    ITER_POLICY_ROW,
    ZERO_SIZE_ROW,
    {.name = "-sync",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(sync_each),
     .metavar = "on|off",
     .help = "a barrier after every repetition (default on)",
     .parse = parse_sync_each,
     .show = show_sync_each},
    {.name = "-root_shift",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(root_shift),
     .metavar = "on|off",
     .help = "the root moves to the next rank every repetition (default off: rank 0)",
     .parse = parse_root_shift,
     .show = show_root_shift},
    {.name = "-imb_barrier",
     .kind = MB_OPT_CUSTOM,
     .offset = IMB(imb_barrier),
     .metavar = "on|off",
     .help = "IMB's own dissemination barrier instead of MPI_Barrier (default off)",
     .parse = parse_imb_barrier,
     .show = show_imb_barrier},
    TIME_CAP_ROW,
    SAME_ROW(S31_MSG_PAUSE),
    REFUSED_2019,
};

const struct mb_option_set mb_imb_nbc_newer_set = {nbc_rows, sizeof nbc_rows / sizeof nbc_rows[0],
                                                   0};
const struct mb_option_set mb_imb_mpi1_newer_set = {mpi1_rows,
                                                    sizeof mpi1_rows / sizeof mpi1_rows[0], 0};
const struct mb_option_set mb_imb_ext_newer_set = {ext_rows, sizeof ext_rows / sizeof ext_rows[0],
                                                   0};
const struct mb_option_set mb_imb_io_newer_set = {io_rows, sizeof io_rows / sizeof io_rows[0], 0};

int mb_imb_newer_validate(struct mb_config *cfg, struct mb_error *err)
{
    return resolve_selection(settings(cfg), err);
}
