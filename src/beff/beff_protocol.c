/* SPDX-License-Identifier: BSD-3-Clause */
/* The sections of the .prot and .short protocol files (as in b_eff 3.6): LOOP, LOOPLNGS, VALUES,
 * ELAPSED, PATTERN and the five analysis paths. Bandwidths are printed in MByte/s = 1e6
 * Byte/s; per-process values are divided by the number of processes (b_eff 3.6's unit rules). */
#include "beff/beff_report.h"

#include <math.h>
#include <stdio.h>

#define W (MB_BEFF_SIZES + 1)

/* The sizes shown in the per-size tables: every 4th (as b_eff 3.6's BY-MTHD-MSGLNG). */
static const int shown[] = {0, 4, 8, 12, 16, 20};
enum { NSHOWN = sizeof shown / sizeof shown[0] };

static void marker(const struct mb_out *o, const char *name, int begin)
{
    mb_printf(o, "\nSECTION-%s-%s\n\n", name, begin ? "BEGIN" : "END");
}

/* ---- .prot ------------------------------------------------------------------------------ */

static void loop_section(const struct mb_beff_report *r, const struct mb_out *o)
{
    marker(o, "LOOP", 1);
    /* Quirk Q7 fixed: "measurement". */
    mb_printf(o, "measurement loop: %7.3f sec\n\n", r->d->loop_elapsed);
    marker(o, "LOOP", 0);
}

static void looplngs_section(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_data *d = r->d;

    marker(o, "LOOPLNGS", 1);
    for (int m = 0; m < MB_BEFF_METHODS; m++) {
        char title[16];
        mb_printf(o, "method=%d  |", m);
        for (int rep = 0; rep < d->nrep; rep++)
            mb_printf(o, " ------- repetition %d ---------", rep);
        snprintf(title, sizeof title, "(= %s)", mb_beff_method_label[m]);
        mb_printf(o, " [sec]\n%-10s|", title);
        for (int rep = 0; rep < d->nrep; rep++)
            mb_printf(o, "%-31s", " loop   total per pattrn&mthd");
        mb_printf(o, "\nmsg length|");
        for (int rep = 0; rep < d->nrep; rep++)
            mb_printf(o, "%-31s", "  lng    time minimum maximum");
        mb_printf(o, "\n----------|");
        for (int rep = 0; rep < d->nrep; rep++)
            mb_printf(o, "%-31s", " ---- ------- ------- ---------");
        mb_printf(o, "\n");
        for (int k = 0; k < MB_BEFF_SIZES; k++) {
            mb_printf(o, " %9lld ", d->len[k]);
            for (int rep = 0; rep < d->nrep; rep++) {
                const size_t l = mb_beff_lat(d, k, rep, m);
                /* Quirk Q8 fixed: a skipped entry shows 0, not 1.0e+30. */
                mb_printf(o, " %4d %7.1e %7.1e %7.1e %c", d->looplen[l], d->tsum[l], d->tlo[l],
                          d->thi[l], d->mark[l]);
            }
            mb_printf(o, "\n");
        }
        if (d->shortened)
            mb_printf(o,
                      "\n Explanation: M = only the best method is used\n"
                      "              R = only best method and only %d repetitions\n\n",
                      MB_BEFF36_MIN_REPS);
        else
            mb_printf(o, "\n\n\n");
    }
    marker(o, "LOOPLNGS", 0);
}

/* Sum over the repetitions of the measured loop time, warm-up iteration included. */
static double entry_seconds(const struct mb_beff_data *d, int p, int k, int m, int fastest)
{
    double s = 0, lo = HUGE_VAL;
    for (int rep = 0; rep < d->nrep; rep++) {
        const size_t i = mb_beff_at(d, rep, p, k, m);
        double t;
        if (d->state[i] != MB_BEFF_MEASURED)
            continue;
        t = d->tmax[i] * (d->loops[i] + (k < MB_BEFF_WARMUP_SIZES)) / d->loops[i];
        s += t;
        lo = fmin(lo, t);
    }
    return fastest ? (lo < HUGE_VAL ? lo * d->nrep : 0) : s;
}

