/* SPDX-License-Identifier: BSD-3-Clause */
/* Provenance (docs/architecture.md, property 9): what ran, where, with what. Gathered once
 * per run, collectively; the text and JSON headers print the same struct. */
#ifndef MB_PROVENANCE_H
#define MB_PROVENANCE_H

#include "core/clock.h"
#include "core/hardware_gather.h"
#include "core/mpi_env.h"
#include "core/report_json.h"
#include "core/report_text.h"
#include "core/slurm_env.h"

#include <mpi.h>

struct mb_provenance {
    char date[64];     /* asctime() of the start, without the newline (the originals' text) */
    char iso_date[40]; /* the same as ISO 8601 with the offset from UTC (the JSON header) */
    char machine[65], sysname[65], release[65], version[129], nodename[65];
    char mpi_library[256]; /* first line of MPI_Get_library_version */
    int mpi_version, mpi_subversion;
    int thread_level;
    int nprocs;
    int nhosts;
    int ranks_per_host_min, ranks_per_host_max;
    char *hosts;            /* "name:ranks,name:ranks,..." (rank 0; at most 64 hosts, then "...") */
    char *host_names;       /* rank 0: every host's name, MPI_MAX_PROCESSOR_NAME bytes each */
    struct mb_hw_report hw; /* rank 0: the hosts' hardware and the ranks' places */
    struct mb_env_var *env; /* rank 0: the MPI-relevant environment (core/mpi_env.h) */
    size_t nenv;
    char *mpi_library_report;        /* rank 0: MPI_Get_library_version's whole text */
    unsigned long long mem_per_proc; /* rank 0's node memory / processes on that node */
    char binding[128];               /* CPUs rank 0 may run on */
    int bound_ranks;                 /* ranks restricted to fewer CPUs than their node has */
    struct mb_clock_info clock;
    struct mb_slurm_env slurm; /* rank 0's Slurm job (all NULL outside Slurm) */
};

/* Collective over comm: *node, the processes of this host (MPI_COMM_TYPE_SHARED), and
 * *leaders, each host's lowest rank of comm ordered by that rank - host i of the provenance's
 * host list is rank i of leaders, and comm's rank 0 leads its host - or MPI_COMM_NULL on the
 * others. The caller frees both. */
void mb_host_comms(MPI_Comm comm, MPI_Comm *node, MPI_Comm *leaders);

/* Collective over comm (a duplicate of MPI_COMM_WORLD). */
void mb_provenance_gather(struct mb_provenance *p, MPI_Comm comm);
void mb_provenance_free(struct mb_provenance *p);

const char *mb_thread_level_name(int level);

/* "# key : value" lines of the mpibench provenance block. */
void mb_provenance_text(const struct mb_provenance *p, const struct mb_out *out);
/* IMB's system lines (IMB_g_info.c, and Intel IMB 2021.11's IMB-P2P alike): Date, Machine,
 * System, Release, Version, MPI Version, MPI Thread Environment, as "# %-22s: " lines. */
void mb_provenance_imb_lines(const struct mb_provenance *p, const struct mb_out *out);

/* Adds the provenance fields to a JSON header object. */
void mb_provenance_json(const struct mb_provenance *p, struct mb_jobj *o);

/* Largest peak resident set size over the ranks of comm, in bytes (collective). */
unsigned long long mb_peak_rss(MPI_Comm comm);

#endif
