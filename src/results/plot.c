#include "results/plot.h"

#include "beffio/beffio.h"

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

enum { MAX_SERIES = 48 };

struct series {
    char title[96];
    double *x, *y;
    size_t n, cap;
    int keep_max; /* points at one x: only the largest is kept (sort_series) */
};

struct plot {
    const char *name, *title, *xlabel, *ylabel;
    struct series s[MAX_SERIES];
    size_t n;
    /* Empty: x is a size on a logarithmic axis. Otherwise a gnuplot tic list for a linear
     * axis of positions (b_eff_io's pseudo-logarithmic chunk axis). */
    char xtics[160];
    int xlast; /* the last position of that axis */
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
 * repetitions), once the series is sorted. */
static void add_point(struct plot *p, const char *title, double x, double y, int keep_max)
{
    struct series *s = NULL;

    if (!isfinite(x) || !isfinite(y) || x <= 0 || y <= 0) /* log axes */
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
    }
    s->x[s->n] = x;
    s->y[s->n++] = y;
}

static void free_plot(struct plot *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->s[i].x);
        free(p->s[i].y);
    }
}

static int str_is(const json_t *o, const char *key, const char *want)
{
    const char *v = mb_rec_str(o, key);
    return v && strcmp(v, want) == 0;
}

/* An IMB row that measured (not skipped), of one group (not -multi 1's per-group rows). */
static int imb_ok(const json_t *o)
{
    return mb_rec_is(o, "result") && str_is(o, "status", "ok") &&
           !json_is_integer(json_object_get(o, "group"));
}

static void series_title(char *t, size_t len, const json_t *o)
{
    const char *mode = mb_rec_str(o, "mode");
    snprintf(t, len, "%s %s%s%s%s, %lld procs", mb_rec_str(o, "suite"),
             json_is_true(json_object_get(o, "multi")) ? "Multi-" : "", mb_rec_str(o, "benchmark"),
             mode ? " " : "", mode ? mode : "", mb_rec_int(o, "processes", 0));
}

/* PingPong and IMB-EXT's Unidir (guide 3.3.2, 4.2.3): time and bandwidth per size. */
static void pt2pt(const struct mb_records *r, struct plot *lat, struct plot *bw)
{
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const char *b = mb_rec_str(o, "benchmark");
        char t[96];

        if (!imb_ok(o) || !b ||
            (strcmp(b, "PingPong") != 0 && strcmp(b, "Unidir_Put") != 0 &&
             strcmp(b, "Unidir_Get") != 0))
            continue;
        series_title(t, sizeof t, o);
        add_point(lat, t, mb_rec_num(o, "bytes"), mb_rec_num(o, "t_avg_usec"), 0);
        add_point(bw, t, mb_rec_num(o, "bytes"), mb_rec_num(o, "mbytes_per_sec"), 0);
    }
}

/* IMB-IO (guide 4.2.4): bandwidth per size of each benchmark and mode. */
static void imb_io(const struct mb_records *r, struct plot *p)
{
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        char t[96];

        if (!imb_ok(o) || !str_is(o, "suite", "IMB-IO"))
            continue;
        series_title(t, sizeof t, o);
        add_point(p, t, mb_rec_num(o, "bytes"), mb_rec_num(o, "mbytes_per_sec"), 0);
    }
}

/* Presta com and rma: bandwidth per size of each test and process count. */
static void presta(const struct mb_records *r, struct plot *p)
{
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        char t[96];

        if (!mb_rec_is(o, "presta_row") || !json_is_number(json_object_get(o, "bandwidth_mbs")))
            continue;
        snprintf(t, sizeof t, "%s %s, %lld procs", mb_rec_str(o, "program"), mb_rec_str(o, "test"),
                 mb_rec_int(o, "processes", 0));
        add_point(p, t, mb_rec_num(o, "size_bytes"), mb_rec_num(o, "bandwidth_mbs"), 0);
    }
}

/* The key of a benchmark of a suite in collectives()'s table (NULL parts as "", which no
 * suite or benchmark is called). */
