/* SPDX-License-Identifier: BSD-3-Clause */
/* Records drawn into plots: each page of the record-type table (results/record_types.c) from
 * the records of one run or of several runs over each other; the files and gnuplot are
 * plot_gnuplot.c's, two groups of runs plot_groups.c's. */
#include "results/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Titles travel into gnuplot's single-quoted strings and HTML: printable ASCII only, and a
 * quote doubled as gnuplot wants it. */
static void clean_title(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (; *src && j + 1 < len; src++)
        dst[j++] = (*src >= 0x20 && *src < 0x7f) ? *src : '?';
    dst[j] = '\0';
}

void mb_plot_init(struct mb_plot *p, const char *name, const char *title, const char *xlabel,
                  const char *ylabel)
{
    memset(p, 0, sizeof *p);
    p->index = json_object();
    p->nruns = 1;
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->title, sizeof p->title, "%s", title);
    p->xlabel = xlabel;
    p->ylabel = ylabel;
}

void mb_plot_init_page(struct mb_plot *p, const struct mb_rt_page *pg)
{
    mb_plot_init(p, pg->name, pg->title, pg->xlabel, pg->ylabel);
    p->linear_y = pg->linear_y;
    p->x_count = pg->x_count;
}

/* The panel of that title, made when new; MB_PLOT_PANELS when there is no room. */
static size_t panel_of(struct mb_plot *p, const char *title)
{
    char t[96];

    clean_title(t, sizeof t, title);
    for (size_t i = 0; i < p->npanels; i++)
        if (strcmp(p->panel[i], t) == 0)
            return i;
    if (p->npanels == MB_PLOT_PANELS)
        return MB_PLOT_PANELS;
    snprintf(p->panel[p->npanels], sizeof p->panel[0], "%s", t);
    return p->npanels++;
}

/* A new series of that title at the end, or NULL (remembered as left out) when the plot has no
 * room for it or its panel. */
static struct mb_series *new_series(struct mb_plot *p, const char *title,
                                    const struct mb_series_id *id)
{
    const size_t panel =
        p->n < MB_PLOT_SERIES ? panel_of(p, id && id->panel ? id->panel : "") : MB_PLOT_PANELS;
    struct mb_series *s;

    if (panel == MB_PLOT_PANELS) {
        mb_rs_index_set(p->index, title, -1);
        p->left_out++;
        return NULL;
    }
    mb_rs_index_set(p->index, title, (long long)p->n);
    s = &p->s[p->n++];
    clean_title(s->title, sizeof s->title, title);
    clean_title(s->key, sizeof s->key, id && id->key ? id->key : title);
    s->panel = panel;
    s->run = id ? id->run : 0;
    s->everywhere = id ? id->everywhere : 0;
    return s;
}

/* keep_max: of the points at one x only the largest is kept (the best over methods and
 * repetitions), once the series is sorted. lo, hi: the point's interval (NAN: none). x = 0 is
 * kept (drawn at the axis's 0 tic), y must be positive (a logarithmic axis). */
struct mb_series *mb_plot_add(struct mb_plot *p, const char *title, const struct mb_series_id *id,
                              double x, double y, double lo, double hi, double extra, int keep_max)
{
    const json_t *at;
    struct mb_series *s;

    if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0 || (y == 0 && !p->linear_y))
        return NULL;
    /* By an index, not a search: a file of many rows draws in linear time. */
    at = json_object_get(p->index, title);
    if (at && json_integer_value(at) < 0)
        return NULL;
    s = at ? &p->s[json_integer_value(at)] : new_series(p, title, id);
    if (!s)
        return NULL;
    s->keep_max |= keep_max;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->x = mb_rs_alloc(s->x, s->cap, sizeof *s->x);
        s->y = mb_rs_alloc(s->y, s->cap, sizeof *s->y);
        s->lo = mb_rs_alloc(s->lo, s->cap, sizeof *s->lo);
        s->hi = mb_rs_alloc(s->hi, s->cap, sizeof *s->hi);
        s->extra = mb_rs_alloc(s->extra, s->cap, sizeof *s->extra);
    }
    if (!(isfinite(lo) && isfinite(hi) && lo > 0 && lo <= hi))
        lo = hi = NAN;
    s->bars |= isfinite(lo);
    s->has_extra |= isfinite(extra);
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->lo[s->n] = lo;
    s->hi[s->n] = hi;
    s->extra[s->n++] = extra;
    if (x == 0)
        p->has_zero = 1;
    else if (!(p->min_pos <= x))
        p->min_pos = x;
    if (!(p->max_x >= x))
        p->max_x = x;
    return s;
}

