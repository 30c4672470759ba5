/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/launcher.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mb_launcher_procs(const char **var)
{
    /* The total first: a per-node count is only a lower bound of it. */
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"};

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long n;

        if (!v || !*v)
            continue;
        n = strtol(v, &end, 10);
        if (*end == '\0' && n > 0 && n < 1L << 30) {
            if (var)
                *var = names[i];
            return (int)n;
        }
    }
    if (var)
        *var = NULL;
    return 0;
}

int mb_launcher_mismatch(char *buf, size_t len)
{
    const char *var;
    const int meant = mb_launcher_procs(&var);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int size, n = 0;

    buf[0] = '\0';
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (meant <= size)
        return 0;
    MPI_Get_library_version(lib, &n);
    lib[strcspn(lib, "\n,")] = '\0';
    for (char *c = lib; *c; c++)
        if (*c == '\t')
            *c = ' '; /* "MPICH Version:\t4.0.2" */
    snprintf(buf, len,
             "the launcher started %d processes (%s=%d) but MPI_COMM_WORLD has %d: each process "
             "is a job of its own; start mpibench with the mpiexec of the MPI it was built "
             "with (%s)",
             meant, var, meant, size, lib);
    return 1;
}
