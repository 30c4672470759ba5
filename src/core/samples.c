/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/samples.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>

const char *const mb_spread_suffix[MB_SPREAD_FIELDS] = {"_median", "_q1", "_q3", "_ci95_low",
                                                        "_ci95_high"};

void mb_spread_field(char *buf, size_t len, const char *field, const char *suffix)
{
    snprintf(buf, len, "%s%s", field, suffix);
}

void mb_jobj_sample_count(struct mb_jobj *o, size_t k)
{
    double coverage;

    mb_jobj_int(o, "sample_count", (long long)k);
    if (k > 1) {
        (void)mb_median_ci_rank(k, &coverage);
        mb_jobj_num(o, "ci95_coverage", coverage);
    }
}

struct mb_spread mb_spread_strided(const double *v, size_t k, size_t stride, double scale)
{
    double *x = mb_xmalloc((k ? k : 1) * sizeof *x);
    struct mb_spread s;

    for (size_t i = 0; i < k; i++)
        x[i] = v[i * stride] * scale;
    s = mb_spread_of(x, k);
    free(x);
    return s;
}

void mb_jobj_figure(struct mb_jobj *o, const char *field, double value, const double *v, size_t k,
                    size_t stride, double scale, int raw)
{
    char name[128];
    struct mb_spread s;

    mb_jobj_num(o, field, value);
    if (k <= 1)
        return;
    s = mb_spread_strided(v, k, stride, scale);
    {
        const double f[MB_SPREAD_FIELDS] = {s.median, s.q1, s.q3, s.ci_low, s.ci_high};
        for (int i = 0; i < MB_SPREAD_FIELDS; i++) {
            mb_spread_field(name, sizeof name, field, mb_spread_suffix[i]);
            mb_jobj_num(o, name, f[i]);
        }
    }
    if (raw) {
        mb_spread_field(name, sizeof name, field, MB_SAMPLES_SUFFIX);
        mb_jarray_nums(o, name, v, k, stride, scale);
    }
}
