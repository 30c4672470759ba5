/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/tools.h"

#include "core/error.h"
#include "core/options.h"
#include "core/report_text.h"
#include "core/sink.h"
#include "core/suite.h"
#include "results/compare.h"
#include "results/headline.h"
#include "results/html.h"
#include "results/plot.h"
#include "results/plot_dir.h"
#include "results/records.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 2, 3))) static int usage_error(const char *tool, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mb_eprintf("mpibench %s: error: %s", tool, buf);
    return MB_EXIT_USAGE;
}

/* Standard output must reach its reader: a failed write (stdout on /dev/full, closed) is a
 * run-time error, status 1, as in the suites (core/sink.h). */
static int check_stdout(const char *tool, int status)
{
    char msg[1200];

    if (mb_sink_check(stdout, "standard output", msg, sizeof msg) == 0)
        return status;
    mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
    return MB_EXIT_RUNTIME;
}

static int help(const char *tool, const char *text)
{
    mb_fprintf_escaped(stdout, "%s", text);
    return check_stdout(tool, 0);
}

/* Each file must hold at least one record: an empty or blank file is bad input for both
 * tools alike (status 2, nothing written). */
static int load(struct mb_records *r, const char *tool, const char *verb, int n, char **paths)
{
    char msg[1200];

    for (int i = 0; i < n; i++) {
        const size_t before = r->n;
        size_t cut;
        if (mb_records_load(r, paths[i], &cut, msg, sizeof msg) != 0)
            return usage_error(tool, "%s", msg);
        if (r->n == before)
            return usage_error(tool, "'%s' holds no results to %s (it is empty or blank)", paths[i],
                               verb);
        if (cut)
            mb_eprintf("mpibench %s: note: '%s' ends in a cut record (a run that was killed); "
                       "the records before it are used",
                       tool, paths[i]);
    }
    return 0;
}

static const char plot_help[] =
    "Usage: mpibench plot [-o DIR] [--force] RESULTS.jsonl ...\n"
    "Draws the plots of any mpibench JSON Lines results (the main job's results.jsonl, or\n"
    "--json files of any suite, several files together) with gnuplot, as PNG and SVG, plus\n"
    "index.html with the headline numbers and the plots. No mpirun needed.\n\n"
    "  -o, --output DIR   a new directory for the plots (default: mpibench-plots); an\n"
    "                     existing one is refused unless --force\n"
    "  -f, --force        DIR may exist: the files an earlier plot wrote there (index.html,\n"
    "                     plots.gp, gnuplot.log, *.dat/.png/.svg of the plots) are replaced,\n"
    "                     nothing else in it is touched\n"
    "  -h, --help         print this help and exit\n";

static int plot_main(int argc, char **argv)
{
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"force", no_argument, NULL, 'f'},
                                          {"help", no_argument, NULL, 'h'},
                                          {0, 0, 0, 0}};
    const char *dir = "mpibench-plots";
    struct mb_records r = {0};
    struct mb_headline_set h;
    struct mb_plot_list list;
    struct mb_error err = {0};
    char msg[1200], *page;
    int c, status, force = 0;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:fh", longs, NULL)) != -1) {
        if (c == 'o')
            dir = optarg;
        else if (c == 'f')
            force = 1;
        else if (c == 'h')
            return help("plot", plot_help);
        else if (c == ':')
            return usage_error("plot", "option '%s' needs a value", argv[optind - 1]);
        else
            return usage_error("plot", "unknown option '%s'; try 'mpibench plot --help'",
                               argv[optind - 1]);
    }
    if (optind >= argc)
        return usage_error("plot", "no results file given; try 'mpibench plot --help'");
    if (!*dir)
        return usage_error("plot", "invalid value '' for -o: a directory name is needed");
    /* The directory before the inputs (refused before any work), created after them (a bad
     * input leaves nothing behind). */
    if (mb_plot_dir_check(dir, force, &err) != 0)
        return usage_error("plot", "%s", err.msg);
    status = load(&r, "plot", "plot", argc - optind, argv + optind);
    if (status == 0 && mb_plot_dir_prepare(dir, force, &err) != 0)
        status = usage_error("plot", "%s", err.msg);
    if (status == 0) {
        const int drawn = mb_plots_write(&r, dir, &list, msg, sizeof msg);
        if (drawn < 0) {
            mb_eprintf("mpibench plot: run-time error: %s", msg);
            status = MB_EXIT_RUNTIME;
        } else {
            if (drawn > 0)
                mb_eprintf("mpibench plot: %s", msg);
            mb_headlines(&r, &h);
            page = mb_rs_alloc(NULL, strlen(dir) + sizeof "/index.html", 1);
            sprintf(page, "%s/index.html", dir);
            if (mb_html_write(page, "", &r, &h, &list, NULL, msg, sizeof msg) != 0) {
                mb_eprintf("mpibench plot: run-time error: %s", msg);
                status = MB_EXIT_RUNTIME;
            } else {
                mb_fprintf_escaped(stdout, "%zu plot%s in '%s'%s; open '%s'\n", list.n,
                                   list.n == 1 ? "" : "s", dir, drawn > 0 ? " (scripts only)" : "",
                                   page);
                status = drawn > 0 ? MB_EXIT_RUNTIME : 0;
            }
            free(page);
        }
    }
    mb_records_free(&r);
    return check_stdout("plot", status);
}

