/* SPDX-License-Identifier: BSD-3-Clause */
/* The decisions of mpibench compare (results/compare.h, docs/adr/compare-runs.md): every
 * measurement of both groups paired by its key, decided across runs (or, with one run a side,
 * on its samples within the runs), then summarised per family and over all families. */
#include "results/compare_internal.h"

#include "results/mwu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row's own samples within one run are tested only when both runs carry at least this many:
 * fewer give no 95 % interval of the median (its coverage is below 0.95 up to 5 samples) and
 * a U test of 5 against 5 decides on one arrangement in 126. */
enum { MIN_SAMPLES_WITHIN = 6 };

const char *const mb_cmp_verdict_text[MB_V_COUNT] = {"unchanged",  "REGRESSED",      "improved",
                                                     "uncertain",  "not comparable", "only in base",
                                                     "only in new"};
const char *const mb_cmp_verdict_json[MB_V_COUNT] = {"unchanged",  "regressed",      "improved",
                                                     "uncertain",  "not_comparable", "only_in_base",
                                                     "only_in_new"};

/* Logarithms oriented so that larger is worse: log time, -log bandwidth. */
static double oriented(int higher_better, double v)
{
    return higher_better ? -log(v) : log(v);
}

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

void mb_cmp_judge(struct mb_cmp_decision *d, double pct)
{
    const double limit = 1 + pct / 100;

    d->threshold_pct = pct;
    /* Beyond the threshold without reaching the test's level is no claim either way: not
     * "unchanged" (a family 20 times slower in 4 runs a side is not unchanged), not a
     * regression (it sets no status) - "uncertain": more runs would tell. */
    if (!isfinite(d->ratio))
        d->verdict = MB_V_NOT_COMPARABLE;
    else if (d->ratio > limit)
        d->verdict = d->significant ? MB_V_REGRESSED : MB_V_UNCERTAIN;
    else if (d->ratio * limit < 1)
        d->verdict = d->significant ? MB_V_IMPROVED : MB_V_UNCERTAIN;
    else
        d->verdict = MB_V_UNCHANGED;
}

/* Across runs, on oriented logs: x the base runs', y the new runs'. With one run a side there
 * is no test: the threshold alone decides (the band). */
static void across(struct mb_cmp_decision *d, const double *x, size_t nx, const double *y,
                   size_t ny, double pct)
{
    d->across = mb_across_runs(x, nx, y, ny, MB_COMPARE_ALPHA);
    d->ratio = exp(d->across.shift);
    d->lo = exp(d->across.lo);
    d->hi = exp(d->across.hi);
    d->coverage = d->across.coverage;
    d->p = d->across.p;
    d->level = MB_COMPARE_ALPHA;
    d->exact = d->across.exact;
    if (d->across.test == MB_ACROSS_NONE) {
        d->test = MB_CMP_BAND;
        d->significant = 1;
    } else {
        d->test = MB_CMP_RUNS;
        d->significant = d->p < MB_COMPARE_ALPHA;
    }
    mb_cmp_judge(d, pct);
}

static double threshold_of(const struct mb_comparison *c, int file_io)
{
    return file_io ? c->opts.io_threshold_pct : c->opts.threshold_pct;
}

/* One run a side: the best evidence both rows carry within their runs - their samples (a U
 * test), their intervals of the median (disjoint), or, for fewer than MIN_SAMPLES_WITHIN
 * samples, the noise band of single samples. */
