/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-P2P's command line (Intel IMB 2021.11, src_c/P2P/imb_p2p.c: loading, initialization):
 * its options with their meanings and defaults, where the original quietly ignored a bad value
 * or an unknown word, one clear error instead (docs/adr/imb-p2p.md). Only rank 0 runs this. */
#include "p2p/p2p_options.h"

#include "core/error.h"
#include "core/listfile.h"
#include "p2p/p2p_bench.h"
#include "p2p/p2p_config.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define P2P(field) offsetof(struct mb_p2p_config, field)

/* 2021.11's defaults (loading): -iter 100000,800, both touches on, -pause 100000. */
enum { DEFAULT_ITER_MAX = 100000, DEFAULT_ITER_MIB = 800, DEFAULT_PAUSE_USEC = 100000 };
/* The standard lengths 0, 1, 2, ... 4 MiB (IMB_P2P_DEFAULT_MAX_MESSAGE_SIZE). */
enum { DEFAULT_MAX_LOG = 22 };
/* Counts are MPI ints: at most 2^30 bytes from -msglog (2^31 - 1 from -msgsz and -msglen). */
enum { MAX_LOG = 30 };

static struct mb_p2p_config *settings(struct mb_config *cfg)
{
    return cfg->settings;
}

static void p2p_defaults(void *block, const void *owner)
{
    struct mb_p2p_config *c = block;
    (void)owner;
    c->iter_max = DEFAULT_ITER_MAX;
    c->iter_mib = DEFAULT_ITER_MIB;
    c->touch_send = c->touch_recv = 1;
    c->pause_usec = DEFAULT_PAUSE_USEC;
}

static void add_length(struct mb_p2p_config *c, long long x)
{
    c->lengths = mb_xrealloc(c->lengths, (c->n_lengths + 1) * sizeof *c->lengths);
    c->lengths[c->n_lengths++] = x;
}

static void clear_lengths(struct mb_p2p_config *c)
{
    free(c->lengths);
    c->lengths = NULL;
    c->n_lengths = 0;
}

/* A length as 2021.11 reads it: a non-negative integer, optionally followed by K, M or G
 * (times 2^10, 2^20, 2^30). */
static int parse_size(const char *text, const char *what, long long *out, struct mb_error *err)
{
    char digits[32];
    const char *why;
    size_t n = strlen(text);
    long long v, mult = 1;

    if (n > 0 && strchr("kKmMgG", text[n - 1])) {
        const char u = text[n - 1];
        mult = (u == 'k' || u == 'K') ? 1024LL : (u == 'm' || u == 'M') ? 1048576LL : 1073741824LL;
        n--;
    }
    if (n == 0 || n >= sizeof digits)
        return mb_usage(err,
                        "invalid value '%s' for %s: expected a length in bytes, optionally "
                        "followed by K, M or G",
                        text, what);
    memcpy(digits, text, n);
    digits[n] = '\0';
    if (mb_parse_long(digits, 0, LLONG_MAX / 1073741824LL, &v, &why) != 0)
        return mb_usage(err, "invalid value '%s' for %s: %s", text, what, why);
    if (v * mult > INT_MAX)
        return mb_usage(err,
                        "invalid value '%s' for %s: %lld bytes exceeds the largest "
                        "supported length (%d bytes)",
                        text, what, v * mult, INT_MAX);
    *out = v * mult;
    return 0;
}

/* ---- benchmark names ---------------------------------------------------------------------- */

/* Each name a word of its own or a comma list (2021.11's help shows commas, its parser took
 * only single words and ignored the rest: here both work, and an unknown name is an error). */
static int p2p_positional(struct mb_config *cfg, const char *arg, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);
    const char *p = arg;

    for (;;) {
        const size_t len = strcspn(p, ",");
        char name[64];
        int idx;
        if (len == 0 || len >= sizeof name)
            return mb_usage(err, "invalid benchmark name in '%s'", arg);
        memcpy(name, p, len);
        name[len] = '\0';
        idx = mb_p2p_find(name);
        if (idx < 0)
            return mb_usage(err, "unknown benchmark '%s' (see -help for the list)", name);
        c->selected = mb_xrealloc(c->selected, (c->n_selected + 1) * sizeof *c->selected);
        c->selected[c->n_selected++] = idx;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

/* ---- -iter max[,numerator] ---------------------------------------------------------------- */

static int parse_iter(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);
    const char *comma = strchr(value, ',');
    char first[32];
    long long a, b = c->iter_mib;
    const char *why;
    const size_t n = comma ? (size_t)(comma - value) : strlen(value);

    if (n >= sizeof first)
        return mb_usage(err, "invalid value '%s' for -iter: expected max[,numerator]", value);
    memcpy(first, value, n);
    first[n] = '\0';
    if (mb_parse_long(first, 1, LONG_MAX, &a, &why) != 0)
        return mb_usage(err, "invalid value '%s' for -iter: max '%s' %s", value, first, why);
    if (comma && mb_parse_long(comma + 1, 1, 1L << 30, &b, &why) != 0)
        return mb_usage(err, "invalid value '%s' for -iter: numerator '%s' %s", value, comma + 1,
                        why);
    c->iter_max = (long)a;
    c->iter_mib = (long)b;
    return 0;
}

