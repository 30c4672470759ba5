/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_offcache.h"

#include <stdio.h>
#include <unistd.h>

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

static unsigned long long read_size_file(const char *path)
{
    FILE *f = fopen(path, "r");
    unsigned long long v = 0;
    char unit = 0;

    if (!f)
        return 0;
    if (fscanf(f, "%llu%c", &v, &unit) >= 1) {
        if (unit == 'K')
            v *= 1024ull;
        else if (unit == 'M')
            v *= 1024ull * 1024ull;
    }
    fclose(f);
    return v;
}

void mb_detect_cache(unsigned long long *size, unsigned long long *line)
{
    unsigned long long best = 0, best_line = 0;

    /* The highest-indexed data/unified cache of cpu0 is the last level. */
    for (int i = 0; i < 16; i++) {
        char path[128];
        unsigned long long s, l;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        s = read_size_file(path);
        if (s == 0)
            continue;
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        l = read_size_file(path);
        if (s >= best) {
            best = s;
            best_line = l;
        }
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (best == 0) {
        long s = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (s <= 0)
            s = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (s > 0)
            best = (unsigned long long)s;
    }
#endif
    *size = best ? best : 8ull * 1024 * 1024;
    *line = best_line ? best_line : 64;
}
