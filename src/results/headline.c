/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/headline.h"

#include "results/record_types.h"

#include <math.h>
#include <string.h>

/* Whether o's value v replaces the headline chosen so far (best: the integer it was chosen
 * by). */
static int better(const struct mb_rt_headline *d, const struct mb_headline *h, long long best,
                  const json_t *o, double v)
{
    switch (d->pick) {
    case MB_RT_LAST:
        return 1;
    case MB_RT_LEAST_BY:
        return !h->present || mb_rec_int(o, d->by, 0) < best;
    case MB_RT_MOST_BY:
        return !h->present || mb_rec_int(o, d->by, 0) > best;
    case MB_RT_LARGEST:
        return isfinite(v) && (!h->present || v > h->value);
    }
    return 0;
}

void mb_headlines(const struct mb_records *r, struct mb_headline_set *hl)
{
    const struct mb_rt_headline *def[MB_HL_MAX];
    const struct mb_record_type *owner[MB_HL_MAX];
    long long best[MB_HL_MAX] = {0};

    memset(hl, 0, sizeof *hl);
    for (size_t t = 0; t < mb_record_type_count; t++)
        for (int i = 0; i < MB_RT_HEADLINES && mb_record_types[t].headlines[i].label; i++) {
            if (hl->n == MB_HL_MAX)
                break;
            owner[hl->n] = &mb_record_types[t];
            def[hl->n] = &mb_record_types[t].headlines[i];
            hl->h[hl->n].label = def[hl->n]->label;
            hl->h[hl->n].unit = def[hl->n]->unit;
            hl->h[hl->n].key = def[hl->n]->key;
            hl->n++;
        }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const struct mb_record_type *t = mb_rt_of(o);

        for (size_t k = 0; t && k < hl->n; k++) {
            const struct mb_rt_headline *d = def[k];
            struct mb_headline *h = &hl->h[k];
            const double v = mb_rec_num(o, d->field);

            if (t != owner[k] || !mb_rt_holds(o, d->when))
                continue;
            /* A record that says why it holds no value: kept unless a value turns up. */
            if (d->absent && !isfinite(v)) {
                if (!h->present && mb_rec_str(o, d->absent))
                    snprintf(h->why, sizeof h->why, "not present: %s", mb_rec_str(o, d->absent));
                continue;
            }
            if (!better(d, h, best[k], o, v))
                continue;
            h->present = 1;
            h->value = v;
            if (d->by)
                best[k] = mb_rec_int(o, d->by, 0);
            h->detail[0] = '\0';
            mb_rt_text(h->detail, sizeof h->detail, o, d->detail);
            for (int n = 0; n < 2 && d->notes[n].text; n++)
                if (mb_rt_holds_one(o, &d->notes[n].when))
                    strncat(h->detail, d->notes[n].text, sizeof h->detail - strlen(h->detail) - 1);
        }
    }
}

void mb_headline_line(const struct mb_headline *h, char *buf, size_t len)
{
    if (h->present)
        snprintf(buf, len, "  %-22s %12.2f %-10s (%s)\n", h->label, h->value, h->unit, h->detail);
    else
        snprintf(buf, len, "  %-22s %12s %-10s (%s)\n", h->label, "-", "",
                 h->why[0] ? h->why : "not measured");
}
