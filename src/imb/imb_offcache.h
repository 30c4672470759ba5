/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB's off-cache mode (guide 5.1.2.4, -off_cache): the rotation of message buffers and the
 * detection of the last-level cache. */
#ifndef MB_IMB_OFFCACHE_H
#define MB_IMB_OFFCACHE_H

#include <stddef.h>

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

#endif
