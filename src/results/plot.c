/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/plot.h"

#include "results/record_types.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { MAX_SERIES = 64 };

struct series {
    char title[96];
    double *x, *y, *lo, *hi; /* lo, hi: the point's 95 % interval, NAN without */
    size_t n, cap;
    int keep_max; /* points at one x: only the largest is kept (sort_series) */
    int bars;     /* some point has an interval: drawn with error bars */
};

struct plot {
    const char *name, *title, *xlabel, *ylabel;
    struct series s[MAX_SERIES];
    size_t n;
    /* Empty: x is a size on a logarithmic axis. Otherwise a gnuplot tic list for a linear
     * axis of positions (b_eff_io's pseudo-logarithmic chunk axis). */
    char xtics[160];
    int xlast;         /* the last position of that axis */
    double last_value; /* the last position's value (its tic: b_eff_io's L_max) */
    /* A size axis with 0-byte points: those are drawn at zero_at, below the smallest
     * positive size min_pos, at a tic labelled 0 (a logarithmic axis has no 0). */
    int has_zero;
    double min_pos, max_x, zero_at;
};

/* Titles travel into gnuplot's single-quoted strings and HTML: printable ASCII only, and a
 * quote doubled as gnuplot wants it. */
static void clean_title(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (; *src && j + 1 < len; src++)
        dst[j++] = (*src >= 0x20 && *src < 0x7f) ? *src : '?';
    dst[j] = '\0';
}

/* keep_max: of the points at one x only the largest is kept (the best over methods and
 * repetitions), once the series is sorted. lo, hi: the point's interval (NAN: none). x = 0 is
 * kept (drawn at the axis's 0 tic), y must be positive (a logarithmic axis). */
static void add_point(struct plot *p, const char *title, double x, double y, double lo, double hi,
                      int keep_max)
{
    struct series *s = NULL;

    if (!isfinite(x) || !isfinite(y) || x < 0 || y <= 0)
        return;
    for (size_t i = 0; i < p->n && !s; i++)
        if (strcmp(p->s[i].title, title) == 0)
            s = &p->s[i];
    if (!s) {
        if (p->n == MAX_SERIES)
            return;
        s = &p->s[p->n++];
        clean_title(s->title, sizeof s->title, title);
    }
    s->keep_max |= keep_max;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->x = mb_rs_alloc(s->x, s->cap, sizeof *s->x);
        s->y = mb_rs_alloc(s->y, s->cap, sizeof *s->y);
        s->lo = mb_rs_alloc(s->lo, s->cap, sizeof *s->lo);
        s->hi = mb_rs_alloc(s->hi, s->cap, sizeof *s->hi);
    }
    if (!(isfinite(lo) && isfinite(hi) && lo > 0 && lo <= hi))
        lo = hi = NAN;
    s->bars |= isfinite(lo);
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->lo[s->n] = lo;
    s->hi[s->n++] = hi;
    if (x == 0)
        p->has_zero = 1;
    else if (!(p->min_pos <= x))
        p->min_pos = x;
    if (!(p->max_x >= x))
        p->max_x = x;
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

static void free_plot(struct plot *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->s[i].x);
        free(p->s[i].y);
        free(p->s[i].lo);
        free(p->s[i].hi);
    }
}

/* The key of a record's most_per fields (NULL parts as "", which no suite or benchmark is
 * called). */
