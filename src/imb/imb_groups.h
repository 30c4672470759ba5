/* SPDX-License-Identifier: BSD-3-Clause */
/* Active process sets (IMB guide 5.1.1, 5.1.2.2, 5.1.2.3, 5.1.2.10, 5.2.2).
 *
 * All ranks are first put in an order (the identity, or the -map PxQ renumbering). A block of
 * a benchmark runs on Q processes: the first Q positions of that order, or in Multi mode
 * floor(P/Q) disjoint groups of Q consecutive positions running simultaneously. The others
 * are idle and wait in MPI_Barrier. */
#ifndef MB_IMB_GROUPS_H
#define MB_IMB_GROUPS_H

#include <mpi.h>
#include <stddef.h>

/* Process counts Q = npmin, 2 npmin, 4 npmin, ..., largest 2^x npmin < P, then P
 * (guide 5.1.2.2; npmin > P counts as P). Writes at most cap values; returns the count. */
size_t mb_q_list(int nprocs, int npmin, int *out, size_t cap);

/* -map rows x cols (guide 5.1.2.10): ranks are numbered down the columns of a rows x cols
 * matrix and read along its rows. order[k] is the world rank at position k; identity when
 * rows == 0. */
void mb_map_order(int nprocs, int rows, int cols, int *order);

/* Number of groups of q processes out of nprocs (Multi mode: floor(P/Q); else 1). */
static inline int mb_group_count(int nprocs, int q, int multi)
{
    return multi ? nprocs / q : 1;
}

struct mb_groups {
    int q;           /* processes per group */
    int ngroups;     /* groups running simultaneously */
    int idle;        /* processes waiting in MPI_Barrier */
    int my_group;    /* this process's group, -1 when idle */
    int group_rank;  /* rank within the group */
    MPI_Comm group;  /* this process's group; MPI_COMM_NULL when idle */
    MPI_Comm active; /* all processes of all groups, ordered by position; rank 0 = world 0 */
};

/* Collective over world. order[] as from mb_map_order; position[] is its inverse. */
void mb_groups_create(struct mb_groups *g, MPI_Comm world, const int *position, int q, int multi);
void mb_groups_free(struct mb_groups *g);

#endif
