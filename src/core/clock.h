/* SPDX-License-Identifier: BSD-3-Clause */
/* The timer: MPI_Wtime, its resolution, and whether it is global.
 * Only drivers call mb_now(); kernels never read the clock (docs/architecture.md, property 2). */
#ifndef MB_CLOCK_H
#define MB_CLOCK_H

#include <mpi.h>

struct mb_clock_info {
    double tick;   /* MPI_Wtick, seconds */
    int is_global; /* MPI_WTIME_IS_GLOBAL attribute of MPI_COMM_WORLD (0 if unset) */
};

static inline double mb_now(void)
{
    return MPI_Wtime();
}

void mb_clock_describe(struct mb_clock_info *info);

#endif
