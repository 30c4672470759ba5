/* SPDX-License-Identifier: BSD-3-Clause */
/* Presta 1.2's shared machinery as pure functions (as in its sources, mostly util.c): the list of
 * active-process counts, the partner rule, the pair enumeration and the butterfly barrier's
 * schedule. No MPI here, so that the unit tests can check them against the worked examples. */
#ifndef MB_PRESTA_PLAN_H
#define MB_PRESTA_PLAN_H

#include <stddef.h>

/* The pairing layout of a run: W ranks, -t ppn (0 = none), -p c, -r. */
struct mb_presta_layout {
    int world;
    int ppn;
    int cyclic; /* -p c was given (cyclic is in effect only when ppn > 0 and W > 2*ppn) */
    int nearby; /* -r */
};

/* Whether cyclic pairing is in effect (as Presta 1.2 decides it: -p c, ppn > 0, W > 2*ppn). */
int mb_presta_cyclic(const struct mb_presta_layout *l);

/* The default list of active-process counts (Presta 1.2's, without -f). Writes up to cap
 * values and returns how many there are. */
size_t mb_presta_counts(const struct mb_presta_layout *l, int *out, size_t cap);

/* The partner of rank r (Presta 1.2's partner rule; the README's (rank + size/2) % size). */
int mb_presta_target(const struct mb_presta_layout *l, int r);

/* The first member of pair idx (Presta 1.2's pair enumeration); the second is its target. */
int mb_presta_pair_first(const struct mb_presta_layout *l, int idx);

/* Position of rank r in the active communicator of a process set of P ranks: first members
 * of pairs 0..P/2-1, then the second members in the same order (as in Presta 1.2). -1 when r
 * is not active. */
int mb_presta_active_key(const struct mb_presta_layout *l, int P, int r);

/* Checks that the layout is usable: every pair of the enumeration for P = W is a distinct
 * pair of distinct, in-range ranks and partners are mutual. Returns 0, or -1 with a reason. */
int mb_presta_layout_check(const struct mb_presta_layout *l, const char **why);

/* Message sizes START, START*FACTOR, ... <= STOP (as in com.c and rma.c), 64-bit. Returns the
 * count (written up to cap). Needs start >= 1 and factor >= 2 (quirk Q8,
 * docs/adr/presta-command-line.md). */
size_t mb_presta_sizes(long long start, long long stop, long long factor, long long *out,
                       size_t cap);

/* Where Presta 1.2 com.c's message buffers come from. Its source asks for malloc and then
 * memset to 0 (com.c lines 262-263, 351-355), which gcc -O2 compiles into one calloc call: the
 * com binaries bench/originals/build.sh builds call calloc in runUnicomTest and runBicomTest.
 * glibc's calloc writes nothing into a block it has just mapped (fresh mappings are zero) and
 * clears one from its heap. A block is mapped when it is larger than glibc's mmap threshold:
 * 128 KiB at first (a block of 128 KiB came from the heap's spare top in the runs measured),
 * raised to the size of every larger mapped block freed, up to 32 MiB (glibc's dynamic
 * threshold). So com.c's unidirectional phase, each length asked for once and growing, maps
 * every length above 128 KiB, and its bidirectional phase, at lengths no larger, takes them
 * from the heap. This follows one process's heap: threshold starts at 128 KiB. */
struct mb_presta_heap {
    long long threshold;
};
void mb_presta_heap_init(struct mb_presta_heap *h);

/* Whether a block of size bytes from calloc is a fresh mapping that nothing has written (1) or
 * comes from the heap, written with zeros (0). */
int mb_presta_heap_fresh(const struct mb_presta_heap *h, long long size);

/* Frees a block of size bytes that mb_presta_heap_fresh described as fresh (or not): freeing a
 * mapped block raises the threshold to its size (up to 32 MiB). */
void mb_presta_heap_free(struct mb_presta_heap *h, long long size, int fresh);

/* One step of the butterfly barrier for rank k of n (Presta 1.2's generic_barrier). */
enum mb_bfly_op { MB_BFLY_RECV, MB_BFLY_SEND, MB_BFLY_SENDRECV };
struct mb_bfly_step {
    enum mb_bfly_op op;
    int peer;
};

/* The steps rank k of n takes, in order; returns the count (at most 2 + log2(n) + 1). */
int mb_presta_butterfly(int k, int n, struct mb_bfly_step *steps, int cap);

/* The MPI_Wtime overhead routine of Presta 1.2's footer, on any clock: now(user)
 * returns the time. */
double mb_presta_wtime_overhead(double (*now)(void *user), void *user);

#endif
