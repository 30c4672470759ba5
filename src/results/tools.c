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

/* The runs of plot and compare --html: one record set per file, named by the file as given
 * (a second file of the same name: "NAME (2)"), so that two runs are two sets of series. */
struct runs {
    struct mb_records *r;
    char **label;
    size_t n;
};

static int load_runs(struct runs *runs, const char *tool, const char *verb, int n, char **paths)
{
    runs->r = mb_rs_alloc(NULL, (size_t)n, sizeof *runs->r);
    runs->label = mb_rs_alloc(NULL, (size_t)n, sizeof *runs->label);
    memset(runs->r, 0, (size_t)n * sizeof *runs->r);
    runs->n = 0;
    for (int i = 0; i < n; i++) {
        const int status = load(&runs->r[i], tool, verb, 1, paths + i);
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

static void free_runs(struct runs *runs)
{
    for (size_t i = 0; i < runs->n; i++) {
        mb_records_free(&runs->r[i]);
        free(runs->label[i]);
    }
    free(runs->r);
    free(runs->label);
}

/* The plots and index.html of the runs into dir (created or checked before): 0; 1 when the
 * images were not drawn (no gnuplot: the scripts are there, a message says so); -1 when a
 * file could not be written (a message says which). */
static int write_plots(const char *tool, const struct runs *runs, const char *dir,
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
    "Draws the plots of any mpibench JSON Lines results (the main job's results.jsonl, or\n"
    "--json files of any suite) with gnuplot, as PNG and SVG, plus index.html with the\n"
    "headline numbers and the plots. No mpirun needed. Several files are several runs drawn\n"
    "over each other: one series per file and benchmark, named by the file in the legend, each\n"
    "series its own colour and marker. 0-byte points sit at the size axis's tic '0'; rows\n"
    "measured as samples (--samples K) show the 95 % interval of the median as error bars.\n\n"
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
    struct runs runs = {0};
    struct mb_error err = {0};
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
    status = load_runs(&runs, "plot", "plot", argc - optind, argv + optind);
    if (status == 0 && mb_plot_dir_prepare(dir, force, &err) != 0)
        status = usage_error("plot", "%s", err.msg);
    if (status == 0)
        status = write_plots("plot", &runs, dir, NULL) != 0 ? MB_EXIT_RUNTIME : 0;
    free_runs(&runs);
    return check_stdout("plot", status);
}

/* The defaults are printed from the macros (compare.h), so --help never disagrees. */
static const char compare_help[] =
    "Usage: mpibench compare [OPTIONS] BASE.jsonl NEW.jsonl\n"
    "Compares the measurements two runs have in common (same suite, benchmark, mode, process\n"
    "count and size; provenance is ignored). A change counts when it is significant - a\n"
    "Mann-Whitney U test (two-sided, alpha 0.05) where both rows carry their samples\n"
    "(--samples K --raw-samples), else disjoint 95 %% intervals of the median (--samples K),\n"
    "else, for rows of one sample, a ratio beyond the noise band - and worse (REGRESSED) or\n"
    "better (improved) than the threshold. The ratio is new/base of times and base/new of\n"
    "bandwidths (> 1: worse), of the medians where both rows have them, with its interval.\n"
    "Prints the rows that changed, worst first, the rows found in one file only, and a\n"
    "summary line. Exit status 0: nothing regressed; 1: something did; 2: bad input, or the\n"
    "files have nothing in common.\n\n"
    "  -t, --threshold PCT   the smallest change that counts, in percent (default %g; also\n"
    "                        of file I/O unless --io-threshold is given)\n"
    "      --io-threshold PCT\n"
    "                        the same for file I/O (IMB-IO, b_eff_io), whose run-to-run\n"
    "                        noise is larger (default %g)\n"
    "  -n, --noise PCT       rows of one sample: the run-to-run noise band, in percent\n"
    "                        (default %g)\n"
    "  -a, --all             print every row, also the unchanged ones\n"
    "  -j, --json FILE       also write the comparison as JSON Lines to FILE (- : standard\n"
    "                        output, instead of the table)\n"
    "      --html DIR        a new directory with index.html: the comparison and both runs'\n"
    "                        plots over each other, intervals as error bars (as plot -o)\n"
    "  -f, --force           DIR may exist (as plot --force)\n"
    "  -h, --help            print this help and exit\n";

static int percent(const char *opt, const char *text, double *out)
{
    const char *why;
    if (mb_parse_double(text, 0, 1e6, out, &why) != 0)
        return usage_error("compare", "invalid value '%s' for %s: %s (percent, 0 ... 1000000)",
                           text, opt, why);
    return 0;
}

/* The --json file: a regular file that is neither input (core/userfile.h), opened only once
 * both inputs were read and compared. */
static FILE *json_out(const char *path, char **inputs, struct mb_files *files)
{
    struct mb_error err = {0};
    FILE *f;

    if (strcmp(path, "-") == 0)
        return stdout;
    for (int i = 0; i < 2; i++) {
        f = mb_userfile_read_max(files, inputs[i],
                                 i ? "the new results file"
                                   : "the base "
                                     "results file",
                                 MB_RECORDS_MAX_BYTES, "a results file", &err);
        if (f)
            fclose(f);
    }
    err.kind = MB_ERR_NONE;
    f = mb_userfile_write(files, path, "--json file ", "the --json file", &err);
    if (f && mb_userfile_truncate(f, path, "--json file ", &err) != 0) {
        fclose(f);
        f = NULL;
    }
    if (!f)
        usage_error("compare", "%s", err.msg);
    return f;
}

static int compare_usage(void)
{
    char text[sizeof compare_help + 64];
    snprintf(text, sizeof text, compare_help, MB_COMPARE_THRESHOLD_PCT, MB_COMPARE_IO_THRESHOLD_PCT,
             MB_COMPARE_NOISE_PCT);
    return help("compare", text);
}

static int compare_main(int argc, char **argv)
{
    enum { OPT_HTML = 1000, OPT_IO_THRESHOLD };
    static const struct option longs[] = {
        {"threshold", required_argument, NULL, 't'},
        {"io-threshold", required_argument, NULL, OPT_IO_THRESHOLD},
        {"noise", required_argument, NULL, 'n'},
        {"all", no_argument, NULL, 'a'},
        {"json", required_argument, NULL, 'j'},
        {"html", required_argument, NULL, OPT_HTML},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {0, 0, 0, 0}};
    struct mb_compare_opts opts = {MB_COMPARE_THRESHOLD_PCT, MB_COMPARE_IO_THRESHOLD_PCT,
                                   MB_COMPARE_NOISE_PCT, 0};
    int threshold_given = 0, io_threshold_given = 0;
    struct runs runs = {0};
    struct mb_files files = {0};
    struct mb_comparison *cmp = NULL;
    struct mb_error err = {0};
    const char *json = NULL, *html = NULL;
    FILE *jf = NULL;
    char msg[1200];
    int c, status, force = 0;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":t:n:aj:fh", longs, NULL)) != -1) {
        if (c == 't') {
            if (percent("--threshold", optarg, &opts.threshold_pct) != 0)
                return MB_EXIT_USAGE;
            threshold_given = 1;
        } else if (c == OPT_IO_THRESHOLD) {
            if (percent("--io-threshold", optarg, &opts.io_threshold_pct) != 0)
                return MB_EXIT_USAGE;
            io_threshold_given = 1;
        } else if (c == 'n') {
            if (percent("--noise", optarg, &opts.noise_pct) != 0)
                return MB_EXIT_USAGE;
        } else if (c == 'a') {
            opts.all = 1;
        } else if (c == 'j') {
            json = optarg;
        } else if (c == OPT_HTML) {
            html = optarg;
        } else if (c == 'f') {
            force = 1;
        } else if (c == 'h') {
            return compare_usage();
        } else if (c == ':') {
            return usage_error("compare", "option '%s' needs a value", argv[optind - 1]);
        } else {
            return usage_error("compare", "unknown option '%s'; try 'mpibench compare --help'",
                               argv[optind - 1]);
        }
    }
    /* One --threshold for every row, as a user of a quiet machine expects; --io-threshold
     * sets file I/O's apart. */
    if (threshold_given && !io_threshold_given)
        opts.io_threshold_pct = opts.threshold_pct;
    if (argc - optind != 2)
        return usage_error("compare",
                           "expected 2 results files (BASE NEW), got %d; try "
                           "'mpibench compare --help'",
                           argc - optind);
    if (json && !*json)
        return usage_error("compare", "invalid value '' for --json: a file name or - is needed");
    if (html && !*html)
        return usage_error("compare", "invalid value '' for --html: a directory name is needed");
    if (force && !html)
        return usage_error("compare", "--force needs --html DIR (it lets DIR exist)");
    if (html && mb_plot_dir_check(html, force, &err) != 0)
        return usage_error("compare", "%s", err.msg);
    status = load_runs(&runs, "compare", "compare", 2, argv + optind);
    if (status == 0) {
        cmp = mb_compare_build(&runs.r[0], &runs.r[1], &opts, msg, sizeof msg);
        if (!cmp)
            status = usage_error("compare", "%s", msg);
    }
    if (status == 0 && json) {
        jf = json_out(json, argv + optind, &files);
        if (!jf)
            status = MB_EXIT_USAGE;
    }
    if (status == 0 && html && mb_plot_dir_prepare(html, force, &err) != 0)
        status = usage_error("compare", "%s", err.msg);
    if (status != 0) {
        if (jf && jf != stdout)
            mb_files_remove_created(&files);
    } else {
        if (jf != stdout)
            mb_compare_text(cmp, stdout);
        if (jf) {
            mb_compare_json(cmp, jf);
            if (jf != stdout && mb_sink_check(jf, "the --json file", msg, sizeof msg) != 0) {
                mb_eprintf("mpibench compare: run-time error: %s", msg);
                status = MB_EXIT_RUNTIME;
            }
        }
        if (status == 0 && html) {
            char *extra = mb_compare_html(cmp);
            /* Plots that could not be drawn (no gnuplot) are said on stderr; the status
             * stays the comparison's, whose meaning (1: regressed) a script relies on. */
            if (write_plots("compare", &runs, html, extra) < 0)
                status = MB_EXIT_RUNTIME;
            free(extra);
        }
        if (status == 0)
            status = mb_compare_status(cmp);
    }
    if (jf && jf != stdout)
        fclose(jf);
    mb_files_free(&files);
    mb_compare_free(cmp);
    free_runs(&runs);
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
