/* SPDX-License-Identifier: BSD-3-Clause */
/* Text output of every suite: stdout (unless --quiet) and the --output-dir copy. */
#ifndef MB_REPORT_TEXT_H
#define MB_REPORT_TEXT_H

#include <stdio.h>

/* Where text goes: stdout (unless --quiet) and the --output-dir copy. Rank 0 only. */
struct mb_out {
    FILE *f[2];
    int n;
    const char *name[2]; /* how write errors name f[i] (core/sink.h); NULL: "an output file" */
};

/* A failed write or flush is a run-time error naming the stream (core/sink.h). */
void mb_printf(const struct mb_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mb_flush(const struct mb_out *out);

/* mpibench's closing line after a suite's tables ("# mpibench: N rows, D defects, S s, peak
 * memory per process M MB"; defects < 0: no data check): IMB 3.1 prints nothing after its last
 * table (IMB_end_msg in IMB_g_info.c is empty), Intel IMB 2018+ and IMB-P2P "# All processes
 * entering MPI_Finalize"; this one comment line also marks a run that reached its end. */
void mb_footer_line(const struct mb_out *out, long long rows, long long defects, double seconds,
                    unsigned long long peak_rss);

/* The escaping of mb_printf: put_piece(arg, ...) receives text[0..len) in pieces, each control
 * character (core/error.h mb_is_control) replaced by its \xNN form. */
void mb_escape_each(const char *text, size_t len,
                    void (*put_piece)(void *arg, const char *s, size_t n), void *arg);

/* mb_printf to one stream that does not end the process on a failed write: the caller checks
 * the stream (core/sink.h mb_sink_check). For the tools, which run without MPI. */
void mb_fprintf_escaped(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
