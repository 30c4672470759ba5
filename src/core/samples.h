/* SPDX-License-Identifier: BSD-3-Clause */
/* A row measured as K samples (--samples K, docs/adr/samples.md): the JSON fields that carry
 * the samples' spread, named from the figure's own field name F in this one place (F_median,
 * F_q1, F_q3, F_ci95_low, F_ci95_high, F_samples), so that a record type's figure
 * (results/record_types.c) and its spread cannot be renamed apart. docs/output.md and
 * docs/results.schema.json describe the fields. */
#ifndef MB_SAMPLES_H
#define MB_SAMPLES_H

#include "core/report_json.h"
#include "core/stats.h"

#include <stddef.h>

/* The suffixes of the spread fields of a figure F, in the order they are written. */
enum { MB_SPREAD_FIELDS = 5 };
extern const char *const mb_spread_suffix[MB_SPREAD_FIELDS]; /* "_median", "_q1", ... */
#define MB_SAMPLES_SUFFIX "_samples"

/* The name of F's spread field with the suffix (buf of len bytes; cut if too small). */
void mb_spread_field(char *buf, size_t len, const char *field, const char *suffix);

/* "sample_count": k (every row the timing module measured), and with k > 1 "ci95_coverage":
 * the exact coverage of the rows' [F_ci95_low, F_ci95_high] (below 0.95 for k <= 5, where no
 * 95 % interval of the median exists and the bounds are the smallest and largest sample). */
void mb_jobj_sample_count(struct mb_jobj *o, size_t k);

/* F: value; with k > 1 also F's spread over the k samples v[0], v[stride], ... times scale,
 * and with raw (--raw-samples) F_samples, the k values. */
void mb_jobj_figure(struct mb_jobj *o, const char *field, double value, const double *v, size_t k,
                    size_t stride, double scale, int raw);

/* The k samples v[0], v[stride], ... times scale: their spread (k == 0: all zero). */
struct mb_spread mb_spread_strided(const double *v, size_t k, size_t stride, double scale);

#endif
