/* SPDX-License-Identifier: BSD-3-Clause */
/* `mpibench compare [OPTIONS] BASE... -- NEW...` (or BASE NEW): the command line, the inputs
 * and the outputs of the comparison (results/compare.h; docs/adr/compare-runs.md). */
#include "core/error.h"
#include "core/options.h"
#include "core/report_text.h"
#include "core/sink.h"
#include "core/userfile.h"
#include "results/compare.h"
#include "results/plot_dir.h"
#include "results/tools_groups.h"
#include "results/tools_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The defaults are printed from the macros (compare.h), so --help never disagrees. */
static const char compare_help[] =
    "Usage: mpibench compare [OPTIONS] BASE... -- NEW...\n"
    "       mpibench compare [OPTIONS] BASE NEW\n"
    "Compares the measurements two groups of runs have in common (same suite, benchmark, mode,\n"
    "process count and size; provenance is ignored). Each file is one run (a results file, or a\n"
    "directory holding results.jsonl); '--' separates the base runs from the new ones. The\n"
    "runs of a group must repeat the same measurement (suites, process counts, settings).\n\n"
    "Several runs a side (scripts/runs.sh makes them): each run gives every row one value (its\n"
    "median), and the runs are the samples. A change counts when the runs differ\n"
    "significantly (two-sided, alpha 0.05: a Mann-Whitney U test over the runs with 4 or more\n"
    "a side, Welch's t test on log values with 2-3, a t test of one run against a group) and\n"
    "the ratio (Hodges-Lehmann, else of geometric means) is beyond the threshold.\n"
    "One run a side: the run-to-run noise is not measured, and the band is wide: a row counts\n"
    "when it is significant within the runs (a U test on 6 or more samples a side, else\n"
    "disjoint 95 %% intervals of the median, else beyond the noise band of single samples).\n\n"
    "The ratio is new/base of times and base/new of bandwidths (> 1: worse). A threshold of T\n"
    "%% on time is 100 T / (100 + T) %% less bandwidth: 10 %% is -9.1 %%, 25 %% -20 %%, 50 %% -33 "
    "%%,\n"
    "400 %% -80 %%. Each family (suite, benchmark, mode, process count) is summarised by the\n"
    "geometric mean ratio over its sizes, tested the same way, and all families by one OVERALL\n"
    "line; OVERALL and the families share alpha (OVERALL 0.033, the families together 0.017, a\n"
    "rejected one passing its share on), so that an unchanged machine fails at most 5 %% of\n"
    "its comparisons however many families it has. Prints the rows that changed, worst first,\n"
    "the rows not comparable, the families and OVERALL. Exit status 0: no family and not\n"
    "OVERALL regressed; 1: one did; 2: bad input, or the files have nothing in common.\n\n"
    "  -t, --threshold PCT   the smallest change that counts, in percent of time (default %g\n"
    "                        with several runs on a side, %g with one run a side; also of\n"
    "                        file I/O unless --io-threshold is given)\n"
    "      --io-threshold PCT\n"
    "                        the same for file I/O (IMB-IO, b_eff_io), whose run-to-run\n"
    "                        noise is larger (default %g, with one run a side %g)\n"
    "  -n, --noise PCT       one run a side, rows of fewer than 6 samples: the run-to-run\n"
    "                        noise band, in percent (default %g)\n"
    "  -a, --all             print every row, also the unchanged ones\n"
    "  -j, --json FILE       also write the comparison as JSON Lines to FILE (- : standard\n"
    "                        output, instead of the tables)\n"
    "      --html DIR        a new directory with index.html: the comparison and the runs'\n"
    "                        plots over each other (as plot -o)\n"
    "  -f, --force           DIR may exist (as plot --force)\n"
    "  -h, --help            print this help and exit\n";

enum { OPT_HTML = 1000, OPT_IO_THRESHOLD };

