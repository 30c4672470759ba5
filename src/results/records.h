/* SPDX-License-Identifier: BSD-3-Clause */
/* JSON Lines result files read back (mpibench plot, mpibench compare, the main job's
 * summary): every line one JSON object, parsed with jansson. No MPI here: these tools run
 * without mpirun. */
#ifndef MB_RECORDS_H
#define MB_RECORDS_H

#include <jansson.h>
#include <stddef.h>

struct mb_records {
    json_t **rec; /* objects, in file order */
    size_t n, cap;
    char *path;
};

/* The limits of a results file read back (docs/adr/results-tools-inputs.md). A record is one
 * line: the longest real ones (a header's host list, Presta allred's per-sample arrays) stay
 * far below MB_RECORDS_MAX_LINE. The whole file is held in memory as parsed JSON, about ten
 * times its size: MB_RECORDS_MAX_BYTES keeps that within a login node's memory, and is
 * still far beyond what runs write (one record of a few hundred bytes per measured row). */
#define MB_RECORDS_MAX_LINE  (16 * 1024 * 1024)
#define MB_RECORDS_MAX_BYTES (1024L * 1024 * 1024)

/* Reads every line of path (blank lines skipped) and appends it. Returns 0, or -1 with a
 * message naming the file and line in msg ("cannot open 'r.jsonl': ...", "cannot read
 * 'r.jsonl': not a regular file (a FIFO)", "'r.jsonl' line 3: not a JSON object"): only a
 * regular file of at most MB_RECORDS_MAX_BYTES with lines of at most MB_RECORDS_MAX_LINE is
 * read (a FIFO never blocks the open, a device is never read). A file cut inside its last line (a
 * killed run) keeps the lines before it: only a bad line followed by more lines is an error; *cut
 * counts the dropped last lines. A record of another schema version than MB_SCHEMA_VERSION
 * (one without "schema_version" is version 1) is an error too: its fields are not this
 * version's. */
int mb_records_load(struct mb_records *r, const char *path, size_t *cut, char *msg, size_t len);
void mb_records_free(struct mb_records *r);

/* Field access that tolerates absent or differently typed fields: NAN / NULL / dflt. */
const char *mb_rec_str(const json_t *o, const char *key);
double mb_rec_num(const json_t *o, const char *key);
long long mb_rec_int(const json_t *o, const char *key, long long dflt);
int mb_rec_is(const json_t *o, const char *type);

/* Checked allocation for the tools (no MPI job to abort here: a failure ends the process). */
void *mb_rs_alloc(void *p, size_t n, size_t size);
char *mb_rs_strdup(const char *s);

/* index[key] = v in a jansson object used as a hash table (compare's measurements, plot's
 * largest process counts). Keys are not checked for UTF-8: one cut at its buffer's end may
 * end inside a sequence. */
void mb_rs_index_set(json_t *index, const char *key, long long v);

#endif
