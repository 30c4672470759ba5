/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/compare.h"

#include "core/report_text.h"
#include "results/html.h"
#include "results/mwu.h"
#include "results/record_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One side of a measurement: the figure, and what the row says about its spread over K
 * samples (--samples K; "sample_count" absent in older files: one sample). */
struct side {
    double value;             /* the figure the suite prints (scaled to the unit) */
    long long k;              /* samples */
    double median, lo, hi;    /* the median and its 95 % interval, NAN without */
    size_t samples, nsamples; /* the raw samples: pool[samples .. samples + nsamples) */
};

/* One comparable number of a record: what it is (the key: suite, benchmark, mode, process
 * count, size) and its side. Provenance (header records: dates, hosts, versions) is never
 * compared. */
struct measure {
    char key[200];
    const char *unit;
    int higher_better;
    int file_io; /* judged by the file-I/O threshold */
    struct side s;
};

/* index: key -> position in m (a jansson object as a hash table), so that extracting and
 * pairing are linear in the number of measurements, not quadratic. */
struct measures {
    struct measure *m;
    size_t n, cap;
    json_t *index;
    double *pool; /* every row's raw samples */
    size_t npool, cappool;
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

/* The record's numbers as the table describes them (results/record_types.c): one measurement
 * per figure whose conditions hold, named by the figure, the record's name and its place. */
static void figure(struct measures *ms, const json_t *o, const struct mb_record_type *t,
                   const struct mb_rt_figure *f)
{
    /* A figure with samples of per is in its unit already (Presta's latency_usec); scale is that
     * of the samples' unit (seconds) then. */
    const double scale = f->per || f->scale == 0 ? 1 : f->scale;
    const char *field = f->field;
    double v = mb_rec_num(o, f->field);
    struct measure *m;
    char k[200];

    if (!isfinite(v) && f->field_else) {
        field = f->field_else;
        v = mb_rec_num(o, field);
    }
    if (!isfinite(v))
        return;
    snprintf(k, sizeof k, "%s", f->name ? f->name : "");
    mb_rt_text(k, sizeof k, o, t->name);
    mb_rt_text(k, sizeof k, o, t->at);
    if (json_object_get(ms->index, k)) /* a key measured twice: the first one counts */
        return;
    m = push(ms);
    snprintf(m->key, sizeof m->key, "%s", k);
    mb_rs_index_set(ms->index, m->key, (long long)(ms->n - 1));
    m->unit = f->unit;
    m->higher_better = f->better == MB_RT_HIGHER;
    m->file_io = mb_rt_file_io(o, t);
    m->s.value = v * scale;
    m->s.k = mb_rec_int(o, "sample_count", 1);
    m->s.median = m->s.lo = m->s.hi = NAN;
    if (m->s.k > 1) {
        char name[160];
        m->s.median = spread(o, field, "_median", scale);
        m->s.lo = spread(o, field, "_ci95_low", scale);
        m->s.hi = spread(o, field, "_ci95_high", scale);
        snprintf(name, sizeof name, "%s_samples", field);
        m->s.samples = ms->npool;
        m->s.nsamples = take_samples(ms, json_object_get(o, name), scale);
    }
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

enum test { T_SINGLE, T_CI, T_MWU };
enum verdict { V_UNCHANGED, V_REGRESSED, V_IMPROVED, V_NOT_COMPARABLE, V_ONLY_BASE, V_ONLY_NEW };
static const char *const verdict_name[] = {"unchanged",      "REGRESSED",    "improved",
                                           "not comparable", "only in base", "only in new"};
static const char *const verdict_json[] = {"unchanged",      "regressed",    "improved",
                                           "not_comparable", "only_in_base", "only_in_new"};
static const char *const test_json[] = {"single_sample", "ci_overlap", "mann_whitney_u"};

struct pair {
    const struct measure *b, *c; /* c NULL: only in base; b NULL: only in new */
    double vb, vc;               /* the point estimates compared (medians where both have) */
    double ratio, lo, hi;        /* > 1: the new run is worse; lo, hi: NAN without interval */
    enum test test;
    double p; /* the U test's p-value, else NAN */
    int exact, significant;
    enum verdict verdict;
};

struct mb_comparison {
    char *base_path, *new_path;
    struct mb_compare_opts opts;
    struct measures b, c;
    struct pair *p;
    size_t np, count[6];
};

/* The worse the change, the higher the ratio: time new/base, bandwidth base/new. */
static double worse_ratio(int higher_better, double base, double cur)
{
    const double r = higher_better ? base / cur : cur / base;
    if (isfinite(r) && r > 0)
        return r;
    return base == cur ? 1 : NAN;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
    double *s = mb_rs_alloc(NULL, n, sizeof *s), m;

    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, by_double);
    m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

static void decide(struct mb_comparison *cmp, struct pair *q)
{
    const struct measure *x = q->b, *y = q->c;
    const int hb = x->higher_better;
    const double pct = x->file_io ? cmp->opts.io_threshold_pct : cmp->opts.threshold_pct;
    const double limit = 1 + pct / 100, noise = 1 + cmp->opts.noise_pct / 100;
    const int both_ci = x->s.k > 1 && y->s.k > 1 && isfinite(x->s.lo) && isfinite(x->s.hi) &&
                        isfinite(y->s.lo) && isfinite(y->s.hi);
    const double *xs = cmp->b.pool + x->s.samples, *ys = cmp->c.pool + y->s.samples;

    q->vb = x->s.value;
    q->vc = y->s.value;
    q->lo = q->hi = q->p = NAN;
    if (x->s.nsamples && y->s.nsamples) {
        const struct mb_mwu u = mb_mwu_test(xs, x->s.nsamples, ys, y->s.nsamples);
        q->test = T_MWU;
        q->p = u.p;
        q->exact = u.exact;
        q->significant = u.p < MB_COMPARE_ALPHA;
        q->vb = isfinite(x->s.median) ? x->s.median : median_of(xs, x->s.nsamples);
        q->vc = isfinite(y->s.median) ? y->s.median : median_of(ys, y->s.nsamples);
    } else if (both_ci) {
        q->test = T_CI;
        q->significant = x->s.hi < y->s.lo || y->s.hi < x->s.lo;
    } else {
        q->test = T_SINGLE;
    }
    if (q->test != T_SINGLE && isfinite(x->s.median) && isfinite(y->s.median)) {
        q->vb = x->s.median;
        q->vc = y->s.median;
    }
    q->ratio = worse_ratio(hb, q->vb, q->vc);
    if (both_ci && x->s.lo > 0 && y->s.lo > 0) {
        /* The quotient of the two intervals: at least 90 % coverage when each holds its 95 %. */
        q->lo = hb ? x->s.lo / y->s.hi : y->s.lo / x->s.hi;
        q->hi = hb ? x->s.hi / y->s.lo : y->s.hi / x->s.lo;
    }
    if (q->test == T_SINGLE)
        q->significant = isfinite(q->ratio) && (q->ratio > noise || q->ratio * noise < 1);
    if (!isfinite(q->ratio))
        q->verdict = V_NOT_COMPARABLE;
    else if (q->significant && q->ratio > limit)
        q->verdict = V_REGRESSED;
    else if (q->significant && q->ratio * limit < 1)
        q->verdict = V_IMPROVED;
    else
        q->verdict = V_UNCHANGED;
}

/* Worst first; pairs without a ratio (one side only, not comparable) after all others, in
 * the order of the files. */
static int by_ratio(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    const int fx = isfinite(x->ratio), fy = isfinite(y->ratio);

    if (fx != fy)
        return fy - fx;
    if (fx && x->ratio != y->ratio)
        return x->ratio < y->ratio ? 1 : -1;
    return 0;
}

/* Stable: qsort is not, so the file order is the last key. */
static int by_ratio_stable(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    const int r = by_ratio(a, b);
    const void *px = x->b ? (const void *)x->b : (const void *)x->c;
    const void *py = y->b ? (const void *)y->b : (const void *)y->c;

    if (r)
        return r;
    if (!x->b != !y->b) /* only in base before only in new */
        return x->b ? -1 : 1;
    return (px > py) - (px < py);
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

void mb_compare_free(struct mb_comparison *c)
{
    if (!c)
        return;
    free(c->p);
    free(c->b.m);
    free(c->c.m);
    free(c->b.pool);
    free(c->c.pool);
    json_decref(c->b.index);
    json_decref(c->c.index);
    free(c->base_path);
    free(c->new_path);
    free(c);
}

struct mb_comparison *mb_compare_build(const struct mb_records *base, const struct mb_records *cur,
                                       const struct mb_compare_opts *opts, char *msg, size_t len)
{
    struct mb_comparison *c = mb_rs_alloc(NULL, 1, sizeof *c);
    size_t both = 0;

    memset(c, 0, sizeof *c);
    c->opts = *opts;
    c->base_path = mb_rs_strdup(base->path ? base->path : "");
    c->new_path = mb_rs_strdup(cur->path ? cur->path : "");
    c->b.index = json_object();
    c->c.index = json_object();
    extract(base, &c->b);
    extract(cur, &c->c);
    c->p = mb_rs_alloc(NULL, c->b.n + c->c.n + 1, sizeof *c->p);
    for (size_t i = 0; i < c->b.n; i++) {
        const json_t *j = json_object_get(c->c.index, c->b.m[i].key);
        struct pair *q = &c->p[c->np++];

        memset(q, 0, sizeof *q);
        q->b = &c->b.m[i];
        q->ratio = q->lo = q->hi = q->p = NAN;
        if (j) {
            q->c = &c->c.m[json_integer_value(j)];
            decide(c, q);
            both++;
        } else {
            q->verdict = V_ONLY_BASE;
        }
        c->count[q->verdict]++;
    }
    for (size_t i = 0; i < c->c.n; i++) {
        if (json_object_get(c->b.index, c->c.m[i].key))
            continue;
        struct pair *q = &c->p[c->np++];
        memset(q, 0, sizeof *q);
        q->c = &c->c.m[i];
        q->ratio = q->lo = q->hi = q->p = NAN;
        q->verdict = V_ONLY_NEW;
        c->count[q->verdict]++;
    }
    if (both == 0) {
        char db[120], dc[120];
        describe(&c->b, db, sizeof db);
        describe(&c->c, dc, sizeof dc);
        if (c->b.n == 0 || c->c.n == 0)
            snprintf(msg, len, "'%s' holds no results to compare",
                     c->b.n == 0 ? c->base_path : c->new_path);
        else
            snprintf(msg, len,
                     "no measurement of '%s' matches one of '%s' (%s vs %s): compare runs of the "
                     "same benchmarks, sizes and process counts",
                     c->base_path, c->new_path, db, dc);
        mb_compare_free(c);
        return NULL;
    }
    qsort(c->p, c->np, sizeof *c->p, by_ratio_stable);
    return c;
}

int mb_compare_status(const struct mb_comparison *c)
{
    return c->count[V_REGRESSED] ? 1 : 0;
}

static const char *key_of(const struct pair *q)
{
    return q->b ? q->b->key : q->c->key;
}

static size_t compared(const struct mb_comparison *c)
{
    return c->count[V_UNCHANGED] + c->count[V_REGRESSED] + c->count[V_IMPROVED];
}

static size_t not_comparable(const struct mb_comparison *c)
{
    return c->count[V_NOT_COMPARABLE] + c->count[V_ONLY_BASE] + c->count[V_ONLY_NEW];
}

/* "U p=0.003", "CI", "1 sample" */
static void test_text(const struct pair *q, char *buf, size_t len)
{
    if (!q->b || !q->c)
        snprintf(buf, len, "-");
    else if (q->test == T_MWU)
        snprintf(buf, len, "U p=%.2g%s", q->p, q->exact ? "" : "~");
    else if (q->test == T_CI)
        snprintf(buf, len, "CI %s", q->significant ? "apart" : "overlap");
    else
        snprintf(buf, len, "1 sample");
}

static void interval_text(const struct pair *q, char *buf, size_t len)
{
    if (isfinite(q->lo) && isfinite(q->hi))
        snprintf(buf, len, "[%.3f, %.3f]", q->lo, q->hi);
    else
        snprintf(buf, len, "-");
}

static int shown(const struct mb_comparison *c, const struct pair *q)
{
    return c->opts.all || q->verdict == V_REGRESSED || q->verdict == V_IMPROVED ||
           q->verdict >= V_NOT_COMPARABLE;
}

static void summary_text(const struct mb_comparison *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%zu compared: %zu regressed, %zu improved, %zu unchanged; %zu not comparable (%zu "
             "only in base, %zu only in new, %zu without a ratio)",
             compared(c), c->count[V_REGRESSED], c->count[V_IMPROVED], c->count[V_UNCHANGED],
             not_comparable(c), c->count[V_ONLY_BASE], c->count[V_ONLY_NEW],
             c->count[V_NOT_COMPARABLE]);
}

/* Benchmark names, modes and file names come from the files: printed with control characters
 * shown as \xNN (core/report_text.h), so that an escape sequence in a results file cannot
 * retitle or recolour the terminal. */
void mb_compare_text(const struct mb_comparison *c, FILE *out)
{
    size_t hidden = 0;
    char sum[300];

    mb_fprintf_escaped(out, "# mpibench compare: base '%s', new '%s'\n", c->base_path, c->new_path);
    mb_fprintf_escaped(out,
                       "# a change counts when it is significant (Mann-Whitney U test, two-sided, "
                       "alpha %g, where both rows carry their samples; else disjoint 95 %% "
                       "intervals of the median; else, for single samples, beyond the noise "
                       "band of %g %%) and worse or better than the threshold of %g %% (file "
                       "I/O: %g %%)\n",
                       MB_COMPARE_ALPHA, c->opts.noise_pct, c->opts.threshold_pct,
                       c->opts.io_threshold_pct);
    mb_fprintf_escaped(out,
                       "# ratio > 1: the new run is worse (time new/base, bandwidth base/new); "
                       "values are medians where both rows have them\n");
    mb_fprintf_escaped(out, "%9s %-17s %12s %12s %-5s %-14s %-13s %s\n", "ratio", "interval",
                       "base", "new", "unit", "verdict", "test", "measurement");
    for (size_t i = 0; i < c->np; i++) {
        const struct pair *q = &c->p[i];
        const struct measure *m = q->b ? q->b : q->c;
        char test[40], iv[40], rb[16], vb[24], vc[24];

        if (!shown(c, q)) {
            hidden++;
            continue;
        }
        test_text(q, test, sizeof test);
        interval_text(q, iv, sizeof iv);
        snprintf(rb, sizeof rb, isfinite(q->ratio) ? "%.3f" : "-", q->ratio);
        snprintf(vb, sizeof vb, q->b ? "%.4g" : "-", q->b ? q->vb : 0.0);
        snprintf(vc, sizeof vc, q->c ? "%.4g" : "-", q->c ? q->vc : 0.0);
        if (!q->c)
            snprintf(vb, sizeof vb, "%.4g", q->b->s.value);
        if (!q->b)
            snprintf(vc, sizeof vc, "%.4g", q->c->s.value);
        mb_fprintf_escaped(out, "%9s %-17s %12s %12s %-5s %-14s %-13s %s\n", rb, iv, vb, vc,
                           m->unit, verdict_name[q->verdict], test, key_of(q));
    }
    if (hidden)
        mb_fprintf_escaped(out, "# %zu unchanged rows not shown (--all shows them)\n", hidden);
    summary_text(c, sum, sizeof sum);
    mb_fprintf_escaped(out, "# %s\n", sum);
}

/* A string for jansson: the key's bytes, those outside printable ASCII as '?' (a name cut at
 * its buffer's end may end inside a UTF-8 sequence, which jansson refuses). */
static json_t *jstr(const char *s)
{
    char buf[256];
    size_t i = 0;

    for (; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct side *s, double compared_value)
{
    json_t *o = json_object();

    json_object_set_new(o, "value", jnum(s->value));
    json_object_set_new(o, "compared", jnum(compared_value));
    json_object_set_new(o, "sample_count", json_integer(s->k));
    json_object_set_new(o, "median", jnum(s->median));
    json_object_set_new(o, "ci95_low", jnum(s->lo));
    json_object_set_new(o, "ci95_high", jnum(s->hi));
    json_object_set_new(o, "raw_samples", json_integer((json_int_t)s->nsamples));
    return o;
}

static void emit(FILE *out, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (s)
        fprintf(out, "%s\n", s);
    free(s);
    json_decref(o);
}

void mb_compare_json(const struct mb_comparison *c, FILE *out)
{
    json_t *s;
    char sum[300];

    for (size_t i = 0; i < c->np; i++) {
        const struct pair *q = &c->p[i];
        const struct measure *m = q->b ? q->b : q->c;
        json_t *o = json_object();

        json_object_set_new(o, "type", json_string("compare_row"));
        json_object_set_new(o, "measurement", jstr(key_of(q)));
        json_object_set_new(o, "unit", jstr(m->unit));
        json_object_set_new(o, "better", json_string(m->higher_better ? "higher" : "lower"));
        json_object_set_new(o, "file_io", json_boolean(m->file_io));
        json_object_set_new(o, "verdict", json_string(verdict_json[q->verdict]));
        json_object_set_new(o, "base",
                            q->b ? side_json(&q->b->s, q->c ? q->vb : NAN) : json_null());
        json_object_set_new(o, "new", q->c ? side_json(&q->c->s, q->b ? q->vc : NAN) : json_null());
        json_object_set_new(o, "ratio", jnum(q->ratio));
        json_object_set_new(o, "ratio_low", jnum(q->lo));
        json_object_set_new(o, "ratio_high", jnum(q->hi));
        json_object_set_new(o, "test",
                            q->b && q->c ? json_string(test_json[q->test]) : json_null());
        json_object_set_new(o, "p_value", jnum(q->p));
        json_object_set_new(
            o, "exact", q->test == T_MWU && q->b && q->c ? json_boolean(q->exact) : json_null());
        json_object_set_new(o, "significant",
                            q->b && q->c && isfinite(q->ratio) ? json_boolean(q->significant)
                                                               : json_null());
        emit(out, o);
    }
    summary_text(c, sum, sizeof sum);
    s = json_object();
    json_object_set_new(s, "type", json_string("compare_summary"));
    json_object_set_new(s, "base", jstr(c->base_path));
    json_object_set_new(s, "new", jstr(c->new_path));
    json_object_set_new(s, "threshold_percent", json_real(c->opts.threshold_pct));
    json_object_set_new(s, "io_threshold_percent", json_real(c->opts.io_threshold_pct));
    json_object_set_new(s, "noise_percent", json_real(c->opts.noise_pct));
    json_object_set_new(s, "alpha", json_real(MB_COMPARE_ALPHA));
    json_object_set_new(s, "compared", json_integer((json_int_t)compared(c)));
    json_object_set_new(s, "regressed", json_integer((json_int_t)c->count[V_REGRESSED]));
    json_object_set_new(s, "improved", json_integer((json_int_t)c->count[V_IMPROVED]));
    json_object_set_new(s, "unchanged", json_integer((json_int_t)c->count[V_UNCHANGED]));
    json_object_set_new(s, "not_comparable", json_integer((json_int_t)not_comparable(c)));
    json_object_set_new(s, "only_in_base", json_integer((json_int_t)c->count[V_ONLY_BASE]));
    json_object_set_new(s, "only_in_new", json_integer((json_int_t)c->count[V_ONLY_NEW]));
    json_object_set_new(s, "exit_status", json_integer(mb_compare_status(c)));
    json_object_set_new(s, "text", jstr(sum));
    emit(out, s);
}

char *mb_compare_html(const struct mb_comparison *c)
{
    char *buf = NULL, sum[300];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f) {
        fprintf(stderr, "mpibench: out of memory (the comparison's page)\n");
        abort();
    }
    summary_text(c, sum, sizeof sum);
    fputs("<h2>Comparison</h2>\n<p>Base <code>", f);
    mb_html_text(f, c->base_path);
    fputs("</code>, new <code>", f);
    mb_html_text(f, c->new_path);
    fputs("</code>: ", f);
    mb_html_text(f, sum);
    fprintf(f,
            ". Ratio &gt; 1: the new run is worse; threshold %g %% (file I/O %g %%), noise band "
            "of single samples %g %%, U test at alpha %g.</p>\n",
            c->opts.threshold_pct, c->opts.io_threshold_pct, c->opts.noise_pct, MB_COMPARE_ALPHA);
    fputs("<table id=\"comparison\">\n<tr><th>ratio</th><th>interval</th><th>base</th>"
          "<th>new</th><th>unit</th><th>verdict</th><th>test</th><th>measurement</th></tr>\n",
          f);
    for (size_t i = 0; i < c->np; i++) {
        const struct pair *q = &c->p[i];
        const struct measure *m = q->b ? q->b : q->c;
        char test[40], iv[40];

        if (!shown(c, q))
            continue;
        test_text(q, test, sizeof test);
        interval_text(q, iv, sizeof iv);
        fputs("<tr><td class=\"num\">", f);
        if (isfinite(q->ratio))
            fprintf(f, "%.3f", q->ratio);
        fprintf(f, "</td><td>%s</td><td class=\"num\">", iv);
        if (q->b)
            fprintf(f, "%.4g", q->c ? q->vb : q->b->s.value);
        fputs("</td><td class=\"num\">", f);
        if (q->c)
            fprintf(f, "%.4g", q->b ? q->vc : q->c->s.value);
        fputs("</td><td>", f);
        mb_html_text(f, m->unit);
        fprintf(f, "</td><td>%s</td><td>", verdict_name[q->verdict]);
        mb_html_text(f, test);
        fputs("</td><td>", f);
        mb_html_text(f, key_of(q));
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    fclose(f);
    return buf;
}