static void decide_single(const struct mb_comparison *cmp, struct mb_cmp_row *q)
{
    const struct measure *x = q->b, *y = q->c;
    const struct side *sx = &x->s, *sy = &y->s;
    struct mb_cmp_decision *d = &q->d;
    const int hb = x->higher_better;
    const double noise = 1 + cmp->opts.noise_pct / 100;
    const int enough = sx->k >= MIN_SAMPLES_WITHIN && sy->k >= MIN_SAMPLES_WITHIN;
    const int both_ci = enough && isfinite(sx->lo) && isfinite(sx->hi) && isfinite(sy->lo) &&
                        isfinite(sy->hi) && sx->coverage >= 0.95 && sy->coverage >= 0.95;
    const double *xs = cmp->runs[0].pool + sx->samples, *ys = cmp->runs[1].pool + sy->samples;

    q->vb = sx->value;
    q->vc = sy->value;
    d->lo = d->hi = d->p = d->coverage = d->level = MB_COMPARE_ALPHA;
    if (enough && sx->nsamples >= MIN_SAMPLES_WITHIN && sy->nsamples >= MIN_SAMPLES_WITHIN) {
        const struct mb_mwu u = mb_mwu_test(xs, sx->nsamples, ys, sy->nsamples);
        d->test = MB_CMP_MWU;
        d->p = u.p;
        d->exact = u.exact;
        d->significant = u.p < MB_COMPARE_ALPHA;
        q->vb = isfinite(sx->median) ? sx->median : median_of(xs, sx->nsamples);
        q->vc = isfinite(sy->median) ? sy->median : median_of(ys, sy->nsamples);
    } else if (both_ci) {
        d->test = MB_CMP_CI;
        d->significant = sx->hi < sy->lo || sy->hi < sx->lo;
    } else {
        d->test = MB_CMP_SINGLE;
    }
    if (d->test != MB_CMP_SINGLE && isfinite(sx->median) && isfinite(sy->median)) {
        q->vb = sx->median;
        q->vc = sy->median;
    }
    d->ratio = worse_ratio(hb, q->vb, q->vc);
    if (both_ci && sx->lo > 0 && sy->lo > 0) {
        /* The quotient of the two intervals covers the ratio at least as often as both cover
         * their medians (Bonferroni): 1 - (1 - c_base) - (1 - c_new). */
        d->lo = hb ? sx->lo / sy->hi : sy->lo / sx->hi;
        d->hi = hb ? sx->hi / sy->lo : sy->hi / sx->lo;
        d->coverage = sx->coverage + sy->coverage - 1;
    }
    if (d->test == MB_CMP_SINGLE)
        d->significant = isfinite(d->ratio) && (d->ratio > noise || d->ratio * noise < 1);
    mb_cmp_judge(d, threshold_of(cmp, x->file_io));
}

/* Several runs on a side: each run's value is one sample. v: the base runs' values, then the
 * new runs'. A figure of 0 or below has no logarithm: unless every run printed the same
 * number, the row is not comparable. */
static void decide_runs(const struct mb_comparison *cmp, struct mb_cmp_row *q, const double *v)
{
    const size_t nb = cmp->nb, nc = cmp->nc;
    double *x = mb_rs_alloc(NULL, nb + nc, sizeof *x);
    int positive = 1, alike = 1;

    q->vb = median_of(v, nb);
    q->vc = median_of(v + nb, nc);
    for (size_t i = 0; i < nb + nc; i++) {
        positive &= v[i] > 0;
        alike &= v[i] == v[0];
        x[i] = oriented(q->m->higher_better, v[i]);
    }
    if (positive) {
        across(&q->d, x, nb, x + nb, nc, threshold_of(cmp, q->m->file_io));
    } else if (alike) {
        /* Every run printed the same number (a 0 of a figure too small for its digits): no
         * test, nothing changed ("all alike"). */
        q->d.test = MB_CMP_RUNS;
        q->d.ratio = 1;
        q->d.lo = q->d.hi = q->d.coverage = q->d.p = NAN;
        mb_cmp_judge(&q->d, threshold_of(cmp, q->m->file_io));
    } else {
        q->d.ratio = q->d.lo = q->d.hi = q->d.p = q->d.coverage = NAN;
        q->d.verdict = MB_V_NOT_COMPARABLE;
        snprintf(q->why, sizeof q->why, "a figure of 0 or below in some runs");
    }
    free(x);
}

/* Worst first; rows without a ratio (one group only, not comparable) after all others, in the
 * order of the files; stable (qsort is not: the position is the last key). */
