/* SPDX-License-Identifier: BSD-3-Clause */
/* The comparison as text, JSON Lines and HTML: three printers of the same decisions. */
#include "results/compare_internal.h"

#include "core/report_text.h"
#include "results/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mb_cmp_test_text(const struct mb_cmp_decision *d, char *buf, size_t len)
{
    static const char *const across[] = {"-", "U", "t", "t 1 run"};

    switch (d->test) {
    case MB_CMP_RUNS:
        if (isfinite(d->p) && d->level != MB_COMPARE_ALPHA)
            snprintf(buf, len, "%s p=%.2g%s (%.2g)", across[d->across.test], d->p,
                     d->across.test == MB_ACROSS_U && !d->exact ? "~" : "", d->level);
        else if (isfinite(d->p))
            snprintf(buf, len, "%s p=%.2g%s", across[d->across.test], d->p,
                     d->across.test == MB_ACROSS_U && !d->exact ? "~" : "");
        else
            snprintf(buf, len, "all alike");
        break;
    case MB_CMP_MWU:
        snprintf(buf, len, "U p=%.2g%s", d->p, d->exact ? "" : "~");
        break;
    case MB_CMP_CI:
        snprintf(buf, len, "CI %s", d->significant ? "apart" : "overlap");
        break;
    case MB_CMP_SINGLE:
        snprintf(buf, len, "1 sample");
        break;
    case MB_CMP_BAND:
        snprintf(buf, len, "band");
        break;
    }
}

const char *mb_cmp_test_json(const struct mb_cmp_decision *d)
{
    static const char *const across[] = {"threshold_only", "mann_whitney_u_runs", "welch_t_runs",
                                         "prediction_t_runs"};
    switch (d->test) {
    case MB_CMP_RUNS:
        return isfinite(d->p) ? across[d->across.test] : "all_alike";
    case MB_CMP_MWU:
        return "mann_whitney_u";
    case MB_CMP_CI:
        return "ci_overlap";
    case MB_CMP_SINGLE:
        return "single_sample";
    case MB_CMP_BAND:
        break;
    }
    return "threshold_only";
}

static int compared(enum mb_cmp_verdict v)
{
    return v <= MB_V_UNCERTAIN;
}

static size_t count_compared(const size_t *count)
{
    return count[MB_V_UNCHANGED] + count[MB_V_REGRESSED] + count[MB_V_IMPROVED] +
           count[MB_V_UNCERTAIN];
}

static size_t count_not_comparable(const size_t *count)
{
    return count[MB_V_NOT_COMPARABLE] + count[MB_V_ONLY_BASE] + count[MB_V_ONLY_NEW];
}

static int shown(const struct mb_comparison *c, const struct mb_cmp_row *q)
{
    return c->opts.all || (q->d.verdict != MB_V_UNCHANGED && q->d.verdict != MB_V_UNCERTAIN);
}

static void interval_text(const struct mb_cmp_decision *d, char *buf, size_t len)
{
    if (isfinite(d->lo) && isfinite(d->hi))
        snprintf(buf, len, "[%.3f, %.3f]", d->lo, d->hi);
    else
        snprintf(buf, len, "-");
}

static void rows_summary(const struct mb_comparison *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%zu compared: %zu regressed, %zu improved, %zu unchanged, %zu uncertain; %zu not "
             "comparable (%zu only in base, %zu only in new, %zu without a ratio or in some runs "
             "only)",
             count_compared(c->count), c->count[MB_V_REGRESSED], c->count[MB_V_IMPROVED],
             c->count[MB_V_UNCHANGED], c->count[MB_V_UNCERTAIN], count_not_comparable(c->count),
             c->count[MB_V_ONLY_BASE], c->count[MB_V_ONLY_NEW], c->count[MB_V_NOT_COMPARABLE]);
}

static void families_summary(const struct mb_comparison *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%zu families: %zu regressed, %zu improved, %zu unchanged, %zu uncertain; OVERALL "
             "%s (ratio %.3f); exit status %d",
             c->nfam, c->fam_count[MB_V_REGRESSED], c->fam_count[MB_V_IMPROVED],
             c->fam_count[MB_V_UNCHANGED], c->fam_count[MB_V_UNCERTAIN],
             mb_cmp_verdict_text[c->overall.verdict], c->overall.ratio, mb_compare_status(c));
}

/* "'a' ... 'z'": the first and last of a group's files. */
static void group_text(char *buf, size_t len, char **paths, size_t n)
{
    if (n == 1)
        snprintf(buf, len, "'%s'", paths[0]);
    else
        snprintf(buf, len, "%zu runs ('%s'%s'%s')", n, paths[0], n > 2 ? " ... " : ", ",
                 paths[n - 1]);
}

