/* SPDX-License-Identifier: BSD-3-Clause */
/* Plots of a set of results (gnuplot, PNG and SVG): PingPong/Unidir latency and bandwidth vs
 * message size, collectives' time vs size, b_eff's bandwidth vs size per pattern, and
 * b_eff_io's bandwidth vs chunk size per pattern type and access method (b_eff_io paper,
 * Fig. 2). Each plot is drawn from whatever records the file holds of the record types that
 * draw into it (results/record_types.c); a plot without data is not drawn. */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include "results/records.h"

#include <stddef.h>

/* The ratio plots of two groups of runs (mb_plots_write_groups) are called ratio_01 ...: up
 * to MB_RATIO_FAMILIES families on each, MB_RATIO_PLOTS of them at most (192 families with
 * sizes; a quick run of every suite has about 20). MB_MAX_PLOTS: those and the record types'
 * pages (results/record_types.c, mb_rt_pages). */
#define MB_RATIO_PLOT_NAME "ratio_%02d"
enum { MB_RATIO_FAMILIES = 4, MB_RATIO_PLOTS = 48, MB_MAX_PLOTS = 16 + MB_RATIO_PLOTS };

struct mb_plot_list {
    size_t n;
    char name[MB_MAX_PLOTS][32];   /* file stem: "pt2pt_latency" -> .png .svg .dat */
    char title[MB_MAX_PLOTS][128]; /* caption */
    size_t families_left_out;      /* ratio plots: families beyond MB_RATIO_PLOTS pages */
};

struct mb_comparison;

/* Writes NAME.dat per plot and plots.gp into dir (which must exist), then runs gnuplot
 * there (at most 60 s). Returns 0 when every image was drawn; 1 when the scripts were
 * written but not drawn (no gnuplot, gnuplot failed: msg says why and where its log is);
 * -1 when a file could not be written (msg). list names the plots either way. */
int mb_plots_write(const struct mb_records *r, const char *dir, struct mb_plot_list *list,
                   char *msg, size_t len);

/* The same for several runs drawn over each other (mpibench plot A B, compare --html): with
 * nruns > 1 every series is named by its run first ("LABEL: IMB-MPI1 PingPong, 2 procs").
 * Every series of a plot has its own colour and marker; a point whose record carries the 95 %
 * interval of its y field (F_ci95_low, F_ci95_high) has it as an error bar; 0 bytes are
 * drawn at a tic labelled 0 (docs/adr/plots-of-several-runs.md). */
int mb_plots_write_runs(const struct mb_records *runs, size_t nruns, const char *const *labels,
                        const char *dir, struct mb_plot_list *list, char *msg, size_t len);

/* Two groups of runs (mpibench plot BASE... -- NEW..., compare --html of groups): every series
 * the plots above draw from one run is drawn twice, once per group ("base: ...", "new: ..."),
 * at the median over the group's runs of each run's value (compare's: F_median where the row
 * has samples, else F), with the runs' min..max as error bars - none for a group of one run,
 * whose within-run interval `plot A B` shows. A benchmark's two series share a colour; base is
 * a solid line with open markers, new a dashed one with filled markers. Then, from the
 * comparison cmp of the two groups (results/compare.h), the ratio per size of every family
 * with sizes, up to MB_RATIO_FAMILIES families of one suite a plot, with the ratio's interval
 * as error bars and lines at 1 and at the family's threshold both ways
 * (docs/adr/plots-of-groups.md). The status and messages of mb_plots_write_runs. */
int mb_plots_write_groups(const struct mb_records *base, size_t nbase, const struct mb_records *cur,
                          size_t ncur, const struct mb_comparison *cmp, const char *dir,
                          struct mb_plot_list *list, char *msg, size_t len);

/* The names of every file a plot directory may hold from mpibench (plots.gp, gnuplot.log,
 * index.html, NAME.dat/.png/.svg of every plot and ratio plot), for `mpibench plot --force`,
 * which replaces these and nothing else: each(file, arg) once per name. */
void mb_plot_files(void (*each)(const char *file, void *arg), void *arg);

#endif