/* A point's y and its interval: where the record carries the y field F as samples (F_median,
 * F_ci95_low, F_ci95_high: --samples K, core/samples.h) the median with its 95 % interval - an
 * interval around the mean of K samples could miss the mean, which one slow sample moves -
 * else F without an interval (NAN). */
static double y_of(const json_t *o, const char *y, double *lo, double *hi)
{
    char name[160];
    double m;

    snprintf(name, sizeof name, "%s_ci95_low", y);
    *lo = mb_rec_num(o, name);
    snprintf(name, sizeof name, "%s_ci95_high", y);
    *hi = mb_rec_num(o, name);
    snprintf(name, sizeof name, "%s_median", y);
    m = mb_rec_num(o, name);
    if (isfinite(m) && isfinite(*lo) && isfinite(*hi))
        return m;
    *lo = *hi = NAN;
    return mb_rec_num(o, y);
}

/* The value one run gives the row, as compare takes it (results/compare_internal.h,
 * mb_cmp_run_value): F_median where the row was measured as samples, else F - with or without
 * an interval, since the spread drawn over a group is the runs'. */
static double run_value_of(const json_t *o, const char *y)
{
    char name[160];
    double m;

    snprintf(name, sizeof name, "%s_median", y);
    m = mb_rec_num(o, name);
    if (mb_rec_int(o, "sample_count", 1) > 1 && isfinite(m))
        return m;
    return mb_rec_num(o, y);
}

static double point_y(const json_t *o, const char *y, int run_value, double *lo, double *hi)
{
    if (!run_value)
        return y_of(o, y, lo, hi);
    *lo = *hi = NAN;
    return run_value_of(o, y);
}

void mb_plot_free(struct mb_plot *p)
{
    json_decref(p->index);
    p->index = NULL;
    for (size_t i = 0; i < p->n; i++) {
        free(p->s[i].x);
        free(p->s[i].y);
        free(p->s[i].lo);
        free(p->s[i].hi);
        free(p->s[i].extra);
    }
}

/* The partition-like value d->only selects: that of the last record of type only.type, or,
 * without one (a cut run), that of the first record of type t. */
static long long only_value(const struct mb_records *r, const struct mb_record_type *const *type_of,
                            const struct mb_record_type *t, const struct mb_rt_plot *d)
{
    long long v = -1;

    for (size_t i = 0; i < r->n; i++) {
        if (mb_rec_is(r->rec[i], d->only.type))
            v = mb_rec_int(r->rec[i], d->only.field, -1);
        else if (v < 0 && type_of[i] == t)
            v = -2; /* a cut run: taken from the records of type t below */
    }
    for (size_t i = 0; i < r->n && v == -2; i++)
        if (type_of[i] == t)
            v = v < mb_rec_int(r->rec[i], d->only.field, 0)
                    ? mb_rec_int(r->rec[i], d->only.field, 0)
                    : v;
    return v;
}

/* The records of type t draw into p as d describes (results/record_types.h). The joined records
 * are found in one pass (a jansson object as hash table), so that a file of many rows is read
 * in linear time, not quadratic. */