/* A time threshold T % is a bandwidth loss of 100 T / (100 + T) %. */
static double bandwidth_pct(double pct)
{
    return 100 * pct / (100 + pct);
}

static void rule_text(const struct mb_comparison *c, FILE *out)
{
    const double t = c->opts.threshold_pct, io = c->opts.io_threshold_pct;

    if (c->single)
        mb_fprintf_escaped(
            out,
            "# one run a side: the run-to-run noise is not measured, so the band is wide (two "
            "runs of an unchanged machine can differ by whole regimes). A row counts when it "
            "is significant within the two runs (a Mann-Whitney U test on %d or more samples a "
            "side, else disjoint 95 %% intervals of the median, else beyond the single-sample "
            "noise band of %g %%) and beyond the threshold of %g %% (file I/O: %g %%); the "
            "families and the overall by the threshold alone. Several runs a side (BASE... -- "
            "NEW...) measure the noise and see changes of 10 %%.\n",
            6, c->opts.noise_pct, t, io);
    else
        mb_fprintf_escaped(
            out,
            "# runs as samples: each run gives a row its median. A change counts when the runs "
            "differ significantly (two-sided, alpha %g: a Mann-Whitney U test over the runs with "
            "%d or more a side, Welch's t test on log values with 2-3, a t test of one run "
            "against the other group's) and the ratio (Hodges-Lehmann with the U test, else of "
            "geometric means) is beyond the threshold of %g %% (file I/O: %g %%).\n",
            MB_COMPARE_ALPHA, MB_ACROSS_U_MIN, t, io);
    mb_fprintf_escaped(out,
                       "# ratio > 1: the new runs are worse (time new/base, bandwidth base/new); "
                       "a threshold of %g %% on time is %.1f %% less bandwidth (%g %%: %.1f %%); "
                       "uncertain: beyond the threshold, but not significant (more runs or "
                       "samples would tell)\n",
                       t, bandwidth_pct(t), io, bandwidth_pct(io));
}

static void row_line(const struct mb_cmp_row *q, FILE *out)
{
    char test[40], iv[48], rb[16], vb[24], vc[24];

    if (q->b && q->c)
        mb_cmp_test_text(&q->d, test, sizeof test);
    else
        snprintf(test, sizeof test, "-");
    if (q->d.verdict > MB_V_UNCERTAIN)
        snprintf(test, sizeof test, "-");
    interval_text(&q->d, iv, sizeof iv);
    snprintf(rb, sizeof rb, isfinite(q->d.ratio) ? "%.3f" : "-", q->d.ratio);
    snprintf(vb, sizeof vb, "%.4g", q->b ? (compared(q->d.verdict) ? q->vb : q->b->s.value) : 0);
    snprintf(vc, sizeof vc, "%.4g", q->c ? (compared(q->d.verdict) ? q->vc : q->c->s.value) : 0);
    if (!q->b)
        snprintf(vb, sizeof vb, "-");
    if (!q->c)
        snprintf(vc, sizeof vc, "-");
    mb_fprintf_escaped(out, "%9s %-17s %12s %12s %-5s %-14s %-13s %s%s%s%s\n", rb, iv, vb, vc,
                       q->m->unit, mb_cmp_verdict_text[q->d.verdict], test, q->m->key,
                       q->why[0] ? " (" : "", q->why, q->why[0] ? ")" : "");
}

static void decision_line(const struct mb_cmp_decision *d, size_t of, const char *name, FILE *out)
{
    char test[40], iv[48], rb[16];

    mb_cmp_test_text(d, test, sizeof test);
    interval_text(d, iv, sizeof iv);
    snprintf(rb, sizeof rb, isfinite(d->ratio) ? "%.3f" : "-", d->ratio);
    mb_fprintf_escaped(out, "%9s %-17s %-14s %-24s %5zu  %s\n", rb, iv,
                       mb_cmp_verdict_text[d->verdict], test, of, name);
}

/* How the families and OVERALL decide the exit status, and, when the runs are too few for a
 * family to pass on its own, how many would be needed. */
