/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's text (as in b_eff_io 2.1): the protocol lines as each pattern ends (stdout and .prot),
 * the .sum summary, the final line. Line formats - fields, widths, blank lines - follow b_eff_io
 * 2.1's b_eff_io.c field by field so that its readers (grep, beffio_eps) keep working;
 * mpibench's additions are lines of their own or a suffix after 2.1's fields ("(disk
 * budget)"). MB = 1e6 bytes in bandwidths and amounts, kB/MB = 2^10/2^20 bytes in chunk sizes
 * (as in b_eff_io 2.1). */
#include "beffio/beffio_options.h"
#include "beffio/beffio_run.h"
#include "core/report_text.h"
#include "mb_version.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* A line for stdout and the .prot file. */
__attribute__((format(printf, 2, 3))) static void say(const struct mb_bio_run *r, const char *fmt,
                                                      ...)
{
    const struct mb_out *outs[2] = {&r->ctx->out, &r->prot};

    for (int k = 0; k < 2; k++)
        for (int j = 0; j < outs[k]->n; j++)
            if (outs[k]->f[j]) {
                va_list ap;
                va_start(ap, fmt);
                vfprintf(outs[k]->f[j], fmt, ap);
                va_end(ap);
            }
}

static const char *short_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strlen(base) > 14 ? base + 14 : base; /* without "b_eff_io_data_" */
}

void mb_bio_print_header(const struct mb_bio_run *r, const struct mb_out *o)
{
    const struct mb_bio_config *b = r->b;
    const struct mb_provenance *pv = r->ctx->prov;

    /* The header says which partition value is b_eff_io (docs/adr/program-beffio-headline.md). */
    if (b->weighted)
        mb_printf(
            o,
            "b_eff_io (mpibench %s), following the rules of b_eff_io release 2.1 except the value: "
            "b_eff_io = 0.25 x write + 0.25 x rewrite + 0.5 x read per partition, valid "
            "from 15 min per partition (--definition weighted)\n\n",
            MB_VERSION);
    else
        mb_printf(o, "b_eff_io (mpibench %s), following the rules of b_eff_io release 2.1\n\n",
                  MB_VERSION);
    mb_printf(o,
              "MEMORY_PER_PROCESSOR = %4ld MBytes  [1MBytes = 1024*1024 bytes, 1MB = 1e6 "
              "bytes]\n",
              b->memory_mb);
    mb_printf(o, "Maximum chunk size   = %8.3f MBytes\n\n", (double)r->lmax / 1048576.0);
    mb_printf(o, "-N ");
    for (int i = 0; i < b->n_partitions; i++)
        mb_printf(o, "%c%d", i ? ',' : ' ', b->partitions[i]);
    mb_printf(o, " T=%ld, MT=%ld MBytes", b->T, b->total_mb);
    if (b->info_path)
        mb_printf(o, " -i %s", b->info_path);
    if (b->noshared)
        mb_printf(o, ", -noshared");
    if (b->nounique)
        mb_printf(o, ", -nounique");
    if (b->rewrite)
        mb_printf(o, ", -rewrite");
    if (b->keep)
        mb_printf(o, ", -keep");
    if (b->adapt)
        mb_printf(o, ", -adapt (NOT ALLOWED FOR BENCHMARKING)");
    mb_printf(o, "\nPATH=%s, PREFIX=%s\n", b->dir, b->prefix);
    mb_printf(o, "       file system : %s, %.1f GB free\n", r->fs_type, (double)b->disk_free / 1e9);
    mb_printf(o,
              "       system name : %s\n       hostname    : %s\n       OS release  : %s\n"
              "       OS version  : %s\n       machine     : %s\n\n",
              pv->sysname, pv->nodename, pv->release, pv->version, pv->machine);
    /* 2.1 prints ctime()'s text, which ends in a newline, and two more. */
    mb_printf(o, "Date of measurement: %s\n\n\n", pv->date);
}

