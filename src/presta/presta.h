/* SPDX-License-Identifier: BSD-3-Clause */
/* Presta 1.2 (its README and sources): what com, laten and rma share at run time - the pairing
 * job, the butterfly barrier, active communicators, the -i pairs block, the Test Parameters
 * block, the footer - and the result rows that the text and JSON printers render. */
#ifndef MB_PRESTA_H
#define MB_PRESTA_H

#include "core/suite.h"
#include "presta/presta_config.h"
#include "presta/presta_plan.h"

#include <mpi.h>

/* What com, laten and rma differ in where their shared code serves them: one row per
 * program, defined in the program's own file, so that the shared code never asks which
 * program it runs. */
struct mb_presta_program {
    /* The JSON field of a row's time per operation: laten's "latency_usec", com's and rma's
     * "op_time_usec" (docs/results.schema.json, presta_row). */
    const char *figure;
    int bandwidth; /* the rows have a bandwidth (com, rma; laten's are 0 bytes) */
    /* The starting value of the smallest sample time (seconds) behind the footer's "Ticks for
     * minimum sample": 9999 in Presta 1.2's laten.c, 99999 in com.c and rma.c. */
    double min_sample_initial;
};

/* One run of com, laten or rma: the layout, this rank's partner and the running tallies. */
struct mb_presta_job {
    const struct mb_ctx *ctx;
    const struct mb_config *cfg;
    const struct mb_presta_program *program;
    struct mb_presta_layout layout;
    int partner;       /* target(rank), fixed for the run (Presta's partner rule) */
    double min_sample; /* smallest reported sample time ("Ticks for minimum sample") */
    long long rows, defects;
};

void mb_presta_job_init(struct mb_presta_job *job, const struct mb_ctx *ctx,
                        const struct mb_config *cfg, const struct mb_presta_program *program);

/* Presta 1.2's butterfly barrier, generic_barrier (zero-byte messages, tag 1), on comm. */
void mb_presta_barrier(MPI_Comm comm);

/* The timed samples of com, laten and rma (timed as in the Presta 1.2 sources com.c, laten.c
 * and rma.c), on every active rank: for each sample k, prologue(arg) if not NULL
 * (rma's fence, not timed), barriers_before butterfly barriers on active, t0, body(arg),
 * one more butterfly barrier on active if barrier_after (inside the timed region; -n clears
 * it), and times[k] = the clock minus t0. The only place these programs read the clock. */
void mb_presta_samples(MPI_Comm active, long samples, void (*prologue)(void *arg),
                       int barriers_before, void (*body)(void *arg), int barrier_after, void *arg,
                       double *times);

/* Collective over the world: the active communicator of a process set of P ranks
 * (Presta 1.2's pair enumeration), MPI_COMM_NULL on inactive ranks. */
MPI_Comm mb_presta_active_comm(const struct mb_presta_job *job, int P);

/* Rank 0: the -i block listing the active pairs of a process set (as Presta 1.2 prints it). */
void mb_presta_pairs_block(const struct mb_presta_job *job, int P);

/* Rank 0: the provenance lines that precede the original output. */
void mb_presta_preamble(const struct mb_ctx *ctx, const struct mb_config *cfg);

/* Rank 0: a column line and its dash rule: as many dashes as the line is wide, plus extra
 * (rma's rule is one longer, quirk Q19). */
void mb_presta_columns(const struct mb_ctx *ctx, const char *cols, int extra);

/* --spread with more than one sample per measurement (docs/adr/samples.md): the titles of three
 * more columns appended to cols (len bytes), and a row's median of its figure over the samples
 * and the median's 95 % interval (the samples times scale), printed where the row ends; both do
 * nothing otherwise. */
void mb_presta_spread_titles(const struct mb_config *cfg, char *cols, size_t len);
void mb_presta_spread_cols(const struct mb_presta_job *job, const double *samples, long n,
                           double scale);

/* Rank 0: the Test Parameters block of com and laten (as Presta 1.2 prints it). */
void mb_presta_params_block(const struct mb_presta_job *job);

/* Collective: the host/partner listing and the timer lines (Presta 1.2's report footer); also the
 * presta_footer JSON record. */
void mb_presta_footer(const struct mb_presta_job *job);

/* Collective: "Rank id %4d ran on %s" for every rank (as Presta 1.2's allred prints it). */
void mb_presta_host_list(const struct mb_ctx *ctx);

/* Collective (--node-map): which ranks share a node (MPI_Comm_split_type), and a warning
 * when -t does not describe that layout. */
void mb_presta_node_map(const struct mb_presta_job *job);

/* The end of a run of com, laten or rma: the job's tallies for the entry point (which agrees
 * on the status and writes the summary), and the run's footer: the --check verdict line. */
int mb_presta_finish(const struct mb_presta_job *job, struct mb_tally *tally);
void mb_presta_footer_check(const struct mb_ctx *ctx, const struct mb_config *cfg,
                            const struct mb_run_end *end);

/* One reported measurement (a table row of com, laten or rma). */
struct mb_presta_row {
    const char *test;      /* "Unidirectional", "Unidir. Put", "Latency", ... */
    int procs;             /* P */
    long long size;        /* bytes per operation */
    long ops;              /* -o */
    long epochs;           /* rma -c; 0 elsewhere */
    double time;           /* T: the reported sample, seconds (max over ranks) */
    double bandwidth;      /* MB/s, 10^6 bytes (not for laten) */
    double op_us;          /* op time, or laten's latency, in microseconds */
    const double *samples; /* every sample's T (--samples), nsamples values */
    long nsamples;
    long long defects; /* -1 without --check */
};

/* The reported sample: the fastest of the samples (the original took only one). */
double mb_presta_pick(const double *samples, long n);

/* Rank 0, after a row was printed: its data-check line, the flush, its JSON record (type
 * presta_row) and the job's row and defect tallies. */
void mb_presta_row_done(struct mb_presta_job *job, const struct mb_presta_row *r);

/* The watchdog label of one measurement. */
void mb_presta_arm(const struct mb_ctx *ctx, const char *test, int procs, long long size);

#endif