static void gate_text(const struct mb_comparison *c, FILE *out)
{
    if (c->single) {
        mb_fprintf_escaped(out,
                           "# families: the geometric mean ratio over each family's sizes, judged "
                           "by the threshold alone (one run a side); a family or OVERALL beyond "
                           "it sets the exit status\n");
        return;
    }
    mb_fprintf_escaped(out,
                       "# families: the geometric mean ratio over each family's sizes, tested "
                       "across the runs. The exit status is 1 when OVERALL or a family regressed "
                       "beyond its threshold; they share alpha %g (OVERALL %.3g, the %zu families "
                       "together %.3g, a rejected one passing its share on), so that an unchanged "
                       "machine fails at most %g of its comparisons. In brackets: the level a "
                       "p-value had to be below. The rows above say where; they do not set the "
                       "status.\n",
                       MB_COMPARE_ALPHA, c->overall.level, c->tested_families,
                       c->family_level * (double)c->tested_families, MB_COMPARE_ALPHA);
    if (c->tested_families > 1 && c->smallest_p >= c->family_level) {
        size_t n = MB_ACROSS_U_MIN;
        /* The fewest runs a side whose U test can reach the families' first step. */
        while (n < 64 &&
               2 * exp(2 * lgamma((double)n + 1) - lgamma(2.0 * (double)n + 1)) >= c->family_level)
            n++;
        mb_fprintf_escaped(out,
                           "# with %zu and %zu runs the smallest p of a U test is %.2g, above the "
                           "first family's level %.2g: a family alone cannot set the status, "
                           "only OVERALL can; %zu runs a side can\n",
                           c->nb, c->nc, c->smallest_p, c->family_level, n);
    }
}

void mb_compare_text(const struct mb_comparison *c, FILE *out)
{
    size_t hidden = 0;
    char sum[400], gb[600], gc[600], name[240];

    group_text(gb, sizeof gb, c->base_paths, c->nb);
    group_text(gc, sizeof gc, c->new_paths, c->nc);
    mb_fprintf_escaped(out, "# mpibench compare: base %s, new %s\n", gb, gc);
    rule_text(c, out);
    mb_fprintf_escaped(out, "%9s %-17s %12s %12s %-5s %-14s %-13s %s\n", "ratio", "interval",
                       "base", "new", "unit", "verdict", "test", "measurement");
    for (size_t i = 0; i < c->nrow; i++) {
        if (shown(c, &c->row[i]))
            row_line(&c->row[i], out);
        else
            hidden++;
    }
    if (hidden)
        mb_fprintf_escaped(out, "# %zu unchanged rows not shown (--all shows them)\n", hidden);
    rows_summary(c, sum, sizeof sum);
    mb_fprintf_escaped(out, "# %s\n", sum);
    gate_text(c, out);
    mb_fprintf_escaped(out, "%9s %-17s %-14s %-24s %5s  %s\n", "ratio", "interval", "verdict",
                       "test", "rows", "family");
    for (size_t f = 0; f < c->nfam; f++)
        decision_line(&c->fam[f].d, c->fam[f].rows, c->fam[f].name, out);
    snprintf(name, sizeof name, "OVERALL: the geometric mean over the families (threshold %.3g %%)",
             c->overall.threshold_pct);
    decision_line(&c->overall, c->overall_families, name, out);
    families_summary(c, sum, sizeof sum);
    mb_fprintf_escaped(out, "# %s\n", sum);
}

/* A string for jansson: the key's bytes, those outside printable ASCII as '?' (a name cut at
 * its buffer's end may end inside a UTF-8 sequence, which jansson refuses). */
static json_t *jstr(const char *s)
{
    char buf[256];
    size_t i = 0;

    for (; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct measure *m, double compared_value, size_t runs)
{
    json_t *o = json_object();

    json_object_set_new(o, "value", jnum(m->s.value));
    json_object_set_new(o, "compared", jnum(compared_value));
    json_object_set_new(o, "runs", json_integer((json_int_t)runs));
    json_object_set_new(o, "sample_count", json_integer(m->s.k));
    json_object_set_new(o, "median", jnum(m->s.median));
    json_object_set_new(o, "ci95_low", jnum(m->s.lo));
    json_object_set_new(o, "ci95_high", jnum(m->s.hi));
    json_object_set_new(o, "raw_samples", json_integer((json_int_t)m->s.nsamples));
    return o;
}

static void emit(FILE *out, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (s)
        fprintf(out, "%s\n", s);
    free(s);
    json_decref(o);
}

/* The fields every decision has (rows, families, the overall). */
static void decision_json(json_t *o, const struct mb_cmp_decision *d, int decided)
{
    json_object_set_new(o, "verdict", json_string(mb_cmp_verdict_json[d->verdict]));
    json_object_set_new(o, "ratio", jnum(d->ratio));
    json_object_set_new(o, "ratio_low", jnum(d->lo));
    json_object_set_new(o, "ratio_high", jnum(d->hi));
    json_object_set_new(o, "ratio_coverage", jnum(d->coverage));
    json_object_set_new(o, "test", decided ? json_string(mb_cmp_test_json(d)) : json_null());
    json_object_set_new(o, "p_value", jnum(d->p));
    json_object_set_new(o, "level", decided ? jnum(d->level) : json_null());
    json_object_set_new(o, "exact",
                        decided && (d->test == MB_CMP_MWU ||
                                    (d->test == MB_CMP_RUNS && d->across.test == MB_ACROSS_U))
                            ? json_boolean(d->exact)
                            : json_null());
    json_object_set_new(o, "significant", decided ? json_boolean(d->significant) : json_null());
    json_object_set_new(o, "threshold_percent", decided ? jnum(d->threshold_pct) : json_null());
}

static void paths_json(json_t *o, const char *key, char **paths, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, jstr(paths[i]));
    json_object_set_new(o, key, a);
}

