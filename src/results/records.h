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

/* Reads every line of path (blank lines skipped) and appends it. Returns 0, or -1 with a
 * message naming the file and line in msg ("cannot read 'r.jsonl': ...", "'r.jsonl' line
 * 3: not a JSON object"). A file cut inside its last line (a killed run) keeps the lines
 * before it: only a bad line followed by more lines is an error; *cut counts the dropped
 * last lines. */
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

#endif