static int by_ratio(const void *a, const void *b)
{
    const struct mb_cmp_row *x = a, *y = b;
    const int fx = isfinite(x->d.ratio), fy = isfinite(y->d.ratio);

    if (fx != fy)
        return fy - fx;
    if (fx && x->d.ratio != y->d.ratio)
        return x->d.ratio < y->d.ratio ? 1 : -1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The keys a group's first run holds, for the "nothing matches" message. */
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
    for (size_t i = 0; c->runs && i < c->nb + c->nc; i++)
        mb_cmp_measures_free(&c->runs[i]);
    for (size_t i = 0; i < c->nb; i++)
        free(c->base_paths[i]);
    for (size_t i = 0; i < c->nc; i++)
        free(c->new_paths[i]);
    for (size_t i = 0; i < c->nfam; i++)
        free(c->fam[i].g);
    free(c->fam);
    free(c->base_paths);
    free(c->new_paths);
    free(c->runs);
    free(c->row);
    free(c);
}

/* Rows: every key of every run, the values of each run (NAN where a run lacks it). */
struct table {
    json_t *index;
    double *v; /* nrow x runs */
    size_t cap;
};

static size_t row_of(struct mb_comparison *c, struct table *t, const struct measure *m)
{
    const size_t runs = c->nb + c->nc;
    const json_t *j = json_object_get(t->index, m->key);
    size_t i;

    if (j)
        return (size_t)json_integer_value(j);
    if (c->nrow == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        c->row = mb_rs_alloc(c->row, t->cap, sizeof *c->row);
        t->v = mb_rs_alloc(t->v, t->cap * runs, sizeof *t->v);
    }
    i = c->nrow++;
    memset(&c->row[i], 0, sizeof c->row[i]);
    c->row[i].m = m;
    c->row[i].seq = i;
    c->row[i].family = -1;
    c->row[i].d.ratio = c->row[i].d.lo = c->row[i].d.hi = c->row[i].d.p = NAN;
    c->row[i].d.coverage = NAN;
    c->row[i].d.level = MB_COMPARE_ALPHA;
    for (size_t r = 0; r < runs; r++)
        t->v[i * runs + r] = NAN;
    mb_rs_index_set(t->index, m->key, (long long)i);
    return i;
}

static void decide_row(struct mb_comparison *c, struct mb_cmp_row *q, const double *v)
{
    for (size_t r = 0; r < c->nb + c->nc; r++)
        if (isfinite(v[r]))
            r < c->nb ? q->have_b++ : q->have_c++;
    if (q->have_b == 0)
        q->d.verdict = MB_V_ONLY_NEW;
    else if (q->have_c == 0)
        q->d.verdict = MB_V_ONLY_BASE;
    else if (q->have_b < c->nb || q->have_c < c->nc) {
        q->d.verdict = MB_V_NOT_COMPARABLE;
        snprintf(q->why, sizeof q->why, "measured in %zu of %zu base and %zu of %zu new runs",
                 q->have_b, c->nb, q->have_c, c->nc);
    } else if (c->single) {
        decide_single(c, q);
        if (q->d.verdict == MB_V_NOT_COMPARABLE)
            snprintf(q->why, sizeof q->why, "no ratio (a figure of 0)");
    } else {
        decide_runs(c, q, v);
    }
}

static size_t family_of(struct mb_comparison *c, json_t *index, const struct measure *m)
{
    const size_t runs = c->nb + c->nc;
    const json_t *j = json_object_get(index, m->family);
    struct mb_cmp_family *f;

    if (j)
        return (size_t)json_integer_value(j);
    if ((c->nfam & (c->nfam - 1)) == 0) /* 0, 1, 2, 4, ...: room doubles */
        c->fam = mb_rs_alloc(c->fam, c->nfam ? 2 * c->nfam : 1, sizeof *c->fam);
    f = &c->fam[c->nfam];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", m->family);
    f->unit = m->unit;
    f->higher_better = m->higher_better;
    f->file_io = m->file_io;
    f->g = mb_rs_alloc(NULL, runs, sizeof *f->g);
    for (size_t r = 0; r < runs; r++)
        f->g[r] = 0;
    mb_rs_index_set(index, f->name, (long long)c->nfam);
    return c->nfam++;
}

