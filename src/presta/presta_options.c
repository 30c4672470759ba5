/* SPDX-License-Identifier: BSD-3-Clause */
/* Presta's command lines (as the Presta 1.2 sources parse them) and the resolved lists, with
 * every input that hangs or crashes the original (quirks Q1-Q8, Q10, Q13, Q22 of
 * docs/adr/presta-command-line.md) refused with one clear message. Only rank 0 runs this code; the
 * result is broadcast. */
#include "presta/presta_options.h"

#include "core/error.h"
#include "core/listfile.h"
#include "core/suite.h"
#include "presta/presta_config.h"
#include "presta/presta_plan.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define PRESTA(field) offsetof(struct mb_presta_config, field)

static struct mb_presta_config *settings(struct mb_config *cfg)
{
    return cfg->settings;
}

static const char *program(const struct mb_config *cfg);

/* -p: only its first letter counted in the original, and anything but 'c' ran block while
 * the parameters said "cyclic" (quirk Q4): accept b/block and c/cyclic only. */
static int parse_alloc(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    if (strcmp(value, "b") == 0 || strcmp(value, "block") == 0)
        settings(cfg)->alloc_cyclic = 0;
    else if (strcmp(value, "c") == 0 || strcmp(value, "cyclic") == 0)
        settings(cfg)->alloc_cyclic = 1;
    else
        return mb_usage(err, "invalid value '%s' for -p: expected c (cyclic) or b (block)", value);
    return 0;
}

static void show_alloc(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", mb_presta_cfg(cfg)->cyclic ? "cyclic" : "block");
}

/* --buffers (com): calloc, as com.c's binary gets its buffers (gcc -O2 compiles its malloc and
 * memset 0 into one calloc, which leaves a freshly mapped block unwritten), or memset, as its
 * source reads (docs/adr/program-presta-com-calloc.md). */
static int parse_buffers(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    if (strcmp(value, "calloc") == 0)
        settings(cfg)->buffers = 0;
    else if (strcmp(value, "memset") == 0)
        settings(cfg)->buffers = 1;
    else
        return mb_usage(err, "invalid value '%s' for --buffers: expected calloc or memset", value);
    return 0;
}

static void show_buffers(const struct mb_config *cfg, char *buf, size_t len)
{
    if (strcmp(program(cfg), "com") != 0)
        snprintf(buf, len, "(com only)");
    else if (mb_presta_cfg(cfg)->buffers == 1)
        snprintf(buf, len, "memset (every buffer written with zeros before the first message)");
    else
        snprintf(buf, len,
                 "calloc (a length above malloc's mmap threshold, 128 KiB or the "
                 "largest freed, is a fresh mapping nothing writes; the others are "
                 "written with zeros)");
}

static void show_ops(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%ld", mb_presta_cfg(cfg)->ops);
}

