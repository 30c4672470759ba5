/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI_Info objects of b_eff_io's -i hints (beffio_hints.c; as in b_eff_io 2.1). All ranks.
 * MPI_INFO_NULL where no hint applies; free with mb_bio_info_free. */
#ifndef MB_BEFFIO_HINTS_H
#define MB_BEFFIO_HINTS_H

#include "beffio/beffio_config.h"

#include <mpi.h>

/* MPI_File_open's info for a partition of nprocs processes, an access pass and a type. */
MPI_Info mb_bio_open_info(const struct mb_bio_config *b, int nprocs, int access, int type);
/* The info of pattern p (set with its view, or with MPI_File_set_info). */
MPI_Info mb_bio_pattern_info(const struct mb_bio_config *b, int nprocs, int access, int p);
void mb_bio_info_free(MPI_Info *info);

#endif
