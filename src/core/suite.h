/* SPDX-License-Identifier: BSD-3-Clause */
/* Suites and the library entry point (docs/architecture.md, property 10).
 *
 * A suite is one row of the table in suite.c: its names (subcommand and original program
 * name for argv[0] dispatch), its option rows, and its hooks. Everything a suite needs at run
 * time arrives in one per-process context and one const configuration. */
#ifndef MB_SUITE_H
#define MB_SUITE_H

#include "core/config.h"
#include "core/options.h"
#include "core/provenance.h"
#include "core/report_json.h"
#include "core/report_text.h"
#include "core/watchdog.h"

#include <mpi.h>
#include <stdio.h>

struct mb_suite;

/* One per process. */
struct mb_ctx {
    MPI_Comm world; /* duplicate of the caller's communicator, MPI_ERRORS_RETURN */
    int rank, size;
    struct mb_out out;          /* rank 0: where text goes */
    const struct mb_sink *json; /* rank 0: JSON Lines file, or NULL */
    struct mb_watchdog *wd;     /* rank 0 with --timeout, else NULL */
    const struct mb_provenance *prov;
    const struct mb_suite *suite;
    void *state; /* what the suite's prepare hook took, for its run */
};

/* What a suite's run hands back (rank 0's counts are the ones that count): the entry point
 * ends every run the same way - status agreed by all ranks, peak memory, the summary record,
 * the data-check message. */
struct mb_tally {
    long long rows;           /* result records produced */
    long long defects;        /* data-check defects found */
    const char *defects_what; /* how the message names them: "defects found" */
    /* A failure the run already reported and went on from (the main job: a phase failed):
     * the run still ends normally (footer, summary record), with this status. */
    int status;
    const char *status_what;
    char status_text[1024]; /* room for a status_what the suite composes */
};

/* The end of a run, as the suite's footer hook sees it. */
struct mb_run_end {
    int status;
    long long rows, defects;
    double seconds;
    unsigned long long peak_rss;
};

