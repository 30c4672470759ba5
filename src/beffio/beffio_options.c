/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's command line: the original's flags (b_eff_io 2.1), mpibench's --force, and the
 * checks that keep a run from failing half-way - the partitions, the buffers, the scratch
 * directory, files of the run's names, and the space the run needs at least. Only rank 0
 * runs this code. */
#include "beffio/beffio_options.h"

#include "beffio/beffio.h"
#include "core/scratch.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIO(field) offsetof(struct mb_bio_config, field)

static struct mb_bio_config *settings(struct mb_config *cfg)
{
    return cfg->settings;
}

/* -N n1[,n2...]: repeated options append; at most 10 values (as in b_eff_io 2.1). The upper bound
 * (the process count) is checked in validate. */
static int parse_partitions(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_bio_config *b = settings(cfg);
    const char *p = value;

    if (!b->partitions_given)
        b->n_partitions = 0;
    b->partitions_given = 1;
    for (;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char piece[32];
        const char *why = NULL;
        long long v;
        if (len >= sizeof piece)
            return mb_usage(err, "invalid value '%s' for -N: '%.*s...' is not a process count",
                            value, 20, p);
        memcpy(piece, p, len);
        piece[len] = '\0';
        if (mb_parse_long(piece, 1, 1LL << 30, &v, &why) != 0)
            return mb_usage(err, "invalid value '%s' for -N: '%s' %s", value, piece, why);
        if (b->n_partitions == MB_BIO_MAX_PARTITIONS)
            return mb_usage(err, "invalid value '%s' for -N: at most %d partitions", value,
                            MB_BIO_MAX_PARTITIONS);
        b->partitions[b->n_partitions++] = (int)v;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static void show_partitions(const struct mb_config *cfg, char *buf, size_t len)
{
    const struct mb_bio_config *b = mb_bio_cfg(cfg);
    size_t off = 0;

    buf[0] = '\0';
    for (int i = 0; i < b->n_partitions && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? "," : "", b->partitions[i]);
    if (off < len)
        snprintf(buf + off, len - off, "%s", b->partitions_given ? "" : " (default)");
}

static void show_memory(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%ld MB per process (L_max = %lld bytes)", mb_bio_cfg(cfg)->memory_mb,
             mb_bio_lmax(mb_bio_cfg(cfg)->memory_mb));
}

/* --definition release21|weighted: which partition value is b_eff_io (the headline, the best
 * partition, the JSON value) and which validity time applies; the other value is printed on a
 * line of its own (docs/adr/program-beffio-headline.md). */
static int parse_definition(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    if (strcmp(value, "release21") == 0)
        settings(cfg)->weighted = 0;
    else if (strcmp(value, "weighted") == 0)
        settings(cfg)->weighted = 1;
    else
        return mb_usage(err, "invalid value '%s' for --definition: expected release21 or weighted",
                        value);
    return 0;
}

static void show_definition(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             mb_bio_cfg(cfg)->weighted
                 ? "weighted: 0.25 x write + 0.25 x rewrite + 0.5 x read, valid from 15 min per "
                   "partition"
                 : "release21 (default): sqrt(WR x RD), valid from 30 min per partition");
}

static void show_dir(const struct mb_config *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", mb_bio_cfg(cfg)->dir);
}

