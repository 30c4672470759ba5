/* Message buffers: aligned allocation, deterministic fill/check patterns, and the off-cache
 * rotation of IMB 3.1 (guide 5.1.2.4, 5.2.5, 7.2). */
#ifndef MB_BUFFERS_H
#define MB_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

/* Page-aligned allocation straight from the kernel (mmap), so that freeing a block returns
 * its memory at once: malloc would keep up to tens of MB of freed large blocks resident and
 * inflate the memory a run needs beyond the guide's Table 20. NULL on failure (callers
 * decide collectively what to do). */
void *mb_buf_alloc(size_t bytes);
void mb_buf_free(void *p, size_t bytes);

/* Off-cache rotation (guide 5.1.2.4): consecutive iterations use disjoint buffers, each
 * starting at least 2 cache lines after the end of the previous one, and a buffer is reused
 * only after more than 2x the cache size has been touched on the send and receive side
 * together, so that the memory added is roughly 2x the cache size (guide Table 20 note). */
struct mb_slots {
    size_t sstride; /* distance between consecutive send buffers */
    size_t rstride; /* distance between consecutive receive buffers */
    size_t n;       /* buffers in the rotation; 1 when off-cache is not selected */
};

/* Layout for send/receive buffers of sbytes/rbytes; cache == 0 means off-cache is off. */
struct mb_slots mb_slots_for(size_t sbytes, size_t rbytes, unsigned long long cache,
                             unsigned long long line);

/* Offset of the buffer used in iteration iter. */
static inline size_t mb_slot_offset(size_t stride, size_t nslots, long iter)
{
    /* Without off-cache there is one buffer: no division in the timed loop. */
    return nslots == 1 ? 0 : (size_t)((unsigned long)iter % nslots) * stride;
}

/* Detects the last-level cache size and line size (sysfs, then sysconf); falls back to
 * 8 MB and 64 B, the defaults of the guide's IMB_mem_info.h. */
void mb_detect_cache(unsigned long long *size, unsigned long long *line);

/* Patterns (guide 5.2.5: "any deterministic per-rank pattern" for MPI1). The byte pattern
 * depends on the sender's rank and the byte's index in the sender's buffer; the float pattern
 * uses small integers (1..13) so that sums over up to 10^6 ranks are exact in float. */
static inline unsigned char mb_pattern_byte(int rank, size_t index)
{
    uint32_t x = (uint32_t)index * 0x9E3779B1u ^ ((uint32_t)rank + 1u) * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return (unsigned char)(x >> 3);
}

static inline float mb_pattern_float(int rank, size_t index)
{
    return (float)(((size_t)rank % 13u * 7u + index % 13u) % 13u + 1u);
}

void mb_fill_bytes(void *buf, size_t n, int rank, size_t first_index);
void mb_fill_floats(float *buf, size_t n, int rank, size_t first_index);

/* Number of bytes / floats that differ from the pattern. */
size_t mb_check_bytes(const void *buf, size_t n, int rank, size_t first_index);

/* Number of floats that differ from sum over ranks 0..nranks-1 of mb_pattern_float(r, first+i). */
size_t mb_check_float_sums(const float *buf, size_t n, int nranks, size_t first_index);

#endif
