/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef _DEFAULT_SOURCE /* SimGrid's smpicc has glibc's features.h define it already */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif
#include "core/buffers.h"

#include "core/error.h"

#include <mpi.h>
#include <stdint.h>
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

#ifdef MB_SMPI
/* The simulated build (scripts/scale.sh, docs/adr/smpi-build.md): thousands of simulated
 * processes share one host process, so the malloc and MPI_Alloc_mem sources come from
 * SimGrid's shared allocation - the same physical pages for every process, payloads SMPI does
 * not copy. Their contents are therefore meaningless (--check has nothing to verify in this
 * build); the mmap source stays private, for data that must arrive (b_eff's byte checks). */
void *mb_buf_alloc_from(enum mb_buf_source src, size_t bytes)
{
    return src == MB_BUF_MMAP ? mb_buf_alloc(bytes) : SMPI_SHARED_MALLOC(bytes ? bytes : 1);
}

void mb_buf_free_from(enum mb_buf_source src, void *p, size_t bytes)
{
    if (src == MB_BUF_MMAP)
        mb_buf_free(p, bytes);
    else if (p)
        SMPI_SHARED_FREE(p);
}
#else
/* MPI_Alloc_mem's errors go to MPI_COMM_WORLD's handler under MPI 3.1 and to MPI_COMM_SELF's
 * under MPI 4.0 (errors not tied to an object): both return errors for the call, then get
 * their handlers back, so that a refused allocation is a NULL like mmap's and never the
 * library's abort. MPICH 4.0.2 (ch4:ucx) reports a refused allocation as MPI_SUCCESS with the
 * pointer 0x10 (NULL plus its header): a pointer into the first page, which Linux never maps,
 * is taken for the refusal it is and not freed. */
enum { FIRST_PAGE = 4096 };

static void *alloc_mpi(size_t bytes)
{
    MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    MPI_Errhandler old[2];
    void *p = NULL;
    int rc;

    /* MPI_Aint is signed: a larger request cannot be made (and would not fit anyway). */
    if (bytes > (size_t)PTRDIFF_MAX)
        return NULL;
    for (int i = 0; i < 2; i++) {
        MB_MPI(MPI_Comm_get_errhandler(comms[i], &old[i]));
        MB_MPI(MPI_Comm_set_errhandler(comms[i], MPI_ERRORS_RETURN));
    }
    rc = MPI_Alloc_mem((MPI_Aint)(bytes ? bytes : 1), MPI_INFO_NULL, &p);
    for (int i = 0; i < 2; i++) {
        MB_MPI(MPI_Comm_set_errhandler(comms[i], old[i]));
        MB_MPI(MPI_Errhandler_free(&old[i]));
    }
    return rc == MPI_SUCCESS && (uintptr_t)p >= FIRST_PAGE ? p : NULL;
}

/* The layout of a large block from glibc's malloc: its own mapping, the data 16 bytes (the
 * chunk header, two size_t) into the first page. That is where IMB 3.1's buffers sit (they only
 * grow, so each is a fresh mapping above the 128 KiB threshold), and Presta's and b_eff's
 * large ones: a page-sized message then spans two pages, and a send and a receive buffer sit
 * at the same offset in their pages. Built here rather than taken from malloc, whose placement
 * depends on the heap's history: freed per block, later blocks came from the heap at unrelated
 * offsets (single-copy transfers between them split every page: 1 MiB Sendrecv 12 % slower
 * than IMB 3.1's), and fixing glibc's threshold with mallopt made the library's own large
 * temporary buffers mappings too (Open MPI's Reduce_scatter at 1 MiB 7x slower). */
enum { MALLOC_HEADER = 2 * sizeof(size_t) };

static void *alloc_malloc_layout(size_t bytes)
{
    char *p = bytes > (size_t)-1 - MALLOC_HEADER ? NULL : mb_buf_alloc(bytes + MALLOC_HEADER);
    return p ? p + MALLOC_HEADER : NULL;
}

void *mb_buf_alloc_from(enum mb_buf_source src, size_t bytes)
{
    switch (src) {
    case MB_BUF_MPI:
        return alloc_mpi(bytes);
    case MB_BUF_MALLOC:
        return alloc_malloc_layout(bytes);
    case MB_BUF_LIBC:
        return malloc(bytes ? bytes : 1);
    default:
        return mb_buf_alloc(bytes);
    }
}

void mb_buf_free_from(enum mb_buf_source src, void *p, size_t bytes)
{
    switch (src) {
    case MB_BUF_MPI:
        if (p)
            MB_MPI(MPI_Free_mem(p));
        break;
    case MB_BUF_MALLOC:
        if (p)
            mb_buf_free((char *)p - MALLOC_HEADER, bytes + MALLOC_HEADER);
        break;
    case MB_BUF_LIBC:
        free(p);
        break;
    default:
        mb_buf_free(p, bytes);
    }
}
#endif /* MB_SMPI */

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
