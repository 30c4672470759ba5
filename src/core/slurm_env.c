/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/slurm_env.h"

#include "core/error.h"

#include <stdlib.h>

/* What is recorded, one row per field: the JSON key, the variable Slurm sets and the older
 * spelling it still sets beside it (srun(1) lists both), and the word of the text line. */
static const struct {
    const char *key, *var, *old_var, *label;
} FIELDS[MB_SLURM_FIELDS] = {
    {"job_id", "SLURM_JOB_ID", "SLURM_JOBID", NULL},
    {"step_id", "SLURM_STEP_ID", "SLURM_STEPID", "step"},
    {"job_nodelist", "SLURM_JOB_NODELIST", "SLURM_NODELIST", "nodes"},
    {"ntasks", "SLURM_NTASKS", "SLURM_NPROCS", "tasks"},
    {"partition", "SLURM_JOB_PARTITION", NULL, "partition"},
    {"cluster", "SLURM_CLUSTER_NAME", NULL, "cluster"},
};

void mb_slurm_env_read(struct mb_slurm_env *s)
{
    for (int i = 0; i < MB_SLURM_FIELDS; i++) {
        const char *v = getenv(FIELDS[i].var);
        if (v == NULL && FIELDS[i].old_var != NULL)
            v = getenv(FIELDS[i].old_var);
        s->value[i] = v != NULL && v[0] != '\0' ? mb_xstrdup(v) : NULL;
    }
}

void mb_slurm_env_free(struct mb_slurm_env *s)
{
    for (int i = 0; i < MB_SLURM_FIELDS; i++) {
        free(s->value[i]);
        s->value[i] = NULL;
    }
}

int mb_slurm_env_present(const struct mb_slurm_env *s)
{
    return s->value[0] != NULL;
}

void mb_slurm_env_text(const struct mb_slurm_env *s, const struct mb_out *out)
{
    int listed = 0;

    if (!mb_slurm_env_present(s))
        return;
    mb_printf(out, "# Slurm job             : %s", s->value[0]);
    for (int i = 1; i < MB_SLURM_FIELDS; i++)
        if (s->value[i] != NULL)
            mb_printf(out, "%s%s %s", listed++ ? ", " : " (", FIELDS[i].label, s->value[i]);
    mb_printf(out, "%s\n", listed ? ")" : "");
}

void mb_slurm_env_json(const struct mb_slurm_env *s, struct mb_jobj *o)
{
    struct mb_jobj inner;
    char *text;

    if (!mb_slurm_env_present(s))
        return;
    mb_jobj_init(&inner);
    for (int i = 0; i < MB_SLURM_FIELDS; i++)
        if (s->value[i] != NULL)
            mb_jobj_str(&inner, FIELDS[i].key, s->value[i]);
    text = mb_jobj_take(&inner);
    mb_jobj_raw(o, "slurm", text);
    free(text);
}
