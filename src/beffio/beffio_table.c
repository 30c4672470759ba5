/* SPDX-License-Identifier: BSD-3-Clause */
/* The pattern table and the rules derived from it (b_eff paper §4, Table 2; the b_eff_io 2.1
 * source's sizes, time budget, segments and default partitions). */
#include "beffio/beffio.h"

#include <math.h>
#include <stdio.h>

#define KB   MB_BIO_KB
#define MB   MB_BIO_MB
#define LMAX MB_BIO_LMAX
#define FILL MB_BIO_FILL

const char *const mb_bio_access_name[MB_BIO_ACCESSES] = {"write", "rewrite", "read"};
/* b_eff_io 2.1's names (its protocol lines b_eff_io_<access>_<type>= and its -i file use them). */
const char *const mb_bio_type_name[MB_BIO_TYPES] = {"scatter", "shared", "separated", "segmented",
                                                    "seg_coll"};

/* {type, U, part, pos, l, L}. Type 0 moves L/l chunks per call, scattered over the file (the
 * "+8" rows 6 and 7: 32 and 1024 chunks of one double more than a power of two); the other
 * types one chunk per call. ΣU = 22 + 12 + 10 + 10 + 10 = 64. */
const struct mb_bio_pattern mb_bio_table[MB_BIO_PATTERNS] = {
    /* type 0: scatter, collective, one file, a view of l-byte tiles */
    {0, 0, 0, 0, MB, MB},
    {0, 4, 1, 7, LMAX, LMAX},
    {0, 4, 1, 8, MB, 2 * MB},
    {0, 4, 1, 5, MB, MB},
    {0, 2, 1, 3, 32 * KB, MB},
    {0, 2, 1, 1, KB, MB},
    {0, 2, 1, 4, 32 * KB + 8, 32 * (32 * KB + 8)},
    {0, 2, 1, 2, KB + 8, 1024 * (KB + 8)},
    {0, 2, 2, 6, MB + 8, MB + 8},
    /* type 1: shared file pointer, collective (ordered) */
    {1, 0, 0, 0, MB, MB},
    {1, 4, 1, 7, LMAX, LMAX},
    {1, 2, 1, 5, MB, MB},
    {1, 1, 1, 3, 32 * KB, 32 * KB},
    {1, 1, 1, 1, KB, KB},
    {1, 1, 1, 4, 32 * KB + 8, 32 * KB + 8},
    {1, 1, 1, 2, KB + 8, KB + 8},
    {1, 2, 2, 6, MB + 8, MB + 8},
    /* type 2: separate files, non-collective */
    {2, 0, 0, 0, MB, MB},
    {2, 2, 1, 7, LMAX, LMAX},
    {2, 2, 1, 5, MB, MB},
    {2, 1, 1, 3, 32 * KB, 32 * KB},
    {2, 1, 1, 1, KB, KB},
    {2, 1, 1, 4, 32 * KB + 8, 32 * KB + 8},
    {2, 1, 1, 2, KB + 8, KB + 8},
    {2, 2, 2, 6, MB + 8, MB + 8},
    /* type 3: segmented, non-collective; size-driven, then the filler */
    {3, 0, 0, 0, MB, MB},
    {3, 2, 1, 7, LMAX, LMAX},
    {3, 2, 1, 5, MB, MB},
    {3, 1, 1, 3, 32 * KB, 32 * KB},
    {3, 1, 1, 1, KB, KB},
    {3, 1, 1, 4, 32 * KB + 8, 32 * KB + 8},
    {3, 1, 1, 2, KB + 8, KB + 8},
    {3, 2, 1, 6, MB + 8, MB + 8},
    {3, 0, 2, 0, FILL, FILL},
    /* type 4: segmented, collective */
    {4, 0, 0, 0, MB, MB},
    {4, 2, 1, 7, LMAX, LMAX},
    {4, 2, 1, 5, MB, MB},
    {4, 1, 1, 3, 32 * KB, 32 * KB},
    {4, 1, 1, 1, KB, KB},
    {4, 1, 1, 4, 32 * KB + 8, 32 * KB + 8},
    {4, 1, 1, 2, KB + 8, KB + 8},
    {4, 2, 1, 6, MB + 8, MB + 8},
    {4, 0, 2, 0, FILL, FILL},
};

long long mb_bio_lmax(long long mb)
{
    const long long m = mb < 256 ? 256 : mb > 131072 ? 131072 : mb;
    return 8192 * m;
}

static long long resolve(long long v, long long lmax, long long fill)
{
    return v == LMAX ? lmax : v == FILL ? fill : v;
}

long long mb_bio_chunk(int p, long long lmax, long long fill)
{
    return resolve(mb_bio_table[p].l, lmax, fill);
}

long long mb_bio_call(int p, long long lmax, long long fill)
{
    return resolve(mb_bio_table[p].L, lmax, fill);
}

