/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/html.h"

#include "results/record_types.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mb_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc((*s >= 0x20 && *s < 0x7f) || *s == '\n' ? *s : '?', f);
        }
    }
}

static void row(FILE *f, const char *label, const char *value)
{
    fputs("<tr><th>", f);
    mb_html_text(f, label);
    fputs("</th><td>", f);
    mb_html_text(f, value);
    fputs("</td></tr>\n", f);
}

/* The header's hardware (one row per distinct host summary) and compiler, as the text header
 * words them; absent from results before they were recorded. */
static void hardware_rows(FILE *f, const json_t *h)
{
    const json_t *kinds = json_object_get(h, "hardware"), *k;
    size_t i;
    char buf[640];

    json_array_foreach(kinds, i, k)
    {
        const json_t *caches = json_object_get(k, "cache_bytes"), *v;
        const char *level;
        int used = snprintf(buf, sizeof buf,
                            "%lld host(s): %s; %lld packages, %lld cores, %lld "
                            "hardware threads, %lld NUMA nodes;",
                            mb_rec_int(k, "host_count", 0),
                            mb_rec_str(k, "cpu_model") ? mb_rec_str(k, "cpu_model") : "CPU unknown",
                            mb_rec_int(k, "packages", 0), mb_rec_int(k, "cores", 0),
                            mb_rec_int(k, "hardware_threads", 0), mb_rec_int(k, "numa_nodes", 0));
        json_object_foreach((json_t *)caches, level, v) if (used > 0 && (size_t)used < sizeof buf)
            used += snprintf(buf + used, sizeof buf - (size_t)used, " %s %lld KiB", level,
                             (long long)json_integer_value(v) / 1024);
        if (used > 0 && (size_t)used < sizeof buf)
            snprintf(buf + used, sizeof buf - (size_t)used, "; memory %.1f GiB",
                     (double)mb_rec_int(k, "memory_bytes", 0) / (1024.0 * 1024 * 1024));
        row(f, i ? "" : "hardware", buf);
    }
    if (mb_rec_str(h, "compiler")) {
        snprintf(buf, sizeof buf, "%s, %s", mb_rec_str(h, "compiler"),
                 mb_rec_str(h, "compiler_flags") ? mb_rec_str(h, "compiler_flags") : "");
        row(f, "compiled with", buf);
    }
}

/* Where the results come from: the first record of the provenance type of the table (the
 * header: each suite writes one). */
static const json_t *provenance_of(const struct mb_records *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct mb_record_type *t = mb_rt_of(r->rec[i]);
        if (t && t->provenance)
            return r->rec[i];
    }
    return NULL;
}

static void about(FILE *f, const struct mb_records *r, const char *label)
{
    const json_t *h = provenance_of(r);
    char buf[512];

    fputs("<h2>Machine", f);
    if (label) {
        fputs(": ", f);
        mb_html_text(f, label);
    }
    fputs("</h2>\n<table>\n", f);
    row(f, "results", r->path);
    if (h) {
        row(f, "date", mb_rec_str(h, "date"));
        row(f, "run id", mb_rec_str(h, "run_id"));
        snprintf(buf, sizeof buf, "%lld on %lld host(s): %s", mb_rec_int(h, "processes", 0),
                 mb_rec_int(h, "hosts", 0),
                 mb_rec_str(h, "host_list") ? mb_rec_str(h, "host_list") : "?");
        row(f, "processes", buf);
        snprintf(buf, sizeof buf, "%lld of %lld ranks bound; rank 0 on CPUs %s",
                 mb_rec_int(h, "bound_ranks", 0), mb_rec_int(h, "processes", 0),
                 mb_rec_str(h, "binding_rank0") ? mb_rec_str(h, "binding_rank0") : "?");
        row(f, "binding", buf);
        hardware_rows(f, h);
        row(f, "MPI library", mb_rec_str(h, "mpi_library"));
        snprintf(buf, sizeof buf, "%s %s %s",
                 mb_rec_str(h, "system") ? mb_rec_str(h, "system") : "",
                 mb_rec_str(h, "release") ? mb_rec_str(h, "release") : "",
                 mb_rec_str(h, "machine") ? mb_rec_str(h, "machine") : "");
        row(f, "system", buf);
        snprintf(buf, sizeof buf, "%s (git %s)", mb_rec_str(h, "mpibench_version"),
                 mb_rec_str(h, "git_commit"));
        row(f, "mpibench", buf);
    }
    fputs("</table>\n", f);
}

