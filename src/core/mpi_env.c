/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* environ */
#include "core/mpi_env.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* Open MPI, PMIx and PRRTE parameters; UCX, libfabric, PSM, HCOLL, UCC transports; MPICH
 * and its control variables; Intel MPI; MVAPICH2; the OpenMP runtime (threads of IMB-MT). */
static const char *const PREFIXES[] = {
    "OMPI_MCA_", "PMIX_MCA_", "PRTE_MCA_", "UCX_",       "FI_",    "PSM2_",  "PSM3_", "HFI_",
    "HCOLL_",    "UCC_",      "MPICH_",    "MPIR_CVAR_", "HYDRA_", "I_MPI_", "MV2_",  "OMP_",
};

/* Set by the launchers for every process they start, whatever the user asked. */
static const char *const LAUNCHER_PREFIXES[] = {
    "OMPI_MCA_orte_",
    "OMPI_MCA_ess",
    "OMPI_MCA_pmix",
    "OMPI_MCA_initial_wdir",
    "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
    "PMIX_MCA_mca_base_component_show_load_errors",
    "MPIR_CVAR_CH3_INTERFACE_HOSTNAME",
    "PMIX_MCA_psec",
    "HFI_NO_BACKTRACE",
};

static const char *const SECRET_WORDS[] = {"KEY",  "TOKEN", "SECRET", "PASSW",
                                           "CRED", "AUTH",  "COOKIE", "PRIVATE"};

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int mb_mpi_env_reported(const char *name)
{
    int ours = 0;
    for (size_t i = 0; i < sizeof PREFIXES / sizeof *PREFIXES; i++)
        ours |= starts(name, PREFIXES[i]);
    for (size_t i = 0; ours && i < sizeof LAUNCHER_PREFIXES / sizeof *LAUNCHER_PREFIXES; i++)
        if (starts(name, LAUNCHER_PREFIXES[i]))
            return 0;
    return ours;
}

int mb_mpi_env_masked(const char *name)
{
    for (size_t i = 0; i < sizeof SECRET_WORDS / sizeof *SECRET_WORDS; i++)
        if (strstr(name, SECRET_WORDS[i]))
            return 1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct mb_env_var *)a)->name, ((const struct mb_env_var *)b)->name);
}

struct mb_env_var *mb_mpi_env_read(size_t *n)
{
    size_t cap = 0;
    struct mb_env_var *v = NULL;

    *n = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char *name = mb_xmalloc((size_t)(eq - *e) + 1);
        memcpy(name, *e, (size_t)(eq - *e));
        name[eq - *e] = '\0';
        if (!mb_mpi_env_reported(name)) {
            free(name);
            continue;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            v = mb_xrealloc(v, cap * sizeof *v);
        }
        v[*n].name = name;
        v[*n].value = mb_xstrdup(mb_mpi_env_masked(name) ? "(masked)" : eq + 1);
        (*n)++;
    }
    if (*n)
        qsort(v, *n, sizeof *v, by_name);
    return v;
}

void mb_mpi_env_free(struct mb_env_var *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].value);
    }
    free(v);
}
