/* SPDX-License-Identifier: BSD-3-Clause */
/* Presta's shared machinery as pure functions (presta_plan.h) against the Presta 1.2 sources and
 * README: process-count lists, the partner rule, the pair enumeration and the active
 * communicator's order (worked examples, the README's among them), layout validation (quirks
 * Q6, Q7, Q22 of docs/adr/presta-command-line.md), message sizes (Q8), the butterfly barrier's
 * schedule (checked by simulating every rank) and the MPI_Wtime overhead algorithm of the footer
 * (on fake clocks). No MPI calls. */
#include "presta/presta_plan.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int checks, failures;

/* Every check names its case (printf-style) so that a failure says which example broke. */
static int report_(int ok, int line, const char *fmt, va_list ap)
{
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "test_presta.c:%d: FAILED [", line);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "]: ");
    }
    return ok;
}

static void check_(int ok, int line, const char *expr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!report_(ok, line, fmt, ap))
        fprintf(stderr, "%s\n", expr);
    va_end(ap);
}
#define CHECK(cond, ...) check_((cond) != 0, __LINE__, #cond, __VA_ARGS__)

static void check_eq_(long long got, long long want, int line, const char *expr, const char *fmt,
                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!report_(got == want, line, fmt, ap))
        fprintf(stderr, "%s = %lld, expected %lld\n", expr, got, want);
    va_end(ap);
}
#define CHECK_EQ(got, want, ...)                                                                   \
    check_eq_((long long)(got), (long long)(want), __LINE__, #got, __VA_ARGS__)

static struct mb_presta_layout lay(int w, int ppn, int cyclic, int nearby)
{
    return (struct mb_presta_layout){w, ppn, cyclic, nearby};
}

/* The default process-count lists (no -f), with worked examples. */
static void test_counts(void)
{
    static const struct {
        int w, ppn, cyclic, n, v[8];
    } cases[] = {
        {12, 0, 0, 4, {2, 4, 8, 12}},
        {16, 4, 0, 2, {8, 16}},
        {48, 8, 0, 3, {16, 32, 48}},
        {32, 8, 1, 8, {4, 8, 12, 16, 20, 24, 28, 32}},
        {16, 8, 0, 4, {2, 4, 8, 16}}, /* W is not > 2*ppn */
        {16, 8, 1, 4, {2, 4, 8, 16}}, /* ... so -p c is not in effect either */
        {1, 0, 0, 0, {0}},
        {3, 0, 0, 2, {2, 3}}, /* odd: refused elsewhere (Q6), but this is the list */
        {6, 0, 0, 3, {2, 4, 6}},
        {8, 2, 1, 2, {4, 8}},
        {2, 0, 0, 1, {2}},
        {8, 0, 0, 3, {2, 4, 8}},
        {12, 0, 1, 4, {2, 4, 8, 12}}, /* -p c without -t runs block (Q3) */
        /* -t from 2^30 up: 2 x ppn overflowed an int and the list came out empty. */
        {4, 1 << 30, 0, 2, {2, 4}},
        {4, 2147483647, 1, 2, {2, 4}},
    };
    int out[16];

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct mb_presta_layout l = lay(cases[i].w, cases[i].ppn, cases[i].cyclic, 0);
        const size_t n = mb_presta_counts(&l, out, 16);
        CHECK_EQ(n, cases[i].n, "counts W=%d -t %d cyclic=%d", l.world, l.ppn, l.cyclic);
        for (int k = 0; k < cases[i].n && k < (int)n; k++)
            CHECK_EQ(out[k], cases[i].v[k], "counts W=%d -t %d cyclic=%d [%d]", l.world, l.ppn,
                     l.cyclic, k);
    }
    /* A cap below the count: the full count is returned, only cap values are written. */
    {
        const struct mb_presta_layout l = lay(12, 0, 0, 0);
        int small[3] = {-7, -7, -7};
        CHECK_EQ(mb_presta_counts(&l, small, 2), 4, "counts W=12 cap 2");
        CHECK(small[0] == 2 && small[1] == 4 && small[2] == -7, "counts W=12 cap 2 writes 2");
        CHECK_EQ(mb_presta_counts(&l, NULL, 0), 4, "counts W=12 cap 0");
    }
}

