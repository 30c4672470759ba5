/* SPDX-License-Identifier: BSD-3-Clause */
/* The plots of two groups of runs (results/plot.h, mb_plots_write_groups;
 * docs/adr/plots-of-groups.md): each page's series once per group, at the median of the runs
 * with their min..max, and the ratio plots of the comparison. */
#include "results/compare.h"
#include "results/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char group_note[] =
    "x y y_min y_max runs (y: the median over the group's runs of each run's value - the row's "
    "median where it was measured as samples, else its figure; y_min..y_max: the spread over "
    "the runs; runs: how many runs measured the point)";

static const char ratio_note[] =
    "x ratio ratio_low ratio_high changed (ratio > 1: the new runs are worse - time new/base, "
    "bandwidth base/new; low..high: its interval as compare computes it, else ratio, ratio; "
    "changed: 1 regressed, -1 improved, 0 neither)";

/* The names of a page's series (the benchmarks, without a run's prefix), in the order they
 * first appear, base runs first: a benchmark's place gives its colour and marker in both
 * groups. */
struct titles {
    char (*t)[96];
    char (*panel)[96], (*key)[96]; /* where each is drawn, its name there */
    size_t n;
    json_t *index;
};

/* One group's values at one point of one series: the runs' y at (title, x, occurrence) - the
 * k-th point at one x of a series (a series without keep_max may have several) meets the k-th
 * of the other runs. */
struct cell {
    size_t title, seq;
    double x;
    double *v;
    size_t n, cap;
};

struct cells {
    struct cell *c;
    size_t n, cap;
    json_t *index;
};

static size_t title_of(struct titles *t, const char *s, const char *panel, const char *key)
{
    const json_t *j = json_object_get(t->index, s);

    if (j)
        return (size_t)json_integer_value(j);
    t->t = mb_rs_alloc(t->t, t->n + 1, sizeof *t->t);
    t->panel = mb_rs_alloc(t->panel, t->n + 1, sizeof *t->panel);
    t->key = mb_rs_alloc(t->key, t->n + 1, sizeof *t->key);
    snprintf(t->t[t->n], sizeof t->t[0], "%s", s);
    snprintf(t->panel[t->n], sizeof t->panel[0], "%s", panel);
    snprintf(t->key[t->n], sizeof t->key[0], "%s", key);
    mb_rs_index_set(t->index, s, (long long)t->n);
    return t->n++;
}

static void cell_add(struct cells *cs, size_t title, double x, size_t occ, double y)
{
    char key[96];
    const json_t *j;
    struct cell *c;

    snprintf(key, sizeof key, "%zu\n%.17g\n%zu", title, x, occ);
    j = json_object_get(cs->index, key);
    if (j) {
        c = &cs->c[json_integer_value(j)];
    } else {
        if (cs->n == cs->cap) {
            cs->cap = cs->cap ? 2 * cs->cap : 64;
            cs->c = mb_rs_alloc(cs->c, cs->cap, sizeof *cs->c);
        }
        c = &cs->c[cs->n];
        memset(c, 0, sizeof *c);
        c->title = title;
        c->seq = cs->n;
        c->x = x;
        mb_rs_index_set(cs->index, key, (long long)cs->n++);
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->v = mb_rs_alloc(c->v, c->cap, sizeof *c->v);
    }
    c->v[c->n++] = y;
}

/* Every run of a group drawn alone into a plot of its own (so that keep_max and the records'
 * selection act per run, as in a plot of that run), its points gathered into cells. */
static void collect(const struct mb_records *runs, size_t n, const struct mb_rt_page *pg,
                    struct titles *t, struct cells *cs, struct mb_plot *out)
{
    struct mb_plot *one = mb_rs_alloc(NULL, 1, sizeof *one);

