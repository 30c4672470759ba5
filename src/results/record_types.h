/* SPDX-License-Identifier: BSD-3-Clause */
/* One description per JSON record type (docs/results.schema.json): which fields name a
 * measurement, which are its figures (unit, which direction is better), how it is plotted and
 * whether it gives a headline number. compare, plot, the headlines and the HTML page read these
 * rows and know fields, not benchmarks (as Google Benchmark's tools/gbench/report.py compares
 * whatever benchmarks a file holds); adding a record type is one row in record_types.c
 * (docs/adr/results-record-types.md, docs/adding-a-suite.md). */
#ifndef MB_RECORD_TYPES_H
#define MB_RECORD_TYPES_H

#include <jansson.h>
#include <stddef.h>

enum {
    MB_RT_CONDS = 6,     /* conditions of one figure, plot or headline */
    MB_RT_PARTS = 6,     /* parts of one text (a name, a detail) */
    MB_RT_FIGURES = 4,   /* figures of one record type */
    MB_RT_PLOTS = 6,     /* plots one record type draws into */
    MB_RT_SERIES = 3,    /* series of one record's arrays (MB_RT_ARRAYS) */
    MB_RT_HEADLINES = 6, /* headline numbers of one record type (levels: 3 levels x 2) */
    MB_RT_TICS = 8       /* positions of a position axis */
};

/* A test of one field of a record. Absent fields and fields of another JSON type fail every
 * test but MB_RT_IS_NOT, MB_RT_NOT_INT and MB_RT_NOT_TRUE. */
enum mb_rt_test {
    MB_RT_IS = 1,       /* a string equal to value */
    MB_RT_IS_NOT,       /* absent, or anything but the string value */
    MB_RT_OTHER_THAN,   /* a string other than value */
    MB_RT_ONE_OF,       /* a string among value's words, separated by '|' */
    MB_RT_HAS,          /* a string */
    MB_RT_NUMBER,       /* a number */
    MB_RT_NOT_INT,      /* absent, or not an integer */
    MB_RT_TRUE,         /* true */
    MB_RT_NOT_TRUE,     /* absent, or anything but true */
    MB_RT_INT_IS,       /* an integer equal to num */
    MB_RT_INT_AT_LEAST, /* an integer of at least num */
};

/* A list of conditions ends at the first without a field; all must hold. */
struct mb_rt_cond {
    const char *field;
    enum mb_rt_test test;
    const char *value;
    long long num;
};

/* Texts made of a record's fields (a measurement's name, a headline's detail). A list ends at
 * the first part of kind 0. */
enum mb_rt_part_kind {
    MB_RT_TEXT = 1, /* before */
    MB_RT_STR,      /* before, the string (or "?"), after */
    MB_RT_STR_IF,   /* before, the string, after - or nothing when there is no string */
    MB_RT_INT,      /* before, the integer (0 when absent), after */
    MB_RT_INT_IF,   /* before, the integer, after - or nothing unless an integer >= 0 */
    MB_RT_FLAG,     /* before when the field is true, else nothing */
};

struct mb_rt_part {
    enum mb_rt_part_kind kind;
    const char *field, *before, *after;
};

enum mb_rt_better { MB_RT_LOWER = 1, MB_RT_HIGHER };

/* One comparable number of a record. Its measurement is called name, then the record type's
 * name and at parts ("b_eff at L_max" ", 4 procs"); two runs are compared measurement by
 * measurement. Its spread over samples is read from the fields named after field (F_median,
 * F_ci95_low, F_ci95_high, F_samples: --samples K), or from a record type's own array of
 * samples of the field per, scaled to the figure as figure / per (Presta: the samples are
 * seconds per measurement, the figure usec per operation). The spread over processes (t_min,
 * t_max) is no spread of the figure between runs and is not read
 * (docs/adr/compare-runs.md). */
struct mb_rt_figure {
    const char *name;
    const char *field, *field_else; /* field_else: used when field is not a number */
    const char *unit;               /* as compare prints it */
    enum mb_rt_better better;
    double scale;              /* field's unit to unit (seconds to usec: 1e6); 0: 1 */
    const char *samples, *per; /* an array of samples of field per, or NULL */
    struct mb_rt_cond when[MB_RT_CONDS];
};

/* How a record type draws into a plot (a page of mb_rt_pages, by name):
 * MB_RT_POINTS: one point per record, (x, y) fields, the series named by the type's name parts;
 * MB_RT_ARRAYS: every array of arrays[] against the array x, one series each;
 * MB_RT_POSITIONS: one point per record at the page axis's place of the field x. */
enum mb_rt_plot_kind { MB_RT_POINTS = 1, MB_RT_ARRAYS, MB_RT_POSITIONS };

/* everywhere: the series is drawn in every panel of its page, as a thin line without markers
 * in its own colour, so that each small multiple has the same line to be read against (b_eff
 * in each of b_eff's pattern panels). */
struct mb_rt_series {
    const char *field, *title;
    int everywhere;
};