/* One value per repetition (MByte/s), or the filler of an entry that was not measured. */
static void per_rep(const struct mb_out *o, const struct mb_beff_data *d, int p, int k, int m,
                    const double *v, const char *filler)
{
    for (int rep = 0; rep < d->nrep; rep++) {
        const size_t i = mb_beff_at(d, rep, p, k, m);
        if (d->state[i])
            mb_printf(o, " %7.3f", v[i] / 1e6);
        else
            mb_printf(o, "%s", filler);
    }
}

static void values_section(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_data *d = r->d;

    marker(o, "VALUES", 1);
    mb_printf(o,
              "Minimum / Average / Maximum of the bandwidth per process and on all processes,\n"
              "printed for all %d repetitions (MB/s = 1e6 Bytes/s):\n"
              "(mthd0=Sendrecv or Send or Recv, mthd1=Alltoallv, mthd2=Irecv+Isend, pattern "
              "see next table)\n\n",
              d->nrep);
    mb_printf(o, " msg length|methd|pat|     MByte/s MByte/s MByte/s -> maximum bandw. on all "
                 "repetitions\n");
    mb_printf(o, "           |     |   |                             -> (elapsed time)\n");
    for (int k = 0; k < MB_BEFF_SIZES; k++)
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            for (int p = 0; p < d->npat; p++) {
                double best = 0;
                int any = 0;
                if (p == 0 && m == 0)
                    mb_printf(o, " %10lld", d->len[k]);
                else
                    mb_printf(o, "%11s", "");
                if (p == 0)
                    mb_printf(o, " mthd%d", m);
                else
                    mb_printf(o, "%6s", "");
                mb_printf(o, " p%02d min=", p);
                per_rep(o, d, p, k, m, d->pmin, "  ------");
                for (int rep = 0; rep < d->nrep; rep++) {
                    const size_t i = mb_beff_at(d, rep, p, k, m);
                    if (d->state[i]) {
                        best = fmax(best, d->pmin[i]);
                        any = 1;
                    }
                }
                if (any)
                    mb_printf(o, " -> %7.3f (%5.3f s)\n", best / 1e6, entry_seconds(d, p, k, m, 0));
                else
                    mb_printf(o, " ->  ------ (----- s)\n");
                mb_printf(o, "%22savg=", "");
                per_rep(o, d, p, k, m, d->pavg, "   ---- ");
                mb_printf(o, "\n%22smax=", "");
                per_rep(o, d, p, k, m, d->pmax, "    --  ");
                mb_printf(o, "\n");
            }
    marker(o, "VALUES", 0);
}

void mb_beff_write_prot(const struct mb_beff_report *r, const struct mb_out *o)
{
    mb_beff_head(r, o, 1);
    loop_section(r, o);
    looplngs_section(r, o);
    values_section(r, o);
    mb_printf(o, "\n");
    mb_beff_final_line(r, o);
}

/* ---- .short ----------------------------------------------------------------------------- */

static void elapsed_section(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_data *d = r->d;
    const double all = d->loop_elapsed;
    double sum = 0, fast = 0, e1, e2;

    for (int k = 0; k < MB_BEFF_SIZES; k++)
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            for (int p = 0; p < d->npat; p++) {
                sum += entry_seconds(d, p, k, m, 0);
                fast += entry_seconds(d, p, k, m, 1);
            }
    e1 = all - sum;
    e2 = all - fast;
    marker(o, "ELAPSED", 1);
    mb_printf(o, "measurement loop: elapsed time               = %7.3f sec\n\n", all);
    mb_printf(o, "  sum of max elapsed time per entries above = %7.3f sec\n", sum);
    mb_printf(o, "  difference to elapsed time                = %7.3f sec = %.1f%%\n\n", e1,
              all > 0 ? 100 * e1 / all : 0);
    mb_printf(o, "  sum based on fastest repetition           = %7.3f sec\n", fast);
    mb_printf(o, "  difference to elapsed time                = %7.3f sec = %.1f%%\n\n", e2,
              all > 0 ? 100 * e2 / all : 0);
    if (fabs(e1) > 0.05 * all || fabs(e2) > 0.05 * all)
        mb_printf(o, "  CAUTION: A difference above is more than 5 %%. The time outside the timed "
                     "loops (barriers, calibration, warm-up) is included, or processes weren't "
                     "on dedicated processors\n");
    else
        mb_printf(o, "  The difference is less than 5 %%\n");
    marker(o, "ELAPSED", 0);
}

