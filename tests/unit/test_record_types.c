/* SPDX-License-Identifier: BSD-3-Clause */
/* The results tools' table of record types (src/results/record_types.c) against the schema
 * of the records (docs/results.schema.json, the first argument): every record type has one
 * row and every row one type; every field a row reads is a property of its type (a misspelt
 * field would silently compare, plot or headline nothing); every plot page a row draws into
 * exists and is drawn into; the headline keys are job_result's fields; b_eff_io's chunk axis
 * is the one b_eff_io's own plot files use. */
#include "beffio/beffio.h"
#include "results/headline.h"
#include "results/record_types.h"
#include "unit.h"

static const json_t *props; /* the schema's definitions */

/* 1 when field is a property of the schema's definition of type. */
static int has(const char *type, const char *field)
{
    const json_t *p =
        json_object_get(json_object_get(json_object_get(props, type), "properties"), field);
    if (!p)
        fprintf(stderr, "field '%s' is not a property of record type '%s'\n", field, type);
    return p != NULL;
}

static void check_conds(const char *type, const struct mb_rt_cond *c, int n)
{
    for (int i = 0; i < n && c[i].field; i++) {
        EXPECT(has(type, c[i].field));
        EXPECT(c[i].test >= MB_RT_IS && c[i].test <= MB_RT_INT_AT_LEAST);
    }
}

static void check_parts(const char *type, const struct mb_rt_part *p)
{
    for (int i = 0; i < MB_RT_PARTS && p[i].kind; i++)
        if (p[i].kind != MB_RT_TEXT)
            EXPECT(p[i].field && has(type, p[i].field));
}

