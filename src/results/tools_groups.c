/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/tools_groups.h"

#include "core/error.h"
#include "core/report_text.h"
#include "results/html.h"
#include "results/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mb_tool_write_group_plots(const char *tool, const struct mb_tool_runs *runs, size_t nbase,
                              const struct mb_comparison *cmp, const char *dir, const char *extra)
{
    struct mb_plot_list *list = mb_rs_alloc(NULL, 1, sizeof *list);
    char msg[1200], *page;
    int status;
    const int drawn = mb_plots_write_groups(runs->r, nbase, runs->r + nbase, runs->n - nbase, cmp,
                                            dir, list, msg, sizeof msg);

    if (drawn < 0) {
        mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
        free(list);
        return -1;
    }
    if (drawn > 0)
        mb_eprintf("mpibench %s: %s", tool, msg);
    if (list->families_left_out)
        mb_eprintf("mpibench %s: note: %zu families with sizes have no ratio plot (at most %d "
                   "plots of %d families)",
                   tool, list->families_left_out, MB_RATIO_PLOTS, MB_RATIO_FAMILIES);
    page = mb_rs_alloc(NULL, strlen(dir) + sizeof "/index.html", 1);
    sprintf(page, "%s/index.html", dir);
    if (mb_html_write_groups(page, runs->r, (const char *const *)runs->label, nbase,
                             runs->n - nbase, list, extra, msg, sizeof msg) != 0) {
        mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
        status = -1;
    } else {
        /* plot's report is its output (standard output); compare's standard output is the
         * comparison, so its note goes to stderr - as mb_tool_write_plots does. */
        if (strcmp(tool, "plot") == 0)
            mb_fprintf_escaped(
                stdout, "%zu plot%s of %zu base and %zu new run%s in '%s'%s; open '%s'\n", list->n,
                list->n == 1 ? "" : "s", nbase, runs->n - nbase, runs->n - nbase == 1 ? "" : "s",
                dir, drawn > 0 ? " (scripts only)" : "", page);
        else
            mb_eprintf("mpibench %s: %zu plot%s of %zu base and %zu new run%s in '%s'%s; open '%s'",
                       tool, list->n, list->n == 1 ? "" : "s", nbase, runs->n - nbase,
                       runs->n - nbase == 1 ? "" : "s", dir, drawn > 0 ? " (scripts only)" : "",
                       page);
        status = drawn > 0 ? 1 : 0;
    }
    free(page);
    free(list);
    return status;
}