static void suite_benchmark(char *k, size_t len, const json_t *o)
{
    const char *s = mb_rec_str(o, "suite"), *b = mb_rec_str(o, "benchmark");
    snprintf(k, len, "%s\n%s", s ? s : "", b ? b : "");
}

/* Collectives: t_avg per size, each benchmark at the largest process count it ran on. The
 * largest count of each suite and benchmark is found in one pass (a jansson object as a hash
 * table), so that a file of many rows is read in linear time, not quadratic. */
static void collectives(const struct mb_records *r, struct plot *p)
{
    json_t *most = json_object();
    char k[256];

    for (size_t i = 0; i < r->n; i++) {
        const json_t *q = r->rec[i];
        const long long np = mb_rec_int(q, "processes", 0);
        const json_t *m;

        if (!imb_ok(q) || json_is_true(json_object_get(q, "multi")) ||
            !mb_rec_str(q, "benchmark") || !mb_rec_str(q, "suite"))
            continue;
        suite_benchmark(k, sizeof k, q);
        m = json_object_get(most, k);
        if (!m || np > json_integer_value(m))
            mb_rs_index_set(most, k, np);
    }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long np = mb_rec_int(o, "processes", 0);
        char t[96];

        if (!imb_ok(o) || !str_is(o, "class", "collective") || str_is(o, "suite", "IMB-IO") ||
            json_is_true(json_object_get(o, "multi")) || !mb_rec_str(o, "benchmark") ||
            !mb_rec_str(o, "suite"))
            continue;
        suite_benchmark(k, sizeof k, o);
        if (np != json_integer_value(json_object_get(most, k)))
            continue;
        series_title(t, sizeof t, o);
        add_point(p, t, mb_rec_num(o, "bytes"), mb_rec_num(o, "t_avg_usec"), 0);
    }
    json_decref(most);
}

/* b_eff (b_eff paper §3): the ring and random averages and b_eff per size from the result,
 * and each additional pattern's best bandwidth (over methods and repetitions) per size. */
static void beff(const struct mb_records *r, struct plot *p)
{
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        static const char *const arrays[][2] = {{"rings_mbytes_per_sec", "rings (average)"},
                                                {"random_mbytes_per_sec", "random (average)"},
                                                {"b_eff_by_size_mbytes_per_sec", "b_eff"}};
        const json_t *bytes = json_object_get(o, "bytes");

        if (!mb_rec_is(o, "beff_result"))
            continue;
        for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
            const json_t *v = json_object_get(o, arrays[a][0]);
            for (size_t k = 0; k < json_array_size(bytes); k++)
                add_point(p, arrays[a][1], json_number_value(json_array_get(bytes, k)),
                          json_number_value(json_array_get(v, k)), 0);
        }
    }
    /* Additional ("info") patterns: the rings and random ones are averaged above. */
    unsigned char info[256] = {0};
    for (size_t i = 0; i < r->n; i++) {
        const long long k = mb_rec_int(r->rec[i], "pattern", -1);
        if (mb_rec_is(r->rec[i], "beff_pattern") && k >= 0 && k < 256)
            info[k] = str_is(r->rec[i], "role", "info");
    }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long k = mb_rec_int(o, "pattern", -1);
        const char *label = mb_rec_str(o, "label");

        if (mb_rec_is(o, "beff_measurement") && label && k >= 0 && k < 256 && info[k])
            add_point(p, label, mb_rec_num(o, "bytes"), mb_rec_num(o, "mbytes_per_sec"), 1);
    }
}

/* b_eff_io (b_eff_io paper Fig. 2): per access method, bandwidth per chunk size of each
 * pattern type, for the partition whose value is the system's (the largest one measured
 * when the run ended early). The chunk axis is the paper's pseudo-logarithmic one - 1k, +8,
 * 32k, +8, 1M, +8, L_max - with the positions b_eff_io's own plot files use, so the "+8"
 * (non-wellformed) point stands beside its power of two instead of on top of it; patterns
 * without a place there (the first and the 1 MB chunks of 2 MB calls of type 0) are left
 * out, as in b_eff_io's plots. */