int mb_bio_first_of_type(int type)
{
    static const int first[MB_BIO_TYPES] = {0, 9, 17, 25, 34};
    return first[type];
}

int mb_bio_position_x(int pos)
{
    static const int x[MB_BIO_POSITIONS + 1] = {0, 1, 2, 4, 5, 7, 8, 10};
    return pos >= 1 && pos <= MB_BIO_POSITIONS ? x[pos] : 0;
}

void mb_bio_xtics(char *buf, size_t len, const char *lmax_label)
{
    static const char *const name[MB_BIO_POSITIONS] = {"1k", "+8", "32k", "+8", "1M", "+8", ""};
    size_t n = (size_t)snprintf(buf, len, "(");

    for (int pos = 1; pos <= MB_BIO_POSITIONS && n < len; pos++)
        n += (size_t)snprintf(buf + n, len - n, "'%s' %d%s",
                              pos < MB_BIO_POSITIONS ? name[pos - 1] : lmax_label,
                              mb_bio_position_x(pos), pos < MB_BIO_POSITIONS ? ", " : ")");
}

int mb_bio_runs(int p, int access, int rewrite_all)
{
    return access != MB_BIO_REWRITE || rewrite_all || mb_bio_table[p].type == MB_BIO_SCATTER;
}

int mb_bio_usum(int rewrite_all)
{
    return 2 * MB_BIO_U_ACCESS + (rewrite_all ? MB_BIO_U_ACCESS : MB_BIO_U_REWRITE0);
}

/* b_eff_io 2.1's default partitions: small = 2^trunc(0.5000001 + 0.35 log2 n),
 * medium = 2^trunc(0.5000001 + 0.70 log2 n), except small = 1 for n = 3 and medium = 3
 * for n = 4. */
int mb_bio_default_partitions(int n, int out[3])
{
    if (n <= 1) {
        out[0] = 1;
        return 1;
    }
    if (n == 2) {
        out[0] = 1;
        out[1] = 2;
        return 2;
    }
    out[0] = 1 << (int)(0.5000001 + 0.35 * log2((double)n));
    out[1] = 1 << (int)(0.5000001 + 0.70 * log2((double)n));
    if (n == 3)
        out[0] = 1;
    if (n == 4)
        out[1] = 3;
    out[2] = n;
    return 3;
}

long mb_bio_partition_seconds(long T, int npart)
{
    return npart > 0 ? T / npart : T;
}

/* b_eff_io 2.1's segment size: the chunks each process wrote per chunk size with types 0-2 bound
 * the segment: rep = min(type-0 chunks, 10 x type-1 count, type-2 count); the type-0 partner of
 * chunk position j skips pattern 2 (its L = 2 MB duplicate of pattern 3). */
long long mb_bio_segments(long long rep[MB_BIO_PATTERNS], long long lmax, long long *fill)
{
    static const int type0[8] = {0, 1, 3, 4, 5, 6, 7, 8};
    long long l3 = MB, lseg;

    rep[25] = rep[34] = 1;
    for (int j = 1; j <= 7; j++) {
        const int p0 = type0[j];
        const long long per_call = mb_bio_call(p0, lmax, 0) / mb_bio_chunk(p0, lmax, 0);
        long long r = rep[p0] * per_call;
        if (10 * rep[9 + j] < r)
            r = 10 * rep[9 + j];
        if (rep[17 + j] < r)
            r = rep[17 + j];
        rep[25 + j] = rep[34 + j] = r;
        l3 += r * mb_bio_chunk(25 + j, lmax, 0);
    }
    lseg = (l3 + MB - 1) / MB * MB;
    *fill = lseg - l3;
    rep[33] = rep[42] = 1;
    return lseg;
}

/* The disk model of the write pass (the budget of beffio_driver.c and the space check of
 * beffio_options.c use the same one). A repetition of pattern p of types 0-2 puts its call L on
 * disk; one of type 2 counts three times, because types 3 and 4 later write, at each chunk
 * position, at most the type-2 repetitions (2.1's segment rule takes the minimum) of the same
 * size. Types 3 and 4 add only their fillers, each below 1 MiB. */
long long mb_bio_disk_per_rep(int p, long long lmax)
{
    const int type = mb_bio_table[p].type;

    if (type > MB_BIO_SEPARATE)
        return 0;
    return (type == MB_BIO_SEPARATE ? 3 : 1) * mb_bio_call(p, lmax, 0);
}

long long mb_bio_disk_least_from(int p, long long lmax)
{
    long long sum = 2 * MB; /* the two fillers */

    for (; p < mb_bio_first_of_type(MB_BIO_SEGMENTED); p++)
        sum += mb_bio_disk_per_rep(p, lmax);
    return sum;
}

int mb_bio_units_from(int p)
{
    int sum = 0;

    for (; p < mb_bio_first_of_type(MB_BIO_SEGMENTED); p++)
        sum += mb_bio_table[p].U;
    return sum;
}