static void per_key(char *k, size_t len, const json_t *o, const struct mb_rt_plot *d)
{
    const char *a = d->most_per[0] ? mb_rec_str(o, d->most_per[0]) : NULL;
    const char *b = d->most_per[1] ? mb_rec_str(o, d->most_per[1]) : NULL;
    snprintf(k, len, "%s\n%s", a ? a : "", b ? b : "");
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

/* The records of type t draw into p as d describes (results/record_types.h). The sets that
 * select records (largest counts, joined records) are found in one pass each (jansson objects
 * as hash tables), so that a file of many rows is read in linear time, not quadratic. */
static void draw(const struct mb_records *r, const char *run,
                 const struct mb_record_type *const *type_of, const struct mb_record_type *t,
                 const struct mb_rt_plot *d, const struct mb_rt_axis *axis, struct plot *p)
{
    json_t *most = d->most ? json_object() : NULL, *joined = d->join.type ? json_object() : NULL;
    const long long only = d->only.field ? only_value(r, type_of, t, d) : 0;
    char k[256];

    for (size_t i = 0; most && i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long v = mb_rec_int(o, d->most, 0);
        const json_t *m;

        if (type_of[i] != t || !mb_rt_holds(o, d->when))
            continue;
        per_key(k, sizeof k, o, d);
        m = json_object_get(most, k);
        if (!m || v > json_integer_value(m))
            mb_rs_index_set(most, k, v);
    }
    for (size_t i = 0; joined && i < r->n; i++) {
        const json_t *o = r->rec[i];
        if (!mb_rec_is(o, d->join.type) || !json_is_integer(json_object_get(o, d->join.field)))
            continue;
        snprintf(k, sizeof k, "%lld", mb_rec_int(o, d->join.field, 0));
        mb_rs_index_set(joined, k, mb_rt_holds_one(o, &d->join.cond));
    }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        char title[96] = "";
        double lo, hi;

        if (type_of[i] != t || !mb_rt_holds(o, d->when))
            continue;
        if (most) {
            per_key(k, sizeof k, o, d);
            if (mb_rec_int(o, d->most, 0) != json_integer_value(json_object_get(most, k)))
                continue;
        }
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
        mb_rt_text(title, sizeof title, o, t->name);
        if (d->kind == MB_RT_POINTS) {
            const double y = y_of(o, d->y, &lo, &hi);
            add_point(p, title, mb_rec_num(o, d->x), y, lo, hi, d->keep_max);
        } else if (d->kind == MB_RT_ARRAYS) {
            const json_t *x = json_object_get(o, d->x);
            for (int a = 0; a < MB_RT_SERIES && d->arrays[a].field; a++) {
                const json_t *y = json_object_get(o, d->arrays[a].field);
                char at[96] = "";
                if (run)
                    snprintf(at, sizeof at, "%s: ", run);
                snprintf(at + strlen(at), sizeof at - strlen(at), "%s", d->arrays[a].title);
                for (size_t j = 0; j < json_array_size(x); j++)
                    add_point(p, at, json_number_value(json_array_get(x, j)),
                              json_number_value(json_array_get(y, j)), NAN, NAN, d->keep_max);
            }
        } else if (axis) { /* MB_RT_POSITIONS */
            const long long pos = mb_rec_int(o, d->x, 0);
            if (pos <= 0 || pos > axis->n)
                continue;
            if (pos == axis->n)
                p->last_value = mb_rec_num(o, axis->last_field);
            const double y = y_of(o, d->y, &lo, &hi);
            add_point(p, title, axis->x[pos - 1], y, lo, hi, d->keep_max);
        }
    }
    json_decref(most);
    json_decref(joined);
}

/* A position axis's tic list for gnuplot: "('1k' 1, '+8' 2, ..., '16M' 10)", the last tic
 * being the last position's value in MiB as b_eff_io's plots label it, or its name when
 * nothing was measured there. */
static void position_tics(struct plot *p, const struct mb_rt_axis *axis)
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

struct xy {
    double x, y, lo, hi;
    size_t at; /* the point's place in the series: equal x keep their order */
};

static int by_x(const void *a, const void *b)
{
    const struct xy *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->at < q->at ? -1 : p->at > q->at;
}

/* By x, points at one x in the order they came (or only the largest of them, keep_max):
 * n log n, for series of any length (an insertion sort was quadratic on a large file). */
static void sort_series(struct series *s)
{
    struct xy *v = mb_rs_alloc(NULL, s->n, sizeof *v);
    size_t n = 0;

    for (size_t i = 0; i < s->n; i++)
        v[i] = (struct xy){s->x[i], s->y[i], s->lo[i], s->hi[i], i};
    qsort(v, s->n, sizeof *v, by_x);
    for (size_t i = 0; i < s->n; i++) {
        if (s->keep_max && n > 0 && s->x[n - 1] == v[i].x) {
            if (v[i].y > s->y[n - 1]) {
                s->y[n - 1] = v[i].y;
                s->lo[n - 1] = v[i].lo;
                s->hi[n - 1] = v[i].hi;
            }
            continue;
        }
        s->x[n] = v[i].x;
        s->y[n] = v[i].y;
        s->lo[n] = v[i].lo;
        s->hi[n++] = v[i].hi;
    }
    s->n = n;
    free(v);
}