/* The partner rule: the default rule, -r with ppn, -r without ppn (falls back), symmetry. */
static void test_target(void)
{
    const struct mb_presta_layout d8 = lay(8, 0, 0, 0), r16 = lay(16, 4, 0, 1),
                                  r0 = lay(8, 0, 0, 1), d5 = lay(5, 0, 0, 0);
    static const int near16[16] = {4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11};

    for (int r = 0; r < 8; r++) {
        CHECK_EQ(mb_presta_target(&d8, r), r < 4 ? r + 4 : r - 4, "target W=8 r=%d", r);
        CHECK_EQ(mb_presta_target(&r0, r), r < 4 ? r + 4 : r - 4, "target W=8 -r no -t r=%d", r);
    }
    for (int r = 0; r < 16; r++)
        CHECK_EQ(mb_presta_target(&r16, r), near16[r], "target W=16 -t 4 -r r=%d", r);
    /* Odd W: the default rule is not symmetric (W=5: 4->2 but 2->0). */
    CHECK_EQ(mb_presta_target(&d5, 4), 2, "target W=5 r=4");
    CHECK_EQ(mb_presta_target(&d5, 2), 0, "target W=5 r=2");
    for (int ppn = 1; ppn <= 8; ppn++)
        for (int m = 1; m <= 6; m++)
            for (int nearby = 0; nearby <= 1; nearby++) {
                const struct mb_presta_layout l = lay(2 * m * ppn, ppn, 0, nearby);
                for (int r = 0; r < l.world; r++) {
                    const int t = mb_presta_target(&l, r);
                    CHECK(t >= 0 && t < l.world && t != r && mb_presta_target(&l, t) == r,
                          "target symmetric W=%d -t %d nearby=%d r=%d", l.world, ppn, nearby, r);
                }
            }
}

/* Pair orders: worked examples, the README's among them, as "first:second"
 * (the -i format) for pairs 0, 1, ... */
static void test_pairs(void)
{
    static const struct {
        const char *name;
        struct mb_presta_layout l;
        const char *pairs;
    } cases[] = {
        {"W=8", {8, 0, 0, 0}, "0:4 1:5 2:6 3:7"},
        {"W=16 -t 4", {16, 4, 0, 0}, "0:8 1:9 2:10 3:11 4:12 5:13 6:14 7:15"},
        {"W=16 -t 4 -r", {16, 4, 0, 1}, "0:4 1:5 2:6 3:7 8:12 9:13 10:14 11:15"},
        {"W=32 -t 8 -p c", {32, 8, 1, 0}, "0:16 8:24 1:17 9:25 2:18 10:26 3:19 11:27"},
        {"W=32 -t 8 -p c -r", {32, 8, 1, 1}, "0:8 16:24 1:9 17:25 2:10 18:26"},
        {"README 4 of 16, 8/SMP", {16, 8, 0, 0}, "0:8 1:9"},
        {"README 8 of 32, 8/SMP cyclic", {32, 8, 1, 0}, "0:16 8:24 1:17 9:25"},
        {"W=8 -t 2 -p c", {8, 2, 1, 0}, "0:4 2:6 1:5 3:7"},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct mb_presta_layout *l = &cases[i].l;
        const char *p = cases[i].pairs;
        int first, second, used, idx = 0;
        for (; sscanf(p, "%d:%d%n", &first, &second, &used) == 2; p += used, idx++) {
            const int a = mb_presta_pair_first(l, idx);
            CHECK_EQ(a, first, "pairs %s idx %d first", cases[i].name, idx);
            CHECK_EQ(mb_presta_target(l, a), second, "pairs %s idx %d second", cases[i].name, idx);
        }
        CHECK(idx >= 2 && *p == 0, "pairs %s: table parsed", cases[i].name);
    }
    /* Cyclic is in effect only with -p c, ppn > 0 and W > 2*ppn, as in Presta 1.2. */
    CHECK(mb_presta_cyclic(&(struct mb_presta_layout){32, 8, 1, 0}), "cyclic W=32 -t 8 -p c");
    CHECK(!mb_presta_cyclic(&(struct mb_presta_layout){16, 8, 1, 0}), "cyclic W=16 -t 8 -p c");
    CHECK(!mb_presta_cyclic(&(struct mb_presta_layout){32, 0, 1, 0}), "cyclic W=32 -p c");
    CHECK(!mb_presta_cyclic(&(struct mb_presta_layout){32, 8, 0, 0}), "cyclic W=32 -t 8");
}