static void pattern_section(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_patterns *set = r->set;

    marker(o, "PATTERN", 1);
    mb_printf(o, "\nPattern parameters: sendrecv  total number  messages/  messages/  unused  "
                 "best method\n");
    mb_printf(o, "                       calls   of messages  used node  node&call   nodes  "
                 "per repetition\n");
    mb_printf(o, "---- ----------------- -----  ------------  ---------  ---------  ------  "
                 "--------------\n");
    for (int p = 0; p < set->n; p++) {
        const struct mb_beff_pattern *q = &set->p[p];
        const double per = q->participants ? (double)q->messages / q->participants : 0;
        mb_printf(o, " p%02d %-17s %5d  %12lld  %9.2f  %9.2f  %6d  (", p, q->label, q->steps0,
                  q->messages, per, q->steps0 ? per / q->steps0 : 0, r->nprocs - q->participants);
        for (int rep = 0; rep < r->d->nrep; rep++)
            mb_printf(o, " %2d", r->d->best[rep * r->d->npat + p]);
        mb_printf(o, " )\n");
    }
    marker(o, "PATTERN", 0);
}

/* One row of values per shown size, or of averages per column (methods, repetitions). */
static void per_process_row(const struct mb_out *o, const double *v, int n, double nprocs)
{
    for (int i = 0; i < n; i++)
        mb_printf(o, " %7.3f", v[i] / 1e6 / nprocs);
}

/* The 2nd and 3rd analysis paths: columns are methods or repetitions. */
static void by_columns(const struct mb_beff_report *r, const struct mb_out *o, int by_rep)
{
    const struct mb_beff_analysis *a = r->a;
    const int ncol = by_rep ? a->nrep : MB_BEFF_METHODS;
    const double n = r->nprocs;
    double v[64];
    const struct mb_beff_geo *best = by_rep ? &a->geo_best_r : &a->geo_best_m;

    if (by_rep) {
        marker(o, "BY-REPETITIONS", 1);
        mb_printf(o, "\n3rd analysis path, only as information, last row:\n"
                     "for all rep.:logavg_pat ( avg_L ( max_mthd ( b(L) ) ) )\n"
                     "|| logavg_pat ( max_rep ( avg_L ( max_mthd ( b(L) ) ) ) )\n\n"
                     " pattern  /  repetition:");
        for (int c = 0; c < ncol; c++)
            mb_printf(o, "   rep.%d", c);
        mb_printf(o, " -> best repetition -> accumulated\n\n");
    } else {
        marker(o, "BY-METHODS", 1);
        mb_printf(o, "\n2nd analysis path, only as information, last row:\n"
                     "for all mthd: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n"
                     "|| logavg_pat ( max_mthd ( avg_L ( max_rep ( b(L) ) ) ) )\n\n"
                     " pattern   /    methods:");
        for (int c = 0; c < ncol; c++)
            mb_printf(o, " %7s", mb_beff_method_label[c]);
        mb_printf(o, " -> best method -> accumulated\n\n");
    }
    for (int p = 0; p < r->set->n; p++) {
        double top = 0;
        if (p == r->set->first_info)
            mb_printf(o, " -- additional patterns that are not used to compute b_eff:\n");
        for (int c = 0; c < ncol && c < 64; c++) {
            v[c] = by_rep ? a->Br[((size_t)p * (size_t)a->nrep + (size_t)c) * W + MB_BEFF_AVG]
                          : a->Bm[((size_t)p * MB_BEFF_METHODS + (size_t)c) * W + MB_BEFF_AVG];
            top = fmax(top, v[c]);
        }
        mb_printf(o, " p%02d %-17s :", p, r->set->p[p].label);
        per_process_row(o, v, ncol, n);
        mb_printf(o, " -> %7.3f -> %10.3f MByte/s\n", top / 1e6 / n, top / 1e6);
    }
    for (int row = 0; row < 4; row++) {
        static const char *const name[4] = {"log_avg of all rings  ", "log_avg of all random ",
                                            "log_avg(ring,random)  ", "accumulated on all pr."};
        const double b = row == 0 ? best->ring : row == 1 ? best->random : best->final;
        for (int c = 0; c < ncol && c < 64; c++) {
            const struct mb_beff_geo *g =
                by_rep ? &a->geo_r[(size_t)c * W + MB_BEFF_AVG] : &a->geo_m[c][MB_BEFF_AVG];
            v[c] = row == 0 ? g->ring : row == 1 ? g->random : g->final;
            if (row == 3)
                v[c] *= n;
        }
        if (row == 0)
            mb_printf(o, "\n");
        if (row == 3)
            mb_printf(o, "  * size ->\n");
        mb_printf(o, " %s:", name[row]);
        per_process_row(o, v, ncol, n);
        if (row < 2)
            mb_printf(o, " || %7.3f -> %10.3f MByte/s\n", b / 1e6 / n, b / 1e6);
        else if (row == 2)
            mb_printf(o, " ||(%7.3f -> %10.3f)MByte/s\n", b / 1e6 / n, b / 1e6);
        else
            mb_printf(o, " ||(%7.3f)MByte/s\n", best->final / 1e6);
    }
    if (!by_rep && r->d->shortened)
        mb_printf(o, "\n CAUTION! Due to performance reasons the two largest messages are "
                     "shortened (--profile 3.6).\n In detail that means: Only the best method "
                     "is used and only two repetitions are performed.\n The values are copied "
                     "to the other methods. This behavior has no effect to the b_eff value,\n but "
                     "a comparison between the methods makes no sense there.\n");
    marker(o, by_rep ? "BY-REPETITIONS" : "BY-METHODS", 0);
}

