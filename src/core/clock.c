/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/clock.h"

#include <stddef.h>

void mb_clock_describe(struct mb_clock_info *info)
{
    int *flag_value = NULL;
    int found = 0;

    info->tick = MPI_Wtick();
    info->is_global = 0;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag_value, &found) ==
            MPI_SUCCESS &&
        found && flag_value)
        info->is_global = *flag_value != 0;
}
