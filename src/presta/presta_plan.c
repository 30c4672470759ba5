/* SPDX-License-Identifier: BSD-3-Clause */
/* Process sets, partners, pairs, sizes and the barrier schedule of Presta 1.2
 * (the Presta 1.2 sources). Validation (presta_options.c) guarantees even W and layouts where
 * these rules give a perfect matching, so nothing here can produce a rank >= W. */
#include "presta/presta_plan.h"

#include <stdlib.h>

int mb_presta_cyclic(const struct mb_presta_layout *l)
{
    return l->cyclic && l->ppn > 0 && l->world > 2LL * l->ppn;
}

static size_t put(int *out, size_t cap, size_t n, int v)
{
    if (n < cap)
        out[n] = v;
    return n + 1;
}

size_t mb_presta_counts(const struct mb_presta_layout *l, int *out, size_t cap)
{
    const int w = l->world;
    size_t n = 0;
    long long p;

    if (l->ppn > 0 && w > 2LL * l->ppn && l->cyclic) {
        /* Additive steps of W/ppn, the number of SMPs. */
        const int nodes = w / l->ppn;
        for (p = nodes; p > 0 && p <= w; p += nodes)
            n = put(out, cap, n, (int)p);
        return n;
    }
    /* Doubling from 2*ppn (or 2), then W when the doubling did not end on it: "half of the
     * first value beyond W differs from W" (as in Presta 1.2). */
    p = (l->ppn > 0 && w > 2LL * l->ppn) ? 2LL * l->ppn : 2;
    for (; p <= w; p *= 2)
        n = put(out, cap, n, (int)p);
    if (n > 0 && p / 2 != w)
        n = put(out, cap, n, w);
    return n;
}

int mb_presta_target(const struct mb_presta_layout *l, int r)
{
    if (l->nearby && l->ppn > 0)
        return (r % (2LL * l->ppn) >= l->ppn) ? r - l->ppn : r + l->ppn;
    return (r < l->world / 2) ? r + l->world / 2 : r - l->world / 2;
}

int mb_presta_pair_first(const struct mb_presta_layout *l, int idx)
{
    const int ppn = l->ppn;

    if (mb_presta_cyclic(l)) {
        if (l->nearby) {
            const long long c = (long long)idx * 2 * ppn;
            return (int)(c % l->world + c / l->world);
        } else {
            const long long c = (long long)idx * ppn, half = l->world / 2;
            return (int)(c % half + c / half);
        }
    }
    if (l->nearby && ppn > 0)
        return idx + (idx / ppn) * ppn;
    return idx;
}

int mb_presta_active_key(const struct mb_presta_layout *l, int P, int r)
{
    for (int idx = 0; idx < P / 2; idx++) {
        const int a = mb_presta_pair_first(l, idx);
        if (a == r)
            return idx;
        if (mb_presta_target(l, a) == r)
            return P / 2 + idx;
    }
    return -1;
}

int mb_presta_layout_check(const struct mb_presta_layout *l, const char **why)
{
    const int w = l->world;
    char *seen;
    int rc = 0;

    if (w < 2 || w % 2 != 0) {
        *why = "the number of processes must be even";
        return -1;
    }
    seen = calloc((size_t)w, 1);
    if (!seen) {
        *why = "out of memory";
        return -1;
    }
    for (int r = 0; r < w && rc == 0; r++) {
        const int t = mb_presta_target(l, r);
        if (t < 0 || t >= w || t == r || mb_presta_target(l, t) != r) {
            *why = "the partner rule does not pair every rank with another one";
            rc = -1;
        }
    }
    for (int idx = 0; idx < w / 2 && rc == 0; idx++) {
        const int a = mb_presta_pair_first(l, idx);
        const int b = (a >= 0 && a < w) ? mb_presta_target(l, a) : -1;
        if (a < 0 || a >= w || b < 0 || b >= w || seen[a] || seen[b]) {
            *why = "the pair enumeration repeats or misses ranks";
            rc = -1;
        } else {
            seen[a] = seen[b] = 1;
        }
    }
    free(seen);
    return rc;
}

size_t mb_presta_sizes(long long start, long long stop, long long factor, long long *out,
                       size_t cap)
{
    size_t n = 0;

    if (start < 1 || factor < 2)
        return 0;
    for (long long s = start; s <= stop; s *= factor) {
        if (n < cap)
            out[n] = s;
        n++;
        if (s > stop / factor) /* the next size would pass STOP (and might overflow) */
            break;
    }
    return n;
}

int mb_presta_butterfly(int k, int n, struct mb_bfly_step *steps, int cap)
{
    int q = 1, m = 0;

    if (n <= 1)
        return 0;
    while (q * 2 <= n)
        q *= 2;
#define STEP(o, p)                                                                                 \
    do {                                                                                           \
        if (m < cap)                                                                               \
            steps[m] = (struct mb_bfly_step){(o), (p)};                                            \
        m++;                                                                                       \
    } while (0)
    if (k >= q) {
        /* An "extra" rank: one exchange with its partner below q. */
        STEP(MB_BFLY_SENDRECV, k - q);
        return m;
    }
    if (k < n - q)
        STEP(MB_BFLY_RECV, k + q); /* fan-in of the extra rank */
    for (int d = 1; d < q; d *= 2)
        STEP(MB_BFLY_SENDRECV, k ^ d); /* recursive doubling */
    if (k < n - q)
        STEP(MB_BFLY_SEND, k + q); /* release the extra rank */
#undef STEP
    return m;
}

double mb_presta_wtime_overhead(double (*now)(void *user), void *user)
{
    const double a = now(user), b = now(user);
    double s, t0, t1;
    long count;

    if (b - a != 0 && now(user) != b)
        return b - a;
    /* The clock is coarser than a call: find the start of a fresh tick, then count the calls
     * until the next one (the call that sees it included). */
    s = now(user);
    do
        t0 = now(user);
    while (t0 == s);
    count = 0;
    do {
        t1 = now(user);
        count++;
    } while (t1 == t0);
    return (t1 - t0) / (double)count;
}

/* glibc 2.36 malloc.c: DEFAULT_MMAP_THRESHOLD (128 KiB) and DEFAULT_MMAP_THRESHOLD_MAX
 * (4 MiB * sizeof(long), 32 MiB on 64-bit Linux), the cap of the dynamic threshold. */
enum { HEAP_THRESHOLD_START = 128 * 1024 };
#define HEAP_THRESHOLD_MAX (32LL * 1024 * 1024)

void mb_presta_heap_init(struct mb_presta_heap *h)
{
    h->threshold = HEAP_THRESHOLD_START;
}

int mb_presta_heap_fresh(const struct mb_presta_heap *h, long long size)
{
    return size > h->threshold;
}

void mb_presta_heap_free(struct mb_presta_heap *h, long long size, int fresh)
{
    if (fresh && size > h->threshold && size <= HEAP_THRESHOLD_MAX)
        h->threshold = size;
}
