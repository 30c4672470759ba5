/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of the plots (results/plot.h) shared by their files: records drawn into plots
 * (plot.c), the plots of two groups of runs and the ratio plots (plot_groups.c), and the data
 * files, the gnuplot script and gnuplot itself (plot_gnuplot.c). */
#ifndef MB_PLOT_INTERNAL_H
#define MB_PLOT_INTERNAL_H

#include "results/plot.h"
#include "results/record_types.h"

#include <stddef.h>

enum { MB_PLOT_SERIES = 64 };

struct mb_series {
    char title[96];
    double *x, *y, *lo, *hi; /* lo, hi: the point's error bar, NAN without */
    double *extra;           /* a fifth column of the .dat (plot's extra_note), NAN: none */
    size_t n, cap;
    int keep_max; /* points at one x: only the largest is kept (mb_plot_sort) */
    int bars;     /* some point has an error bar: drawn with error bars */
    int has_extra;
    /* The style: by default colour and marker of the series' place in the plot (every series
     * its own); styled: colour index, gnuplot point type and dash type set by the caller (the
     * two groups' series of one benchmark share a colour). */
    int styled, colour, pt, dt;
    double dodge; /* > 0: x drawn times this factor, so that bars at one size stand apart */
};

struct mb_plot {
    char name[32], title[128];
    const char *xlabel, *ylabel;
    const char *extra_note; /* what the .dat's fifth column is, for series that have one */
    char key_title[200];    /* the legend's heading: what styles and bars mean; "" none */
    int key_pairs;          /* the legend in two columns: the base series, the new series */
    double band;            /* > 1: a ratio plot with lines at 1, band and 1 / band */
    char band_title[96];
    struct mb_series s[MB_PLOT_SERIES];
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
    int linear_y; /* the value axis linear from 0 (its page's linear_y): 0 is a value */
};

/* An empty plot of that name and captions (p zeroed first). */
/* The same for a page of the record types' table: its name, captions and value axis. */
struct mb_rt_page;
void mb_plot_init_page(struct mb_plot *p, const struct mb_rt_page *pg);
void mb_plot_init(struct mb_plot *p, const char *name, const char *title, const char *xlabel,
                  const char *ylabel);
void mb_plot_free(struct mb_plot *p);

/* Adds (x, y) to the series of that title (made at the end when new; none beyond
 * MB_PLOT_SERIES): its series, or NULL when the point has no place on the axes (x < 0,
 * y <= 0, not finite). lo, hi: its error bar (NAN: none); extra: its fifth column (NAN:
 * none). */
struct mb_series *mb_plot_add(struct mb_plot *p, const char *title, double x, double y, double lo,
                              double hi, double extra, int keep_max);

/* By x; points at one x in the order they came, or only the largest (keep_max). */
void mb_plot_sort(struct mb_series *s);

/* The record types' points of page pg of one run into p (a page's axis tics aside).
 * run: the series' prefix ("LABEL: "), or NULL; run_value: y is the value one run gives a
 * row, as compare takes it (F_median where the row has samples, else F), without the
 * interval; else the median with its interval where the row has one, else F. */
void mb_plot_draw_page(const struct mb_records *r, const struct mb_record_type *const *type_of,
                       const struct mb_rt_page *pg, const char *run, int run_value,
                       struct mb_plot *p);

/* The record type of every record of r (malloc'd). */
const struct mb_record_type **mb_plot_types(const struct mb_records *r);

/* A page's position-axis tics (after its points: the last tic may be a measured value). */
void mb_plot_position_tics(struct mb_plot *p, const struct mb_rt_axis *axis);

/* Where 0 bytes are drawn, once the points are in. */
void mb_plot_place_zero(struct mb_plot *p);

/* NAME.dat of every plot with points and plots.gp into dir, the plots listed in list (at most
 * MB_MAX_PLOTS), then gnuplot: mb_plots_write_runs's status and message. */
int mb_plot_write_all(struct mb_plot *p, size_t n, const char *dir, struct mb_plot_list *list,
                      char *msg, size_t len);

#endif
