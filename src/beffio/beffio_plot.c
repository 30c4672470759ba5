/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's plots (b_eff_io paper Fig. 2; the diagrams of b_eff_io 2.1's beffio_eps tools): per
 * partition and access method, the bandwidth of each pattern type against the chunk
 * size on disk, on a logarithmic bandwidth axis and the pseudo-logarithmic chunk axis 1k, +8,
 * 32k, +8, 1M, +8, L_max. PREFIX.plot holds the numbers (one gnuplot index per partition and
 * access method), PREFIX.gps draws PREFIX_<n>_<access>.svg and, where gnuplot has a PNG
 * terminal, .png (PREFIX_<n>-<k>_<access> for the k-th partition of n processes when -N names
 * a size twice). Like b_eff's, the script names its files as the run did: it is run from the
 * directory the run was started in, as its first line says. */
#include "beffio/beffio_run.h"

static double pattern_bw(const struct mb_bio_data *d, int i, int a, int type, int pos)
{
    for (int p = mb_bio_first_of_type(type); p < MB_BIO_PATTERNS && mb_bio_table[p].type == type;
         p++) {
        const struct mb_bio_meas *m = &d->m[i][a][p];
        if (mb_bio_table[p].pos == pos && m->ran && m->t > 0 && m->errors == 0)
            return mb_bio_meas_bw(m, d->pa[i].n) / 1e6;
    }
    return -1;
}

void mb_bio_write_plot(const struct mb_bio_run *r, const struct mb_bio_data *d, FILE *f)
{
    (void)r;
    fprintf(f, "# b_eff_io (mpibench): bandwidth [MB/s] per pattern type against the chunk size\n"
               "# x: 1 = 1 kB, 2 = 1 kB+8, 4 = 32 kB, 5 = 32 kB+8, 7 = 1 MB, 8 = 1 MB+8, 10 = "
               "L_max; '-' = not measured\n");
    for (int i = 0; i < d->npart; i++)
        for (int a = 0; a < MB_BIO_ACCESSES; a++) {
            fprintf(f, "\n\n# partition %d (%d processes), %s\n# x chunk_bytes", i, d->pa[i].n,
                    mb_bio_access_name[a]);
            for (int t = 0; t < MB_BIO_TYPES; t++)
                fprintf(f, " %s", mb_bio_type_name[t]);
            fprintf(f, "\n");
            for (int pos = 1; pos <= MB_BIO_POSITIONS; pos++) {
                long long chunk = 0;
                for (int p = 0; p < MB_BIO_PATTERNS; p++)
                    if (mb_bio_table[p].type == 0 && mb_bio_table[p].pos == pos)
                        chunk = mb_bio_chunk(p, d->lmax, 0);
                fprintf(f, "%d %lld", mb_bio_position_x(pos), chunk);
                for (int t = 0; t < MB_BIO_TYPES; t++) {
                    const double bw = pattern_bw(d, i, a, t, pos);
                    if (bw > 0)
                        fprintf(f, " %.6g", bw);
                    else
                        fprintf(f, " -");
                }
                fprintf(f, "\n");
            }
        }
}

/* "<n>" or, for a repeated partition size, "<n>-<k>" (k = 2, 3, ...). */
static void figure_tag(const struct mb_bio_data *d, int i, char *out, size_t cap)
{
    int k = 1;

    for (int j = 0; j < i; j++)
        k += d->pa[j].n == d->pa[i].n;
    if (k == 1)
        snprintf(out, cap, "%d", d->pa[i].n);
    else
        snprintf(out, cap, "%d-%d", d->pa[i].n, k);
}

void mb_bio_write_gps(const struct mb_bio_run *r, const struct mb_bio_data *d, FILE *f,
                      const char *datname)
{
    const char *prefix = r->b->prefix;
    double top = 1e5;
    char lmax[32], tics[160];

    for (int i = 0; i < d->npart; i++)
        for (int a = 0; a < MB_BIO_ACCESSES; a++)
            for (int t = 0; t < MB_BIO_TYPES; t++)
                for (int pos = 1; pos <= MB_BIO_POSITIONS; pos++)
                    if (pattern_bw(d, i, a, t, pos) * 2 > top)
                        top = pattern_bw(d, i, a, t, pos) * 2;
    fprintf(f,
            "# b_eff_io (mpibench): gnuplot script for %s; run 'gnuplot %s.gps' to get "
            "%s_<processes>_<access>.svg (and .png)\n",
            datname, prefix, prefix);
    fprintf(f,
            "set datafile missing '-'\nset logscale y\nset yrange [0.1:%g]\nset xrange "
            "[0.5:10.5]\n",
            top);
    snprintf(lmax, sizeof lmax, "%lldM", d->lmax / 1048576);
    mb_bio_xtics(tics, sizeof tics, lmax);
    fprintf(f, "set xtics %s\n", tics);
    fprintf(f, "set xlabel 'contiguous chunk size on disk [bytes]'\nset ylabel 'bandwidth "
               "[MB/s]'\nset key outside right\npng = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 "
               "? 'pngcairo' : (strstrt(GPVAL_TERMINALS, ' png ') > 0 ? 'png' : '')\n");
    for (int i = 0; i < d->npart; i++)
        for (int a = 0; a < MB_BIO_ACCESSES; a++) {
            const int index = i * MB_BIO_ACCESSES + a;
            const int types = a != MB_BIO_REWRITE || r->b->rewrite ? MB_BIO_TYPES : 1;
            char tag[32];
            figure_tag(d, i, tag, sizeof tag);
            fprintf(f, "set title 'b_eff_io %s, %d processes, T=%.1f min'\n", mb_bio_access_name[a],
                    d->pa[i].n, (double)d->pa[i].tn / 60.0);
            for (int term = 0; term < 2; term++) {
                if (term == 0)
                    fprintf(f,
                            "set terminal svg size 800,500 noenhanced\nset output '%s_%s_%s.svg'\n",
                            prefix, tag, mb_bio_access_name[a]);
                else
                    fprintf(f,
                            "if (png ne '') { eval('set terminal '.png.' size 800,500 "
                            "noenhanced'); set output "
                            "'%s_%s_%s.png'; replot }\n",
                            prefix, tag, mb_bio_access_name[a]);
                if (term == 1)
                    continue;
                fprintf(f, "plot ");
                for (int t = 0; t < types; t++)
                    fprintf(f, "%s'%s' index %d using 1:%d with linespoints title 'type %d %s'",
                            t ? ", " : "", datname, index, t + 3, t, mb_bio_type_name[t]);
                fprintf(f, "\n");
            }
        }
}
