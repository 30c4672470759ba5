/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/report_text.h"

#include "core/error.h"
#include "core/sink.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Writes n bytes of text to every stream; a failure is a run-time error naming the stream. */
static void put(const struct mb_out *out, const char *text, size_t n)
{
    for (int i = 0; i < out->n; i++)
        if (n > 0 && fwrite(text, 1, n, out->f[i]) != n) {
            const int e = errno;
            mb_die("cannot write %s: %s", out->name[i] ? out->name[i] : "an output file",
                   strerror(e));
        }
}

/* fmt formatted into small (len bytes) or, when longer, into a new allocation; its length in
 * *n. */
static char *vformat(char *small, size_t len, size_t *n, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static char *vformat(char *small, size_t len, size_t *n, const char *fmt, va_list ap)
{
    va_list again;
    char *text = small;
    int got;

    va_copy(again, ap);
    got = vsnprintf(small, len, fmt, ap);
    if (got < 0)
        mb_die("cannot format output text");
    if ((size_t)got >= len) {
        text = mb_xmalloc((size_t)got + 1);
        vsnprintf(text, (size_t)got + 1, fmt, again);
    }
    va_end(again);
    *n = (size_t)got;
    return text;
}

void mb_escape_each(const char *text, size_t len,
                    void (*put_piece)(void *arg, const char *s, size_t n), void *arg)
{
    for (size_t start = 0, i = 0;; i++) {
        if (i == len) {
            put_piece(arg, text + start, i - start);
            break;
        }
        if (mb_is_control((unsigned char)text[i])) {
            char esc[5];
            put_piece(arg, text + start, i - start);
            snprintf(esc, sizeof esc, "\\x%02x", (unsigned char)text[i]);
            put_piece(arg, esc, 4);
            start = i + 1;
        }
    }
}

static void put_out(void *out, const char *s, size_t n)
{
    put(out, s, n);
}

/* Formats once, then writes to each stream. Control characters other than newline and tab -
 * which only a user's string (a file name, a benchmark name on the command line) can bring -
 * are shown as \xNN, as in messages on stderr: an escape sequence echoed in the header must
 * not reach the terminal or the text copy. */
static void escaped(void (*emit)(void *, const char *, size_t), void *arg, const char *fmt,
                    va_list ap) __attribute__((format(printf, 3, 0)));
static void escaped(void (*emit)(void *, const char *, size_t), void *arg, const char *fmt,
                    va_list ap)
{
    char small[1024], *text;
    size_t len;

    text = vformat(small, sizeof small, &len, fmt, ap);
    mb_escape_each(text, len, emit, arg);
    if (text != small)
        free(text);
}

void mb_printf(const struct mb_out *out, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    escaped(put_out, (void *)out, fmt, ap);
    va_end(ap);
}

static void put_file(void *f, const char *s, size_t n)
{
    if (n > 0)
        fwrite(s, 1, n, f);
}

void mb_fprintf_escaped(FILE *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    escaped(put_file, f, fmt, ap);
    va_end(ap);
}

void mb_flush(const struct mb_out *out)
{
    for (int i = 0; i < out->n; i++)
        mb_sink_flush(out->f[i], out->name[i]);
}

void mb_footer_line(const struct mb_out *out, long long rows, long long defects, double seconds,
                    unsigned long long peak_rss)
{
    mb_printf(out, "\n\n# mpibench: %lld rows", rows);
    if (defects >= 0)
        mb_printf(out, ", %lld defects", defects);
    mb_printf(out, ", %.1f s, peak memory per process %.1f MB\n", seconds,
              (double)peak_rss / 1048576.0);
    mb_flush(out);
}