static const struct mb_rt_page *page(const char *name)
{
    for (size_t i = 0; i < mb_rt_page_count; i++)
        if (strcmp(mb_rt_pages[i].name, name) == 0)
            return &mb_rt_pages[i];
    return NULL;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* 1 when two lists of conditions are the same (so that both figures hold on one record). */
static int same_when(const struct mb_rt_cond *a, const struct mb_rt_cond *b)
{
    for (int i = 0; i < MB_RT_CONDS; i++) {
        if (!a[i].field || !b[i].field)
            return !a[i].field && !b[i].field;
        if (!same_text(a[i].field, b[i].field) || a[i].test != b[i].test ||
            !same_text(a[i].value, b[i].value) || a[i].num != b[i].num)
            return 0;
    }
    return 1;
}

static void check_row(const struct mb_record_type *t, int *drawn)
{
    const char *ty = t->type;

    EXPECT(json_object_get(props, ty) != NULL);
    check_parts(ty, t->name);
    check_parts(ty, t->at);
    for (int f = 0; f < MB_RT_FIGURES && t->figures[f].field; f++) {
        const struct mb_rt_figure *g = &t->figures[f];
        const char *const more[] = {g->field_else, g->samples, g->per};
        EXPECT(has(ty, g->field));
        EXPECT(g->unit && (g->better == MB_RT_LOWER || g->better == MB_RT_HIGHER));
        EXPECT(!t->provenance);
        for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
            EXPECT(!more[i] || has(ty, more[i]));
        EXPECT(!g->samples == !g->per);
        check_conds(ty, g->when, MB_RT_CONDS);
        /* compare names a measurement by the figure's name, the record's name and its place,
         * and keeps the first of two equal names: two figures of one record type under the
         * same conditions need names of their own, or only the first is compared (b_eff_io's
         * definitions share names under conditions that exclude each other). */
        for (int e = 0; e < f; e++)
            if (same_when(g->when, t->figures[e].when))
                EXPECT(strcmp(g->name ? g->name : "",
                              t->figures[e].name ? t->figures[e].name : "") != 0);
    }
    for (int k = 0; k < MB_RT_PLOTS && t->plots[k].page; k++) {
        const struct mb_rt_plot *d = &t->plots[k];
        const struct mb_rt_page *pg = page(d->page);
        EXPECT(pg != NULL);
        if (pg)
            drawn[pg - mb_rt_pages] = 1;
        EXPECT(has(ty, d->x));
        EXPECT(d->kind == MB_RT_ARRAYS ? d->arrays[0].field != NULL : has(ty, d->y));
        EXPECT((d->kind == MB_RT_POSITIONS) == (pg && pg->axis));
        if (pg && pg->axis)
            EXPECT(has(ty, pg->axis->last_field));
        for (int a = 0; a < MB_RT_SERIES && d->arrays[a].field; a++)
            EXPECT(has(ty, d->arrays[a].field) && d->arrays[a].title);
        check_conds(ty, d->when, MB_RT_CONDS);
        /* The panel, series and name parts read fields of the record type. */
        check_parts(ty, d->panel);
        check_parts(ty, d->series);
        check_parts(ty, d->name);
        if (d->join.type) {
            EXPECT(has(ty, d->join.field) && has(d->join.type, d->join.field));
            check_conds(d->join.type, &d->join.cond, 1);
        }
        if (d->only.type)
            EXPECT(has(ty, d->only.field) && has(d->only.type, d->only.field));
    }
    for (int h = 0; h < MB_RT_HEADLINES && t->headlines[h].label; h++) {
        const struct mb_rt_headline *d = &t->headlines[h];
        EXPECT(has(ty, d->field) && d->unit);
        EXPECT(has("job_result", d->key));
        EXPECT(d->pick >= MB_RT_LAST && d->pick <= MB_RT_LARGEST);
        EXPECT((d->pick == MB_RT_LEAST_BY || d->pick == MB_RT_MOST_BY) == (d->by != NULL));
        EXPECT(!d->by || has(ty, d->by));
        EXPECT(!d->absent || has(ty, d->absent));
        check_conds(ty, d->when, MB_RT_CONDS);
        check_parts(ty, d->detail);
        for (int n = 0; n < 2 && d->notes[n].text; n++)
            check_conds(ty, &d->notes[n].when, 1);
    }
}

/* b_eff_io's chunk axis in the table is the one of b_eff_io's own .plot/.gps files
 * (mb_bio_position_x, mb_bio_xtics in src/beffio/beffio_table.c). */
static void test_beffio_axis(void)
{
    const struct mb_rt_page *pg = page("beffio_write");
    char want[160], got[160] = "(";

    EXPECT(pg && pg->axis);
    if (!pg || !pg->axis)
        return;
    EXPECT_EQ_LL(pg->axis->n, MB_BIO_POSITIONS);
    for (int p = 1; p <= MB_BIO_POSITIONS && p <= pg->axis->n; p++) {
        EXPECT_EQ_LL(pg->axis->x[p - 1], mb_bio_position_x(p));
        snprintf(got + strlen(got), sizeof got - strlen(got), "'%s' %d%s",
                 p < pg->axis->n ? pg->axis->tic[p - 1] : "16M", pg->axis->x[p - 1],
                 p < pg->axis->n ? ", " : ")");
    }
    mb_bio_xtics(want, sizeof want, "16M");
    EXPECT(strcmp(got, want) == 0);
}

int main(int argc, char **argv)
{
    json_error_t err;
    json_t *schema = argc > 1 ? json_load_file(argv[1], 0, &err) : NULL;
    int drawn[64] = {0}, headlines = 0;
    const char *name;
    json_t *v;

    if (!schema) {
        fprintf(stderr, "usage: test_record_types docs/results.schema.json\n");
        return 2;
    }
    props = json_object_get(schema, "definitions");
    EXPECT(json_object_size(props) > 0);
    /* One row per record type, and no row for a type the suites do not write. A record type is
     * a definition with a "type" property; the others (schema_version, run_id, suite) are the
     * fields every record type refers to. */
    size_t types = 0;
    json_object_foreach((json_t *)props, name, v)
    {
        if (!json_object_get(json_object_get(v, "properties"), "type"))
            continue;
        types++;
        json_t *o = json_pack("{ss}", "type", name);
        const struct mb_record_type *t = mb_rt_of(o);
        EXPECT(t != NULL && strcmp(t->type, name) == 0);
        if (!t)
            fprintf(stderr, "record type '%s' has no row\n", name);
        json_decref(o);
    }
    EXPECT(types > 0 && mb_record_type_count == types);
    EXPECT(mb_rt_page_count <= sizeof drawn / sizeof drawn[0]);
    for (size_t i = 0; i < mb_record_type_count; i++) {
        check_row(&mb_record_types[i], drawn);
        for (int h = 0; h < MB_RT_HEADLINES && mb_record_types[i].headlines[h].label; h++)
            headlines++;
    }
    for (size_t i = 0; i < mb_rt_page_count; i++)
        EXPECT(drawn[i]);
    EXPECT(headlines > 0 && headlines <= MB_HL_MAX);
    test_beffio_axis();
    json_decref(schema);
    return unit_report("test_record_types");
}