static void draw(const struct mb_records *r, const char *run, int run_index, int run_value,
                 const struct mb_record_type *const *type_of, const struct mb_record_type *t,
                 const struct mb_rt_plot *d, const struct mb_rt_axis *axis, struct mb_plot *p)
{
    json_t *joined = d->join.type ? json_object() : NULL;
    const long long only = d->only.field ? only_value(r, type_of, t, d) : 0;
    char k[256];

    for (size_t i = 0; joined && i < r->n; i++) {
        const json_t *o = r->rec[i];
        if (!mb_rec_is(o, d->join.type) || !json_is_integer(json_object_get(o, d->join.field)))
            continue;
        snprintf(k, sizeof k, "%lld", mb_rec_int(o, d->join.field, 0));
        mb_rs_index_set(joined, k, mb_rt_holds_one(o, &d->join.cond));
    }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        char title[96] = "", panel[96] = "", key[96] = "";
        struct mb_series_id id = {panel, key, run_index, 0};
        double lo, hi;

        if (type_of[i] != t || !mb_rt_holds(o, d->when))
            continue;
        if (joined) {
            if (!json_is_integer(json_object_get(o, d->join.field)))
                continue;
            snprintf(k, sizeof k, "%lld", mb_rec_int(o, d->join.field, 0));
            if (json_integer_value(json_object_get(joined, k)) != 1)
                continue;
        }
        if (d->only.field && mb_rec_int(o, d->only.field, -1) != only)
            continue;
        /* Several runs: each series named by its run first (mpibench plot A B). */
        if (run)
            snprintf(title, sizeof title, "%s: ", run);
        mb_rt_text(title, sizeof title, o, d->name[0].kind ? d->name : t->name);
        mb_rt_text(panel, sizeof panel, o, d->panel);
        mb_rt_text(key, sizeof key, o,
                   d->series[0].kind ? d->series
                   : d->name[0].kind ? d->name
                                     : t->name);
        if (d->kind == MB_RT_POINTS) {
            const double y = point_y(o, d->y, run_value, &lo, &hi);
            mb_plot_add(p, title, &id, mb_rec_num(o, d->x), y, lo, hi, NAN, d->keep_max);
        } else if (d->kind == MB_RT_ARRAYS) {
            const json_t *x = json_object_get(o, d->x);
            for (int a = 0; a < MB_RT_SERIES && d->arrays[a].field; a++) {
                const json_t *y = json_object_get(o, d->arrays[a].field);
                char at[96] = "";
                if (run)
                    snprintf(at, sizeof at, "%s: ", run);
                snprintf(at + strlen(at), sizeof at - strlen(at), "%s", d->arrays[a].title);
                id.key = d->arrays[a].title;
                id.everywhere = d->arrays[a].everywhere;
                for (size_t j = 0; j < json_array_size(x); j++)
                    mb_plot_add(p, at, &id, json_number_value(json_array_get(x, j)),
                                json_number_value(json_array_get(y, j)), NAN, NAN, NAN,
                                d->keep_max);
            }
        } else if (axis) { /* MB_RT_POSITIONS */
            const long long pos = mb_rec_int(o, d->x, 0);
            if (pos <= 0 || pos > axis->n)
                continue;
            if (pos == axis->n)
                p->last_value = mb_rec_num(o, axis->last_field);
            const double y = point_y(o, d->y, run_value, &lo, &hi);
            mb_plot_add(p, title, &id, axis->x[pos - 1], y, lo, hi, NAN, d->keep_max);
        }
    }
    json_decref(joined);
}

/* A position axis's tic list for gnuplot: "('1k' 1, '+8' 2, ..., '16M' 10)", the last tic
 * being the last position's value in MiB as b_eff_io's plots label it, or its name when
 * nothing was measured there. */
void mb_plot_position_tics(struct mb_plot *p, const struct mb_rt_axis *axis)
{
    char last[24];
    size_t n = (size_t)snprintf(p->xtics, sizeof p->xtics, "(");

    snprintf(last, sizeof last, "%s", axis->last_name);
    if (p->last_value > 0)
        snprintf(last, sizeof last, "%.4gM", p->last_value / 1048576.0);
    for (int i = 0; i < axis->n && n < sizeof p->xtics; i++)
        n += (size_t)snprintf(p->xtics + n, sizeof p->xtics - n, "'%s' %d%s",
                              i < axis->n - 1 ? axis->tic[i] : last, axis->x[i],
                              i < axis->n - 1 ? ", " : ")");
    p->xlast = axis->x[axis->n - 1];
}

void mb_plot_files(void (*each)(const char *file, void *arg), void *arg)
{
    static const char *const own[] = {"plots.gp", "gnuplot.log", "index.html"};
    static const char *const ext[] = {"dat", "png", "svg"};
    char file[64];

    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        each(own[i], arg);
    for (size_t i = 0; i < mb_rt_page_count; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            snprintf(file, sizeof file, "%s.%s", mb_rt_pages[i].name, ext[e]);
            each(file, arg);
        }
    /* The ratio plots of two groups (plot_groups.c): ratio_01 ... */
    for (int i = 1; i <= MB_RATIO_PLOTS; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            snprintf(file, sizeof file, MB_RATIO_PLOT_NAME ".%s", i, ext[e]);
            each(file, arg);
        }
}

