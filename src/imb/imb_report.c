/* SPDX-License-Identifier: BSD-3-Clause */
/* The printers of IMB result records (docs/architecture.md, property 3): the IMB-style text tables
 * (IMB guide 6; layout per class as in IMB's IMB_output.c: 13-character columns) and the JSON Lines
 * record of a row. Both render the same struct mb_result, so they cannot disagree. */
#include "imb/imb_report.h"

#include "core/report_json.h"
#include "core/samples.h"

#include <math.h>
#include <string.h>

/* IMB prints every column 13 characters wide (ow_format in IMB_output.c). */
enum { COL = 13, PER_ROW = 16, MAX_SHOW = 1024 };

static int ncols(const struct mb_block *b)
{
    static const int cols[] = {
        [MB_LAYOUT_TIME_BW] = 4,     [MB_LAYOUT_RANGE_BW] = 6, [MB_LAYOUT_RANGE] = 5,
        [MB_LAYOUT_SYNC] = 4,        [MB_LAYOUT_OVERLAP] = 6,  [MB_LAYOUT_RATE] = 4,
        [MB_LAYOUT_SYNC_OVERLAP] = 5};
    return cols[b->layout] + (b->multi == 1) + (b->check != 0) + (b->spread ? 3 : 0);
}

static void dash_line(const struct mb_out *out, int columns)
{
    char line[COL * 12 + 2]; /* up to 11 columns: 6, Group, defects, 3 of --spread */
    int len = columns * COL;

    line[0] = '#';
    memset(line + 1, '-', (size_t)len - 1);
    line[len] = '\0';
    mb_printf(out, "%s\n", line);
}

/* Rows of at most PER_ROW ranks as " %4d" (IMB_print_int_row), each line ending in "\n# ". */
static void rank_rows(const struct mb_out *out, const char *prefix, const int *ranks, int n)
{
    mb_printf(out, "# %s", prefix);
    for (int i = 0; i < n; i++) {
        mb_printf(out, " %4d", ranks[i]);
        if ((i + 1) % PER_ROW == 0 || i + 1 == n)
            mb_printf(out, "\n# ");
    }
    mb_printf(out, "\n");
}

static void group_list(const struct mb_out *out, const struct mb_block *b)
{
    char prefix[32];
    int g;

    mb_printf(out, "\n# ( %d groups of %d processes each running simultaneous ) \n", b->ngroups,
              b->q);
    for (g = 0; g < b->ngroups; g++) {
        /* Very many groups: show the first and last MAX_SHOW/2, as IMB does. */
        if (b->ngroups > MAX_SHOW && g == MAX_SHOW / 2) {
            mb_printf(out, "#  . \n#  . \n");
            g = b->ngroups - MAX_SHOW / 2;
        }
        snprintf(prefix, sizeof prefix, "Group  %d: ", g);
        rank_rows(out, prefix, b->order + (size_t)g * b->q, b->q);
    }
}

void mb_imb_text_block(const struct mb_out *out, const struct mb_block *b)
{
    static const char *const heads[] = {
        [MB_LAYOUT_TIME_BW] = "#bytes\0#repetitions\0t[usec]\0Mbytes/sec\0",
        [MB_LAYOUT_RANGE_BW] =
            "#bytes\0#repetitions\0t_min[usec]\0t_max[usec]\0t_avg[usec]\0Mbytes/sec\0",
        [MB_LAYOUT_RANGE] = "#bytes\0#repetitions\0t_min[usec]\0t_max[usec]\0t_avg[usec]\0",
        [MB_LAYOUT_SYNC] = "#repetitions\0t_min[usec]\0t_max[usec]\0t_avg[usec]\0",
        [MB_LAYOUT_OVERLAP] =
            "#bytes\0#repetitions\0t_ovrl[usec]\0t_pure[usec]\0t_CPU[usec]\0 overlap[%]\0",
        [MB_LAYOUT_RATE] = "#bytes\0#repetitions\0Mbytes/sec\0Msg/sec\0",
        [MB_LAYOUT_SYNC_OVERLAP] =
            "#repetitions\0t_ovrl[usec]\0t_pure[usec]\0t_CPU[usec]\0 overlap[%]\0"};
    const int cols = ncols(b);

    mb_printf(out, "\n");
    dash_line(out, cols);
    mb_printf(out, "# Benchmarking %s%s ", b->ngroups > 1 ? "Multi-" : "", b->name);
    if (b->ngroups > 1) {
        group_list(out, b);
    } else if (b->map_rows > 1 && b->map_cols > 1) {
        /* The active ranks in -map order, one matrix row per line (IMB_show_procids). */
        mb_printf(out, "\n# #processes = %d; rank order (rowwise): \n", b->q);
        for (int ip = 0, i = 0; i < b->map_rows && ip < b->q; i++) {
            int py = b->nprocs / b->map_rows;
            if (py > b->q - ip)
                py = b->q - ip;
            rank_rows(out, "", b->order + ip, py);
            ip += py;
        }
    } else {
        mb_printf(out, "\n# #processes = %d \n", b->q);
    }
    if (b->idle == 1)
        mb_printf(out, "# ( %d additional process waiting in MPI_Barrier)\n", b->idle);
    else if (b->idle > 1)
        mb_printf(out, "# ( %d additional processes waiting in MPI_Barrier)\n", b->idle);
    dash_line(out, cols);
    /* IMB-EXT/IO aggregate benchmarks: the mode between rule and column header (IMB 3.1). */
    if (b->mode != 0)
        mb_printf(out, "#\n#    MODE: %s \n#\n", b->mode == 1 ? "AGGREGATE" : "NON-AGGREGATE");
    if (b->spread)
        mb_printf(out, "# t_med, ci95_lo, ci95_hi: median of the samples' t_avg (t for one "
                       "transfer) and its 95 %% interval (--spread)\n");
    if (b->multi == 1)
        mb_printf(out, "%*s", COL, "Group");
    for (const char *h = heads[b->layout]; *h; h += strlen(h) + 1)
        mb_printf(out, "%*s", COL, h);
    if (b->check)
        mb_printf(out, "%*s", COL, "defects");
    if (b->spread)
        mb_printf(out, "%*s%*s%*s", COL, "t_med[usec]", COL, "ci95_lo", COL, "ci95_hi");
    mb_printf(out, "\n");
    mb_flush(out);
}

