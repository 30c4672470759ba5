/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/hardware_gather.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a rank sends its host's leader. */
struct rank_mask {
    struct mb_hw_mask mask;
    int cpu;
    int world_rank;
};

/* What a leader sends rank 0 per rank of its host. */
struct rank_place {
    struct mb_hw_place place;
    int world_rank;
};

/* The leader's part: its host's summary, and the places of its ranks (count: local size). */
static struct rank_place *place_host(const struct rank_mask *masks, int count,
                                     struct mb_hw_host *host)
{
    char note[MB_HW_NOTE_LEN];
    struct rank_place *out = mb_xmalloc((size_t)count * sizeof *out);
#ifdef MB_SMPI
    /* A simulated host is the platform file's, not this machine: nothing to read. */
    struct mb_hw_topology *t = NULL;
    snprintf(note, sizeof note, "simulated host (SimGrid): no hardware read");
#else
    struct mb_hw_topology *t = mb_hw_open(note);
#endif

    mb_hw_describe(t, host, note);
    for (int i = 0; i < count; i++) {
        mb_hw_locate(t, &masks[i].mask, masks[i].cpu, &out[i].place);
        out[i].world_rank = masks[i].world_rank;
    }
    mb_hw_close(t);
    return out;
}

/* Rank 0: the distinct summaries of hosts[nhosts], in the order they first appear. */
static void kinds_of(struct mb_hw_report *r, const struct mb_hw_host *hosts)
{
    r->kinds = mb_xmalloc((size_t)r->nhosts * sizeof *r->kinds);
    r->kind_of_host = mb_xmalloc((size_t)r->nhosts * sizeof *r->kind_of_host);
    r->nkinds = 0;
    for (int h = 0; h < r->nhosts; h++) {
        int k = 0;
        /* Whole structs compare: mb_hw_describe zeroes every byte before it fills them. */
        while (k < r->nkinds && memcmp(&r->kinds[k], &hosts[h], sizeof hosts[h]) != 0)
            k++;
        if (k == r->nkinds)
            r->kinds[r->nkinds++] = hosts[h];
        r->kind_of_host[h] = k;
    }
}

void mb_hw_gather(struct mb_hw_report *r, MPI_Comm comm, MPI_Comm node, MPI_Comm leaders)
{
    int rank, local_rank, local_size;
    struct rank_mask mine, *masks = NULL;
    struct rank_place *placed = NULL;
    struct mb_hw_host host;

    memset(r, 0, sizeof *r);
    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_rank(node, &local_rank));
    MB_MPI(MPI_Comm_size(node, &local_size));
    memset(&mine, 0, sizeof mine);
    mb_hw_my_mask(&mine.mask, &mine.cpu);
    mine.world_rank = rank;
    if (local_rank == 0)
        masks = mb_xmalloc((size_t)local_size * sizeof *masks);
    MB_MPI(
        MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, masks, (int)sizeof mine, MPI_BYTE, 0, node));
    if (local_rank == 0)
        placed = place_host(masks, local_size, &host);
    free(masks);
    if (leaders != MPI_COMM_NULL) {
        int nleaders, *counts = NULL, *displs = NULL, bytes = local_size * (int)sizeof *placed;
        struct mb_hw_host *hosts = NULL;
        struct rank_place *all = NULL;
        MB_MPI(MPI_Comm_size(leaders, &nleaders));
        if (rank == 0) {
            MB_MPI(MPI_Comm_size(comm, &r->nprocs));
            r->nhosts = nleaders;
            hosts = mb_xmalloc((size_t)nleaders * sizeof *hosts);
            counts = mb_xmalloc((size_t)nleaders * sizeof *counts);
            displs = mb_xmalloc((size_t)nleaders * sizeof *displs);
        }
        MB_MPI(MPI_Gather(&host, (int)sizeof host, MPI_BYTE, hosts, (int)sizeof host, MPI_BYTE, 0,
                          leaders));
        MB_MPI(MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, leaders));
        if (rank == 0) {
            for (int i = 0, at = 0; i < nleaders; i++) {
                displs[i] = at;
                at += counts[i];
            }
            all = mb_xmalloc((size_t)r->nprocs * sizeof *all);
        }
        MB_MPI(MPI_Gatherv(placed, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, leaders));
        if (rank == 0) {
            r->places = mb_xmalloc((size_t)r->nprocs * sizeof *r->places);
            for (int i = 0; i < nleaders; i++)
                for (int j = 0; j < counts[i] / (int)sizeof *all; j++) {
                    const struct rank_place *p = &all[displs[i] / (int)sizeof *all + j];
                    r->places[p->world_rank] = p->place;
                    r->places[p->world_rank].host = i;
                }
            kinds_of(r, hosts);
        }
        free(hosts);
        free(counts);
        free(displs);
        free(all);
    }
    free(placed);
}

void mb_hw_report_free(struct mb_hw_report *r)
{
    free(r->kinds);
    free(r->kind_of_host);
    free(r->places);
    memset(r, 0, sizeof *r);
}
