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
    cfg->common.suite_thread_level = -1;
    cfg->files = mb_xcalloc(1, sizeof *cfg->files);
}

void mb_config_settings(struct mb_config *cfg, const struct mb_settings_type *type)
{
    cfg->settings_type = type;
    cfg->settings = type ? mb_xcalloc(1, type->size) : NULL;
    if (type && type->defaults)
        type->defaults(cfg->settings, type->owner);
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

/* The configuration travels as one packed message (its length, then the message) rather than
 * one broadcast per field: a per-field broadcast sent some twenty messages from rank 0 to every
 * other rank before the first measurement, and Open MPI's shared-memory transport sets up its
 * fast path to a peer after 16 sends (btl_vader_fbox_threshold), so mpibench's first timed
 * loop ran on a path the originals' first loop had yet to build (Presta com's first length
 * came out 1.5-7x faster than com.c's; docs/adr/startup-messages.md). Heap blocks (strings,
 * lists) go as a length (-1 for NULL) and their bytes; fixed blocks as their bytes, whose
 * pointer fields the heap blocks that follow replace on the receiving ranks. */
struct packer {
    char *buf;
    size_t len, cap; /* rank 0: bytes packed so far and room; others: bytes read so far */
    int unpack;
};

static void pack_raw(struct packer *p, void *bytes, size_t n)
{
    if (p->unpack) {
        memcpy(bytes, p->buf + p->len, n);
    } else {
        if (p->len + n > p->cap) {
            p->cap = 2 * (p->len + n);
            p->buf = mb_xrealloc(p->buf, p->cap);
        }
        memcpy(p->buf + p->len, bytes, n);
    }
    p->len += n;
}

static void pack_block(void **ptr, size_t bytes, struct packer *p)
{
    long long len = p->unpack ? 0 : (*ptr ? (long long)bytes : -1);

    pack_raw(p, &len, sizeof len);
    if (p->unpack)
        *ptr = (len < 0) ? NULL : mb_xmalloc(len > 0 ? (size_t)len : 1);
    if (len > 0)
        pack_raw(p, *ptr, (size_t)len);
}

static void pack_field(void **ptr, size_t count, size_t elem, void *user)
{
    struct packer *p = user;
    /* elem == 0: a string, its length known on rank 0 only. */
    size_t bytes = elem ? count * elem : (!p->unpack && *ptr ? strlen(*ptr) + 1 : 0);

    pack_block(ptr, bytes, p);
}

/* Packs (rank 0) or unpacks (the others) the whole configuration, in one order for both. */
static void pack_config(struct mb_config *cfg, struct packer *p)
{
    const struct mb_settings_type *t = cfg->settings_type;

    pack_raw(p, &cfg->suite, sizeof cfg->suite);
    pack_field((void **)&cfg->prog, 0, 0, p);
    pack_field((void **)&cfg->cmdline, 0, 0, p);
    pack_raw(p, &cfg->common, sizeof cfg->common);
    each_heap_field(mb_common_options, mb_n_common_options, cfg, MB_IN_COMMON, pack_field, p);
    if (!t)
        return;
    pack_raw(p, cfg->settings, t->size);
    for (size_t k = 0; k < MB_MAX_SETS - 1 && t->sets[k]; k++)
        each_heap_field(t->sets[k]->rows, t->sets[k]->n, cfg, MB_IN_SUITE, pack_field, p);
}

void mb_config_pack(struct mb_config *cfg, struct mb_config_msg *msg)
{
    struct packer p = {NULL, 0, 0, 0};

    pack_config(cfg, &p);
    msg->buf = p.buf;
    msg->len = (long long)p.len;
}

void mb_config_bcast(struct mb_config *cfg, struct mb_config_msg *msg, MPI_Comm comm)
{
    int rank;

    MB_MPI(MPI_Comm_rank(comm, &rank));
    if (rank != 0)
        msg->buf = mb_xmalloc(msg->len > 0 ? (size_t)msg->len : 1);
    /* Chunks below INT_MAX keep the count argument in range for any list length. */
    for (long long off = 0; off < msg->len; off += INT_MAX / 2) {
        long long chunk = msg->len - off < INT_MAX / 2 ? msg->len - off : INT_MAX / 2;
        MB_MPI(MPI_Bcast(msg->buf + off, (int)chunk, MPI_BYTE, 0, comm));
    }
    if (rank != 0) {
        struct packer p = {msg->buf, 0, (size_t)msg->len, 1};
        pack_config(cfg, &p);
    }
    free(msg->buf);
    msg->buf = NULL;
}
