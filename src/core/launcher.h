/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether the processes form the job the launcher started (docs/adr/measured-nothing.md). The
 * wrong MPI's launcher - Open MPI's mpirun starting an MPICH build, or MPICH's mpiexec an Open
 * MPI build - starts N processes that each initialise MPI as a singleton: N jobs of one process,
 * each measuring nothing between processes and writing the same files. The launcher says how
 * many it started in the environment of each process; MPI says how many there are. */
#ifndef MB_LAUNCHER_H
#define MB_LAUNCHER_H

#include <stddef.h>

/* The number of processes the launcher's environment says it started, and the variable that
 * says it (OMPI_COMM_WORLD_SIZE: Open MPI's mpirun; PMI_SIZE: MPICH's hydra, Slurm's PMI-2;
 * MPI_LOCALNRANKS: hydra's count on this node, a lower bound; last, SLURM_STEP_NUM_TASKS: srun's
 * task count of the step, read only in a task srun started, whose parent is slurmstepd), or 0
 * and NULL where none does. */
int mb_launcher_procs(const char **var);

/* When the launcher meant more processes than MPI_COMM_WORLD has: a one-line explanation in
 * buf ("the launcher started 2 processes (PMI_SIZE=2) but MPI_COMM_WORLD has 1 ...") and 1;
 * else buf empty and 0. Needs MPI to be initialised. */
int mb_launcher_mismatch(char *buf, size_t len);

#endif
