/* SPDX-License-Identifier: BSD-3-Clause */
/* The Slurm job a process runs in, as srun, sbatch and salloc describe it in the environment
 * (Slurm's srun(1), sbatch(1) and salloc(1), "OUTPUT ENVIRONMENT VARIABLES"). Part of the
 * provenance: a result names the job that produced it, so it can be joined to the site's
 * accounting (sacct -j ID). */
#ifndef MB_SLURM_ENV_H
#define MB_SLURM_ENV_H

#include "core/report_json.h"
#include "core/report_text.h"

/* One field per row of the table in slurm_env.c; NULL when the variable is not set. */
enum { MB_SLURM_FIELDS = 6 };
struct mb_slurm_env {
    char *value[MB_SLURM_FIELDS];
};

/* Reads this process's environment; every field NULL outside Slurm. */
void mb_slurm_env_read(struct mb_slurm_env *s);
void mb_slurm_env_free(struct mb_slurm_env *s);

/* Whether the process runs in a Slurm job (SLURM_JOB_ID is set). */
int mb_slurm_env_present(const struct mb_slurm_env *s);

/* "# Slurm job : ..." (nothing outside Slurm). */
void mb_slurm_env_text(const struct mb_slurm_env *s, const struct mb_out *out);

/* Adds "slurm": {"job_id": ..., ...} to a JSON header (nothing outside Slurm). */
void mb_slurm_env_json(const struct mb_slurm_env *s, struct mb_jobj *o);

#endif
