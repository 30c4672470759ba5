/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *mb_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The directory part of a path prefix ("." when there is none). */
static void dir_of(const char *prefix, char *dir, size_t len)
{
    const char *slash = strrchr(prefix, '/');

    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == prefix)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - prefix), prefix);
}

int mb_prefix_resolve(char **prefix, const char *name, const char *output_dir, struct mb_error *err)
{
    char dir[4096];
    struct stat st;
    const int given = *prefix != NULL;

    if (!*prefix) {
        *prefix = mb_xmalloc((output_dir ? strlen(output_dir) + 1 : 0) + strlen(name) + 1);
        sprintf(*prefix, "%s%s%s", output_dir ? output_dir : "", output_dir ? "/" : "", name);
        if (output_dir)
            return 0; /* the run creates DIR */
    }
    if ((*prefix)[0] == '\0' || (*prefix)[strlen(*prefix) - 1] == '/')
        return mb_usage(err, "invalid value '%s' for -f: a file name prefix is needed", *prefix);
    dir_of(*prefix, dir, sizeof dir);
    errno = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
        return mb_usage(err, "cannot write the protocol files '%s.prot' etc.: directory '%s': %s",
                        *prefix, dir, errno ? strerror(errno) : "not a directory");
    /* A prefix is the start of file names, never a file itself; one that names a directory,
     * a FIFO or a device is a mistake (-f /dev/null would put b_eff's files into /dev). */
    if (given && stat(*prefix, &st) == 0 && !S_ISREG(st.st_mode))
        return mb_usage(err, "invalid value '%s' for -f: it is %s, not a file name prefix", *prefix,
                        mb_file_kind(st.st_mode));
    return 0;
}

/* The one grammar of numbers (docs/adr/strict-numbers.md): what a user types is decimal
 * only - an optional sign, digits, and for floating-point values a decimal point and a
 * decimal exponent (1e-3, as IMB users write -time 1e-1). strtoll and strtod alone also take
 * leading blanks, and strtod hexadecimal floats (0x1p-3), "inf" and "nan": the text is
 * checked against the grammar first, then converted. */
static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static const char *digits(const char *s, int *count)
{
    while (is_digit(*s)) {
        s++;
        (*count)++;
    }
    return s;
}

static int decimal_integer(const char *s)
{
    int n = 0;

    if (*s == '+' || *s == '-')
        s++;
    s = digits(s, &n);
    return n > 0 && *s == '\0';
}

static int decimal_number(const char *s)
{
    int n = 0, e = 0;

    if (*s == '+' || *s == '-')
        s++;
    s = digits(s, &n);
    if (*s == '.')
        s = digits(s + 1, &n);
    if (n == 0)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        s = digits(s, &e);
        if (e == 0)
            return 0;
    }
    return *s == '\0';
}

/* An empty value, or one of blanks only, is named as such rather than as "not a number". */
static int blank(const char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    return *text == '\0';
}

int mb_parse_long(const char *text, long long min, long long max, long long *out, const char **why)
{
    long long v;

    if (blank(text)) {
        *why = "empty value";
        return -1;
    }
    if (!decimal_integer(text)) {
        *why = "not an integer";
        return -1;
    }
    errno = 0;
    v = strtoll(text, NULL, 10);
    if (errno == ERANGE || v > max) {
        *why = "out of range";
        return -1;
    }
    if (v < min) {
        if (min >= 1 && v <= 0)
            *why = "must be positive";
        else if (min == 0)
            *why = "must not be negative";
        else
            *why = "out of range";
        return -1;
    }
    *out = v;
    return 0;
}

int mb_parse_double(const char *text, double min, double max, double *out, const char **why)
{
    double v;

    if (blank(text)) {
        *why = "empty value";
        return -1;
    }
    if (!decimal_number(text)) {
        *why = "not a number";
        return -1;
    }
    errno = 0;
    v = strtod(text, NULL);
    if (errno == ERANGE || !isfinite(v) || v > max) {
        *why = "out of range";
        return -1;
    }
    if (v < min) {
        *why = (v <= 0 && min > 0) ? "must be positive" : "out of range";
        return -1;
    }
    *out = v;
    return 0;
}

void *mb_option_base(const struct mb_option *o, const struct mb_config *cfg)
{
    return o->block == MB_IN_COMMON ? (void *)&cfg->common : cfg->settings;
}

