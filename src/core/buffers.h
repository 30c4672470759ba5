/* SPDX-License-Identifier: BSD-3-Clause */
/* Message buffers: page-aligned allocation and deterministic fill/check patterns (IMB guide
 * 5.2.5, 7.2), shared by every suite. */
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

/* Where a suite's message buffers come from: the mmap above; the same laid out as glibc's
 * malloc lays out a large block, 16 bytes into its own mapping - where IMB 3.1's IMB-MPI1
 * buffers (IMB_mem_manager.c, IMB_v_alloc), Presta's and b_eff's sit, which matters where a
 * library pins or maps the pages of a message (docs/adr/program-imb-buffers.md); or
 * MPI_Alloc_mem - what IMB 3.1
 * uses for IMB-EXT and IMB-IO (IMB_mem_manager.c, IMB_alloc_buf), and an MPI library may return
 * memory there that it has registered with the network or prepared for its I/O layer, which
 * is part of what a one-sided or I/O number means. MPI_Alloc_mem's errors are returned, not
 * fatal: NULL on failure, as for mmap (callers decide collectively). */
/* Where message buffers come from: mpibench's page-aligned mmap, MPI_Alloc_mem, glibc's large-
 * block layout built without malloc, or the C library's malloc and free themselves (whose
 * state - glibc's dynamic mmap threshold - then evolves as in a program that mallocs its
 * buffers, and with it where the MPI library's own temporary buffers come from). */
enum mb_buf_source { MB_BUF_MMAP = 1, MB_BUF_MPI = 2, MB_BUF_MALLOC = 3, MB_BUF_LIBC = 4 };
void *mb_buf_alloc_from(enum mb_buf_source src, size_t bytes);
void mb_buf_free_from(enum mb_buf_source src, void *p, size_t bytes);

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
