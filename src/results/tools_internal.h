/* SPDX-License-Identifier: BSD-3-Clause */
/* What the results tools share (tools.c: dispatch, help, plot; tools_compare.c: compare):
 * messages, loading runs, drawing them, and the command line of two groups of runs,
 * BASE... -- NEW... */
#ifndef MB_TOOLS_INTERNAL_H
#define MB_TOOLS_INTERNAL_H

#include "results/records.h"

#include <getopt.h>
#include <stddef.h>

/* "mpibench TOOL: error: ..." on stderr; returns the usage status (2). */
int mb_tool_usage_error(const char *tool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* status, or the run-time status (1) with a message when standard output could not be
 * written (/dev/full, closed). */
int mb_tool_check_stdout(const char *tool, int status);

/* Prints text (a tool's --help) and returns mb_tool_check_stdout's status. */
int mb_tool_help(const char *tool, const char *text);

/* The runs of plot and compare: one record set per file, named by the file as given (a second
 * file of the same name: "NAME (2)"). A directory given stands for its results.jsonl (the main
 * job's, or a run directory of scripts/runs.sh); the records' path is the file read. */
struct mb_tool_runs {
    struct mb_records *r;
    char **label;
    size_t n;
};
int mb_tool_load_runs(struct mb_tool_runs *runs, const char *tool, const char *verb, int n,
                      char **paths);
void mb_tool_free_runs(struct mb_tool_runs *runs);

/* The command line of a tool that reads runs, optionally in two groups: its options (anywhere,
 * before or after the files, on either side of the separator) and its files; "--" alone
 * separates the base group from the new group (split: the index of the first new file; -1
 * without a separator). An option's value is never taken for the separator. option(c, optarg,
 * user) handles each option getopt_long returns (':' a missing value, '?' an unknown option,
 * with the option's text as its argument) and returns -1 to go on or a status to stop with
 * (0 after --help). Returns -1 when every word was taken (files malloc'd, pointing into argv),
 * else the status to stop with. */
struct mb_tool_args {
    char **files;
    int nfiles;
    int split;
};
int mb_tool_parse(const char *tool, int argc, char **argv, const char *shortopts,
                  const struct option *longs, int (*option)(int c, const char *arg, void *user),
                  void *user, struct mb_tool_args *args);

/* The plots and index.html of the runs into dir (created or checked before): 0; 1 when the
 * images were not drawn (no gnuplot: the scripts are there, a message says so); -1 when a
 * file could not be written (a message says which). extra: HTML for the page, or NULL. */
int mb_tool_write_plots(const char *tool, const struct mb_tool_runs *runs, const char *dir,
                        const char *extra);

/* `mpibench compare` (tools_compare.c). */
int mb_tool_compare_main(int argc, char **argv);

#endif
