/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/compare.h"

#include "core/report_text.h"
#include "results/record_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One comparable number of a record: what it is (the key: suite, benchmark, mode, process
 * count, size), its value, and the spread the run itself saw around it (lo..hi; equal to
 * the value when the record has none). Provenance (header records: dates, hosts, versions)
 * is never compared. */
struct measure {
    char key[200];
    const char *unit;
    double value, lo, hi;
    int higher_better;
};

/* index: key -> position in m (a jansson object as a hash table), so that extracting and
 * pairing are linear in the number of measurements, not quadratic. */
struct measures {
    struct measure *m;
    size_t n, cap;
    json_t *index;
};

static struct measure *push(struct measures *ms)
{
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 256;
        ms->m = mb_rs_alloc(ms->m, ms->cap, sizeof *ms->m);
    }
    memset(&ms->m[ms->n], 0, sizeof ms->m[0]);
    return &ms->m[ms->n++];
}

static void add(struct measures *ms, const char *key, const char *unit, double v, double lo,
                double hi, int higher_better)
{
    struct measure *m;

    if (!isfinite(v))
        return;
    m = push(ms);
    snprintf(m->key, sizeof m->key, "%s", key);
    if (json_object_get(ms->index, m->key)) { /* a key measured twice: the first one counts */
        ms->n--;
        return;
    }
    mb_rs_index_set(ms->index, m->key, (long long)(ms->n - 1));
    m->unit = unit;
    m->value = v;
    m->lo = isfinite(lo) ? fmin(lo, v) : v;
    m->hi = isfinite(hi) ? fmax(hi, v) : v;
    m->higher_better = higher_better;
}

/* The record's numbers as the table describes them (results/record_types.c): one measurement
 * per figure whose conditions hold, named by the figure, the record's name and its place. */
static void figure(struct measures *ms, const json_t *o, const struct mb_record_type *t,
                   const struct mb_rt_figure *f)
{
    const double scale = f->scale != 0 ? f->scale : 1;
    double v = mb_rec_num(o, f->field), lo = NAN, hi = NAN;
    char k[200];

    if (!isfinite(v) && f->field_else)
        v = mb_rec_num(o, f->field_else);
    snprintf(k, sizeof k, "%s", f->name ? f->name : "");
    mb_rt_text(k, sizeof k, o, t->name);
    mb_rt_text(k, sizeof k, o, t->at);
    if (f->per) {
        /* Samples of the field per, in its unit: scaled to the figure by figure / per. */
        const json_t *s = json_object_get(o, f->samples);
        const double t_per = mb_rec_num(o, f->per);
        const double k_per = isfinite(v) && t_per > 0 ? v / t_per : scale;
        for (size_t j = 0; j < json_array_size(s); j++) {
            const double x = json_number_value(json_array_get(s, j));
            lo = j ? fmin(lo, x) : x;
            hi = j ? fmax(hi, x) : x;
        }
        add(ms, k, f->unit, t_per * k_per, lo * k_per, hi * k_per, f->better == MB_RT_HIGHER);
        return;
    }
    if (f->lo)
        lo = mb_rec_num(o, f->lo) * scale;
    if (f->hi)
        hi = mb_rec_num(o, f->hi) * scale;
    add(ms, k, f->unit, v * scale, lo, hi, f->better == MB_RT_HIGHER);
}

static void extract(const struct mb_records *r, struct measures *ms)
{
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const struct mb_record_type *t = mb_rt_of(o);

        for (int f = 0; t && f < MB_RT_FIGURES && t->figures[f].field; f++)
            if (mb_rt_holds(o, t->figures[f].when))
                figure(ms, o, t, &t->figures[f]);
    }
}

/* Benchmark names, modes and file names come from the files: printed with control characters
 * shown as \xNN (core/report_text.h), so that an escape sequence in a results file cannot
 * retitle or recolour the terminal. */
struct pair {
    const struct measure *b, *c;
    double ratio; /* > 1: the new run is worse (time up, bandwidth down) */
    int verdict;  /* 2 regressed, 1 worse within spread, -1 improved, 0 within threshold */
};

