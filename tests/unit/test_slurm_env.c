/* SPDX-License-Identifier: BSD-3-Clause */
/* The Slurm job in the provenance (core/slurm_env.h): read from the variables srun, sbatch and
 * salloc set, the older spellings accepted, nothing added outside Slurm. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "core/slurm_env.h"

#include "unit.h"

#include <stdlib.h>

static const char *const VARS[] = {
    "SLURM_JOB_ID",   "SLURM_JOBID",  "SLURM_STEP_ID", "SLURM_STEPID",        "SLURM_JOB_NODELIST",
    "SLURM_NODELIST", "SLURM_NTASKS", "SLURM_NPROCS",  "SLURM_JOB_PARTITION", "SLURM_CLUSTER_NAME",
};

/* The JSON object s adds to a header, and its text line. */
static void render(const struct mb_slurm_env *s, char *json, size_t jlen, char *text, size_t tlen)
{
    struct mb_jobj o;
    char *j;
    FILE *t = tmpfile();
    const struct mb_out out = {{t, NULL}, 1, {"the text file", NULL}};

    mb_jobj_begin(&o, "header", NULL);
    mb_slurm_env_json(s, &o);
    j = mb_jobj_take(&o);
    snprintf(json, jlen, "%s", j);
    free(j);
    mb_slurm_env_text(s, &out);
    rewind(t);
    text[0] = '\0';
    if (fgets(text, (int)tlen, t) == NULL)
        text[0] = '\0';
    fclose(t);
}

int main(void)
{
    struct mb_slurm_env s;
    char json[1024], text[1024];

    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++)
        unsetenv(VARS[i]);

    /* Outside Slurm: no field, no line. */
    mb_slurm_env_read(&s);
    EXPECT(!mb_slurm_env_present(&s));
    render(&s, json, sizeof json, text, sizeof text);
    EXPECT(strcmp(json, "{\"type\":\"header\"}") == 0);
    EXPECT(strcmp(text, "") == 0);
    mb_slurm_env_free(&s);

    /* A step of srun: every field, in the table's order. */
    setenv("SLURM_JOB_ID", "4711", 1);
    setenv("SLURM_STEP_ID", "0", 1);
    setenv("SLURM_JOB_NODELIST", "node[01-04]", 1);
    setenv("SLURM_NTASKS", "128", 1);
    setenv("SLURM_JOB_PARTITION", "batch", 1);
    setenv("SLURM_CLUSTER_NAME", "c1", 1);
    mb_slurm_env_read(&s);
    EXPECT(mb_slurm_env_present(&s));
    render(&s, json, sizeof json, text, sizeof text);
    EXPECT_STR_CONTAINS(json, "\"slurm\":{\"job_id\":\"4711\",\"step_id\":\"0\",\"job_nodelist\":"
                              "\"node[01-04]\",\"ntasks\":\"128\",\"partition\":\"batch\","
                              "\"cluster\":\"c1\"}");
    EXPECT(strcmp(text, "# Slurm job             : 4711 (step 0, nodes node[01-04], tasks 128, "
                        "partition batch, cluster c1)\n") == 0);
    mb_slurm_env_free(&s);

    /* A batch script's own processes (no step), older spellings only, a quote in a value. */
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++)
        unsetenv(VARS[i]);
    setenv("SLURM_JOBID", "12", 1);
    setenv("SLURM_NODELIST", "n1", 1);
    setenv("SLURM_NPROCS", "4", 1);
    setenv("SLURM_JOB_PARTITION", "a\"b", 1);
    mb_slurm_env_read(&s);
    render(&s, json, sizeof json, text, sizeof text);
    EXPECT_STR_CONTAINS(json, "\"slurm\":{\"job_id\":\"12\",\"job_nodelist\":\"n1\",\"ntasks\":"
                              "\"4\",\"partition\":\"a\\\"b\"}");
    EXPECT(strcmp(text, "# Slurm job             : 12 (nodes n1, tasks 4, partition a\"b)\n") == 0);
    mb_slurm_env_free(&s);

    /* Only a job id (an empty variable counts as unset). */
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++)
        unsetenv(VARS[i]);
    setenv("SLURM_JOB_ID", "5", 1);
    setenv("SLURM_STEP_ID", "", 1);
    mb_slurm_env_read(&s);
    render(&s, json, sizeof json, text, sizeof text);
    EXPECT(strcmp(json, "{\"type\":\"header\",\"slurm\":{\"job_id\":\"5\"}}") == 0);
    EXPECT(strcmp(text, "# Slurm job             : 5\n") == 0);
    mb_slurm_env_free(&s);

    return unit_report("test_slurm_env");
}
