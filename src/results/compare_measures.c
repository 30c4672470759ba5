/* SPDX-License-Identifier: BSD-3-Clause */
/* The measurements of one results file, as the record types describe them
 * (results/record_types.c): compare knows fields, not benchmarks. */
#include "results/compare_internal.h"

#include "core/stats.h"
#include "results/record_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct measure *push(struct measures *ms)
{
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 256;
        ms->m = mb_rs_alloc(ms->m, ms->cap, sizeof *ms->m);
    }
    memset(&ms->m[ms->n], 0, sizeof ms->m[0]);
    return &ms->m[ms->n++];
}

static void pool_add(struct measures *ms, double x)
{
    if (ms->npool == ms->cappool) {
        ms->cappool = ms->cappool ? 2 * ms->cappool : 1024;
        ms->pool = mb_rs_alloc(ms->pool, ms->cappool, sizeof *ms->pool);
    }
    ms->pool[ms->npool++] = x;
}

/* The samples of an array (times scale) into the pool: their count, 0 unless every one is a
 * finite number (a row with a bad sample is compared as if it had none). */
static size_t take_samples(struct measures *ms, const json_t *a, double scale)
{
    const size_t from = ms->npool;

    for (size_t j = 0; j < json_array_size(a); j++) {
        const double x = json_number_value(json_array_get(a, j)) * scale;
        if (!json_is_number(json_array_get(a, j)) || !isfinite(x)) {
            ms->npool = from;
            return 0;
        }
        pool_add(ms, x);
    }
    return ms->npool - from;
}

/* F's spread field with the suffix (the contract of core/samples.h: F_median, F_ci95_low,
 * F_ci95_high, F_samples, in F's unit): read here, in one place, from the figure's own field
 * name, so that any record type measured as samples is compared by them. */
static double spread(const json_t *o, const char *field, const char *suffix, double scale)
{
    char name[160];
    snprintf(name, sizeof name, "%s%s", field, suffix);
    return mb_rec_num(o, name) * scale;
}

/* The samples' spread of a row measured as K > 1 samples; the interval's coverage is the row's
 * own "ci95_coverage" (below 0.95 for K <= 5, where the interval is min..max), or, in files
 * older than that field, the coverage of K samples' order statistics. */
static void spread_of(struct measures *ms, struct measure *m, const json_t *o, const char *field,
                      double scale)
{
    char name[160];

    m->s.median = spread(o, field, "_median", scale);
    m->s.lo = spread(o, field, "_ci95_low", scale);
    m->s.hi = spread(o, field, "_ci95_high", scale);
    m->s.coverage = mb_rec_num(o, "ci95_coverage");
    if (!isfinite(m->s.coverage))
        (void)mb_median_ci_rank((size_t)m->s.k, &m->s.coverage);
    snprintf(name, sizeof name, "%s_samples", field);
    m->s.samples = ms->npool;
    m->s.nsamples = take_samples(ms, json_object_get(o, name), scale);
}

/* The record's numbers as the table describes them: one measurement per figure whose
 * conditions hold, named by the figure, the record's name and its place. */
static void figure(struct measures *ms, const json_t *o, const struct mb_record_type *t,
                   const struct mb_rt_figure *f)
{
    /* A figure with samples of per is in its unit already (Presta's latency_usec); scale is that
     * of the samples' unit (seconds) then. */
    const double scale = f->per || f->scale == 0 ? 1 : f->scale;
    const char *field = f->field;
    double v = mb_rec_num(o, f->field);
    struct measure *m;
    char fam[160], k[200];

    if (!isfinite(v) && f->field_else) {
        field = f->field_else;
        v = mb_rec_num(o, field);
    }
    if (!isfinite(v))
        return;
    snprintf(fam, sizeof fam, "%s", f->name ? f->name : "");
    mb_rt_text(fam, sizeof fam, o, t->name);
    snprintf(k, sizeof k, "%s", fam);
    mb_rt_text(k, sizeof k, o, t->at);
    if (json_object_get(ms->index, k)) /* a key measured twice: the first one counts */
        return;
    m = push(ms);
    snprintf(m->key, sizeof m->key, "%s", k);
    snprintf(m->family, sizeof m->family, "%s", fam);
    mb_rs_index_set(ms->index, m->key, (long long)(ms->n - 1));
    m->unit = f->unit;
    m->higher_better = f->better == MB_RT_HIGHER;
    m->file_io = mb_rt_file_io(o, t);
    m->bytes = NAN;
    for (int i = 0; i < MB_RT_PARTS && t->at[i].kind; i++)
        if (t->at[i].field && strcmp(t->at[i].field, "bytes") == 0)
            m->bytes = mb_rec_num(o, "bytes"); /* a size the row is at, not a volume moved */
    m->s.value = v * scale;
    m->s.k = mb_rec_int(o, "sample_count", 1);
    m->s.median = m->s.lo = m->s.hi = m->s.coverage = NAN;
    if (m->s.k > 1)
        spread_of(ms, m, o, field, scale);
    if (m->s.nsamples == 0 && f->per) {
        /* Samples of the field per, in its unit (Presta: seconds per measurement), scaled
         * to the figure as figure / per. */
        const double t_per = mb_rec_num(o, f->per);
        m->s.samples = ms->npool;
        if (t_per > 0)
            m->s.nsamples = take_samples(ms, json_object_get(o, f->samples), m->s.value / t_per);
    }
    if (m->s.nsamples < 2)
        m->s.nsamples = 0;
}

void mb_cmp_extract(const struct mb_records *r, struct measures *ms)
{
    memset(ms, 0, sizeof *ms);
    ms->index = json_object();
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const struct mb_record_type *t = mb_rt_of(o);

        for (int f = 0; t && f < MB_RT_FIGURES && t->figures[f].field; f++)
            if (mb_rt_holds(o, t->figures[f].when))
                figure(ms, o, t, &t->figures[f]);
    }
}

void mb_cmp_measures_free(struct measures *ms)
{
    free(ms->m);
    free(ms->pool);
    json_decref(ms->index);
}

double mb_cmp_run_value(const struct measure *m)
{
    return m->s.k > 1 && isfinite(m->s.median) ? m->s.median : m->s.value;
}
