/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff text output shared by stdout and the protocol files (as in b_eff 3.6): the protocol files
 * themselves, the progress lines, the HEAD section, the b_eff summary with the columns of
 * the b_eff paper's Table 1, and the final line. */
#include "beff/beff_report.h"

#include "core/error.h"
#include "core/stats.h"
#include "core/suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_version.h"

const char *const mb_beff_file_ext[MB_BEFF_NFILES] = {"prot", "short", "sum", "plot", "gps"};

/* ---- progress ------------------------------------------------------------------------- */

void mb_beff_progress_head(const struct mb_ctx *ctx)
{
    mb_printf(&ctx->out, "#\n# Measurement: per repetition and message length, the loop lengths "
                         "and the geometric means\n"
                         "# over the ring and the random patterns of the best method, per "
                         "process (MB/s = 1e6 Byte/s)\n");
    mb_printf(&ctx->out, "#%3s %10s %7s %7s %7s %10s %10s %8s\n", "rep", "msg length", "Sndrcv",
              "Alltoal", "non-blk", "rings", "random", "time[s]");
    mb_flush(&ctx->out);
}

void mb_beff_progress(const struct mb_ctx *ctx, const struct mb_beff_data *d,
                      const struct mb_beff_patterns *set, int rep, int k, double secs)
{
    double *ring = mb_xmalloc((size_t)set->n * sizeof *ring);
    double *rnd = mb_xmalloc((size_t)set->n * sizeof *rnd);
    int nr = 0, nx = 0, errors = 0;

    for (int p = 0; p < set->n; p++) {
        double b = 0;
        for (int m = 0; m < MB_BEFF_METHODS; m++)
            b = fmax(b, d->b[mb_beff_at(d, rep, p, k, m)]);
        if (set->p[p].role == MB_BEFF_ROLE_RING)
            ring[nr++] = b;
        else if (set->p[p].role == MB_BEFF_ROLE_RANDOM)
            rnd[nx++] = b;
    }
    mb_printf(&ctx->out, " %3d %10lld %7d %7d %7d %10.3f %10.3f %8.3f\n", rep, d->len[k],
              d->looplen[mb_beff_lat(d, k, rep, 0)], d->looplen[mb_beff_lat(d, k, rep, 1)],
              d->looplen[mb_beff_lat(d, k, rep, 2)],
              mb_beff_logavg(ring, nr, &errors) / 1e6 / ctx->size,
              mb_beff_logavg(rnd, nx, &errors) / 1e6 / ctx->size, secs);
    mb_flush(&ctx->out);
    free(ring);
    free(rnd);
}

/* ---- HEAD ------------------------------------------------------------------------------ */

