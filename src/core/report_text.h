/* Text output: the IMB-style tables (IMB guide 6; layout per class as in IMB's
 * IMB_output.c: 13-character columns) and a tee to the --output-dir copy. */
#ifndef MB_REPORT_TEXT_H
#define MB_REPORT_TEXT_H

#include "core/result.h"

#include <stdio.h>

/* Where text goes: stdout (unless --quiet) and the --output-dir copy. Rank 0 only. */
struct mb_out {
    FILE *f[2];
    int n;
};

void mb_printf(const struct mb_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mb_flush(const struct mb_out *out);

/* "# Benchmarking" block header, group listing and column header. */
void mb_text_block(const struct mb_out *out, const struct mb_block *b);

/* One table row, flushed. */
void mb_text_row(const struct mb_out *out, const struct mb_result *r);

#endif
