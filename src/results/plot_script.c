/* SPDX-License-Identifier: BSD-3-Clause */
/* The gnuplot script of one plot (results/plot_internal.h, mb_plot_script): its panels as small
 * multiples on shared axes, each with the ratio panel of several runs under it, then one legend
 * for the whole image and the caption that says where the results come from. Drawn twice, as
 * PNG and as SVG, from the plot's .dat (plot_gnuplot.c). */
#include "results/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void gp_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        fputs(*s == '\'' ? "''" : (char[2]){*s, 0}, f);
    fputc('\'', f);
}

/* Colour i of a plot, distinct from every other of its plot: twelve well separated colours
 * (Paul Tol's "muted" and "bright" schemes), then hues a golden angle apart at two
 * brightnesses - gnuplot's own eight colours repeat from the ninth series on. */
static void series_colour(size_t i, char out[8])
{
    static const char *const base[] = {"#0077bb", "#ee7733", "#009988", "#cc3311",
                                       "#33bbee", "#ee3377", "#000000", "#aa4499",
                                       "#999933", "#882255", "#44aa99", "#bbbbbb"};
    const size_t nb = sizeof base / sizeof base[0];

    if (i < nb) {
        snprintf(out, 8, "%s", base[i]);
    } else {
        /* HSV to RGB with s = 0.8 and v = 0.85 or 0.55: a new hue each time (the golden
         * angle never returns to a hue), so that no two colours are equal. */
        const double h = fmod((double)(i - nb) * 0.6180339887498949 + 0.05, 1.0) * 6;
        const double v = (i - nb) % 2 ? 0.55 : 0.85, c = v * 0.8,
                     xx = c * (1 - fabs(fmod(h, 2) - 1));
        const double m = v - c;
        double r = 0, g = 0, b = 0;
        switch ((int)h) {
        case 0:
            r = c, g = xx;
            break;
        case 1:
            r = xx, g = c;
            break;
        case 2:
            g = c, b = xx;
            break;
        case 3:
            g = xx, b = c;
            break;
        case 4:
            r = xx, b = c;
            break;
        default:
            r = c, b = xx;
            break;
        }
        snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround((r + m) * 255),
                 (unsigned)lround((g + m) * 255), (unsigned)lround((b + m) * 255));
    }
}

/* gnuplot's open markers of six shapes (square, circle, triangle up, triangle down, diamond,
 * pentagon) in the cairo and SVG terminals; the next point type is the same shape filled. A
 * series' shape is that of its key, open in the first run and filled in the others, so that
 * series and runs stay apart in grey print too. */
static const int open_pt[] = {4, 6, 8, 10, 12, 14};
enum { MB_SHAPES = sizeof open_pt / sizeof open_pt[0] };

/* Numbers the keys (the series' names within their panels) in the order they first appear:
 * a key's number is its colour and shape on the whole image. Returns how many there are. By
 * an index, not a search: a plot may hold hundreds of series. */
static size_t number_keys(struct mb_plot *p)
{
    json_t *index = json_object();
    size_t n = 0;

    for (size_t i = 0; i < p->n; i++) {
        const json_t *k = json_object_get(index, p->s[i].key);
        if (k) {
            p->s[i].keyi = (size_t)json_integer_value(k);
        } else {
            p->s[i].keyi = n;
            mb_rs_index_set(index, p->s[i].key, (long long)n++);
        }
    }
    json_decref(index);
    return n;
}

/* A run's dash type: the first run solid, then gnuplot's four dash patterns, then patterns of
 * growing dashes (the terminals have five and repeat them). */
static void dash(FILE *f, int run)
{
    if (run >= 1 && run <= 4)
        fprintf(f, " dt %d", run + 1);
    else if (run > 4)
        fprintf(f, " dt (%d,4)", 2 * run - 4);
}

static void style(FILE *f, const struct mb_series *s, int markers)
{
    const size_t k = s->keyi;
    char colour[8];

    series_colour(k, colour);
    fprintf(f, " lc rgb '%s'", colour);
    if (markers)
        fprintf(f, " pt %d", open_pt[k % MB_SHAPES] + (s->run > 0));
    dash(f, s->run);
}

/* The x tics of a size axis that shows 0 bytes: "0" at zero_at, then every power of ten up to
 * the largest size in gnuplot's '%.0s%cB' style (1B, 10B, 100B, 1kB, ...), none below zero_at;
 * without labels (a panel with a ratio panel under it) the same tics unlabelled. In a narrow
 * panel (small multiples) of more than six decades only 1B, 1kB, 1MB, ... are labelled: the
 * others ran into each other. */
