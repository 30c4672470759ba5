/* SPDX-License-Identifier: BSD-3-Clause */
/* The suite table, and the settings and JSON header/summary records every suite prints (the
 * options every suite accepts are common_options.c's). */
#include "core/suite.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* --help and --version are requests, not settings of the run. */
static int is_action(const struct mb_option *o)
{
    return o->kind == MB_OPT_FLAG && o->block == MB_IN_COMMON &&
           (o->offset == offsetof(struct mb_common_config, help) ||
            o->offset == offsetof(struct mb_common_config, version));
}

/* The table is the program's (src/program.c), a floor above this one, which knows no suite. */
size_t mb_suite_count(void)
{
    return mb_program.n_suites;
}

const struct mb_suite *mb_suite_at(size_t i)
{
    return mb_program.suites[i];
}

int mb_suite_find(const char *word, int by_legacy)
{
    for (size_t i = 0; i < mb_program.n_suites; i++) {
        const struct mb_suite *s = mb_program.suites[i];
        const char *name = by_legacy ? s->legacy : s->name;
        if (name && strcmp(name, word) == 0)
            return (int)i;
    }
    return -1;
}

size_t mb_suite_option_sets(const struct mb_suite *s, struct mb_option_set sets[MB_MAX_SETS])
{
    size_t n = 0;

    for (size_t k = 0; s->settings && k < MB_MAX_SETS - 1 && s->settings->sets[k]; k++)
        sets[n++] = *s->settings->sets[k];
    sets[n++] = (struct mb_option_set){mb_common_options, mb_n_common_options, 0};
    return n;
}

int mb_suite_setting_per_run(const char *suite, const char *option)
{
    struct mb_option_set sets[MB_MAX_SETS];
    int i = mb_suite_find(suite, 0);
    size_t n;

    if (i < 0)
        i = mb_suite_find(suite, 1);
    if (i < 0)
        return 0;
    n = mb_suite_option_sets(mb_suite_at((size_t)i), sets);
    for (size_t k = 0; k < n; k++)
        for (size_t r = 0; r < sets[k].n; r++)
            if (sets[k].rows[r].name && strcmp(sets[k].rows[r].name, option) == 0)
                return sets[k].rows[r].per_run;
    return 0;
}

/* Calls fn(user, name, value) for every setting of the suite, in table order. */
static void each_setting(const struct mb_suite *s, const struct mb_config *cfg,
                         void (*fn)(void *user, const char *name, const char *value), void *user)
{
    struct mb_option_set sets[MB_MAX_SETS];
    size_t n = mb_suite_option_sets(s, sets);

    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sets[k].n; i++) {
            char value[256];
            if (!sets[k].rows[i].name || sets[k].rows[i].kind == MB_OPT_REFUSED ||
                is_action(&sets[k].rows[i]))
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
    mb_jobj_begin(&o, "header", ctx->json);
    mb_jobj_str(&o, "command_line", cfg->cmdline);
    mb_provenance_json(ctx->prov, &o);
    mb_jobj_bool(&o, "check_mode", cfg->common.check);
    mb_settings_json(ctx->suite, cfg, &o);
    mb_jobj_write(&o, ctx->json);
}