struct mb_rt_plot {
    const char *page;
    enum mb_rt_plot_kind kind;
    const char *x, *y;
    struct mb_rt_cond when[MB_RT_CONDS];
    int keep_max; /* of the points at one x only the largest is kept */
    /* Small multiples: the panel of the page a record's series is drawn in (none: the page's
     * one panel), and the series' name within it, which gives its colour and marker on the
     * whole page (none: the record type's name). A collective's panel is its benchmark, its
     * series the process count: one line per process count, the same colour for a count in
     * every panel. name: the series' whole name in the .dat (none: the record type's name),
     * where the record type's name says more than one series holds (the process count of a
     * series drawn against the process count). */
    struct mb_rt_part panel[MB_RT_PARTS];
    struct mb_rt_part series[MB_RT_PARTS];
    struct mb_rt_part name[MB_RT_PARTS];
    /* Only the records whose join.field names a record of type join.type (the last one with
     * that value of the field) for which join.cond holds: b_eff's additional patterns. */
    struct {
        const char *type, *field;
        struct mb_rt_cond cond;
    } join;
    /* Only the records whose integer field only.field equals that of the last record of type
     * only.type - or, without one (a run cut before it), that of the first record of this
     * type. */
    struct {
        const char *field, *type;
    } only;
    struct mb_rt_series arrays[MB_RT_SERIES];
};

/* A position axis: position p (1..n) of a record is drawn at x[p-1] and its tic is called
 * tic[p-1]; the last tic is last_field of the record at the last position in MiB ("%.4gM"),
 * or last_name when no record was there. */
struct mb_rt_axis {
    int n;
    int x[MB_RT_TICS];
    const char *tic[MB_RT_TICS];
    const char *last_field, *last_name;
};

/* A plot: one .dat/.png/.svg per page, in this order in plots.gp and on index.html. axis NULL:
 * x is a size on a logarithmic axis (or a count, x_count). */
struct mb_rt_page {
    const char *name, *title, *xlabel, *ylabel;
    const struct mb_rt_axis *axis;
    int linear_y; /* a linear value axis from 0 (a percentage), not a logarithmic one */
    int x_count;  /* x is a count (processes): a base-2 axis with a tic at every value */
};

/* How a headline number is chosen among the records that pass when. */
enum mb_rt_pick {
    MB_RT_LAST = 1, /* the last one */
    MB_RT_LEAST_BY, /* the first at the smallest integer by */
    MB_RT_MOST_BY,  /* the first at the largest integer by */
    MB_RT_LARGEST,  /* the first with the largest finite value */
};

struct mb_rt_note {
    struct mb_rt_cond when;
    const char *text;
};

/* A headline number (summary.txt, index.html, the main job's job_result record under key). */
struct mb_rt_headline {
    const char *label, *unit, *key, *field;
    enum mb_rt_pick pick;
    const char *by;
    struct mb_rt_cond when[MB_RT_CONDS];
    struct mb_rt_part detail[MB_RT_PARTS]; /* where it comes from */
    struct mb_rt_note notes[2];            /* appended when their condition holds */
    /* Optional: a string field of a record that holds `when` but no value, saying why (levels'
     * "why": one socket per host); the headline then reads "not present: WHY". */
    const char *absent;
};

struct mb_record_type {
    const char *type;       /* the record's "type" */
    const char *written_by; /* the suites that write it (documentation) */
    int provenance;         /* where the results come from (host, date): never compared */
    /* The records that measure file I/O (the condition holds; none when it names no field):
     * their run-to-run noise is the file system's and its cache's, larger than that of
     * communication, so compare judges them by its file-I/O threshold
     * (docs/adr/compare-runs.md). */
    struct mb_rt_cond file_io;
    struct mb_rt_part name[MB_RT_PARTS]; /* what is measured: the series of a plot */
    struct mb_rt_part at[MB_RT_PARTS];   /* where: size, group, repetition */
    struct mb_rt_figure figures[MB_RT_FIGURES];
    struct mb_rt_plot plots[MB_RT_PLOTS];
    struct mb_rt_headline headlines[MB_RT_HEADLINES]; /* in table order: the headline order */
};

extern const struct mb_record_type mb_record_types[];
extern const size_t mb_record_type_count;
extern const struct mb_rt_page mb_rt_pages[];
extern const size_t mb_rt_page_count;

/* The row of o's "type", or NULL for a type no row describes. */
const struct mb_record_type *mb_rt_of(const json_t *o);

/* 1 when o is a record of t that measures file I/O (t->file_io). */
int mb_rt_file_io(const json_t *o, const struct mb_record_type *t);

/* 1 when every condition of the list holds for o. */
int mb_rt_holds(const json_t *o, const struct mb_rt_cond *when);
int mb_rt_holds_one(const json_t *o, const struct mb_rt_cond *c);

/* Appends the parts' text for o to the string in buf (cut at len - 1 characters). */
void mb_rt_text(char *buf, size_t len, const json_t *o, const struct mb_rt_part *parts);

#endif
