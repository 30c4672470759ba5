/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff output (the outputs of b_eff 3.6): the stdout summary, the protocol files and the JSON
 * records, all rendered from the same data (struct mb_beff_data and its analysis). Rank 0 only. */
#ifndef MB_BEFF_REPORT_H
#define MB_BEFF_REPORT_H

#include "beff/beff.h"
#include "core/provenance.h"
#include "core/report_text.h"

struct mb_ctx;

/* What every printer needs. */
struct mb_beff_report {
    const struct mb_config *cfg;
    const struct mb_provenance *prov;
    const struct mb_beff_patterns *set;
    const struct mb_beff_data *d;
    const struct mb_beff_analysis *a;
    int nprocs;
    double wall; /* seconds from the start of the run to the report */
};

/* The protocol files <prefix>.prot .short .sum .plot .gps (as b_eff 3.6 writes them). */
enum { MB_BEFF_PROT, MB_BEFF_SHORT, MB_BEFF_SUM, MB_BEFF_PLOT, MB_BEFF_GPS, MB_BEFF_NFILES };
extern const char *const mb_beff_file_ext[MB_BEFF_NFILES];

/* Progress on stdout while measuring: one line per repetition and message length. */
void mb_beff_progress_head(const struct mb_ctx *ctx);
void mb_beff_progress(const struct mb_ctx *ctx, const struct mb_beff_data *d,
                      const struct mb_beff_patterns *set, int rep, int k, double secs);

/* Sections (beff_report.c): HEAD, the b_eff summary with the Table 1 columns, final line. */
void mb_beff_head(const struct mb_beff_report *r, const struct mb_out *o, int prot);
void mb_beff_summary(const struct mb_beff_report *r, const struct mb_out *o, int with_text);
void mb_beff_final_line(const struct mb_beff_report *r, const struct mb_out *o);
/* The remaining protocol sections (beff_protocol.c). */
void mb_beff_write_prot(const struct mb_beff_report *r, const struct mb_out *o);
void mb_beff_write_short(const struct mb_beff_report *r, const struct mb_out *o);
/* .plot data and .gps script (beff_plot.c). */
void mb_beff_write_plot(const struct mb_beff_report *r, FILE *f);
void mb_beff_write_gps(const struct mb_beff_report *r, FILE *f, const char *plotname);

/* JSON records (beff_json.c). */
void mb_beff_json_patterns(const struct mb_ctx *ctx, const struct mb_beff_patterns *set);
void mb_beff_json_measurement(const struct mb_ctx *ctx, const struct mb_beff_data *d,
                              const struct mb_beff_patterns *set, int rep, int p, int k, int m);
void mb_beff_json_result(const struct mb_ctx *ctx, const struct mb_beff_report *r);

#endif