/* The active communicator's order: first members in pair order, then the second members. */
static void test_active_key(void)
{
    static const int layouts[][4] = {{8, 0, 0, 0},  {16, 4, 0, 1}, {32, 8, 1, 0},
                                     {32, 8, 1, 1}, {8, 2, 1, 0},  {48, 8, 0, 0}};

    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        const struct mb_presta_layout l =
            lay(layouts[i][0], layouts[i][1], layouts[i][2], layouts[i][3]);
        for (int P = 2; P <= l.world; P += 2) {
            int want[64], seen[64] = {0};
            for (int r = 0; r < l.world; r++)
                want[r] = -1;
            for (int idx = 0; idx < P / 2; idx++) {
                const int a = mb_presta_pair_first(&l, idx);
                want[a] = idx;
                want[mb_presta_target(&l, a)] = P / 2 + idx;
            }
            for (int r = 0; r < l.world; r++) {
                const int key = mb_presta_active_key(&l, P, r);
                CHECK_EQ(key, want[r], "active_key W=%d -t %d c=%d nearby=%d P=%d rank %d", l.world,
                         l.ppn, l.cyclic, l.nearby, P, r);
                if (key >= 0 && key < P)
                    seen[key]++;
            }
            for (int key = 0; key < P; key++)
                CHECK_EQ(seen[key], 1, "active_key W=%d -t %d c=%d nearby=%d P=%d key %d used once",
                         l.world, l.ppn, l.cyclic, l.nearby, P, key);
            CHECK_EQ(mb_presta_active_key(&l, P, 0), 0, "active_key W=%d P=%d rank 0", l.world, P);
        }
    }
}

/* Validation: even W >= 2 (Q6); W a multiple of 2*ppn for -r (Q22) and for effective cyclic
 * pairing (which assumes W is a multiple of ppn and W/ppn is even); here -r without -t falls
 * back to the default rule (the command line refuses it before: Q7). Every accepted layout must
 * give a perfect matching for P=W. */
static void test_layout_check(void)
{
    const char *why;

    for (int w = -2; w <= 64; w++)
        for (int ppn = 0; ppn <= 9; ppn++)
            for (int cyclic = 0; cyclic <= 1; cyclic++)
                for (int nearby = 0; nearby <= 1; nearby++) {
                    const struct mb_presta_layout l = lay(w, ppn, cyclic, nearby);
                    const int needs_blocks = (nearby && ppn > 0) || mb_presta_cyclic(&l);
                    const int ok = w >= 2 && w % 2 == 0 && (!needs_blocks || w % (2 * ppn) == 0);
                    int rc, seen[64] = {0}, perfect = 1;
                    why = NULL;
                    rc = mb_presta_layout_check(&l, &why);
                    CHECK_EQ(rc, ok ? 0 : -1, "layout_check W=%d -t %d c=%d r=%d", w, ppn, cyclic,
                             nearby);
                    if (rc != 0) {
                        CHECK(why != NULL && *why, "layout_check W=%d -t %d reason", w, ppn);
                        continue;
                    }
                    for (int idx = 0; idx < w / 2 && perfect; idx++) {
                        const int a = mb_presta_pair_first(&l, idx);
                        const int b = (a >= 0 && a < w) ? mb_presta_target(&l, a) : -1;
                        if (b < 0 || b >= w || a == b || seen[a]++ || seen[b]++ ||
                            mb_presta_target(&l, b) != a)
                            perfect = 0;
                    }
                    CHECK(perfect, "layout W=%d -t %d c=%d r=%d: perfect matching", w, ppn, cyclic,
                          nearby);
                }
    /* The named cases, for readable failures. */
    CHECK(mb_presta_layout_check(&(struct mb_presta_layout){12, 4, 0, 1}, &why) != 0,
          "W=12 -t 4 -r must be refused (Q22)");
    CHECK(mb_presta_layout_check(&(struct mb_presta_layout){3, 0, 0, 0}, &why) != 0,
          "W=3 must be refused (Q6)");
    CHECK(mb_presta_layout_check(&(struct mb_presta_layout){1, 0, 0, 0}, &why) != 0,
          "W=1 must be refused");
    CHECK(mb_presta_layout_check(&(struct mb_presta_layout){8, 0, 0, 1}, &why) == 0,
          "W=8 -r without -t falls back to the default rule (Q7)");
}