struct cli {
    struct mb_compare_opts opts;
    int threshold_given, io_threshold_given, force;
    const char *json, *html;
};

static int percent(const char *opt, const char *text, double *out)
{
    const char *why;
    if (mb_parse_double(text, 0, 1e6, out, &why) != 0)
        return mb_tool_usage_error(
            "compare", "invalid value '%s' for %s: %s (percent, 0 ... 1000000)", text, opt, why);
    return -1;
}

static int usage(void)
{
    char text[sizeof compare_help + 128];
    snprintf(text, sizeof text, compare_help, MB_COMPARE_THRESHOLD_PCT,
             MB_COMPARE_SINGLE_THRESHOLD_PCT, MB_COMPARE_IO_THRESHOLD_PCT,
             MB_COMPARE_SINGLE_IO_THRESHOLD_PCT, MB_COMPARE_NOISE_PCT);
    return mb_tool_help("compare", text);
}

static int option(int c, const char *arg, void *user)
{
    struct cli *cli = user;

    switch (c) {
    case 't':
        cli->threshold_given = 1;
        return percent("--threshold", arg, &cli->opts.threshold_pct);
    case OPT_IO_THRESHOLD:
        cli->io_threshold_given = 1;
        return percent("--io-threshold", arg, &cli->opts.io_threshold_pct);
    case 'n':
        return percent("--noise", arg, &cli->opts.noise_pct);
    case 'a':
        cli->opts.all = 1;
        return -1;
    case 'j':
        cli->json = arg;
        return -1;
    case OPT_HTML:
        cli->html = arg;
        return -1;
    case 'f':
        cli->force = 1;
        return -1;
    case 'h':
        return usage();
    case ':':
        return mb_tool_usage_error("compare", "option '%s' needs a value", arg);
    default:
        return mb_tool_usage_error("compare", "unknown option '%s'; try 'mpibench compare --help'",
                                   arg);
    }
}

/* The --json file: a regular file that is none of the inputs (core/userfile.h), opened only
 * once the inputs were read and compared. */
