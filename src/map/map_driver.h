/* SPDX-License-Identifier: BSD-3-Clause */
/* The map's measurement (map_driver.c) over the communicator of one process per host. */
#ifndef MB_MAP_DRIVER_H
#define MB_MAP_DRIVER_H

#include "map/map.h"

#include "core/watchdog.h"

#include <mpi.h>

/* One pair's figures, as the first host's process sends them to rank 0. */
struct mb_map_link {
    int a, b;                            /* host indices, a < b; -1: no pair */
    double latency_usec, latency_spread; /* best sample; ln(Q3 / Q1) of the samples */
    double ab_mib_per_sec, ab_spread;    /* a to b */
    double ba_mib_per_sec, ba_spread;    /* b to a */
};

/* Rank 0: called for every pair of a round once the round is done. */
typedef void (*mb_map_round_fn)(void *arg, int round, int rounds, const struct mb_map_link *l);

/* One pair on comm, both sides (first: this process sends first and receives the figures in
 * l; the other sends its direction's). */
void mb_map_pair_measure(const struct mb_map_config *c, MPI_Comm comm, int partner, int first,
                         struct mb_map_link *l);

/* Collective over leaders (one process per host, host i = rank i). */
void mb_map_measure(const struct mb_map_config *c, MPI_Comm leaders, struct mb_watchdog *wd,
                    mb_map_round_fn done, void *arg);

#endif