void mb_imb_text_row(const struct mb_out *out, const struct mb_result *r)
{
    const struct mb_block *b = r->block;
    /* The record is in 2^20 B/s; the text of a benchmark of Intel IMB 2021.11 in 10^6. */
    const double mbps = b->decimal_mb ? r->mbytes_per_sec * 1.048576 : r->mbytes_per_sec;

    if (b->multi == 1)
        mb_printf(out, "%*d", COL, r->group);
    if (r->status == MB_ROW_SKIP_MEMORY) {
        /* IMB's three decimals, rounded up (but not by a rounding error): a need below 1 MB
         * must not advise "-mem 0.000". A need of nothing prints 0.000, not the -0.000 that
         * ceil gives for a tiny negative. */
        const double x = ceil(r->needed_gb * 1000.0 - 1e-6) / 1000.0;
        mb_printf(out, "%*lld out-of-mem.; needed X=%8.3f GB; use flag \"-mem X\"\n", COL, r->bytes,
                  x > 0 ? x : 0.0);
    } else if (r->status == MB_ROW_SKIP_INT) {
        mb_printf(out, "%*lld int-overflow.; counts or displacements exceed the MPI int range\n",
                  COL, r->bytes);
    } else if (r->status == MB_ROW_SKIP_TIME) {
        /* 2021.11's word for the row (IMB_output.c), then what ran out and how to raise it. */
        mb_printf(out,
                  "%*lld time-out.; the benchmark's time limit of %g s is over; use -time X "
                  "to raise it\n",
                  COL, r->bytes, r->limit_s);
    } else {
        const int overlap = b->layout == MB_LAYOUT_OVERLAP || b->layout == MB_LAYOUT_SYNC_OVERLAP;
        if (b->layout != MB_LAYOUT_SYNC && b->layout != MB_LAYOUT_SYNC_OVERLAP)
            mb_printf(out, "%*lld", COL, r->bytes);
        mb_printf(out, "%*ld", COL, r->reps);
        if (b->layout == MB_LAYOUT_RATE)
            /* Intel IMB 2021.11 (IMB_output.c): no time column; Mbytes/sec and the message rate
             * as a whole number. */
            mb_printf(out, "%*.2f%*.0f", COL, mbps, COL, r->msg_per_sec);
        else if (b->layout == MB_LAYOUT_TIME_BW)
            mb_printf(out, "%*.2f", COL, r->t_max);
        else if (overlap)
            mb_printf(out, "%*.2f%*.2f%*.2f%*.2f", COL, r->t_ovrl, COL, r->t_pure, COL, r->t_cpu,
                      COL, r->overlap_pct);
        else
            mb_printf(out, "%*.2f%*.2f%*.2f", COL, r->t_min, COL, r->t_max, COL, r->t_avg);
        if (b->layout == MB_LAYOUT_TIME_BW || b->layout == MB_LAYOUT_RANGE_BW)
            mb_printf(out, "%*.2f", COL, mbps);
        if (b->check)
            mb_printf(out, "%*lld", COL, r->defects);
        if (b->spread) {
            const struct mb_spread sp = mb_spread_of(r->samples, (size_t)r->nsamples);
            mb_printf(out, "%*.2f%*.2f%*.2f", COL, sp.median, COL, sp.ci_low, COL, sp.ci_high);
        }
        mb_printf(out, "\n");
        /* A comment line, which IMB-format parsers skip, under a row that -time left with
         * fewer repetitions than the minimum (imb_settings.h). */
        if (mb_result_few_reps(r))
            mb_printf(out,
                      "# !! %ld repetition%s: fewer than %ld under -time; this row's time is "
                      "uncertain\n",
                      r->reps, r->reps == 1 ? "" : "s", r->reps_min);
    }
    mb_flush(out);
}