void mb_beff_head(const struct mb_beff_report *r, const struct mb_out *o, int prot)
{
    const struct mb_beff_patterns *set = r->set;

    mb_printf(o, "\nSECTION-HEAD-BEGIN\n\n");
    mb_printf(o,
              "mpibench %s b_eff, following the b_eff 3.6 methodology, loop-length rules: %s\n\n",
              MB_VERSION, mb_beff_profile_name[mb_beff_cfg(r->cfg)->profile]);
    mb_printf(o, "MEMORY_PER_PROCESSOR = %ld MBytes  [1M = 1024*1024]\n",
              mb_beff_cfg(r->cfg)->memory_mb);
    /* Quirk Q7 fixed: the 1-D line is printed once and spelled correctly. */
    if (prot)
        mb_printf(o, "1-dim-patterns: size = %d\n", r->nprocs);
    for (int nd = 2; nd <= 3; nd++) {
        mb_printf(o, "%d-dim-patterns: size = %d", nd, set->cart_dims[nd - 2][0]);
        for (int i = 1; i < nd; i++)
            mb_printf(o, " * %d", set->cart_dims[nd - 2][i]);
        mb_printf(o, "\n");
    }
    mb_printf(o, "Used message lengths:\nmsglng=");
    for (int k = 0; k < MB_BEFF_SIZES; k++)
        mb_printf(o, " %lld", r->d->len[k]);
    mb_printf(o, "\nUsed methods:");
    for (int m = 0; m < MB_BEFF_METHODS; m++)
        mb_printf(o, "  %d=%s", m, mb_beff_method_label[m]);
    mb_printf(o, "\nUsed patterns:");
    for (int p = 0; p < set->n; p++) {
        if (p > 0 && p % 4 == 0)
            mb_printf(o, "\n%14s", "");
        mb_printf(o, " %2d=%-17s", p, set->p[p].label);
    }
    /* Quirk Q3 fixed: the index ranges are the real ones. */
    mb_printf(o, "\n\n%15s0-%-3d used for ring pattern average of b_eff\n", "", MB_BEFF_RINGS - 1);
    mb_printf(o, "%15s%d-%-3d used for random pattern average of b_eff\n", "", MB_BEFF_RINGS,
              set->first_info - 1);
    mb_printf(o, "%15s%d-%-3d only reported, not used for b_eff average\n", "", set->first_info,
              set->n - 1);
    mb_printf(o, "Random rings: %ld, seed %lld%s\n", mb_beff_cfg(r->cfg)->random,
              mb_beff_cfg(r->cfg)->seed,
              mb_beff_cfg(r->cfg)->seed_given ? "" : " (from the clock; repeat with --seed)");
    if (r->nprocs == 1)
        mb_printf(o, "NOTE: with 1 process every ring is the process itself: the values measure "
                     "MPI self-communication (a memory copy), not a network\n");
    if (r->cfg->common.check)
        mb_printf(o, "NOTE: --check: every byte is verified inside the timed loops; the values "
                     "are not benchmark results\n");
    mb_printf(o, "\nSECTION-HEAD-END\n");
}

/* ---- BEFF: the summary with the columns of the b_eff paper's Table 1 ------------------- */

/* L_max as the original prints it (MB = 2^20 bytes), in kB when it is below 1 MB. */
static void lmax_text(long long lmax, int width, char *buf, size_t len)
{
    const int mb = lmax >= 1048576;

    snprintf(buf, len, "%*.0f %s", width, (double)lmax / (mb ? 1048576.0 : 1024.0),
             mb ? "MB" : "kB");
}