static const struct mb_option rows[] = {
    {.name = "-MB",
     .kind = MB_OPT_LONG,
     .offset = BIO(memory_mb),
     .min = 1,
     .max = 1L << 40,
     .metavar = "MB",
     .help = "memory per process in MiB; the largest chunk L_max = max(2 MB, MB/128) "
             "(default: node memory / processes on the node)",
     .show = show_memory},
    {.name = "-MT",
     .kind = MB_OPT_LONG,
     .offset = BIO(total_mb),
     .min = 1,
     .max = 1L << 50,
     .metavar = "MB",
     .help = "total memory of the processes in MiB, for the 'percent of the total memory' line "
             "(default: -MB x processes)"},
    {.name = "-T",
     .kind = MB_OPT_LONG,
     .offset = BIO(T),
     .min = 1,
     .max = 10L * 365 * 86400,
     .metavar = "SEC",
     .help = "scheduled time in seconds for all partitions together (default 1800; "
             "valid for comparison: at least 1800 per partition, 900 with --definition "
             "weighted); it paces the write loops, the other passes repeat their counts"},
    {.name = "-N",
     .kind = MB_OPT_CUSTOM,
     .metavar = "N1,N2,...",
     .help = "the partitions: process counts, at most 10 (default: 1 | 1,2 | small,medium,all)",
     .parse = parse_partitions,
     .show = show_partitions},
    {.name = "-p",
     .kind = MB_OPT_STRING,
     .offset = BIO(dir),
     .metavar = "DIR",
     .help = "directory of the scratch files (default: the working directory)",
     .show = show_dir,
     .per_run = 1},
    {.name = "-i",
     .kind = MB_OPT_STRING,
     .offset = BIO(info_path),
     .metavar = "FILE",
     .help = "MPI-IO hints: lines 'nprocs access type chunk key value' (see the README)"},
    {.name = "-e",
     .kind = MB_OPT_LONG,
     .offset = BIO(max_errors),
     .min = 1,
     .max = 1000000,
     .metavar = "N",
     .help = "data errors printed per pattern and process (default 1)"},
    {.name = "-f",
     .kind = MB_OPT_STRING,
     .offset = BIO(prefix),
     .metavar = "PREFIX",
     .help = "protocol files PREFIX.prot .sum .plot .gps (default b_eff_io, or DIR/b_eff_io with "
             "--output-dir)",
     .per_run = 1},
    {.name = "-noshared",
     .kind = MB_OPT_FLAG,
     .offset = BIO(noshared),
     .help = "type 1 with individual file pointers like type 0 (not valid for comparison)"},
    {.name = "-nounique",
     .kind = MB_OPT_FLAG,
     .offset = BIO(nounique),
     .help = "open the files without MPI_MODE_UNIQUE_OPEN"},
    {.name = "-rewrite",
     .kind = MB_OPT_FLAG,
     .offset = BIO(rewrite),
     .help = "rewrite with all five pattern types (default: type 0 only)"},
    {.name = "-keep",
     .alias = "--keep",
     .kind = MB_OPT_FLAG,
     .offset = BIO(keep),
     .help = "keep the scratch files after the run"},
    {.name = "-adapt",
     .kind = MB_OPT_FLAG,
     .offset = BIO(adapt),
     .help = "shorten later patterns when earlier ones overran their time (not valid for "
             "comparison)"},
    {.name = "--definition",
     .kind = MB_OPT_CUSTOM,
     .metavar = "release21|weighted",
     .help = "the partition value that is b_eff_io: release21 = sqrt(WR x RD), WR the mean of the "
             "five write types and the type-0 rewrite, RD the read value (default, as b_eff_io "
             "2.1); weighted = 0.25 write + 0.25 rewrite + 0.5 read, valid from 900 s per "
             "partition; the other value is printed on a line of its own",
     .parse = parse_definition,
     .show = show_definition},
    {.name = "--force",
     .kind = MB_OPT_FLAG,
     .offset = BIO(force),
     .help = "overwrite (and then remove) existing regular files of the scratch names"},
    {.name = "-help",
     .kind = MB_OPT_FLAG,
     .offset = offsetof(struct mb_common_config, help),
     .help = "same as --help",
     .block = MB_IN_COMMON},
};
static const struct mb_option_set option_set = {rows, sizeof rows / sizeof rows[0], 0};

static const struct mb_option resolved[] = {
    {.kind = MB_OPT_LIST,
     .offset = BIO(hints),
     .count_offset = BIO(n_hints),
     .elem_size = sizeof(struct mb_bio_hint)},
};
static const struct mb_option_set resolved_set = {resolved, sizeof resolved / sizeof resolved[0],
                                                  0};

const struct mb_settings_type mb_bio_settings = {.size = sizeof(struct mb_bio_config),
                                                 .sets = {&option_set, &resolved_set}};

int mb_bio_scratch_name(char *out, size_t cap, const char *dir, int index, int nprocs, int type,
                        int rank, struct mb_error *err)
{
    if (type == MB_BIO_SEPARATE && rank >= 0)
        return mb_scratch_pathf(out, cap, err, dir, "b_eff_io_data_i%02d_%03d_%d.%03d", index,
                                nprocs, type, rank);
    return mb_scratch_pathf(out, cap, err, dir, "b_eff_io_data_i%02d_%03d_%d", index, nprocs, type);
}

/* Whether a directory entry is a name this run creates: b_eff_io_data_i<II>_<NNN>_<t>, type 2
 * with .<RRR> below NNN, for a partition II of size NNN. */
static int is_ours(const char *name, const struct mb_bio_config *b)
{
    int index, n, type, rank, used = 0;

    if (strncmp(name, "b_eff_io_data_i", 15) != 0)
        return 0;
    if (sscanf(name, "b_eff_io_data_i%d_%d_%d%n", &index, &n, &type, &used) != 3 || index < 0 ||
        index >= b->n_partitions || b->partitions[index] != n || type < 0 || type >= MB_BIO_TYPES)
        return 0;
    {
        char want[96];
        snprintf(want, sizeof want, "b_eff_io_data_i%02d_%03d_%d", index, n, type);
        if (strncmp(name, want, strlen(want)) != 0 || (size_t)used != strlen(want))
            return 0;
    }
    if (name[used] == '\0')
        return type != MB_BIO_SEPARATE;
    if (type != MB_BIO_SEPARATE || name[used] != '.')
        return 0;
    {
        int used2 = 0;
        char want[32];
        if (sscanf(name + used + 1, "%d%n", &rank, &used2) != 1 || rank < 0 || rank >= n)
            return 0;
        snprintf(want, sizeof want, "%03d", rank);
        return strcmp(name + used + 1, want) == 0;
    }
}

static int ours(const char *name, const void *user)
{
    return is_ours(name, user);
}

