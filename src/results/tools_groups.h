/* SPDX-License-Identifier: BSD-3-Clause */
/* The plots of two groups of runs as plot and compare --html write them (tools.c,
 * tools_compare.c): the plots of results/plot.h's mb_plots_write_groups and the groups' page
 * (results/html.h), with the tools' messages. */
#ifndef MB_TOOLS_GROUPS_H
#define MB_TOOLS_GROUPS_H

#include "results/compare.h"
#include "results/tools_internal.h"

/* runs->r[0..nbase) the base runs, the others the new ones; cmp their comparison (the ratio
 * plots). Into dir (created or checked before): 0; 1 when the images were not drawn (no
 * gnuplot: the scripts are there, a message says so); -1 when a file could not be written (a
 * message says which). extra: HTML for the page, or NULL. As mb_tool_write_plots. */
int mb_tool_write_group_plots(const char *tool, const struct mb_tool_runs *runs, size_t nbase,
                              const struct mb_comparison *cmp, const char *dir, const char *extra);

#endif
