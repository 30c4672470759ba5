/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of the plots (results/plot.h) shared by their files: records drawn into plots
 * (plot.c), the panels' order, the runs' ratios and the captions (plot_panels.c), the plots of
 * two groups of runs and the ratio plots (plot_groups.c), the gnuplot script (plot_script.c),
 * and the data files and gnuplot itself (plot_gnuplot.c). */
#ifndef MB_PLOT_INTERNAL_H
#define MB_PLOT_INTERNAL_H

#include "results/plot.h"
#include "results/record_types.h"

#include <stddef.h>
#include <stdio.h>

/* Series of one plot (a page of a full run of IMB-MPI1 and IMB-NBC on a few process counts
 * has about 100, its ratios as many again); panels of one plot (small multiples); runs told
 * apart by dash type; caption lines. */
enum { MB_PLOT_SERIES = 512, MB_PLOT_PANELS = 64, MB_PLOT_RUNS = 64, MB_PLOT_CAPTIONS = 4 };

/* Where a series is drawn and how it is styled: its panel's title ("" the page's only panel),
 * its name within the panel (its colour and marker on the whole page: a benchmark, a process
 * count), its run (0: solid line, open markers; run k: dash type k + 1, filled markers) and
 * whether it is drawn in every panel (results/record_types.h, everywhere). */
struct mb_series_id {
    const char *panel, *key;
    int run, everywhere;
};

struct mb_series {
    char title[96]; /* the whole name, as in the .dat: "[RUN: ]IMB-MPI1 Bcast, 2 procs" */
    char key[96];
    size_t panel; /* index into the plot's panels */
    int run, everywhere;
    int ratio;   /* a ratio series of the ratio panel under its panel (mb_plot_ratios) */
    size_t keyi; /* its key's place among the plot's keys (plot_script.c) */
    double *x, *y, *lo, *hi; /* lo, hi: the point's error bar, NAN without */
    double *extra;           /* a fifth column of the .dat (plot's extra_note), NAN: none */
    size_t n, cap;
    int keep_max; /* points at one x: only the largest is kept (mb_plot_sort) */
    int bars;     /* some point has an error bar: drawn with error bars */
    int has_extra;
    double dodge; /* > 0: x drawn times this factor, so that bars at one size stand apart */
};

struct mb_plot {
    char name[32], title[128];
    const char *xlabel, *ylabel;
    const char *extra_note; /* what the .dat's fifth column is, for series that have one */
    char key_title[200];    /* the legend's heading: what styles and bars mean; "" none */
    double band;            /* > 1: a ratio plot with lines at 1, band and 1 / band */
    char band_title[96];
    struct mb_series s[MB_PLOT_SERIES];
    size_t n;
    json_t *index;   /* title -> its series' index, or -1: left out (beyond MB_PLOT_SERIES) */
    size_t left_out; /* series left out: more than MB_PLOT_SERIES or MB_PLOT_PANELS */
    char panel[MB_PLOT_PANELS][96]; /* the panels' titles, in the order they first appear */
    size_t npanels;
    /* The runs drawn over each other (their names in the legend, by dash type) and whether
     * each panel gets a ratio panel under it (mpibench plot A B: every run over the first). */
    char run_label[MB_PLOT_RUNS][96];
    int nruns, ratios;
    /* Where the results come from (hosts, MPI, date, CPU): a line per run or group, under the
     * legend of every image. */
    char caption[MB_PLOT_CAPTIONS][256];
    int ncaptions;
    /* Empty: x is a size on a logarithmic axis. Otherwise a gnuplot tic list for a linear
     * axis of positions (b_eff_io's pseudo-logarithmic chunk axis). */
    char xtics[160];
    int xlast;         /* the last position of that axis */
    double last_value; /* the last position's value (its tic: b_eff_io's L_max) */
    /* A size axis with 0-byte points: those are drawn at zero_at, below the smallest
     * positive size min_pos, at a tic labelled 0 (a logarithmic axis has no 0). */
    int has_zero;
    double min_pos, max_x, zero_at;
    int linear_y; /* the value axis linear from 0 (its page's linear_y): 0 is a value */
    int x_count;  /* x is a count (its page's x_count) */
};

/* An empty plot of that name and captions (p zeroed first). */
/* The same for a page of the record types' table: its name, captions and value axis. */
struct mb_rt_page;
void mb_plot_init_page(struct mb_plot *p, const struct mb_rt_page *pg);
void mb_plot_init(struct mb_plot *p, const char *name, const char *title, const char *xlabel,
                  const char *ylabel);
void mb_plot_free(struct mb_plot *p);

/* Adds (x, y) to the series of that title (made at the end when new, in the panel and with the
 * key of id - NULL: the page's one panel, the title as key, run 0; none beyond MB_PLOT_SERIES
 * or MB_PLOT_PANELS): its series, or NULL when the point has no place on the axes (x < 0,
 * y <= 0, not finite). lo, hi: its error bar (NAN: none); extra: its fifth column (NAN:
 * none). */
struct mb_series *mb_plot_add(struct mb_plot *p, const char *title, const struct mb_series_id *id,
                              double x, double y, double lo, double hi, double extra, int keep_max);

/* By x; points at one x in the order they came, or only the largest (keep_max). */
void mb_plot_sort(struct mb_series *s);

/* The record types' points of page pg of one run into p (a page's axis tics aside).
 * run: the series' prefix ("LABEL: "), or NULL; run_index: the run's place (its dash type);
 * run_value: y is the value one run gives a
 * row, as compare takes it (F_median where the row has samples, else F), without the
 * interval; else the median with its interval where the row has one, else F. */
void mb_plot_draw_page(const struct mb_records *r, const struct mb_record_type *const *type_of,
                       const struct mb_rt_page *pg, const char *run, int run_index, int run_value,
                       struct mb_plot *p);

/* The record type of every record of r (malloc'd). */
const struct mb_record_type **mb_plot_types(const struct mb_records *r);

/* A page's position-axis tics (after its points: the last tic may be a measured value). */
void mb_plot_position_tics(struct mb_plot *p, const struct mb_rt_axis *axis);

/* Where 0 bytes are drawn, once the points are in. */
void mb_plot_place_zero(struct mb_plot *p);

/* The ratio series of p's runs (mpibench plot A B): for every series of run k > 0 whose
 * panel has a series of the same key in run 0, y_k / y_0 at each x both measured, drawn in
 * the ratio panel under that panel; sets p->ratios when there is one. Sorts every series. */
void mb_plot_ratios(struct mb_plot *p);

/* The caption line of a run or a group of runs (label, NULL for a single run): its hosts, MPI
 * library, date (first..last of a group) and CPU model, from the header records. */
void mb_plot_caption(struct mb_plot *p, const char *label, const struct mb_records *runs,
                     size_t nruns);

/* plots.gp's part that draws p (plot_script.c; numbers the series' keys). */
void mb_plot_script(FILE *f, struct mb_plot *p);

/* NAME.dat of every plot with points and plots.gp into dir, the plots listed in list (at most
 * MB_MAX_PLOTS), then gnuplot: mb_plots_write_runs's status and message. */
int mb_plot_write_all(struct mb_plot *p, size_t n, const char *dir, struct mb_plot_list *list,
                      char *msg, size_t len);

#endif