static void show_iter(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);
    snprintf(buf, len, "%ld,%ld (repetitions: round(%ld MiB / length), 1 .. %ld; %ld at 0 bytes)",
             c->iter_max, c->iter_mib, c->iter_mib, c->iter_max, c->iter_max);
}

/* ---- lengths: -msglen, -msglog, -msgsz ----------------------------------------------------- */

static int msglen_entry(void *user, const char *entry, struct mb_error *err)
{
    long long x = 0;
    int rc = parse_size(entry, "-msglen", &x, err);
    if (rc == 0)
        add_length(user, x);
    return rc;
}

static int parse_msglen(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);

    clear_lengths(c);
    c->lengths_given = 1;
    return mb_listfile_read(cfg->files, value, "message lengths", msglen_entry, c, err);
}

/* "n": 0, 1, 2, 4, ..., 2^n; "k:n": 2^k .. 2^n, without 0 (imb_p2p.c). */
static int parse_msglog(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);
    const char *colon = strchr(value, ':');
    long long lo = -1, hi;
    const char *why;
    char left[32];

    if (colon) {
        const size_t n = (size_t)(colon - value);
        if (n >= sizeof left)
            return mb_usage(err, "invalid value '%s' for -msglog: expected n or k:n", value);
        memcpy(left, value, n);
        left[n] = '\0';
        if (mb_parse_long(left, 0, MAX_LOG, &lo, &why) != 0)
            return mb_usage(err, "invalid value '%s' for -msglog: k '%s' %s (expected 0..%d)",
                            value, left, why, MAX_LOG);
    }
    if (mb_parse_long(colon ? colon + 1 : value, 0, MAX_LOG, &hi, &why) != 0)
        return mb_usage(err, "invalid value '%s' for -msglog: n '%s' %s (expected 0..%d)", value,
                        colon ? colon + 1 : value, why, MAX_LOG);
    if (lo > hi)
        return mb_usage(err, "invalid value '%s' for -msglog: k %lld above n %lld", value, lo, hi);
    clear_lengths(c);
    c->lengths_given = 1;
    if (lo < 0)
        add_length(c, 0);
    for (long long i = lo < 0 ? 0 : lo; i <= hi; i++)
        add_length(c, 1LL << i);
    return 0;
}

/* Repeatable: each appends one length - to the -msglen or -msglog list when one came before,
 * else to a list of its own (the standard one is not made, as in imb_p2p.c). */
static int parse_msgsz(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);
    long long x = 0;
    int rc = parse_size(value, "-msgsz", &x, err);

    if (rc == 0) {
        add_length(c, x);
        c->lengths_given = 1;
    }
    return rc;
}

static void show_lengths(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_p2p_config *c = mb_p2p_cfg(cfg);
    size_t used = 0;

    if (!c->lengths_given) {
        snprintf(buf, len, "0, 1, 2, 4, ... %d (the standard list)", 1 << DEFAULT_MAX_LOG);
        return;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < c->n_lengths && used + 24 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "," : "", c->lengths[i]);
    if (used + 24 >= len && len > 4)
        snprintf(buf + len - 5, 5, "...");
}

/* ---- -msgrd, -msgwr: 2021.11's words ------------------------------------------------------ */