static const char *layout_name(enum mb_layout l)
{
    static const char *const names[] = {[MB_LAYOUT_TIME_BW] = "time_bw",
                                        [MB_LAYOUT_RANGE_BW] = "range_bw",
                                        [MB_LAYOUT_RANGE] = "range",
                                        [MB_LAYOUT_SYNC] = "sync",
                                        [MB_LAYOUT_OVERLAP] = "overlap",
                                        [MB_LAYOUT_RATE] = "rate",
                                        [MB_LAYOUT_SYNC_OVERLAP] = "sync_overlap"};
    return names[l];
}

/* Result records use negative values for "not applicable"; JSON says null. */
static void int_or_null(struct mb_jobj *o, const char *k, long long v)
{
    if (v >= 0)
        mb_jobj_int(o, k, v);
    else
        mb_jobj_null(o, k);
}

void mb_imb_json_row(const struct mb_sink *f, const struct mb_result *r)
{
    const struct mb_block *b = r->block;
    struct mb_jobj o;

    if (!f)
        return;
    mb_jobj_begin(&o, "result", f); /* its "suite": b->suite, the family's name */
    mb_jobj_str(&o, "benchmark", b->name);
    if (b->mode != 0)
        mb_jobj_str(&o, "mode", b->mode == 1 ? "aggregate" : "non-aggregate");
    mb_jobj_bool(&o, "multi", b->ngroups > 1);
    mb_jobj_str(&o, "class", b->cls);
    mb_jobj_str(&o, "layout", layout_name(b->layout));
    mb_jobj_int(&o, "processes", b->q);
    mb_jobj_int(&o, "groups", b->ngroups);
    int_or_null(&o, "group", r->group);
    mb_jobj_int(&o, "idle", b->idle);
    int_or_null(&o, "bytes", r->bytes);
    mb_jobj_str(&o, "status", mb_row_status_name(r->status));
    if (r->status == MB_ROW_OK) {
        mb_jobj_int(&o, "repetitions", r->reps);
        if (mb_result_few_reps(r)) {
            mb_jobj_bool(&o, "few_repetitions", 1);
            mb_jobj_int(&o, "repetitions_minimum", r->reps_min);
        }
        mb_jobj_num(&o, "t_min_usec", r->t_min);
        mb_jobj_num(&o, "t_max_usec", r->t_max);
        mb_jobj_figure(&o, "t_avg_usec", r->t_avg, r->samples, (size_t)r->nsamples, 1, 1.0,
                       b->raw_samples);
        mb_jobj_sample_count(&o, (size_t)r->nsamples);
        mb_jobj_num(&o, "mib_per_sec", r->mbytes_per_sec >= 0 ? r->mbytes_per_sec : NAN);
        if (r->window_bytes >= 0)
            mb_jobj_int(&o, "window_bytes", r->window_bytes);
        if (b->layout == MB_LAYOUT_RATE)
            mb_jobj_num(&o, "messages_per_sec", r->msg_per_sec);
        if (b->layout == MB_LAYOUT_OVERLAP || b->layout == MB_LAYOUT_SYNC_OVERLAP) {
            mb_jobj_num(&o, "t_pure_usec", r->t_pure);
            mb_jobj_num(&o, "t_ovrl_usec", r->t_ovrl);
            mb_jobj_num(&o, "t_cpu_usec", r->t_cpu);
            mb_jobj_num(&o, "overlap_percent", r->overlap_pct);
        }
    }
    if (r->status == MB_ROW_SKIP_MEMORY)
        mb_jobj_num(&o, "needed_gib", r->needed_gb);
    if (r->status == MB_ROW_SKIP_TIME)
        mb_jobj_num(&o, "time_limit_sec", r->limit_s);
    int_or_null(&o, "defects", r->defects);
    mb_jobj_int(&o, "buffer_bytes", (long long)b->mem_bytes);
    mb_jobj_write(&o, f);
}
