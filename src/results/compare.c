#include "results/compare.h"

#include "core/report_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One comparable number of a record: what it is (the key: suite, benchmark, mode, process
 * count, size), its value, and the spread the run itself saw around it (lo..hi; equal to
 * the value when the record has none). Provenance (header records: dates, hosts, versions)
 * is never compared. */
struct measure {
    char key[200];
    const char *unit;
    double value, lo, hi;
    int higher_better;
};

/* index: key -> position in m (a jansson object as a hash table), so that extracting and
 * pairing are linear in the number of measurements, not quadratic. */
struct measures {
    struct measure *m;
    size_t n, cap;
    json_t *index;
};

static struct measure *push(struct measures *ms)
{
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 256;
        ms->m = mb_rs_alloc(ms->m, ms->cap, sizeof *ms->m);
    }
    memset(&ms->m[ms->n], 0, sizeof ms->m[0]);
    return &ms->m[ms->n++];
}

static void add(struct measures *ms, const char *key, const char *unit, double v, double lo,
                double hi, int higher_better)
{
    struct measure *m;

    if (!isfinite(v))
        return;
    m = push(ms);
    snprintf(m->key, sizeof m->key, "%s", key);
    if (json_object_get(ms->index, m->key)) { /* a key measured twice: the first one counts */
        ms->n--;
        return;
    }
    mb_rs_index_set(ms->index, m->key, (long long)(ms->n - 1));
    m->unit = unit;
    m->value = v;
    m->lo = isfinite(lo) ? fmin(lo, v) : v;
    m->hi = isfinite(hi) ? fmax(hi, v) : v;
    m->higher_better = higher_better;
}

static const char *s_or(const json_t *o, const char *key, const char *dflt)
{
    const char *s = mb_rec_str(o, key);
    return s ? s : dflt;
}

