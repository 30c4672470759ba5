/* SPDX-License-Identifier: BSD-3-Clause */
/* The job's hardware, gathered once per run: each host's lowest rank reads its host with
 * hwloc (core/hardware.h) and places its host's ranks from their CPU masks; rank 0 receives
 * one summary per host, keeps each distinct summary once with the hosts that have it, and
 * the place of every rank. The cost grows with the hosts (one topology each), not the ranks. */
#ifndef MB_HARDWARE_GATHER_H
#define MB_HARDWARE_GATHER_H

#include "core/hardware.h"

#include <mpi.h>

struct mb_hw_report {
    int nkinds;               /* distinct host summaries */
    struct mb_hw_host *kinds; /* [nkinds] */
    int *kind_of_host;        /* [nhosts]: the summary each host has */
    int nhosts;
    struct mb_hw_place *places; /* [nprocs], by world rank; .host indexes the host list */
    int nprocs;
};

/* Collective over comm; node is this host's communicator (MPI_COMM_TYPE_SHARED) and leaders
 * the communicator of the hosts' lowest ranks, in the order of the host list (MPI_COMM_NULL
 * on the others). Only rank 0 of comm fills r (the others get it zeroed). */
void mb_hw_gather(struct mb_hw_report *r, MPI_Comm comm, MPI_Comm node, MPI_Comm leaders);
void mb_hw_report_free(struct mb_hw_report *r);

#endif
