/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-IO's settings check (rank 0, before anything runs; docs/adr/scratch-files.md):
 * the scratch directory must exist and be writable, the file name must be a plain name, and
 * unless --force no file of a name this run would create may exist in the directory - the run
 * is refused with one message instead of failing (or overwriting) half-way. The creation
 * itself (imb_io.c through core/scratch.c) refuses an existing file again, exclusively, so a
 * file that appears later, or in a node-local directory rank 0 cannot see, is never taken
 * over either (then as a run-time error). */
#include "core/scratch.h"
#include "imb/imb_options.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Which name forms the selected benchmarks use (guide 5.2.3.2): shared or private files,
 * each with or without the Multi suffix. */
struct name_forms {
    int shared[2], priv[2]; /* [0] primary, [1] Multi */
};

static struct name_forms forms_of(const struct mb_imb_config *c)
{
    const struct mb_imb_family *f = mb_imb_family(c);
    const size_t n = c->selected ? c->n_selected : f->n;
    struct name_forms u = {{0, 0}, {0, 0}};

    for (size_t i = 0; i < n; i++) {
        const int sel = c->selected ? c->selected[i] : MB_IMB_SEL((int)i, 0);
        const struct mb_imb_bench *b = &f->benchmarks[MB_IMB_SEL_INDEX(sel)];
        const int multi = c->multi >= 0 || MB_IMB_SEL_MULTI(sel);
        if (b->file == MB_IMB_SHARED_FILE)
            u.shared[multi] = 1;
        else if (b->file == MB_IMB_PRIVATE_FILES)
            u.priv[multi] = 1;
    }
    return u;
}

/* Parses "<digits>" at *p, below limit; advances *p. */
static int number_below(const char **p, long limit)
{
    char *end;
    long v;

    if (**p < '0' || **p > '9')
        return 0;
    errno = 0;
    v = strtol(*p, &end, 10);
    if (errno != 0 || v >= limit)
        return 0;
    *p = end;
    return 1;
}

/* Whether name is one this run could create: base, base_g<G>, base_<R>, base_g<G>_<R> with
 * group and rank numbers below the process count. */
static int is_ours(const char *name, const char *base, const struct name_forms *u, int nprocs)
{
    const size_t len = strlen(base);
    const char *p = name + len;
    int multi = 0;

    if (strncmp(name, base, len) != 0)
        return 0;
    if (*p == '\0')
        return u->shared[0];
    if (strncmp(p, "_g", 2) == 0) {
        const char *q = p + 2;
        if (number_below(&q, nprocs)) {
            if (*q == '\0')
                return u->shared[1];
            multi = 1;
            p = q;
        }
    }
    if (*p != '_')
        return 0;
    p++;
    return number_below(&p, nprocs) && *p == '\0' && u->priv[multi];
}

static int check_name(const char *dir, const char *base, int nprocs, struct mb_error *err)
{
    char path[MB_SCRATCH_PATH_MAX], longest[64];
    int n;

    if (base[0] == '\0' || strchr(base, '/') || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return mb_usage(err, "invalid value '%s' for --file: expected a file name without '/'",
                        base);
    /* The longest name this run could use must fit, as a path and as one name: no truncated
     * paths, no run that fails at its first file (a 254-character --file used to). */
    n = snprintf(longest, sizeof longest, "_g%d_%d", nprocs, nprocs);
    if (strlen(base) + (size_t)n > NAME_MAX)
        return mb_usage(err,
                        "invalid value '%s' for --file: %zu characters, but the scratch "
                        "names add up to %d more and a file name has at most %d",
                        base, strlen(base), n, NAME_MAX);
    return mb_scratch_pathf(path, sizeof path, err, dir, "%s_g%d_%d", base, nprocs, nprocs);
}

/* The names is_ours matches, for the scratch layer's directory check. */
struct ours {
    const char *base;
    const struct name_forms *u;
    int nprocs;
};

static int ours(const char *name, const void *user)
{
    const struct ours *o = user;
    return is_ours(name, o->base, o->u, o->nprocs);
}

int mb_imb_io_validate(struct mb_config *cfg, struct mb_error *err)
{
    struct mb_imb_config *c = cfg->settings;
    const char *dir = c->io_dir ? c->io_dir : ".";
    const char *base = c->io_file ? c->io_file : MB_IMB_IO_FILENAME;
    const struct name_forms u = forms_of(c);
    int rc;

    rc = mb_scratch_dir_check(dir, "--dir", err);
    if (rc == 0)
        rc = check_name(dir, base, cfg->nprocs, err);
    /* No name this run could create may exist in dir - unless --force, which takes over
     * regular files only: a FIFO or directory of a scratch name would fail the run at its
     * first file. */
    if (rc == 0) {
        const struct ours o = {base, &u, cfg->nprocs};
        rc = mb_scratch_check_existing(dir, "--dir", ours, &o, c->io_force,
                                       "another --dir or --file", err);
    }
    return rc;
}

/* Rank 0's view of --dir decides: the files several processes open together need a directory
 * they all see, so rank 0 sees the file system that gets them; the private files of a
 * node-local --dir on another node are not seen here, and a disk that fills there ends the run
 * with the agreed run-time error of imb_driver.c instead (docs/adr/io-space-check.md). */
int mb_imb_io_space_check(struct mb_config *cfg, struct mb_error *err)
{
    const struct mb_imb_config *c = cfg->settings;

    if (cfg->common.dry_run)
        return 0; /* nothing is written */
    return mb_scratch_space_check(
        c->io_dir ? c->io_dir : ".", "--dir", mb_imb_io_disk_need(cfg), 1.0,
        c->io_keep ? "every file -keep keeps, at its largest preset size"
                   : "the largest block's files, each at the size MPI_File_set_size presets",
        "choose another --dir, or fewer repetitions (-iter) or shorter lengths (-msglen)", NULL,
        err);
}
