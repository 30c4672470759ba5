/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_offcache.h"

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

struct mb_slots mb_slots_for(size_t sbytes, size_t rbytes, unsigned long long cache,
                             unsigned long long line)
{
    struct mb_slots s = {sbytes, rbytes, 1};

    if (cache == 0)
        return s;
    if (line == 0)
        line = 64;
    s.sstride = align_up(sbytes, (size_t)line) + 2 * (size_t)line;
    s.rstride = align_up(rbytes, (size_t)line) + 2 * (size_t)line;
    /* (n - 1) buffers pairs touched before reuse must exceed 2 x cache. */
    s.n = (size_t)((2 * cache) / (s.sstride + s.rstride)) + 2;
    return s;
}
