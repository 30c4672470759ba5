/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings of Presta's five programs: the struct behind their option rows
 * (presta_options.c). */
#ifndef MB_PRESTA_CONFIG_H
#define MB_PRESTA_CONFIG_H

#include "core/config.h"

#include <stddef.h>

/* Presta 1.2 settings (its flags, and long options after Presta 1.3.0's additions;
 * docs/adr/presta-additions.md). The letters keep the original defaults; the resolved lists are
 * filled by rank 0 during validation and broadcast. */
struct mb_presta_config {
    long start, stop, factor; /* -b, -e, -s: message sizes (com, rma) */
    long epochs;              /* -c: rma epochs per measurement */
    char *count_file;         /* -f: process-count file */
    long ops;                 /* -o: operations per measurement (rma: per epoch) */
    int alloc_cyclic;         /* -p c given (cyclic), else block */
    long ppn;                 /* -t: processes per SMP; 0 = not given */
    int list_pairs;           /* -i */
    int no_barrier;           /* -n */
    int nearby;               /* -r */
    char *sizes_file;         /* --sizes FILE: message sizes instead of -b/-e/-s */
    int node_map;             /* --node-map: print which ranks share a node */
    int buffers;              /* com --buffers: -1 not given (calloc), 0 calloc, 1 memset */
    long args[3];             /* allred: compute iterations, inner iterations, samples */
    int nargs;                /* allred: positional arguments seen */
    /* Resolved by rank 0. */
    long samples; /* com, laten, rma: --samples K, samples per measurement (fastest printed) */
    int cyclic;   /* cyclic pairing in effect (-p c, ppn > 0, W > 2*ppn) */
    int *counts;  /* active-process counts (process sets) */
    size_t n_counts;
    long long *sizes; /* message sizes (-b, -e, -s, or --sizes) */
    size_t n_sizes;
};

static inline const struct mb_presta_config *mb_presta_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

#endif
