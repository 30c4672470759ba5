/* SPDX-License-Identifier: BSD-3-Clause */
/* The environment variables that set how the MPI library, its transports and threads behave
 * (OMPI_MCA_*, UCX_*, FI_*, MPICH_*, MPIR_CVAR_*, ...), as rank 0 sees them, for the
 * provenance: the same binary on the same machine measures differently under another
 * UCX_TLS or OMPI_MCA_btl. What the launcher sets for its own bookkeeping (Open MPI's
 * OMPI_MCA_orte_*, ess, pmix) is left out, and the value of a name that looks like a secret
 * (KEY, TOKEN, SECRET, PASSWORD, ...) is printed as "(masked)". */
#ifndef MB_MPI_ENV_H
#define MB_MPI_ENV_H

#include <stddef.h>

struct mb_env_var {
    char *name, *value;
};

/* The variables, sorted by name; *n of them (free with mb_mpi_env_free). */
struct mb_env_var *mb_mpi_env_read(size_t *n);
void mb_mpi_env_free(struct mb_env_var *v, size_t n);

/* Whether a variable of this name is reported, and whether its value is masked (exposed for
 * the unit test). */
int mb_mpi_env_reported(const char *name);
int mb_mpi_env_masked(const char *name);

#endif
