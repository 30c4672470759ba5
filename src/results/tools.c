/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/tools.h"

#include "core/error.h"
#include "core/options.h"
#include "core/report_text.h"
#include "core/sink.h"
#include "core/suite.h"
#include "core/userfile.h"
#include "results/compare.h"
#include "results/headline.h"
#include "results/html.h"
#include "results/plot.h"
#include "results/plot_dir.h"
#include "results/records.h"
#include "results/tools_groups.h"
#include "results/tools_internal.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mb_tool_usage_error(const char *tool, const char *fmt, ...)
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
int mb_tool_check_stdout(const char *tool, int status)
{
    char msg[1200];

    if (mb_sink_check(stdout, "standard output", msg, sizeof msg) == 0)
        return status;
    mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
    return MB_EXIT_RUNTIME;
}

int mb_tool_help(const char *tool, const char *text)
{
    mb_fprintf_escaped(stdout, "%s", text);
    return mb_tool_check_stdout(tool, 0);
}

/* A run directory (the main job's output, or scripts/runs.sh's RUN-i) stands for its
 * results.jsonl: the name of the file to read (malloc'd), or NULL when a directory has none. */
static char *results_file(const char *path)
{
    struct stat st;
    char *file;

    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return mb_rs_strdup(path);
    file = mb_rs_alloc(NULL, strlen(path) + sizeof "/results.jsonl", 1);
    sprintf(file, "%s%sresults.jsonl", path, path[strlen(path) - 1] == '/' ? "" : "/");
    if (access(file, F_OK) != 0) {
        free(file);
        return NULL;
    }
    return file;
}

/* Each file must hold at least one record: an empty or blank file is bad input for both
 * tools alike (status 2, nothing written). */
static int load(struct mb_records *r, const char *tool, const char *verb, const char *path)
{
    char msg[1200], *file = results_file(path);
    size_t cut;
    int status = 0;

    if (!file)
        return mb_tool_usage_error(tool,
                                   "'%s' is a directory without results.jsonl: give a results "
                                   "file, or a directory of one run",
                                   path);
    if (mb_records_load(r, file, &cut, msg, sizeof msg) != 0)
        status = mb_tool_usage_error(tool, "%s", msg);
    else if (r->n == 0)
        status = mb_tool_usage_error(tool, "'%s' holds no results to %s (it is empty or blank)",
                                     file, verb);
    else if (cut)
        mb_eprintf("mpibench %s: note: '%s' ends in a cut record (a run that was killed); "
                   "the records before it are used",
                   tool, file);
    free(file);
    return status;
}

int mb_tool_load_runs(struct mb_tool_runs *runs, const char *tool, const char *verb, int n,
                      char **paths)
{
    runs->r = mb_rs_alloc(NULL, (size_t)n, sizeof *runs->r);
    runs->label = mb_rs_alloc(NULL, (size_t)n, sizeof *runs->label);
    memset(runs->r, 0, (size_t)n * sizeof *runs->r);
    runs->n = 0;
    for (int i = 0; i < n; i++) {
        const int status = load(&runs->r[i], tool, verb, paths[i]);
        size_t same = 1;
        runs->n++;
        runs->label[i] = NULL;
        if (status != 0)
            return status;
        for (int j = 0; j < i; j++)
            same += strcmp(paths[i], paths[j]) == 0;
        runs->label[i] = mb_rs_alloc(NULL, strlen(paths[i]) + 24, 1);
        if (same > 1)
            sprintf(runs->label[i], "%s (%zu)", paths[i], same);
        else
            sprintf(runs->label[i], "%s", paths[i]);
    }
    return 0;
}

void mb_tool_free_runs(struct mb_tool_runs *runs)
{
    for (size_t i = 0; i < runs->n; i++) {
        mb_records_free(&runs->r[i]);
        free(runs->label[i]);
    }
    free(runs->r);
    free(runs->label);
}

/* 1 when the argument a is an option that takes the next argument as its value ("--json" of a
 * required_argument row without "=", "-t" or a cluster "-at" ending in a letter with ':'). */
static int takes_next(const char *a, const char *shortopts, const struct option *longs)
{
    if (a[0] != '-' || a[1] == '\0' || strcmp(a, "--") == 0)
        return 0;
    if (a[1] == '-') {
        if (strchr(a, '='))
            return 0;
        for (size_t i = 0; longs[i].name; i++)
            if (strcmp(longs[i].name, a + 2) == 0)
                return longs[i].has_arg == required_argument;
        return 0;
    }
    for (const char *c = a + 1; *c; c++) {
        const char *o = strchr(shortopts, *c);
        if (*c != ':' && o && o[1] == ':')
            return c[1] == '\0'; /* the value is the rest of the word, or the next word */
    }
    return 0;
}

/* The index of the first "--" that is no option's value, from first on; -1 without one. */
static int separator(int argc, char **argv, int first, const char *shortopts,
                     const struct option *longs)
{
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return i;
        if (takes_next(argv[i], shortopts, longs))
            i++;
    }
    return -1;
}

