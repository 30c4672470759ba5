/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings of b_eff_io: the struct behind its option rows (beffio_options.c). */
#ifndef MB_BEFFIO_CONFIG_H
#define MB_BEFFIO_CONFIG_H

#include "beffio/beffio_settings.h"
#include "core/config.h"

#include <mpi.h>

/* One line of the -i info file (as b_eff_io 2.1 reads it): which opens or patterns a hint applies
 * to. Zero / negative values mean "all". */
enum mb_bio_hint_chunk {
    MB_BIO_HINT_ON_OPEN = -1, /* MPI_File_open's info of the selected types */
    MB_BIO_HINT_ALL = -2,     /* the open and every selected pattern */
    MB_BIO_HINT_LMAX = -3     /* the L_max patterns */
};
struct mb_bio_hint {
    int line;        /* line number in the file, for messages */
    int nprocs;      /* partition size, 0 = all */
    int access;      /* enum mb_bio_access, -1 = all */
    int type;        /* enum mb_bio_type, -1 = all */
    long long chunk; /* chunk size l in bytes, or enum mb_bio_hint_chunk */
    char key[MPI_MAX_INFO_KEY + 1];
    char value[MPI_MAX_INFO_VAL + 1];
};

/* b_eff_io settings (b_eff_io 2.1's flags and mpibench's own). Zero means "the standard value"
 * until validation. */
struct mb_bio_config {
    long memory_mb; /* -MB: memory per process, MiB (default: node memory / processes) */
    long total_mb;  /* -MT: total memory, MiB (default: -MB x processes) */
    long T;         /* -T: scheduled seconds for all partitions (default 1800) */
    int partitions[MB_BIO_MAX_PARTITIONS]; /* -N, in order (default as b_eff_io 2.1) */
    int n_partitions;
    int partitions_given;      /* 1 if -N was on the command line */
    char *dir;                 /* -p: scratch directory (default ".") */
    char *info_path;           /* -i FILE */
    struct mb_bio_hint *hints; /* the lines of -i FILE, resolved during validation */
    size_t n_hints;
    long max_errors; /* -e: data errors printed per pattern and process (default 1) */
    char *prefix;    /* -f: protocol file prefix (default b_eff_io) */
    int noshared, nounique, rewrite, keep, adapt, force;
    /* --definition: 0 = b_eff_io 2.1's partition value sqrt(WR x RD) and its 1800 s validity
     * (the default), 1 = the b_eff paper's 0.25 write + 0.25 rewrite + 0.5 read and 900 s. */
    int weighted;
    unsigned long long disk_free; /* free bytes in dir at validation (rank 0's view) */
};

static inline const struct mb_bio_config *mb_bio_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

#endif
