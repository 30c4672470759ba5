/* The suite table, the options every suite accepts, and the settings and JSON header/summary
 * records every suite prints. */
#include "core/suite.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The suites implemented elsewhere; each is one row below. */
extern const struct mb_suite mb_suite_imb_mpi1;
extern const struct mb_suite mb_suite_run;
extern const struct mb_suite mb_suite_beff;
extern const struct mb_suite mb_suite_presta_com;
extern const struct mb_suite mb_suite_presta_laten;
extern const struct mb_suite mb_suite_presta_rma;
extern const struct mb_suite mb_suite_presta_allred;
extern const struct mb_suite mb_suite_presta_globalop;

/* Suites not built yet answer "not implemented yet" (run == NULL). */
static const struct mb_suite suite_imb_ext = {
    .name = "imb-ext", .legacy = "IMB-EXT", .title = "IMB-EXT one-sided communication"};
static const struct mb_suite suite_imb_io = {
    .name = "imb-io", .legacy = "IMB-IO", .title = "IMB-IO MPI-IO benchmarks"};
static const struct mb_suite suite_beffio = {
    .name = "beffio", .legacy = "b_eff_io", .title = "b_eff_io effective I/O bandwidth"};
static const struct mb_suite *const suites[] = {
    &mb_suite_run,
    &mb_suite_imb_mpi1,
    &suite_imb_ext,
    &suite_imb_io,
    &mb_suite_beff,
    &suite_beffio,
    &mb_suite_presta_com,
    &mb_suite_presta_laten,
    &mb_suite_presta_rma,
    &mb_suite_presta_allred,
    &mb_suite_presta_globalop,
};
enum { N_SUITES = sizeof suites / sizeof suites[0] };

/* --help and --version are requests, not settings of the run. */
static int is_action(const struct mb_option *o)
{
    return o->kind == MB_OPT_FLAG && (o->offset == offsetof(struct mb_config, common.help) ||
                                      o->offset == offsetof(struct mb_config, common.version));
}

static void show_timeout(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->common.timeout > 0)
        snprintf(buf, len, "%g s per measurement", cfg->common.timeout);
    else
        snprintf(buf, len, "off");
}

#define COMMON(field) offsetof(struct mb_config, common.field)
const struct mb_option mb_common_options[] = {
    {"--json", NULL, MB_OPT_STRING, COMMON(json_path), 0, 0, "FILE",
     "also write the results as JSON Lines to FILE (schema: docs/results.schema.json)", NULL, NULL},
    {"--output-dir", NULL, MB_OPT_STRING, COMMON(output_dir), 0, 0, "DIR",
     "also write the text output (and, without --json, the JSON) into DIR", NULL, NULL},
    {"--check", "-check", MB_OPT_FLAG, COMMON(check), 0, 0, NULL,
     "check every received buffer; adds a defects column (results not valid as benchmark data)",
     NULL, NULL},
    {"--check-selftest", NULL, MB_OPT_FLAG, COMMON(selftest), 0, 0, NULL,
     "with --check: deliberately corrupt sent data to prove the check finds it", NULL, NULL},
    {"--timeout", NULL, MB_OPT_DOUBLE, COMMON(timeout), 1e-3, 1e9, "SEC",
     "abort the job (exit 1) if one measurement takes longer than SEC seconds", NULL, show_timeout},
    {"--quiet", NULL, MB_OPT_FLAG, COMMON(quiet), 0, 0, NULL, "no text output on stdout", NULL,
     NULL},
    {"--dry-run", NULL, MB_OPT_FLAG, COMMON(dry_run), 0, 0, NULL,
     "print the run plan and exit without measuring", NULL, NULL},
    {"--help", NULL, MB_OPT_FLAG, COMMON(help), 0, 0, NULL, "print this help and exit", NULL, NULL},
    {"--version", NULL, MB_OPT_FLAG, COMMON(version), 0, 0, NULL, "print the version and exit",
     NULL, NULL},
};
const size_t mb_n_common_options = sizeof mb_common_options / sizeof mb_common_options[0];
#undef COMMON

size_t mb_suite_count(void)
{
    return N_SUITES;
}

const struct mb_suite *mb_suite_at(size_t i)
{
    return suites[i];
}

int mb_suite_find(const char *word, int by_legacy)
{
    for (int i = 0; i < N_SUITES; i++) {
        const char *name = by_legacy ? suites[i]->legacy : suites[i]->name;
        if (name && strcmp(name, word) == 0)
            return i;
    }
    return -1;
}

size_t mb_suite_option_sets(const struct mb_suite *s, struct mb_option_set sets[2])
{
    sets[0] = s->options ? *s->options : (struct mb_option_set){NULL, 0, 0};
    sets[1] = (struct mb_option_set){mb_common_options, mb_n_common_options, 0};
    return 2;
}

/* Calls fn(user, name, value) for every setting of the suite, in table order. */
static void each_setting(const struct mb_suite *s, const struct mb_config *cfg,
                         void (*fn)(void *user, const char *name, const char *value), void *user)
{
    struct mb_option_set sets[2];
    size_t n = mb_suite_option_sets(s, sets);

    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sets[k].n; i++) {
            char value[256];
            if (is_action(&sets[k].rows[i]))
                continue;
            mb_option_value(&sets[k].rows[i], cfg, value, sizeof value);
            fn(user, sets[k].rows[i].name, value);
        }
}

static void setting_line(void *out, const char *name, const char *value)
{
    mb_printf(out, "#   %-18s: %s\n", name, value);
}

static void setting_field(void *obj, const char *name, const char *value)
{
    mb_jobj_str(obj, name, value);
}

void mb_settings_text(const struct mb_suite *s, const struct mb_config *cfg,
                      const struct mb_out *out)
{
    mb_printf(out, "# Effective settings:\n");
    each_setting(s, cfg, setting_line, (void *)out);
}

void mb_settings_json(const struct mb_suite *s, const struct mb_config *cfg, struct mb_jobj *o)
{
    struct mb_jobj inner;
    char *text;

    mb_jobj_init(&inner);
    each_setting(s, cfg, setting_field, &inner);
    text = mb_jobj_take(&inner);
    mb_jobj_raw(o, "settings", text);
    free(text);
}

void mb_json_header(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "header");
    mb_jobj_str(&o, "suite", ctx->suite->legacy ? ctx->suite->legacy : ctx->suite->name);
    mb_jobj_str(&o, "command_line", cfg->cmdline);
    mb_provenance_json(ctx->prov, &o);
    mb_jobj_bool(&o, "check_mode", cfg->common.check);
    mb_settings_json(ctx->suite, cfg, &o);
    mb_jobj_write(&o, ctx->json);
}

void mb_json_summary(const struct mb_ctx *ctx, int status, long long rows, long long defects,
                     double seconds, unsigned long long peak_rss)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "summary");
    mb_jobj_int(&o, "exit_status", status);
    mb_jobj_int(&o, "rows", rows);
    mb_jobj_int(&o, "defects", defects);
    mb_jobj_num(&o, "elapsed_sec", seconds);
    mb_jobj_int(&o, "peak_rss_bytes", (long long)peak_rss);
    mb_jobj_write(&o, ctx->json);
}
