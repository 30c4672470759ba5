/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's command line (b_eff_io 2.1's flags and mpibench's own). */
#ifndef MB_BEFFIO_OPTIONS_H
#define MB_BEFFIO_OPTIONS_H

#include "core/options.h"
#include "core/provenance.h"

#include <stdio.h>

struct mb_suite;

extern const struct mb_settings_type mb_bio_settings;

int mb_bio_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
void mb_bio_usage(const struct mb_suite *s, FILE *out);

/* The -i info file (beffio_hints.c), read by rank 0 during validation: the six-field lines
 * of b_eff_io 2.1, checked against the partitions. */
int mb_bio_hints_read(struct mb_config *cfg, struct mb_error *err);

/* The scratch file names of a run (as b_eff_io 2.1 names them): dir/b_eff_io_data_i<II>_<NNN>_<t>,
 * type 2 with ".<RRR>" per process (rank < 0: without). Returns 0 or an MB_ERR_USAGE status for a
 * path that does not fit. */
int mb_bio_scratch_name(char *out, size_t cap, const char *dir, int index, int nprocs, int type,
                        int rank, struct mb_error *err);

#endif
