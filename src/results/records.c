/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/records.h"

#include "core/report_json.h"
#include "core/userfile.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *mb_rs_alloc(void *p, size_t n, size_t size)
{
    void *q = NULL;

    if (size == 0 || n <= SIZE_MAX / size)
        q = realloc(p, n * size != 0 ? n * size : 1);
    if (!q) {
        fprintf(stderr, "mpibench: out of memory (%zu x %zu bytes)\n", n, size);
        abort();
    }
    return q;
}

char *mb_rs_strdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    return memcpy(mb_rs_alloc(NULL, n, 1), s, n);
}

void mb_rs_index_set(json_t *index, const char *key, long long v)
{
    if (!index || json_object_set_new_nocheck(index, key, json_integer((json_int_t)v)) != 0) {
        fprintf(stderr, "mpibench: out of memory (an index of results)\n");
        abort();
    }
}

static void append(struct mb_records *r, json_t *o)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->rec = mb_rs_alloc(r->rec, r->cap, sizeof *r->rec);
    }
    r->rec[r->n++] = o;
}

/* The next line of f (with its newline, if any) into *line: its length; 0 at the end of the
 * file; -1 on a read error; -2 when it is longer than MB_RECORDS_MAX_LINE (then nothing more
 * is read). getline would grow its buffer without bound on a file of one endless line. */
static long long next_line(FILE *f, char **line, size_t *cap)
{
    size_t n = 0;
    int c;

    while ((c = getc_unlocked(f)) != EOF) {
        if (n == MB_RECORDS_MAX_LINE)
            return -2;
        if (n + 2 > *cap) {
            *cap = *cap ? 2 * *cap : 4096;
            *line = mb_rs_alloc(*line, *cap, 1);
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0 && ferror(f))
        return -1;
    if (*line)
        (*line)[n] = '\0';
    return ferror(f) ? -1 : (long long)n;
}

int mb_records_load(struct mb_records *r, const char *path, size_t *cut, char *msg, size_t len)
{
    struct mb_error err = {0};
    /* Only a regular file of at most MB_RECORDS_MAX_BYTES: a FIFO would block the open (or
     * the read) forever, a device can be endless (/dev/zero). */
    FILE *f = mb_userfile_read_max(NULL, path, "the results file", MB_RECORDS_MAX_BYTES,
                                   "a results file", &err);
    char *line = NULL;
    size_t cap = 0, lineno = 0, bad_line = 0;
    unsigned long long total = 0;
    int bad_has_newline = 0;
    long long got;
    char why[200] = "";
    int status = 0;

    *cut = 0;
    if (!f) {
        snprintf(msg, len, "%s", err.msg);
        return -1;
    }
    if (!r->path)
        r->path = mb_rs_strdup(path);
    while ((got = next_line(f, &line, &cap)) > 0) {
        json_error_t jerr;
        json_t *o;

        lineno++;
        total += (unsigned long long)got;
        if (total > MB_RECORDS_MAX_BYTES) { /* the file grew while it was read */
            snprintf(msg, len, "cannot read '%s': more than the %lld a results file may have", path,
                     (long long)MB_RECORDS_MAX_BYTES);
            status = -1;
            break;
        }
        if (bad_line) { /* a bad line that is not the last one */
            snprintf(msg, len, "'%s' line %zu: %s", path, bad_line, why);
            status = -1;
            break;
        }
        if (strspn(line, " \t\r\n") == (size_t)got)
            continue;
        o = json_loadb(line, (size_t)got, JSON_REJECT_DUPLICATES, &jerr);
        if (!o || !json_is_object(o)) {
            snprintf(why, sizeof why, "%s",
                     o ? "not a JSON object" : "not JSON (this is not a JSON Lines file)");
            json_decref(o);
            bad_line = lineno;
            bad_has_newline = line[got - 1] == '\n';
            continue;
        }
        /* Fields are read by name, and a name means one thing in one schema version only
         * (docs/output.md, "Schema version"): a record of another layout is refused, never
         * read as if its fields were this version's. */
        if (mb_rec_int(o, "schema_version", 1) != MB_SCHEMA_VERSION) {
            snprintf(msg, len,
                     "'%s' line %zu: schema version %lld (another mpibench's results); this "
                     "mpibench reads version %d",
                     path, lineno, mb_rec_int(o, "schema_version", 1), MB_SCHEMA_VERSION);
            json_decref(o);
            status = -1;
            break;
        }
        append(r, o);
    }
    if (status == 0 && got == -2) {
        snprintf(msg, len,
                 "'%s' line %zu: longer than %d bytes (the limit of a results record; this is "
                 "not a JSON Lines results file)",
                 path, lineno + 1, MB_RECORDS_MAX_LINE);
        status = -1;
    }
    if (status == 0 && got == -1) {
        snprintf(msg, len, "cannot read '%s': %s", path, strerror(errno));
        status = -1;
    }
    /* A last line that does not parse: a run killed while writing it (records are whole
     * lines, written at once) - or not JSON at all, when it is the only line. */
    if (status == 0 && bad_line) {
        if (bad_has_newline || r->n == 0) {
            snprintf(msg, len, "'%s' line %zu: %s", path, bad_line, why);
            status = -1;
        } else {
            *cut = 1;
        }
    }
    free(line);
    fclose(f);
    return status;
}

void mb_records_free(struct mb_records *r)
{
    for (size_t i = 0; i < r->n; i++)
        json_decref(r->rec[i]);
    free(r->rec);
    free(r->path);
    memset(r, 0, sizeof *r);
}

const char *mb_rec_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

double mb_rec_num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

long long mb_rec_int(const json_t *o, const char *key, long long dflt)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : dflt;
}

int mb_rec_is(const json_t *o, const char *type)
{
    const char *t = mb_rec_str(o, "type");
    return t && strcmp(t, type) == 0;
}