void mb_beff_summary(const struct mb_beff_report *r, const struct mb_out *o, int with_text)
{
    const struct mb_beff_analysis *a = r->a;
    const struct mb_provenance *pv = r->prov;
    const int n = r->nprocs;
    char lmax[32], lmax3[32];

    lmax_text(r->d->len[MB_BEFF_SIZES - 1], 1, lmax, sizeof lmax);
    lmax_text(r->d->len[MB_BEFF_SIZES - 1], 3, lmax3, sizeof lmax3);

    if (with_text) {
        mb_printf(o, "\nSECTION-BEFF-BEGIN\n\n\n");
        mb_printf(o, "The effective bandwidth is b_eff = %10.3f MByte/s on %d processes\n",
                  a->beff / 1e6, n);
        mb_printf(o, "                               ( = %10.3f MByte/s  * %d processes)\n",
                  a->beff / 1e6 / n, n);
        /* --spread: b_eff's samples are its repetitions, as the JSON's b_eff_mb_per_sec_samples. */
        if (r->cfg->common.spread && a->nrep > 1) {
            double v[MB_BEFF_REPS_MAX];
            struct mb_spread m;
            for (int j = 0; j < a->nrep; j++)
                v[j] = mb_beff_rep_value(a, j, MB_BEFF_AVG) / 1e6;
            m = mb_spread_of(v, (size_t)a->nrep);
            mb_printf(o,
                      "Median over the %d repetitions: b_eff = %.3f MByte/s, 95 %% interval "
                      "%.3f .. %.3f\n",
                      a->nrep, m.median, m.ci_low, m.ci_high);
        }
        mb_printf(o, "Latency: %8.3f microsec\n\n", a->latency * 1e6);
        mb_printf(o, "Lmax: %5s\n", lmax);
        mb_printf(o, "b_eff at Lmax: %10.3f MByte/s on %d processes\n", a->beff_lmax / 1e6, n);
        mb_printf(o, "           ( : %10.3f MByte/s * %d processes)\n\n", a->beff_lmax / 1e6 / n,
                  n);
        mb_printf(o, "b_eff at Lmax (ring pattern): %11.3f MByte/s on %d processes\n",
                  a->ring_lmax / 1e6, n);
        mb_printf(o, "                          ( : %11.3f MByte/s * %d processes)\n",
                  a->ring_lmax / 1e6 / n, n);
        /* Quirk Q6 fixed: the ring latency includes the factor N, as in the table. */
        mb_printf(o, "Latency ring pattern: %14.3f microsec\n", a->latency_ring * 1e6);
        if (a->pp_latency > 0)
            mb_printf(o, "Ping-pong latency: %15.3f microsec\n", a->pp_latency * 1e6);
        if (a->pp_bandwidth > 0)
            mb_printf(o, "Ping-pong bandwidth at Lmax: %10.3f MByte/s at Lmax= %s\n",
                      a->pp_bandwidth / 1e6, lmax);
        mb_printf(o, "\n");
    }
    mb_printf(o, " (MByte/s=1e6 Byte/s)  (MB=2**20 Byte)\n");
    mb_printf(o, "system parameters  : %d nodes, %ld MB/node\n", n, mb_beff_cfg(r->cfg)->memory_mb);
    mb_printf(o, "       system name : %s\n", pv->sysname);
    mb_printf(o, "       hostname    : %s\n", pv->nodename);
    mb_printf(o, "       OS release  : %s\n", pv->release);
    mb_printf(o, "       OS version  : %s\n", pv->version);
    mb_printf(o, "       machine     : %s\n\n", pv->machine);
    mb_printf(o, "Date of measurement: %s\n\n", pv->date);
    mb_printf(o, "Total execution wall clock time = %5.0f seconds\n\n", r->wall);
    mb_printf(o, "            | number  |   b_eff   |  Lmax  |   b_eff   |   b_eff   | Latency | "
                 "Latency | Latency | ping-pong\n");
    mb_printf(o, "            | of pro  |           |        |  at Lmax  |  at Lmax  | rings & | "
                 " rings  |  ping-  | bandwidth\n");
    mb_printf(o, "            | cessors |           |        |  rings &  |   rings   | random  | "
                 " only   |  pong   |\n");
    mb_printf(o, "            |         |           |        |  random   |   only    | micro-  | "
                 "micro-  | micro-  |\n");
    mb_printf(o, "            |         |  MByte/s  |        |  MByte/s  |  MByte/s  |  sec    | "
                 " sec    |  sec    |  MByte/s\n");
    mb_printf(o, "-------------------------------------------------------------------------------"
                 "-------------------------------\n");
    mb_printf(o, "            |\n");
    mb_printf(o,
              "accumulated |  %5d    %9.0f   %s  %9.0f    %9.0f    %6.3f    %6.3f    %6.3f  "
              "  %9.0f\n",
              n, a->beff / 1e6, lmax3, a->beff_lmax / 1e6, a->ring_lmax / 1e6, a->latency * 1e6,
              a->latency_ring * 1e6, a->pp_latency * 1e6, a->pp_bandwidth / 1e6);
    mb_printf(o, "            |\n");
    mb_printf(o, "per process |           %9.0f           %9.0f    %9.0f\n", a->beff / 1e6 / n,
              a->beff_lmax / 1e6 / n, a->ring_lmax / 1e6 / n);
    mb_printf(o, "\n\nSECTION-BEFF-END\n\n");
}

void mb_beff_final_line(const struct mb_beff_report *r, const struct mb_out *o)
{
    const struct mb_provenance *pv = r->prov;

    mb_printf(o, "b_eff = %10.3f MB/s = %7.3f * %3d PEs with %3ld MB/PE on %s %s %s %s %s\n",
              r->a->beff / 1e6, r->a->beff / 1e6 / r->nprocs, r->nprocs,
              mb_beff_cfg(r->cfg)->memory_mb, pv->sysname, pv->nodename, pv->release, pv->version,
              pv->machine);
    mb_flush(o);
}
