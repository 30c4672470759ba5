/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/window.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mb_win_try_create(void *mem, size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win, struct mb_error *err)
{
    MPI_Win made = MPI_WIN_NULL;
    char text[MPI_MAX_ERROR_STRING] = "";
    int rc, rank, size, first, len = 0;

    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_size(comm, &size));
    /* comm returns errors (MPI_ERRORS_RETURN, inherited from the run's communicator): a
     * window the library refuses comes back as a code here, on some processes or on all. */
    rc = MPI_Win_create(mem, (MPI_Aint)bytes, disp_unit > 0 ? disp_unit : 1, info, comm, &made);
    /* Agree: the lowest process that failed, or size when none did. One collective on the
     * success path, as before. */
    first = rc == MPI_SUCCESS ? size : rank;
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == size) {
        MB_MPI(MPI_Win_set_errhandler(made, MPI_ERRORS_RETURN));
        *win = made;
        return 0;
    }
    /* A window made on the processes where the call succeeded is left alone: MPI_Win_free is
     * collective over the group, and the processes without a window cannot join it (the
     * library keeps it until MPI_Finalize). Every process gets the first failed process's
     * error text: error codes need not mean the same on another process (MPICH's carry a
     * process-local stack). */
    *win = MPI_WIN_NULL;
    if (rank == first && MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", rc);
    MB_MPI(MPI_Bcast(text, (int)sizeof text, MPI_CHAR, first, comm));
    text[sizeof text - 1] = '\0';
    /* No apostrophe outside the quoted settings: the message is an mb_error, whose quoted
     * values are shortened when long (core/error.c). */
    return mb_error_set(
        err, MB_ERR_RUNTIME,
        "cannot create an MPI window (MPI_Win_create of %zu bytes on %d processes): %s. The MPI "
        "library cannot set up one-sided communication here. The default one-sided component "
        "of Open MPI 4.1 (osc/rdma) fails for windows of a single process, over the TCP "
        "transport alone ('--mca btl tcp,self') and when the shared-memory transport has no "
        "single-copy mechanism (btl_vader_single_copy_mechanism=none): choose another one-sided "
        "component with '--mca osc ucx' (or '--mca osc pt2pt', which refuses "
        "MPI_THREAD_MULTIPLE), or leave those transport settings at their defaults",
        bytes, size, text);
}

MPI_Win mb_win_create(void *mem, size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm)
{
    struct mb_error err = {MB_ERR_NONE, ""};
    MPI_Win win;
    int rank;

    if (mb_win_try_create(mem, bytes, disp_unit, info, comm, &win, &err) == 0)
        return win;
    MB_MPI(MPI_Comm_rank(comm, &rank));
    if (rank != 0) {
        /* The first process of the group reports and aborts the job. */
        MPI_Barrier(comm);
        mb_die("MPI_Win_create failed");
    }
    mb_die("%s", err.msg);
}

void mb_win_free(MPI_Win *win)
{
    if (*win != MPI_WIN_NULL)
        MB_MPI(MPI_Win_free(win));
}

MPI_Info mb_win_info(const char *lines)
{
    MPI_Info info;
    char *copy, *save = NULL;

    if (!lines || !*lines)
        return MPI_INFO_NULL;
    MB_MPI(MPI_Info_create(&info));
    copy = mb_xstrdup(lines);
    for (char *kv = strtok_r(copy, "\n", &save); kv; kv = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue; /* the parser accepted key=value lines only */
        *eq = '\0';
        MB_MPI(MPI_Info_set(info, kv, eq + 1));
    }
    free(copy);
    return info;
}

static int by_group(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* Greedy colouring in group order: every node remembers the colours its groups took. */
int mb_win_colour(const int *ids, int nranks, int gid)
{
    int *rows = mb_xmalloc((size_t)(nranks > 0 ? nranks : 1) * 2 * sizeof *rows);
    unsigned char **used = mb_xcalloc((size_t)(nranks > 0 ? nranks : 1), sizeof *used);
    size_t *cap = mb_xcalloc((size_t)(nranks > 0 ? nranks : 1), sizeof *cap);
    int n = 0, mine = 0;

    for (int r = 0; r < nranks; r++)
        if (ids[2 * r] >= 0 && ids[2 * r + 1] >= 0 && ids[2 * r + 1] < nranks) {
            rows[2 * n] = ids[2 * r];
            rows[2 * n + 1] = ids[2 * r + 1];
            n++;
        }
    qsort(rows, (size_t)n, 2 * sizeof *rows, by_group);
    for (int first = 0; first < n;) {
        int last = first, c = 0, clash;
        while (last < n && rows[2 * last] == rows[2 * first])
            last++;
        do {
            clash = 0;
            for (int k = first; k < last && !clash; k++) {
                const int node = rows[2 * k + 1];
                clash = (size_t)c < cap[node] && used[node][c];
            }
            c += clash;
        } while (clash);
        for (int k = first; k < last; k++) {
            const int node = rows[2 * k + 1];
            if ((size_t)c >= cap[node]) {
                size_t grow = (size_t)c + 8;
                used[node] = mb_xrealloc(used[node], grow);
                memset(used[node] + cap[node], 0, grow - cap[node]);
                cap[node] = grow;
            }
            used[node][c] = 1;
        }
        if (rows[2 * first] == gid)
            mine = c;
        first = last;
    }
    for (int r = 0; r < nranks; r++)
        free(used[r]);
    free(used);
    free(cap);
    free(rows);
    return mine;
}

void mb_win_skew_open(struct mb_win_skew *s, MPI_Comm group, MPI_Comm parent)
{
    memset(s, 0, sizeof *s);
#ifdef OPEN_MPI
    {
        int prank, psize, mine[2], colour;
        int *ids;
        MPI_Comm node;

        MB_MPI(MPI_Comm_rank(parent, &prank));
        MB_MPI(MPI_Comm_size(parent, &psize));
        mine[0] = -1;
        if (group != MPI_COMM_NULL)
            MB_MPI(MPI_Allreduce(&prank, &mine[0], 1, MPI_INT, MPI_MIN, group));
        MB_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, prank, MPI_INFO_NULL, &node));
        MB_MPI(MPI_Allreduce(&prank, &mine[1], 1, MPI_INT, MPI_MIN, node));
        MB_MPI(MPI_Comm_free(&node));
        ids = mb_xmalloc((size_t)psize * 2 * sizeof *ids);
        MB_MPI(MPI_Allgather(mine, 2, MPI_INT, ids, 2, MPI_INT, parent));
        colour = mine[0] >= 0 ? mb_win_colour(ids, psize, mine[0]) : 0;
        free(ids);
        if (colour > 0) {
            s->pads = mb_xmalloc((size_t)colour * sizeof *s->pads);
            for (s->n = 0; s->n < colour; s->n++)
                MB_MPI(MPI_Comm_dup(group, &s->pads[s->n]));
        }
    }
#else
    (void)group;
    (void)parent;
#endif
}

void mb_win_skew_close(struct mb_win_skew *s)
{
    for (int i = 0; i < s->n; i++)
        MB_MPI(MPI_Comm_free(&s->pads[i]));
    free(s->pads);
    memset(s, 0, sizeof *s);
}