static const char compare_help[] =
    "Usage: mpibench compare [--threshold PCT] BASE.jsonl NEW.jsonl\n"
    "Compares the measurements two runs have in common (same suite, benchmark, mode, process\n"
    "count and size; provenance is ignored): one line per measurement with the ratio new/base\n"
    "of times (base/new of bandwidths), worst first. A change worse than PCT percent whose\n"
    "range (min..max of the run's own samples or processes) lies wholly beyond the base run's\n"
    "is marked REGRESSED. Exit status 0: nothing regressed; 1: something did; 2: bad input,\n"
    "or the files have nothing in common.\n\n"
    "  -t, --threshold PCT   the change that counts, in percent (default 10)\n"
    "  -h, --help            print this help and exit\n";

static int compare_main(int argc, char **argv)
{
    static const struct option longs[] = {{"threshold", required_argument, NULL, 't'},
                                          {"help", no_argument, NULL, 'h'},
                                          {0, 0, 0, 0}};
    struct mb_records b = {0}, n = {0};
    double thr = 10;
    char msg[1200];
    const char *why;
    int c, status;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":t:h", longs, NULL)) != -1) {
        if (c == 't') {
            if (mb_parse_double(optarg, 0, 1e6, &thr, &why) != 0)
                return usage_error(
                    "compare", "invalid value '%s' for --threshold: %s (percent, 0 ... 1000000)",
                    optarg, why);
        } else if (c == 'h') {
            return help("compare", compare_help);
        } else if (c == ':') {
            return usage_error("compare", "option '%s' needs a value", argv[optind - 1]);
        } else {
            return usage_error("compare", "unknown option '%s'; try 'mpibench compare --help'",
                               argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return usage_error("compare",
                           "expected 2 results files (BASE NEW), got %d; try "
                           "'mpibench compare --help'",
                           argc - optind);
    status = load(&b, "compare", "compare", 1, argv + optind);
    if (status == 0)
        status = load(&n, "compare", "compare", 1, argv + optind + 1);
    if (status == 0) {
        status = mb_compare(&b, &n, thr, stdout, msg, sizeof msg);
        if (status == MB_EXIT_USAGE)
            usage_error("compare", "%s", msg);
    }
    mb_records_free(&b);
    mb_records_free(&n);
    return check_stdout("compare", status);
}

static int help_main(int argc, char **argv);

static const struct {
    const char *name, *title;
    int (*main)(int argc, char **argv);
} tools[] = {
    {"plot", "draw the plots of results files (no mpirun needed)", plot_main},
    {"compare", "compare two results files; exit 1 on a regression (no mpirun needed)",
     compare_main},
    {"help", "'help SUITE' prints what 'SUITE --help' prints (no mpirun needed)", help_main},
};

/* `mpibench help [SUITE|TOOL]`: the same text as `mpibench SUITE --help` (or `mpibench
 * --help`, or a tool's --help), without MPI_Init, so that a shell, the man pages and the
 * completion generated at build time read the option rows without a launcher
 * (docs/adr/install-layout.md). */
static int help_main(int argc, char **argv)
{
    char *tool_argv[3] = {NULL, "--help", NULL};
    int status;

    if (argc > 2)
        return usage_error("help", "expected at most one suite, got %d words; try 'mpibench help'",
                           argc - 1);
    for (size_t i = 0; argc == 2 && i < sizeof tools / sizeof tools[0]; i++)
        if (strcmp(argv[1], tools[i].name) == 0 && tools[i].main != help_main) {
            tool_argv[0] = argv[1];
            return tools[i].main(2, tool_argv);
        }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        argc = 1;
    status = mpibench_help(argc == 2 ? argv[1] : NULL, stdout);
    if (status != 0)
        return usage_error("help", "unknown suite '%s'; try 'mpibench help'", argv[1]);
    return check_stdout("help", 0);
}

int mb_tool_main(int argc, char **argv)
{
    for (size_t i = 0; argc > 0 && i < sizeof tools / sizeof tools[0]; i++)
        if (strcmp(argv[0], tools[i].name) == 0)
            return tools[i].main(argc, argv);
    return -1;
}

void mb_tools_list(void (*line)(const char *name, const char *title, void *arg), void *arg)
{
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        line(tools[i].name, tools[i].title, arg);
}
