/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/report_json.h"

#include "core/error.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void append(struct mb_jobj *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + n + 1)
            cap *= 2;
        o->buf = mb_xrealloc(o->buf, cap);
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void appendf(struct mb_jobj *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void appendf(struct mb_jobj *o, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    append(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Length of the well-formed UTF-8 sequence at p (Unicode 15 table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_len(const unsigned char *p)
{
    int n;
    unsigned char lo = 0x80, hi = 0xbf;

    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        n = 3;
        if (p[0] == 0xe0)
            lo = 0xa0;
        else if (p[0] == 0xed)
            hi = 0x9f;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        n = 4;
        if (p[0] == 0xf0)
            lo = 0x90;
        else if (p[0] == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xbf)
            return 0;
    return n;
}

void mb_json_quote(struct mb_jobj *o, const char *s)
{
    append(o, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int n = utf8_len(p);
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            append(o, esc, 2);
        } else if (*p < 0x20 || n == 0) {
            /* Control characters, and bytes that are not UTF-8 (a file name in another
             * encoding): the character of the byte's value (docs/adr/messages.md), so that every
             * line stays valid UTF-8 JSON and the byte can still be told. */
            appendf(o, "\\u%04x", *p);
        } else {
            append(o, (const char *)p, (size_t)n);
            p += n;
            continue;
        }
        p++;
    }
    append(o, "\"", 1);
}

static void key(struct mb_jobj *o, const char *k)
{
    if (o->fields++)
        append(o, ",", 1);
    mb_json_quote(o, k);
    append(o, ":", 1);
}

void mb_jobj_init(struct mb_jobj *o)
{
    memset(o, 0, sizeof *o);
    append(o, "{", 1);
}

void mb_jobj_begin(struct mb_jobj *o, const char *type, const struct mb_sink *s)
{
    mb_jobj_init(o);
    mb_jobj_str(o, "type", type);
    if (!s)
        return;
    /* Every record is self-contained: a row read alone (grep, a database, pandas) still says
     * which layout it has, which run it came from and which suite wrote it. */
    mb_jobj_int(o, "schema_version", MB_SCHEMA_VERSION);
    mb_jobj_str(o, "run_id", s->run_id);
    mb_jobj_str(o, "suite", s->suite);
}

/* Appends json to the array's text, after "[" or ",". */
static void jarray_add(struct mb_jarray *a, const char *json)
{
    const size_t add = strlen(json);

    a->buf = mb_xrealloc(a->buf, a->len + add + 2);
    a->buf[a->len] = a->len == 0 ? '[' : ',';
    memcpy(a->buf + a->len + 1, json, add + 1);
    a->len += add + 1;
}

void mb_jarray_add_obj(struct mb_jarray *a, struct mb_jobj *item)
{
    char *text = mb_jobj_take(item);

    jarray_add(a, text);
    free(text);
}

void mb_jarray_add_str(struct mb_jarray *a, const char *s)
{
    struct mb_jobj q = {0}; /* not an object: the quoted string alone */

    mb_json_quote(&q, s);
    jarray_add(a, q.buf);
    free(q.buf);
}

void mb_jobj_array(struct mb_jobj *o, const char *key, struct mb_jarray *a)
{
    if (!a->buf) {
        mb_jobj_raw(o, key, "[]");
        return;
    }
    a->buf = mb_xrealloc(a->buf, a->len + 2);
    a->buf[a->len] = ']';
    a->buf[a->len + 1] = '\0';
    mb_jobj_raw(o, key, a->buf);
    free(a->buf);
    a->buf = NULL;
    a->len = 0;
}

char *mb_jobj_take(struct mb_jobj *o)
{
    char *text;
    append(o, "}", 1);
    text = o->buf;
    memset(o, 0, sizeof *o);
    return text;
}

void mb_jobj_str(struct mb_jobj *o, const char *k, const char *value)
{
    key(o, k);
    if (value)
        mb_json_quote(o, value);
    else
        append(o, "null", 4);
}

void mb_jobj_int(struct mb_jobj *o, const char *k, long long value)
{
    key(o, k);
    appendf(o, "%lld", value);
}

void mb_jobj_num(struct mb_jobj *o, const char *k, double value)
{
    key(o, k);
    if (isfinite(value))
        appendf(o, "%.17g", value);
    else
        append(o, "null", 4);
}

void mb_jobj_bool(struct mb_jobj *o, const char *k, int value)
{
    key(o, k);
    append(o, value ? "true" : "false", value ? 4 : 5);
}

void mb_jobj_null(struct mb_jobj *o, const char *k)
{
    key(o, k);
    append(o, "null", 4);
}

void mb_jobj_raw(struct mb_jobj *o, const char *k, const char *json)
{
    key(o, k);
    append(o, json, strlen(json));
}

void mb_jarray_ints(struct mb_jobj *o, const char *k, const int *v, size_t n)
{
    key(o, k);
    append(o, "[", 1);
    for (size_t i = 0; i < n; i++)
        appendf(o, i ? ",%d" : "%d", v[i]);
    append(o, "]", 1);
}

void mb_jarray_nums(struct mb_jobj *o, const char *k, const double *v, size_t n, size_t stride,
                    double scale)
{
    key(o, k);
    append(o, "[", 1);
    for (size_t i = 0; i < n; i++) {
        const double x = v[i * stride] * scale;
        if (i)
            append(o, ",", 1);
        if (isfinite(x))
            appendf(o, "%.17g", x);
        else
            append(o, "null", 4);
    }
    append(o, "]", 1);
}

void mb_jobj_write(struct mb_jobj *o, const struct mb_sink *s)
{
    append(o, "}\n", 2);
    if (s)
        mb_sink_write(s->f, s->name, o->buf, o->len);
    free(o->buf);
    memset(o, 0, sizeof *o);
}