/* Latency of one step (b_eff 3.6's "latency of one sendrecv"):
 * 1e6 * messages / (steps0 * b(L = 1 byte)). */
static double step_latency(const struct mb_beff_pattern *q, double b0)
{
    return (b0 > 0 && q->steps0 > 0) ? 1e6 * (double)q->messages / (q->steps0 * b0) : 0;
}

static void size_header(const struct mb_beff_report *r, const struct mb_out *o, const char *title)
{
    mb_printf(o, "%s%9s", title, "");
    for (int i = 0; i < NSHOWN; i++)
        mb_printf(o, " %7lld", r->d->len[shown[i]]);
    mb_printf(o, " -> average -> accumulated\n");
    mb_printf(o, "%24s(latency of one sendrecv (or equivalent method) in microsec)\n", "");
}

/* A row of a per-size table: the latency of one step in microseconds, the shown sizes, then
 * the average, per process and accumulated. */
static void latency_and_row(const struct mb_out *o, const struct mb_beff_pattern *q,
                            const double *row, double n)
{
    const double lat = step_latency(q, row[0]);

    if (lat > 0)
        mb_printf(o, "(%7.3f)", lat);
    else
        mb_printf(o, "(-------)");
    for (int i = 0; i < NSHOWN; i++)
        mb_printf(o, " %7.3f", row[shown[i]] / 1e6 / n);
    mb_printf(o, " -> %7.3f -> %10.3f MByte/s\n", row[MB_BEFF_AVG] / 1e6 / n,
              row[MB_BEFF_AVG] / 1e6);
}

/* The geometric-mean rows under a per-size table. */
static void geo_rows(const struct mb_out *o, const struct mb_beff_geo *g, double n,
                     const char *prefix[4])
{
    for (int row = 0; row < 4; row++) {
        double v[W];
        for (int k = 0; k < W; k++)
            v[k] = row == 0 ? g[k].ring : row == 1 ? g[k].random : g[k].final * (row == 3 ? n : 1);
        mb_printf(o, "%s", prefix[row]);
        for (int i = 0; i < NSHOWN; i++)
            mb_printf(o, " %7.3f", v[shown[i]] / 1e6 / n);
        if (row < 3)
            mb_printf(o, " || %7.3f -> %10.3f MByte/s\n", v[MB_BEFF_AVG] / 1e6 / n,
                      v[MB_BEFF_AVG] / 1e6);
        else
            mb_printf(o, " || %7.3f MByte/s\n", v[MB_BEFF_AVG] / 1e6 / n);
    }
}