static const struct mb_option rows[] = {
    {.name = "-b",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(start),
     .min = 1,
     .max = INT_MAX,
     .metavar = "<start>",
     .help = "message start size in bytes (com, rma; default 32)"},
    {.name = "-c",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(epochs),
     .max = INT_MAX,
     .metavar = "<epochs>",
     .help = "rma: epochs per measurement (required by rma)"},
    {.name = "-e",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(stop),
     .min = 1,
     .max = INT_MAX,
     .metavar = "<stop>",
     .help = "message stop size in bytes, inclusive (com, rma; default 8388608)"},
    {.name = "-f",
     .kind = MB_OPT_STRING,
     .offset = PRESTA(count_file),
     .metavar = "<file>",
     .help = "process counts, one per line (even; counts above the job size are skipped)"},
    {.name = "-o",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(ops),
     .max = 1e12,
     .metavar = "<ops>",
     .help = "operations per measurement (rma: per epoch); required",
     .show = show_ops},
    {.name = "-p",
     .kind = MB_OPT_CUSTOM,
     .offset = PRESTA(alloc_cyclic),
     .metavar = "c|b",
     .help = "pair allocation: c(yclic, needs -t) or b(lock); default b",
     .parse = parse_alloc,
     .show = show_alloc},
    {.name = "-s",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(factor),
     .min = 2,
     .max = INT_MAX,
     .metavar = "<factor>",
     .help = "message size multiplication factor (com, rma; default 2)"},
    {.name = "-t",
     .kind = MB_OPT_LONG,
     .offset = PRESTA(ppn),
     .max = INT_MAX,
     .metavar = "<procs/SMP>",
     .help = "processes per SMP"},
    {.name = "-i",
     .kind = MB_OPT_FLAG,
     .offset = PRESTA(list_pairs),
     .help = "print the active pairs before each process set"},
    {.name = "-n",
     .kind = MB_OPT_FLAG,
     .offset = PRESTA(no_barrier),
     .help = "leave the closing barrier out of the timed region"},
    {.name = "-r",
     .kind = MB_OPT_FLAG,
     .offset = PRESTA(nearby),
     .help = "pair with the nearby rank on the neighbouring SMP (needs -t)"},
    {.name = "-h",
     .kind = MB_OPT_FLAG,
     .offset = offsetof(struct mb_common_config, help),
     .help = "print use information",
     .block = MB_IN_COMMON},
    {.name = "--sizes",
     .kind = MB_OPT_STRING,
     .offset = PRESTA(sizes_file),
     .metavar = "FILE",
     .help = "com, rma: message sizes from FILE, one per line, instead of -b/-e/-s"},
    {.name = "--buffers",
     .kind = MB_OPT_CUSTOM,
     .offset = PRESTA(buffers),
     .metavar = "calloc|memset",
     .help = "com: message buffers as the original binary's calloc leaves them (lengths above "
             "malloc's mmap threshold unwritten; default) or all written with zeros (memset)",
     .parse = parse_buffers,
     .show = show_buffers},
    {.name = "--node-map",
     .kind = MB_OPT_FLAG,
     .offset = PRESTA(node_map),
     .help = "print which ranks share a node and warn when -t does not match"},
};
const struct mb_option_set mb_presta_letter_set = {rows, sizeof rows / sizeof rows[0], 1};

/* The lists validation resolves for every program (process sets, message sizes). */
static const struct mb_option resolved[] = {
    {.kind = MB_OPT_LIST,
     .offset = PRESTA(counts),
     .count_offset = PRESTA(n_counts),
     .elem_size = sizeof(int)},
    {.kind = MB_OPT_LIST,
     .offset = PRESTA(sizes),
     .count_offset = PRESTA(n_sizes),
     .elem_size = sizeof(long long)},
};
static const struct mb_option_set resolved_set = {resolved, sizeof resolved / sizeof resolved[0],
                                                  0};

/* Presta 1.2's compile-time defaults (util.h). */
static void presta_defaults(void *block, const void *owner)
{
    (void)owner;
    struct mb_presta_config *p = block;
    p->start = 32;
    p->stop = 8388608;
    p->factor = 2;
    p->buffers = -1;
}

const struct mb_settings_type mb_presta_letter_settings = {
    .size = sizeof(struct mb_presta_config),
    .defaults = presta_defaults,
    .sets = {&mb_presta_letter_set, &resolved_set}};
const struct mb_settings_type mb_presta_plain_settings = {
    .size = sizeof(struct mb_presta_config), .defaults = presta_defaults, .sets = {&resolved_set}};

/* ---- list files ----------------------------------------------------------------------- */

struct list {
    long long *v;
    size_t n, cap;
    long long min, max;   /* accepted range */
    int even;             /* process counts: even only */
    long long skip_above; /* counts above this are left out (the original's rule) */
};

static int list_entry(void *user, const char *entry, struct mb_error *err)
{
    struct list *l = user;
    const char *why = NULL;
    long long v;

    if (mb_parse_long(entry, l->min, l->max, &v, &why) != 0)
        return mb_usage(err, "'%s': %s (expected an integer in %lld..%lld)", entry, why, l->min,
                        l->max);
    if (l->even && v % 2 != 0)
        return mb_usage(err, "process count %lld is odd: processes are measured in pairs", v);
    if (v > l->skip_above)
        return 0;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = mb_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = v;
    return 0;
}

