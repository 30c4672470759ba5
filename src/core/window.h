/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided windows for IMB-EXT and Presta rma: creation with errors returned and one clear
 * message (with the MPI library setting that helps) when the library cannot create a window,
 * the info from --info, and the workaround that lets disjoint groups create windows at once
 * under Open MPI 4.1. */
#ifndef MB_WINDOW_H
#define MB_WINDOW_H

#include "core/error.h"

#include <mpi.h>
#include <stddef.h>

/* Collective over comm: a window over bytes bytes at mem (disp_unit 1 byte unless given),
 * with MPI_ERRORS_RETURN, in *win; returns 0. If the library refuses on any process of comm,
 * every process of comm agrees on it (no hang when only some were refused): *win is
 * MPI_WIN_NULL, err holds a run-time error with the first refused process's MPI error, the
 * window size and a hint naming the library setting that helps, and the status (1) is
 * returned - for a caller that ends a measurement and goes on (IMB-EXT: the main job's phase
 * fails, the job continues; docs/main-job.md). */
int mb_win_try_create(void *mem, size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win, struct mb_error *err);
/* mb_win_try_create for callers that cannot go on without the window (Presta rma): a refusal
 * ends the job (mb_die) with that message from the group's first process. */
MPI_Win mb_win_create(void *mem, size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm);
void mb_win_free(MPI_Win *win);

/* An MPI_Info from "key=value\n" lines (IMB-EXT --info; guide 5.2.3.3), or MPI_INFO_NULL for
 * NULL. The caller frees a non-null info. */
MPI_Info mb_win_info(const char *lines);

/* Open MPI 4.1's osc/rdma names the shared-memory segment of a window after the node, the
 * job and the communicator's context id only, and the groups of one MPI_Comm_split (IMB's
 * Multi groups, Presta's pairs) all get the same context id: two groups on one node that
 * create windows at the same time collide (MPI_ERR_WIN, seen with 4 processes). Holding a few
 * extra duplicates of the group's communicator moves the context id the library picks for
 * the window, so every group sharing a node with another holds a different number of them
 * ("colour", assigned greedily in group order). Collective over parent; group is this
 * process's group (from one split of parent) or MPI_COMM_NULL. Nothing is done for other MPI
 * libraries. */
struct mb_win_skew {
    MPI_Comm *pads;
    int n;
};
void mb_win_skew_open(struct mb_win_skew *s, MPI_Comm group, MPI_Comm parent);
void mb_win_skew_close(struct mb_win_skew *s);

/* The colour of group gid: ids[2*r] is the group of parent rank r (-1: none), ids[2*r+1] its
 * node; groups sharing a node get different colours, each the smallest free one in group
 * order. Pure, for the unit tests. */
int mb_win_colour(const int *ids, int nranks, int gid);

#endif