const struct mb_record_type **mb_plot_types(const struct mb_records *r)
{
    const struct mb_record_type **type_of = mb_rs_alloc(NULL, r->n + 1, sizeof *type_of);
    for (size_t i = 0; i < r->n; i++)
        type_of[i] = mb_rt_of(r->rec[i]);
    return type_of;
}

void mb_plot_draw_page(const struct mb_records *r, const struct mb_record_type *const *type_of,
                       const struct mb_rt_page *pg, const char *run, int run_index, int run_value,
                       struct mb_plot *p)
{
    for (size_t t = 0; t < mb_record_type_count; t++)
        for (int d = 0; d < MB_RT_PLOTS && mb_record_types[t].plots[d].page; d++)
            if (strcmp(mb_record_types[t].plots[d].page, pg->name) == 0)
                draw(r, run, run_index, run_value, type_of, &mb_record_types[t],
                     &mb_record_types[t].plots[d], pg->axis, p);
}

/* 0 bytes two octaves below the smallest positive size (a quarter of it), or at 1/4 when
 * nothing else was measured. */
void mb_plot_place_zero(struct mb_plot *p)
{
    p->zero_at = p->min_pos > 0 ? p->min_pos / 4 : 0.25;
}

int mb_plots_write(const struct mb_records *r, const char *dir, struct mb_plot_list *list,
                   char *msg, size_t len)
{
    return mb_plots_write_runs(r, 1, NULL, dir, list, msg, len);
}

int mb_plots_write_runs(const struct mb_records *runs, size_t nruns, const char *const *labels,
                        const char *dir, struct mb_plot_list *list, char *msg, size_t len)
{
    const size_t n = mb_rt_page_count;
    struct mb_plot *p = mb_rs_alloc(NULL, n, sizeof *p);
    const struct mb_record_type ***type_of = mb_rs_alloc(NULL, nruns, sizeof *type_of);
    int status;

    for (size_t k = 0; k < nruns; k++)
        type_of[k] = mb_plot_types(&runs[k]);
    /* Each page from the record types that draw into it, in the table's order; run after run,
     * so that a page's series are those of the first run, then of the second. Several runs: a
     * benchmark keeps its colour and marker in every run, each run has its dash type, and
     * each panel has a ratio panel of every run over the first under it. */
    for (size_t i = 0; i < n; i++) {
        const struct mb_rt_page *pg = &mb_rt_pages[i];
        const int several = nruns > 1 && labels;
        mb_plot_init_page(&p[i], pg);
        for (size_t k = 0; k < nruns; k++)
            mb_plot_draw_page(&runs[k], type_of[k], pg, several ? labels[k] : NULL, (int)k, 0,
                              &p[i]);
        if (pg->axis)
            mb_plot_position_tics(&p[i], pg->axis);
        mb_plot_place_zero(&p[i]);
        for (size_t k = 0; k < nruns && k < MB_PLOT_RUNS; k++) {
            snprintf(p[i].run_label[k], sizeof p[i].run_label[0], "%s", several ? labels[k] : "");
            if (k < MB_PLOT_CAPTIONS)
                mb_plot_caption(&p[i], several ? labels[k] : NULL, &runs[k], 1);
        }
        p[i].nruns = several ? (int)(nruns < MB_PLOT_RUNS ? nruns : MB_PLOT_RUNS) : 1;
        if (nruns > MB_PLOT_CAPTIONS)
            snprintf(p[i].caption[MB_PLOT_CAPTIONS - 1], sizeof p[i].caption[0],
                     "... and %zu more runs", nruns - (MB_PLOT_CAPTIONS - 1));
        if (several)
            mb_plot_ratios(&p[i]);
    }
    status = mb_plot_write_all(p, n, dir, list, msg, len);
    for (size_t i = 0; i < n; i++)
        mb_plot_free(&p[i]);
    free(p);
    for (size_t k = 0; k < nruns; k++)
        free(type_of[k]);
    free(type_of);
    return status;
}
