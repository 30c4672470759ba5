#include "results/tools.h"

#include "core/error.h"
#include "core/options.h"
#include "results/compare.h"
#include "results/headline.h"
#include "results/html.h"
#include "results/plot.h"
#include "results/records.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

static int load(struct mb_records *r, const char *tool, int n, char **paths)
{
    char msg[1200];

    for (int i = 0; i < n; i++) {
        size_t cut;
        if (mb_records_load(r, paths[i], &cut, msg, sizeof msg) != 0)
            return usage_error(tool, "%s", msg);
        if (cut)
            mb_eprintf("mpibench %s: note: '%s' ends in a cut record (a run that was killed); "
                       "the records before it are used",
                       tool, paths[i]);
    }
    return 0;
}

static const char plot_help[] =
    "Usage: mpibench plot [-o DIR] RESULTS.jsonl ...\n"
    "Draws the plots of any mpibench JSON Lines results (the main job's results.jsonl, or\n"
    "--json files of any suite, several files together) with gnuplot, as PNG and SVG, plus\n"
    "index.html with the headline numbers and the plots. No mpirun needed.\n\n"
    "  -o, --output DIR   where the plots go (default: mpibench-plots; created if missing)\n"
    "  -h, --help         print this help and exit\n";

static int plot_main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    const char *dir = "mpibench-plots";
    struct mb_records r = {0};
    struct mb_headline h[MB_HL_N];
    struct mb_plot_list list;
    char msg[1200], page[4200];
    int c, status;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
        if (c == 'o')
            dir = optarg;
        else if (c == 'h')
            return fputs(plot_help, stdout) == EOF ? MB_EXIT_RUNTIME : 0;
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
    status = load(&r, "plot", argc - optind, argv + optind);
    if (status == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
        status = usage_error("plot", "cannot create '%s': %s", dir, strerror(errno));
    if (status == 0) {
        const int drawn = mb_plots_write(&r, dir, &list, msg, sizeof msg);
        if (drawn < 0) {
            mb_eprintf("mpibench plot: run-time error: %s", msg);
            status = MB_EXIT_RUNTIME;
        } else {
            if (drawn > 0)
                mb_eprintf("mpibench plot: %s", msg);
            mb_headlines(&r, h);
            snprintf(page, sizeof page, "%s/index.html", dir);
            if (mb_html_write(page, "", &r, h, &list, NULL, msg, sizeof msg) != 0) {
                mb_eprintf("mpibench plot: run-time error: %s", msg);
                status = MB_EXIT_RUNTIME;
            } else {
                printf("%zu plot%s in '%s'%s; open '%s'\n", list.n, list.n == 1 ? "" : "s", dir,
                       drawn > 0 ? " (scripts only)" : "", page);
                status = drawn > 0 ? MB_EXIT_RUNTIME : 0;
            }
        }
    }
    mb_records_free(&r);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        mb_eprintf("mpibench plot: run-time error: cannot write standard output: %s",
                   strerror(errno));
        status = MB_EXIT_RUNTIME;
    }
    return status;
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
            return fputs(compare_help, stdout) == EOF ? MB_EXIT_RUNTIME : 0;
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
    status = load(&b, "compare", 1, argv + optind);
    if (status == 0)
        status = load(&n, "compare", 1, argv + optind + 1);
    if (status == 0) {
        status = mb_compare(&b, &n, thr, stdout, msg, sizeof msg);
        if (status == MB_EXIT_USAGE)
            usage_error("compare", "%s", msg);
    }
    mb_records_free(&b);
    mb_records_free(&n);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        mb_eprintf("mpibench compare: run-time error: cannot write standard output: %s",
                   strerror(errno));
        status = MB_EXIT_RUNTIME;
    }
    return status;
}

static const struct {
    const char *name, *title;
    int (*main)(int argc, char **argv);
} tools[] = {
    {"plot", "draw the plots of results files (no mpirun needed)", plot_main},
    {"compare", "compare two results files; exit 1 on a regression (no mpirun needed)",
     compare_main},
};

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