static const struct mb_option *find(const struct mb_option_set *sets, size_t nsets,
                                    const char *word, size_t wordlen)
{
    for (size_t s = 0; s < nsets; s++)
        for (size_t i = 0; i < sets[s].n; i++) {
            const struct mb_option *o = &sets[s].rows[i];
            if (!o->name)
                continue;
            if ((strlen(o->name) == wordlen && strncmp(o->name, word, wordlen) == 0) ||
                (o->alias && strlen(o->alias) == wordlen && strncmp(o->alias, word, wordlen) == 0))
                return o;
        }
    return NULL;
}

/* A word-choice row: the index of value among o->words, or the usage error that lists them
 * ("expected program or guide", "expected malloc, mmap or mpi"). */
static int apply_word(const struct mb_option *o, const char *typed, const char *value, int *out,
                      struct mb_error *err)
{
    char list[256] = "";
    size_t n = 0, used = 0;

    for (n = 0; o->words[n]; n++)
        if (strcmp(value, o->words[n]) == 0) {
            *out = (int)n;
            return 0;
        }
    for (size_t i = 0; i < n && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s",
                         i == 0 ? "" : (i + 1 == n ? " or " : ", "), o->words[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    return mb_usage(err, "invalid value '%s' for %s: expected %s", value, typed, list);
}

static int apply(const struct mb_option *o, const char *typed, const char *value,
                 struct mb_config *cfg, struct mb_error *err)
{
    char *field = (char *)mb_option_base(o, cfg) + o->offset;
    const char *why = NULL;

    switch (o->kind) {
    case MB_OPT_FLAG:
        *(int *)field = 1;
        return 0;
    case MB_OPT_LONG: {
        long long v;
        if (mb_parse_long(value, (long long)o->min, (long long)o->max, &v, &why) != 0)
            return mb_usage(err,
                            "invalid value '%s' for %s: %s (expected an integer in %.0f..%.0f)",
                            value, typed, why, o->min, o->max);
        *(long *)field = (long)v;
        return 0;
    }
    case MB_OPT_DOUBLE: {
        double v;
        if (mb_parse_double(value, o->min, o->max, &v, &why) != 0)
            return mb_usage(err, "invalid value '%s' for %s: %s", value, typed, why);
        *(double *)field = v;
        return 0;
    }
    case MB_OPT_STRING:
        if (*value == '\0')
            return mb_usage(err, "empty value for %s", typed);
        free(*(char **)field);
        *(char **)field = mb_xstrdup(value);
        return o->parse ? o->parse(cfg, value, err) : 0;
    case MB_OPT_CUSTOM:
        return o->parse(cfg, value, err);
    case MB_OPT_WORD:
        return apply_word(o, typed, value, (int *)field, err);
    case MB_OPT_LIST:
    case MB_OPT_REFUSED:
        break;
    }
    return 0;
}

/* Presta's letters (Presta 1.2 source, util.c: command-line parsing): "-o100" is "-o 100". Returns
 * 1 when arg is not for a letter set, else 0 or the usage status. */
static int letter_option(const struct mb_option_set *sets, size_t nsets, const char *arg,
                         struct mb_config *cfg, struct mb_error *err)
{
    int any = 0;

    for (size_t s = 0; s < nsets; s++) {
        if (!sets[s].letters)
            continue;
        any = 1;
        for (size_t i = 0; i < sets[s].n; i++) {
            const struct mb_option *o = &sets[s].rows[i];
            char typed[3] = {'-', arg[1], '\0'};
            if (!o->name || strcmp(o->name, typed) != 0)
                continue;
            /* "-npmin" (an IMB option given to Presta) reads as -n with a value: name the
             * whole word first, then why. */
            if (o->kind == MB_OPT_FLAG)
                return mb_usage(err,
                                "unknown option '%s' (option %s takes no value; give flags "
                                "separately)",
                                arg, typed);
            return apply(o, typed, arg + 2, cfg, err);
        }
    }
    if (!any)
        return 1;
    /* The original's wording (quirk Q1), for every rank this time. */
    return mb_usage(err, "Invalid flag -%c! (unknown option '%s'; -h lists the options)", arg[1],
                    arg);
}

const struct mb_option *mb_option_find(const struct mb_option_set *sets, size_t nsets,
                                       const char *arg, int *value_follows)
{
    const char *eq = (strncmp(arg, "--", 2) == 0) ? strchr(arg, '=') : NULL;
    const struct mb_option *o = find(sets, nsets, arg, eq ? (size_t)(eq - arg) : strlen(arg));

    *value_follows = o && !eq && o->kind != MB_OPT_FLAG && o->kind != MB_OPT_LIST;
    return o;
}

int mb_options_parse(const struct mb_option_set *sets, size_t nsets, mb_positional_fn positional,
                     int argc, char **argv, int first, struct mb_config *cfg, struct mb_error *err)
{
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = (strncmp(arg, "--", 2) == 0) ? strchr(arg, '=') : NULL;
        size_t wordlen = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct mb_option *o = find(sets, nsets, arg, wordlen);
        char typed[128];
        int rc;

        if (!o && arg[0] == '-' && arg[1] != '-' && arg[1] != '\0') {
            rc = letter_option(sets, nsets, arg, cfg, err);
            if (rc != 1) {
                if (rc != 0)
                    return rc;
                continue;
            }
        }
        if (!o) {
            /* A negative number is not a flag: a suite with positional numbers (allred) says
             * what is wrong with its value; elsewhere it is an unknown option. */
            const int negative = arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9';
            if (arg[0] == '-' && arg[1] != '\0' && !(negative && positional))
                return mb_usage(err, "unknown option '%s'", arg);
            if (!positional)
                return mb_usage(err, "unexpected argument '%s'", arg);
            rc = positional(cfg, arg, err);
            if (rc != 0)
                return rc;
            continue;
        }
        snprintf(typed, sizeof typed, "%.*s", (int)wordlen, arg);
        /* Named before its value is read: the script's option is the problem, not its value. */
        if (o->kind == MB_OPT_REFUSED)
            return mb_usage(err,
                            "%s is an option of %s (not of IMB 3.1); mpibench does not "
                            "support it",
                            typed, o->help);
        if (o->kind == MB_OPT_FLAG) {
            if (eq)
                return mb_usage(err, "option %s takes no value", typed);
            rc = apply(o, typed, NULL, cfg, err);
        } else if (eq) {
            rc = apply(o, typed, eq + 1, cfg, err);
        } else {
            if (i + 1 >= argc)
                return mb_usage(err, "missing value for %s (expected %s)", typed,
                                o->metavar ? o->metavar : "a value");
            rc = apply(o, typed, argv[++i], cfg, err);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

void mb_options_help(const struct mb_option_set *sets, size_t nsets, const struct mb_config *cfg,
                     FILE *out)
{
    for (size_t s = 0; s < nsets; s++)
        for (size_t i = 0; i < sets[s].n; i++) {
            const struct mb_option *o = &sets[s].rows[i];
            char left[96], def[96] = "";
            if (!o->name || o->kind == MB_OPT_REFUSED)
                continue;
            snprintf(left, sizeof left, "%s%s%s%s%s", o->name, o->alias ? ", " : "",
                     o->alias ? o->alias : "", o->metavar ? " " : "", o->metavar ? o->metavar : "");
            if (o->help_default) {
                char value[64];
                o->help_default(cfg, value, sizeof value);
                snprintf(def, sizeof def, " (default %s)", value);
            }
            if (strlen(left) > 34) /* long metavars get a line of their own */
                fprintf(out, "  %s\n  %-34s %s%s\n", left, "", o->help, def);
            else
                fprintf(out, "  %-34s %s%s\n", left, o->help, def);
        }
}

void mb_option_value(const struct mb_option *o, const struct mb_config *cfg, char *buf, size_t len)
{
    const char *field = (const char *)mb_option_base(o, cfg) + o->offset;

    if (o->show) {
        o->show(cfg, buf, len);
        return;
    }
    switch (o->kind) {
    case MB_OPT_FLAG:
        snprintf(buf, len, "%s", *(const int *)field ? "on" : "off");
        break;
    case MB_OPT_LONG:
        snprintf(buf, len, "%ld", *(const long *)field);
        break;
    case MB_OPT_DOUBLE:
        snprintf(buf, len, "%g", *(const double *)field);
        break;
    case MB_OPT_STRING:
        snprintf(buf, len, "%s", *(char *const *)field ? *(char *const *)field : "(none)");
        break;
    case MB_OPT_WORD:
        snprintf(buf, len, "%s", o->words[*(const int *)field]);
        break;
    case MB_OPT_CUSTOM:
    case MB_OPT_LIST:
    case MB_OPT_REFUSED:
        snprintf(buf, len, "(set)");
        break;
    }
}
