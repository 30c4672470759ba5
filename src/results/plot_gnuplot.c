/* SPDX-License-Identifier: BSD-3-Clause */
/* The plots' files: one NAME.dat per plot (a block per series), plots.gp drawing every plot as
 * PNG and SVG (its parts written by plot_script.c), and gnuplot run on it
 * (results/plot_internal.h). */
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
    for (int c = 0; c < p->ncaptions; c++)
        fprintf(f, "# %s\n", p->caption[c]);
    if (p->left_out)
        fprintf(f, "# %zu series left out: a plot draws at most %d series in %d panels\n",
                p->left_out, MB_PLOT_SERIES, MB_PLOT_PANELS);
    for (size_t i = 0; i < p->n; i++) {
        const struct mb_series *s = &p->s[i];
        const int four = s->bars || s->has_extra;
        mb_plot_sort(&p->s[i]);
        fprintf(f, "%s\n# %s", i ? "\n" : "", s->title);
        if (s->ratio)
            fprintf(f, "\n# x ratio (this run's y over the first run's at the same x in the "
                       "series of the same name: a time > 1 is slower, a bandwidth > 1 faster)");
        else if (s->has_extra)
            fprintf(f, "\n# %s", p->extra_note);
        else if (s->bars)
            fprintf(f, "\n# x y y_ci95_low y_ci95_high (y: the median where the row has "
                       "samples, with its 95 %% interval; else y, y, y)");
        if (p->npanels > 1)
            fprintf(f, "\n# panel: %s", p->panel[s->panel]);
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
        mb_plot_script(gp, &p[i]);
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
