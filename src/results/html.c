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

/* Where the results come from: the first record of the provenance type of the table (the
 * header: each suite writes one). */
static void about(FILE *f, const struct mb_records *r, const char *label)
{
    const json_t *h = NULL;
    char buf[512];

    for (size_t i = 0; i < r->n && !h; i++) {
        const struct mb_record_type *t = mb_rt_of(r->rec[i]);
        if (t && t->provenance)
            h = r->rec[i];
    }
    fputs("<h2>Machine", f);
    if (label) {
        fputs(": ", f);
        mb_html_text(f, label);
    }
    fputs("</h2>\n<table>\n", f);
    row(f, "results", r->path);
    if (h) {
        row(f, "date", mb_rec_str(h, "date"));
        snprintf(buf, sizeof buf, "%lld on %lld host(s): %s", mb_rec_int(h, "processes", 0),
                 mb_rec_int(h, "hosts", 0),
                 mb_rec_str(h, "host_list") ? mb_rec_str(h, "host_list") : "?");
        row(f, "processes", buf);
        snprintf(buf, sizeof buf, "%lld of %lld ranks bound; rank 0 on CPUs %s",
                 mb_rec_int(h, "bound_ranks", 0), mb_rec_int(h, "processes", 0),
                 mb_rec_str(h, "binding_rank0") ? mb_rec_str(h, "binding_rank0") : "?");
        row(f, "binding", buf);
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
        const char *from = NULL;
        fputs("<tr><td>", f);
        mb_html_text(f, h->label);
        fputs("</td>", f);
        for (size_t k = 0; k < nruns; k++) {
            const struct mb_headline *hk = &hl[k].h[i];
            if (hk->present)
                snprintf(buf, sizeof buf, "%.2f", hk->value);
            if (hk->present && !from)
                from = hk->detail;
            fprintf(f, "<td class=\"num\">%s</td>", hk->present ? buf : "-");
        }
        fputs("<td>", f);
        mb_html_text(f, h->unit);
        fputs("</td><td>", f);
        mb_html_text(f, from ? from : "not measured");
        fputs("</td></tr>\n", f);
    }
}

static int page(const char *path, const char *img_prefix, const struct mb_records *runs,
                size_t nruns, const char *const *labels, const struct mb_headline_set *hl,
                const struct mb_plot_list *plots, const char *extra, char *msg, size_t len)
{
    FILE *f = fopen(path, "w");

    if (!f) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>mpibench results</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 2em; max-width: 72em; }\n"
          "table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
          "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; }\n"
          "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
          "figure { margin: 1em 0 2em 0; } img { max-width: 100%; height: auto; }\n"
          "</style>\n</head>\n<body>\n<h1>mpibench results</h1>\n",
          f);
    headlines(f, hl, nruns, labels);
    fputs("</table>\n", f);
    if (extra)
        fputs(extra, f);
    for (size_t k = 0; k < nruns; k++)
        about(f, &runs[k], nruns > 1 ? labels[k] : NULL);
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
    fputs("</body>\n</html>\n", f);
    if (ferror(f) | fclose(f)) {
        snprintf(msg, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
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