void mb_compare_json(const struct mb_comparison *c, FILE *out)
{
    json_t *s;
    char sum[400], fsum[400];

    for (size_t i = 0; i < c->nrow; i++) {
        const struct mb_cmp_row *q = &c->row[i];
        const int decided = compared(q->d.verdict);
        json_t *o = json_object();

        json_object_set_new(o, "type", json_string("compare_row"));
        json_object_set_new(o, "measurement", jstr(q->m->key));
        json_object_set_new(o, "family", jstr(q->m->family));
        json_object_set_new(o, "unit", jstr(q->m->unit));
        json_object_set_new(o, "better", json_string(q->m->higher_better ? "higher" : "lower"));
        json_object_set_new(o, "file_io", json_boolean(q->m->file_io));
        json_object_set_new(o, "bytes", jnum(q->m->bytes));
        json_object_set_new(o, "base",
                            q->b ? side_json(q->b, decided ? q->vb : NAN, q->have_b) : json_null());
        json_object_set_new(o, "new",
                            q->c ? side_json(q->c, decided ? q->vc : NAN, q->have_c) : json_null());
        decision_json(o, &q->d, decided);
        json_object_set_new(o, "why", q->why[0] ? jstr(q->why) : json_null());
        emit(out, o);
    }
    for (size_t f = 0; f < c->nfam; f++) {
        const struct mb_cmp_family *fm = &c->fam[f];
        json_t *o = json_object();
        json_object_set_new(o, "type", json_string("compare_family"));
        json_object_set_new(o, "family", jstr(fm->name));
        json_object_set_new(o, "unit", jstr(fm->unit));
        json_object_set_new(o, "better", json_string(fm->higher_better ? "higher" : "lower"));
        json_object_set_new(o, "file_io", json_boolean(fm->file_io));
        json_object_set_new(o, "rows", json_integer((json_int_t)fm->rows));
        decision_json(o, &fm->d, 1);
        emit(out, o);
    }
    s = json_object();
    json_object_set_new(s, "type", json_string("compare_overall"));
    json_object_set_new(s, "families", json_integer((json_int_t)c->overall_families));
    decision_json(s, &c->overall, c->nfam > 0);
    emit(out, s);
    rows_summary(c, sum, sizeof sum);
    families_summary(c, fsum, sizeof fsum);
    s = json_object();
    json_object_set_new(s, "type", json_string("compare_summary"));
    json_object_set_new(s, "base", jstr(c->base_paths[0]));
    json_object_set_new(s, "new", jstr(c->new_paths[0]));
    paths_json(s, "base_runs", c->base_paths, c->nb);
    paths_json(s, "new_runs", c->new_paths, c->nc);
    json_object_set_new(s, "form", json_string(c->single ? "one_run_a_side" : "runs"));
    json_object_set_new(s, "threshold_percent", json_real(c->opts.threshold_pct));
    json_object_set_new(s, "io_threshold_percent", json_real(c->opts.io_threshold_pct));
    json_object_set_new(s, "noise_percent", json_real(c->opts.noise_pct));
    json_object_set_new(s, "alpha", json_real(MB_COMPARE_ALPHA));
    json_object_set_new(s, "compared", json_integer((json_int_t)count_compared(c->count)));
    json_object_set_new(s, "regressed", json_integer((json_int_t)c->count[MB_V_REGRESSED]));
    json_object_set_new(s, "improved", json_integer((json_int_t)c->count[MB_V_IMPROVED]));
    json_object_set_new(s, "unchanged", json_integer((json_int_t)c->count[MB_V_UNCHANGED]));
    json_object_set_new(s, "uncertain", json_integer((json_int_t)c->count[MB_V_UNCERTAIN]));
    json_object_set_new(s, "not_comparable",
                        json_integer((json_int_t)count_not_comparable(c->count)));
    json_object_set_new(s, "only_in_base", json_integer((json_int_t)c->count[MB_V_ONLY_BASE]));
    json_object_set_new(s, "only_in_new", json_integer((json_int_t)c->count[MB_V_ONLY_NEW]));
    json_object_set_new(s, "families", json_integer((json_int_t)c->nfam));
    json_object_set_new(s, "families_regressed",
                        json_integer((json_int_t)c->fam_count[MB_V_REGRESSED]));
    json_object_set_new(s, "families_improved",
                        json_integer((json_int_t)c->fam_count[MB_V_IMPROVED]));
    json_object_set_new(s, "families_uncertain",
                        json_integer((json_int_t)c->fam_count[MB_V_UNCERTAIN]));
    json_object_set_new(s, "overall", json_string(mb_cmp_verdict_json[c->overall.verdict]));
    json_object_set_new(s, "exit_status", json_integer(mb_compare_status(c)));
    json_object_set_new(s, "text", jstr(sum));
    json_object_set_new(s, "families_text", jstr(fsum));
    emit(out, s);
}