static int bool_word(const char *v, int *out)
{
    static const char *const yes[] = {"1", "on", "enable", "yes", "true"};
    static const char *const no[] = {"0", "off", "disable", "no", "false"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcasecmp(v, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(v, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

#define TOUCH(field, opt)                                                                          \
    static int parse_##field(struct mb_config *cfg, const char *v, struct mb_error *err)           \
    {                                                                                              \
        if (bool_word(v, &settings(cfg)->field) != 0)                                              \
            return mb_usage(err, "invalid value '%s' for " opt ": expected on or off", v);         \
        return 0;                                                                                  \
    }                                                                                              \
    static void show_##field(const struct mb_config *cfg, char *buf, size_t len)                   \
    {                                                                                              \
        snprintf(buf, len, "%s", mb_p2p_cfg(cfg)->field ? "on" : "off");                           \
    }
TOUCH(touch_send, "-msgwr")
TOUCH(touch_recv, "-msgrd")
#undef TOUCH

static void show_pause(const struct mb_config *cfg, char *buf, size_t len)
{
    const long p = mb_p2p_cfg(cfg)->pause_usec;
    if (p < 0)
        snprintf(buf, len, "%ld (no pause)", p);
    else
        snprintf(buf, len, "%ld us before each length and after its timing", p);
}

static const struct mb_option p2p_rows[] = {
    {.name = "-h",
     .alias = "-help",
     .kind = MB_OPT_FLAG,
     .block = MB_IN_COMMON,
     .offset = offsetof(struct mb_common_config, help),
     .help = "print this help and exit"},
    {.name = "-list",
     .alias = "-l",
     .kind = MB_OPT_FLAG,
     .offset = P2P(list),
     .help = "print the benchmarks and exit"},
    {.name = "-iter",
     .kind = MB_OPT_CUSTOM,
     .offset = P2P(iter_max),
     .metavar = "max[,numerator]",
     .help = "repetitions: round(numerator MiB / length), at least 1, at most max; max at 0 "
             "bytes (default 100000,800)",
     .parse = parse_iter,
     .show = show_iter},
    {.name = "-msglen",
     .kind = MB_OPT_STRING,
     .offset = P2P(msglen_file),
     .metavar = "file",
     .help = "message lengths, one per line (K, M, G suffixes; '#' comments)",
     .parse = parse_msglen},
    {.name = "-msglog",
     .kind = MB_OPT_STRING,
     .offset = P2P(msglog_text),
     .metavar = "n|k:n",
     .help = "lengths 0, 1, 2, 4, ... 2^n, or 2^k ... 2^n without 0 (0 <= k <= n <= 30)",
     .parse = parse_msglog},
    {.name = "-msgsz",
     .kind = MB_OPT_CUSTOM,
     .offset = P2P(lengths_given),
     .metavar = "size",
     .help = "one more message length (K, M, G suffixes); repeatable. Its effective setting: "
             "the lengths that run",
     .parse = parse_msgsz,
     .show = show_lengths},
    {.name = "-msgrd",
     .kind = MB_OPT_CUSTOM,
     .offset = P2P(touch_recv),
     .metavar = "on|off",
     .help = "read one byte of every 64-byte line of a received message (default on)",
     .parse = parse_touch_recv,
     .show = show_touch_recv},
    {.name = "-msgwr",
     .kind = MB_OPT_CUSTOM,
     .offset = P2P(touch_send),
     .metavar = "on|off",
     .help = "write one byte of every 64-byte line of a message before sending it (default on)",
     .parse = parse_touch_send,
     .show = show_touch_send},
    {.name = "-pause",
     .kind = MB_OPT_LONG,
     .offset = P2P(pause_usec),
     .min = -1,
     .max = 60000000,
     .metavar = "usec",
     .help = "microseconds to sleep before each length and after its timing; -1: none "
             "(default 100000)",
     .show = show_pause},
    /* The arrays validation and the parser fill, broadcast to every rank. */
    {.kind = MB_OPT_LIST,
     .offset = P2P(lengths),
     .count_offset = P2P(n_lengths),
     .elem_size = sizeof(long long)},
    {.kind = MB_OPT_LIST,
     .offset = P2P(selected),
     .count_offset = P2P(n_selected),
     .elem_size = sizeof(int)},
};
static const struct mb_option_set p2p_set = {p2p_rows, sizeof p2p_rows / sizeof p2p_rows[0], 0};

const struct mb_settings_type mb_p2p_settings = {
    .size = sizeof(struct mb_p2p_config), .defaults = p2p_defaults, .sets = {&p2p_set}};

int mb_p2p_positional(struct mb_config *cfg, const char *arg, struct mb_error *err)
{
    return p2p_positional(cfg, arg, err);
}

int mb_p2p_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    struct mb_p2p_config *c = settings(cfg);

    (void)prov;
    (void)err;
    /* -list prints the benchmarks instead of running them: a run plan of its own. */
    if (c->list)
        cfg->common.dry_run = 1;
    if (!c->lengths_given) {
        add_length(c, 0);
        for (int i = 0; i <= DEFAULT_MAX_LOG; i++)
            add_length(c, 1LL << i);
    }
    if (c->n_selected == 0) {
        c->selected = mb_xmalloc(mb_p2p_nbenchmarks * sizeof *c->selected);
        for (size_t i = 0; i < mb_p2p_nbenchmarks; i++)
            c->selected[i] = (int)i;
        c->n_selected = mb_p2p_nbenchmarks;
    }
    return 0;
}

void mb_p2p_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out, "Benchmarks (case-insensitive; default: all, in this order; names as words or a "
                 "comma list):\n ");
    for (size_t i = 0; i < mb_p2p_nbenchmarks; i++)
        fprintf(out, " %s", mb_p2p_benchmarks[i].name);
    fprintf(out, "\n\nExamples:\n"
                 "  mpirun -np 4 IMB-P2P\n"
                 "  mpirun -np 8 IMB-P2P Stencil3D -msglog 10:20\n"
                 "  mpirun -np 2 IMB-P2P PingPong -iter 1000,100 -pause -1 -msgsz 4k -msgsz 1m\n"
                 "\n");
}

/* The repetitions and warm-up of a length (imb_p2p.h get_iters). */
void mb_p2p_iters(const struct mb_p2p_config *c, long long x, long *n, long *w)
{
    long long k = c->iter_max;
    if (x > 0) {
        const double q = (double)c->iter_mib * 1048576.0 / (double)x;
        k = q >= (double)c->iter_max ? c->iter_max : (long long)(q + 0.5);
        if (k < 1)
            k = 1;
    }
    *n = (long)k;
    *w = *n / 10;
    if (*w == 0 && *n > 1)
        *w = 1;
}
