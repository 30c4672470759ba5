/* Text output of every suite: stdout (unless --quiet) and the --output-dir copy. */
#ifndef MB_REPORT_TEXT_H
#define MB_REPORT_TEXT_H

#include <stdio.h>

/* Where text goes: stdout (unless --quiet) and the --output-dir copy. Rank 0 only. */
struct mb_out {
    FILE *f[2];
    int n;
};

void mb_printf(const struct mb_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mb_flush(const struct mb_out *out);

#endif