/* The scratch directory, and no file of the run's names in it - with --force none that the
 * run could not take over (a symbolic link, a FIFO, a directory): the check IMB-IO makes,
 * before the header instead of a run-time abort at the first file. */
static int check_dir(const struct mb_bio_config *b, struct mb_error *err)
{
    int rc = mb_scratch_dir_check(b->dir, "-p", err);

    if (rc == 0)
        rc =
            mb_scratch_check_existing(b->dir, "-p", ours, b, b->force, "another -p directory", err);
    return rc;
}

static int check_space(struct mb_bio_config *b, struct mb_error *err)
{
    unsigned long long least = 0;
    /* Every pattern once, as the write pass's disk budget counts it (beffio_table.c). */
    const unsigned long long per =
        (unsigned long long)mb_bio_disk_least_from(0, mb_bio_lmax(b->memory_mb));

    for (int i = 0; i < b->n_partitions; i++)
        least += per * (unsigned long long)b->partitions[i];
    return mb_scratch_space_check(
        b->dir, "-p", least, MB_BIO_DISK_SHARE, "every pattern once, all partitions",
        "choose another -p directory or a smaller -MB", &b->disk_free, err);
}

static int check_prefix(struct mb_config *cfg, struct mb_error *err)
{
    struct mb_bio_config *b = settings(cfg);
    int rc = mb_prefix_resolve(&b->prefix, "b_eff_io", cfg->common.output_dir, err);

    if (rc == 0 && strlen(b->prefix) + 32 > MB_SCRATCH_PATH_MAX)
        rc = mb_usage(err, "invalid value '%.60s...' for -f: too long", b->prefix);
    return rc;
}

int mb_bio_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err)
{
    struct mb_bio_config *b = settings(cfg);
    const unsigned long long avail = prov->mem_per_proc;
    char longest[MB_SCRATCH_PATH_MAX];
    double need;
    int rc;

    /* b_eff_io's rows are time-driven passes: K samples would take K times the scheduled time
     * or give each pass T/K, below the time its validity rule asks for (docs/adr/samples.md). */
    if (cfg->common.samples > 1)
        return mb_usage(err,
                        "--samples %ld is not used by b_eff_io: each of its rows is one "
                        "time-driven pass of the scheduled time (-T); its rows have 1 sample",
                        cfg->common.samples);
    if (b->T == 0)
        b->T = MB_BIO_T_DEFAULT;
    if (b->max_errors == 0)
        b->max_errors = MB_BIO_MAX_ERRORS_SHOWN;
    if (!b->dir)
        b->dir = mb_xstrdup(".");
    if (b->memory_mb == 0) {
        /* As b_eff: the node's memory shared by the processes on the node. */
        b->memory_mb = (long)(avail / (1024 * 1024));
        if (b->memory_mb < 1)
            return mb_usage(err, "cannot detect the memory per process; give it with -MB");
    }
    if (b->total_mb == 0)
        b->total_mb = b->memory_mb * (long)cfg->nprocs;
    if (!b->partitions_given)
        b->n_partitions = mb_bio_default_partitions(cfg->nprocs, b->partitions);
    for (int i = 0; i < b->n_partitions; i++)
        if (b->partitions[i] > cfg->nprocs)
            return mb_usage(err, "invalid value %d for -N: only %d processes were started",
                            b->partitions[i], cfg->nprocs);
    need = 2.0 * (double)mb_bio_lmax(b->memory_mb);
    if (avail > 0 && need > (double)avail)
        return mb_usage(err,
                        "-MB %ld needs write and read buffers of %.1f MB per process (2 x L_max), "
                        "but this node has %.1f MB per process",
                        b->memory_mb, need / 1048576.0, (double)avail / 1048576.0);
    if ((rc = check_prefix(cfg, err)) != 0 || (rc = check_dir(b, err)) != 0)
        return rc;
    /* The longest scratch name must fit: no truncated paths later. */
    if ((rc = mb_bio_scratch_name(longest, sizeof longest, b->dir, MB_BIO_MAX_PARTITIONS,
                                  cfg->nprocs, MB_BIO_SEPARATE, cfg->nprocs, err)) != 0 ||
        (rc = check_space(b, err)) != 0)
        return rc;
    return b->info_path ? mb_bio_hints_read(cfg, err) : 0;
}

void mb_bio_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out,
            "Measures the effective I/O bandwidth b_eff_io through MPI-IO: 36 reported "
            "patterns of\nfive types (scatter, shared pointer, separate files, segmented, "
            "segmented collective),\nchunks of 1 kB to L_max and their non-wellformed +8 "
            "variants, written, rewritten and\nread by each partition of processes within "
            "the scheduled time -T.\nb_eff_io = max over partitions of sqrt(WR x RD): WR the "
            "mean of the five write types\nand the type-0 rewrite, RD the average over the read "
            "types with type 0 weighted twice\n(--definition weighted: 0.25 write + 0.25 rewrite "
            "+ 0.5 read).\nWrites a summary to stdout and the protocol files PREFIX.prot, "
            ".sum, .plot, .gps;\nthe scratch files b_eff_io_data_* go to -p DIR and are "
            "removed at the end.\n\n");
}