/* Message sizes (Q8): START*FACTOR^i <= STOP, 64-bit, no overflow, bad arguments give none. */
static void test_sizes(void)
{
    long long s[80];
    size_t n;

    n = mb_presta_sizes(32, 8388608, 2, s, 80);
    CHECK_EQ(n, 19, "sizes defaults");
    for (size_t i = 0; i < n && i < 19; i++)
        CHECK_EQ(s[i], 32LL << i, "sizes defaults [%zu]", i);
    n = mb_presta_sizes(32, 8388608, 3, s, 80);
    CHECK_EQ(n, 12, "sizes -s 3");
    for (size_t i = 0, v = 32; i < n && i < 12; i++, v *= 3)
        CHECK_EQ(s[i], v, "sizes -s 3 [%zu]", i);
    CHECK_EQ(s[11], 5668704, "sizes -s 3 last");
    CHECK_EQ(mb_presta_sizes(32, 100, 2, s, 80), 2, "sizes STOP=100 not hit");
    CHECK_EQ(mb_presta_sizes(32, 128, 2, s, 80), 3, "sizes STOP=128 hit");
    CHECK_EQ(s[2], 128, "sizes STOP=128 included");
    CHECK_EQ(mb_presta_sizes(64, 32, 2, s, 80), 0, "sizes STOP < START");
    CHECK_EQ(mb_presta_sizes(0, 100, 2, s, 80), 0, "sizes START=0");
    CHECK_EQ(mb_presta_sizes(-4, 100, 2, s, 80), 0, "sizes START<0");
    CHECK_EQ(mb_presta_sizes(1, 100, 1, s, 80), 0, "sizes FACTOR=1");
    CHECK_EQ(mb_presta_sizes(1, 100, 0, s, 80), 0, "sizes FACTOR=0");
    CHECK_EQ(mb_presta_sizes(1, 100, -2, s, 80), 0, "sizes FACTOR<0");
    /* Near the limits: 2^30 * 2 passes INT_MAX; the loops must end without overflowing. */
    n = mb_presta_sizes(1LL << 30, INT_MAX, 2, s, 80);
    CHECK(n == 1 && s[0] == 1LL << 30, "sizes 2^30..INT_MAX: n=%zu", n);
    n = mb_presta_sizes(1LL << 30, (1LL << 31) - 1, 2, s, 80);
    CHECK_EQ(n, 1, "sizes 2^30..2^31-1");
    CHECK_EQ(mb_presta_sizes(1LL << 30, 1LL << 31, 2, s, 80), 2, "sizes 2^30..2^31");
    CHECK_EQ(s[1], 1LL << 31, "sizes 2^31 exceeds int");
    n = mb_presta_sizes(1, LLONG_MAX, 2, s, 80);
    CHECK(n == 63 && s[62] == 1LL << 62, "sizes 1..LLONG_MAX factor 2: n=%zu", n);
    CHECK_EQ(mb_presta_sizes(1, LLONG_MAX, 3, s, 80), 40, "sizes 1..LLONG_MAX factor 3");
    CHECK_EQ(mb_presta_sizes(1, LLONG_MAX, LLONG_MAX, s, 80), 2, "sizes factor LLONG_MAX");
    CHECK_EQ(mb_presta_sizes(LLONG_MAX, LLONG_MAX, 2, s, 80), 1, "sizes START=LLONG_MAX");
    /* A cap below the count. */
    s[2] = -1;
    CHECK_EQ(mb_presta_sizes(32, 8388608, 2, s, 2), 19, "sizes cap 2 count");
    CHECK(s[0] == 32 && s[1] == 64 && s[2] == -1, "sizes cap 2 writes only 2");
}

