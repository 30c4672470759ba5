#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "core/buffers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *mb_buf_alloc(size_t bytes)
{
    void *p =
        mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void mb_buf_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

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

void mb_fill_bytes(void *buf, size_t n, int rank, size_t first_index)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = mb_pattern_byte(rank, first_index + i);
}

void mb_fill_floats(float *buf, size_t n, int rank, size_t first_index)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = mb_pattern_float(rank, first_index + i);
}

size_t mb_check_bytes(const void *buf, size_t n, int rank, size_t first_index)
{
    const unsigned char *b = buf;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += b[i] != mb_pattern_byte(rank, first_index + i);
    return bad;
}

size_t mb_check_float_sums(const float *buf, size_t n, int nranks, size_t first_index)
{
    /* mb_pattern_float depends on the rank only through rank % 13: count ranks per residue
     * so that the expected sum costs 13 operations per element, not nranks. */
    size_t per_residue[13] = {0};
    size_t bad = 0;

    for (int r = 0; r < nranks && r < 13; r++)
        per_residue[r] = (size_t)(nranks - r + 12) / 13;
    for (size_t i = 0; i < n; i++) {
        double expect = 0.0;
        for (int k = 0; k < 13; k++)
            expect += (double)per_residue[k] * mb_pattern_float(k, first_index + i);
        bad += (double)buf[i] != expect;
    }
    return bad;
}
