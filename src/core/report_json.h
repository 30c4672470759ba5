/* SPDX-License-Identifier: BSD-3-Clause */
/* JSON Lines output (docs/output.md): one object per line, written by rank 0 and flushed at once so
 * that a killed run keeps every row it produced. Schema: docs/results.schema.json. */
#ifndef MB_REPORT_JSON_H
#define MB_REPORT_JSON_H

#include "core/sink.h"

#include <stddef.h>
#include <stdio.h>

/* One object under construction. */
struct mb_jobj {
    char *buf;
    size_t len, cap;
    int fields;
};

/* The version of the record layout every record names in "schema_version" (docs/output.md,
 * "Schema version": it changes when a field is renamed or removed or changes its unit or
 * meaning; a new field does not change it). */
#define MB_SCHEMA_VERSION 2

/* Starts an object; mb_jobj_begin starts a record: "type": type first, then what every record
 * of the sink s names - "schema_version", "run_id" and "suite" (s NULL: only the type). */
void mb_jobj_init(struct mb_jobj *o);
void mb_jobj_begin(struct mb_jobj *o, const char *type, const struct mb_sink *s);
void mb_jobj_str(struct mb_jobj *o, const char *key, const char *value); /* NULL -> null */
void mb_jobj_int(struct mb_jobj *o, const char *key, long long value);
void mb_jobj_num(struct mb_jobj *o, const char *key, double value); /* non-finite -> null */
void mb_jobj_bool(struct mb_jobj *o, const char *key, int value);
void mb_jobj_null(struct mb_jobj *o, const char *key);
/* Adds a finished object or array text as the value of key. */
void mb_jobj_raw(struct mb_jobj *o, const char *key, const char *json);
/* Builds a JSON array of ints. */
void mb_jarray_ints(struct mb_jobj *o, const char *key, const int *v, size_t n);
/* Builds a JSON array of v[0], v[stride], ... (n values) times scale; non-finite -> null. */
void mb_jarray_nums(struct mb_jobj *o, const char *key, const double *v, size_t n, size_t stride,
                    double scale);
/* A JSON array built item by item, of objects or strings (start it zeroed): mb_jarray_add_obj
 * finishes an object and appends it, mb_jarray_add_str appends a string it quotes;
 * mb_jobj_array adds the array ("[]" when empty) as the value of key and empties it. */
struct mb_jarray {
    char *buf;
    size_t len;
};
void mb_jarray_add_obj(struct mb_jarray *a, struct mb_jobj *item);
void mb_jarray_add_str(struct mb_jarray *a, const char *s);
void mb_jobj_array(struct mb_jobj *o, const char *key, struct mb_jarray *a);

/* Finishes the object and hands its text to the caller (free it). */
char *mb_jobj_take(struct mb_jobj *o);
/* Finishes the object, writes it as one line to s (if not NULL), flushes, frees it; a failed
 * write is a run-time error naming the file (core/sink.h). */
void mb_jobj_write(struct mb_jobj *o, const struct mb_sink *s);

/* Appends s as a quoted JSON string to the object's buffer. */
void mb_json_quote(struct mb_jobj *o, const char *s);

#endif
