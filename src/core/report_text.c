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

/* Formats once, then writes to each stream. Control characters other than newline and tab -
 * which only a user's string (a file name, a benchmark name on the command line) can bring -
 * are shown as \xNN, as in messages on stderr: an escape sequence echoed in the header must
 * not reach the terminal or the text copy. */
void mb_printf(const struct mb_out *out, const char *fmt, ...)
{
    char small[1024], *text = small;
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len < 0)
        mb_die("cannot format output text");
    if ((size_t)len >= sizeof small) {
        text = mb_xmalloc((size_t)len + 1);
        va_start(ap, fmt);
        vsnprintf(text, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    for (size_t start = 0, i = 0;; i++) {
        if (i == (size_t)len) {
            put(out, text + start, i - start);
            break;
        }
        if (mb_is_control((unsigned char)text[i])) {
            char esc[5];
            put(out, text + start, i - start);
            snprintf(esc, sizeof esc, "\\x%02x", (unsigned char)text[i]);
            put(out, esc, 4);
            start = i + 1;
        }
    }
    if (text != small)
        free(text);
}

void mb_flush(const struct mb_out *out)
{
    for (int i = 0; i < out->n; i++)
        mb_sink_flush(out->f[i], out->name[i]);
}