static void html_decision_cells(FILE *f, const struct mb_cmp_decision *d)
{
    char test[40], iv[48];

    mb_cmp_test_text(d, test, sizeof test);
    interval_text(d, iv, sizeof iv);
    fputs("<td class=\"num\">", f);
    if (isfinite(d->ratio))
        fprintf(f, "%.3f", d->ratio);
    fprintf(f, "</td><td>%s</td><td>%s</td><td>", iv, mb_cmp_verdict_text[d->verdict]);
    mb_html_text(f, test);
    fputs("</td>", f);
}

char *mb_compare_html(const struct mb_comparison *c)
{
    char *buf = NULL, sum[400], fsum[400], gb[600], gc[600];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f) {
        fprintf(stderr, "mpibench: out of memory (the comparison's page)\n");
        abort();
    }
    rows_summary(c, sum, sizeof sum);
    families_summary(c, fsum, sizeof fsum);
    group_text(gb, sizeof gb, c->base_paths, c->nb);
    group_text(gc, sizeof gc, c->new_paths, c->nc);
    fputs("<h2>Comparison</h2>\n<p>Base ", f);
    mb_html_text(f, gb);
    fputs(", new ", f);
    mb_html_text(f, gc);
    fputs(": ", f);
    mb_html_text(f, fsum);
    fputs("; ", f);
    mb_html_text(f, sum);
    fprintf(f,
            ". Ratio &gt; 1: the new runs are worse; threshold %g %% (file I/O %g %%), %s, alpha "
            "%g.</p>\n",
            c->opts.threshold_pct, c->opts.io_threshold_pct,
            c->single ? "one run a side: the run-to-run noise is not measured"
                      : "tested across the runs",
            MB_COMPARE_ALPHA);
    fputs("<table id=\"families\">\n<tr><th>ratio</th><th>interval</th><th>verdict</th>"
          "<th>test</th><th>rows</th><th>family</th></tr>\n",
          f);
    for (size_t i = 0; i <= c->nfam; i++) {
        const struct mb_cmp_decision *d = i < c->nfam ? &c->fam[i].d : &c->overall;
        fputs("<tr>", f);
        html_decision_cells(f, d);
        fprintf(f, "<td class=\"num\">%zu</td><td>", i < c->nfam ? c->fam[i].rows : c->nfam);
        mb_html_text(f, i < c->nfam ? c->fam[i].name : "OVERALL");
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    fputs("<table id=\"comparison\">\n<tr><th>ratio</th><th>interval</th><th>verdict</th>"
          "<th>test</th><th>base</th><th>new</th><th>unit</th><th>measurement</th></tr>\n",
          f);
    for (size_t i = 0; i < c->nrow; i++) {
        const struct mb_cmp_row *q = &c->row[i];
        const int decided = compared(q->d.verdict);

        if (!shown(c, q))
            continue;
        fputs("<tr>", f);
        html_decision_cells(f, &q->d);
        fputs("<td class=\"num\">", f);
        if (q->b)
            fprintf(f, "%.4g", decided ? q->vb : q->b->s.value);
        fputs("</td><td class=\"num\">", f);
        if (q->c)
            fprintf(f, "%.4g", decided ? q->vc : q->c->s.value);
        fputs("</td><td>", f);
        mb_html_text(f, q->m->unit);
        fputs("</td><td>", f);
        mb_html_text(f, q->m->key);
        if (q->why[0]) {
            fputs(" (", f);
            mb_html_text(f, q->why);
            fputs(")", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    fclose(f);
    return buf;
}