/* Which of com.c's buffers calloc hands over untouched (fresh mappings): a run's phases
 * replayed on one rank's heap model, each block freed before the next length. */
static int com_phase(struct mb_presta_heap *h, const long long *sizes, size_t n, int blocks,
                     int *fresh)
{
    int count = 0;

    for (size_t i = 0; i < n; i++) {
        fresh[i] = mb_presta_heap_fresh(h, sizes[i]);
        count += fresh[i];
        for (int b = 0; b < blocks; b++)
            mb_presta_heap_free(h, sizes[i], fresh[i]);
    }
    return count;
}

static void test_com_heap(void)
{
    long long s[80];
    int fresh[80];
    struct mb_presta_heap h;
    size_t n = mb_presta_sizes(32, 1048576, 2, s, 80);

    /* -o 100 -e 1048576: unidirectional 256 KiB, 512 KiB and 1 MiB fresh; 128 KiB (the
     * threshold itself) and below from the heap. */
    mb_presta_heap_init(&h);
    CHECK_EQ(com_phase(&h, s, n, 1, fresh), 3, "com heap: unidirectional fresh lengths");
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(fresh[i], s[i] > 131072, "com heap: unidirectional %lld bytes", s[i]);
    /* The bidirectional phase after it: the threshold has risen to 1 MiB, all from the heap. */
    CHECK_EQ(h.threshold, 1048576, "com heap: threshold after the unidirectional phase");
    CHECK_EQ(com_phase(&h, s, n, 2, fresh), 0, "com heap: bidirectional fresh lengths");
    /* A second process count (-f) in the unidirectional phase: from the heap too. */
    mb_presta_heap_init(&h);
    (void)com_phase(&h, s, n, 1, fresh);
    CHECK_EQ(com_phase(&h, s, n, 1, fresh), 0, "com heap: second process count");
    /* -b 262144 -e 262144: the one length fresh once, then from the heap. */
    mb_presta_heap_init(&h);
    CHECK_EQ(mb_presta_heap_fresh(&h, 262144), 1, "com heap: 256 KiB first");
    mb_presta_heap_free(&h, 262144, 1);
    CHECK_EQ(mb_presta_heap_fresh(&h, 262144), 0, "com heap: 256 KiB again");
    CHECK_EQ(mb_presta_heap_fresh(&h, 262145), 1, "com heap: one byte more");
    /* A block from the heap moves nothing; above glibc's 32 MiB cap nothing moves either. */
    mb_presta_heap_init(&h);
    mb_presta_heap_free(&h, 1048576, 0);
    CHECK_EQ(h.threshold, 131072, "com heap: heap block freed");
    mb_presta_heap_free(&h, 64LL << 20, 1);
    CHECK_EQ(h.threshold, 131072, "com heap: 64 MiB mapping freed");
    CHECK_EQ(mb_presta_heap_fresh(&h, 64LL << 20), 1, "com heap: 64 MiB stays fresh");
    mb_presta_heap_free(&h, 32LL << 20, 1);
    CHECK_EQ(h.threshold, 32LL << 20, "com heap: 32 MiB mapping freed");
}

/* The butterfly barrier (generic_barrier): build every rank's schedule, check its shape, then run
 * it with rendezvous semantics (a transfer k->p happens only when k is sending to p and p is
 * receiving from k; a SENDRECV posts both halves at once). Knowledge travels with messages:
 * know[k][j] = "k has heard (maybe indirectly) that j entered the barrier". A message carries what
 * its sender knew when the step began. Barrier property: every rank knows about every rank when it
 * finishes. */
#define NMAX 70
#define SMAX 16
static struct mb_bfly_step st[NMAX][SMAX];
static int cnt[NMAX], pc[NMAX], sent[NMAX], recvd[NMAX];
static unsigned char know[NMAX][NMAX], carried[NMAX][NMAX];

