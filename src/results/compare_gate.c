/* SPDX-License-Identifier: BSD-3-Clause */
/* The tests that decide compare's exit status. Each family tested at alpha on its own is one
 * chance in twenty of a false alarm, and a quick run has about twenty families: on the
 * development VM, whose runs fall into 2-3 times slower regimes now and then, 9-18 % of A/A
 * pairs of 5 runs a side ended with status 1 even at a 25 % threshold (docs/figures.md). So
 * OVERALL and the families share alpha in a sequentially rejective Bonferroni procedure (Bretz,
 * Maurer, Brannath and Posch, "A graphical approach to sequentially rejective multiple test
 * procedures", Stat. Med. 28, 2009): OVERALL starts with 2/3 alpha, the families together with
 * 1/3 alpha, each family its equal share; a rejected hypothesis passes its share on - a
 * family's to the families left (Holm's step-down procedure), OVERALL's to the families, all
 * the families' to OVERALL. An unchanged machine then fails at most alpha of its comparisons,
 * whatever the number of families; the threshold says which change matters, not how noisy the
 * machine is. OVERALL's 0.033 is reached by 5 runs a side with one pair out of order (U = 2,
 * p = 0.032) and by 4 in order (2/70 = 0.029); the families' 0.017 by 7 runs a side for up to
 * 28 families (2/C(14, 7) = 0.00058). */
#include "results/compare_internal.h"

#include <math.h>
#include <stdlib.h>

/* OVERALL's first share of alpha (the families share the rest). */
#define OVERALL_SHARE (2.0 / 3)

struct ranked {
    double p;
    size_t f;
};

static int by_p(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;

    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return (x->f > y->f) - (x->f < y->f);
}

/* The smallest two-sided p the test over runs can give: the U test's 2 / C(nb + nc, nb) (its
 * exact distribution, no ties); the t tests' is as small as the data make it. */
static double smallest_p(const struct mb_comparison *c)
{
    if (c->nb >= MB_ACROSS_U_MIN && c->nc >= MB_ACROSS_U_MIN)
        return fmin(1, 2 * exp(lgamma((double)c->nb + 1) + lgamma((double)c->nc + 1) -
                               lgamma((double)(c->nb + c->nc) + 1)));
    return 0;
}

/* r[0..m): the families' p-values, sorted. Rejects what the procedure rejects; sets each
 * family's level (at which it was rejected, or the one it failed) and OVERALL's. */
static void procedure(struct mb_comparison *c, const struct ranked *r, size_t m)
{
    struct mb_cmp_decision *o = &c->overall;
    const int overall_tested = o->test == MB_CMP_RUNS && isfinite(o->p);
    double over = overall_tested ? OVERALL_SHARE * MB_COMPARE_ALPHA : 0;
    double pool = MB_COMPARE_ALPHA - over;
    int over_rejected = 0, changed = 1;
    size_t k = 0;

    c->family_level = m ? pool / (double)m : NAN;
    while (changed) {
        changed = 0;
        if (overall_tested && !over_rejected && o->p < over) {
            over_rejected = changed = 1;
            o->level = over;
            pool += over;
            over = 0;
        }
        while (k < m && r[k].p < pool / (double)(m - k)) {
            c->fam[r[k].f].d.level = pool / (double)(m - k);
            c->fam[r[k].f].d.significant = 1;
            k++;
            changed = 1;
        }
        if (k == m && overall_tested && !over_rejected && pool > 0) {
            over += pool;
            pool = 0;
            changed = 1;
        }
    }
    for (size_t j = k; j < m; j++) {
        c->fam[r[j].f].d.level = pool / (double)(m - k);
        c->fam[r[j].f].d.significant = 0;
    }
    if (overall_tested) {
        o->significant = over_rejected;
        if (!over_rejected)
            o->level = over;
    }
}

void mb_cmp_gate(struct mb_comparison *c)
{
    struct ranked *r = mb_rs_alloc(NULL, c->nfam + 1, sizeof *r);
    size_t m = 0;

    if (!c->single) {
        for (size_t f = 0; f < c->nfam; f++)
            if (c->fam[f].d.test == MB_CMP_RUNS && isfinite(c->fam[f].d.p))
                r[m++] = (struct ranked){c->fam[f].d.p, f};
        qsort(r, m, sizeof *r, by_p);
        procedure(c, r, m);
        for (size_t k = 0; k < m; k++)
            mb_cmp_judge(&c->fam[r[k].f].d, c->fam[r[k].f].d.threshold_pct);
        if (c->overall.test == MB_CMP_RUNS)
            mb_cmp_judge(&c->overall, c->overall.threshold_pct);
        c->tested_families = m;
        c->smallest_p = smallest_p(c);
    }
    free(r);
    for (size_t f = 0; f < c->nfam; f++)
        c->fam_count[c->fam[f].d.verdict]++;
}
