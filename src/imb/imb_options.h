/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB families' command line (IMB guide 5.1.2). */
#ifndef MB_IMB_OPTIONS_H
#define MB_IMB_OPTIONS_H

#include "core/options.h"
#include "core/provenance.h"
#include "imb/imb_bench.h"
#include "imb/imb_config.h"

#include <stdio.h>

/* The option sets a family's settings are made of (struct mb_imb_family's settings.sets):
 * the rows of every family first, the resolved lists last, and between them the family's
 * own - -warm_up and -prime (IMB-MPI1, IMB-EXT), -order and the buffer rows (IMB-MPI1), the
 * window rows (IMB-EXT), the scratch-file and CPU_Exploit rows (IMB-IO), and each family's
 * rows of IMB 2021 (imb_newer_options.h). */
extern const struct mb_option_set mb_imb_option_set;
extern const struct mb_option_set mb_imb_warm_up_set;
extern const struct mb_option_set mb_imb_order_set;
extern const struct mb_option_set mb_imb_mpi1_alloc_set;
extern const struct mb_option_set mb_imb_ext_set;
extern const struct mb_option_set mb_imb_io_set;
extern const struct mb_option_set mb_imb_resolved_set;

/* A family's settings defaults (owner: the family) and --help text (s->owner: the family):
 * its benchmark list and its examples. */
void mb_imb_defaults(void *block, const void *owner);
void mb_imb_usage(const struct mb_suite *s, FILE *out);
/* The suite row's thread_level_for: MPI_Init (single) when every benchmark the command line
 * names is one of Intel IMB 2021.11's, else the family's level (IMB 3.1's MULTIPLE). */
int mb_imb_thread_level_for(const struct mb_suite *s, int argc, char **argv);

/* One message length of -msglen's file or -msgsize's list, appended to c->lengths: a
 * non-negative integer up to INT_MAX. 0 or mb_usage(err, ...). */
int mb_imb_length_entry(struct mb_imb_config *c, const char *entry, struct mb_error *err);

int mb_imb_positional(struct mb_config *cfg, const char *arg, struct mb_error *err);
int mb_imb_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);

/* IMB-IO's settings (imb_io_options.c, rank 0): the scratch directory exists and is
 * writable, the file name is a plain name, and - unless --force - no file of a name the run
 * would create exists there. */
int mb_imb_io_validate(struct mb_config *cfg, struct mb_error *err);
/* IMB-IO's up-front space check (rank 0, the end of validation): the most bytes the plan's
 * scratch files hold at once (mb_imb_io_disk_need) against the free space of --dir
 * (docs/adr/io-space-check.md). */
int mb_imb_io_space_check(struct mb_config *cfg, struct mb_error *err);

#endif