/* The peer rank k is sending to (recv = 0) or receiving from (recv = 1) right now, or -1. */
static int peer_(int k, int recv)
{
    const struct mb_bfly_step *s = pc[k] < cnt[k] ? &st[k][pc[k]] : NULL;
    if (!s)
        return -1;
    if (s->op == (recv ? MB_BFLY_RECV : MB_BFLY_SEND))
        return s->peer;
    return (s->op == MB_BFLY_SENDRECV && !(recv ? recvd[k] : sent[k])) ? s->peer : -1;
}

static void maybe_advance(int k, int n)
{
    const enum mb_bfly_op op = st[k][pc[k]].op;
    if (op == MB_BFLY_SEND ? sent[k] : op == MB_BFLY_RECV ? recvd[k] : sent[k] && recvd[k]) {
        pc[k]++;
        sent[k] = recvd[k] = 0;
        memcpy(carried[k], know[k], (size_t)n); /* what the next step's sends carry */
    }
}

static void test_butterfly(void)
{
    for (int n = 1; n <= NMAX; n++) {
        int q = 1, lg = 0, progress = 1, done = 1;
        while (q * 2 <= n)
            q *= 2, lg++;
        for (int k = 0; k < n; k++) {
            const int x = k < n - q; /* k has an extra rank k+q */
            cnt[k] = mb_presta_butterfly(k, n, st[k], SMAX);
            CHECK(cnt[k] >= 0 && cnt[k] <= 2 + lg + 1, "butterfly n=%d k=%d: %d steps", n, k,
                  cnt[k]);
            cnt[k] = cnt[k] < 0 ? 0 : cnt[k] > SMAX ? SMAX : cnt[k];
            if (n <= 1) {
                CHECK_EQ(cnt[k], 0, "butterfly n=%d: no steps", n);
                continue;
            }
            if (k >= q) {
                CHECK(cnt[k] == 1 && st[k][0].op == MB_BFLY_SENDRECV && st[k][0].peer == k - q,
                      "butterfly n=%d extra rank %d: one SENDRECV with %d", n, k, k - q);
                continue;
            }
            CHECK_EQ(cnt[k], lg + 2 * x, "butterfly n=%d k=%d step count", n, k);
            if (cnt[k] != lg + 2 * x)
                continue;
            if (x)
                CHECK(st[k][0].op == MB_BFLY_RECV && st[k][0].peer == k + q &&
                          st[k][cnt[k] - 1].op == MB_BFLY_SEND && st[k][cnt[k] - 1].peer == k + q,
                      "butterfly n=%d k=%d: RECV from / SEND to %d around the doubling", n, k,
                      k + q);
            for (int j = 0; j < lg; j++)
                CHECK(st[k][x + j].op == MB_BFLY_SENDRECV && st[k][x + j].peer == (k ^ (1 << j)),
                      "butterfly n=%d k=%d stage %d: SENDRECV with %d", n, k, j, k ^ (1 << j));
        }
        if (n <= 1)
            continue;
        /* Stage matching: SENDRECV(k->p) at stage j meets SENDRECV(p->k) at stage j. */
        for (int k = 0; k < q; k++)
            for (int j = 0; j < lg; j++) {
                const int p = k ^ (1 << j), sp = (p < n - q) + j;
                CHECK(sp < cnt[p] && st[p][sp].op == MB_BFLY_SENDRECV && st[p][sp].peer == k,
                      "butterfly n=%d: stage %d of %d<->%d is matched", n, j, k, p);
            }
        /* Simulation. */
        for (int k = 0; k < n; k++) {
            pc[k] = sent[k] = recvd[k] = 0;
            memset(know[k], 0, sizeof know[k]);
            know[k][k] = 1;
            memcpy(carried[k], know[k], sizeof know[k]);
        }
        while (progress) {
            progress = 0;
            for (int k = 0; k < n; k++) {
                const int p = peer_(k, 0);
                if (p < 0 || p >= n || peer_(p, 1) != k)
                    continue;
                for (int j = 0; j < n; j++)
                    know[p][j] |= carried[k][j];
                sent[k] = recvd[p] = 1;
                maybe_advance(k, n);
                maybe_advance(p, n);
                progress = 1;
            }
        }
        for (int k = 0; k < n; k++) {
            int all = 1;
            done &= pc[k] == cnt[k];
            for (int j = 0; j < n; j++)
                all &= know[k][j];
            CHECK(pc[k] < cnt[k] || all, "butterfly n=%d: rank %d leaves before all entered", n, k);
        }
        CHECK(done, "butterfly n=%d: the schedule completes without deadlock", n);
    }
}

