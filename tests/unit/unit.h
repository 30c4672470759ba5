/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal assertion helper for the pure-logic unit tests (no MPI_Init needed). */
#ifndef MB_UNIT_H
#define MB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures;

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                    \
            unit_failures++;                                                                       \
        }                                                                                          \
    } while (0)

#define EXPECT_EQ_LL(a, b)                                                                         \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_) {                                                                            \
            fprintf(stderr, "%s:%d: %s = %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_);  \
            unit_failures++;                                                                       \
        }                                                                                          \
    } while (0)

#define EXPECT_STR_CONTAINS(haystack, needle)                                                      \
    do {                                                                                           \
        if (!strstr((haystack), (needle))) {                                                       \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__,         \
                    (haystack), (needle));                                                         \
            unit_failures++;                                                                       \
        }                                                                                          \
    } while (0)

static inline int unit_report(const char *name)
{
    if (unit_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, unit_failures);
    else
        printf("%s: all checks passed\n", name);
    return unit_failures ? 1 : 0;
}

#endif