/* Each family's geometric mean over its compared rows, per run (the mean of the oriented logs:
 * every size weighs the same, whatever its magnitude), tested across runs; then the overall:
 * the mean over families, judged by the threshold whose logarithm is the mean of the families'
 * (so that every family moved by its own threshold moves the overall by the overall's). */
static void summarise(struct mb_comparison *c, const struct table *t)
{
    const size_t runs = c->nb + c->nc;
    json_t *index = json_object();
    double *all = mb_rs_alloc(NULL, runs, sizeof *all), limit = 0;

    for (size_t i = 0; i < c->nrow; i++) {
        struct mb_cmp_row *q = &c->row[i];
        const double *v = t->v + i * runs;
        int positive = 1;
        size_t f;

        if (q->d.verdict > MB_V_UNCERTAIN)
            continue;
        for (size_t r = 0; r < runs; r++)
            positive &= v[r] > 0;
        if (!positive)
            continue;
        f = family_of(c, index, q->m);
        q->family = (long)f;
        c->fam[f].rows++;
        for (size_t r = 0; r < runs; r++)
            c->fam[f].g[r] += oriented(q->m->higher_better, v[r]);
    }
    for (size_t r = 0; r < runs; r++)
        all[r] = 0;
    for (size_t f = 0; f < c->nfam; f++) {
        struct mb_cmp_family *fm = &c->fam[f];
        for (size_t r = 0; r < runs; r++) {
            fm->g[r] /= (double)fm->rows;
            all[r] += fm->g[r];
        }
        across(&fm->d, fm->g, c->nb, fm->g + c->nb, c->nc, threshold_of(c, fm->file_io));
        limit += log1p(threshold_of(c, fm->file_io) / 100);
    }
    c->overall_families = c->nfam;
    if (c->nfam) {
        for (size_t r = 0; r < runs; r++)
            all[r] /= (double)c->nfam;
        across(&c->overall, all, c->nb, all + c->nb, c->nc, 100 * expm1(limit / (double)c->nfam));
    } else {
        c->overall.ratio = c->overall.lo = c->overall.hi = c->overall.p = NAN;
        c->overall.coverage = NAN;
        c->overall.verdict = MB_V_NOT_COMPARABLE;
    }
    free(all);
    json_decref(index);
    mb_cmp_gate(c);
}