static FILE *json_out(const char *path, const struct mb_tool_runs *runs, struct mb_files *files)
{
    struct mb_error err = {0};
    FILE *f;

    if (strcmp(path, "-") == 0)
        return stdout;
    for (size_t i = 0; i < runs->n; i++) {
        f = mb_userfile_read_max(files, runs->r[i].path, "a results file", MB_RECORDS_MAX_BYTES,
                                 "a results file", &err);
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
        mb_tool_usage_error("compare", "%s", err.msg);
    return f;
}

/* The files as groups: BASE... -- NEW..., or the two files BASE NEW. */
static int groups(const struct mb_tool_args *a, int *nbase)
{
    if (a->split < 0) {
        if (a->nfiles != 2)
            return mb_tool_usage_error(
                "compare",
                "expected 2 results files (BASE NEW), or groups of runs separated by '--' "
                "(BASE... -- NEW...), got %d file%s; try 'mpibench compare --help'",
                a->nfiles, a->nfiles == 1 ? "" : "s");
        *nbase = 1;
        return 0;
    }
    if (a->split == 0)
        return mb_tool_usage_error("compare", "no base run before '--' (BASE... -- NEW...); try "
                                              "'mpibench compare --help'");
    if (a->split == a->nfiles)
        return mb_tool_usage_error("compare", "no new run after '--' (BASE... -- NEW...); try "
                                              "'mpibench compare --help'");
    *nbase = a->split;
    return 0;
}

/* Writes what the comparison says: the tables (unless --json -), the JSON, the page. */
static int report(const struct cli *cli, const struct mb_comparison *cmp,
                  const struct mb_tool_runs *runs, FILE *jf)
{
    char msg[1200];

    if (jf != stdout)
        mb_compare_text(cmp, stdout);
    if (jf) {
        mb_compare_json(cmp, jf);
        if (jf != stdout && mb_sink_check(jf, "the --json file", msg, sizeof msg) != 0) {
            mb_eprintf("mpibench compare: run-time error: %s", msg);
            return MB_EXIT_RUNTIME;
        }
    }
    if (cli->html) {
        char *extra = mb_compare_html(cmp);
        size_t nbase, nnew;
        int drawn;
        /* Groups of runs: each benchmark once per group (median, the runs' min..max) and the
         * ratio plots (docs/adr/plots-of-groups.md); one run a side: both runs over each
         * other, each with its within-run intervals, as the comparison judged them. Plots
         * that could not be drawn (no gnuplot) are said on stderr; the status stays the
         * comparison's, whose meaning (1: regressed) a script relies on. */
        mb_compare_group_sizes(cmp, &nbase, &nnew);
        if (nbase > 1 || nnew > 1)
            drawn = mb_tool_write_group_plots("compare", runs, nbase, cmp, cli->html, extra);
        else
            drawn = mb_tool_write_plots("compare", runs, cli->html, extra);
        free(extra);
        if (drawn < 0)
            return MB_EXIT_RUNTIME;
    }
    return mb_compare_status(cmp);
}

int mb_tool_compare_main(int argc, char **argv)
{
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
    struct cli cli = {{-1, -1, MB_COMPARE_NOISE_PCT, 0}, 0, 0, 0, NULL, NULL};
    struct mb_tool_args args = {0};
    struct mb_tool_runs runs = {0};
    struct mb_files files = {0};
    struct mb_comparison *cmp = NULL;
    struct mb_error err = {0};
    FILE *jf = NULL;
    char msg[1200];
    int nbase = 0;
    int status = mb_tool_parse("compare", argc, argv, ":t:n:aj:fh", longs, option, &cli, &args);

    if (status >= 0) {
        free(args.files);
        return status;
    }
    status = 0;
    /* One --threshold for every row, as a user of a quiet machine expects; --io-threshold
     * sets file I/O's apart. */
    if (cli.threshold_given && !cli.io_threshold_given)
        cli.opts.io_threshold_pct = cli.opts.threshold_pct;
    if (status == 0)
        status = groups(&args, &nbase);
    if (status == 0 && cli.json && !*cli.json)
        status = mb_tool_usage_error("compare",
                                     "invalid value '' for --json: a file name or - is needed");
    if (status == 0 && cli.html && !*cli.html)
        status = mb_tool_usage_error("compare",
                                     "invalid value '' for --html: a directory name is needed");
    if (status == 0 && cli.force && !cli.html)
        status = mb_tool_usage_error("compare", "--force needs --html DIR (it lets DIR exist)");
    if (status == 0 && cli.html && mb_plot_dir_check(cli.html, cli.force, &err) != 0)
        status = mb_tool_usage_error("compare", "%s", err.msg);
    if (status == 0)
        status = mb_tool_load_runs(&runs, "compare", "compare", args.nfiles, args.files);
    if (status == 0) {
        cmp = mb_compare_build(runs.r, (size_t)nbase, runs.r + nbase, runs.n - (size_t)nbase,
                               &cli.opts, msg, sizeof msg);
        if (!cmp)
            status = mb_tool_usage_error("compare", "%s", msg);
    }
    if (status == 0 && cli.json) {
        jf = json_out(cli.json, &runs, &files);
        if (!jf)
            status = MB_EXIT_USAGE;
    }
    if (status == 0 && cli.html && mb_plot_dir_prepare(cli.html, cli.force, &err) != 0)
        status = mb_tool_usage_error("compare", "%s", err.msg);
    if (status != 0) {
        if (jf && jf != stdout)
            mb_files_remove_created(&files);
    } else {
        status = report(&cli, cmp, &runs, jf);
    }
    if (jf && jf != stdout)
        fclose(jf);
    mb_files_free(&files);
    mb_compare_free(cmp);
    mb_tool_free_runs(&runs);
    free(args.files);
    return mb_tool_check_stdout("compare", status);
}
