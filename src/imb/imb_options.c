/* IMB-MPI1's command line (IMB guide 5.1.2): the option rows, their parsers, the benchmark
 * names and the validation that resolves defaults. Only rank 0 runs this code. */
#include "imb/imb_options.h"

#include "core/error.h"
#include "core/listfile.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IMB(field) offsetof(struct mb_config, imb.field)

/* ---- benchmark names ---------------------------------------------------------------- */

static int select_name(struct mb_config *cfg, const char *name, struct mb_error *err)
{
    struct mb_imb_config *c = &cfg->imb;
    int multi = 0, idx, sel;

    if (strncasecmp(name, "Multi-", 6) == 0) {
        multi = 1;
        name += 6;
    }
    idx = mb_imb_find(name);
    if (idx < 0)
        return mb_usage(err, "unknown benchmark '%s' (see -help for the list)", name);
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
    char *copy = mb_xstrdup(arg), *save = NULL;
    int rc = 0;

    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save))
        rc = select_name(cfg, tok, err);
    free(copy);
    return rc;
}

static int input_entry(void *user, const char *entry, struct mb_error *err)
{
    return select_name(user, entry, err);
}

static int parse_input(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    free(cfg->imb.input_file);
    cfg->imb.input_file = mb_xstrdup(value);
    return mb_listfile_read(value, "benchmark names", input_entry, cfg, err);
}

/* ---- -msglen ------------------------------------------------------------------------- */

static int msglen_entry(void *user, const char *entry, struct mb_error *err)
{
    struct mb_imb_config *c = user;
    long long v;
    const char *why;

    if (mb_parse_long(entry, LLONG_MIN, LLONG_MAX, &v, &why) != 0)
        return mb_usage(err, "'%s' is not a message length (a non-negative integer)", entry);
    if (v < 0)
        return mb_usage(err, "negative message length %lld", v);
    /* Counts are MPI ints (SPEC §0): larger messages are refused, not overflowed. */
    if (v > INT_MAX)
        return mb_usage(err, "message length %lld exceeds the largest supported length (%d bytes)",
                        v, INT_MAX);
    c->lengths = mb_xrealloc(c->lengths, (c->n_lengths + 1) * sizeof *c->lengths);
    c->lengths[c->n_lengths++] = v;
    return 0;
}

static int parse_msglen(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_imb_config *c = &cfg->imb;

    free(c->msglen_file);
    free(c->lengths);
    c->lengths = NULL;
    c->n_lengths = 0;
    c->msglen_file = mb_xstrdup(value);
    return mb_listfile_read(value, "message lengths", msglen_entry, c, err);
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
    long *dest[] = {&cfg->imb.msgspersample, &cfg->imb.overall_vol_mb, &cfg->imb.msgs_nonaggr};
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
        cfg->imb.off_cache_mb = size;
        cfg->imb.off_cache_line = (long)line;
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
    if (mb_parse_long(left, 1, INT_MAX, &p, &why) != 0 ||
        mb_parse_long(x + 1, 1, INT_MAX, &q, &why) != 0)
        return mb_usage(err, "invalid value '%s' for -map: P and Q must be positive integers",
                        value);
    cfg->imb.map_rows = (long)p;
    cfg->imb.map_cols = (long)q;
    return 0;
}

/* ---- effective values ---------------------------------------------------------------- */

static void show_npmin(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->imb.npmin > 0)
        snprintf(buf, len, "%ld", cfg->imb.npmin);
    else
        snprintf(buf, len, "%d (default)", MB_IMB_NPMIN);
}

static void show_multi(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->imb.multi < 0)
        snprintf(buf, len, "off (primary benchmarks)");
    else
        snprintf(buf, len, "%ld (%s)", cfg->imb.multi,
                 cfg->imb.multi ? "every group" : "worst group");
}

static void show_off_cache(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->imb.cache_bytes == 0)
        snprintf(buf, len, "off");
    else
        snprintf(buf, len, "%.3f MB cache%s, %llu B lines", cfg->imb.cache_bytes / 1048576.0,
                 cfg->imb.off_cache_mb < 0 ? " (detected)" : "", cfg->imb.cache_line);
}

static void show_iter(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_imb_config *c = &cfg->imb;
    snprintf(buf, len, "msgspersample=%ld overall_vol=%lld MB msgs_nonaggr=%ld",
             mb_imb_msgspersample(c), mb_imb_overall_vol(c) / 1048576,
             c->msgs_nonaggr > 0 ? c->msgs_nonaggr : MB_IMB_MSGS_NONAGGR);
}

static void show_time(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->imb.time_limit > 0)
        snprintf(buf, len, "%g s per message length", cfg->imb.time_limit);
    else
        snprintf(buf, len, "no limit");
}

static void show_mem(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%.3f GB per process%s", (double)cfg->imb.mem_cap / MB_GB,
             cfg->imb.mem_gb > 0 ? "" : " (default: half the memory per process)");
}

static void show_file(char *const *field, char *buf, size_t len)
{
    snprintf(buf, len, "%s", *field ? *field : "(standard)");
}