static void beffio(const struct mb_records *r, struct plot *p, const char *access)
{
    const int last = mb_bio_position_x(MB_BIO_POSITIONS);
    long long part = -1;
    double lmax = 0;
    char label[24] = "L_max";

    for (size_t i = 0; i < r->n; i++) {
        if (mb_rec_is(r->rec[i], "beffio_result"))
            part = mb_rec_int(r->rec[i], "partition", -1);
        else if (part < 0 && mb_rec_is(r->rec[i], "beffio_pattern"))
            part = -2; /* a cut run: take the last partition seen below */
    }
    for (size_t i = 0; i < r->n && part == -2; i++)
        if (mb_rec_is(r->rec[i], "beffio_pattern"))
            part = part < mb_rec_int(r->rec[i], "partition", 0)
                       ? mb_rec_int(r->rec[i], "partition", 0)
                       : part;
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long pos = mb_rec_int(o, "position", 0);
        const int x = pos > 0 && pos <= MB_BIO_POSITIONS ? mb_bio_position_x((int)pos) : 0;
        char t[96];

        if (!mb_rec_is(o, "beffio_pattern") || !str_is(o, "access", access) ||
            mb_rec_int(o, "partition", -1) != part || x == 0)
            continue;
        if (x == last)
            lmax = mb_rec_num(o, "chunk_bytes");
        snprintf(t, sizeof t, "%s, %lld procs", mb_rec_str(o, "pattern_type"),
                 mb_rec_int(o, "processes", 0));
        add_point(p, t, x, mb_rec_num(o, "mbytes_per_sec"), 0);
    }
    /* L_max in MiB as b_eff_io's plots label it, or its name when it was not measured. */
    if (lmax > 0)
        snprintf(label, sizeof label, "%.4gM", lmax / 1048576.0);
    mb_bio_xtics(p->xtics, sizeof p->xtics, label);
    p->xlast = last;
}