struct mb_suite {
    const char *name;   /* subcommand: "imb-mpi1" */
    const char *legacy; /* original program name for argv[0] dispatch, or NULL */
    const char *title;  /* one line for listings */
    /* enum mb_thread_level: how the original program initialises MPI (core/thread_level.h);
     * 0 = MPI_Init. */
    int thread_level;
    /* Optional: the level for this command line where the original program depends on it
     * (argv[0 .. argc-1]: the suite's arguments, after its name; read before MPI_Init, so
     * without the parser): IMB-MPI1 naming only benchmarks of Intel IMB 2021.11, which calls
     * MPI_Init. NULL: thread_level. */
    int (*thread_level_for)(const struct mb_suite *s, int argc, char **argv);
    /* Samples per row without --samples (docs/adr/samples.md); 0 = 1, as the originals. */
    long samples;
    /* What the suite's samples are where they are its own (b_eff's repetitions), for the
     * effective settings of --samples: the number and what it is, after validate; NULL: timed
     * loops. */
    void (*samples_note)(const struct mb_config *cfg, char *buf, size_t len);
    const struct mb_settings_type *settings; /* its settings block and option rows, or NULL */
    mb_positional_fn positional;
    const char *operands; /* --help's synopsis of the positional arguments, with positional */
    /* Rank 0, after parsing: check and resolve the settings (0 or mb_usage). */
    int (*validate)(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
    /* Rank 0: text printed by --help after the synopsis; s is this row. */
    void (*usage)(const struct mb_suite *s, FILE *out);
    /* All ranks: print the run plan (--dry-run), or run. NULL run = not implemented yet.
     * run returns 0, or a status that ends the run at once, and fills the tally. */
    int (*dry_run)(const struct mb_ctx *ctx, const struct mb_config *cfg);
    /* Optional, all ranks, before run and before any output file (--json, --output-dir)
     * exists, so that a refusal leaves every file of the user's as it was: take what the run
     * needs (buffers, protocol files under temporary names) into *state, or refuse with the
     * agreed status 2 (mb_agree) having taken nothing. run finds the state in ctx->state and
     * frees it; release frees it when the run does not start after all. */
    int (*prepare)(const struct mb_ctx *ctx, const struct mb_config *cfg, void **state);
    void (*release)(const struct mb_ctx *ctx, void *state);
    int (*run)(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally);
    /* Optional, rank 0, after the status is agreed: the suite's closing text. */
    void (*footer)(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_run_end *end);
    /* The row this suite was made from where one set of hooks serves several suites (an IMB
     * family, imb/imb_bench.h: its usage hook lists that family's benchmarks); NULL
     * otherwise. */
    const void *owner;
};

/* What the program is made of, defined above core (src/program.c) so that core names no suite
 * and no tool: its suites, in the order `mpibench --help` lists them (each suite's row is its
 * own file's struct mb_suite), and the lines `mpibench --help` shows for the commands that run
 * without MPI. */
struct mb_program {
    const struct mb_suite *const *suites;
    size_t n_suites;
    void (*tools_usage)(FILE *out);
};
extern const struct mb_program mb_program;

/* The suite table: count, entry, index of a subcommand or original name (-1 if none), and the
 * option rows of a suite followed by the common ones. */
size_t mb_suite_count(void);
const struct mb_suite *mb_suite_at(size_t i);
int mb_suite_find(const char *word, int by_legacy);
size_t mb_suite_option_sets(const struct mb_suite *s, struct mb_option_set sets[MB_MAX_SETS]);

/* 1 when the setting called option (as the effective settings name it) of the suite called
 * suite (its subcommand or original name, as a header record's "suite" says) may differ from
 * run to run of the same measurement (struct mb_option's per_run): mpibench compare does not
 * hold it against a group of runs. 0 for a setting or suite no row describes. */
int mb_suite_setting_per_run(const char *suite, const char *option);

/* Option rows accepted by every suite (--json, --check, --timeout, ...). */
extern const struct mb_option mb_common_options[];
extern const size_t mb_n_common_options;

/* The effective settings of every option of the run's suite: text lines and a JSON object. */
void mb_settings_text(const struct mb_suite *s, const struct mb_config *cfg,
                      const struct mb_out *out);
void mb_settings_json(const struct mb_suite *s, const struct mb_config *cfg, struct mb_jobj *o);

/* The JSON header record shared by all suites. */
void mb_json_header(const struct mb_ctx *ctx, const struct mb_config *cfg);

/* The library entry point: runs what argv asks for (argv[0] = original name, or
 * "mpibench <suite> ..."), collectively over comm. Text goes to out on rank 0. Returns the
 * exit status (0, 1 or 2, as README.md lists them): the same on every rank. */
int mpibench_run(int argc, char **argv, MPI_Comm comm, FILE *out);

/* The thread level the run asks for: --thread-level's, else the suite's for its command line
 * (what its original program asked for; core/thread_level.h). */
int mb_config_thread_level(const struct mb_config *cfg);
/* The suite's level for a command line (its arguments after the suite's name): its
 * thread_level_for hook's, else its thread_level. */
int mb_suite_thread_level(const struct mb_suite *s, int argc, char **argv);

/* The samples per row the run takes: --samples's, else the suite's default (1 for every
 * classic program; docs/adr/samples.md). */
long mb_config_samples(const struct mb_config *cfg);

/* mpibench_run that also says why (rank 0; why may be NULL): for a non-zero status, the usage
 * error, the run-time error the run reported at its end (a phase of IMB-IO on a full disk), or
 * its data-check defects, as one line of at most len - 1 characters; "" otherwise (also when
 * the reason went to stderr only, e.g. a refusal of a suite's prepare hook). */
int mpibench_run_why(int argc, char **argv, MPI_Comm comm, FILE *out, char *why, size_t len);

/* Without MPI (`mpibench help [SUITE]`): with word NULL, `mpibench --help`'s text; else the
 * --help of the suite that word names (subcommand or original name), as that suite prints it
 * under mpirun. Returns 0, or -1 when word names no suite (nothing printed). */
int mpibench_help(const char *word, FILE *out);

#endif
