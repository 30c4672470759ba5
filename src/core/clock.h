/* SPDX-License-Identifier: BSD-3-Clause */
/* The timer's description: MPI_Wtick's resolution, and whether MPI_Wtime is global. The clock
 * itself is read in core/timing.h alone (docs/adr/one-timing-module.md). */
#ifndef MB_CLOCK_H
#define MB_CLOCK_H

#include <mpi.h>

struct mb_clock_info {
    double tick;   /* MPI_Wtick, seconds */
    int is_global; /* MPI_WTIME_IS_GLOBAL attribute of MPI_COMM_WORLD (0 if unset) */
};

void mb_clock_describe(struct mb_clock_info *info);

#endif