void mb_bio_print_table_head(const struct mb_bio_run *r)
{
    static const char *const rule =
        "-----+---+------+----+--------+----------+----------+----------------+-------+-------"
        "------+-------+-------+------+-----+-----+-----+-----+----------------\n";
    /* A blank line first, and the two headings padded to the rule's width, as in 2.1. */
    say(r, "\n%s", rule);
    say(r, "num. acc-| pat- |pat-|scheduled     chunk|     chunk|filename        | repeat|  "
           "transferred|  meas-|=sum of|time of meas.calls|last |last | measured       \n");
    say(r, "of   |ess| tern |tern|  time  |      size|      size|                | factor|   "
           "MB of this|  ured |   I/O |barr- |bcast|file-| I/O |barr.| bandwidth      \n");
    say(r, "PEs  |   | type |    | [sec]  |   on disk| in memory|                |       |      "
           "pattern|  time |       | ier  |     | sync|call |+bcst| of this pattern\n");
    say(r, "%s", rule);
}

void mb_bio_print_pattern(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                          int p)
{
    const struct mb_bio_meas *m = &d->m[i][a][p];
    const int n = r->b->partitions[i];
    const double S = mb_bio_meas_bytes(m, n);
    char name[MB_SCRATCH_PATH_MAX];
    struct mb_error err = {MB_ERR_NONE, ""};
    const int type = mb_bio_table[p].type;

    mb_bio_scratch_name(name, sizeof name, "", i, n, type, type == MB_BIO_SEPARATE ? 0 : -1, &err);
    say(r,
        "n=%-3d a=%d type=%d p=%2d Tp=%5.2f l=%8.0f L=%8.0f %-16s r=%5lld S=%8.3f MB t=%5.2f "
        "=%6.3f+%6.3f+%5.3f+%5.3f %5.3f %5.3f bw=%8.3f MB/s",
        n, a, type, p, m->tp, (double)m->l, (double)m->L, short_name(name), m->reps, S / 1e6, m->t,
        m->t - m->t_barrier - m->t_bcast - m->t_sync, m->t_barrier, m->t_bcast, m->t_sync,
        m->t_last_io, m->t_last_tail, mb_bio_meas_bw(m, n) / 1e6);
    if (m->errors > 0)
        say(r, " %lld ERRORS", m->errors);
    if (m->disk_stop)
        say(r, " (disk budget)");
    say(r, "\n");
}

void mb_bio_print_type(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a,
                       int type)
{
    const struct mb_bio_typeval *v = &d->ty[i][a][type];

    say(r,
        " total pattern type:  S=%7.3f MB  t=%4.2f t_op=%4.2f t_cl=%4.2f wbw=%8.3f MB/s "
        "b_eff_io_%s_%s=%8.3f MB/s",
        v->bytes / 1e6, v->t, v->t_open, v->t_close, v->wbw / 1e6, mb_bio_access_name[a],
        mb_bio_type_name[type], v->bw / 1e6);
    if (type >= MB_BIO_SEGMENTED)
        say(r, " Lseg=%1.0f MBytes", (double)v->lseg / 1048576.0);
    say(r, "\n");
}

void mb_bio_print_access(const struct mb_bio_run *r, const struct mb_bio_data *d, int i, int a)
{
    const struct mb_bio_accval *v = &d->ac[i][a];
    const long tn = mb_bio_partition_seconds(r->b->T, d->npart);

    /* 2.1 puts its error mark in front of the total on the same line. */
    if (v->errors > 0)
        say(r, " ----- with %lld ERRORS --!--!--!--!--", v->errors);
    say(r,
        " total access method: S=%7.3f MB  t=%4.2f (Tn=%ldsec) bw=%8.3f MB/s, wbw=%8.3f MB/s, "
        "b_eff_io_%s=%8.3f MB/s\n",
        v->bytes / 1e6, v->t, tn, v->bw / 1e6, v->wbw / 1e6, mb_bio_access_name[a], v->value / 1e6);
}