/* -f (as in Presta 1.2): file order kept, duplicates kept, counts above W skipped. */
static int read_counts(struct mb_config *cfg, struct mb_error *err)
{
    struct mb_presta_config *p = settings(cfg);
    struct list l = {NULL, 0, 0, 2, INT_MAX, 1, cfg->nprocs};
    struct mb_error inner = {MB_ERR_NONE, ""};

    if (mb_listfile_read(cfg->files, p->count_file, "process counts", list_entry, &l, &inner) !=
        0) {
        free(l.v);
        return mb_usage(err, "-f: Failed to get process list from file %s (%s)", p->count_file,
                        inner.msg);
    }
    if (l.n == 0) {
        free(l.v);
        return mb_usage(err, "-f: no process count in %s fits the %d processes of this job",
                        p->count_file, cfg->nprocs);
    }
    p->counts = mb_xmalloc(l.n * sizeof *p->counts);
    for (size_t i = 0; i < l.n; i++)
        p->counts[i] = (int)l.v[i];
    p->n_counts = l.n;
    free(l.v);
    return 0;
}

static int resolve_sizes(struct mb_config *cfg, struct mb_error *err)
{
    struct mb_presta_config *p = settings(cfg);

    if (p->sizes_file) {
        struct list l = {NULL, 0, 0, 1, INT_MAX, 0, LLONG_MAX};
        if (mb_listfile_read(cfg->files, p->sizes_file, "message sizes", list_entry, &l, err) !=
            0) {
            free(l.v);
            return 2;
        }
        p->sizes = l.v;
        p->n_sizes = l.n;
        return 0;
    }
    /* Quirk Q8: -b >= 1 and -s >= 2 are enforced by the rows; -e < -b gave no sizes. */
    if (p->stop < p->start)
        return mb_usage(err, "-e %ld is smaller than -b %ld: no message sizes to measure", p->stop,
                        p->start);
    p->n_sizes = mb_presta_sizes(p->start, p->stop, p->factor, NULL, 0);
    p->sizes = mb_xmalloc(p->n_sizes * sizeof *p->sizes);
    mb_presta_sizes(p->start, p->stop, p->factor, p->sizes, p->n_sizes);
    return 0;
}

/* ---- validation ----------------------------------------------------------------------- */

enum { USES_SIZES = 1, IS_RMA = 2, IS_COM = 4 };

/* The Presta program's own name, also when called as "mpibench presta-com" (cfg->prog is then
 * "mpibench", right for the message prefix but not for naming the program inside it). */
static const char *program(const struct mb_config *cfg)
{
    return mb_suite_at((size_t)cfg->suite)->legacy;
}

static int validate_pairs(struct mb_config *cfg, const struct mb_provenance *prov, int what,
                          struct mb_error *err)
{
    struct mb_presta_config *p = settings(cfg);
    const int w = cfg->nprocs;
    const int c_letter = p->alloc_cyclic;
    struct mb_presta_layout l;
    const char *why = NULL;