/* The headline table: one value column per run (several runs: headed by their labels). */
static void headlines(FILE *f, const struct mb_headline_set *hl, size_t nruns,
                      const char *const *labels)
{
    char buf[64];

    fputs("<h2>Headline numbers</h2>\n<table id=\"headlines\">\n<tr><th>measure</th>", f);
    for (size_t k = 0; k < nruns; k++) {
        fputs("<th>", f);
        mb_html_text(f, nruns > 1 ? labels[k] : "value");
        fputs("</th>", f);
    }
    fputs("<th>unit</th><th>from</th></tr>\n", f);
    for (size_t i = 0; i < hl[0].n; i++) {
        const struct mb_headline *h = &hl[0].h[i];
        const char *from = NULL, *why = NULL;
        fputs("<tr><td>", f);
        mb_html_text(f, h->label);
        fputs("</td>", f);
        for (size_t k = 0; k < nruns; k++) {
            const struct mb_headline *hk = &hl[k].h[i];
            if (hk->present)
                snprintf(buf, sizeof buf, "%.2f", hk->value);
            if (hk->present && !from)
                from = hk->detail;
            if (!hk->present && hk->why[0] && !why)
                why = hk->why;
            fprintf(f, "<td class=\"num\">%s</td>", hk->present ? buf : "-");
        }
        fputs("<td>", f);
        mb_html_text(f, h->unit);
        fputs("</td><td>", f);
        mb_html_text(f, from ? from : why ? why : "not measured");
        fputs("</td></tr>\n", f);
    }
}

static void head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>mpibench results</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 2em; max-width: 72em; }\n"
          "table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
          "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; }\n"
          "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
          "figure { margin: 1em 0 2em 0; } img { max-width: 100%; height: auto; }\n"
          "</style>\n</head>\n<body>\n<h1>",
          f);
    mb_html_text(f, title);
    fputs("</h1>\n", f);
}

static void figures(FILE *f, const char *img_prefix, const struct mb_plot_list *plots)
{
    fputs("<h2>Plots</h2>\n", f);
    if (plots->n == 0)
        fputs("<p>The results hold nothing to plot.</p>\n", f);
    for (size_t i = 0; i < plots->n; i++) {
        fputs("<figure>\n<img src=\"", f);
        mb_html_text(f, img_prefix);
        mb_html_text(f, plots->name[i]);
        fputs(".svg\" alt=\"", f);
        mb_html_text(f, plots->title[i]);
        fputs("\" width=\"960\" height=\"600\">\n<figcaption>", f);
        mb_html_text(f, plots->title[i]);
        fputs(" (<a href=\"", f);
        mb_html_text(f, img_prefix);
        mb_html_text(f, plots->name[i]);
        fputs(".png\">PNG</a>, <a href=\"", f);
        mb_html_text(f, img_prefix);
        mb_html_text(f, plots->name[i]);
        fputs(".dat\">data</a>)</figcaption>\n</figure>\n", f);
    }
}

