/* SPDX-License-Identifier: BSD-3-Clause */
/* The plots' files: one NAME.dat per plot (a block per series), plots.gp drawing every plot as
 * PNG and SVG, and gnuplot run on it (results/plot_internal.h). */
#include "results/plot_internal.h"

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

struct xy {
    double x, y, lo, hi, extra;
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
void mb_plot_sort(struct mb_series *s)
{
    struct xy *v = mb_rs_alloc(NULL, s->n + 1, sizeof *v);
    size_t n = 0;

    for (size_t i = 0; i < s->n; i++)
        v[i] = (struct xy){s->x[i], s->y[i], s->lo[i], s->hi[i], s->extra[i], i};
    qsort(v, s->n, sizeof *v, by_x);
    for (size_t i = 0; i < s->n; i++) {
        if (s->keep_max && n > 0 && s->x[n - 1] == v[i].x) {
            if (v[i].y > s->y[n - 1]) {
                s->y[n - 1] = v[i].y;
                s->lo[n - 1] = v[i].lo;
                s->hi[n - 1] = v[i].hi;
                s->extra[n - 1] = v[i].extra;
            }
            continue;
        }
        s->x[n] = v[i].x;
        s->y[n] = v[i].y;
        s->lo[n] = v[i].lo;
        s->hi[n] = v[i].hi;
        s->extra[n++] = v[i].extra;
    }
    s->n = n;
    free(v);
}

/* One block per series: x y, with error bars x y lo hi (lo = hi = y where a point has none),
 * with a fifth column x y lo hi extra (the plot's extra_note says what it is). */
static int write_data(const char *dir, struct mb_plot *p, char *msg, size_t len)
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
        const struct mb_series *s = &p->s[i];
        const int four = s->bars || s->has_extra;
        mb_plot_sort(&p->s[i]);
        fprintf(f, "%s\n# %s", i ? "\n" : "", s->title);
        if (s->has_extra)
            fprintf(f, "\n# %s", p->extra_note);
        else if (s->bars)
            fprintf(f, "\n# x y y_ci95_low y_ci95_high (y: the median where the row has "
                       "samples, with its 95 %% interval; else y, y, y)");
        fprintf(f, "\n");
        for (size_t k = 0; k < s->n; k++) {
            fprintf(f, "%.17g %.17g", s->x[k], s->y[k]);
            if (four)
                fprintf(f, " %.17g %.17g", isfinite(s->lo[k]) ? s->lo[k] : s->y[k],
                        isfinite(s->hi[k]) ? s->hi[k] : s->y[k]);
            if (s->has_extra)
                fprintf(f, " %.17g", s->extra[k]);
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
static void zero_tics(FILE *f, const struct mb_plot *p)
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

/* One series' plot element: its block, x (0 bytes at the tic 0, dodged), its error bars, its
 * colour, marker and dash. */
static void series_element(FILE *f, const struct mb_plot *p, size_t i, const char *x)
{
    const struct mb_series *s = &p->s[i];
    char colour[8], xs[96];

    series_colour(s->styled ? (size_t)s->colour : i, colour);
    if (s->dodge > 0)
        snprintf(xs, sizeof xs, "(%s*%.6g)", x[0] == '(' ? x : "$1", s->dodge);
    else
        snprintf(xs, sizeof xs, "%s", x);
    fprintf(f, "%s'%s.dat' index %zu using %s:2%s with %s lc rgb '%s' pt %d",
            i ? ", \\\n     " : "", p->name, i, xs, s->bars ? ":3:4" : "",
            s->bars ? "yerrorlines" : "linespoints", colour,
            s->styled ? s->pt : 1 + (int)(i % MB_POINT_TYPES));
    if (s->styled && s->dt > 1)
        fprintf(f, " dt %d", s->dt);
    fprintf(f, " title ");
    gp_quoted(f, s->title);
}

/* Log-log, or a linear position axis with named tics (p->xtics); plain numbers on the
 * bandwidth/time axis ('%g', not gnuplot's six decimals); the key under the plot so that long
 * series names do not squeeze it. Each series its own colour and marker; error bars where it
 * carries intervals; 0 bytes at the tic labelled 0. A ratio plot draws its lines at 1 (no
 * change) and at the threshold both ways. */
static void write_script(FILE *f, const struct mb_plot *p)
{
    static const char *const term[2][2] = {{"pngcairo size 960,720 noenhanced font ',10'", "png"},
                                           {"svg size 960,720 noenhanced dynamic", "svg"}};
    char x[64];

    fprintf(f, "\n# %s\nreset\nset grid\nset key below left Left reverse\n", p->title);
    if (p->key_title[0]) {
        /* Double quotes: its lines ('\n') stay lines, and the key is no wider than the
         * longest, so that gnuplot does not spread the entries over columns to fill it. A
         * first empty line: without it gnuplot 5.4 draws the title over the x axis's label. */
        fprintf(f, "set key title \"\\n");
        for (const char *c = p->key_title; *c; c++)
            fputs(*c == '\n'   ? "\\n"
                  : *c == '"'  ? "\\\""
                  : *c == '\\' ? "\\\\"
                               : (char[2]){*c, 0},
                  f);
        fprintf(f, "\" left\n");
    }
    if (p->key_pairs)
        fprintf(f, "set key maxcols 2\n");
    if (p->xtics[0])
        fprintf(f, "set logscale y\nset xtics %s\nset xrange [0.5:%d.5]\n", p->xtics, p->xlast);
    else if (p->linear_y)
        fprintf(f, "set logscale x\nset yrange [0:*]\nset format x '%%.0s%%cB'\n");
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
        for (size_t i = 0; i < p->n; i++)
            series_element(f, p, i, x);
        if (p->band > 1) {
            fprintf(f,
                    ", \\\n     1 with lines lc rgb '#000000' lw 1.5 title 'no change "
                    "(ratio 1)', \\\n     %.6g with lines lc rgb '#777777' dt 2 title ",
                    p->band);
            gp_quoted(f, p->band_title);
            fprintf(f, ", \\\n     %.6g with lines lc rgb '#777777' dt 2 notitle", 1 / p->band);
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

int mb_plot_write_all(struct mb_plot *p, size_t n, const char *dir, struct mb_plot_list *list,
                      char *msg, size_t len)
{
    char path[4096];
    FILE *gp;
    int status = 0;

    list->n = 0;
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
    if (status == 0 && list->n > 0)
        status = run_gnuplot(dir, msg, len);
    return status;
}