static int by_ratio(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->ratio != y->ratio)
        return x->ratio < y->ratio ? 1 : -1;
    return strcmp(x->b->key, y->b->key);
}

/* The suites and process counts a file holds, for the "nothing matches" message. */
static void describe(const struct measures *ms, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ms->n && i < 3 && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", ms->m[i].key);
    if (ms->n > 3 && used + 1 < len)
        snprintf(buf + used, len - used, ", ...");
}

int mb_compare(const struct mb_records *base, const struct mb_records *cur, double threshold_pct,
               FILE *out, char *msg, size_t len)
{
    struct measures b = {NULL, 0, 0, json_object()}, c = {NULL, 0, 0, json_object()};
    struct pair *p;
    size_t np = 0, regressed = 0, improved = 0, within = 0;
    const double limit = 1 + threshold_pct / 100;
    int status;

    extract(base, &b);
    extract(cur, &c);
    p = mb_rs_alloc(NULL, b.n + 1, sizeof *p);
    for (size_t i = 0; i < b.n; i++) {
        const json_t *j = json_object_get(c.index, b.m[i].key);
        if (j) {
            struct pair *q = &p[np++];
            const struct measure *x = &b.m[i], *y = &c.m[json_integer_value(j)];
            /* beyond spread: the new run's whole range lies on the worse side of the
             * base run's range */
            const int beyond = x->higher_better ? y->hi < x->lo : y->lo > x->hi;
            const int better = x->higher_better ? y->lo > x->hi : y->hi < x->lo;
            q->b = x;
            q->c = y;
            q->ratio = x->higher_better ? x->value / y->value : y->value / x->value;
            if (!isfinite(q->ratio))
                q->ratio = x->value == y->value ? 1 : HUGE_VAL;
            q->verdict = q->ratio > limit                 ? (beyond ? 2 : 1)
                         : q->ratio * limit < 1 && better ? -1
                                                          : 0;
            regressed += q->verdict == 2;
            within += q->verdict == 1;
            improved += q->verdict == -1;
        }
    }
    if (np == 0) {
        char db[120], dc[120];
        describe(&b, db, sizeof db);
        describe(&c, dc, sizeof dc);
        if (b.n == 0 || c.n == 0)
            snprintf(msg, len, "'%s' holds no results to compare",
                     b.n == 0 ? base->path : cur->path);
        else
            snprintf(msg, len,
                     "no measurement of '%s' matches one of '%s' (%s vs %s): compare runs of the "
                     "same benchmarks, sizes and process counts",
                     base->path, cur->path, db, dc);
        status = 2;
    } else {
        qsort(p, np, sizeof *p, by_ratio);
        mb_fprintf_escaped(out, "# mpibench compare: base '%s', new '%s'\n", base->path, cur->path);
        mb_fprintf_escaped(
            out,
            "# %zu measurements in both (%zu only in base, %zu only in new); ratio > 1: "
            "the new run is worse\n",
            np, b.n - np, c.n - np);
        mb_fprintf_escaped(
            out,
            "# threshold %g %%; REGRESSED = worse beyond the threshold and beyond the "
            "spread both runs saw (min..max)\n",
            threshold_pct);
        mb_fprintf_escaped(out, "%9s %14s %14s %-5s %-20s %s\n", "ratio", "base", "new", "unit",
                           "verdict", "measurement");
        for (size_t i = 0; i < np; i++) {
            static const char *const v[] = {"improved", "", "worse, in spread", "REGRESSED"};
            mb_fprintf_escaped(out, "%9.3f %14.4g %14.4g %-5s %-20s %s\n", p[i].ratio,
                               p[i].b->value, p[i].c->value, p[i].b->unit, v[p[i].verdict + 1],
                               p[i].b->key);
        }
        mb_fprintf_escaped(out, "# %zu regressed, %zu worse within the spread, %zu improved\n",
                           regressed, within, improved);
        status = regressed ? 1 : 0;
    }
    free(p);
    free(b.m);
    free(c.m);
    json_decref(b.index);
    json_decref(c.index);
    return status;
}
