/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/launcher.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The positive count in variable name, or 0 when it is unset or not a count. */
static int count_in(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long n;

    if (!v || !*v)
        return 0;
    n = strtol(v, &end, 10);
    return *end == '\0' && n > 0 && n < 1L << 30 ? (int)n : 0;
}

/* Whether the parent of this process is slurmstepd, i.e. this process is one of the tasks srun
 * started for a job step (slurmstepd forks each task). A shell in such a step (srun -n 4 --pty
 * bash) or a batch script passes the step's variables on to the programs it starts, which are
 * not tasks of the step: they must not be counted against it. Linux's /proc; elsewhere no. */
static int started_by_slurmstepd(void)
{
    char path[64], comm[32] = "";
    FILE *f;

    snprintf(path, sizeof path, "/proc/%ld/comm", (long)getppid());
    f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(comm, sizeof comm, f))
        comm[0] = '\0';
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    return strcmp(comm, "slurmstepd") == 0;
}

int mb_launcher_procs(const char **var)
{
    /* The total first: a per-node count is only a lower bound of it. */
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"};
    /* srun without a PMI the MPI understands (srun --mpi=none, or the wrong --mpi) sets none of
     * those: the last resort is the step's task count (srun(1): SLURM_STEP_NUM_TASKS, "number of
     * processes in the job step"), counted only for srun's own tasks. Not SLURM_NTASKS: in a
     * batch script it is the allocation's, which a singleton there rightly leaves unused. */
    static const char *const step = "SLURM_STEP_NUM_TASKS";
    int n;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((n = count_in(names[i])) > 0) {
            if (var)
                *var = names[i];
            return n;
        }
    if ((n = count_in(step)) > 0 && started_by_slurmstepd()) {
        if (var)
            *var = step;
        return n;
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
             "with (%s)%s",
             meant, var, meant, size, lib,
             strncmp(var, "SLURM_", 6) == 0
                 ? " or with srun --mpi=PLUGIN naming a PMI that MPI supports (srun --mpi=list)"
                 : "");
    return 1;
}
