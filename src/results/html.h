/* SPDX-License-Identifier: BSD-3-Clause */
/* index.html: the headline numbers, where the results come from, and the SVG plots - one
 * static page (no scripts, nothing from the network) that any browser opens from disk. */
#ifndef MB_HTML_H
#define MB_HTML_H

#include "results/headline.h"
#include "results/plot.h"
#include "results/records.h"

#include <stdio.h>

/* Writes s with &, <, >, " escaped (and bytes outside printable ASCII as '?'). */
void mb_html_text(FILE *f, const char *s);

/* path: the page; img_prefix: how it reaches the plots ("plots/" or ""); extra: an already
 * escaped HTML fragment placed after the headline table (the main job's phases), or NULL.
 * 0, or -1 with msg. */
int mb_html_write(const char *path, const char *img_prefix, const struct mb_records *r,
                  const struct mb_headline_set *hl, const struct mb_plot_list *plots,
                  const char *extra, char *msg, size_t len);

/* The page of several runs (mpibench plot A B, compare --html), plots beside it: the headline
 * numbers of each run in a column headed by its label, each run's machine. */
int mb_html_write_runs(const char *path, const struct mb_records *runs, size_t nruns,
                       const char *const *labels, const struct mb_plot_list *plots,
                       const char *extra, char *msg, size_t len);

/* The page of two groups of runs (mpibench plot BASE... -- NEW..., compare --html of groups):
 * which run is in which group (runs[0..nbase) the base runs, then nnew new runs; each row's
 * label, file, date, processes, MPI library), how the plots draw them, each group's headline
 * numbers (the median over its runs), extra, then the plots. */
int mb_html_write_groups(const char *path, const struct mb_records *runs, const char *const *labels,
                         size_t nbase, size_t nnew, const struct mb_plot_list *plots,
                         const char *extra, char *msg, size_t len);

#endif
