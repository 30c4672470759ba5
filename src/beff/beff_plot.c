/* SPDX-License-Identifier: BSD-3-Clause */
/* The gnuplot data file (.plot) and script (.gps) of b_eff, as b_eff 3.6 writes them. All values
 * are per process, MByte/s = 1e6 Byte/s. b_eff 3.6's quirk Q3 (docs/adr/beff-output.md) fixed: the
 * "additional" columns are the real informational patterns (the ping-pong pair excepted), not fixed
 * indices 36-45. */
#include "beff/beff_report.h"

#include <math.h>
#include <stdio.h>

#define W (MB_BEFF_SIZES + 1)

static int is_additional(const struct mb_beff_patterns *set, int p)
{
    return p >= set->first_info && p != set->pingpong;
}

/* Rows of one pattern-value table: val(p, k) in bytes/s. */
static void block(const struct mb_beff_report *r, FILE *f, const char *title, const double *val,
                  size_t stride, int additional, int nsizes)
{
    const struct mb_beff_patterns *set = r->set;
    const double n = r->nprocs;

    fprintf(f, "\n\n# %s\n", title);
    for (int k = 0; k < nsizes; k++) {
        double lo = HUGE_VAL, hi = 0, s = 0;
        int cnt = 0;
        fprintf(f, "%10lld ", r->d->len[k]);
        for (int p = 0; p < set->n; p++) {
            const double v = val[(size_t)p * stride + (size_t)k];
            if (additional ? is_additional(set, p) : set->p[p].role == MB_BEFF_ROLE_RING)
                fprintf(f, "%7.3f ", v / 1e6 / n);
            if (!additional && set->p[p].role == MB_BEFF_ROLE_RANDOM && v > 0) {
                lo = fmin(lo, v), hi = fmax(hi, v), s += log(v), cnt++;
            }
        }
        if (!additional)
            fprintf(f, "%7.3f %7.3f %7.3f ", cnt ? lo / 1e6 / n : 0,
                    cnt ? exp(s / cnt) / 1e6 / n : 0, hi / 1e6 / n);
        fprintf(f, "\n");
    }
}

void mb_beff_write_plot(const struct mb_beff_report *r, FILE *f)
{
    const struct mb_beff_analysis *a = r->a;
    const double n = r->nprocs;
    /* Methods cannot be compared where the 3.6 rule measured only the best one. */
    const int nm = r->d->shortened ? MB_BEFF_SIZES - 2 : MB_BEFF_SIZES;
    char title[64];

    fprintf(f, "# b_eff (mpibench) - Use this file with Gnuplot (%s.gps)\n#\n#\n#\n",
            mb_beff_cfg(r->cfg)->prefix);
    for (int m = 0; m < MB_BEFF_METHODS; m++) {
        const double *val = a->Bm + (size_t)m * W;
        snprintf(title, sizeof title, "%s: ring & random", mb_beff_method_label[m]);
        block(r, f, title, val, MB_BEFF_METHODS * W, 0, nm);
        snprintf(title, sizeof title, "%s: additional", mb_beff_method_label[m]);
        block(r, f, title, val, MB_BEFF_METHODS * W, 1, nm);
    }
    block(r, f, "best: ring & random", a->B, W, 0, MB_BEFF_SIZES);
    block(r, f, "best: additional", a->B, W, 1, MB_BEFF_SIZES);
    fprintf(f, "\n\n# compare the methods: ring & random\n");
    for (int k = 0; k < nm; k++) {
        fprintf(f, "%10lld ", r->d->len[k]);
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            fprintf(f, "%7.3f ", a->geo_m[m][k].ring / 1e6 / n);
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            fprintf(f, "%7.3f ", a->geo_m[m][k].random / 1e6 / n);
        fprintf(f, "\n");
    }
    fprintf(f, "\n\n# compare ring & random\n");
    for (int k = 0; k < MB_BEFF_SIZES; k++) {
        const struct mb_beff_geo *g = &a->geo[k];
        fprintf(f, "%10lld %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f \n", r->d->len[k],
                g->ring_min / 1e6 / n, g->ring / 1e6 / n, g->ring_max / 1e6 / n,
                g->random_min / 1e6 / n, g->random / 1e6 / n, g->random_max / 1e6 / n,
                g->final / 1e6 / n);
    }
}

/* One plot command over consecutive columns of a data block, titled by titles[]. */
static void plot_cmd(FILE *f, const char *data, int index, const char *const *titles, int n)
{
    fprintf(f, "plot ");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s'%s' index %d using 1:%d title '%s' with linespoints", i ? ", \\\n     " : "",
                data, index, i + 2, titles[i]);
    fprintf(f, "\n");
}

void mb_beff_write_gps(const struct mb_beff_report *r, FILE *f, const char *plotname)
{
    static const char *const best_label = "Best transfer method";
    const struct mb_beff_patterns *set = r->set;
    const char *titles[64];
    const char *prefix = mb_beff_cfg(r->cfg)->prefix;
    int fig = 0;

    fprintf(f,
            "# b_eff (mpibench): gnuplot script for %s; run 'gnuplot %s.gps' to get "
            "%s.fig<N>.svg\n",
            plotname, prefix, prefix);
    fprintf(f, "set term svg size 800,600\n");
    fprintf(f, "set ylabel 'bandwidth per process [MB/s]'\n");
    fprintf(f, "set xlabel 'message length per process [Byte]'\n");
    fprintf(f, "set logscale\nset key right bottom\nset yrange [%g:%g]\n",
            mb_beff_cfg(r->cfg)->ymin, mb_beff_cfg(r->cfg)->ymax);
    for (int i = 0; i <= MB_BEFF_METHODS; i++) {
        const char *label = i < MB_BEFF_METHODS ? mb_beff_method_label[i] : best_label;
        int n = 0;
        for (int p = 0; p < set->n && n < 61; p++)
            if (set->p[p].role == MB_BEFF_ROLE_RING)
                titles[n++] = set->p[p].label;
        titles[n++] = "worst random";
        titles[n++] = "avg random";
        titles[n++] = "best random";
        fprintf(f, "set output '%s.fig%d.svg'\nset title '%s, ring & random patterns'\n", prefix,
                fig++, label);
        plot_cmd(f, plotname, 2 * i, titles, n);
        n = 0;
        for (int p = 0; p < set->n && n < 64; p++)
            if (is_additional(set, p))
                titles[n++] = set->p[p].label;
        fprintf(f, "set output '%s.fig%d.svg'\nset title '%s, additional patterns'\n", prefix,
                fig++, label);
        plot_cmd(f, plotname, 2 * i + 1, titles, n);
    }
    {
        const char *const cmp[6] = {"rings Sndrcv",  "rings Alltoal",  "rings non-blk",
                                    "random Sndrcv", "random Alltoal", "random non-blk"};
        const char *const rr[7] = {"rings minimum",        "rings average",  "rings maximum",
                                   "random minimum",       "random average", "random maximum",
                                   "ring & random average"};
        fprintf(f,
                "set output '%s.fig%d.svg'\nset title 'Ring & random average: Sndrcv, "
                "Alltoal, non-blk'\n",
                prefix, fig++);
        plot_cmd(f, plotname, 8, cmp, 6);
        fprintf(f, "set output '%s.fig%d.svg'\nset title 'Best method: rings & random'\n", prefix,
                fig++);
        plot_cmd(f, plotname, 9, rr, 7);
    }
}