static void zero_tics(FILE *f, const struct mb_plot *p, int labels, int narrow)
{
    static const char prefix[] = " kMGTPE";
    const int sparse = narrow && p->max_x >= 1e6;
    int decade = 0;

    fprintf(f, "set xtics ('%s' %.17g", labels ? "0" : "", p->zero_at);
    for (double d = 1; d <= p->max_x * 2 && d < 1e21; d *= 10, decade++) {
        int e = 0;
        if (d <= p->zero_at)
            continue;
        for (double q = d; q >= 1000; q /= 1000)
            e++;
        if (labels && (!sparse || decade % 3 == 0))
            fprintf(f, ", '%.0f%.*sB' %.17g", d / pow(1000, e), e ? 1 : 0, &prefix[e], d);
        else
            fprintf(f, ", '' %.17g", d);
    }
    fprintf(f, ")\nset xrange [%.17g:%.17g]\n", p->zero_at / 2, (p->max_x > 0 ? p->max_x : 1) * 2);
}

/* A count axis (processes): base 2, a tic at each count measured (at most 16, else gnuplot's),
 * a little room either side. */
static void count_tics(FILE *f, const struct mb_plot *p, int labels)
{
    double v[16], lo = HUGE_VAL, hi = 0;
    size_t n = 0, more = 0;

    for (size_t i = 0; i < p->n; i++)
        for (size_t k = 0; k < p->s[i].n; k++) {
            const double x = p->s[i].x[k];
            int seen = 0;
            lo = x > 0 && x < lo ? x : lo;
            hi = x > hi ? x : hi;
            for (size_t j = 0; j < n && !seen; j++)
                seen = v[j] == x;
            if (!seen && n < 16)
                v[n++] = x;
            else if (!seen)
                more = 1;
        }
    fprintf(f, "set logscale x 2\nset format x '%s'\n", labels ? "%g" : "");
    if (!more && n > 0) {
        fprintf(f, "set xtics (");
        for (size_t j = 0; j < n; j++)
            fprintf(f, labels ? "%s%.17g" : "%s'' %.17g", j ? ", " : "", v[j]);
        fprintf(f, ")\n");
    }
    if (hi > 0)
        fprintf(f, "set xrange [%.17g:%.17g]\n", (lo < HUGE_VAL ? lo : hi) / 1.5, hi * 1.5);
}

/* The image's layout in pixels: panels in cols columns, each a main part and (several runs) a
 * ratio part under it; the page title above, one legend and the caption below. */
struct layout {
    size_t cols, rows, legend_rows;
    int w, h, top, main, ratio, legend, caption;
};

/* The legend's entries (keys, runs, a ratio plot's lines) and the width of its longest text in
 * characters. */
static size_t legend_entries(const struct mb_plot *p, size_t keys, size_t *widest)
{
    *widest = p->band > 1 ? strlen(p->band_title) : 0;
    for (size_t i = 0; i < p->n; i++)
        *widest = !p->s[i].ratio && strlen(p->s[i].key) > *widest ? strlen(p->s[i].key) : *widest;
    for (int r = 0; p->nruns > 1 && r < p->nruns; r++)
        *widest = strlen(p->run_label[r]) + 40 > *widest ? strlen(p->run_label[r]) + 40 : *widest;
    return keys + (p->nruns > 1 ? (size_t)p->nruns : 0) + (p->band > 1 ? 2 : 0);
}

static struct layout layout_of(const struct mb_plot *p, size_t keys)
{
    struct layout l = {0};
    const size_t n = p->npanels ? p->npanels : 1;
    size_t widest, entries = legend_entries(p, keys, &widest), lcols, title_lines = 0;

    l.cols = n == 1 ? 1 : n == 2 || n == 4 ? 2 : n <= 9 ? 3 : n <= 16 ? 4 : 5;
    l.rows = (n + l.cols - 1) / l.cols;
    l.w = l.cols <= 2 ? 960 : l.cols == 3 ? 1140 : l.cols == 4 ? 1280 : 1500;
    l.top = 36;
    l.main = n == 1 ? (p->ratios ? 430 : 520) : l.cols >= 4 ? 250 : 290;
    l.ratio = p->ratios ? (n == 1 ? 170 : 130) : 0;
    /* As many columns as the longest entry allows (about 6 pixels a character at 10 points,
     * 70 for the sample): a key wider than the image loses its outer columns. */
    lcols = (size_t)l.w / (6 * widest + 70);
    lcols = lcols < 1 ? 1 : entries < lcols ? (entries ? entries : 1) : lcols;
    l.legend_rows = (entries + lcols - 1) / lcols;
    for (const char *c = p->key_title; *c; c++)
        title_lines += *c == '\n';
    title_lines += p->key_title[0] ? 2 : 0;
    l.legend = 12 + (int)(l.legend_rows + title_lines) * 17;
    l.caption = 8 + 16 * (p->ncaptions ? p->ncaptions : 0) + (p->left_out ? 16 : 0);
    l.h = l.top + (int)l.rows * (l.main + l.ratio) + l.legend + l.caption;
    return l;
}