static int finish(FILE *f, const char *path, char *msg, size_t len)
{
    fputs("</body>\n</html>\n", f);
    if (ferror(f) | fclose(f)) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static FILE *open_page(const char *path, char *msg, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

static int page(const char *path, const char *img_prefix, const struct mb_records *runs,
                size_t nruns, const char *const *labels, const struct mb_headline_set *hl,
                const struct mb_plot_list *plots, const char *extra, char *msg, size_t len)
{
    FILE *f = open_page(path, msg, len);

    if (!f)
        return -1;
    head(f, "mpibench results");
    headlines(f, hl, nruns, labels);
    fputs("</table>\n", f);
    if (extra)
        fputs(extra, f);
    for (size_t k = 0; k < nruns; k++)
        about(f, &runs[k], nruns > 1 ? labels[k] : NULL);
    figures(f, img_prefix, plots);
    return finish(f, path, msg, len);
}

int mb_html_write(const char *path, const char *img_prefix, const struct mb_records *r,
                  const struct mb_headline_set *hl, const struct mb_plot_list *plots,
                  const char *extra, char *msg, size_t len)
{
    return page(path, img_prefix, r, 1, NULL, hl, plots, extra, msg, len);
}

int mb_html_write_runs(const char *path, const struct mb_records *runs, size_t nruns,
                       const char *const *labels, const struct mb_plot_list *plots,
                       const char *extra, char *msg, size_t len)
{
    struct mb_headline_set *hl = mb_rs_alloc(NULL, nruns, sizeof *hl);
    int rc;

    for (size_t k = 0; k < nruns; k++)
        mb_headlines(&runs[k], &hl[k]);
    rc = page(path, "", runs, nruns, labels, hl, plots, extra, msg, len);
    free(hl);
    return rc;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Who is in which group: one row per run, with what its header says about it. */
static void group_table(FILE *f, const struct mb_records *runs, const char *const *labels,
                        size_t nbase, size_t nnew)
{
    char buf[512];

    fputs("<h2>Groups</h2>\n<p>The plots draw every benchmark once per group, at the median over "
          "the group's runs of each run's value (the row's median where it was measured as "
          "samples, else its figure), with the runs' min..max as error bars (a group of one run "
          "has none); a benchmark's two series share a colour: base a solid line with open "
          "markers, new a dashed line with filled markers. The ratio plots show the comparison "
          "per family and size (&gt; 1: the new runs are slower; time new/base, bandwidth "
          "base/new) with its interval, a line at 1 and lines at the threshold both ways.</p>\n"
          "<table id=\"groups\">\n<tr><th>group</th><th>run</th><th>results</th><th>date</th>"
          "<th>processes</th><th>MPI library</th><th>mpibench</th></tr>\n",
          f);
    for (size_t k = 0; k < nbase + nnew; k++) {
        const json_t *h = provenance_of(&runs[k]);
        fprintf(f, "<tr><td>%s</td><td>", k < nbase ? "base" : "new");
        mb_html_text(f, labels[k]);
        fputs("</td><td>", f);
        mb_html_text(f, runs[k].path);
        fputs("</td><td>", f);
        mb_html_text(f, h ? mb_rec_str(h, "date") : NULL);
        fputs("</td><td>", f);
        if (h) {
            snprintf(buf, sizeof buf, "%lld on %lld host(s)", mb_rec_int(h, "processes", 0),
                     mb_rec_int(h, "hosts", 0));
            mb_html_text(f, buf);
        }
        fputs("</td><td>", f);
        mb_html_text(f, h ? mb_rec_str(h, "mpi_library") : NULL);
        fputs("</td><td>", f);
        mb_html_text(f, h ? mb_rec_str(h, "mpibench_version") : NULL);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The headline numbers of each group: the median over its runs (and in how many runs it was
 * measured, when not in all). */
static void group_headlines(FILE *f, const struct mb_headline_set *hl, size_t nbase, size_t nnew)
{
    const size_t n[2] = {nbase, nnew}, first[2] = {0, nbase};
    double *v = mb_rs_alloc(NULL, nbase + nnew, sizeof *v);
    char buf[96];

    fprintf(f,
            "<h2>Headline numbers</h2>\n<table id=\"headlines\">\n<tr><th>measure</th>"
            "<th>base (median of %zu run%s)</th><th>new (median of %zu run%s)</th><th>unit</th>"
            "<th>from</th></tr>\n",
            nbase, nbase == 1 ? "" : "s", nnew, nnew == 1 ? "" : "s");
    for (size_t i = 0; i < hl[0].n; i++) {
        const char *from = NULL;
        fputs("<tr><td>", f);
        mb_html_text(f, hl[0].h[i].label);
        fputs("</td>", f);
        for (int g = 0; g < 2; g++) {
            size_t m = 0;
            for (size_t k = first[g]; k < first[g] + n[g]; k++) {
                const struct mb_headline *h = &hl[k].h[i];
                if (!h->present)
                    continue;
                v[m++] = h->value;
                if (!from)
                    from = h->detail;
            }
            qsort(v, m, sizeof *v, by_value);
            if (m == 0)
                snprintf(buf, sizeof buf, "-");
            else
                snprintf(buf, sizeof buf, "%.2f", m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2);
            if (m > 0 && m < n[g])
                snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (%zu of %zu runs)", m,
                         n[g]);
            fprintf(f, "<td class=\"num\">%s</td>", buf);
        }
        fputs("<td>", f);
        mb_html_text(f, hl[0].h[i].unit);
        fputs("</td><td>", f);
        mb_html_text(f, from ? from : "not measured");
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    free(v);
}

int mb_html_write_groups(const char *path, const struct mb_records *runs, const char *const *labels,
                         size_t nbase, size_t nnew, const struct mb_plot_list *plots,
                         const char *extra, char *msg, size_t len)
{
    struct mb_headline_set *hl = mb_rs_alloc(NULL, nbase + nnew, sizeof *hl);
    FILE *f = open_page(path, msg, len);

    if (!f) {
        free(hl);
        return -1;
    }
    for (size_t k = 0; k < nbase + nnew; k++)
        mb_headlines(&runs[k], &hl[k]);
    head(f, "mpibench results: two groups of runs");
    group_table(f, runs, labels, nbase, nnew);
    group_headlines(f, hl, nbase, nnew);
    if (extra)
        fputs(extra, f);
    figures(f, "", plots);
    if (plots->families_left_out)
        fprintf(f,
                "<p>%zu more families with sizes are not drawn (at most %d ratio plots of %d "
                "families each).</p>\n",
                plots->families_left_out, MB_RATIO_PLOTS, MB_RATIO_FAMILIES);
    free(hl);
    return finish(f, path, msg, len);
}