/* A line for o, or for stdout and the .prot file (o NULL). */
static void emit(const struct mb_bio_run *r, const struct mb_out *o, const char *line)
{
    if (o)
        mb_printf(o, "%s", line);
    else
        say(r, "%s", line);
}

/* The criteria of "valid for comparison" (b_eff_io 2.1's three, in its words, and mpibench's
 * -adapt); failed_only: just those not reached. */
static void criteria(const struct mb_bio_run *r, const struct mb_bio_partval *v, int failed_only,
                     const struct mb_out *o)
{
    const double t_valid = r->b->weighted ? MB_BIO_T_VALID_WEIGHTED : MB_BIO_T_VALID_21;
    char line[160];

    if (!failed_only || !v->crit_time) {
        snprintf(line, sizeof line, "  criterion 1: scheduled time %3.1f min >= %2.0f min -- %s\n",
                 (double)v->tn / 60.0, t_valid / 60.0, v->crit_time ? "reached" : "NOT reached");
        emit(r, o, line);
    }
    if (!failed_only || !v->crit_shared) {
        snprintf(line, sizeof line,
                 "  criterion 2: shared file pointers must be used for pattern type 1 -- %s\n",
                 v->crit_shared ? "reached" : "NOT reached");
        emit(r, o, line);
    }
    if (!failed_only || !v->crit_errors) {
        snprintf(line, sizeof line, "  criterion 3: error count (%lld) == 0 -- %s\n", v->errors,
                 v->crit_errors ? "reached" : "NOT reached");
        emit(r, o, line);
    }
    if (!v->crit_adapt)
        emit(r, o, "  criterion 4: no -adapt -- NOT reached\n");
}

/* The value of the definition that is not b_eff_io, its name and what it is. */
static double other_value(const struct mb_bio_run *r, const struct mb_bio_partval *v)
{
    return r->b->weighted ? v->value21 : v->weighted;
}
static const char *other_name(const struct mb_bio_run *r)
{
    return r->b->weighted ? "b_eff_io_release21" : "b_eff_io_weighted";
}
static const char *other_formula(const struct mb_bio_run *r)
{
    return r->b->weighted ? "sqrt(WR x RD)" : "0.25 x write + 0.25 x rewrite + 0.5 x read";
}

void mb_bio_print_end(const struct mb_bio_run *r, const struct mb_bio_data *d)
{
    const struct mb_bio_partval *best = &d->pa[d->best];

    for (int i = 0; i < d->npart; i++) {
        const struct mb_bio_partval *v = &d->pa[i];
        say(r,
            " total partition: n=%-3d S=%7.3f MB  t=%4.2f bw=%8.3f MB/s, wbw=%8.3f MB/s, "
            "b_eff_io=%8.3f MB/s\n",
            v->n, v->bytes / 1e6, v->t, v->bw / 1e6, v->wbw / 1e6, v->value / 1e6);
    }
    say(r, " total execution time is %7.2f sec\n", d->t_total);
    /* -T is 2.1's schedule, not a limit (docs/adr/beffio-schedule.md): say so when a run missed
     * it. */
    if (fabs(d->t_total - (double)r->b->T) > MB_BIO_T_SLACK * (double)r->b->T)
        say(r,
            " (scheduled: %ld sec; only the write loops of types 0-2 follow it, the other "
            "passes repeat their counts)\n",
            r->b->T);
    say(r, "\n b_eff_io := maximum over all bw_partition = %8.3f MB/s\n", best->value / 1e6);
    /* The other definition's values, each on a line of its own (mpibench's addition). */
    for (int i = 0; i < d->npart; i++)
        say(r, " other definition, n=%-3d %s=%8.3f MB/s\n", d->pa[i].n, other_name(r),
            other_value(r, &d->pa[i]) / 1e6);
    say(r, " %s := maximum over all partitions of %s = %8.3f MB/s\n\n", other_name(r),
        other_formula(r), other_value(r, &d->pa[d->best_other]) / 1e6);
    /* What made the result "NOT VALID", right before the line that says so. */
    if (!best->valid)
        criteria(r, best, 1, NULL);
}