/* getopt_long over argv[from..to) (with argv[0] as the program's name), the options to
 * option(), the other words appended to files. */
static int parse_part(int argc, char **argv, int from, int to, const char *shortopts,
                      const struct option *longs, int (*option)(int c, const char *arg, void *user),
                      void *user, struct mb_tool_args *args)
{
    char **part = mb_rs_alloc(NULL, (size_t)(to - from) + 2, sizeof *part);
    int n = 1, c, status = -1;

    (void)argc;
    part[0] = argv[0];
    for (int i = from; i < to; i++)
        part[n++] = argv[i];
    part[n] = NULL;
    opterr = 0;
    optind = 1;
    while (status < 0 && (c = getopt_long(n, part, shortopts, longs, NULL)) != -1)
        status = option(c, c == ':' || c == '?' ? part[optind - 1] : optarg, user);
    for (int i = optind; status < 0 && i < n; i++)
        args->files[args->nfiles++] = part[i];
    free(part);
    return status;
}

int mb_tool_parse(const char *tool, int argc, char **argv, const char *shortopts,
                  const struct option *longs, int (*option)(int c, const char *arg, void *user),
                  void *user, struct mb_tool_args *args)
{
    const int split = separator(argc, argv, 1, shortopts, longs);
    int status;

    args->files = mb_rs_alloc(NULL, (size_t)argc + 1, sizeof *args->files);
    args->nfiles = 0;
    args->split = -1;
    status =
        parse_part(argc, argv, 1, split < 0 ? argc : split, shortopts, longs, option, user, args);
    if (status >= 0 || split < 0)
        return status;
    if (separator(argc, argv, split + 1, shortopts, longs) >= 0)
        return mb_tool_usage_error(tool,
                                   "'--' is given twice: it separates the base runs from the "
                                   "new ones (BASE... -- NEW...); try 'mpibench %s --help'",
                                   tool);
    args->split = args->nfiles;
    return parse_part(argc, argv, split + 1, argc, shortopts, longs, option, user, args);
}

int mb_tool_write_plots(const char *tool, const struct mb_tool_runs *runs, const char *dir,
                        const char *extra)
{
    struct mb_plot_list list;
    char msg[1200], *page;
    int status;
    const int drawn = mb_plots_write_runs(runs->r, runs->n, (const char *const *)runs->label, dir,
                                          &list, msg, sizeof msg);

    if (drawn < 0) {
        mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
        return -1;
    }
    if (drawn > 0)
        mb_eprintf("mpibench %s: %s", tool, msg);
    page = mb_rs_alloc(NULL, strlen(dir) + sizeof "/index.html", 1);
    sprintf(page, "%s/index.html", dir);
    if (mb_html_write_runs(page, runs->r, runs->n, (const char *const *)runs->label, &list, extra,
                           msg, sizeof msg) != 0) {
        mb_eprintf("mpibench %s: run-time error: %s", tool, msg);
        status = -1;
    } else {
        if (strcmp(tool, "plot") == 0)
            mb_fprintf_escaped(stdout, "%zu plot%s in '%s'%s; open '%s'\n", list.n,
                               list.n == 1 ? "" : "s", dir, drawn > 0 ? " (scripts only)" : "",
                               page);
        else
            mb_eprintf("mpibench %s: %zu plot%s in '%s'%s; open '%s'", tool, list.n,
                       list.n == 1 ? "" : "s", dir, drawn > 0 ? " (scripts only)" : "", page);
        status = drawn > 0 ? 1 : 0;
    }
    free(page);
    return status;
}

static const char plot_help[] =
    "Usage: mpibench plot [-o DIR] [--force] RESULTS.jsonl ...\n"
    "       mpibench plot [-o DIR] [--force] BASE... -- NEW...\n"
    "Draws the plots of any mpibench JSON Lines results (the main job's results.jsonl, or\n"
    "--json files of any suite) with gnuplot, as PNG and SVG, plus index.html with the\n"
    "headline numbers and the plots. No mpirun needed. Several files are several runs drawn\n"
    "over each other: one series per file and benchmark, named by the file in the legend, each\n"
    "series its own colour and marker. 0-byte points sit at the size axis's tic '0'; rows\n"
    "measured as samples (--samples K) show the 95 % interval of the median as error bars.\n\n"
    "Two groups of runs, '--' between them (each file a run: a results file, or a directory\n"
    "holding results.jsonl; the runs of a group must repeat the same measurement, as for\n"
    "compare): every benchmark is drawn once per group, 'base: ...' and 'new: ...' in one\n"
    "colour (base a solid line with open markers, new a dashed line with filled ones), at the\n"
    "median over the group's runs of each run's value (its median where the row has samples),\n"
    "with the runs' min..max as error bars (a group of one run has none). Ratio plots show\n"
    "compare's ratio per size (> 1: new runs slower) of every family with sizes, up to 4\n"
    "families of one suite a plot, its interval as error bars, lines at 1 and at compare's\n"
    "default threshold both ways. index.html says which files are in each group.\n\n"
    "  -o, --output DIR   a new directory for the plots (default: mpibench-plots); an\n"
    "                     existing one is refused unless --force\n"
    "  -f, --force        DIR may exist: the files an earlier plot wrote there (index.html,\n"
    "                     plots.gp, gnuplot.log, *.dat/.png/.svg of the plots) are replaced,\n"
    "                     nothing else in it is touched\n"
    "  -h, --help         print this help and exit\n";