/* The footer's MPI_Wtime overhead algorithm on fake clocks. A coarse clock returns
 * floor((calls + phase) / k) * tick. The algorithm then spins to the first read of a fresh tick
 * (t0), and counts the k reads until the next tick, the last included: the answer is tick / k
 * whatever the phase. */
struct fake_clock {
    long calls, phase, k;
    double tick, step; /* step > 0: fine clock 'calls * step' */
    const double *seq; /* scripted values, when set */
};

static double fake_now(void *user)
{
    struct fake_clock *c = user;
    const long i = c->calls++;
    if (i > 1000000) /* a runaway loop: let it end, the value check then fails */
        return (double)i;
    if (c->seq)
        return c->seq[i < 12 ? i : 11] + (i < 12 ? 0 : (double)i);
    if (c->step > 0)
        return (double)i * c->step;
    return (double)((i + c->phase) / c->k) * c->tick;
}

static int near(double got, double want)
{
    const double d = got - want;
    return (d < 0 ? -d : d) <= 1e-9 * (want < 0 ? -want : want);
}

static void test_wtime_overhead(void)
{
    static const double ticks[] = {1e-3, 1.0 / 1024, 1e-6};
    /* a=0, b=1 (d != 0), third=1 (== b: coarse), s=1, spin 1, 2 (t0=2), then 2, 2, 2, 5:
     * count 4 including the final read, (5-2)/4. */
    static const double script[12] = {0, 1, 1, 1, 1, 2, 2, 2, 2, 5, 6, 7};
    struct fake_clock c;
    double got;

    for (int e = 0; e < 3; e++) {
        c = (struct fake_clock){.step = ticks[e]};
        got = mb_presta_wtime_overhead(fake_now, &c);
        CHECK(near(got, ticks[e]), "wtime fine clock step %g: got %g", ticks[e], got);
    }
    /* A fine clock whose steps vary: the first difference is the answer. */
    {
        static const double fine[12] = {0, 1e-6, 6e-6, 7e-6, 8e-6, 9e-6, 1e-5, 2e-5, 3e-5, 4e-5};
        c = (struct fake_clock){.seq = fine};
        got = mb_presta_wtime_overhead(fake_now, &c);
        CHECK(near(got, 1e-6), "wtime fine clock, first difference 1e-6: got %g", got);
    }
    for (int e = 0; e < 3; e++)
        for (long k = 2; k <= 7; k++)
            for (long phase = 0; phase < 2 * k; phase++) {
                c = (struct fake_clock){.phase = phase, .k = k, .tick = ticks[e]};
                got = mb_presta_wtime_overhead(fake_now, &c);
                CHECK(near(got, ticks[e] / (double)k),
                      "wtime coarse clock tick %g k=%ld phase %ld: got %g, want %g", ticks[e], k,
                      phase, got, ticks[e] / (double)k);
            }
    /* k=3, phase 2 reads 0, tick, tick: d != 0 but the third read repeats -> coarse path. */
    c = (struct fake_clock){.phase = 2, .k = 3, .tick = 1e-3};
    got = mb_presta_wtime_overhead(fake_now, &c);
    CHECK(near(got, 1e-3 / 3), "wtime d != 0, third read == second: got %g, want %g", got,
          1e-3 / 3);
    c = (struct fake_clock){.seq = script};
    got = mb_presta_wtime_overhead(fake_now, &c);
    CHECK(near(got, 0.75), "wtime scripted coarse clock: got %g, want 0.75", got);
    CHECK_EQ(c.calls, 10, "wtime scripted coarse clock: reads");
}

int main(void)
{
    test_counts();
    test_target();
    test_pairs();
    test_active_key();
    test_layout_check();
    test_sizes();
    test_com_heap();
    test_butterfly();
    test_wtime_overhead();
    if (failures) {
        fprintf(stderr, "test_presta: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_presta: %d checks passed\n", checks);
    return 0;
}
