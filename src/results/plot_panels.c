/* SPDX-License-Identifier: BSD-3-Clause */
/* What a plot shows beside its records' points (results/plot_internal.h): the ratio of every
 * run over the first under each panel (mpibench plot A B), and the caption that says where
 * the results come from - hosts, MPI library, date and CPU model of each run, read from its
 * header records. */
#include "results/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The series of run 0 in panel with that key, or NULL. */
static const struct mb_series *first_run(const struct mb_plot *p, size_t panel, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->s[i].run == 0 && !p->s[i].ratio && p->s[i].panel == panel &&
            strcmp(p->s[i].key, key) == 0)
            return &p->s[i];
    return NULL;
}

void mb_plot_ratios(struct mb_plot *p)
{
    const size_t n = p->n;

    for (size_t i = 0; i < n; i++)
        mb_plot_sort(&p->s[i]);
    for (size_t i = 0; i < n; i++) {
        const struct mb_series *s = &p->s[i], *b;
        const struct mb_series_id id = {p->panel[s->panel], s->key, s->run, 0};
        const size_t skip = strlen(p->run_label[s->run]);
        const char *name = s->title;
        char title[256];

        if (s->run == 0 || !(b = first_run(p, s->panel, s->key)))
            continue;
        /* The series' name without its run's prefix ("LABEL: "). */
        if (strncmp(name, p->run_label[s->run], skip) == 0 && strncmp(name + skip, ": ", 2) == 0)
            name += skip + 2;
        snprintf(title, sizeof title, "ratio %s / %s: %s", p->run_label[s->run], p->run_label[0],
                 name);
        /* Both sorted by x: one merge. Points at one x meet in order (a series without
         * keep_max may have several). */
        for (size_t j = 0, k = 0; j < s->n && k < b->n;) {
            if (s->x[j] < b->x[k]) {
                j++;
            } else if (b->x[k] < s->x[j]) {
                k++;
            } else {
                /* s and b stay valid: p->s is an array in p, only p->n grows. */
                struct mb_series *r;
                if (b->y[k] > 0 && (r = mb_plot_add(p, title, &id, s->x[j], s->y[j] / b->y[k], NAN,
                                                    NAN, NAN, 0))) {
                    r->ratio = 1;
                    p->ratios = 1;
                }
                j++, k++;
            }
        }
    }
}

/* The MPI library's name and version: the first line of its version string up to the first
 * comma ("Open MPI v4.1.4", "MPICH Version: 4.0.2"), white space made single spaces. */
static void mpi_name(char *out, size_t len, const char *lib)
{
    size_t j = 0;

    for (const char *c = lib; *c && *c != '\n' && *c != ',' && j + 1 < len; c++) {
        const int space = *c == ' ' || *c == '\t' || *c == '\r';
        if (space && (j == 0 || out[j - 1] == ' '))
            continue;
        out[j++] = space ? ' ' : *c;
    }
    while (j > 0 && out[j - 1] == ' ')
        j--;
    out[j] = '\0';
}

/* The distinct CPU models of a header's hardware array, joined by " + " (hosts of two kinds). */
static void cpu_models(char *out, size_t len, const json_t *header)
{
    const json_t *hw = json_object_get(header, "hardware");
    size_t i;
    const json_t *h;

    out[0] = '\0';
    json_array_foreach(hw, i, h)
    {
        const char *m = mb_rec_str(h, "cpu_model");
        if (!m || !*m || strstr(out, m))
            continue;
        snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " + " : "", m);
    }
}

static const json_t *header_of(const struct mb_records *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (mb_rec_is(r->rec[i], "header"))
            return r->rec[i];
    return NULL;
}

void mb_plot_caption(struct mb_plot *p, const char *label, const struct mb_records *runs,
                     size_t nruns)
{
    const json_t *h = NULL;
    const char *first = NULL, *last = NULL;
    char *c, mpi[96] = "", cpu[160] = "";
    size_t len;
    long long hosts;

    if (p->ncaptions == MB_PLOT_CAPTIONS)
        return;
    c = p->caption[p->ncaptions++];
    len = sizeof p->caption[0];
    for (size_t k = 0; k < nruns; k++) {
        const json_t *hk = header_of(&runs[k]);
        const char *d = hk ? mb_rec_str(hk, "date") : NULL;
        if (hk && !h)
            h = hk;
        if (d && (!first || strcmp(d, first) < 0))
            first = d;
        if (d && (!last || strcmp(d, last) > 0))
            last = d;
    }
    snprintf(c, len, "%s%s", label ? label : "", label ? ": " : "");
    if (!h) {
        snprintf(c + strlen(c), len - strlen(c), "no header record: hosts, MPI and date unknown");
        return;
    }
    hosts = mb_rec_int(h, "hosts", -1);
    if (hosts > 0)
        snprintf(c + strlen(c), len - strlen(c), "%lld host%s, ", hosts, hosts == 1 ? "" : "s");
    if (mb_rec_int(h, "processes", -1) > 0)
        snprintf(c + strlen(c), len - strlen(c), "%lld processes, ", mb_rec_int(h, "processes", 0));
    if (mb_rec_str(h, "mpi_library"))
        mpi_name(mpi, sizeof mpi, mb_rec_str(h, "mpi_library"));
    snprintf(c + strlen(c), len - strlen(c), "%s", mpi[0] ? mpi : "MPI unknown");
    if (first && last && strcmp(first, last) != 0)
        snprintf(c + strlen(c), len - strlen(c), ", %s .. %s", first, last);
    else if (first)
        snprintf(c + strlen(c), len - strlen(c), ", %s", first);
    cpu_models(cpu, sizeof cpu, h);
    if (cpu[0])
        snprintf(c + strlen(c), len - strlen(c), ", %s", cpu);
}