static void show_msglen(const struct mb_config *cfg, char *buf, size_t len)
{
    show_file(&cfg->imb.msglen_file, buf, len);
}

static void show_input(const struct mb_config *cfg, char *buf, size_t len)
{
    show_file(&cfg->imb.input_file, buf, len);
}

static void show_map(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->imb.map_rows > 0)
        snprintf(buf, len, "%ldx%ld", cfg->imb.map_rows, cfg->imb.map_cols);
    else
        snprintf(buf, len, "none");
}

static const struct mb_option imb_options[] = {
    {"-h", "-help", MB_OPT_FLAG, offsetof(struct mb_config, common.help), 0, 0, NULL,
     "print this help and exit", NULL, NULL},
    {"-npmin", NULL, MB_OPT_LONG, IMB(npmin), 1, INT_MAX, "<NPmin>",
     "smallest number of processes to run on (default 2; 1 is allowed)", NULL, show_npmin},
    {"-multi", NULL, MB_OPT_LONG, IMB(multi), 0, 1, "<outflag>",
     "run Multi- versions in simultaneous groups; 0: show the worst group, 1: every group", NULL,
     show_multi},
    {"-off_cache", NULL, MB_OPT_CUSTOM, IMB(off_cache_mb), 0, 0, "<cache_size[,cache_line_size]>",
     "avoid cache reuse of message buffers; cache size in MB (-1: detect), line in bytes",
     parse_off_cache, show_off_cache},
    {"-iter", NULL, MB_OPT_CUSTOM, IMB(msgspersample), 0, 0,
     "<msgspersample[,overall_vol[,msgs_nonaggr]]>",
     "override MSGSPERSAMPLE (1000), OVERALL_VOL in MB (40) and MSGS_NONAGGR (100)", parse_iter,
     show_iter},
    {"-time", NULL, MB_OPT_DOUBLE, IMB(time_limit), 1e-6, 1e9, "<max_runtime per sample>",
     "run at most about this many seconds per message length", NULL, show_time},
    {"-mem", NULL, MB_OPT_DOUBLE, IMB(mem_gb), 1e-9, 1e9, "<max. mem usage per process>",
     "GBytes of message buffers per process; larger lengths are skipped", NULL, show_mem},
    {"-msglen", NULL, MB_OPT_CUSTOM, IMB(msglen_file), 0, 0, "<Lengths_file>",
     "message lengths, one per line ('#' comments allowed)", parse_msglen, show_msglen},
    {"-map", NULL, MB_OPT_CUSTOM, IMB(map_rows), 0, 0, "<PxQ>",
     "renumber the ranks along the rows of a PxQ matrix (P*Q = number of processes)", parse_map,
     show_map},
    {"-input", NULL, MB_OPT_CUSTOM, IMB(input_file), 0, 0, "<filename>",
     "benchmark names, one per line ('#' comments allowed)", parse_input, show_input},
};
const struct mb_option_set mb_imb_option_set = {imb_options,
                                                sizeof imb_options / sizeof imb_options[0], 0};

void mb_imb_usage(FILE *out)
{
    fprintf(out, "Benchmarks (case-insensitive; default: all, in this order; \"Multi-<name>\" runs "
                 "the Multi- version):\n ");
    for (size_t i = 0; i < mb_imb_n_benchmarks; i++)
        fprintf(out, " %s%s", mb_imb_benchmarks[i].name, i == 8 ? "\n " : "");
    fprintf(out, "\n\nExamples (IMB guide 5.1.2):\n"
                 "  mpirun -np 10 IMB-MPI1 PingPing Reduce\n"
                 "  mpirun -np 2 IMB-MPI1 pingpong -off_cache -1\n"
                 "  mpirun -np 14 IMB-MPI1 -multi 0 PingPong Barrier -map 2x7\n\n");
}

int mb_imb_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    struct mb_imb_config *c = &cfg->imb;

    if (c->map_rows > 0 && (long long)c->map_rows * c->map_cols != cfg->nprocs)
        return mb_usage(err, "-map %ldx%ld maps %lld processes, but %d were started", c->map_rows,
                        c->map_cols, (long long)c->map_rows * c->map_cols, cfg->nprocs);
    if (c->off_cache_mb != 0) {
        unsigned long long size, line;
        mb_detect_cache(&size, &line);
        c->cache_bytes =
            c->off_cache_mb > 0 ? (unsigned long long)(c->off_cache_mb * 1048576.0) : size;
        c->cache_line = c->off_cache_line > 0 ? (unsigned long long)c->off_cache_line : line;
        if (c->cache_bytes == 0)
            return mb_usage(err, "-off_cache %g: cache size below one byte", c->off_cache_mb);
    }
    if (c->mem_gb > 0)
        c->mem_cap = (unsigned long long)(c->mem_gb * MB_GB);
    else if (prov->mem_per_proc > 0)
        c->mem_cap = (unsigned long long)((double)prov->mem_per_proc * MB_IMB_DEFAULT_MEM_FRACTION);
    else
        c->mem_cap = ULLONG_MAX;
    return 0;
}