    for (size_t k = 0; k < n; k++) {
        const struct mb_record_type **type_of = mb_plot_types(&runs[k]);
        mb_plot_init_page(one, pg);
        mb_plot_draw_page(&runs[k], type_of, pg, NULL, 0, 1, one);
        /* b_eff_io's last tic is the L_max measured; the runs of a group share the settings
         * (compare refuses them otherwise), so the first run's value names it. */
        if (!(out->last_value > 0))
            out->last_value = one->last_value;
        for (size_t i = 0; i < one->n; i++) {
            struct mb_series *s = &one->s[i];
            const size_t ti = title_of(t, s->title, one->panel[s->panel], s->key);
            size_t occ = 0;
            mb_plot_sort(s);
            for (size_t j = 0; j < s->n; j++) {
                occ = j > 0 && s->x[j] == s->x[j - 1] ? occ + 1 : 0;
                cell_add(cs, ti, s->x[j], occ, s->y[j]);
            }
        }
        mb_plot_free(one);
        free(type_of);
    }
    free(one);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_title(const void *a, const void *b)
{
    const struct cell *x = a, *y = b;
    if (x->title != y->title)
        return x->title < y->title ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* One cell of group g (0 base, 1 new; nruns runs) as a point of the series "base: TITLE", at
 * the median of its runs' values with their min..max as error bar (a group of one run: none)
 * and, as fifth column, how many runs measured it. The group is the series' run: a benchmark's
 * colour and shape in both, base solid with open markers, new dashed with filled ones. */
static void emit(struct mb_plot *out, const struct titles *t, struct cell *c, int g, size_t nruns)
{
    static const char *const side[2] = {"base", "new"};
    const struct mb_series_id id = {t->panel[c->title], t->key[c->title], g, 0};
    char title[128];
    double m;

    qsort(c->v, c->n, sizeof *c->v, by_value);
    m = c->n % 2 ? c->v[c->n / 2] : (c->v[c->n / 2 - 1] + c->v[c->n / 2]) / 2;
    snprintf(title, sizeof title, "%s: %s", side[g], t->t[c->title]);
    mb_plot_add(out, title, &id, c->x, m, nruns > 1 ? c->v[0] : NAN,
                nruns > 1 ? c->v[c->n - 1] : NAN, (double)c->n, 0);
}

static void free_cells(struct cells *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        free(cs->c[i].v);
    free(cs->c);
    json_decref(cs->index);
}

/* Page pg of both groups into out: the base series, then the new series, each in the titles'
 * order - the legend's two columns (gnuplot fills them column by column) then hold base on the
 * left and new on the right, a benchmark's two series side by side. */
static void group_page(const struct mb_records *const g[2], const size_t n[2],
                       const struct mb_rt_page *pg, struct mb_plot *out)
{
    struct titles t = {NULL, NULL, NULL, 0, json_object()};
    struct cells cs[2] = {{NULL, 0, 0, json_object()}, {NULL, 0, 0, json_object()}};

    mb_plot_init_page(out, pg);
    out->extra_note = group_note;
    out->nruns = 2;
    for (int k = 0; k < 2; k++) {
        snprintf(out->run_label[k], sizeof out->run_label[0], "%s (%zu run%s)", k ? "new" : "base",
                 n[k], n[k] == 1 ? "" : "s");
        mb_plot_caption(out, k ? "new" : "base", g[k], n[k]);
    }
    snprintf(out->key_title, sizeof out->key_title,
             "base (%zu run%s): solid line, open markers; new (%zu run%s): dashed line, filled "
             "markers\npoint: the median of a group's runs, bar: their min..max%s",
             n[0], n[0] == 1 ? "" : "s", n[1], n[1] == 1 ? "" : "s",
             n[0] == 1 || n[1] == 1 ? " (one run: none)" : "");
    for (int k = 0; k < 2; k++)
        collect(g[k], n[k], pg, &t, &cs[k], out);
    for (int k = 0; k < 2; k++) {
        if (cs[k].n) /* qsort's base must not be NULL, even for no element */
            qsort(cs[k].c, cs[k].n, sizeof *cs[k].c, by_title);
        for (size_t i = 0; i < cs[k].n; i++)
            emit(out, &t, &cs[k].c[i], k, n[k]);
    }
    if (pg->axis)
        mb_plot_position_tics(out, pg->axis);
    mb_plot_place_zero(out);
    for (int k = 0; k < 2; k++)
        free_cells(&cs[k]);
    free(t.t);
    free(t.panel);
    free(t.key);
    json_decref(t.index);
}

/* ---- ratio plots ------------------------------------------------------------------------ */

struct rpoints {
    struct mb_compare_point *v;
    size_t n, cap;
};

static void take_point(const struct mb_compare_point *p, void *arg)
{
    struct rpoints *r = arg;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->v = mb_rs_alloc(r->v, r->cap, sizeof *r->v);
    }
    r->v[r->n++] = *p;
}

/* A family on the ratio plots: its points rp[first .. first + n) (mb_compare_points gives
 * them family by family), its suite (the first word of its name: IMB-MPI1, IMB-EXT, IMB-IO,
 * or Presta's program) and its threshold; families of one suite and threshold share plots. */
struct rfam {
    size_t first, n;
    char suite[48];
    double pct;
    size_t bucket;
};

/* The families' buckets (suite, threshold) in the order they first appear, each cut into
 * pages of at most MB_RATIO_FAMILIES families of about equal counts. */
static size_t ratio_pages(const struct mb_comparison *cmp, const struct rpoints *rp,
                          struct mb_plot *p, size_t max, size_t *left_out)
{
    struct rfam *f = mb_rs_alloc(NULL, rp->n + 1, sizeof *f);
    size_t nf = 0, nb = 0, pages = 0;