static void by_method_size(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_analysis *a = r->a;
    const double n = r->nprocs;

    marker(o, "BY-MTHD-MSGLNG", 1);
    mb_printf(o, "\n4th analysis path, only as information, last 3 rows:\n"
                 "for all methods and some msglng L: logavg_pat ( max_rep ( b(L) ) )\n"
                 "for all methods: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n\n");
    size_header(r, o, " pattern & method / msg:");
    for (int p = 0; p < r->set->n; p++) {
        mb_printf(o, " p%02d %-17s\n", p, r->set->p[p].label);
        for (int m = 0; m < MB_BEFF_METHODS; m++) {
            const double *row = a->Bm + ((size_t)p * MB_BEFF_METHODS + (size_t)m) * W;
            mb_printf(o, " p%02d method %d =%-7s :", p, m, mb_beff_method_label[m]);
            latency_and_row(o, &r->set->p[p], row, n);
        }
    }
    for (int m = 0; m < MB_BEFF_METHODS; m++) {
        static const char *const what[4] = {"ring,      method", "random,    method",
                                            "average,   method", "accumulated, mthd"};
        char text[4][64];
        const char *prefix[4];
        for (int row = 0; row < 4; row++) {
            snprintf(text[row], sizeof text[row], " - %s %d = %-7s:%9s", what[row], m,
                     mb_beff_method_label[m], "");
            prefix[row] = text[row];
        }
        mb_printf(o, "\n");
        geo_rows(o, a->geo_m[m], n, prefix);
    }
    marker(o, "BY-MTHD-MSGLNG", 0);
}

static void by_size(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_analysis *a = r->a;
    const double n = r->nprocs;

    marker(o, "BY-MSGLNG", 1);
    mb_printf(o, "\n5th analysis path only as information:\n"
                 "logavg_pat ( max_mthd ( max_rep ( b(L) ) ) )\n"
                 "and for all methods: logavg_pat ( max_rep ( b(L) ) )\n\n");
    mb_printf(o, "msg length|accumulated| effective bandwidth per process:\n");
    mb_printf(o, "          |  effective| average    rings   random method_0 method_1 method_2\n");
    mb_printf(o, "          |  bandwidth| crt,rnd     only     only   %-7s  %-7s  %-7s\n",
              mb_beff_method_label[0], mb_beff_method_label[1], mb_beff_method_label[2]);
    for (int k = 0; k < MB_BEFF_SIZES; k++) {
        mb_printf(o, " %9lld %10.3f %8.3f %8.3f %8.3f", r->d->len[k], a->geo[k].final / 1e6,
                  a->geo[k].final / 1e6 / n, a->geo[k].ring / 1e6 / n, a->geo[k].random / 1e6 / n);
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            mb_printf(o, " %8.3f", a->geo_m[m][k].final / 1e6 / n);
        mb_printf(o, "\n");
    }
    marker(o, "BY-MSGLNG", 0);
}

static void by_pattern_size(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_beff_analysis *a = r->a;
    const double n = r->nprocs;
    const char *prefix[4] = {
        " log_avg of all rings  :         ", " log_avg of all random :         ",
        " log_avg(ring,random)  :         ", "  * size ->\n accumulated on all pr.:         "};

    marker(o, "BY-PATTERN-MSGLNG", 1);
    mb_printf(o, "\nofficial (1st) analysis path -- see last column:\n"
                 "(only columns of some message lengths are printed)\n"
                 "logavg_pat ( avg_L ( max_mthd ( max_rep ( b(L) ) ) ) )\n\n");
    size_header(r, o, " pattern  /  msg-length:");
    for (int p = 0; p < r->set->n; p++) {
        const double *row = a->B + (size_t)p * W;
        if (p == r->set->first_info)
            mb_printf(o, " -- additional patterns that are not used to compute b_eff:\n");
        mb_printf(o, " p%02d %-17s :", p, r->set->p[p].label);
        latency_and_row(o, &r->set->p[p], row, n);
    }
    mb_printf(o, "\n");
    geo_rows(o, a->geo, n, prefix);
    marker(o, "BY-PATTERN-MSGLNG", 0);
}

void mb_beff_write_short(const struct mb_beff_report *r, const struct mb_out *o)
{
    mb_beff_head(r, o, 0);
    elapsed_section(r, o);
    pattern_section(r, o);
    mb_printf(o, "\nPrinting accumulated bandwidth / number of processes\n"
                 "         = bandwidth per process   (in MBytes/sec = 1e6 Bytes/sec)\n"
                 "Additionally the accumulated value is printed in the last column\n\n"
                 "Only the ring and random patterns are used to compute b_eff,\n"
                 "the other patterns are only as information.\n");
    by_columns(r, o, 0);
    by_columns(r, o, 1);
    by_method_size(r, o);
    by_size(r, o);
    by_pattern_size(r, o);
    mb_beff_summary(r, o, 1);
    mb_beff_final_line(r, o);
}