static void final_line(const struct mb_bio_run *r, const struct mb_bio_data *d, FILE *f)
{
    const struct mb_bio_partval *v = &d->pa[d->best];
    const struct mb_provenance *pv = r->ctx->prov;

    fprintf(f,
            " b_eff_io = %8.3f MB/s on %1d processes with %3ld MByte/PE, scheduled time=%3.1f "
            "Min, on %s %s %s %s %s",
            v->value / 1e6, v->n, r->b->memory_mb, (double)v->tn / 60.0, pv->sysname, pv->nodename,
            pv->release, pv->version, pv->machine);
    if (!v->valid)
        fprintf(f, ", NOT VALID (see above)");
    if (v->errors > 0)
        fprintf(f, ", with %lld ERRORS --!--!--!--", v->errors);
    fprintf(f, "\n");
}

void mb_bio_print_final(const struct mb_bio_run *r, const struct mb_bio_data *d,
                        const struct mb_out *o)
{
    for (int j = 0; j < o->n; j++)
        if (o->f[j])
            final_line(r, d, o->f[j]);
}

static void sum_row(const struct mb_out *o, const struct mb_bio_data *d, int i, int a, int pos,
                    int all_types)
{
    const int n = d->pa[i].n;
    long long chunk = 0;

    for (int p = 0; p < MB_BIO_PATTERNS; p++)
        if (mb_bio_table[p].pos == pos && mb_bio_table[p].type == MB_BIO_SCATTER)
            chunk = mb_bio_chunk(p, d->lmax, 0);
    mb_printf(o, "%4d PEs %1d %8lld %-7s", n, pos, chunk, mb_bio_access_name[a]);
    for (int t = 0; t < MB_BIO_TYPES; t++) {
        const struct mb_bio_meas *m = NULL;
        for (int p = mb_bio_first_of_type(t); p < MB_BIO_PATTERNS && mb_bio_table[p].type == t; p++)
            if (mb_bio_table[p].pos == pos)
                m = &d->m[i][a][p];
        if (!all_types && t > 0)
            mb_printf(o, "        -");
        else if (m && m->ran && m->errors > 0)
            mb_printf(o, " %8.3f", -999.999);
        else
            mb_printf(o, " %8.3f", m ? mb_bio_meas_bw(m, n) / 1e6 : 0.0);
    }
    mb_printf(o, "\n");
}

/* One partition's block of the .sum file, laid out as b_eff_io 2.1's (its column headings
 * included, spelling and all: readers of 2.1's files match them). */
