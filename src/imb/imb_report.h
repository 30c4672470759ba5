/* SPDX-License-Identifier: BSD-3-Clause */
/* Printers of IMB result records: the text tables and the JSON record (imb_report.c). */
#ifndef MB_IMB_REPORT_H
#define MB_IMB_REPORT_H

#include "core/report_json.h"
#include "core/report_text.h"
#include "imb/imb_result.h"

#include <stdio.h>

/* "# Benchmarking" block header, group listing, mode and column header. */
void mb_imb_text_block(const struct mb_out *out, const struct mb_block *b);

/* One table row, flushed. */
void mb_imb_text_row(const struct mb_out *out, const struct mb_result *r);

/* The result row as one JSON record, with its block's description (rows are
 * self-contained). */
void mb_imb_json_row(const struct mb_sink *f, const struct mb_result *r);

#endif