static int write_data(const char *dir, struct plot *p, char *msg, size_t len)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s.dat", dir, p->name);
    f = fopen(path, "w");
    if (!f) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# %s\n# x: %s%s%s, y: %s; one block per series\n", p->title, p->xlabel,
            p->xtics[0] ? ", positions " : "", p->xtics, p->ylabel);
    if (p->has_zero)
        fprintf(f, "# x = 0 is drawn at %.17g, the tic labelled 0\n", p->zero_at);
    for (size_t i = 0; i < p->n; i++) {
        const struct series *s = &p->s[i];
        sort_series(&p->s[i]);
        fprintf(f, "%s\n# %s%s\n", i ? "\n" : "", s->title,
                s->bars
                    ? "\n# x y y_ci95_low y_ci95_high (y: the median where the row has samples, "
                      "with its 95 % interval; else y, y, y)"
                    : "");
        for (size_t k = 0; k < s->n; k++) {
            fprintf(f, "%.17g %.17g", s->x[k], s->y[k]);
            if (s->bars)
                fprintf(f, " %.17g %.17g", isfinite(s->lo[k]) ? s->lo[k] : s->y[k],
                        isfinite(s->hi[k]) ? s->hi[k] : s->y[k]);
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }
    if (ferror(f) | fclose(f)) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void gp_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        fputs(*s == '\'' ? "''" : (char[2]){*s, 0}, f);
    fputc('\'', f);
}

/* Series i's colour, distinct from every other series' of its plot: twelve well separated
 * colours (Paul Tol's "muted" and "bright" schemes), then hues a golden angle apart at two
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

/* gnuplot's point types 1..15 in the cairo and SVG terminals (+, x, *, open and filled
 * squares, circles, triangles up and down, diamonds, pentagons): a series' marker, so that
 * series stay apart in grey print too; beyond 15 series the pair (colour, marker) still differs. */
enum { MB_POINT_TYPES = 15 };

/* The x tics of a size axis that shows 0 bytes: "0" at zero_at, then every power of ten up to
 * the largest size in gnuplot's '%.0s%cB' style (1B, 10B, 100B, 1kB, ...), none below zero_at. */
static void zero_tics(FILE *f, const struct plot *p)
{
    static const char prefix[] = " kMGTPE";

    fprintf(f, "set xtics ('0' %.17g", p->zero_at);
    for (double d = 1; d <= p->max_x * 2 && d < 1e21; d *= 10) {
        int e = 0;
        if (d <= p->zero_at)
            continue;
        for (double q = d; q >= 1000; q /= 1000)
            e++;
        fprintf(f, ", '%.0f%.*sB' %.17g", d / pow(1000, e), e ? 1 : 0, &prefix[e], d);
    }
    fprintf(f, ")\nset xrange [%.17g:%.17g]\n", p->zero_at / 2, (p->max_x > 0 ? p->max_x : 1) * 2);
}

/* Log-log, or a linear position axis with named tics (p->xtics); plain numbers on the
 * bandwidth/time axis ('%g', not gnuplot's six decimals); the key under the plot so that long
 * series names do not squeeze it. Each series its own colour and marker; error bars where it
 * carries intervals; 0 bytes at the tic labelled 0. */
static void write_script(FILE *f, const struct plot *p)
{
    static const char *const term[2][2] = {{"pngcairo size 960,720 noenhanced font ',10'", "png"},
                                           {"svg size 960,720 noenhanced dynamic", "svg"}};
    char x[64];

    fprintf(f, "\n# %s\nreset\nset grid\nset key below left Left reverse\n", p->title);
    if (p->xtics[0])
        fprintf(f, "set logscale y\nset xtics %s\nset xrange [0.5:%d.5]\n", p->xtics, p->xlast);
    else
        fprintf(f, "set logscale xy\nset format x '%%.0s%%cB'\n");
    if (!p->xtics[0] && p->has_zero) {
        zero_tics(f, p);
        snprintf(x, sizeof x, "($1 == 0 ? %.17g : $1)", p->zero_at);
    } else {
        snprintf(x, sizeof x, "1");
    }
    fprintf(f, "set format y '%%g'\nset title ");
    gp_quoted(f, p->title);
    fprintf(f, "\nset xlabel ");
    gp_quoted(f, p->xlabel);
    fprintf(f, "\nset ylabel ");
    gp_quoted(f, p->ylabel);
    fprintf(f, "\n");
    for (int t = 0; t < 2; t++) {
        fprintf(f, "set terminal %s\nset output '%s.%s'\nplot ", term[t][0], p->name, term[t][1]);
        for (size_t i = 0; i < p->n; i++) {
            char colour[8];
            series_colour(i, colour);
            fprintf(f, "%s'%s.dat' index %zu using %s:2%s with %s lc rgb '%s' pt %d title ",
                    i ? ", \\\n     " : "", p->name, i, x, p->s[i].bars ? ":3:4" : "",
                    p->s[i].bars ? "yerrorlines" : "linespoints", colour,
                    1 + (int)(i % MB_POINT_TYPES));
            gp_quoted(f, p->s[i].title);
        }
        fprintf(f, "\nset output\n");
    }
}