static void sum_block(const struct mb_bio_run *r, const struct mb_bio_data *d, int i,
                      const struct mb_out *o)
{
    const struct mb_bio_partval *v = &d->pa[i];
    const struct mb_provenance *pv = r->ctx->prov;
    const int n = v->n;
    double amount = 0;

    mb_printf(o,
              "\nSummary of file I/O bandwidth accumulated on %3d processes with %4ld "
              "MByte/PE\n"
              "-----------------------------------------------------------------------------\n\n",
              n, r->b->memory_mb);
    mb_printf(o, " number pos chunk-   access   type=0   type=1   type=2   type=3   type=4\n"
                 " of PEs     size (l) methode scatter  shared  separate segmened seg-coll\n"
                 "            [bytes]  methode  [MB/s]   [MB/s]   [MB/s]   [MB/s]   [MB/s]\n"
                 " -----------------------------------------------------------------------\n\n");
    for (int a = 0; a < MB_BIO_ACCESSES; a++) {
        const int all = a != MB_BIO_REWRITE || r->b->rewrite;
        for (int pos = 1; pos <= MB_BIO_POSITIONS; pos++)
            sum_row(o, d, i, a, pos, all);
        mb_printf(o, "%4d PEs      total-%-7s", n, mb_bio_access_name[a]);
        for (int t = 0; t < MB_BIO_TYPES; t++)
            if (!all && t > 0)
                mb_printf(o, "        -");
            else
                mb_printf(o, " %8.3f", d->ty[i][a][t].bw / 1e6);
        mb_printf(o, "\n\n");
    }
    mb_printf(o,
              "This table shows all results, except pattern 2 (scatter, l=1MBytes, L=2MBytes): \n"
              "  bw_pat2= %8.3f MB/s write, %8.3f MB/s rewrite, %8.3f MB/s read\n\n",
              mb_bio_meas_bw(&d->m[i][MB_BIO_WRITE][2], n) / 1e6,
              mb_bio_meas_bw(&d->m[i][MB_BIO_REWRITE][2], n) / 1e6,
              mb_bio_meas_bw(&d->m[i][MB_BIO_READ][2], n) / 1e6);
    mb_printf(o,
              "(For gnuplot:)\n  set xtics ( '1k' 1, '+8' 2, '32k' 4, '+8' 5, '1M' 7, '+8' 8, "
              "'%lldM' 10)\n",
              d->lmax / 1048576);
    mb_printf(o, "  set title '%s %s %s %s %s' -4\n", pv->sysname, pv->nodename, pv->release,
              pv->version, pv->machine);
    mb_printf(o,
              "  set label 1 'b_eff_io'  at 10,50000 right\n  set label 2 'rel. 2.1'  at "
              "10,25000 right\n  set label 3 'T=%3.1fmin' at 10,12500 right\n  set label 4 "
              "'n=%d'     at 10,6250  right\n",
              (double)v->tn / 60.0, n);
    if (r->b->noshared)
        mb_printf(o, "  set label 5 'workaround for type 1:'  at 10,0.50 right\n  set label 6 "
                     "'individual file pointer' at 10,0.25 right\n");
    mb_printf(o, "\n");
    for (int a = 0; a < MB_BIO_ACCESSES; a++)
        mb_printf(o, "weighted average bandwidth for %-7s : %8.3f MB/s on %d processes\n",
                  mb_bio_access_name[a], d->ac[i][a].value / 1e6, n);
    mb_printf(o, "(type=0 is weighted double)\n");
    for (int t = 0; t < MB_BIO_TYPES; t++)
        amount += d->ty[i][MB_BIO_READ][t].bytes;
    mb_printf(o,
              "\nTotal amount of data written/read with each access method: %8.3f MBytes\n"
              "  = %4.1f percent of the total memory (%ld MBytes)\n",
              amount / 1048576.0, 100.0 * amount / 1048576.0 / (double)r->b->total_mb,
              r->b->total_mb);
    mb_printf(o,
              "\nb_eff_io of these measurements = %8.3f MB/s on %d processes with %3ld MByte/PE "
              "and scheduled time=%3.1f min",
              v->value / 1e6, n, r->b->memory_mb, (double)v->tn / 60.0);
    if (v->errors > 0)
        mb_printf(o, ", with %lld ERRORS --!--!--!--", v->errors);
    mb_printf(o, "\n\n%s for comparison of different systems\n", v->valid ? "VALID" : "NOT VALID");
    if (!v->valid)
        criteria(r, v, 0, o);
    /* The other definition's value (mpibench's addition), after 2.1's block. */
    mb_printf(o, "\n%s of these measurements = %8.3f MB/s (%s)\n", other_name(r),
              other_value(r, v) / 1e6, other_formula(r));
}

void mb_bio_print_sum(const struct mb_bio_run *r, const struct mb_bio_data *d,
                      const struct mb_out *o)
{
    for (int i = 0; i < d->npart; i++)
        sum_block(r, d, i, o);
    mb_printf(o, "\nMaximum over all number of PEs\n------------------------------\n\n\n");
}