static void extract(const struct mb_records *r, struct measures *ms)
{
    char k[200];

    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long np = mb_rec_int(o, "processes", 0);

        if (mb_rec_is(o, "result")) { /* IMB-MPI1, IMB-EXT, IMB-IO */
            const char *st = mb_rec_str(o, "status"), *mode = mb_rec_str(o, "mode");
            const long long bytes = mb_rec_int(o, "bytes", -1), group = mb_rec_int(o, "group", -1);
            char sz[32] = "", grp[32] = "";
            if (!st || strcmp(st, "ok") != 0)
                continue;
            if (bytes >= 0)
                snprintf(sz, sizeof sz, ", %lld bytes", bytes);
            if (group >= 0)
                snprintf(grp, sizeof grp, " group %lld", group);
            snprintf(k, sizeof k, "%s %s%s%s%s, %lld procs%s%s", s_or(o, "suite", "?"),
                     json_is_true(json_object_get(o, "multi")) ? "Multi-" : "",
                     s_or(o, "benchmark", "?"), mode ? " " : "", mode ? mode : "", np, grp, sz);
            add(ms, k, "usec", mb_rec_num(o, "t_avg_usec"), mb_rec_num(o, "t_min_usec"),
                mb_rec_num(o, "t_max_usec"), 0);
        } else if (mb_rec_is(o, "presta_row")) {
            /* com, laten, rma: the time per operation the program prints (laten's latency,
             * com's and rma's op time); the samples' spread scaled from per measurement. */
            const json_t *s = json_object_get(o, "samples_sec");
            const double t = mb_rec_num(o, "time_sec");
            double op = mb_rec_num(o, "latency_us"), lo = NAN, hi = NAN, per;
            if (!isfinite(op))
                op = mb_rec_num(o, "op_time_us");
            per = isfinite(op) && t > 0 ? op / t : 1e6; /* usec per second of measurement */
            for (size_t j = 0; j < json_array_size(s); j++) {
                const double v = json_number_value(json_array_get(s, j));
                lo = j ? fmin(lo, v) : v;
                hi = j ? fmax(hi, v) : v;
            }
            snprintf(k, sizeof k, "%s %s, %lld procs, %lld bytes", s_or(o, "program", "?"),
                     s_or(o, "test", "?"), np, mb_rec_int(o, "size_bytes", 0));
            add(ms, k, "usec", t * per, lo * per, hi * per, 0);
        } else if (mb_rec_is(o, "presta_allred")) {
            snprintf(k, sizeof k, "allred Allreduce, %lld procs, %lld bytes", np,
                     mb_rec_int(o, "message_bytes", 0));
            add(ms, k, "usec", mb_rec_num(o, "op_mean_us"), NAN, NAN, 0);
        } else if (mb_rec_is(o, "presta_globalop")) {
            snprintf(k, sizeof k, "globalop %s, %lld procs, repetition %lld",
                     s_or(o, "section", "?"), np, mb_rec_int(o, "repetition", 0));
            add(ms, k, "usec", mb_rec_num(o, "avg_sec") * 1e6, mb_rec_num(o, "min_sec") * 1e6,
                mb_rec_num(o, "max_sec") * 1e6, 0);
        } else if (mb_rec_is(o, "beff_result")) {
            snprintf(k, sizeof k, "b_eff, %lld procs", np);
            add(ms, k, "MB/s", mb_rec_num(o, "b_eff_mbytes_per_sec"), NAN, NAN, 1);
            snprintf(k, sizeof k, "b_eff at L_max, %lld procs", np);
            add(ms, k, "MB/s", mb_rec_num(o, "b_eff_at_lmax_mbytes_per_sec"), NAN, NAN, 1);
        } else if (mb_rec_is(o, "beffio_type")) {
            snprintf(k, sizeof k, "b_eff_io %s %s, %lld procs", s_or(o, "access", "?"),
                     s_or(o, "pattern_type", "?"), np);
            add(ms, k, "MB/s", mb_rec_num(o, "weighted_mbytes_per_sec"), NAN, NAN, 1);
        } else if (mb_rec_is(o, "beffio_result")) {
            /* Each definition under its own name (docs/adr/program-beffio-headline.md): a file
             * of older mpibench, whose value was the weighted one, is never set against
             * release 2.1's value. */
            const char *def = mb_rec_str(o, "definition");
            if (def && strcmp(def, "release21") == 0) {
                snprintf(k, sizeof k, "b_eff_io, %lld procs", np);
                add(ms, k, "MB/s", mb_rec_num(o, "b_eff_io_mbytes_per_sec"), NAN, NAN, 1);
                snprintf(k, sizeof k, "b_eff_io weighted, %lld procs", np);
                add(ms, k, "MB/s", mb_rec_num(o, "weighted_mbytes_per_sec"), NAN, NAN, 1);
            } else {
                snprintf(k, sizeof k, "b_eff_io weighted, %lld procs", np);
                add(ms, k, "MB/s", mb_rec_num(o, "b_eff_io_mbytes_per_sec"), NAN, NAN, 1);
                if (def) {
                    snprintf(k, sizeof k, "b_eff_io, %lld procs", np);
                    add(ms, k, "MB/s", mb_rec_num(o, "release21_mbytes_per_sec"), NAN, NAN, 1);
                }
            }
        }
    }
}

/* Benchmark names, modes and file names come from the files: printed with control characters
 * shown as \xNN (core/report_text.h), so that an escape sequence in a results file cannot
 * retitle or recolour the terminal. */
struct pair {
    const struct measure *b, *c;
    double ratio; /* > 1: the new run is worse (time up, bandwidth down) */
    int verdict;  /* 2 regressed, 1 worse within spread, -1 improved, 0 within threshold */
};

static int by_ratio(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->ratio != y->ratio)
        return x->ratio < y->ratio ? 1 : -1;
    return strcmp(x->b->key, y->b->key);
}

