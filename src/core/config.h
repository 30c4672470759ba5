/* The one configuration struct of a run (ARCHITECTURE property 4).
 *
 * Rank 0 fills it from the command line and input files (defaults in mb_config_defaults,
 * validation in each suite's validate hook), then mb_config_bcast copies it to every rank.
 * After that it is only ever passed down const. */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <mpi.h>
#include <stddef.h>

/* Settings every suite accepts (SPEC §0, §8). */
struct mb_common_config {
    char *json_path;  /* --json FILE */
    char *output_dir; /* --output-dir DIR */
    double timeout;   /* --timeout SEC; 0 = no watchdog */
    int check;        /* --check / -check: validate every received buffer */
    int selftest;     /* --check-selftest: corrupt sent data to prove --check sees it */
    int quiet;        /* --quiet: no text on stdout */
    int dry_run;      /* --dry-run: print the run plan only */
    int help;
    int version;
};

/* IMB-MPI1 settings (SPEC §1-2, IMB guide 5.1.2). Zero means "the standard value". */
struct mb_imb_config {
    long npmin;              /* -npmin */
    long multi;              /* -multi 0|1; -1 = primary benchmarks */
    double off_cache_mb;     /* -off_cache size in MB; -1 = detect; 0 = off */
    long off_cache_line;     /* -off_cache ...,line bytes */
    long msgspersample;      /* -iter a */
    long overall_vol_mb;     /* -iter a,b (MB) */
    long msgs_nonaggr;       /* -iter a,b,c */
    double time_limit;       /* -time S; 0 = none */
    double mem_gb;           /* -mem G; 0 = default cap */
    long map_rows, map_cols; /* -map PxQ; 0 = none */
    char *msglen_file;       /* -msglen FILE */
    char *input_file;        /* -input FILE */
    long long *lengths;      /* message lengths from -msglen; NULL = standard list */
    size_t n_lengths;
    int *selected; /* benchmark table indices (| MB_IMB_SEL_MULTI) */
    size_t n_selected;
    /* Resolved by rank 0 during validation so that every rank uses the same values. */
    unsigned long long cache_bytes; /* off-cache: last-level cache size; 0 = off */
    unsigned long long cache_line;  /* off-cache: cache line size */
    unsigned long long mem_cap;     /* message-buffer cap per process in bytes */
};

/* b_eff settings (SPEC §5, beff.md A8). Zero means "the standard value" until validation. */
enum mb_beff_profile { MB_BEFF_PAPER = 0, MB_BEFF_V36 = 1, MB_BEFF_V36_TEST = 2 };
struct mb_beff_config {
    char *prefix;        /* -f: protocol file prefix (resolved: never NULL after validation) */
    double ymin, ymax;   /* -yrange min:max for the gnuplot script */
    long memory_mb;      /* --memory MB per process (resolved from the node if not given) */
    long random;         /* --random N random rings entering b_eff */
    long long seed;      /* --seed S for the random rings (resolved: time-based if not given) */
    int seed_given;      /* 1 if --seed was on the command line */
    int profile;         /* --profile: enum mb_beff_profile */
    long repetitions;    /* --repetitions N */
    long max_looplength; /* --max-looplength N: loop length bound (0 = none, 3.6 profiles) */
};

/* Presta 1.2 settings (SPEC §7, presta.md §1.1 and §9.5). The letters keep the original
 * defaults; the resolved lists are filled by rank 0 during validation and broadcast. */
struct mb_presta_config {
    long start, stop, factor; /* -b, -e, -s: message sizes (com, rma) */
    long epochs;              /* -c: rma epochs per measurement */
    char *count_file;         /* -f: process-count file */
    long ops;                 /* -o: operations per measurement (rma: per epoch) */
    char *alloc;              /* -p: "b" (block) or "c" (cyclic) */
    long ppn;                 /* -t: processes per SMP; 0 = not given */
    int list_pairs;           /* -i */
    int no_barrier;           /* -n */
    int nearby;               /* -r */
    long samples;             /* --samples N: samples per measurement (fastest reported) */
    char *sizes_file;         /* --sizes FILE: message sizes instead of -b/-e/-s */
    int node_map;             /* --node-map: print which ranks share a node */
    long args[3];             /* allred: compute iterations, inner iterations, samples */
    int nargs;                /* allred: positional arguments seen */
    /* Resolved by rank 0. */
    int cyclic;  /* cyclic pairing in effect (-p c, ppn > 0, W > 2*ppn) */
    int *counts; /* active-process counts (presta.md §1.2) */
    size_t n_counts;
    long long *sizes; /* message sizes (presta.md §2.2, or --sizes) */
    size_t n_sizes;
};

struct mb_config {
    int suite;     /* index into the suite table */
    char *prog;    /* the name messages are prefixed with, e.g. "IMB-MPI1" */
    char *cmdline; /* the exact command line, for the provenance header */
    int nprocs;    /* processes started */
    struct mb_common_config common;
    struct mb_imb_config imb;
    struct mb_beff_config beff;
    struct mb_presta_config presta;
};

void mb_config_defaults(struct mb_config *cfg);
void mb_config_free(struct mb_config *cfg);

/* Collective: copies rank 0's configuration, including its lists and strings, to all ranks. */
void mb_config_bcast(struct mb_config *cfg, MPI_Comm comm);

#endif
