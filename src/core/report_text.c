#include "core/report_text.h"

#include "core/error.h"
#include "core/sink.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void mb_printf(const struct mb_out *out, const char *fmt, ...)
{
    for (int i = 0; i < out->n; i++) {
        va_list ap;
        int rc;
        va_start(ap, fmt);
        rc = vfprintf(out->f[i], fmt, ap);
        va_end(ap);
        if (rc < 0) {
            const int e = errno;
            mb_die("cannot write %s: %s", out->name[i] ? out->name[i] : "an output file",
                   strerror(e));
        }
    }
}

void mb_flush(const struct mb_out *out)
{
    for (int i = 0; i < out->n; i++)
        mb_sink_flush(out->f[i], out->name[i]);
}