    (void)prov;
    /* The common --samples K (docs/adr/samples.md): K timed samples per measurement, the
     * fastest printed (the original took one). */
    p->samples = mb_config_samples(cfg);
    if (p->ops == 0) /* V1, in the original's words */
        return mb_usage(err, "Must define number of operations per measurement! (-o <ops>, at "
                             "least 1)");
    if (c_letter && p->ppn == 0) /* V2, which never fired in 1.2 (quirk Q3) */
        return mb_usage(err, "Cyclic allocation requires a process per node argument! (-p c "
                             "needs -t <procs/SMP>)");
    if (p->nearby && p->ppn == 0) /* quirk Q7: division by zero in the original */
        return mb_usage(err, "-r (partner with the nearby rank) requires -t <procs/SMP>");
    if ((what & IS_RMA) && p->epochs == 0) /* quirk Q10 */
        return mb_usage(err, "rma needs -c <epochs> (epochs per measurement, at least 1)");
    if (!(what & IS_COM) && p->buffers >= 0)
        return mb_usage(err, "--buffers is not used by %s (com's message buffers only)",
                        program(cfg));
    if (!(what & USES_SIZES) && p->sizes_file)
        return mb_usage(err, "--sizes is not used by %s (its messages are 0 bytes)", program(cfg));
    if ((what & USES_SIZES) && resolve_sizes(cfg, err) != 0)
        return 2;
    if (p->count_file && read_counts(cfg, err) != 0)
        return 2;
    if (c_letter && w <= 2 * p->ppn) /* V3 */
        return mb_usage(err,
                        "Cyclic allocation can only be used for jobs with MPI process count > "
                        "2*processes/node (here %d processes, -t %ld)",
                        w, p->ppn);
    if (w % 2 != 0) /* quirk Q6: the original hangs */
        return mb_usage(err,
                        "%s needs an even number of processes (this job has %d): every "
                        "measurement uses pairs",
                        program(cfg), w);
    if ((c_letter || p->nearby) && w % (2 * p->ppn) != 0) /* quirk Q22 and cyclic's premise */
        return mb_usage(err,
                        "%s needs the process count (%d) to be a multiple of 2 x -t (%ld): "
                        "pairs would reach past the last rank",
                        c_letter ? "-p c" : "-r", w, 2 * p->ppn);
    p->cyclic = c_letter;
    l = (struct mb_presta_layout){w, (int)p->ppn, p->cyclic, p->nearby};
    if (mb_presta_layout_check(&l, &why) != 0)
        return mb_usage(err, "process layout: %s", why);
    if (!p->count_file) {
        p->n_counts = mb_presta_counts(&l, NULL, 0);
        p->counts = mb_xmalloc((p->n_counts ? p->n_counts : 1) * sizeof *p->counts);
        mb_presta_counts(&l, p->counts, p->n_counts);
    }
    return 0;
}

int mb_presta_validate_com(struct mb_config *cfg, const struct mb_provenance *prov,
                           struct mb_error *err)
{
    return validate_pairs(cfg, prov, USES_SIZES | IS_COM, err);
}

int mb_presta_validate_laten(struct mb_config *cfg, const struct mb_provenance *prov,
                             struct mb_error *err)
{
    return validate_pairs(cfg, prov, 0, err);
}

int mb_presta_validate_rma(struct mb_config *cfg, const struct mb_provenance *prov,
                           struct mb_error *err)
{
    const struct mb_presta_config *p = mb_presta_cfg(cfg);
    long long max = 0;
    double need;

    if (validate_pairs(cfg, prov, USES_SIZES | IS_RMA, err) != 0)
        return 2;
    for (size_t i = 0; i < p->n_sizes; i++)
        max = p->sizes[i] > max ? p->sizes[i] : max;
    /* Window (doubled for the bidirectional tests) plus origin buffer, in 64-bit arithmetic:
     * the original's int overflowed for the README's own 128 x 8 MB case (quirk Q15). */
    need = 3.0 * (double)max * (double)p->ops;
    if (prov->mem_per_proc > 0 && need > (double)prov->mem_per_proc)
        return mb_usage(err,
                        "rma would need %.1f MB per process (window 2 x -o %ld x %lld bytes plus "
                        "the origin buffer) but this node has %.1f MB per process; use fewer "
                        "operations per epoch (-o) or smaller message sizes (-e)",
                        need / 1e6, p->ops, max, (double)prov->mem_per_proc / 1e6);
    return 0;
}

int mb_presta_allred_arg(struct mb_config *cfg, const char *arg, struct mb_error *err)
{
    static const char *const names[3] = {"[# of comp iterations]", "[inner iterations]",
                                         "[total samples]"};
    struct mb_presta_config *p = settings(cfg);
    const char *why = NULL;
    long long v;

    if (p->nargs >= 3)
        return mb_usage(err, "unexpected argument '%s': allred takes exactly 3 numbers", arg);
    /* Quirk Q13: 0, negative or non-numeric values printed nan/inf in the original. */
    if (mb_parse_long(arg, 1, INT_MAX, &v, &why) != 0)
        return mb_usage(err, "invalid value '%s' for %s: %s (expected an integer in 1..%d)", arg,
                        names[p->nargs], why, INT_MAX);
    p->args[p->nargs++] = (long)v;
    return 0;
}