struct xy {
    double x, y;
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
        v[i] = (struct xy){s->x[i], s->y[i], i};
    qsort(v, s->n, sizeof *v, by_x);
    for (size_t i = 0; i < s->n; i++) {
        if (s->keep_max && n > 0 && s->x[n - 1] == v[i].x) {
            s->y[n - 1] = fmax(s->y[n - 1], v[i].y);
            continue;
        }
        s->x[n] = v[i].x;
        s->y[n++] = v[i].y;
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
    for (size_t i = 0; i < p->n; i++) {
        sort_series(&p->s[i]);
        fprintf(f, "%s\n# %s\n", i ? "\n" : "", p->s[i].title);
        for (size_t k = 0; k < p->s[i].n; k++)
            fprintf(f, "%.17g %.17g\n", p->s[i].x[k], p->s[i].y[k]);
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

/* Log-log, or a linear position axis with named tics (p->xtics); plain numbers on the
 * bandwidth/time axis ('%g', not gnuplot's six decimals); the key under the plot so that long
 * series names do not squeeze it. */
static void write_script(FILE *f, const struct plot *p)
{
    static const char *const term[2][2] = {{"pngcairo size 960,720 noenhanced font ',10'", "png"},
                                           {"svg size 960,720 noenhanced dynamic", "svg"}};

    fprintf(f, "\n# %s\nreset\nset grid\nset key below left Left reverse\n", p->title);
    if (p->xtics[0])
        fprintf(f, "set logscale y\nset xtics %s\nset xrange [0.5:%d.5]\n", p->xtics, p->xlast);
    else
        fprintf(f, "set logscale xy\nset format x '%%.0s%%cB'\n");
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
            fprintf(f, "%s'%s.dat' index %zu using 1:2 with linespoints title ",
                    i ? ", \\\n     " : "", p->name, i);
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

/* Every plot, in the order of index.html. */
enum { LAT, BW, COLL, PRESTA, IMBIO, BEFF, BIO_W, BIO_RW, BIO_R, N };
static const struct plot plots[N] = {
    [LAT] = {.name = "pt2pt_latency",
             .title = "Point-to-point latency (IMB PingPong, Unidir)",
             .xlabel = "message size [bytes]",
             .ylabel = "time [usec]"},
    [BW] = {.name = "pt2pt_bandwidth",
            .title = "Point-to-point bandwidth (IMB PingPong, Unidir)",
            .xlabel = "message size [bytes]",
            .ylabel = "bandwidth [MBytes/sec, 2^20 bytes]"},
    [COLL] = {.name = "collectives",
              .title = "Collectives: average time per call (IMB)",
              .xlabel = "message size [bytes]",
              .ylabel = "t_avg [usec]"},
    [PRESTA] = {.name = "presta_bandwidth",
                .title = "Presta com/rma: bandwidth per message size",
                .xlabel = "message size [bytes]",
                .ylabel = "bandwidth [MB/s, 10^6 bytes]"},
    [IMBIO] = {.name = "imb_io_bandwidth",
               .title = "IMB-IO: bandwidth per transfer size",
               .xlabel = "transfer size [bytes]",
               .ylabel = "bandwidth [MBytes/sec, 2^20 bytes]"},
    [BEFF] = {.name = "beff",
              .title = "b_eff: bandwidth per message size and pattern",
              .xlabel = "message size [bytes]",
              .ylabel = "bandwidth [MB/s, 10^6 bytes]"},
    [BIO_W] = {.name = "beffio_write",
               .title = "b_eff_io: write bandwidth per chunk size",
               .xlabel = "contiguous chunk size on disk",
               .ylabel = "bandwidth [MB/s, 10^6 bytes]"},
    [BIO_RW] = {.name = "beffio_rewrite",
                .title = "b_eff_io: rewrite bandwidth per chunk size",
                .xlabel = "contiguous chunk size on disk",
                .ylabel = "bandwidth [MB/s, 10^6 bytes]"},
    [BIO_R] = {.name = "beffio_read",
               .title = "b_eff_io: read bandwidth per chunk size",
               .xlabel = "contiguous chunk size on disk",
               .ylabel = "bandwidth [MB/s, 10^6 bytes]"},
};

void mb_plot_files(void (*each)(const char *file, void *arg), void *arg)
{
    static const char *const own[] = {"plots.gp", "gnuplot.log", "index.html"};
    static const char *const ext[] = {"dat", "png", "svg"};
    char file[64];

    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        each(own[i], arg);
    for (int i = 0; i < N; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            snprintf(file, sizeof file, "%s.%s", plots[i].name, ext[e]);
            each(file, arg);
        }
}

int mb_plots_write(const struct mb_records *r, const char *dir, struct mb_plot_list *list,
                   char *msg, size_t len)
{
    struct plot p[N];
    char path[4096];
    FILE *gp;
    int status = 0;

    memcpy(p, plots, sizeof p);
    list->n = 0;
    pt2pt(r, &p[LAT], &p[BW]);
    collectives(r, &p[COLL]);
    presta(r, &p[PRESTA]);
    imb_io(r, &p[IMBIO]);
    beff(r, &p[BEFF]);
    beffio(r, &p[BIO_W], "write");
    beffio(r, &p[BIO_RW], "rewrite");
    beffio(r, &p[BIO_R], "read");

    snprintf(path, sizeof path, "%s/plots.gp", dir);
    gp = fopen(path, "w");
    if (!gp) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        status = -1;
    } else {
        fprintf(gp, "# mpibench plots: 'gnuplot plots.gp' in this directory redraws them\n");
    }
    for (int i = 0; i < N && status == 0; i++) {
        if (p[i].n == 0)
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
    for (int i = 0; i < N; i++)
        free_plot(&p[i]);
    if (status == 0 && list->n > 0)
        status = run_gnuplot(dir, msg, len);
    return status;
}
