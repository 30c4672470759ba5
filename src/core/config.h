/* SPDX-License-Identifier: BSD-3-Clause */
/* The one configuration struct of a run (docs/architecture.md, property 4).
 *
 * Rank 0 fills it from the command line and input files (defaults in mb_config_defaults and
 * the suite's settings type, validation in each suite's validate hook), then mb_config_bcast
 * copies it to every rank. After that it is only ever passed down const. Each suite owns the
 * struct of its settings (imb/imb_config.h, beff/beff_config.h, presta/presta_config.h); core
 * knows it only through its option rows. */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include "core/userfile.h"

#include <mpi.h>
#include <stddef.h>

/* Settings every suite accepts (README.md, "Options every suite accepts"). */
struct mb_common_config {
    char *json_path;  /* --json FILE */
    char *output_dir; /* --output-dir DIR */
    char *run_id;     /* --run-id ID; made by rank 0 when not given (core/run_id.h) */
    double timeout;   /* --timeout SEC; 0 = no watchdog */
    int check;        /* --check / -check: validate every received buffer */
    int selftest;     /* --check-selftest: corrupt sent data to prove --check sees it */
    int quiet;        /* --quiet: no text on stdout */
    int dry_run;      /* --dry-run: print the run plan only */
    /* --thread-level: enum mb_thread_level, MB_THREAD_DEFAULT when not given (then the
     * suite's; mb_config_thread_level, core/suite.h). */
    int thread_level;
    /* The suite's level for this command line (mb_suite_thread_level), set by rank 0 when it
     * parses; what the run asks for without --thread-level. */
    int suite_thread_level;
    /* --samples K: every row measured as K samples (docs/adr/samples.md); 0 when not given
     * (then the suite's default, mb_config_samples: 1 for every classic program). */
    long samples;
    int raw_samples; /* --raw-samples: JSON rows also carry every sample (F_samples) */
    int spread;      /* --spread: the text tables add the median and its 95 % interval */
    int help;
    int version;
    /* The suite's validation made output_dir itself (the main job takes a fresh name with
     * mkdir): a start refused later removes it again, as one the run's own mkdir made. */
    int output_dir_made;
};

struct mb_config {
    int suite;     /* index into the suite table */
    char *prog;    /* the name messages are prefixed with, e.g. "IMB-MPI1" */
    char *cmdline; /* the exact command line, for the provenance header */
    int nprocs;    /* processes started */
    struct mb_common_config common;
    /* The suite's own settings (struct mb_imb_config, struct mb_beff_config, ...), described
     * by its struct mb_settings_type; NULL until mb_config_settings. */
    void *settings;
    const struct mb_settings_type *settings_type;
    /* Rank 0: every file the run reads or writes (core/userfile.h); a pointer, so that the
     * suites' const views of the configuration can still record their files. */
    struct mb_files *files;
};

struct mb_settings_type;

void mb_config_defaults(struct mb_config *cfg);

/* Gives cfg a zeroed settings block of the type, with its defaults (all ranks). */
void mb_config_settings(struct mb_config *cfg, const struct mb_settings_type *type);

void mb_config_free(struct mb_config *cfg);

/* Rank 0's configuration as one message (docs/adr/startup-messages.md): mb_config_pack makes
 * it on rank 0; its length reaches the other ranks with the verdict on the command line
 * (mb_agree_with); then mb_config_bcast copies it to every rank (collective) and frees it.
 * The blocks travel as bytes; every heap field named by an option row (strings, and the
 * hidden MB_OPT_LIST rows) follows and replaces rank 0's pointer, so no list of fields is
 * kept by hand here. */
struct mb_config_msg {
    char *buf;
    long long len;
};
void mb_config_pack(struct mb_config *cfg, struct mb_config_msg *msg);
void mb_config_bcast(struct mb_config *cfg, struct mb_config_msg *msg, MPI_Comm comm);

#endif