/* The value axes' ranges, shared by all panels so that small multiples compare at a glance:
 * the main parts' (with the error bars) and the ratio parts'. */
struct ranges {
    double lo, hi, rlo, rhi;
};

static struct ranges ranges_of(const struct mb_plot *p)
{
    struct ranges g = {HUGE_VAL, 0, HUGE_VAL, 0};

    for (size_t i = 0; i < p->n; i++) {
        const struct mb_series *s = &p->s[i];
        for (size_t k = 0; k < s->n; k++) {
            double lo = s->y[k], hi = s->y[k];
            if (isfinite(s->lo[k]))
                lo = fmin(lo, s->lo[k]), hi = fmax(hi, s->hi[k]);
            if (s->ratio) {
                g.rlo = fmin(g.rlo, lo), g.rhi = fmax(g.rhi, hi);
            } else {
                if (lo > 0 || p->linear_y)
                    g.lo = fmin(g.lo, lo);
                g.hi = fmax(g.hi, hi);
            }
        }
    }
    return g;
}

static void yrange(FILE *f, const struct mb_plot *p, const struct ranges *g)
{
    if (p->linear_y)
        fprintf(f, "set yrange [0:%.6g]\n", g->hi > 0 ? g->hi * 1.05 : 1);
    else if (g->hi > 0 && g->lo < HUGE_VAL)
        fprintf(f, "set yrange [%.6g:%.6g]\n", pow(10, floor(log10(g->lo))),
                pow(10, ceil(log10(g->hi)) + (ceil(log10(g->hi)) == log10(g->hi))));
}

/* One series' plot element: its block, x (0 bytes at the tic 0, dodged), its error bars, its
 * colour, marker and dash. A series of another panel drawn everywhere is a thin line. */
static void element(FILE *f, const struct mb_plot *p, size_t i, const char *x, int *first,
                    int elsewhere)
{
    const struct mb_series *s = &p->s[i];
    char xs[96];

    if (s->dodge > 0)
        snprintf(xs, sizeof xs, "(%s*%.6g)", x[0] == '(' ? x : "$1", s->dodge);
    else
        snprintf(xs, sizeof xs, "%s", x);
    fprintf(f, "%s'%s.dat' index %zu using %s:2%s with %s", *first ? "" : ", \\\n     ", p->name, i,
            xs, s->bars && !elsewhere ? ":3:4" : "",
            elsewhere ? "lines"
            : s->bars ? "yerrorlines"
                      : "linespoints");
    style(f, s, !elsewhere);
    fprintf(f, " title ");
    gp_quoted(f, s->title);
    *first = 0;
}

/* The x axis of every panel: log sizes (0 bytes at the tic 0), named positions, or counts;
 * labels: the tics labelled (not over a ratio panel, which labels them). x: the x column's
 * expression. */
static void x_axis(FILE *f, const struct mb_plot *p, int labels, int narrow, char *x, size_t len)
{
    snprintf(x, len, "1");
    if (p->xtics[0] && labels) {
        fprintf(f, "set xtics %s\nset xrange [0.5:%d.5]\n", p->xtics, p->xlast);
    } else if (p->xtics[0]) {
        /* Named tics are labelled whatever the format: over a ratio panel, their places
         * with empty names ("('1k' 1, '+8' 2, ...)": the number after each name). */
        const char *c = p->xtics;
        fprintf(f, "set xtics (");
        while ((c = strchr(c, ' ')) != NULL) {
            int pos;
            if (sscanf(c, " %d", &pos) == 1)
                fprintf(f, "%s'' %d", c == strchr(p->xtics, ' ') ? "" : ", ", pos);
            c++;
        }
        fprintf(f, ")\nset xrange [0.5:%d.5]\n", p->xlast);
    } else if (p->x_count) {
        count_tics(f, p, labels);
    } else {
        fprintf(f, "set logscale x\nset format x '%s'\n", labels ? "%.0s%cB" : "");
        if (p->has_zero) {
            zero_tics(f, p, labels, narrow);
            snprintf(x, len, "($1 == 0 ? %.17g : $1)", p->zero_at);
        } else {
            fprintf(f, "set xtics autofreq\n");
        }
    }
}