struct plot_cli {
    const char *dir;
    int force;
};

static int plot_option(int c, const char *arg, void *user)
{
    struct plot_cli *cli = user;

    if (c == 'o')
        cli->dir = arg;
    else if (c == 'f')
        cli->force = 1;
    else if (c == 'h')
        return mb_tool_help("plot", plot_help);
    else if (c == ':')
        return mb_tool_usage_error("plot", "option '%s' needs a value", arg);
    else
        return mb_tool_usage_error("plot", "unknown option '%s'; try 'mpibench plot --help'", arg);
    return -1;
}

/* The files as runs (plot A B C), or as two groups (plot BASE... -- NEW...): each side needs a
 * run ('--' twice is mb_tool_parse's error). */
static int plot_files(const struct mb_tool_args *a)
{
    if (a->split < 0 && a->nfiles == 0)
        return mb_tool_usage_error("plot", "no results file given; try 'mpibench plot --help'");
    if (a->split == 0)
        return mb_tool_usage_error(
            "plot", "no base run before '--' (BASE... -- NEW...); try 'mpibench plot --help'");
    if (a->split > 0 && a->split == a->nfiles)
        return mb_tool_usage_error(
            "plot", "no new run after '--' (BASE... -- NEW...); try 'mpibench plot --help'");
    return 0;
}

static int plot_main(int argc, char **argv)
{
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"force", no_argument, NULL, 'f'},
                                          {"help", no_argument, NULL, 'h'},
                                          {0, 0, 0, 0}};
    const struct mb_compare_opts opts = {-1, -1, MB_COMPARE_NOISE_PCT, 0};
    struct plot_cli cli = {"mpibench-plots", 0};
    struct mb_tool_args args = {0};
    struct mb_tool_runs runs = {0};
    struct mb_comparison *cmp = NULL;
    struct mb_error err = {0};
    char msg[1200];
    int status = mb_tool_parse("plot", argc, argv, ":o:fh", longs, plot_option, &cli, &args);

    if (status >= 0) {
        free(args.files);
        return status;
    }
    status = plot_files(&args);
    if (status == 0 && !*cli.dir)
        status = mb_tool_usage_error("plot", "invalid value '' for -o: a directory name is needed");
    /* The directory before the inputs (refused before any work), created after them (a bad
     * input leaves nothing behind). */
    if (status == 0 && mb_plot_dir_check(cli.dir, cli.force, &err) != 0)
        status = mb_tool_usage_error("plot", "%s", err.msg);
    if (status == 0)
        status = mb_tool_load_runs(&runs, "plot", "plot", args.nfiles, args.files);
    /* Two groups: compared as compare compares them (the ratio plots), which also refuses a
     * group whose runs differ in suites, process counts or settings - before DIR exists. */
    if (status == 0 && args.split > 0) {
        cmp = mb_compare_build(runs.r, (size_t)args.split, runs.r + args.split,
                               runs.n - (size_t)args.split, &opts, msg, sizeof msg);
        if (!cmp)
            status = mb_tool_usage_error("plot", "%s", msg);
    }
    if (status == 0 && mb_plot_dir_prepare(cli.dir, cli.force, &err) != 0)
        status = mb_tool_usage_error("plot", "%s", err.msg);
    if (status == 0) {
        const int drawn =
            cmp ? mb_tool_write_group_plots("plot", &runs, (size_t)args.split, cmp, cli.dir, NULL)
                : mb_tool_write_plots("plot", &runs, cli.dir, NULL);
        status = drawn != 0 ? MB_EXIT_RUNTIME : 0;
    }
    mb_compare_free(cmp);
    mb_tool_free_runs(&runs);
    free(args.files);
    return mb_tool_check_stdout("plot", status);
}

static int help_main(int argc, char **argv);

static const struct {
    const char *name, *title;
    int (*main)(int argc, char **argv);
} tools[] = {
    {"plot", "draw the plots of results files (no mpirun needed)", plot_main},
    {"compare", "compare two runs or two groups of runs; exit 1 on a regression (no mpirun needed)",
     mb_tool_compare_main},
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
        return mb_tool_usage_error(
            "help", "expected at most one suite, got %d words; try 'mpibench help'", argc - 1);
    for (size_t i = 0; argc == 2 && i < sizeof tools / sizeof tools[0]; i++)
        if (strcmp(argv[1], tools[i].name) == 0 && tools[i].main != help_main) {
            tool_argv[0] = argv[1];
            return tools[i].main(2, tool_argv);
        }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        argc = 1;
    status = mpibench_help(argc == 2 ? argv[1] : NULL, stdout);
    if (status != 0)
        return mb_tool_usage_error("help", "unknown suite '%s'; try 'mpibench help'", argv[1]);
    return mb_tool_check_stdout("help", 0);
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
