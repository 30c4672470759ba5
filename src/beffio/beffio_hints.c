/* SPDX-License-Identifier: BSD-3-Clause */
/* The -i info file (as in b_eff_io 2.1): MPI-IO hints chosen per partition, access method, pattern
 * type and chunk size. Rank 0 reads and checks it during validation (every line must apply to
 * something: one message naming file and line, status 2); every rank then builds the
 * MPI_Info objects of its opens and patterns from the broadcast lines.
 *
 * A line: nprocs access type chunk key value...
 *   nprocs  "all" or a partition's process count
 *   access  all | write | rewrite | read
 *   type    all | scatter | shared | separated | segmented | seg_coll
 *   chunk   on_open (MPI_File_open's info) | all (the open and every pattern) | Lmax (the
 *           L_max patterns) | a chunk size of the table: 1024 1032 32768 32776 1048576 1048584
 *   value   the rest of the line (may contain blanks) */
#include "beffio/beffio_hints.h"
#include "beffio/beffio.h"
#include "beffio/beffio_options.h"
#include "core/error.h"
#include "core/info.h"
#include "core/listfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_word[MB_BIO_TYPES] = {"scatter", "shared", "separated", "segmented",
                                                    "seg_coll"};

struct reader {
    struct mb_bio_config *b;
    size_t cap;
    int line;
};

static int word_index(const char *w, const char *const *words, int n)
{
    if (strcmp(w, "all") == 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(w, words[i]) == 0)
            return i;
    return -2;
}

/* Whether chunk size l (bytes) is one a number in the file may name (as in b_eff_io 2.1). */
static int table_chunk(long long l)
{
    for (int p = 0; p < MB_BIO_PATTERNS; p++)
        if (mb_bio_table[p].l == l && l > 0)
            return 1;
    return 0;
}

static int one_line(void *user, const char *entry, struct mb_error *err)
{
    struct reader *r = user;
    struct mb_bio_config *b = r->b;
    struct mb_bio_hint h;
    char f[4][64];
    int used = 0, found = 0;
    const char *rest, *key;
    char reason[160];

    memset(&h, 0, sizeof h);
    h.line = ++r->line;
    if (b->n_hints == MB_BIO_MAX_HINTS)
        return mb_usage(err,
                        "more than %d hints (-i); 'all' in a field lets one line cover every "
                        "partition, access, type or chunk size",
                        MB_BIO_MAX_HINTS);
    if (sscanf(entry, "%63s %63s %63s %63s %n", f[0], f[1], f[2], f[3], &used) != 4 || used == 0)
        return mb_usage(err, "expected 'nprocs access type chunk key value', got '%s'", entry);
    rest = entry + used;
    if (strcmp(f[0], "all") != 0) {
        const char *why = NULL;
        long long v;
        if (mb_parse_long(f[0], 1, 1LL << 30, &v, &why) != 0)
            return mb_usage(err, "invalid number of processes '%s': %s", f[0], why);
        for (int i = 0; i < b->n_partitions; i++)
            found |= b->partitions[i] == v;
        if (!found)
            return mb_usage(err, "no partition has %lld processes (the partitions are -N)", v);
        h.nprocs = (int)v;
    }
    if ((h.access = word_index(f[1], mb_bio_access_name, MB_BIO_ACCESSES)) == -2)
        return mb_usage(err, "invalid access '%s': expected all, write, rewrite or read", f[1]);
    if ((h.type = word_index(f[2], type_word, MB_BIO_TYPES)) == -2)
        return mb_usage(err,
                        "invalid pattern type '%s': expected all, scatter, shared, separated, "
                        "segmented or seg_coll",
                        f[2]);
    if (h.access == MB_BIO_REWRITE && h.type > MB_BIO_SCATTER && !b->rewrite)
        return mb_usage(err, "the rewrite pass runs type %s only with -rewrite", f[2]);
    if (strcmp(f[3], "on_open") == 0)
        h.chunk = MB_BIO_HINT_ON_OPEN;
    else if (strcmp(f[3], "all") == 0)
        h.chunk = MB_BIO_HINT_ALL;
    else if (strcmp(f[3], "Lmax") == 0)
        h.chunk = MB_BIO_HINT_LMAX;
    else {
        const char *why = NULL;
        if (mb_parse_long(f[3], 1, 1LL << 40, &h.chunk, &why) != 0 || !table_chunk(h.chunk))
            return mb_usage(err,
                            "invalid chunk size '%s': expected on_open, all, Lmax, 1024, 1032, "
                            "32768, 32776, 1048576 or 1048584",
                            f[3]);
    }
    used = 0;
    if (sscanf(rest, "%*s%n", &used) != 0 || used == 0)
        return mb_usage(err, "a key and a value are missing");
    key = rest;
    rest += used;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (*rest == '\0')
        return mb_usage(err, "the value of '%.*s' is missing", used < 60 ? used : 60, key);
    /* The check --info uses (core/info.h): what MPI_Info_set would refuse is refused here,
     * with the file and line, instead of aborting the job. */
    if (mb_info_check(key, (size_t)used, rest, reason, sizeof reason) != 0)
        return mb_usage(err, "hint '%.*s%s': %s", used < 60 ? used : 60, key,
                        used < 60 ? "" : "...", reason);
    memcpy(h.key, key, (size_t)used);
    strcpy(h.value, rest);
    if (b->n_hints == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        b->hints = mb_xrealloc(b->hints, r->cap * sizeof *b->hints);
    }
    b->hints[b->n_hints++] = h;
    return 0;
}