int mb_presta_validate_allred(struct mb_config *cfg, const struct mb_provenance *prov,
                              struct mb_error *err)
{
    const struct mb_presta_config *p = settings(cfg);
    double need;

    /* allred's samples are its own third argument (docs/adr/samples.md). */
    if (cfg->common.samples > 0)
        return mb_usage(err, "--samples is not used by allred: its third argument [total "
                             "samples] is its number of samples");
    if (p->nargs != 3)
        return mb_usage(err,
                        "expected 3 arguments, got %d: allred [# of comp iterations] [inner "
                        "iterations] [total samples]",
                        p->nargs);
    /* Every process keeps two doubles per sample; rank 0 also builds the JSON record, up to
     * 2 x 25 characters per sample. [total samples] up to INT_MAX asked for 32 GB per
     * process without a check: refused as rma's window is. */
    need = 16.0 * (double)p->args[2];
    if (cfg->common.json_path || cfg->common.output_dir)
        need += 50.0 * (double)p->args[2];
    if (prov->mem_per_proc > 0 && need > (double)prov->mem_per_proc)
        return mb_usage(err,
                        "allred would need %.1f MB per process for %ld samples (the samples "
                        "are kept for the statistics) but this node has %.1f MB per process; "
                        "give fewer [total samples]",
                        need / 1e6, p->args[2], (double)prov->mem_per_proc / 1e6);
    return 0;
}

int mb_presta_validate_globalop(struct mb_config *cfg, const struct mb_provenance *prov,
                                struct mb_error *err)
{
    (void)cfg;
    (void)prov;
    (void)err;
    return 0;
}

/* ---- usage texts (Presta 1.2's) -------------------------------------------------------- */

static void usage_lines(FILE *out, const char *name, const char *what, const char *letters)
{
    static const struct {
        char letter;
        const char *text;
    } lines[] = {
        {'b', "    -b [message start size]                        default=32\n"},
        {'c', "    -c [number of epochs between measurements]\n"},
        {'e', "    -e [message stop  size]                        default=8388608\n"},
        {'f', "    -f [process count source file]\n"},
        {'o', "    -o [number of operations between measurements]\n"},
        {'O', "    -o [number of operations per epoch]\n"},
        {'p', "    -p [allocate processes: c(yclic) or b(lock)]   default=b\n"},
        {'s', "    -s [message size increase factor]              default=2\n"},
        {'t', "    -t [processes per SMP]\n"},
        {'h', "    -h : print use information\n"},
        {'i', "    -i : print process pair information            default=false\n"},
        {'n', "    -n : do not use barrier within measurement     default=barrier used\n"},
        {'r', "    -r : partner processes with nearby rank        default=false\n"},
    };
    fprintf(out, "\n%s : %s\n\n  syntax: %s [OPTION]...\n\n", name, what, name);
    for (const char *c = letters; *c; c++)
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
            if (lines[i].letter == *c)
                fputs(lines[i].text, out);
    fputs("\n", out);
}

void mb_presta_usage_com(const struct mb_suite *s, FILE *out)
{
    (void)s;
    usage_lines(out, "com", "MPI interprocess communication bandwidth benchmark", "befopsthinr");
}

void mb_presta_usage_laten(const struct mb_suite *s, FILE *out)
{
    (void)s;
    usage_lines(out, "laten", "MPI interprocess communication latency benchmark", "fopthinr");
}

void mb_presta_usage_rma(const struct mb_suite *s, FILE *out)
{
    (void)s;
    usage_lines(out, "rma", "MPI interprocess communication benchmark for one-sided operations",
                "bcefOpsthinr");
}

void mb_presta_usage_allred(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out, "\n  allred [# of comp iterations] [inner iterations] [total samples]\n\n");
}

void mb_presta_usage_globalop(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out, "\n  globalop (no arguments): Barrier, Reduce, Bcast, Allreduce loops of "
                 "N=4096, with and without compute, 3 repetitions\n\n");
}