static void origin(FILE *f, const struct layout *l, size_t col, int top_px, int height_px)
{
    fprintf(f, "set origin %.6f,%.6f\nset size %.6f,%.6f\n", (double)col / (double)l->cols,
            1.0 - (double)(top_px + height_px) / l->h, 1.0 / (double)l->cols,
            (double)height_px / l->h);
}

/* Panel j: its main part (and the ratio part under it). */
static void panel(FILE *f, const struct mb_plot *p, const struct layout *l, const struct ranges *g,
                  size_t j, char *x, size_t len)
{
    const size_t n = p->npanels ? p->npanels : 1, col = j % l->cols, row = j / l->cols;
    const int top = l->top + (int)row * (l->main + l->ratio);
    /* The x axis's label under the lowest panel of each column only. */
    const int xlabel = j + l->cols >= n;
    int first = 1;

    fprintf(f, "\n# panel %zu: %s\n", j + 1, p->npanels ? p->panel[j] : "");
    origin(f, l, col, top, l->main);
    fprintf(f, "set tmargin %s\nset bmargin %s\n", n > 1 ? "2" : "1",
            p->ratios ? "0.5"
            : xlabel  ? "3"
                      : "2");
    fprintf(f, "set title ");
    gp_quoted(f, n > 1 ? p->panel[j] : "");
    fprintf(f, "\nset xlabel ");
    gp_quoted(f, xlabel && !p->ratios ? p->xlabel : "");
    fprintf(f, "\nset ylabel ");
    gp_quoted(f, p->ylabel);
    fprintf(f, "\n%s\nset ytics autofreq\n", p->linear_y ? "unset logscale y" : "set logscale y");
    x_axis(f, p, !p->ratios, l->cols > 1, x, len);
    yrange(f, p, g);
    fprintf(f, "plot ");
    for (size_t i = 0; i < p->n; i++)
        if (!p->s[i].ratio && (p->s[i].panel == j || p->s[i].everywhere))
            element(f, p, i, x, &first, p->s[i].panel != j);
    if (p->band > 1) {
        fprintf(f,
                "%s1 with lines lc rgb '#000000' lw 1.5 title 'no change (ratio 1)', \\\n     "
                "%.6g with lines lc rgb '#777777' dt 2 title ",
                first ? "" : ", \\\n     ", p->band);
        gp_quoted(f, p->band_title);
        fprintf(f, ", \\\n     %.6g with lines lc rgb '#777777' dt 2 notitle", 1 / p->band);
        first = 0;
    }
    if (first) /* a panel of series drawn elsewhere only: its axes still */
        fprintf(f, "NaN notitle");
    fprintf(f, "\n");
    if (!p->ratios)
        return;
    first = 1;
    origin(f, l, col, top + l->main, l->ratio);
    fprintf(f, "set tmargin 0.5\nset bmargin %s\nset title ''\nset xlabel ", xlabel ? "3" : "2");
    gp_quoted(f, xlabel ? p->xlabel : "");
    fprintf(f, "\nset ylabel 'ratio'\nunset logscale y\n");
    x_axis(f, p, 1, l->cols > 1, x, len);
    {
        /* Three or four tics at 1, 2 or 5 times a power of ten: gnuplot's own crowd a short
         * panel. */
        const double lo = fmin(0.9, g->rlo * 0.95), hi = fmax(1.1, g->rhi * 1.05);
        const double raw = (hi - lo) / 3, e = pow(10, floor(log10(raw)));
        const double step = raw / e < 1.5   ? e
                            : raw / e < 3.5 ? 2 * e
                            : raw / e < 7.5 ? 5 * e
                                            : 10 * e;
        fprintf(f, "set yrange [%.6g:%.6g]\nset ytics %.6g\nplot ", lo, hi, step);
    }
    for (size_t i = 0; i < p->n; i++)
        if (p->s[i].ratio && p->s[i].panel == j)
            element(f, p, i, x, &first, 0);
    fprintf(f, "%s1 with lines lc rgb '#000000' notitle\n", first ? "" : ", \\\n     ");
}

/* The legend of the whole image: each key once in its colour and open marker (the same in
 * every panel), each run's line style, a ratio plot's reference lines; and the caption under
 * it, a line per run. */
