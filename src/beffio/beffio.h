/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io, the effective I/O bandwidth benchmark (defined in the b_eff paper §4-5 and the
 * b_eff_io paper §2-4; details as in the b_eff_io 2.1 source, b_eff_io.c).
 *
 *   beffio_table.c    the 43 patterns, L_max, partitions, time budget, type 3/4 segments
 *   beffio_values.c   the bandwidth values: pattern, type, access method, partition
 *   beffio_hints.c    the -i info file (six fields a line) and its MPI_Info objects
 *   beffio_io.c       the five pattern types on MPI-IO: open, view, one call, stamps
 *   beffio_driver.c   passes, partitions, patterns, the time-driven loop (the clock)
 *   beffio_report.c   .prot/.sum/stdout lines; beffio_json.c the JSON records
 *   beffio_plot.c     the gnuplot data and script (b_eff_io paper Fig. 2)
 *   beffio_options.c  the command line; beffio_suite.c the suite row */
#ifndef MB_BEFFIO_H
#define MB_BEFFIO_H

#include "beffio/beffio_config.h"
#include "beffio/beffio_settings.h"

#include <stddef.h>

enum mb_bio_access { MB_BIO_WRITE = 0, MB_BIO_REWRITE = 1, MB_BIO_READ = 2 };
enum mb_bio_type {
    MB_BIO_SCATTER = 0,
    MB_BIO_SHARED = 1,
    MB_BIO_SEPARATE = 2,
    MB_BIO_SEGMENTED = 3,
    MB_BIO_SEGCOLL = 4
};
/* Where a pattern stands in its type: part 0 opens the file, part 2 closes it. */
enum mb_bio_part { MB_BIO_FIRST = 0, MB_BIO_MIDDLE = 1, MB_BIO_LAST = 2 };

extern const char *const mb_bio_access_name[MB_BIO_ACCESSES]; /* "write" "rewrite" "read" */
extern const char *const mb_bio_type_name[MB_BIO_TYPES];      /* "scatter", "separated" ... */

/* One row of the pattern table (b_eff paper Table 2): chunk l contiguous on disk, L bytes in memory
 * per call (L/l chunks per call for type 0), U time units, part, report position (1-7; 0 not
 * reported; 8 = pattern 2, reported on its own line). l and L may be MB_BIO_LMAX/FILL. */
struct mb_bio_pattern {
    int type, U, part, pos;
    long long l, L;
};
extern const struct mb_bio_pattern mb_bio_table[MB_BIO_PATTERNS];

/* L_max in bytes for a memory of mb MiB per process: 8192 x max(256, min(mb, 131072)),
 * i.e. mb/128 MiB within [2 MiB, 1 GiB] (as in b_eff_io 2.1). */
long long mb_bio_lmax(long long mb);
/* A pattern's chunk and call sizes in bytes, placeholders resolved. */
long long mb_bio_chunk(int p, long long lmax, long long fill);
long long mb_bio_call(int p, long long lmax, long long fill);
/* The first pattern of a type, and the positions' x coordinates in the plots (1k -> 1,
 * +8 -> 2, 32k -> 4, +8 -> 5, 1M -> 7, +8 -> 8, Lmax -> 10: b_eff_io paper Fig. 2). */
int mb_bio_first_of_type(int type);
int mb_bio_position_x(int pos);
/* The gnuplot tic list of that axis, "('1k' 1, '+8' 2, ..., '<lmax_label>' 10)", as b_eff_io's
 * plot files and mpibench's plots label it. */
void mb_bio_xtics(char *buf, size_t len, const char *lmax_label);

/* Whether pattern p runs in an access pass: the rewrite pass has type 0 only unless
 * -rewrite (release 2.0 rule, b_eff paper §5). */
int mb_bio_runs(int p, int access, int rewrite_all);
/* Sum of U over everything a partition runs: 64 + 22 + 64 = 150, or 192 with -rewrite. */
int mb_bio_usum(int rewrite_all);
/* The default partitions for n processes (as in b_eff_io 2.1): {1}, {1, 2}, or {small, medium, n}.
 * Returns their count (at most 3). */
int mb_bio_default_partitions(int n, int out[3]);
/* Seconds per partition: T div partitions (integer division, as b_eff_io 2.1). */
long mb_bio_partition_seconds(long T, int npart);

/* Types 3 and 4 (segment size as in b_eff_io 2.1): from the repetition counts of types 0-2 in
 * rep[], sets the counts of patterns 25-42 (1 for the first and the filler), and returns the
 * segment size per process (a multiple of 1 MiB) with the filler's chunk in *fill. */
long long mb_bio_segments(long long rep[MB_BIO_PATTERNS], long long lmax, long long *fill);

/* The disk the write pass needs per process (bytes): one repetition of pattern p (types 0-2;
 * type 2 three times, for the types 3 and 4 that follow its counts; 0 for types 3 and 4), and
 * the least for the patterns from p on, each once, with the fillers of types 3 and 4
 * (mb_bio_disk_least_from(0, lmax): the least of a whole pass, the space check). */
long long mb_bio_disk_per_rep(int p, long long lmax);
long long mb_bio_disk_least_from(int p, long long lmax);
/* Sum of U over the patterns of types 0-2 from p on (the time-driven ones). */
int mb_bio_units_from(int p);

/* ---- values (beffio_values.c; bandwidths in bytes/s) --------------------------------- */

/* An access method's value: the average over the five types, type 0 twice; with only type 0
 * measured (rewrite without -rewrite) its value alone (b_eff paper §4). */
double mb_bio_access_value(const double bw[MB_BIO_TYPES], int all_types);
/* A partition's weighted value, b_eff paper §4: 25 % write + 25 % rewrite + 50 % read
 * (--definition weighted). */
double mb_bio_partition_value(double write, double rewrite, double read);
/* The b_eff_io 2.1 code's partition value (b_eff_io.c, b_eff_io_PARTITION), the default:
 * sqrt(WR x RD), WR = mean of the five write types and the type-0 rewrite, RD = the read
 * access value (type 0 twice). */
double mb_bio_partition_value_21(const double write[MB_BIO_TYPES], double rewrite0,
                                 const double read[MB_BIO_TYPES]);

#endif
