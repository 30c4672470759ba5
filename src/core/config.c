/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/config.h"

#include "core/error.h"
#include "core/options.h"
#include "core/suite.h"
#include "core/thread_level.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void mb_config_defaults(struct mb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->suite = -1;
    cfg->common.thread_level = MB_THREAD_DEFAULT;
    cfg->files = mb_xcalloc(1, sizeof *cfg->files);
}

void mb_config_settings(struct mb_config *cfg, const struct mb_settings_type *type)
{
    cfg->settings_type = type;
    cfg->settings = type ? mb_xcalloc(1, type->size) : NULL;
    if (type && type->defaults)
        type->defaults(cfg->settings);
}

/* Calls fn on every heap field a block of rows owns: the strings of MB_OPT_STRING rows and
 * the arrays of hidden MB_OPT_LIST rows (elem_size > 0; a string has elem_size 0). */
static void each_heap_field(const struct mb_option *rows, size_t n, const struct mb_config *cfg,
                            enum mb_opt_block block,
                            void (*fn)(void **ptr, size_t count, size_t elem, void *user),
                            void *user)
{
    for (size_t i = 0; i < n; i++) {
        const struct mb_option *o = &rows[i];
        char *base;
        if (o->block != block || (o->kind != MB_OPT_STRING && o->kind != MB_OPT_LIST))
            continue;
        base = mb_option_base(o, cfg);
        if (o->kind == MB_OPT_STRING)
            fn((void **)(base + o->offset), 0, 0, user);
        else
            fn((void **)(base + o->offset), *(size_t *)(base + o->count_offset), o->elem_size,
               user);
    }
}

static void free_field(void **ptr, size_t count, size_t elem, void *user)
{
    (void)count;
    (void)elem;
    (void)user;
    free(*ptr);
    *ptr = NULL;
}

void mb_config_free(struct mb_config *cfg)
{
    const struct mb_settings_type *t = cfg->settings_type;

    free(cfg->prog);
    free(cfg->cmdline);
    each_heap_field(mb_common_options, mb_n_common_options, cfg, MB_IN_COMMON, free_field, NULL);
    for (size_t k = 0; t && cfg->settings && k < MB_MAX_SETS - 1 && t->sets[k]; k++)
        each_heap_field(t->sets[k]->rows, t->sets[k]->n, cfg, MB_IN_SUITE, free_field, NULL);
    free(cfg->settings);
    if (cfg->files)
        mb_files_free(cfg->files);
    free(cfg->files);
    memset(cfg, 0, sizeof *cfg);
}

struct bcast_ctx {
    MPI_Comm comm;
    int rank;
};

/* Broadcasts one heap block whose pointer lives in a settings block: rank 0's pointer value is
 * meaningless elsewhere, so the length goes first (-1 for NULL) and the block follows. */
static void bcast_block(void **ptr, size_t bytes, MPI_Comm comm, int rank)
{
    long long len = (rank == 0) ? (*ptr ? (long long)bytes : -1) : 0;

    MB_MPI(MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, comm));
    if (rank != 0)
        *ptr = (len < 0) ? NULL : mb_xmalloc((size_t)len);
    if (len > 0) {
        /* Chunks below INT_MAX keep the count argument in range for any list length. */
        char *p = *ptr;
        for (long long off = 0; off < len; off += INT_MAX / 2) {
            long long chunk = len - off < INT_MAX / 2 ? len - off : INT_MAX / 2;
            MB_MPI(MPI_Bcast(p + off, (int)chunk, MPI_BYTE, 0, comm));
        }
    }
}

static void bcast_field(void **ptr, size_t count, size_t elem, void *user)
{
    const struct bcast_ctx *b = user;
    /* elem == 0: a string, its length known on rank 0 only. */
    size_t bytes = elem ? count * elem : (b->rank == 0 && *ptr ? strlen(*ptr) + 1 : 0);
    bcast_block(ptr, bytes, b->comm, b->rank);
}

static void bcast_bytes(void *p, size_t bytes, MPI_Comm comm)
{
    MB_MPI(MPI_Bcast(p, (int)bytes, MPI_BYTE, 0, comm));
}

void mb_config_bcast(struct mb_config *cfg, MPI_Comm comm)
{
    struct bcast_ctx b = {comm, 0};
    const struct mb_settings_type *t = cfg->settings_type;

    MB_MPI(MPI_Comm_rank(comm, &b.rank));
    MB_MPI(MPI_Bcast(&cfg->suite, 1, MPI_INT, 0, comm));
    bcast_field((void **)&cfg->prog, 0, 0, &b);
    bcast_field((void **)&cfg->cmdline, 0, 0, &b);
    bcast_bytes(&cfg->common, sizeof cfg->common, comm);
    each_heap_field(mb_common_options, mb_n_common_options, cfg, MB_IN_COMMON, bcast_field, &b);
    if (!t)
        return;
    bcast_bytes(cfg->settings, t->size, comm);
    for (size_t k = 0; k < MB_MAX_SETS - 1 && t->sets[k]; k++)
        each_heap_field(t->sets[k]->rows, t->sets[k]->n, cfg, MB_IN_SUITE, bcast_field, &b);
}