static char **paths_of(const struct mb_records *r, size_t n)
{
    char **p = mb_rs_alloc(NULL, n, sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = mb_rs_strdup(r[i].path ? r[i].path : "");
    return p;
}

static void resolve_thresholds(struct mb_comparison *c, const struct mb_compare_opts *opts)
{
    c->opts = *opts;
    if (c->opts.threshold_pct < 0)
        c->opts.threshold_pct =
            c->single ? MB_COMPARE_SINGLE_THRESHOLD_PCT : MB_COMPARE_THRESHOLD_PCT;
    if (c->opts.io_threshold_pct < 0)
        c->opts.io_threshold_pct =
            c->single ? MB_COMPARE_SINGLE_IO_THRESHOLD_PCT : MB_COMPARE_IO_THRESHOLD_PCT;
}

struct mb_comparison *mb_compare_build(const struct mb_records *base, size_t nbase,
                                       const struct mb_records *cur, size_t ncur,
                                       const struct mb_compare_opts *opts, char *msg, size_t len)
{
    struct mb_comparison *c;
    struct table t = {0};
    size_t both = 0, runs = nbase + ncur;

    if (mb_cmp_group_check(base, nbase, "base", msg, len) != 0 ||
        mb_cmp_group_check(cur, ncur, "new", msg, len) != 0)
        return NULL;
    c = mb_rs_alloc(NULL, 1, sizeof *c);
    memset(c, 0, sizeof *c);
    c->nb = nbase;
    c->nc = ncur;
    c->single = nbase == 1 && ncur == 1;
    resolve_thresholds(c, opts);
    c->base_paths = paths_of(base, nbase);
    c->new_paths = paths_of(cur, ncur);
    c->runs = mb_rs_alloc(NULL, runs, sizeof *c->runs);
    for (size_t r = 0; r < runs; r++)
        mb_cmp_extract(r < nbase ? &base[r] : &cur[r - nbase], &c->runs[r]);
    t.index = json_object();
    for (size_t r = 0; r < runs; r++)
        for (size_t i = 0; i < c->runs[r].n; i++) {
            const struct measure *m = &c->runs[r].m[i];
            const size_t k = row_of(c, &t, m);
            t.v[k * runs + r] = mb_cmp_run_value(m);
            if (r < nbase && !c->row[k].b)
                c->row[k].b = m;
            if (r >= nbase && !c->row[k].c)
                c->row[k].c = m;
        }
    for (size_t i = 0; i < c->nrow; i++) {
        decide_row(c, &c->row[i], t.v + i * runs);
        both += c->row[i].have_b && c->row[i].have_c;
        c->count[c->row[i].d.verdict]++;
    }
    if (both == 0) {
        char db[120], dc[120];
        describe(&c->runs[0], db, sizeof db);
        describe(&c->runs[nbase], dc, sizeof dc);
        if (c->runs[0].n == 0 || c->runs[nbase].n == 0)
            snprintf(msg, len, "'%s' holds no results to compare",
                     c->runs[0].n == 0 ? c->base_paths[0] : c->new_paths[0]);
        else
            snprintf(msg, len,
                     "no measurement of '%s' matches one of '%s' (%s vs %s): compare runs of the "
                     "same benchmarks, sizes and process counts",
                     c->base_paths[0], c->new_paths[0], db, dc);
        free(t.v);
        json_decref(t.index);
        mb_compare_free(c);
        return NULL;
    }
    summarise(c, &t);
    free(t.v);
    json_decref(t.index);
    qsort(c->row, c->nrow, sizeof *c->row, by_ratio);
    return c;
}

int mb_compare_status(const struct mb_comparison *c)
{
    return c->fam_count[MB_V_REGRESSED] || c->overall.verdict == MB_V_REGRESSED ? 1 : 0;
}

struct point_ref {
    const struct mb_cmp_row *q;
};

static int by_family_size(const void *a, const void *b)
{
    const struct mb_cmp_row *x = ((const struct point_ref *)a)->q;
    const struct mb_cmp_row *y = ((const struct point_ref *)b)->q;

    if (x->family != y->family)
        return x->family < y->family ? -1 : 1;
    return (x->m->bytes > y->m->bytes) - (x->m->bytes < y->m->bytes);
}

void mb_compare_points(const struct mb_comparison *c,
                       void (*fn)(const struct mb_compare_point *p, void *arg), void *arg)
{
    struct point_ref *ref = mb_rs_alloc(NULL, c->nrow + 1, sizeof *ref);
    size_t n = 0;

    for (size_t i = 0; i < c->nrow; i++)
        if (c->row[i].family >= 0 && isfinite(c->row[i].m->bytes))
            ref[n++].q = &c->row[i];
    qsort(ref, n, sizeof *ref, by_family_size);
    for (size_t i = 0; i < n; i++) {
        const struct mb_cmp_row *q = ref[i].q;
        const struct mb_compare_point p = {
            .family = c->fam[q->family].name,
            .family_index = (int)q->family,
            .bytes = q->m->bytes,
            .ratio = q->d.ratio,
            .lo = q->d.lo,
            .hi = q->d.hi,
            .changed = q->d.verdict == MB_V_REGRESSED  ? 1
                       : q->d.verdict == MB_V_IMPROVED ? -1
                                                       : 0,
        };
        fn(&p, arg);
    }
    free(ref);
}

/* Accessors for the plots of two groups (results/plot_groups.c): kept apart from the decisions
 * above, which they only read. */
void mb_compare_group_sizes(const struct mb_comparison *c, size_t *nbase, size_t *nnew)
{
    *nbase = c->nb;
    *nnew = c->nc;
}

double mb_compare_family_threshold(const struct mb_comparison *c, int family_index)
{
    if (family_index < 0 || (size_t)family_index >= c->nfam)
        return NAN;
    return c->fam[family_index].d.threshold_pct;
}
