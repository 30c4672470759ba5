#include "core/report_text.h"

#include <stdarg.h>
#include <string.h>

void mb_printf(const struct mb_out *out, const char *fmt, ...)
{
    for (int i = 0; i < out->n; i++) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(out->f[i], fmt, ap);
        va_end(ap);
    }
}

void mb_flush(const struct mb_out *out)
{
    for (int i = 0; i < out->n; i++)
        fflush(out->f[i]);
}