/* gnuplot in dir, its output in gnuplot.log; killed after 60 s. 0, or 1 with msg. */
static int run_gnuplot(const char *dir, char *msg, size_t len)
{
    char log[4096], cmd[4200];
    char *argv[] = {"gnuplot", "-e", cmd, NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc, st = 0;

    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    snprintf(cmd, sizeof cmd, "cd '");
    for (const char *s = dir; *s && strlen(cmd) + 4 < sizeof cmd; s++)
        strncat(cmd, *s == '\'' ? "''" : (char[2]){*s, 0}, sizeof cmd - strlen(cmd) - 1);
    strncat(cmd, "'; load 'plots.gp'", sizeof cmd - strlen(cmd) - 1);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        snprintf(msg, len,
                 "gnuplot not found (%s): plot scripts written, images not drawn; "
                 "install gnuplot (Debian: apt-get install gnuplot-nox) and run "
                 "'gnuplot plots.gp' in '%s'",
                 strerror(rc), dir);
        unlink(log);
        return 1;
    }
    for (int waited = 0;; waited++) {
        const struct timespec tick = {0, 20000000};
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            st = -1;
            break;
        }
        if (waited == 3000) { /* 60 s */
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        nanosleep(&tick, NULL);
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(msg, len, "gnuplot failed (see '%s'): some images may be missing", log);
        return 1;
    }
    return 0;
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
    struct plot *p = mb_rs_alloc(NULL, n, sizeof *p);
    const struct mb_record_type ***type_of = mb_rs_alloc(NULL, nruns, sizeof *type_of);
    char path[4096];
    FILE *gp;
    int status = 0;

    list->n = 0;
    for (size_t k = 0; k < nruns; k++) {
        type_of[k] = mb_rs_alloc(NULL, runs[k].n + 1, sizeof *type_of[k]);
        for (size_t i = 0; i < runs[k].n; i++)
            type_of[k][i] = mb_rt_of(runs[k].rec[i]);
    }
    /* Each page from the record types that draw into it, in the table's order; run after run,
     * so that a page's series are those of the first run, then of the second. */
    for (size_t i = 0; i < n; i++) {
        const struct mb_rt_page *pg = &mb_rt_pages[i];
        memset(&p[i], 0, sizeof p[i]);
        p[i].name = pg->name;
        p[i].title = pg->title;
        p[i].xlabel = pg->xlabel;
        p[i].ylabel = pg->ylabel;
        for (size_t k = 0; k < nruns; k++)
            for (size_t t = 0; t < mb_record_type_count; t++)
                for (int d = 0; d < MB_RT_PLOTS && mb_record_types[t].plots[d].page; d++)
                    if (strcmp(mb_record_types[t].plots[d].page, pg->name) == 0)
                        draw(&runs[k], nruns > 1 && labels ? labels[k] : NULL, type_of[k],
                             &mb_record_types[t], &mb_record_types[t].plots[d], pg->axis, &p[i]);
        if (pg->axis)
            position_tics(&p[i], pg->axis);
        /* 0 bytes two octaves below the smallest positive size (a quarter of it), or at 1/4
         * when nothing else was measured. */
        p[i].zero_at = p[i].min_pos > 0 ? p[i].min_pos / 4 : 0.25;
    }

    snprintf(path, sizeof path, "%s/plots.gp", dir);
    gp = fopen(path, "w");
    if (!gp) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        status = -1;
    } else {
        fprintf(gp, "# mpibench plots: 'gnuplot plots.gp' in this directory redraws them\n");
    }
    for (size_t i = 0; i < n && status == 0; i++) {
        if (p[i].n == 0 || list->n == MB_MAX_PLOTS)
            continue;
        status = write_data(dir, &p[i], msg, len);
        write_script(gp, &p[i]);
        snprintf(list->name[list->n], sizeof list->name[0], "%s", p[i].name);
        snprintf(list->title[list->n++], sizeof list->title[0], "%s", p[i].title);
    }
    if (gp && (ferror(gp) | fclose(gp)) && status == 0) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        status = -1;
    }
    for (size_t i = 0; i < n; i++)
        free_plot(&p[i]);
    free(p);
    for (size_t k = 0; k < nruns; k++)
        free(type_of[k]);
    free(type_of);
    if (status == 0 && list->n > 0)
        status = run_gnuplot(dir, msg, len);
    return status;
}