    for (size_t i = 0; i < rp->n; i++) {
        const struct mb_compare_point *q = &rp->v[i];
        if (nf > 0 && rp->v[f[nf - 1].first].family_index == q->family_index) {
            f[nf - 1].n++;
            continue;
        }
        f[nf].first = i;
        f[nf].n = 1;
        snprintf(f[nf].suite, sizeof f[nf].suite, "%.*s", (int)strcspn(q->family, " "), q->family);
        f[nf].pct = mb_compare_family_threshold(cmp, q->family_index);
        f[nf].bucket = nb;
        for (size_t j = 0; j < nf; j++)
            if (strcmp(f[j].suite, f[nf].suite) == 0 && f[j].pct == f[nf].pct) {
                f[nf].bucket = f[j].bucket;
                break;
            }
        nb += f[nf].bucket == nb;
        nf++;
    }
    *left_out = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t count = 0, done = 0, per, npages, page = 0, m = 0;
        for (size_t j = 0; j < nf; j++)
            count += f[j].bucket == b;
        npages = (count + MB_RATIO_FAMILIES - 1) / MB_RATIO_FAMILIES;
        per = (count + npages - 1) / npages;
        for (size_t j = 0; j < nf; j++) {
            struct mb_plot *pg;
            size_t on_page;
            if (f[j].bucket != b)
                continue;
            if (done % per == 0) {
                if (pages == max) {
                    *left_out += count - done;
                    break;
                }
                pg = &p[pages++];
                page++;
                m = count - done < per ? count - done : per;
                mb_plot_init(pg, "", "", "size [bytes]",
                             "ratio (> 1: new runs slower; time new/base, bandwidth base/new)");
                snprintf(pg->name, sizeof pg->name, MB_RATIO_PLOT_NAME, (int)pages);
                snprintf(pg->title, sizeof pg->title,
                         "%s: new/base ratio per size (> 1: new runs slower)", f[j].suite);
                if (npages > 1)
                    snprintf(pg->title + strlen(pg->title), sizeof pg->title - strlen(pg->title),
                             ", %zu of %zu", page, npages);
                pg->extra_note = ratio_note;
                snprintf(pg->key_title, sizeof pg->key_title,
                         "bar: the ratio's interval as compare computes it (none: no interval)");
                pg->band = 1 + f[j].pct / 100;
                snprintf(pg->band_title, sizeof pg->band_title, "threshold %g %%: %.4g and 1/%.4g",
                         f[j].pct, pg->band, pg->band);
            }
            pg = &p[pages - 1];
            on_page = done % per;
            /* The m families of a page side by side at one size: x scaled by -0.25 ... +0.25
             * octave (IMB's sizes are an octave apart), so that their bars do not hide each
             * other; the .dat keeps the true sizes. */
            for (size_t k = f[j].first; k < f[j].first + f[j].n; k++) {
                const struct mb_compare_point *q = &rp->v[k];
                struct mb_series *s = mb_plot_add(pg, q->family, NULL, q->bytes, q->ratio, q->lo,
                                                  q->hi, (double)q->changed, 0);
                if (s && m > 1)
                    s->dodge = exp2(((double)on_page / (double)(m - 1) - 0.5) * 0.5);
            }
            done++;
        }
    }
    for (size_t i = 0; i < pages; i++)
        mb_plot_place_zero(&p[i]);
    free(f);
    return pages;
}

int mb_plots_write_groups(const struct mb_records *base, size_t nbase, const struct mb_records *cur,
                          size_t ncur, const struct mb_comparison *cmp, const char *dir,
                          struct mb_plot_list *list, char *msg, size_t len)
{
    const size_t n = mb_rt_page_count;
    struct mb_plot *p = mb_rs_alloc(NULL, n + MB_RATIO_PLOTS, sizeof *p);
    const struct mb_records *const g[2] = {base, cur};
    const size_t ng[2] = {nbase, ncur};
    struct rpoints rp = {0};
    size_t left_out = 0, nr = 0;
    int status;

    for (size_t i = 0; i < n; i++)
        group_page(g, ng, &mb_rt_pages[i], &p[i]);
    if (cmp) {
        mb_compare_points(cmp, take_point, &rp);
        nr = ratio_pages(cmp, &rp, p + n, MB_RATIO_PLOTS, &left_out);
    }
    status = mb_plot_write_all(p, n + nr, dir, list, msg, len);
    list->families_left_out = left_out;
    for (size_t i = 0; i < n + nr; i++)
        mb_plot_free(&p[i]);
    free(p);
    free(rp.v);
    return status;
}