static void legend(FILE *f, const struct mb_plot *p, const struct layout *l, size_t keys)
{
    int first = 1;

    fprintf(f, "\n# legend and caption\nset origin 0,%.6f\nset size 1,%.6f\n",
            (double)l->caption / l->h, (double)l->legend / l->h);
    fprintf(f, "set tmargin 0\nset bmargin 0\nset lmargin 2\nset rmargin 2\nunset border\nunset "
               "tics\nunset logscale\nset title ''\nset xlabel ''\nset ylabel ''\nset xrange "
               "[0:1]\nset yrange [0:1]\n");
    fprintf(f, "set key inside center top Left reverse samplen 3 maxrows %zu\n", l->legend_rows);
    if (p->key_title[0]) {
        /* Double quotes: its lines ('\n') stay lines. */
        fprintf(f, "set key title \"");
        for (const char *c = p->key_title; *c; c++)
            fputs(*c == '\n'   ? "\\n"
                  : *c == '"'  ? "\\\""
                  : *c == '\\' ? "\\\\"
                               : (char[2]){*c, 0},
                  f);
        fprintf(f, "\" left\n");
    }
    for (int c = 0; c < p->ncaptions; c++) {
        fprintf(f, "set label %d ", c + 1);
        gp_quoted(f, p->caption[c]);
        fprintf(f, " at screen 0.01,screen %.6f left font ',9'\n",
                (double)(l->caption - 14 - 16 * c) / l->h);
    }
    if (p->left_out)
        fprintf(f,
                "set label %d '%zu series left out: a plot draws at most %d series in %d "
                "panels' at screen 0.01,screen %.6f left font ',9'\n",
                p->ncaptions + 1, p->left_out, MB_PLOT_SERIES, MB_PLOT_PANELS,
                (double)(l->caption - 14 - 16 * p->ncaptions) / l->h);
    fprintf(f, "plot ");
    for (size_t k = 0; k < keys; k++)
        for (size_t i = 0; i < p->n; i++)
            if (!p->s[i].ratio && p->s[i].keyi == k) {
                /* The key in the first run's style: its colour, its open marker, solid. */
                const struct mb_series s = {.keyi = k, .run = 0};
                fprintf(f, "%sNaN with linespoints", first ? "" : ", \\\n     ");
                style(f, &s, 1);
                fprintf(f, " title ");
                gp_quoted(f, p->s[i].key);
                first = 0;
                break;
            }
    for (int r = 0; p->nruns > 1 && r < p->nruns; r++) {
        char title[200];
        snprintf(title, sizeof title, "%s%s", p->run_label[r],
                 r == 0 && p->ratios ? " (the ratios: each run over this one)" : "");
        fprintf(f, "%sNaN with linespoints lc rgb '#000000' pt %d", first ? "" : ", \\\n     ",
                r ? 7 : 6);
        dash(f, r);
        fprintf(f, " title ");
        gp_quoted(f, title);
        first = 0;
    }
    if (p->band > 1) {
        fprintf(f,
                "%sNaN with lines lc rgb '#000000' lw 1.5 title 'no change (ratio 1)', \\\n     "
                "NaN with lines lc rgb '#777777' dt 2 title ",
                first ? "" : ", \\\n     ");
        gp_quoted(f, p->band_title);
        first = 0;
    }
    fprintf(f, "%s\nunset label\nunset key\n", first ? "NaN notitle" : "");
}

void mb_plot_script(FILE *f, struct mb_plot *p)
{
    static const char *const term[2][3] = {{"pngcairo", "noenhanced font ',10'", "png"},
                                           {"svg", "noenhanced dynamic", "svg"}};
    const size_t keys = number_keys(p);
    const struct layout l = layout_of(p, keys);
    const struct ranges g = ranges_of(p);
    const size_t n = p->npanels ? p->npanels : 1;
    char x[64];

    fprintf(f, "\n# %s\n", p->title);
    for (int t = 0; t < 2; t++) {
        fprintf(f, "reset\nset terminal %s size %d,%d %s\n", term[t][0], l.w, l.h, term[t][1]);
        fprintf(f, "set output '%s.%s'\nset multiplot title ", p->name, term[t][2]);
        gp_quoted(f, p->title);
        fprintf(f, "\nset grid\nunset key\nset lmargin 11\nset rmargin 3\nset format y '%%g'\n");
        for (size_t j = 0; j < n; j++)
            panel(f, p, &l, &g, j, x, sizeof x);
        legend(f, p, &l, keys);
        fprintf(f, "unset multiplot\nset output\n");
    }
}
