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

enum { MB_MAX_PLOTS = 16 };

struct mb_plot_list {
    size_t n;
    char name[MB_MAX_PLOTS][32];   /* file stem: "pt2pt_latency" -> .png .svg .dat */
    char title[MB_MAX_PLOTS][128]; /* caption */
};

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

/* The names of every file a plot directory may hold from mpibench (plots.gp, gnuplot.log,
 * index.html, NAME.dat/.png/.svg of every plot), for `mpibench plot --force`, which replaces
 * these and nothing else: each(file, arg) once per name. */
void mb_plot_files(void (*each)(const char *file, void *arg), void *arg);

#endif
