/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_groups.h"

#include "core/error.h"

#include <limits.h>

size_t mb_q_list(int nprocs, int npmin, int *out, size_t cap)
{
    size_t n = 0;
    int q;

    if (nprocs < 1)
        return 0;
    if (npmin < 1)
        npmin = 1;
    if (npmin > nprocs)
        npmin = nprocs;
    for (q = npmin; q < nprocs; q = (q > INT_MAX / 2) ? nprocs : 2 * q)
        if (n < cap)
            out[n++] = q;
    if (n < cap)
        out[n++] = nprocs;
    return n;
}

void mb_map_order(int nprocs, int rows, int cols, int *order)
{
    if (rows <= 0 || cols <= 0 || (long long)rows * cols != nprocs) {
        for (int k = 0; k < nprocs; k++)
            order[k] = k;
        return;
    }
    /* Element (i, j) of the matrix is world rank j*rows + i; position k = i*cols + j. */
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            order[i * cols + j] = j * rows + i;
}

void mb_groups_create(struct mb_groups *g, MPI_Comm world, const int *position, int q, int multi)
{
    int rank, size, pos;

    MB_MPI(MPI_Comm_rank(world, &rank));
    MB_MPI(MPI_Comm_size(world, &size));
    pos = position[rank];
    g->q = q;
    g->ngroups = mb_group_count(size, q, multi);
    g->idle = size - g->ngroups * q;
    g->my_group = (pos < g->ngroups * q) ? pos / q : -1;
    g->group_rank = (g->my_group >= 0) ? pos % q : -1;
    MB_MPI(MPI_Comm_split(world, g->my_group >= 0 ? g->my_group : MPI_UNDEFINED, pos, &g->group));
    MB_MPI(MPI_Comm_split(world, g->my_group >= 0 ? 0 : MPI_UNDEFINED, pos, &g->active));
}

void mb_groups_free(struct mb_groups *g)
{
    if (g->group != MPI_COMM_NULL)
        MB_MPI(MPI_Comm_free(&g->group));
    if (g->active != MPI_COMM_NULL)
        MB_MPI(MPI_Comm_free(&g->active));
}
