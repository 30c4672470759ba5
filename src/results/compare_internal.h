/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of mpibench compare (results/compare.h) shared by its files: the measurements of
 * one run (compare_measures.c), the groups' checks (compare_group.c), the decisions
 * (compare.c) and the printers (compare_print.c). */
#ifndef MB_COMPARE_INTERNAL_H
#define MB_COMPARE_INTERNAL_H

#include "results/compare.h"
#include "results/runstats.h"

#include <jansson.h>
#include <stddef.h>

/* One side of a measurement in one run: the figure, and what the row says about its spread
 * over K samples (--samples K; "sample_count" absent in older files: one sample). */
struct side {
    double value;             /* the figure the suite prints (scaled to the unit) */
    long long k;              /* samples */
    double median, lo, hi;    /* the median and its interval, NAN without */
    double coverage;          /* the interval's ("ci95_coverage"; below 0.95 for K <= 5) */
    size_t samples, nsamples; /* the raw samples: pool[samples .. samples + nsamples) */
};

/* One comparable number of a record: what it is (the key: suite, benchmark, mode, process
 * count, size), its family (the key without the size: the figure's and the record's name) and
 * its side. Provenance (header records: dates, hosts, versions) is never compared. */
struct measure {
    char key[200];
    char family[160];
    const char *unit;
    int higher_better;
    int file_io;  /* judged by the file-I/O threshold */
    double bytes; /* the record's size, NAN without */
    struct side s;
};

/* The measurements of one results file. index: key -> position in m (a jansson object as a
 * hash table), so that extracting and pairing are linear in the number of measurements. */
struct measures {
    struct measure *m;
    size_t n, cap;
    json_t *index;
    double *pool; /* every row's raw samples */
    size_t npool, cappool;
};

/* The measurements of the records r into ms (ms zeroed, its index made here). */
void mb_cmp_extract(const struct mb_records *r, struct measures *ms);
void mb_cmp_measures_free(struct measures *ms);

/* The value one run gives a measurement: the median of its samples where the row has one, else
 * its figure (docs/adr/compare-runs.md). */
double mb_cmp_run_value(const struct measure *m);

/* 0 when the runs r[0..n) of one group (called what: "base", "new") may be compared as
 * replicates: no file twice, and the same suites with the same process counts and settings
 * (those of struct mb_option's per_run aside). Else -1 and why in msg. */
int mb_cmp_group_check(const struct mb_records *r, size_t n, const char *what, char *msg,
                       size_t len);

enum mb_cmp_test {
    MB_CMP_SINGLE, /* one sample a side: the noise band */
    MB_CMP_CI,     /* disjoint 95 % intervals of the median within each run */
    MB_CMP_MWU,    /* the U test on the samples within each run */
    MB_CMP_RUNS,   /* across runs: mb_across's test */
    MB_CMP_BAND,   /* one run a side, a family or the overall: the threshold alone */
};

enum mb_cmp_verdict {
    MB_V_UNCHANGED,
    MB_V_REGRESSED,
    MB_V_IMPROVED,
    MB_V_UNCERTAIN, /* beyond the threshold, but its test did not reach its level */
    MB_V_NOT_COMPARABLE,
    MB_V_ONLY_BASE,
    MB_V_ONLY_NEW,
    MB_V_COUNT
};

struct mb_cmp_decision {
    enum mb_cmp_test test;
    struct mb_across across; /* MB_CMP_RUNS */
    double ratio, lo, hi;    /* > 1: the new runs are worse; lo, hi: NAN without an interval */
    double coverage;         /* of [lo, hi] */
    double p;                /* the test's two-sided p-value, else NAN */
    double level;            /* the level its p had to be below (the gate's for families) */
    double threshold_pct;    /* what it was judged by */
    int exact, significant;
    enum mb_cmp_verdict verdict;
};

struct mb_cmp_row {
    const struct measure *m;     /* the first run's that has it (base first) */
    const struct measure *b, *c; /* the first base and new run's, NULL where absent */
    size_t have_b, have_c;       /* runs of each group that measured it */
    double vb, vc;               /* shown: each group's median of its runs' values */
    long family;                 /* index into families, -1: not in one (not compared) */
    size_t seq;                  /* the order of the files: the first run's keys first */
    char why[96];                /* why not comparable */
    struct mb_cmp_decision d;
};

struct mb_cmp_family {
    char name[160];
    const char *unit;
    int higher_better, file_io;
    size_t rows; /* compared rows */
    double *g;   /* per run (base runs, then new runs): the mean oriented log value */
    struct mb_cmp_decision d;
};

struct mb_comparison {
    char **base_paths, **new_paths;
    size_t nb, nc;               /* runs a side */
    struct mb_compare_opts opts; /* the thresholds resolved for the form */
    int single;                  /* one run a side */
    struct measures *runs;       /* nb + nc: the base runs, then the new runs */
    struct mb_cmp_row *row;
    size_t nrow;
    struct mb_cmp_family *fam;
    size_t nfam;
    struct mb_cmp_decision overall;
    size_t overall_families;
    size_t tested_families; /* the families the gate adjusts for (a test over runs, a p) */
    double smallest_p;      /* the smallest p their test can give with these runs */
    double family_level;    /* the level of the gate's first family step */
    size_t count[MB_V_COUNT];
    size_t fam_count[MB_V_COUNT];
};

/* The verdict from d's significance and ratio against pct (significant and beyond). */
void mb_cmp_judge(struct mb_cmp_decision *d, double pct);

/* The exit status's tests, after the families and the overall were decided: with runs tested
 * across, OVERALL and the families together share alpha (a sequentially rejective Bonferroni
 * procedure), so that a machine that did not change fails at most alpha of its comparisons,
 * whatever the number of families (compare_gate.c; docs/adr/compare-runs.md). Then counts
 * the families' verdicts. */
void mb_cmp_gate(struct mb_comparison *c);

extern const char *const mb_cmp_verdict_text[MB_V_COUNT];
extern const char *const mb_cmp_verdict_json[MB_V_COUNT];

/* The test's short text for the tables ("U p=0.0079", "t p=0.03", "CI apart", "1 sample")
 * and its JSON name. */
void mb_cmp_test_text(const struct mb_cmp_decision *d, char *buf, size_t len);
const char *mb_cmp_test_json(const struct mb_cmp_decision *d);

#endif