/* The suites and process counts a file holds, for the "nothing matches" message. */
static void describe(const struct measures *ms, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ms->n && i < 3 && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", ms->m[i].key);
    if (ms->n > 3 && used + 1 < len)
        snprintf(buf + used, len - used, ", ...");
}

int mb_compare(const struct mb_records *base, const struct mb_records *cur, double threshold_pct,
               FILE *out, char *msg, size_t len)
{
    struct measures b = {NULL, 0, 0, json_object()}, c = {NULL, 0, 0, json_object()};
    struct pair *p;
    size_t np = 0, regressed = 0, improved = 0, within = 0;
    const double limit = 1 + threshold_pct / 100;
    int status;

    extract(base, &b);
    extract(cur, &c);
    p = mb_rs_alloc(NULL, b.n + 1, sizeof *p);
    for (size_t i = 0; i < b.n; i++) {
        const json_t *j = json_object_get(c.index, b.m[i].key);
        if (j) {
            struct pair *q = &p[np++];
            const struct measure *x = &b.m[i], *y = &c.m[json_integer_value(j)];
            /* beyond spread: the new run's whole range lies on the worse side of the
             * base run's range */
            const int beyond = x->higher_better ? y->hi < x->lo : y->lo > x->hi;
            const int better = x->higher_better ? y->lo > x->hi : y->hi < x->lo;
            q->b = x;
            q->c = y;
            q->ratio = x->higher_better ? x->value / y->value : y->value / x->value;
            if (!isfinite(q->ratio))
                q->ratio = x->value == y->value ? 1 : HUGE_VAL;
            q->verdict = q->ratio > limit                 ? (beyond ? 2 : 1)
                         : q->ratio * limit < 1 && better ? -1
                                                          : 0;
            regressed += q->verdict == 2;
            within += q->verdict == 1;
            improved += q->verdict == -1;
        }
    }
    if (np == 0) {
        char db[120], dc[120];
        describe(&b, db, sizeof db);
        describe(&c, dc, sizeof dc);
        if (b.n == 0 || c.n == 0)
            snprintf(msg, len, "'%s' holds no results to compare",
                     b.n == 0 ? base->path : cur->path);
        else
            snprintf(msg, len,
                     "no measurement of '%s' matches one of '%s' (%s vs %s): compare runs of the "
                     "same benchmarks, sizes and process counts",
                     base->path, cur->path, db, dc);
        status = 2;
    } else {
        qsort(p, np, sizeof *p, by_ratio);
        mb_fprintf_escaped(out, "# mpibench compare: base '%s', new '%s'\n", base->path, cur->path);
        mb_fprintf_escaped(
            out,
            "# %zu measurements in both (%zu only in base, %zu only in new); ratio > 1: "
            "the new run is worse\n",
            np, b.n - np, c.n - np);
        mb_fprintf_escaped(
            out,
            "# threshold %g %%; REGRESSED = worse beyond the threshold and beyond the "
            "spread both runs saw (min..max)\n",
            threshold_pct);
        mb_fprintf_escaped(out, "%9s %14s %14s %-5s %-20s %s\n", "ratio", "base", "new", "unit",
                           "verdict", "measurement");
        for (size_t i = 0; i < np; i++) {
            static const char *const v[] = {"improved", "", "worse, in spread", "REGRESSED"};
            mb_fprintf_escaped(out, "%9.3f %14.4g %14.4g %-5s %-20s %s\n", p[i].ratio,
                               p[i].b->value, p[i].c->value, p[i].b->unit, v[p[i].verdict + 1],
                               p[i].b->key);
        }
        mb_fprintf_escaped(out, "# %zu regressed, %zu worse within the spread, %zu improved\n",
                           regressed, within, improved);
        status = regressed ? 1 : 0;
    }
    free(p);
    free(b.m);
    free(c.m);
    json_decref(b.index);
    json_decref(c.index);
    return status;
}
