/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/dissemination.h"

#include "core/error.h"

void mb_dissemination_barrier(MPI_Comm comm)
{
    int size, rank;
    char none = 0;

    MB_MPI(MPI_Comm_size(comm, &size));
    MB_MPI(MPI_Comm_rank(comm, &rank));
    for (int mask = 1; mask < size; mask <<= 1)
        MB_MPI(MPI_Sendrecv(&none, 0, MPI_BYTE, (rank + mask) % size, 1000, &none, 0, MPI_BYTE,
                            (rank - mask + size) % size, 1000, comm, MPI_STATUS_IGNORE));
}