int mb_bio_hints_read(struct mb_config *cfg, struct mb_error *err)
{
    struct reader r = {cfg->settings, 0, 0};

    return mb_listfile_read(cfg->files, mb_bio_cfg(cfg)->info_path, "MPI-IO hints", one_line, &r,
                            err);
}

/* ---- all ranks: the MPI_Info objects ---------------------------------------------------- */

static int selects(const struct mb_bio_hint *h, int nprocs, int access, int type)
{
    return (h->nprocs == 0 || h->nprocs == nprocs) && (h->access < 0 || h->access == access) &&
           (h->type < 0 || h->type == type);
}

static MPI_Info add(MPI_Info info, const struct mb_bio_hint *h)
{
    if (info == MPI_INFO_NULL)
        MB_MPI(MPI_Info_create(&info));
    MB_MPI(MPI_Info_set(info, h->key, h->value));
    return info;
}

MPI_Info mb_bio_open_info(const struct mb_bio_config *b, int nprocs, int access, int type)
{
    MPI_Info info = MPI_INFO_NULL;

    for (size_t i = 0; i < b->n_hints; i++) {
        const struct mb_bio_hint *h = &b->hints[i];
        if (selects(h, nprocs, access, type) &&
            (h->chunk == MB_BIO_HINT_ON_OPEN || h->chunk == MB_BIO_HINT_ALL))
            info = add(info, h);
    }
    return info;
}

MPI_Info mb_bio_pattern_info(const struct mb_bio_config *b, int nprocs, int access, int p)
{
    const struct mb_bio_pattern *q = &mb_bio_table[p];
    MPI_Info info = MPI_INFO_NULL;

    for (size_t i = 0; i < b->n_hints; i++) {
        const struct mb_bio_hint *h = &b->hints[i];
        if (selects(h, nprocs, access, q->type) &&
            (h->chunk == MB_BIO_HINT_ALL || (h->chunk == MB_BIO_HINT_LMAX && q->l == MB_BIO_LMAX) ||
             (h->chunk > 0 && h->chunk == q->l)))
            info = add(info, h);
    }
    return info;
}

void mb_bio_info_free(MPI_Info *info)
{
    if (*info != MPI_INFO_NULL)
        MB_MPI(MPI_Info_free(info));
}
