/* SPDX-License-Identifier: BSD-3-Clause */
/* The runs of one group of mpibench compare are replicates of one measurement: the same suites
 * with the same process counts and settings, each file once. Runs that differ are refused, so
 * that a group never mixes, say, a --quick run into full ones and calls their difference
 * noise (docs/adr/compare-runs.md). Across the groups anything may differ: that is what is
 * compared. */
#include "results/compare_internal.h"

#include "core/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A suite's header record of a run (the first of that suite), or NULL. */
static const json_t *header_of(const struct mb_records *r, const char *suite)
{
    for (size_t i = 0; i < r->n; i++)
        if (mb_rec_is(r->rec[i], "header") && mb_rec_str(r->rec[i], "suite") &&
            strcmp(mb_rec_str(r->rec[i], "suite"), suite) == 0)
            return r->rec[i];
    return NULL;
}

/* The setting's value as text (settings are strings; anything else is shown as JSON). */
static void value_text(const json_t *v, char *buf, size_t len)
{
    char *s;

    if (!v) {
        snprintf(buf, len, "(not set)");
        return;
    }
    if (json_is_string(v)) {
        snprintf(buf, len, "%s", json_string_value(v));
        return;
    }
    s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(buf, len, "%s", s ? s : "?");
    free(s);
}

/* 0 when a's and b's settings agree but for those that may differ from run to run; else -1
 * with the first that differs. */
static int settings_differ(const char *suite, const json_t *a, const json_t *b, char *name,
                           size_t nlen, char *va, char *vb, size_t vlen)
{
    const char *key;
    const json_t *v;

    for (int pass = 0; pass < 2; pass++) {
        const json_t *x = pass ? b : a, *y = pass ? a : b;
        json_object_foreach((json_t *)x, key, v)
        {
            const json_t *w = json_object_get(y, key);
            if (mb_suite_setting_per_run(suite, key) || (w && json_equal(v, w)))
                continue;
            snprintf(name, nlen, "%s", key);
            value_text(pass ? w : v, va, vlen);
            value_text(pass ? v : w, vb, vlen);
            return -1;
        }
    }
    return 0;
}

/* The first header of r that a's run has no counterpart for, or that differs from it. */
static int runs_differ(const struct mb_records *a, const struct mb_records *b, char *msg,
                       size_t len)
{
    for (int pass = 0; pass < 2; pass++) {
        const struct mb_records *x = pass ? b : a, *y = pass ? a : b;
        for (size_t i = 0; i < x->n; i++) {
            const json_t *h = x->rec[i], *g;
            const char *suite = mb_rec_str(h, "suite");
            char name[80], va[160], vb[160];

            if (!mb_rec_is(h, "header") || !suite || header_of(x, suite) != h)
                continue;
            g = header_of(y, suite);
            if (!g) {
                snprintf(msg, len, "'%s' ran %s, '%s' did not", x->path, suite, y->path);
                return -1;
            }
            if (pass)
                continue;
            if (mb_rec_int(h, "processes", -1) != mb_rec_int(g, "processes", -1)) {
                snprintf(msg, len, "'%s' ran %s on %lld processes, '%s' on %lld", a->path, suite,
                         mb_rec_int(h, "processes", -1), b->path, mb_rec_int(g, "processes", -1));
                return -1;
            }
            if (settings_differ(suite, json_object_get(h, "settings"),
                                json_object_get(g, "settings"), name, sizeof name, va, vb,
                                sizeof va)) {
                snprintf(msg, len, "'%s' ran %s with %s '%s', '%s' with '%s'", a->path, suite, name,
                         va, b->path, vb);
                return -1;
            }
        }
    }
    return 0;
}

/* The run id of the first header, or NULL. */
static const char *run_id(const struct mb_records *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (mb_rec_is(r->rec[i], "header") && mb_rec_str(r->rec[i], "run_id"))
            return mb_rec_str(r->rec[i], "run_id");
    return NULL;
}

int mb_cmp_group_check(const struct mb_records *r, size_t n, const char *what, char *msg,
                       size_t len)
{
    char why[900];

    for (size_t i = 1; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            const char *a = run_id(&r[j]), *b = run_id(&r[i]);
            if (strcmp(r[i].path, r[j].path) == 0) {
                snprintf(msg, len, "'%s' is given twice among the %s runs: each run counts once",
                         r[i].path, what);
                return -1;
            }
            if (a && b && strcmp(a, b) == 0) {
                snprintf(msg, len,
                         "'%s' and '%s' are the same run (run id %s) among the %s runs: each run "
                         "counts once",
                         r[j].path, r[i].path, a, what);
                return -1;
            }
        }
    for (size_t i = 1; i < n; i++)
        if (runs_differ(&r[0], &r[i], why, sizeof why) != 0) {
            snprintf(msg, len,
                     "the %s runs differ: %s; the runs of a group must repeat the same "
                     "measurement (suites, process counts, settings)",
                     what, why);
            return -1;
        }
    return 0;
}
